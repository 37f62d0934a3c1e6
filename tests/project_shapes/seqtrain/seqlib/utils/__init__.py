"""Keys and logging helpers, re-exported by the package."""
from .rng import KeySeq, make_key, noise_like
from .tracking import log_scalar, param_norm, trace_norm, trace_norm_ok

__all__ = ["KeySeq", "log_scalar", "make_key", "noise_like", "param_norm", "trace_norm", "trace_norm_ok"]
