"""Runtime confirmation mode: run a module's ``case_*`` functions and check the lint findings.

``flake8-jaxnp-confirm PATH...`` lints each file, runs every module-level
zero-argument ``case_*`` function in a subprocess that imports JAX, watches what
really happens (exceptions, trace-time-only lines, dtype promotion and
narrowing, host/device transfers) and gives each finding a verdict. Only the
worker subprocess imports jax; this package's command-line side does not.
"""
from .cli import main

__all__ = ["main"]
