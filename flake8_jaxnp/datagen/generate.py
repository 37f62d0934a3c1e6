"""Regenerate ``jax_api.json`` from the installed JAX and NumPy.

Run ``python -m flake8_jaxnp.datagen``. The generator is the only code on the lint
side that imports jax or numpy: it records what the installed versions really do
(found by running them), and the linter reads the file it writes.
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

from . import (bodies, config_flags, dtype_keeping, frameworks, gradients, operands, release_history, replacements,
               scipy_functions, sizes, stack, static_arguments, tables, transforms)
from ..api import DATA_FILE
from ..facts import DTYPE_NAMES, JAX_DTYPE_MODULES, NUMPY_MODULES

# jax.numpy namespaces recorded for JNP502.
JNP_MODULES = ("jax.numpy", "jax.numpy.linalg", "jax.numpy.fft")
# Functions never called by the probe: they touch files, global state or stdout.
UNSAFE_TO_PROBE = {
    "save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "genfromtxt", "fromfile", "fromregex",
    "memmap", "info", "show_config", "show_runtime", "test", "get_include", "setbufsize", "seterr", "seterrcall",
    "set_printoptions", "printoptions", "getbufsize", "geterr", "geterrcall", "get_printoptions", "fromstring",
    "frombuffer", "fromiter", "fromfunction", "from_dlpack", "set_string_function", "asmatrix", "bmat",
}
# Values that make a NumPy-only keyword argument reveal itself when passed.
ARGUMENT_PROBES = {"out": "zeros", "kind": "quicksort", "order": "K", "where": "mask", "casting": "unsafe"}
# The choices NumPy documents for arguments whose values JAX may refuse one by one.
VALUE_CHOICES = {
    "mode": ("raise", "wrap", "clip"), "order": ("C", "F", "A", "K"),
    "kind": ("quicksort", "mergesort", "heapsort", "stable"),
    "casting": ("no", "equiv", "safe", "same_kind", "unsafe"), "overwrite_input": (True, False),
}
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
            if type(exc).__name__ in tables.TRACER_ERRORS and failure is None:
                failure = ("fails", type(exc).__name__)
            continue
        return ("works", None)
    return failure


def _gives_jax_array(func):
    """Whether NumPy hands a concrete JAX array to the array's own method and returns
    what it gives, a JAX array (``np.sum(x)`` is ``x.sum()``): the first call shape that
    runs decides, as for ``_probe_on_tracer``."""
    import jax
    import jax.numpy as jnp

    square = jnp.ones((3, 3), jnp.float32)
    for rest in ((), (1,), ((9,),), (square,)):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = func(square, *rest)
        except Exception:  # noqa: BLE001 - a call shape that does not run says nothing
            continue
        return isinstance(result, jax.Array)
    return False


def _removed_names():
    """Public names of past releases (and names JAX's deprecation tables list) that the
    installed JAX no longer has or warns about: {qualname: {"last", "message", "raises"}}.
    Members of a removed or deprecated module are left out: the module's entry covers them."""
    import jax

    names = release_history.history((jax.__version__, Path(jax.__file__).parent))
    found = {}
    for qualname in sorted(names):
        status = release_history.installed_status(qualname)
        if status in ("raises", "warns"):
            found[qualname] = dict(names[qualname], raises=status == "raises")
    return {qualname: entry for qualname, entry in found.items()
            if not any(prefix in found for prefix in _prefixes(qualname))}


def _array_member_changes():
    """jax.Array members whose form changed since a past release: {name: {"was": "method" or
    "property", "last": last release read with that form, "now": "method", "property" or
    "raises", "message": JAX's deprecation text}}."""
    import jax
    import jax.numpy as jnp

    array = jnp.ones(3)
    changes = {}
    members = release_history.array_members((jax.__version__, Path(jax.__file__).parent))
    for name, forms in sorted(members.items()):
        try:
            now = "method" if callable(getattr(array, name)) else "property"
        except AttributeError:
            now = "raises"
        for was, seen in sorted(forms.items()):
            if was != now and seen["last"] != jax.__version__:
                changes[name] = {"was": was, "last": seen["last"], "now": now, "message": seen["message"]}
            elif was == "property" and now == "raises":  # kept only to raise (device_buffer)
                changes[name] = {"was": was, "last": None, "now": now, "message": seen["message"]}
    return changes


def _prefixes(qualname):
    parts = qualname.split(".")
    return [".".join(parts[:cut]) for cut in range(1, len(parts))]


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
            values = _refused_values(np_func, jnp_func, partial(np_func, np.arange(3.0)),
                                     partial(jnp_func, jnp.arange(3.0)), refused)
            if refused or values:
                rejected[qualname] = dict(refused, **values)
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
            values = _refused_values(np_method, jax_method, getattr(np.arange(3.0), name), jax_method, refused)
            if refused or values:
                rejected[name] = dict(refused, **values)
    return rejected


def _refused_values(np_func, jax_func, np_call, jax_call, refused):
    """{param: {"values": {repr(value): exception name}}}: NumPy-documented values of a
    parameter JAX declares, that NumPy accepts and JAX refuses (``take(mode="raise")``).
    Only where JAX accepts some other value: a parameter JAX refuses whole is in ``refused``."""
    import numpy as np

    np_params, jax_defaults = _parameters(np_func), _defaults(jax_func)
    if np_params is None or jax_defaults is None:
        return {}
    found = {}
    for param in sorted(set(VALUE_CHOICES) & np_params & set(jax_defaults) - set(refused)):
        outcomes = {}
        for value in VALUE_CHOICES[param]:
            for more in ((), (np.arange(3.0),), (np.array([0]),), (np.array([0.5]),)):  # (a quantile)
                if _refusal(partial(np_call, *more), param, value) != PASSES:
                    continue  # NumPy itself refuses this call
                outcome = _refusal(partial(jax_call, *more), param, value, mentions=repr(value).strip("'"))
                if outcome != OTHER_FAILURE:
                    outcomes[repr(value)] = outcome
                    break
        values = {value: error for value, error in outcomes.items() if error != PASSES}
        if values and PASSES in outcomes.values():
            found[param] = {"values": values}
    return found


def _refused(np_func, jax_func, call):
    """{param: {"error": exception name, "none_ok": whether param=None passes}}.

    ``call`` is probed with no further positional argument and with one more
    array, so that both unary and binary functions reach the keyword check: a
    NumPy keyword JAX does not declare (``clip(a_min=)``, ``arange(like=)``) given
    None, one of ``ARGUMENT_PROBES`` that JAX declares with a None default given a
    value NumPy takes.

    A parameter JAX declares with a non-None default is JAX's own option
    (ravel's order=, isdtype's kind=), not a NumPy leftover, so it is skipped.
    """
    import numpy as np

    np_params, jax_defaults = _keywords(np_func), _defaults(jax_func)
    if np_params is None or jax_defaults is None:
        return {}
    refused = {}
    for param in sorted(np_params):
        declared = param in jax_defaults or "**" in jax_defaults
        if declared and (param not in ARGUMENT_PROBES or jax_defaults.get(param) is not None):
            continue
        value = {"zeros": np.zeros(3), "mask": np.array([True, False, True])}.get(
            ARGUMENT_PROBES[param], ARGUMENT_PROBES[param]) if declared else None
        for probe in (call, partial(call, np.arange(3.0))):
            outcome = _refusal(probe, param, value)
            if outcome not in (PASSES, OTHER_FAILURE):
                none_ok = _refusal(probe, param, None) in (PASSES, OTHER_FAILURE)
                refused[param] = {"error": outcome, "none_ok": none_ok}
            if outcome != OTHER_FAILURE:
                break
    return refused


def _keywords(func):
    """The parameters ``func`` takes by keyword (a ufunc: ``_parameters``), or None."""
    if type(func).__name__ == "ufunc":
        return _parameters(func)
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    return {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _refusal(call, param, value, mentions=None):
    """The name of the exception ``call(param=value)`` raises about ``param`` (or about
    the text ``mentions``), else PASSES or OTHER_FAILURE (it failed for another reason)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(**{param: value})
    except (NotImplementedError, TypeError, ValueError) as exc:
        about_param = re.search(rf"'{param}'|\b{param}(?= argument| ?!?=)", str(exc)) \
            or (mentions is not None and f"'{mentions}'" in str(exc) or f"{param}={mentions}" in str(exc))
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


def _array_attributes():
    """jax.Array's attributes, less those that exist only to raise NotImplementedError (flat)."""
    import jax
    import jax.numpy as jnp

    array = jnp.zeros(1)
    present = []
    for name in sorted(set(dir(array)) | set(dir(jax.Array))):
        try:
            getattr(array, name)
        except NotImplementedError:
            continue
        except Exception:  # noqa: BLE001 - it exists (mT of a vector raises ValueError)
            pass
        present.append(name)
    return present


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


def _random_draws():
    """(jax.random functions that turn a key into random values, not into new keys, found by
    calling each with a key: consuming one key twice in them gives identical draws; {sampler: the
    dtype it gives whatever it is given, named as by default float and int are (``float64``, narrowed
    where x64 is off)})."""
    import jax
    import jax.numpy as jnp

    key, samplers, dtypes = jax.random.key(0), [], {}
    for name in _public(jax.random):
        func = getattr(jax.random, name)
        try:
            params = list(inspect.signature(func).parameters.values())
        except (TypeError, ValueError):
            continue
        if not params or params[0].name != "key":
            continue
        required = [p for p in params[1:] if p.default is inspect.Parameter.empty
                    and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        given = set()
        for fill in (2, 0.5, jnp.ones(2), jnp.eye(2)):
            try:
                leaves = jax.tree.leaves(func(key, *[fill] * len(required)))
            except Exception:  # noqa: BLE001 - try the next kind of argument
                continue
            if not leaves or any(jax.dtypes.issubdtype(leaf.dtype, jax.dtypes.prng_key) for leaf in leaves):
                break
            given |= {_DEFAULT_WIDTHS.get(str(leaf.dtype), str(leaf.dtype)) for leaf in leaves}
        if given:
            samplers.append(f"jax.random.{name}")
            if len(given) == 1:
                dtypes[f"jax.random.{name}"] = given.pop()
    return sorted(samplers), dtypes


# JAX's default widths (x64 off) named as the data names a default dtype (narrowed where x64 is off).
_DEFAULT_WIDTHS = {"float32": "float64", "int32": "int64"}


# Points where an elementwise function may have an infinite or undefined derivative.
GRADIENT_PROBE_POINTS = (0.0, -1.0, 2.0)


def _where_unsafe_functions():
    """jax.numpy elementwise functions (NumPy ufuncs' namesakes) -> argument positions whose
    gradient is nan at some probe point even when ``jnp.where`` discards the value there."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    points = jnp.array(GRADIENT_PROBE_POINTS, jnp.float32)
    unsafe = {}
    with jax.disable_jit():  # op by op: the probes share compiled primitives
        for name in _public(jnp):
            ufunc = getattr(np, name, None)
            if not isinstance(ufunc, np.ufunc) or ufunc.nin not in (1, 2) or ufunc.nout != 1:
                continue
            func = getattr(jnp, name)
            for position in range(ufunc.nin):
                def discarded(x, func=func, position=position, arity=ufunc.nin):
                    args = [jnp.float32(1.0)] * arity
                    args[position] = x
                    return jnp.where(x > 100.0, func(*args), 0.0)
                try:
                    gradients = jax.vmap(jax.grad(discarded))(points)
                except Exception:  # noqa: BLE001 - not differentiable on floats: not this rule's concern
                    continue
                if bool(jnp.isnan(gradients).any()):
                    unsafe.setdefault(f"jax.numpy.{name}", []).append(position)
    return unsafe


def _public_attributes(names):
    """Attribute names without Python's own dunders (which vary with the interpreter:
    3.12 adds ``__buffer__``), so the data is the same whichever Python generates it."""
    return sorted(name for name in names if not (name.startswith("__") and name.endswith("__")))


def build():
    """The API data, learned by running JAX and NumPy in a scratch folder (a probed
    function that writes files, ``np.save`` or ``einsum`` given a file name, writes there)."""
    with tempfile.TemporaryDirectory() as scratch:
        cwd = os.getcwd()
        os.chdir(scratch)
        try:
            return _build()
        finally:
            os.chdir(cwd)


def _build():
    import jax
    import numpy as np

    jax.config.update("jax_traceback_filtering", "off")  # probes raise thousands of errors; filtering is slow
    jnp_names = sorted(
        f"{modname}.{name}" for modname in JNP_MODULES for name in _public(_resolve(modname))
    )
    fails, works = {}, []
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
    random_samplers, random_dtypes = _random_draws()
    scalar_results = tables.scalar_results(_resolve, _public, UNSAFE_TO_PROBE)
    traced_by = transforms.transforms(_resolve, _public)
    lax_bodies = bodies.lax_bodies(_resolve, _public)
    size_functions = sizes.size_functions(
        [*jnp_names, *(f"{module}.{name}" for module in sizes.SIZED_MODULES for name in _public(_resolve(module)))],
        _resolve, UNSAFE_TO_PROBE)
    framework_entries = frameworks.framework_entries(DATA_FILE, _resolve)
    removed_names = _removed_names()
    where_unsafe = {**_where_unsafe_functions(), **gradients.unsafe_at_zero_vector(_resolve)}
    return {
        "generated_with": stack.generated_with(frameworks.measured_versions(framework_entries)),
        "jax_version": jax.__version__,
        "numpy_version": np.__version__,
        "numpy_fails_on_tracer": fails,
        "numpy_works_on_tracer": works,
        "scipy_fails_on_tracer": scipy_functions.fails_on_tracer(_resolve, _public),
        "scipy_fails_on_traced_result": scipy_functions.fails_on_traced_result(_resolve, _public),
        "numpy_gives_jax_array": sorted(q for q, func in _numpy_functions() if q in works and _gives_jax_array(func)),
        "numpy_functions": sorted(q for q, _ in _numpy_functions()),
        "numpy_random": sorted(f"numpy.random.{n}" for n in _public(np.random)),
        "jnp_names": jnp_names,
        "size_functions": size_functions,
        "transforms": traced_by,
        "transform_positional_options": transforms.positional_options(traced_by, _resolve),
        "lax_bodies": lax_bodies,
        "lax_body_operands": operands.body_operands(_resolve, lax_bodies),
        "lax_body_carries": operands.body_carries(_resolve, lax_bodies),
        "lax_body_steps": operands.body_steps(_resolve, lax_bodies),
        "lax_traced_per_function": bodies.traced_per_function(_resolve, lax_bodies),
        "body_calls": {**operands.body_calls(_resolve, lax_bodies),
                       **operands.body_calls(_resolve, bodies.array_function_bodies(_resolve, _public),
                                             run=lambda thunk: thunk)},
        "non_array_functions": results["non_array"],
        "tuple_result_functions": results["tuple"],
        "tree_result_functions": tables.tree_results(_resolve, _public),
        "bool_result_functions": results["bool"],
        "dtype_keeping_functions": dtype_keeping.dtype_keeping_functions(_resolve, _public),
        "constructor_defaults": defaults,
        "scalar_results": scalar_results,
        "python_result_methods": tables.python_result_methods(),
        "types_no_tracer_is": tables.types_no_tracer_is(),
        "static_attributes": tables.static_attributes(),
        "integer_attributes": tables.integer_attributes(),
        "shape_arguments": static_arguments.shape_arguments(
            [*jnp_names, *(f"jax.{m}.{name}" for m in ("lax", "nn") for name in _public(getattr(jax, m)))],
            [q for q, facts in size_functions.items() if facts["staged"]], _resolve, random_samplers),
        "promoting_arguments": tables.promoting_arguments(jnp_names, _resolve),
        "numpy_random_dtypes": tables.numpy_random_dtypes(),
        "jnp_rejected_arguments": _rejected_arguments(jnp_names),
        "array_rejected_arguments": _rejected_method_arguments(),
        "jnp_inplace_functions": _inplace_functions(jnp_names),
        "array_attributes": _public_attributes(_array_attributes()),
        "numpy_array_attributes": _public_attributes(dir(np.ndarray)),
        "jax_releases_read": list(release_history.RELEASES) + [jax.__version__],
        "removed_names": {**removed_names, **config_flags.removed_options()},
        "removed_name_replacements": replacements.replacements(removed_names, _resolve),
        "array_member_changes": _array_member_changes(),
        "dtype_promotion": _promotion_table(),
        "jax_dtype_positions": _dtype_positions(),
        "jax_random_samplers": random_samplers,
        "jax_random_dtypes": random_dtypes,
        "jnp_where_unsafe": where_unsafe,
        "jnp_where_unsafe_jointly": gradients.unsafe_jointly(_public, where_unsafe),
        "jnp_where_unsafe_others": gradients.unsafe_for_other_arguments(where_unsafe, GRADIENT_PROBE_POINTS),
        "jnp_where_overflowing": gradients.overflowing(_public, where_unsafe),
        "jnp_where_forward_transforms": gradients.forward_transforms(traced_by, _resolve),
        "jnp_sequence_refusals": tables.sequence_refusals(jnp_names, _resolve),
        "jnp_item_refusals": tables.sequence_refusals(jnp_names, _resolve, items=True),
        **framework_entries,
    }


RELEASES_UNAVAILABLE, OTHER_STACK = 3, 4  # exit statuses of --check that say nothing about the file


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m flake8_jaxnp.datagen", description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=DATA_FILE)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the file differs from what the installed stack gives "
                             f"({OTHER_STACK} if that is not the stack the file records)")
    parser.add_argument("--check-stack", action="store_true",
                        help=f"only exit {OTHER_STACK} if the installed stack is not the one the file records")
    args = parser.parse_args(argv)
    if args.check or args.check_stack:
        recorded = json.loads(args.output.read_text(encoding="utf-8")) if args.output.exists() else {}
        differing = stack.differences(recorded.get("generated_with", {}))
        if differing:
            print(f"flake8_jaxnp.datagen: cannot check {args.output} here: the installed stack is not the one "
                  f"it was generated with ({'; '.join(differing)}); pip install -e '.[test]' installs that one",
                  file=sys.stderr)
            return OTHER_STACK
        if args.check_stack:
            return 0
    try:
        data = build()
    except ImportError as exc:
        print(f"flake8_jaxnp.datagen: needs jax and numpy installed ({exc})", file=sys.stderr)
        return 2
    except release_history.ReleasesUnavailable as exc:
        print(f"flake8_jaxnp.datagen: {exc}", file=sys.stderr)
        return RELEASES_UNAVAILABLE
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is stale for jax {data['jax_version']}; "
                  "run python -m flake8_jaxnp.datagen", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output} for jax {data['jax_version']}, numpy {data['numpy_version']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
