"""The semantic model of one module: names, traced functions, value kinds.

- ``facade``: the Model, which answers every question a check asks;
- ``syntax``: what the AST says by itself (parameters, literal options, walks);
- ``names``: scopes and bindings, resolved as Python does;
- ``traced``: the roots of tracing (decorators, call forms, lax bodies);
- ``tracing``: the fixpoint that spreads tracing along calls, and every body's forward pass;
- ``values``: the forward dataflow engine, and ``kinds`` the values it assigns;
- ``library``: what library calls return; ``dtypes``: dtype expressions;
- ``reach``: the functions no array can enter; ``callees``: what the project's own functions return;
- ``project``: the other modules of the project, summarised and cached.
"""
# First, whichever module is asked for: the project's modules and the per-file model's import
# each other's parts (``traced`` -> ``constructors`` -> ``project.records``; ``project.modules`` ->
# ``traced``), and this order completes every import.
from . import project  # noqa: F401

__all__ = ["Model"]


def __getattr__(name):
    """``Model``, imported when first asked for: the facade imports the whole per-file model, which
    linting a module that names no JAX never builds (``linter.__getattr__``)."""
    if name == "Model":
        from .facade import Model

        return Model
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
