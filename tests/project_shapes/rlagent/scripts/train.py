"""Train a DQN agent on CartPole: `python scripts/train.py [--verbose]`."""
import argparse
import dataclasses
import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402

from rlkit import Collector, DQNLearner, Logger, MaskedPolicy, ReplayBuffer, TrainConfig  # noqa: E402
from rlkit import acting, make_env, soft_update  # noqa: E402
from rlkit.learner import make_distill_step, set_discount  # noqa: E402
from rlkit.losses import entropy, entropy_safe  # noqa: E402
from rlkit.networks import make_q_network  # noqa: E402

CFG = TrainConfig(total_steps=120, warmup=64)


def epsilon(t, cfg=CFG):
    return acting.linear_epsilon(t, cfg)


def build(cfg=CFG, policy=acting.epsilon_greedy_where, act=None, **learner_options):
    env = make_env(cfg.env, seed=cfg.seed)
    buffer = ReplayBuffer(cfg.buffer_size, env.obs_dim, seed=cfg.seed)
    network = make_q_network(cfg.agent)
    agent = DQNLearner(network, cfg.agent, **learner_options)
    init_key, act_key = jax.random.split(jax.random.key(cfg.seed))
    params, opt_state = agent.init(init_key, env.obs_dim)
    collector = Collector(env, buffer, network.apply, policy, act_key, act=act)
    collector.collect(params, cfg.warmup, epsilon)
    return network, buffer, agent, collector, params, opt_state


def train(cfg=CFG, log_each_step=False, verbose=False, **build_options):
    network, buffer, agent, collector, params, opt_state = build(cfg, **build_options)
    target, logger = params, Logger()
    for t in range(cfg.warmup, cfg.total_steps):
        collector.collect(params, 1, epsilon, start=t)
        params, opt_state, metrics = agent.update(params, opt_state, target, buffer.sample(cfg.batch_size))
        target = soft_update(target, params, cfg.agent.tau)
        if log_each_step:
            # project shape (not a thread): the loss read back as a Python float after every update
            logger.log(t, loss=float(metrics["loss"]))  # reported: JNP102
        elif t % cfg.log_every == 0:
            logger.log(t, loss=metrics["loss"])
        if verbose:
            # project shape (not a thread): every update formats the device loss when verbose
            print(f"step {t}: loss {metrics['loss']:.4f}")  # reported: JNP103
    for ret in collector.returns:
        logger.log_return(ret)
    return params, logger


def case_huber_loss():
    return train(loss="huber")


def case_ok_huber_loss_jnp():
    return train(loss="huber_jnp")


def case_mixed_precision():
    cfg = dataclasses.replace(CFG, agent=dataclasses.replace(CFG.agent, mixed_precision=True))
    return train(cfg)


def case_ok_full_precision():
    return train()


def case_log_every_step():
    return train(log_each_step=True)


def case_ok_log_every_n():
    return train()


def case_verbose():
    return train(verbose=True)


def case_python_branch_policy():
    return build(policy=acting.epsilon_greedy)


def case_ok_where_policy():
    return build(policy=acting.epsilon_greedy_where)


def case_annealed_policy():
    return build(policy=acting.make_annealed_policy(CFG))


def case_ok_scheduled_policy():
    return build(policy=acting.make_scheduled_policy(CFG))


def case_noisy_policy():
    return build(policy=acting.noisy_greedy)


def case_ok_noisy_policy_jax():
    return build(policy=acting.noisy_greedy_jax)


def case_static_epsilon():
    network = make_q_network(CFG.agent)
    act = jax.jit(functools.partial(acting.epsilon_greedy_where, network.apply), static_argnames="epsilon")
    return build(act=act)


def case_ok_traced_epsilon():
    network = make_q_network(CFG.agent)
    act = jax.jit(functools.partial(acting.epsilon_greedy_where, network.apply))
    return build(act=act)


def case_greedy_episode_one_key():
    _, _, _, collector, params, _ = build()
    return collector.episode(params, jax.random.key(1))


def case_ok_greedy_episode_split():
    _, _, _, collector, params, _ = build()
    return collector.episode_split(params, jax.random.key(1))


def _phases(agent, buffer, params, opt_state, discounts, gamma_arg=False):
    target = params
    for gamma in discounts:
        if not gamma_arg:
            set_discount(gamma)
        for _ in range(5):
            batch = buffer.sample(CFG.batch_size)
            params, opt_state, metrics = agent.update(params, opt_state, target, batch, gamma)
        target = params
    return params


def case_discount_annealing():
    _, buffer, agent, _, params, opt_state = build()
    return _phases(agent, buffer, params, opt_state, (0.9, 0.99))


def case_ok_discount_argument():
    _, buffer, agent, _, params, opt_state = build(discount_arg=True)
    return _phases(agent, buffer, params, opt_state, (0.9, 0.99), gamma_arg=True)


def case_donated_update_soft_target():
    _, buffer, agent, _, params, opt_state = build(donate=True)
    target = jax.tree_util.tree_map(jnp.copy, params)
    for _ in range(3):
        new_params, opt_state, metrics = agent.update(params, opt_state, target, buffer.sample(CFG.batch_size))
        # project shape (not a thread): the soft update reads the parameters the update donated
        target = soft_update(target, params, CFG.agent.tau)  # reported: JNP605
        params = new_params
    return params


def case_ok_donated_update_soft_target_new():
    _, buffer, agent, _, params, opt_state = build(donate=True)
    target = jax.tree_util.tree_map(jnp.copy, params)
    for _ in range(3):
        params, opt_state, metrics = agent.update(params, opt_state, target, buffer.sample(CFG.batch_size))
        target = soft_update(target, params, CFG.agent.tau)
    return params


def _distill(entropy_fn):
    network, buffer, _, _, params, _ = build()
    policy = MaskedPolicy(CFG.agent.num_actions)
    optimizer = optax.adam(1e-3)
    batch = buffer.sample(CFG.batch_size)
    mask = np.ones((CFG.batch_size, 2), dtype=bool)
    mask[::2, 0] = False
    targets = np.asarray(jnp.argmax(network.apply(params, batch["obs"]), -1)).astype(np.int32)
    targets[::2] = 1
    policy_params = policy.init(jax.random.key(2), batch["obs"], mask)
    step = make_distill_step(policy, optimizer, entropy_fn=entropy_fn)
    policy_params, opt_state, loss = step(policy_params, optimizer.init(policy_params), batch["obs"], mask, targets)
    return policy_params


def case_distill_masked_policy():
    return _distill(entropy)


def case_ok_distill_masked_policy_safe():
    return _distill(entropy_safe)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=CFG.total_steps)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    cfg = dataclasses.replace(CFG, total_steps=args.steps)
    params, logger = train(cfg, verbose=args.verbose)
    print("mean return", logger.mean_return_array())


if __name__ == "__main__":
    main()
