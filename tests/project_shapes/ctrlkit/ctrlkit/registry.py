"""Planners, dynamics and costs looked up by name, and the factories that bind them to a config."""
import functools

from . import costs, dynamics
from .ilqr import ILQR, BacktrackingILQR
from .sampling import CEM, MPPI, HostNoiseMPPI, LoggedMPPI, LoggedMPPIOk, QuantileCEM, TopKCEM

PLANNERS = {
    "mppi": MPPI,
    "mppi_logged": LoggedMPPI,
    "mppi_logged_ok": LoggedMPPIOk,
    "mppi_host_noise": HostNoiseMPPI,
    "cem": CEM,
    "cem_quantile": QuantileCEM,
    "cem_topk": TopKCEM,
    "ilqr": ILQR,
    "ilqr_backtracking": BacktrackingILQR,
}

DYNAMICS = {
    "pendulum": dynamics.pendulum,
    "pendulum_soft": dynamics.pendulum_soft,
    "pendulum_soft_ok": dynamics.pendulum_soft_ok,
    "point": dynamics.point_mass,
}

COSTS = {
    "swingup": costs.swingup,
    "swingup_weighted": costs.swingup_weighted,
    "swingup_counted": costs.swingup_counted,
    "reach_avoid": costs.reach_avoid,
    "reach_avoid_ok": costs.reach_avoid_ok,
}


def make_dynamics(cfg):
    return functools.partial(DYNAMICS[cfg.name], dt=cfg.dt, max_action=cfg.max_action)


def make_planner(cfg, dynamics_fn, record=False):
    return PLANNERS[cfg.name](cfg, dynamics_fn, COSTS[cfg.cost], record)


def dims(cfg):
    return dynamics.STATE_DIM[cfg.name], dynamics.ACTION_DIM[cfg.name]
