"""JNP501-JNP504: NumPy APIs and idioms that JAX does not implement.

One pass over each kind of node the rules look at. What JAX has (names, array attributes, refused
arguments, removed aliases) comes from the generated API data; whether an
expression is a JAX array comes from the model, and unknown values stay silent.
"""
import ast
import re
from functools import lru_cache

from .. import api
from ..facts import AT_UPDATES
from ..findings import Finding
from ..model.containers import SEQUENCES
from ..model.names import BindingKind
from ..model.kinds import ARRAYS, JAX, TRACER, TRACER_TREE
from . import describe, rule

JAX_ARRAY = (JAX, TRACER)
# ``.at[i]`` exists only on JAX arrays, so a traced parameter using it is one.
AT_BASES = (JAX, TRACER, TRACER_TREE)
# NumPy array methods that modify the array they are called on -> the JAX way.
IN_PLACE_METHODS = {
    "fill": "{x} = jnp.full_like({x}, value)",
    "resize": "{x} = jnp.resize({x}, new_shape)",
    "put": "{x} = jnp.put({x}, ind, v, inplace=False)",
    "partition": "{x} = jnp.partition({x}, kth)",
    "setfield": "{x} = {x}.at[...].set(...)",
    "setflags": "{x} as it is; JAX arrays are always read-only",
}
DISPLAYS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)  # never arrays
AUGMENTED_AT = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "divide", ast.Pow: "power"}
# NumPy functions that write into their first argument -> how to write it in JAX.
NUMPY_WRITERS = {
    "numpy.copyto": "{x} = jnp.broadcast_to(src, {x}.shape).astype({x}.dtype)",
    "numpy.put": "{x} = jnp.put({x}, ind, v, inplace=False)",
    "numpy.place": "{x} = jnp.place({x}, mask, vals, inplace=False)",
    "numpy.putmask": "{x} = jnp.where(mask, values, {x})",
}
NUMPY_WRITER_TARGETS = {"numpy.copyto": "dst", "numpy.put": "a", "numpy.place": "arr", "numpy.putmask": "a"}
ARGUMENT_FIXES = {
    ("sort", "kind"): "pass stable=True for a stable sort",
    ("argsort", "kind"): "pass stable=True for a stable sort",
    ("isin", "kind"): "use method= to choose the algorithm",
    ("astype", "casting"): "drop it; JAX's astype converts whatever the values (like casting='unsafe')",
    ("sort", "order"): "sort structured fields with jnp.lexsort",
    ("argsort", "order"): "sort structured fields with jnp.lexsort",
    "out": "use the returned array instead",
    "kind": "drop it",
    "order": "drop it; JAX chooses the memory layout",
    "where": "compute on every element and select with jnp.where(mask, result, fallback)",
    "casting": "drop it and cast explicitly with .astype()",
    "mode": "JAX cannot raise on out-of-bounds indices: use mode='fill' or 'clip'",
    "overwrite_input": "drop it; JAX never overwrites its input",
    ("clip", "a_min"): "use min=",
    ("clip", "a_max"): "use max=",
}
# Any other keyword NumPy has and the function does not declare in JAX (``arange(like=)``, ``abs(dtype=)``).
UNDECLARED_FIX = "drop it, or pass what it gives under the name JAX's signature has"
# Calls that name a configuration option by its string (both raise AttributeError for an unknown one).
CONFIG_ACCESS = frozenset({"jax.config.update", "jax.config.read"})
GUARD_ERRORS = frozenset({"AttributeError", "ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


@rule("JNP501", "JNP502", "JNP503", "JNP504")
def numpy_only_apis(model):
    """One pass over each kind of node; the cheap tests that rule most nodes out come first."""
    deprecated = api.removed_names()
    modules, members = _named_modules(), _named_array_members()
    qualname = model.qualname
    for node in model.nodes(ast.Attribute):
        if type(node.ctx) is ast.Load:
            base = qualname(node.value)
            if base in modules if base is not None else node.attr in members:
                yield from _attribute(model, node, base, deprecated)
    inplace = api.jnp_inplace_functions()
    for call in model.nodes(ast.Call):
        called = qualname(call.func)
        if called in CONFIG_ACCESS:
            yield from _config_option(model, call, deprecated)
        if called in NUMPY_WRITERS:
            yield from _numpy_writer(model, call, called)
        elif call.keywords or called in inplace:  # (JAX refuses only keyword arguments)
            yield from _call(model, call, called)
    for node in model.nodes(ast.Subscript):
        if type(node.ctx) is not ast.Load:
            yield from _item_update(model, node)
    for node in model.nodes(ast.Expr):
        if type(node.value) is ast.Call:
            yield from _discarded_update(model, node.value)
    for node in model.nodes(ast.Import, ast.ImportFrom):
        yield from _import(model, node, deprecated)


@lru_cache(maxsize=1)
def _named_modules():
    """The modules whose attributes (``jax.core.call``, ``jnp.foo``) a finding may name: those of
    removed names, and jax.numpy's."""
    return api.removed_name_modules() | api.jnp_modules()


@lru_cache(maxsize=1)
def _named_array_members():
    """The attributes of a JAX array that a finding may name: changed, or missing from NumPy's."""
    return frozenset(api.array_member_changes()) | api.missing_array_attributes()


# ---- JNP501: in-place updates ---------------------------------------------------
def _item_update(model, target):
    if _bound_only_to_displays(model, target.value):
        return  # a list, dict or set (``info["k"] = v``): known without a forward pass
    if model.array_value(target.value).kind not in JAX_ARRAY:
        return
    array, index = describe(target.value), describe(target.slice)
    statement = model.parent(target)
    if isinstance(target.ctx, ast.Del):
        what, fix = f"del {describe(target)}", f"{array} = jnp.delete({array}, {index})"
        effect = "jax.Array has no __delitem__ (AttributeError)"
    elif isinstance(statement, ast.AugAssign):
        value = describe(statement.value)
        method = AUGMENTED_AT.get(type(statement.op))
        what = f"{describe(target)} {_operator(statement)}= {value}"
        fix = f"{array} = {array}.at[{index}].{method}({value})" if method else \
            f"{array} = {array}.at[{index}].set({describe(target)} {_operator(statement)} {value})"
        effect = "item assignment raises TypeError"
    else:
        what, fix = f"{describe(target)} = ...", f"{array} = {array}.at[{index}].set(...)"
        effect = "item assignment raises TypeError"
    if type(target.value) is ast.Attribute and fix.startswith(f"{array} = "):  # a field of a NamedTuple, x.T
        fix = f"{fix[len(array) + 3:]} and use the new array where {array} was used"
    yield Finding.at(target, "JNP501", dict(what=what, effect=effect, fix=fix))


def _bound_only_to_displays(model, name):
    """Whether ``name`` is a Name whose every binding assigns a list, dict or set display."""
    if type(name) is not ast.Name:
        return False
    found = model.resolve(name)
    return found is not None and all(b.kind is BindingKind.ASSIGN and isinstance(b.value, DISPLAYS)
                                     for b in found[1])


def _discarded_update(model, call):
    """``x.sort()`` or ``x.at[i].set(v)`` as a statement: the new array is thrown away."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return
    if func.attr == "sort" and model.array_value(func.value).kind in JAX_ARRAY \
            and not any(_refused_arguments(model, call, None)):  # then it raises (JNP503)
        array = describe(func.value)
        yield Finding.at(call, "JNP501", dict(
            what=f"{describe(call)} as a statement", fix=f"{array} = {describe(call)}",
            effect=f"it returns a sorted copy and leaves {array} unchanged"))
    elif func.attr in AT_UPDATES and isinstance(func.value, ast.Subscript) \
            and isinstance(func.value.value, ast.Attribute) and func.value.value.attr == "at" \
            and model.array_value(func.value.value.value).kind in AT_BASES:
        array = describe(func.value.value.value)
        yield Finding.at(call, "JNP501", dict(
            what=f"{describe(call)} as a statement", fix=f"{array} = {describe(call)}",
            effect=f".at[].{func.attr}() returns a new array and leaves {array} unchanged"))


def _in_place_method(node):
    return Finding.at(node, "JNP501", dict(
        what=f"{describe(node)}()", effect=f"jax.Array has no .{node.attr}() (AttributeError)",
        fix=IN_PLACE_METHODS[node.attr].format(x=describe(node.value))))


def _numpy_writer(model, call, qualname):
    target = call.args[0] if call.args else next(
        (k.value for k in call.keywords if k.arg == NUMPY_WRITER_TARGETS[qualname]), None)
    if target is None or model.array_value(target).kind not in JAX_ARRAY:
        return
    array = describe(target)
    yield Finding.at(call, "JNP501", dict(
        what=f"{describe(call.func)}({array}, ...)", effect="NumPy refuses a JAX array as destination (TypeError)",
        fix=NUMPY_WRITERS[qualname].format(x=array)))


def _jnp_inplace(call, qualname):
    flag = next((k.value for k in call.keywords if k.arg == "inplace"), None)
    if flag is not None and not (isinstance(flag, ast.Constant) and flag.value is True):
        return
    array = describe(call.args[0]) if call.args else "x"
    yield Finding.at(call, "JNP501", dict(
        what=f"{describe(call.func)}() without inplace=False",
        effect=f"{qualname} raises an error unless inplace=False",
        fix=f"{array} = {describe(call.func)}({array}, ..., inplace=False)"))


# ---- JNP502 / JNP504: names JAX does not have -------------------------------------
def _attribute(model, node, base, deprecated):
    """A loaded attribute of a module (``base``, its qualified name) or of a value (``base`` None)."""
    if base is None:
        change = api.array_member_changes().get(node.attr)
        if change is not None and model.array_value(node.value).kind in JAX_ARRAY:
            yield from _changed_member(model, node, change)
        elif node.attr in api.missing_array_attributes() and model.array_value(node.value).kind in JAX_ARRAY:
            if node.attr in IN_PLACE_METHODS:
                yield _in_place_method(node)
            else:
                yield Finding.at(node, "JNP502", dict(
                    name=f"jax.Array.{node.attr} ({describe(node)})", version=_version(),
                    fix=f"convert with np.asarray({describe(node.value)}) if you need it"))
        return
    qualname = f"{base}.{node.attr}"
    if qualname in deprecated:
        if not _guarded(model, node):
            yield _removed(node, qualname, deprecated[qualname], "AttributeError")
    elif _missing_jnp_name(qualname) and not _guarded(model, node):
        yield Finding.at(node, "JNP502", dict(name=qualname, version=_version(), fix=_missing_fix(qualname)))


def _config_option(model, call, deprecated):
    """``jax.config.update("jax_array", True)``: an option a past release defined and the installed
    JAX does not (``jax.config.jax_array``, the attribute, is a removed name like any other)."""
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str) \
            and model.qualname(call.func) in CONFIG_ACCESS:
        qualname = f"jax.config.{call.args[0].value}"
        if qualname in deprecated and not _guarded(model, call):
            yield _removed(call.args[0], f"{describe(call.func)}({call.args[0].value!r})", deprecated[qualname],
                           "AttributeError")


def _changed_member(model, node, change):
    """``x.device()`` where ``device`` became a property; ``x.device_buffer``, which now raises."""
    call = model.parent(node)
    called = isinstance(call, ast.Call) and call.func is node
    if change["now"] == "property" and called:
        status, advice = "is a property, so calling it raises TypeError", f"use {describe(node)} without the call"
    elif change["now"] == "raises" and not _guarded(model, node):
        status = "raises AttributeError"
        advice = f'JAX says: "{change["message"]}"' if change["message"] else \
            "JAX named no replacement; see the JAX changelog"
    else:
        return
    history = f"a {change['was']} until JAX {change['last']}" if change["last"] else "kept only to raise"
    yield Finding.at(node, "JNP504", dict(name=f"jax.Array.{node.attr} in {describe(call if called else node)}",
                                          status=status, version=_version(), history=history, advice=advice))


def _import(model, node, deprecated):
    if isinstance(node, ast.ImportFrom):
        if node.level or not node.module:
            return
        names = [(alias, f"{node.module}.{alias.name}") for alias in node.names if alias.name != "*"]
    else:
        names = [(alias, alias.name) for alias in node.names]
    for alias, qualname in names:
        where = alias if hasattr(alias, "lineno") else node  # aliases have positions from Python 3.10
        removed = _deprecated_prefix(qualname, deprecated)
        if removed is not None:
            if not _guarded(model, node):
                yield _removed(where, removed, deprecated[removed], "ImportError")
        elif _missing_jnp_name(qualname) and not _guarded(model, node):
            yield Finding.at(where, "JNP502", dict(name=qualname, version=_version(), fix=_missing_fix(qualname)))


def _removed(node, qualname, entry, error):
    """JNP504 with what the installed JAX does and JAX's own words about the name."""
    if entry["raises"]:
        status = f"raises {error}"
    else:
        status = "is deprecated (a DeprecationWarning; it will be removed)"
    history = f"last in JAX {entry['last']}" if entry["last"] else "JAX lists it as removed"
    replacement = api.removed_name_replacements().get(qualname)  # what JNP504's fix writes
    said = f'JAX says: "{entry["message"]}"' if entry["message"] else ""
    if replacement is not None and not _names(said, replacement):
        advice = f"use {replacement}" + (f"; {said}" if said else "")  # row_stack: NumPy's words named it
    else:
        advice = said or "JAX named no replacement; see the JAX changelog"
    return Finding.at(node, "JNP504", dict(name=qualname, status=status, version=_version(),
                                           history=history, advice=advice))


def _names(text, qualname):
    """Whether ``text`` names ``qualname`` itself (not ``jax.numpy.round_`` for ``jax.numpy.round``)."""
    return re.search(rf"(?<![\w.]){re.escape(qualname)}(?!\w)", text) is not None


def _deprecated_prefix(qualname, deprecated):
    """The shortest dotted prefix of ``qualname`` that JAX removed, or None."""
    parts = qualname.split(".")
    for cut in range(2, len(parts) + 1):
        prefix = ".".join(parts[:cut])
        if prefix in deprecated:
            return prefix
    return None


def _missing_jnp_name(qualname):
    module, _, name = qualname.rpartition(".")
    return module in api.jnp_modules() and not name.startswith("_") and qualname not in api.jnp_names()


def _missing_fix(qualname):
    if qualname == "jax.numpy.random":
        return "use jax.random with an explicit PRNG key"
    return "use a JAX equivalent, or do this step with NumPy outside traced code"


def _guarded(model, node):
    """True inside ``try: ... except AttributeError/ImportError`` (either branch) or
    ``if hasattr(...)`` and version checks: code written to run on several JAX versions."""
    child, parent = node, model.parent(node)
    while parent is not None:
        if isinstance(parent, (ast.Try, getattr(ast, "TryStar", ast.Try))) and child in parent.body \
                and any(_catches_missing_name(h) for h in parent.handlers):
            return True
        if isinstance(parent, ast.ExceptHandler) and _catches_missing_name(parent):
            return True  # the fallback for another JAX version (flax, haiku on the corpus)
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test and _is_feature_test(parent.test):
            return True
        if isinstance(parent, ast.BoolOp) and any(_is_feature_test(v) for v in parent.values if v is not child):
            return True
        child, parent = parent, model.parent(parent)
    return False


def _catches_missing_name(handler):
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, ast.Name) and t.id in GUARD_ERRORS for t in types)


def _is_feature_test(test):
    for node in ast.walk(test):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("hasattr", "getattr"):
            return True
        if isinstance(node, ast.Attribute) and "version" in node.attr.lower() \
                or isinstance(node, ast.Name) and "version" in node.id.lower():
            return True
    return False


# ---- JNP503 and call-site JNP501 ---------------------------------------------------------
def _call(model, call, qualname):
    if qualname in api.jnp_inplace_functions():
        yield from _jnp_inplace(call, qualname)
    for keyword, error, by_value in _refused_arguments(model, call, qualname):
        name = call.func.attr if isinstance(call.func, ast.Attribute) else qualname.rsplit(".", 1)[1]
        fix = ARGUMENT_FIXES.get((name, keyword.arg), ARGUMENT_FIXES.get(keyword.arg, UNDECLARED_FIX))
        arg = f"{keyword.arg}={describe(keyword.value)}" if by_value else f"{keyword.arg}="
        yield Finding.at(keyword, "JNP503", dict(func=describe(call.func), arg=arg, fix=fix, error=error))


def _refused_arguments(model, call, qualname):
    """(keyword, exception name, refused for its value) for each keyword argument JAX refuses."""
    refused = api.jnp_rejected_arguments().get(qualname) if call.keywords else None
    if refused is None and call.keywords and isinstance(call.func, ast.Attribute):
        method = api.array_rejected_arguments().get(call.func.attr)  # asked before the forward pass
        if method is not None and any(k.arg in method for k in call.keywords) \
                and model.array_value(call.func.value).kind in JAX_ARRAY:
            refused = method
    for keyword in call.keywords if refused else ():
        rejection = refused.get(keyword.arg)
        if rejection is None:
            continue
        if "values" in rejection:  # only some values are refused: a literal one of them
            if isinstance(keyword.value, ast.Constant) and repr(keyword.value.value) in rejection["values"]:
                yield keyword, rejection["values"][repr(keyword.value.value)], True
        elif not rejection["none_ok"] or _surely_not_none(model, keyword.value):
            yield keyword, rejection["error"], False


def _surely_not_none(model, expr):
    if isinstance(expr, ast.Constant):
        return expr.value is not None
    if isinstance(expr, (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.JoinedStr)):
        return True
    return model.array_value(expr).kind in ARRAYS


# ---- helpers ---------------------------------------------------------------------------
def _operator(statement):
    text = ast.unparse(ast.BinOp(ast.Name("a"), statement.op, ast.Name("b")))
    return text.split()[1]


def _version():
    return api.data()["jax_version"]


@rule("JNP505")
def sequence_argument(model):
    """JNP505: a Python list or tuple where a jax.numpy function requires an array."""
    refusals, item_refusals = api.sequence_refusals(), api.item_refusals()
    for call in model.nodes(ast.Call):
        qualname = model.qualname(call.func)
        if qualname not in refusals and qualname not in item_refusals:
            continue
        for position, items in [*((p, False) for p in refusals.get(qualname, ())),
                                *((p, True) for p in item_refusals.get(qualname, ()))]:
            if any(isinstance(a, ast.Starred) for a in call.args[:position + 1]):
                break
            arg = call.args[position] if position < len(call.args) else None
            if items:  # jnp.concatenate([[], [1]]): a list among the arrays of a list display
                arg = next((item for item in getattr(arg, "elts", ()) if type(item) is not ast.Starred
                            and model.value(item).container in SEQUENCES), None)
            kind = model.value(arg).container if arg is not None else None
            if kind in SEQUENCES:  # a list or tuple display, a list comprehension, or a name bound to one
                yield Finding.at(call, "JNP505", {"func": describe(call.func), "kind": kind, "arg": describe(arg)})
                break
