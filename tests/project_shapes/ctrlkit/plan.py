"""Swing the pendulum up with MPC on the NumPy plant: `python plan.py [--planner mppi]`."""
import argparse
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from ctrlkit import (COSTS, MPC, ClippedMPC, KeyStream, PendulumPlant, RunConfig, ShiftingMPC, ShiftingMPCOk,
                     dims, make_dynamics, make_planner, rollout, set_control_weight)
from ctrlkit.rollout import VISITED

CFG = RunConfig()


def with_planner(cfg=CFG, **changes):
    return dataclasses.replace(cfg, planner=dataclasses.replace(cfg.planner, **changes))


def with_dynamics(cfg=CFG, **changes):
    return dataclasses.replace(cfg, dynamics=dataclasses.replace(cfg.dynamics, **changes))


def build(cfg=CFG, cls=MPC, dynamics_fn=None):
    planner = make_planner(cfg.planner, dynamics_fn or make_dynamics(cfg.dynamics))
    return planner, cls(planner, cfg.planner.horizon, dims(cfg.dynamics)[1], cfg.dynamics.max_action)


def control(mpc, cfg=CFG, keys=None):
    """The closed loop on the NumPy plant; returns the visited states and the actions."""
    keys = keys or KeyStream(cfg.seed)
    plant = PendulumPlant(cfg.dynamics.dt, cfg.dynamics.max_action, seed=cfg.seed)
    x = plant.reset()
    xs, us = [x], []
    for _ in range(cfg.episode_len):
        u = mpc.act(x, keys())
        x = plant.step(u)
        xs.append(x)
        us.append(u)
    return np.stack(xs), jnp.stack(us)


def control_one_key(mpc, cfg=CFG):
    plant = PendulumPlant(cfg.dynamics.dt, cfg.dynamics.max_action, seed=cfg.seed)
    key = jax.random.PRNGKey(cfg.seed)
    x = plant.reset()
    us = []
    for _ in range(cfg.episode_len):
        # project shape (not a thread): the planner given the same key at every control step
        u = mpc.act(x, key)  # reported: JNP601
        x = plant.step(u)
        us.append(u)
    return jnp.stack(us)


def control_logged(mpc, cfg=CFG, keys=None):
    """The closed loop, printing the running cost of the plant's state."""
    keys = keys or KeyStream(cfg.seed)
    cost_fn = COSTS[cfg.planner.cost]
    plant = PendulumPlant(cfg.dynamics.dt, cfg.dynamics.max_action, seed=cfg.seed)
    x, total = plant.reset(), 0.0
    for t in range(cfg.episode_len):
        u = mpc.act(x, keys())
        # project shape (not a thread): the stage cost read back after every control step
        total += float(cost_fn(jnp.asarray(x), u))  # reported: JNP102
        x = plant.step(u)
        # project shape (not a thread): the planned first action formatted at every step
        print(f"t={t:3d} theta={x[0]:+.3f} u={u[0]:+.3f}")  # reported: JNP103
    return total


def control_logged_ok(mpc, cfg=CFG, keys=None):
    keys = keys or KeyStream(cfg.seed)
    cost_fn = COSTS[cfg.planner.cost]
    plant = PendulumPlant(cfg.dynamics.dt, cfg.dynamics.max_action, seed=cfg.seed)
    x, costs = plant.reset(), []
    for t in range(cfg.episode_len):
        u = mpc.act(x, keys())
        costs.append(cost_fn(jnp.asarray(x), u))
        x = plant.step(u)
        if t % 10 == 0:
            print(f"t={t:3d} theta={x[0]:+.3f}")
    return float(jnp.sum(jnp.stack(costs)))


def episodes(cfg=CFG):
    """Independent episodes, each with a fresh controller so that no warm start carries over."""
    planner = make_planner(cfg.planner, make_dynamics(cfg.dynamics))
    results = []
    for episode in range(cfg.n_episodes):
        # project shape (not a thread): a new controller, which jits the planner again, for every episode
        mpc = MPC(planner, cfg.planner.horizon, dims(cfg.dynamics)[1], cfg.dynamics.max_action)  # reported: JNP602
        results.append(control(mpc, cfg, KeyStream(episode))[1])
    return results


def episodes_ok(cfg=CFG):
    planner, mpc = build(cfg)
    results = []
    for episode in range(cfg.n_episodes):
        mpc.u_seq = jnp.zeros_like(mpc.u_seq)
        results.append(control(mpc, cfg, KeyStream(episode))[1])
    return results


def annealed(cfg=CFG, temperatures=(1.0, 0.3, 0.1)):
    """Lowers MPPI's temperature between episodes, as the plan sharpens."""
    planner, mpc = build(cfg)
    results = []
    for temperature in temperatures:
        # project shape (not a thread): the temperature changed after the controller jitted the plan
        planner.temperature = temperature  # reported: JNP306
        results.append(control(mpc, cfg)[1])
    return results


def annealed_ok(cfg=CFG, temperatures=(1.0, 0.3, 0.1)):
    results = []
    for temperature in temperatures:
        _, mpc = build(with_planner(cfg, temperature=temperature))
        results.append(control(mpc, cfg)[1])
    return results


def weight_sweep(cfg=CFG, weights=(0.01, 0.1, 1.0)):
    _, mpc = build(cfg)
    results = []
    for weight in weights:
        set_control_weight(weight)
        results.append(control(mpc, cfg)[1])
    set_control_weight(0.01)
    return results


def imagined(cfg=CFG, n_steps=10):
    """Plans in the model alone, stepping the JAX dynamics instead of the plant."""
    dynamics_fn = make_dynamics(cfg.dynamics)
    _, mpc = build(cfg, dynamics_fn=dynamics_fn)
    keys = KeyStream(cfg.seed)
    x, states = jnp.array([0.1, 0.0]), []
    for _ in range(n_steps):
        x = dynamics_fn(x, mpc.act(x, keys()))
        # project shape (not a thread): each imagined state copied to the host as it is made
        states.append(np.asarray(x))  # reported: JNP101
    return np.stack(states)


def imagined_ok(cfg=CFG, n_steps=10):
    dynamics_fn = make_dynamics(cfg.dynamics)
    _, mpc = build(cfg, dynamics_fn=dynamics_fn)
    keys = KeyStream(cfg.seed)
    x, states = jnp.array([0.1, 0.0]), []
    for _ in range(n_steps):
        x = dynamics_fn(x, mpc.act(x, keys()))
        states.append(x)
    return np.asarray(jnp.stack(states))


def planned(cfg=CFG, cls=MPC):
    return control(build(cfg, cls)[1], cfg)[1]


def case_one_key():
    return control_one_key(build(with_planner(CFG, name="mppi"))[1])


def case_logged():
    return control_logged(build()[1])


def case_episodes():
    return episodes(dataclasses.replace(CFG, episode_len=2))


def case_annealed():
    return annealed()


def case_weight_sweep():
    return weight_sweep()


def case_imagined():
    return imagined()


def case_mppi_logged():
    return planned(with_planner(CFG, name="mppi_logged"))


def case_mppi_host_noise():
    return planned(with_planner(CFG, name="mppi_host_noise"))


def case_cem_quantile():
    return planned(with_planner(CFG, name="cem_quantile"))


def case_ilqr_backtracking():
    return planned(with_planner(CFG, name="ilqr_backtracking"))


def case_soft():
    return planned(with_dynamics(CFG, name="pendulum_soft"))


def case_counted():
    return planned(with_planner(CFG, cost="swingup_counted"))


def case_recorded():
    planner = make_planner(CFG.planner, make_dynamics(CFG.dynamics), record=True)
    control(MPC(planner, CFG.planner.horizon, 1, CFG.dynamics.max_action))
    return VISITED[-1]


def case_shifting():
    return planned(cls=ShiftingMPC)


def case_clipped():
    return planned(cls=ClippedMPC)


def case_rollout():
    return rollout(make_dynamics(CFG.dynamics), jnp.array([0.1, 0.0]), jnp.ones((5, 1)))


def case_ok_one_key():
    return control(build()[1])[1]


def case_ok_logged():
    return control_logged_ok(build()[1])


def case_ok_episodes():
    return episodes_ok(dataclasses.replace(CFG, episode_len=2))


def case_ok_annealed():
    return annealed_ok()


def case_ok_imagined():
    return imagined_ok()


def case_ok_planners():
    return [planned(with_planner(CFG, name=name)) for name in ("mppi", "mppi_logged_ok", "cem", "cem_topk", "ilqr")]


def case_ok_soft():
    return planned(with_dynamics(CFG, name="pendulum_soft_ok"))


def case_ok_weighted():
    return planned(with_planner(CFG, cost="swingup_weighted"))


def case_ok_shifting():
    return planned(cls=ShiftingMPCOk)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--planner", default=CFG.planner.name)
    parser.add_argument("--steps", type=int, default=CFG.episode_len)
    args = parser.parse_args()
    cfg = dataclasses.replace(with_planner(CFG, name=args.planner), episode_len=args.steps)
    print(f"total cost {control_logged_ok(build(cfg)[1], cfg):.3f}")
