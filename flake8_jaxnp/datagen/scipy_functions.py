"""SciPy's public functions that fail on a JAX tracer (``scipy_fails_on_tracer``), and those that
fail when only what the function they are given returns is traced (``scipy_fails_on_traced_result``).

SciPy converts its arguments to NumPy arrays as NumPy does, so a tracer reaching
``scipy.special.hyp2f1`` or ``scipy.integrate.quad``'s bound fails the same way; each
function is called under ``jax.jit`` with tracers in its required positional parameters
(a function where the parameter takes one), and only a tracer error is recorded.
"""
import inspect
import signal
import warnings
from contextlib import contextmanager

from . import tables

# Namespaces users call on arrays; distributions' methods are read on ``scipy.stats``'s instances.
SCIPY_MODULES = ("scipy.special", "scipy.integrate", "scipy.linalg", "scipy.stats", "scipy.signal",
                 "scipy.optimize", "scipy.interpolate", "scipy.ndimage", "scipy.fft")
DISTRIBUTION_METHODS = ("pdf", "logpdf", "pmf", "logpmf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf")
# Parameter names that take a Python function (an integrand, an objective): given one, not a tracer.
CALLABLE_PARAMETERS = {"func", "f", "fun", "fcn", "function", "callback", "gfun", "hfun", "fprime", "jac"}
PROBE_SECONDS = 2  # a call that runs longer (an optimizer iterating) is left unmeasured


class _Slow(Exception):
    pass


@contextmanager
def _time_limit(seconds):
    def stop(signum, frame):
        raise _Slow
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _functions(resolve, public):
    """(qualname, function) of SciPy's public routines and ufuncs, and of each distribution's methods."""
    import numpy as np
    import scipy.stats

    for modname in SCIPY_MODULES:
        module = resolve(modname)
        for name in public(module):
            obj = getattr(module, name)
            if isinstance(obj, np.ufunc) or inspect.isfunction(obj) or inspect.isbuiltin(obj):
                yield f"{modname}.{name}", obj
            elif isinstance(obj, (scipy.stats.rv_continuous, scipy.stats.rv_discrete)):
                for method in DISTRIBUTION_METHODS:
                    if hasattr(obj, method):
                        yield f"{modname}.{name}.{method}", getattr(obj, method)


def _arity(func):
    """The names of the required positional parameters (``nin`` of a ufunc), or None."""
    import numpy as np

    if isinstance(func, np.ufunc):
        return [f"x{i}" for i in range(func.nin)]
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    return [p.name for p in params if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _failure(trace):
    """The tracer error's name (the one every transform raises) when ``trace(shape)`` fails for every
    shape, one of them with a tracer error (also one SciPy re-raised as its own: ``minimize``'s
    ValueError), else None; a call that runs longer than the probe's limit is left unmeasured."""
    import jax

    failure = None
    for shape in ((), (3,), (3, 3)):
        try:
            with warnings.catch_warnings(), _time_limit(PROBE_SECONDS):
                warnings.simplefilter("ignore")
                trace(shape)
        except _Slow:
            return None
        except Exception as exc:  # noqa: BLE001 - every outcome is classified
            error = exc if type(exc).__name__ in tables.TRACER_ERRORS else exc.__cause__ or exc.__context__
            if type(error).__name__ in tables.TRACER_ERRORS and failure is None:
                # a bool test raises TracerBoolConversionError under jit, its base class under grad
                concrete = isinstance(error, jax.errors.ConcretizationTypeError)
                failure = "ConcretizationTypeError" if concrete else type(error).__name__
            continue
        return None
    return failure


def _probe(func, names):
    """``_failure`` of calls with tracers in the required parameters (a function where one takes one)."""
    import jax
    import jax.numpy as jnp

    traced = [i for i, name in enumerate(names) if name not in CALLABLE_PARAMETERS]
    if not traced:
        return None

    def trace(shape):
        def call(*tracers):
            args = [(lambda *a: jnp.sum(a[0])) for _ in names]
            for i, tracer in zip(traced, tracers):
                args[i] = tracer
            return func(*args)
        jax.jit(call).trace(*[jnp.full(shape, 0.5, jnp.float32) for _ in traced])
    return _failure(trace)


def fails_on_tracer(resolve, public):
    """{qualname: tracer error} for the SciPy functions every measured call of which fails on tracers."""
    return _measured(resolve, public, _probe)


def _probe_result(func, names):
    """``_failure`` of calls given host arrays (bounds apart) and, where a parameter takes a function,
    one returning a value computed from a tracer it closes over."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    given = [i for i, name in enumerate(names) if name in CALLABLE_PARAMETERS]
    if not given:
        return None

    def trace(shape):
        def call(closed):
            args = [np.full(shape, 0.5 + 0.25 * i, np.float32) for i in range(len(names))]
            for i in given:
                args[i] = lambda *a: jnp.sum(jnp.asarray(a[0])) * closed
            return func(*args)
        jax.jit(call).trace(jnp.float32(0.5))
    return _failure(trace)


def fails_on_traced_result(resolve, public):
    """{qualname: tracer error} for the SciPy functions that take a function (an objective, an
    integrand) and fail in every measured call when only what it returns is traced."""
    return _measured(resolve, public, _probe_result)


def _measured(resolve, public, probe):
    """{qualname: tracer error} for the SciPy functions whose ``probe`` finds one."""
    fails = {}
    for qualname, func in _functions(resolve, public):
        names = _arity(func)
        error = probe(func, names) if names else None
        if error is not None:
            fails[qualname] = error
    return fails
