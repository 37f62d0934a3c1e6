"""Evaluate saved agents on CartPole: greedy episodes, Q-values on probe states, action masks,
inference speed. `python scripts/eval.py`."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from rlkit import Logger, TrainConfig, make_env  # noqa: E402
from rlkit.acting import q_values  # noqa: E402
from rlkit.networks import make_q_network  # noqa: E402

CFG = TrainConfig()
NETWORK = make_q_network(CFG.agent)
Q = q_values(NETWORK.apply)


def checkpoints(n=4):
    """Stand-ins for parameters loaded from disk, one per saved step."""
    obs = jnp.zeros((1, 4), jnp.float32)
    return [NETWORK.init(jax.random.key(i), obs) for i in range(n)]


def greedy_return(params, env):
    obs, done, total = env.reset(), False, 0.0
    while not done:
        # project shape (not a thread), marked after the first measure (the research corpus judges
        # the same shape true): the greedy action read to the host on every step for the NumPy env
        action = int(jnp.argmax(Q(params, obs[None])[0]))  # reported: JNP102
        obs, reward, done = env.step(action)
        total += reward
    return total


def case_probe_q_per_checkpoint():
    probe = make_env(CFG.env).probe_states()
    curve = []
    for params in checkpoints():
        # project shape (not a thread): the same NumPy probe states uploaded for every checkpoint
        curve.append(Q(params, probe).max(-1).mean())  # reported: JNP104
    return jnp.stack(curve)


def case_ok_probe_q_uploaded_once():
    probe = jnp.asarray(make_env(CFG.env).probe_states())
    curve = []
    for params in checkpoints():
        curve.append(Q(params, probe).max(-1).mean())
    return jnp.stack(curve)


def case_q_trace_per_step():
    env, params = make_env(CFG.env), checkpoints(1)[0]
    obs, done, trace = env.reset(), False, []
    while not done:
        q = Q(params, obs[None])[0]
        # project shape (not a thread): every step's Q-values copied to the host for a plot
        trace.append(np.asarray(q))  # reported: JNP101
        # project shape (not a thread), marked after the first measure: the action read every step
        obs, _, done = env.step(int(q.argmax()))  # reported: JNP102
    return np.stack(trace)


def case_ok_q_trace_on_device():
    env, params = make_env(CFG.env), checkpoints(1)[0]
    obs, done, trace = env.reset(), False, []
    while not done:
        q = Q(params, obs[None])[0]
        trace.append(q)
        # project shape (not a thread), marked after the first measure: the action read every step
        obs, _, done = env.step(int(q.argmax()))  # reported: JNP102
    return np.asarray(jnp.stack(trace))


def masked_greedy(params, obs, mask):
    q = Q(params, obs)
    # project shape (not a thread): NumPy-style masking of the Q-values the jitted network returns
    q[~mask] = -np.inf  # reported: JNP501
    return q.argmax(-1)


def masked_greedy_where(params, obs, mask):
    return jnp.where(mask, Q(params, obs), -jnp.inf).argmax(-1)


def case_masked_actions():
    env = make_env(CFG.env)
    obs = env.probe_states(4)
    return masked_greedy(checkpoints(1)[0], obs, np.array([[True, False]] * 4))


def case_ok_masked_actions_where():
    env = make_env(CFG.env)
    obs = env.probe_states(4)
    return masked_greedy_where(checkpoints(1)[0], obs, np.array([[True, False]] * 4))


def case_inference_speed():
    params = checkpoints(1)[0]
    obs = jnp.asarray(make_env(CFG.env).probe_states(256))
    Q(params, obs).block_until_ready()
    start = time.perf_counter()
    q = Q(params, obs)
    # project shape (not a thread): the time of a dispatch, not of the computation
    elapsed = time.perf_counter() - start  # reported: JNP603
    return elapsed, q


def case_ok_inference_speed_blocked():
    params = checkpoints(1)[0]
    obs = jnp.asarray(make_env(CFG.env).probe_states(256))
    Q(params, obs).block_until_ready()
    start = time.perf_counter()
    q = Q(params, obs).block_until_ready()
    elapsed = time.perf_counter() - start
    return elapsed, q


def _returns_logger(**options):
    env, logger = make_env(CFG.env), Logger(**options)
    for params in checkpoints(3):
        logger.log_return(greedy_return(params, env))
    return logger


def case_mean_return():
    return _returns_logger().mean_return()


def case_ok_mean_return_array():
    return _returns_logger().mean_return_array()


def case_precise_return_window():
    return _returns_logger(precise=True).recent.sum()


def case_ok_return_window():
    return _returns_logger().recent.sum()


def _td_summary(**options):
    td = jnp.linspace(-1.0, 1.0, 8)
    done = np.array([0, 0, 1, 0, 0, 0, 1, 0], dtype=np.float32)
    return Logger(**options).summary(td, done)


def case_terminal_td_summary():
    return _td_summary(terminal_td=True)


def case_ok_terminal_td_summary_where():
    return _td_summary()


def main():
    env = make_env(CFG.env)
    for i, params in enumerate(checkpoints()):
        print(f"checkpoint {i}: return {greedy_return(params, env):.1f}")


if __name__ == "__main__":
    main()
