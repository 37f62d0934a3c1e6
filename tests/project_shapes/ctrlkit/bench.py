"""Time one planning call of each planner: `python bench.py [--repeat N]`."""
import argparse
import dataclasses
import time

import jax
import jax.numpy as jnp

from ctrlkit import MPC, KeyStream, RunConfig, dims, make_dynamics, make_planner

CFG = RunConfig()


def controller(name, cfg=CFG):
    cfg = dataclasses.replace(cfg, planner=dataclasses.replace(cfg.planner, name=name))
    planner = make_planner(cfg.planner, make_dynamics(cfg.dynamics))
    return MPC(planner, cfg.planner.horizon, dims(cfg.dynamics)[1], cfg.dynamics.max_action)


def time_plan(name, repeat=20):
    mpc, keys = controller(name), KeyStream(0)
    x0 = jnp.array([0.1, 0.0])
    mpc.plan(x0, mpc.u_seq, keys()).block_until_ready()
    start = time.perf_counter()
    for _ in range(repeat):
        u_seq = mpc.plan(x0, mpc.u_seq, keys())
    # project shape (not a thread): the clock read while the last plans may still be running
    elapsed = time.perf_counter() - start  # reported: JNP603
    return elapsed / repeat, u_seq


def time_plan_ok(name, repeat=20):
    mpc, keys = controller(name), KeyStream(0)
    x0 = jnp.array([0.1, 0.0])
    mpc.plan(x0, mpc.u_seq, keys()).block_until_ready()
    start = time.perf_counter()
    for _ in range(repeat):
        u_seq = mpc.plan(x0, mpc.u_seq, keys())
    u_seq.block_until_ready()
    return (time.perf_counter() - start) / repeat, u_seq


def case_time():
    return time_plan("mppi")


def case_ok_time():
    return time_plan_ok("mppi")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for name in ("mppi", "cem", "ilqr"):
        seconds, _ = time_plan_ok(name, args.repeat)
        print(f"{name:5s} {1e3 * seconds:8.2f} ms per plan")
