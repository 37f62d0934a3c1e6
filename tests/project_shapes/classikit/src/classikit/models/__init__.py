"""The model's public names, re-exported from mlp.py."""
from .mlp import active_units, active_units_ok, apply, apply_checked, apply_checked_ok, apply_debug, apply_half
from .mlp import apply_half_ok, apply_numpy_act, dropout, init

__all__ = ["active_units", "active_units_ok", "apply", "apply_checked", "apply_checked_ok", "apply_debug",
           "apply_half", "apply_half_ok", "apply_numpy_act", "dropout", "init"]
