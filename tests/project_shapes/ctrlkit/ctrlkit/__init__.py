"""ctrlkit: model-predictive control with sampling and iLQR planners over known or learned dynamics."""
from .buffer import ReplayBuffer, collect_random
from .config import DynamicsConfig, PlannerConfig, RunConfig
from .controller import MPC, ClippedMPC, FeedbackPolicy, FeedbackPolicyOk, ShiftingMPC, ShiftingMPCOk, planned_cost
from .costs import set_control_weight
from .dynamics import PendulumPlant, initial_state, initial_state_double
from .learned import ensemble_dynamics, make_ensemble, make_ensemble_ok, make_model, one_step_error
from .registry import COSTS, DYNAMICS, PLANNERS, dims, make_dynamics, make_planner
from .rollout import rollout, trajectory_cost
from .training import Trainer, make_optimizer, make_train_step
from .utils import (KeyStream, MetricLogger, action_spread, action_spread_ok, discounted, discounted_ok,
                    mean_episode_cost, mean_episode_cost_ok, stack_trajectories, stack_trajectories_ok,
                    tree_distance, tree_distance_ok)

__all__ = [
    "ReplayBuffer", "collect_random", "DynamicsConfig", "PlannerConfig", "RunConfig", "MPC", "ClippedMPC",
    "FeedbackPolicy", "FeedbackPolicyOk", "ShiftingMPC", "ShiftingMPCOk", "planned_cost", "set_control_weight",
    "PendulumPlant", "initial_state", "initial_state_double", "ensemble_dynamics", "make_ensemble",
    "make_ensemble_ok", "make_model", "one_step_error", "COSTS", "DYNAMICS", "PLANNERS", "dims",
    "make_dynamics", "make_planner", "rollout", "trajectory_cost", "Trainer", "make_optimizer",
    "make_train_step", "KeyStream", "MetricLogger", "action_spread", "action_spread_ok", "discounted",
    "discounted_ok", "mean_episode_cost", "mean_episode_cost_ok", "stack_trajectories",
    "stack_trajectories_ok", "tree_distance", "tree_distance_ok",
]
