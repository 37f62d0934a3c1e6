"""Evaluate a learned model against the true dynamics, and the planners' metrics: `python evaluate.py`."""
import argparse
import functools

import jax
import jax.numpy as jnp
import numpy as np

from ctrlkit import (FeedbackPolicy, FeedbackPolicyOk, KeyStream, PlannerConfig, ReplayBuffer, RunConfig,
                     action_spread, action_spread_ok, discounted, discounted_ok, dims, initial_state,
                     initial_state_double, make_dynamics, make_planner, mean_episode_cost, mean_episode_cost_ok,
                     rollout, stack_trajectories, stack_trajectories_ok)
from ctrlkit.registry import DYNAMICS

from train import train

CFG = RunConfig()
POINT = RunConfig(planner=PlannerConfig(name="ilqr", cost="reach_avoid", horizon=10))


def test_actions(cfg=CFG, n=4, horizon=15):
    rng = np.random.default_rng(cfg.seed + 7)
    return rng.uniform(-cfg.dynamics.max_action, cfg.dynamics.max_action, (n, horizon, 1)).astype(np.float32)


def starts(n=3):
    return [jnp.array([theta, 0.0]) for theta in np.linspace(-1.0, 1.0, n)]


def model_error(model, cfg=CFG):
    """Open-loop error of the learned model over random action sequences from a few start states."""
    true_dynamics = make_dynamics(cfg.dynamics)
    actions, errors = test_actions(cfg), []
    for x0 in starts():
        # project shape (not a thread): the learned rollout jitted again for every start state
        predict = jax.jit(functools.partial(rollout, model))  # reported: JNP602
        for us in actions:
            errors.append(jnp.mean((predict(x0, us) - rollout(true_dynamics, x0, us)) ** 2))
    return jnp.stack(errors)


def model_error_ok(model, cfg=CFG):
    true_dynamics = make_dynamics(cfg.dynamics)
    predict = jax.jit(functools.partial(rollout, model))
    actions, errors = test_actions(cfg), []
    for x0 in starts():
        for us in actions:
            errors.append(jnp.mean((predict(x0, us) - rollout(true_dynamics, x0, us)) ** 2))
    return jnp.stack(errors)


def goal_gradient(cost="reach_avoid"):
    """iLQR's first cost gradient when the point mass already sits on its goal."""
    cfg = PlannerConfig(name="ilqr", cost=cost, horizon=5)
    planner = make_planner(cfg, functools.partial(DYNAMICS["point"], dt=0.05, max_action=2.0))
    x_goal = jnp.array([1.0, 1.0, 0.0, 0.0])
    us = jnp.zeros((5, 2))
    xs = rollout(planner.dynamics_fn, x_goal, us)
    return planner.l_x(xs[:-1], us), planner.plan(x_goal, us)


def trajectories_to_buffer(add="add_trajectory"):
    dynamics_fn = make_dynamics(CFG.dynamics)
    buffer = ReplayBuffer(100, *dims(CFG.dynamics))
    for us in test_actions(CFG, n=2):
        xs = rollout(dynamics_fn, jnp.array([0.1, 0.0]), us)
        getattr(buffer, add)(xs, us)
    return buffer.x[:buffer.size]


def compact_log(n=2500):
    """Stage costs logged in float16 and integer step weights, as the controller board keeps them."""
    return jnp.full(n, 0.5, dtype=jnp.float16), jnp.arange(n, dtype=jnp.int32)


def episode_costs(n=3):
    return [float(c) for c in np.linspace(1.0, 2.0, n)]


def lqr_gain():
    return np.array([[10.0, 2.0]], np.float32)


def case_model_error():
    return model_error(train()[0])


def case_goal_gradient():
    return goal_gradient()


def case_buffer():
    return trajectories_to_buffer()


def case_stack():
    return stack_trajectories([jnp.ones((3, 2)), jnp.zeros((3, 2))])


def case_mean():
    return mean_episode_cost(episode_costs())


def case_discounted():
    return discounted(*compact_log())


def case_spread():
    return action_spread(jnp.ones((5, 1)))


def case_double():
    return initial_state_double("pendulum").dtype


def case_feedback():
    return FeedbackPolicy(lqr_gain(), jnp.array([np.pi, 0.0]))(jnp.array([3.0, 0.0]))


def case_ok_model_error():
    return model_error_ok(train()[0])


def case_ok_goal_gradient():
    return goal_gradient("reach_avoid_ok")


def case_ok_buffer():
    return trajectories_to_buffer("add_trajectory_ok")


def case_ok_metrics():
    return (stack_trajectories_ok([jnp.ones((3, 2)), jnp.zeros((3, 2))]), mean_episode_cost_ok(episode_costs()),
            discounted_ok(*compact_log()), action_spread_ok(jnp.ones((5, 1)), KeyStream(0)()),
            initial_state("pendulum").dtype)


def case_ok_feedback():
    return FeedbackPolicyOk(lqr_gain(), jnp.array([np.pi, 0.0]))(jnp.array([3.0, 0.0]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=CFG.n_train_steps)
    args = parser.parse_args()
    model = train()[0]
    print("open-loop error per start and sequence:", np.asarray(model_error_ok(model)).round(4))
    print("gradient at the goal is finite:", bool(jnp.all(jnp.isfinite(goal_gradient("reach_avoid_ok")[0]))))
