"""bayeskit: Hamiltonian and Langevin Monte Carlo for small Bayesian models."""
from .config import KernelConfig, ModelConfig, RunConfig
from .data import Dataset
from .diagnostics import summary, summary_ok
from .keys import KeyStream
from .kernels import KERNELS, ChainState, init_state
from .models import Posterior, PosteriorOk, make_log_density, set_prior_scale
from .sampler import Sampler, SamplerOk
from .sgld import sgld_chain, sgld_step
from .utils import stack_chains, stack_chains_ok

__all__ = ["KernelConfig", "ModelConfig", "RunConfig", "Dataset", "summary", "summary_ok", "KeyStream", "KERNELS",
           "ChainState", "init_state", "Posterior", "PosteriorOk", "make_log_density", "set_prior_scale", "Sampler",
           "SamplerOk", "sgld_chain", "sgld_step", "stack_chains", "stack_chains_ok"]
