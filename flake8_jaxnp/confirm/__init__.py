"""Runtime confirmation: run code under JAX with probes and check the lint findings.

``flake8-jaxnp-confirm PATH...`` (``cli``) lints each file, runs every module-level
``case_*`` callable that takes no arguments in a worker process that imports
JAX, watches what really happens (exceptions, trace-time-only lines, dtype
promotion and narrowing, host/device transfers) and gives each finding a
verdict. ``pytest --jaxnp-confirm`` (``pytest_plugin``) does the same over a
project's own test suite. Only the workers and an enabled plugin import jax.
"""
