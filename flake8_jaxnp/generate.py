"""Regenerate ``jax_api.json`` from the installed JAX and NumPy.

Run ``python -m flake8_jaxnp.generate``. This is the only module that imports
jax or numpy on the lint side: it records what the installed versions really
do (found by running them), and the linter reads the file it writes.
"""
import argparse
import inspect
import json
import os
import re
import sys
import tempfile
import warnings
from functools import partial
from pathlib import Path

from . import generate_frameworks as frameworks
from . import generate_tables as tables
from .api import DATA_FILE
from .facts import DTYPE_NAMES, JAX_DTYPE_MODULES, NUMPY_MODULES

# jax.numpy namespaces recorded for JNP502.
JNP_MODULES = ("jax.numpy", "jax.numpy.linalg", "jax.numpy.fft")
# Functions never called by the probe: they touch files, global state or stdout.
UNSAFE_TO_PROBE = {
    "save", "savez", "savez_compressed", "savetxt", "load", "loadtxt",
    "genfromtxt", "fromfile", "fromregex", "memmap", "info", "show_config",
    "show_runtime", "test", "get_include", "setbufsize", "seterr", "seterrcall",
    "set_printoptions", "printoptions", "getbufsize", "geterr", "geterrcall",
    "get_printoptions", "fromstring", "frombuffer", "fromiter", "fromfunction",
    "from_dlpack", "set_string_function", "asmatrix", "bmat",
}
# Errors that mean "this needs concrete data", i.e. the call fails on tracers.
TRACER_ERRORS = {
    "TracerArrayConversionError", "ConcretizationTypeError",
    "TracerIntegerConversionError", "TracerBoolConversionError",
}
# Spellings that older JAX releases offered; the generator keeps those the
# installed JAX no longer has, paired with the replacement it does have.
HISTORIC_ALIASES = {
    "jax.tree_map": "jax.tree.map",
    "jax.tree_multimap": "jax.tree.map",
    "jax.tree_leaves": "jax.tree.leaves",
    "jax.tree_flatten": "jax.tree.flatten",
    "jax.tree_unflatten": "jax.tree.unflatten",
    "jax.tree_structure": "jax.tree.structure",
    "jax.tree_transpose": "jax.tree.transpose",
    "jax.tree_reduce": "jax.tree.reduce",
    "jax.tree_util.tree_multimap": "jax.tree.map",
    "jax.experimental.host_callback": "jax.debug.callback or jax.pure_callback",
    "jax.experimental.maps": "jax.sharding and jax.shard_map",
    "jax.experimental.pjit.with_sharding_constraint": "jax.lax.with_sharding_constraint",
    "jax.abstract_arrays": "jax.core.ShapedArray",
    "jax.xla_computation": "jax.jit(f).lower(*args)",
    "jax.linear_util": "jax.extend.linear_util",
    "jax.numpy.DeviceArray": "jax.Array",
    "jax.interpreters.xla.DeviceArray": "jax.Array",
    "jax.device_put_replicated": "jax.device_put with a sharding",
    "jax.device_put_sharded": "jax.device_put with a sharding",
    "jax.numpy.in1d": "jax.numpy.isin",
    "jax.numpy.trapz": "jax.scipy.integrate.trapezoid",
    "jax.numpy.row_stack": "jax.numpy.vstack",
    "jax.numpy.round_": "jax.numpy.round",
    "jax.numpy.product": "jax.numpy.prod",
    "jax.numpy.cumproduct": "jax.numpy.cumprod",
    "jax.numpy.alltrue": "jax.numpy.all",
    "jax.numpy.sometrue": "jax.numpy.any",
    "jax.numpy.msort": "jax.numpy.sort(a, axis=0)",
    "jax.numpy.fix": "jax.numpy.trunc",
    "jax.random.shuffle": "jax.random.permutation",
    "jax.lax.pvary": "jax.lax.pcast",
}
# Values that make a NumPy-only keyword argument reveal itself when passed.
ARGUMENT_PROBES = {"out": "zeros", "kind": "quicksort", "order": "K"}
PASSES, OTHER_FAILURE = "passes", "other failure"  # probe outcomes besides a refusal


def _resolve(dotted):
    """Import-free attribute walk; None when any step is missing."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            try:
                obj = getattr(obj, attr)
            except AttributeError:
                return None
        return obj
    return None


def _public(module):
    return sorted(name for name in dir(module) if not name.startswith("_"))


def _numpy_functions():
    import numpy as np

    for modname in NUMPY_MODULES:
        module = _resolve(modname)
        for name in _public(module):
            obj = getattr(module, name)
            if name in UNSAFE_TO_PROBE or inspect.isclass(obj) or inspect.ismodule(obj):
                continue
            if callable(obj) and (isinstance(obj, np.ufunc) or inspect.isroutine(obj)
                                  or type(obj).__name__ == "_ArrayFunctionDispatcher"):
                yield f"{modname}.{name}", obj


def _probe_on_tracer(func):
    """'works' if any call shape traces, else 'fails' with the tracer error, else None.

    A call that works with one shape works for users who call it correctly;
    NumPy also falls back to array conversion after a bad call to a method.
    """
    import jax
    import jax.numpy as jnp

    square = jnp.ones((3, 3), jnp.float32)
    failure = None
    # Only the first argument is traced; the others are closed over as concrete
    # values (a shape, an axis, or a concrete array), so they stay concrete.
    for rest in ((), (1,), ((9,),), (square,)):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                jax.jit(lambda t: func(t, *rest)).trace(square)
        except Exception as exc:  # noqa: BLE001 - we classify every outcome
            if type(exc).__name__ in TRACER_ERRORS and failure is None:
                failure = ("fails", type(exc).__name__)
            continue
        return ("works", None)
    return failure


def _deprecations():
    """Names the installed JAX deprecates or no longer has, with replacements."""
    found = {}
    for modname in ("jax", "jax.numpy", "jax.lax", "jax.nn", "jax.random",
                    "jax.scipy", "jax.tree_util", "jax.experimental"):
        module = _resolve(modname)
        for name, (message, _) in getattr(module, "_deprecations", {}).items():
            match = re.search(r"[Uu]se `?([\w.]+(?:\([^)]*\))?)", message)
            replacement = match.group(1).rstrip(".") if match else "the replacement in the JAX changelog"
            found[f"{modname}.{name}"] = replacement
    for old, new in HISTORIC_ALIASES.items():
        if old in found:
            continue
        if _resolve(old) is None:
            found[old] = new
    return dict(sorted(found.items()))


def _rejected_arguments(jnp_names):
    """NumPy keyword arguments that jax.numpy functions refuse, found by calling them."""
    import jax.numpy as jnp
    import numpy as np

    rejected = {}
    for qualname in jnp_names:
        if not qualname.startswith("jax.numpy.") or qualname.count(".") != 2:
            continue
        name = qualname.rsplit(".", 1)[1]
        np_func, jnp_func = getattr(np, name, None), getattr(jnp, name)
        if callable(np_func) and not inspect.isclass(jnp_func):
            refused = _refused(np_func, jnp_func, partial(jnp_func, jnp.arange(3.0)))
            if refused:
                rejected[qualname] = refused
    return rejected


def _rejected_method_arguments():
    """NumPy keyword arguments that jax.Array methods refuse, found by calling them."""
    import jax.numpy as jnp
    import numpy as np

    array = jnp.arange(3.0)
    rejected = {}
    for name in _public(np.ndarray):
        try:
            jax_method = getattr(array, name, None)
        except (NotImplementedError, ValueError):  # arr.flat, arr.mT of a vector
            continue
        np_method = getattr(np.ndarray, name)
        if callable(np_method) and callable(jax_method):
            refused = _refused(np_method, jax_method, jax_method)
            if refused:
                rejected[name] = refused
    return rejected


def _refused(np_func, jax_func, call):
    """{param: {"error": exception name, "none_ok": whether param=None passes}}.

    ``call`` is probed with no further positional argument and with one more
    array, so that both unary and binary functions reach the keyword check.

    A parameter JAX declares with a non-None default is JAX's own option
    (ravel's order=, isdtype's kind=), not a NumPy leftover, so it is skipped.
    """
    import numpy as np

    np_params, jax_defaults = _parameters(np_func), _defaults(jax_func)
    if np_params is None or jax_defaults is None:
        return {}
    refused = {}
    for param in sorted(set(ARGUMENT_PROBES) & np_params):
        if param not in jax_defaults and "**" not in jax_defaults:
            refused[param] = {"error": "TypeError", "none_ok": False}
        elif jax_defaults.get(param) is None:
            value = np.zeros(3) if ARGUMENT_PROBES[param] == "zeros" else ARGUMENT_PROBES[param]
            for probe in (call, partial(call, np.arange(3.0))):
                outcome = _refusal(probe, param, value)
                if outcome not in (PASSES, OTHER_FAILURE):
                    none_ok = _refusal(probe, param, None) in (PASSES, OTHER_FAILURE)
                    refused[param] = {"error": outcome, "none_ok": none_ok}
                if outcome != OTHER_FAILURE:
                    break
    return refused


def _refusal(call, param, value):
    """The name of the exception ``call(param=value)`` raises about ``param``,
    else PASSES or OTHER_FAILURE (the call failed for another reason)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(**{param: value})
    except (NotImplementedError, TypeError, ValueError) as exc:
        about_param = re.search(rf"'{param}'|\b{param}(?= argument| ?!?=)", str(exc))
        return type(exc).__name__ if about_param else OTHER_FAILURE
    except Exception:  # noqa: BLE001 - other failures say nothing about the argument
        return OTHER_FAILURE
    return PASSES


def _defaults(func):
    """{parameter: default} (``inspect.Parameter.empty`` when required; '**' for **kwargs)."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    return {("**" if p.kind is p.VAR_KEYWORD else p.name): p.default for p in params}


def _inplace_functions(jnp_names):
    """jax.numpy functions that raise unless called with inplace=False."""
    return [q for q in jnp_names if callable(_resolve(q)) and not inspect.isclass(_resolve(q))
            and (_defaults(_resolve(q)) or {}).get("inplace") is True]


def _parameters(func):
    if type(func).__name__ == "ufunc":
        return {"out", "where", "casting", "order", "dtype", "subok", "signature"}
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    return {("**" if p.kind is p.VAR_KEYWORD else p.name) for p in params}


def _size_functions(jnp_names):
    """jax.numpy functions whose output shape needs size= under tracing."""
    result = []
    for qualname in jnp_names:
        params = _parameters(_resolve(qualname)) if callable(_resolve(qualname)) else None
        if params and "size" in params and "fill_value" in params:
            result.append(qualname)
    return result




def _promotion_table():
    """{"jax"|"numpy": {a: {b: result}}}: binary-operation result dtypes, by running
    jnp.promote_types and np.promote_types; NumPy pairs it refuses are left out."""
    import jax.numpy as jnp
    import ml_dtypes
    import numpy as np

    def numpy_dtype(name):
        return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)

    table = {"jax": {}, "numpy": {}}
    for a in DTYPE_NAMES:
        for b in DTYPE_NAMES:
            table["jax"].setdefault(a, {})[b] = str(jnp.promote_types(a, b))
            try:
                table["numpy"].setdefault(a, {})[b] = str(np.promote_types(numpy_dtype(a), numpy_dtype(b)))
            except TypeError:  # DTypePromotionError: e.g. int32 with bfloat16
                pass
    return table


def _dtype_positions():
    """{qualname: index} of the positional dtype parameter of JAX functions."""
    positions = {}
    for modname in JAX_DTYPE_MODULES:
        for name, _, params in tables.functions_with_parameters(_resolve(modname), _public):
            for index, param in enumerate(params):
                positional = param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD)
                if param.name in ("dtype", "new_dtype") and positional:
                    positions[f"{modname}.{name}"] = index
    return positions


def _public_attributes(names):
    """Attribute names without Python's own dunders (which vary with the interpreter:
    3.12 adds ``__buffer__``), so the data is the same whichever Python generates it."""
    return sorted(name for name in names if not (name.startswith("__") and name.endswith("__")))


def build():
    import jax
    import numpy as np

    jax.config.update("jax_traceback_filtering", "off")  # probes raise thousands of errors; filtering is slow
    jnp_names = sorted(
        f"{modname}.{name}" for modname in JNP_MODULES for name in _public(_resolve(modname))
    )
    fails, works = {}, []
    with tempfile.TemporaryDirectory() as scratch:
        cwd = os.getcwd()
        os.chdir(scratch)  # a probed function that writes files writes them here
        try:
            for qualname, func in _numpy_functions():
                outcome = _probe_on_tracer(func)
                if outcome is None:
                    continue
                if outcome[0] == "fails":
                    fails[qualname] = outcome[1]
                else:
                    works.append(qualname)
            results = tables.function_results(_resolve, _public, UNSAFE_TO_PROBE)
            defaults = tables.constructor_defaults(_resolve, _public, UNSAFE_TO_PROBE)
            scalar_results = tables.scalar_results(_resolve, _public, UNSAFE_TO_PROBE)
        finally:
            os.chdir(cwd)
    import jax.numpy as jnp

    transforms = tables.transforms(_resolve, _public)
    size_functions = _size_functions(jnp_names)
    return {
        "jax_version": jax.__version__,
        "numpy_version": np.__version__,
        "numpy_fails_on_tracer": fails,
        "numpy_works_on_tracer": works,
        "numpy_functions": sorted(q for q, _ in _numpy_functions()),
        "numpy_random": sorted(f"numpy.random.{n}" for n in _public(np.random)),
        "jnp_names": jnp_names,
        "jnp_size_functions": size_functions,
        "transforms": transforms,
        "transform_positional_options": tables.positional_options(transforms, _resolve),
        "lax_bodies": tables.lax_bodies(_resolve, _public),
        "non_array_functions": results["non_array"],
        "tuple_result_functions": results["tuple"],
        "bool_result_functions": results["bool"],
        "constructor_defaults": defaults,
        "scalar_results": scalar_results,
        "python_result_methods": tables.python_result_methods(),
        "static_attributes": tables.static_attributes(),
        "shape_arguments": tables.shape_arguments(jnp_names, size_functions, _resolve),
        "jnp_rejected_arguments": _rejected_arguments(jnp_names),
        "array_rejected_arguments": _rejected_method_arguments(),
        "jnp_inplace_functions": _inplace_functions(jnp_names),
        "array_attributes": _public_attributes(set(dir(jnp.zeros(1))) | set(dir(jax.Array))),
        "numpy_array_attributes": _public_attributes(dir(np.ndarray)),
        "deprecated": _deprecations(),
        "dtype_promotion": _promotion_table(),
        "jax_dtype_positions": _dtype_positions(),
        frameworks.KEY: frameworks.framework_transforms(DATA_FILE),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=DATA_FILE)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the file differs from what the installed JAX gives")
    args = parser.parse_args(argv)
    try:
        data = build()
    except ImportError as exc:
        print(f"flake8_jaxnp.generate: needs jax and numpy installed ({exc})", file=sys.stderr)
        return 2
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is stale for jax {data['jax_version']}; "
                  "run python -m flake8_jaxnp.generate", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output} for jax {data['jax_version']}, numpy {data['numpy_version']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
