"""Keys and metrics."""
from .metrics import MetricLogger
from .rng import KeyStream, make_key

__all__ = ["KeyStream", "MetricLogger", "make_key"]
