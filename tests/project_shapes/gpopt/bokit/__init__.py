"""bokit: Gaussian processes and Bayesian optimisation in JAX."""
from .acquisition import ACQUISITIONS, best_feasible, best_feasible_ok
from .candidates import refine, refine_ok, uniform, uniform_half, uniform_half_ok
from .config import AcqConfig, BOConfig, KernelConfig
from .fitting import HyperFitter, HyperFitterOk, fit_restarts, fit_restarts_ok, make_fit_step, to_host, to_host_ok
from .gp import GP, GPOk, add_noise, add_noise_ok, init_params, neg_mll, neg_mll_ok, posterior, set_jitter
from .loop import BayesOpt, BayesOptOk, device_data, device_data_ok, next_point
from .metrics import calibration, simple_regret, simple_regret_ok
from .objectives import OBJECTIVES, Observations, grid, initial_design
from .utils import KeyStream, MetricLogger

__all__ = ["ACQUISITIONS", "best_feasible", "best_feasible_ok", "refine", "refine_ok", "uniform", "uniform_half",
           "uniform_half_ok", "AcqConfig", "BOConfig", "KernelConfig", "HyperFitter", "HyperFitterOk",
           "fit_restarts", "fit_restarts_ok", "make_fit_step", "to_host", "to_host_ok", "GP", "GPOk", "add_noise",
           "add_noise_ok", "init_params", "neg_mll", "neg_mll_ok", "posterior", "set_jitter", "BayesOpt",
           "BayesOptOk", "device_data", "device_data_ok", "next_point", "calibration", "simple_regret",
           "simple_regret_ok", "OBJECTIVES", "Observations", "grid", "initial_design", "KeyStream", "MetricLogger"]
