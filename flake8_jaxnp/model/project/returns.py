"""What a function's text says of its results: the parameters it hands to the host on a call
(``conversions``: ``float(x)``, ``print(name, x)``, ``x.mean().item()``), and what kind of array
every ``return`` gives (``returned_kind``: a jax.numpy call's device array, NumPy's host data, a
tuple of those). Read by the summaries (``function_facts``) for this module's and other modules'
callers."""
import ast
import json

from ... import api
from .. import dtypes
from ...facts import DEVICE_PRESERVING, FORMATTERS, SCALAR_CONVERSIONS
from ..library import GENERATOR_CONSTRUCTORS, MAPPING_READS, NUMPY_ARRAY_MODULES, non_array_functions
from ..syntax import imported_qualname, walk_own
from ..traced import Behaviour
from .targets import HOST_METHODS, RETURNED, call_target, looked_up

# Builtins named in conversions (float, int, print, ...): a call of one is builtins.<name>.
BUILTIN_NAMES = frozenset(q.split(".", 1)[1] for q in SCALAR_CONVERSIONS | FORMATTERS)


def summary_qualname(expr, imports):
    """The dotted name ``expr`` names through the module's ``imports``, the builtins that
    convert or format (``float``, ``print``) included: the summaries' reading of a name."""
    return imported_qualname(expr, imports, BUILTIN_NAMES)


def conversions(node, imports):
    """[(parameter name, code, what)] for the parameters ``node`` moves to the host: ``np.asarray(x)``,
    ``jax.device_get(x)``, ``float(x)``, ``print(name, x)`` (each argument), ``x.item()``,
    ``x.tolist()``; the parameter may come wrapped in flax's ``unreplicate(x)``, which keeps device
    data on the device, or computed from it (``_parameter_name``)."""
    func = node.func
    if type(func) is ast.Attribute and func.attr in _HOST_METHOD_CODES and not node.args and not node.keywords:
        name = _parameter_name(func.value, imports)
        return [] if name is None else [(name, _HOST_METHOD_CODES[func.attr], f".{func.attr}()")]
    if not node.args:
        return []
    qualname = summary_qualname(func, imports)
    if qualname in api.data()["numpy_fails_on_tracer"] or qualname == "jax.device_get":
        code, what = "JNP101", f"{qualname.replace('numpy.', 'np.', 1)}()"
    elif qualname in SCALAR_CONVERSIONS:
        code, what = "JNP102", f"{qualname.split('.', 1)[1]}()"
    elif qualname in FORMATTERS:
        code, what = "JNP103", f"{qualname.split('.', 1)[1]}()"
    else:
        return []
    names = [_parameter_name(a, imports) for a in (node.args if code == "JNP103" else node.args[:1])]
    return [(name, code, what) for name in names if name is not None]


_HOST_METHOD_CODES = {"item": "JNP102", "tolist": "JNP101"}


def _parameter_name(expr, imports):
    """The name ``x`` of ``x`` or ``unreplicate(x)`` (still the same device data), or of an array
    its methods, operators and indexing compute from it (``(x.argmax(-1) == y).mean()``: a device
    array's own methods, and its operators where it stands first, give device arrays; a method
    jax.Array lacks, ``x.keys()``, is no such array), else None."""
    while True:
        kind = type(expr)
        if kind is ast.Call and len(expr.args) == 1 and not expr.keywords \
                and summary_qualname(expr.func, imports) in DEVICE_PRESERVING:
            expr = expr.args[0]
        elif kind is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in api.array_attributes() \
                and expr.func.attr not in HOST_METHODS and expr.func.attr not in api.python_result_methods():
            expr = expr.func.value
        elif kind is ast.BinOp or kind is ast.Compare and len(expr.ops) == 1:
            expr = expr.left
        elif kind is ast.Subscript or kind is ast.UnaryOp and type(expr.op) is not ast.Not:
            expr = expr.value if kind is ast.Subscript else expr.operand
        else:
            return expr.id if kind is ast.Name else None


def returned_kind(value, imports, local=None, depth=0):
    """"jax" for a call into jax.numpy that returns one array, or arithmetic on one
    (``jnp.tanh(x) * 2``: an array's operator gives an array); "numpy" for a NumPy call that
    builds one host array (``np.linspace(0, 1, 32)``, ``np.load(path).astype(np.float32)``,
    ``rng.normal(size=3)`` of ``rng = np.random.default_rng(0)``; not ``np.sum(x)``, which gives
    a JAX array for one), or arithmetic on NumPy arrays and numbers alone; a list of those for a
    tuple (``return X, y``); else None. ``local``: {name: the value of its one assignment in the
    function} (a parameter is no such name), followed a few deep."""
    kind = type(value)
    if kind is str:  # a comprehension's name for the values of a local dict (``_dict_values``)
        return value
    if kind is ast.Name and local and value.id in local and depth < _LOCAL_DEPTH:
        return returned_kind(local[value.id], imports, local, depth + 1)
    if kind is ast.Tuple and depth == 0 and value.elts and not any(type(e) is ast.Starred for e in value.elts):
        kinds = [returned_kind(e, imports, local, depth + 1) for e in value.elts]
        return kinds if any(kinds) else None
    if kind in (ast.Dict, ast.DictComp):
        each = _dict_values(value, imports, local or {}, depth)
        return {"each": each} if each else None
    if kind is ast.UnaryOp:
        return returned_kind(value.operand, imports, local, depth)
    if kind is ast.BinOp:
        sides = [returned_kind(side, imports, local, depth) for side in (value.left, value.right)]
        if "jax" in sides:
            return "jax"
        numbers = [type(side) is ast.Constant and type(side.value) in (int, float)
                   for side in (value.left, value.right)]
        return "numpy" if all(k == "numpy" or number for k, number in zip(sides, numbers)) else None
    if kind is not ast.Call:
        return None
    func = value.func
    if type(func) is ast.Attribute and type(func.value) in (ast.Call, ast.Name):
        if func.attr == "astype":  # (an array's own method: the same kind of array)
            made = returned_kind(func.value, imports, local, depth)
            return made if made in ("jax", "numpy") else None
        maker = func.value
        if type(maker) is ast.Name and local and maker.id in local:
            maker = local[maker.id]
        if type(maker) is ast.Call:
            generator = summary_qualname(maker.func, imports) in GENERATOR_CONSTRUCTORS
            return "numpy" if generator and func.attr in api.numpy_random_dtypes()["generator"] else None
    module, _, function = (summary_qualname(func, imports) or "").rpartition(".")
    if function in non_array_functions() or function in api.tuple_result_functions():
        return None
    if module == "jax.numpy" or f"{module}.{function}" in api.random_samplers():
        return "jax"
    numpy = module in NUMPY_ARRAY_MODULES and f"{module}.{function}" not in api.numpy_gives_jax_array()
    return "numpy" if numpy else None


_LOCAL_DEPTH = 4  # how many local names deep a returned value is followed


def returned_call(value, imports, own, local=None, kept=()):
    """The project name a returned call calls, for a caller to look up as a class (``return
    Dataset(path)``: an object whose methods' results its class's summary knows): {"class":
    [import binding or None for a top-level name of the module, attribute path]}, or {"parameter":
    name} for a call of a parameter the def never rebinds (``model_cls(cfg)``: what its callers pass
    names the class; ``MODELS[cfg.name](cfg)``: the lookup, ``targets.looked_up``, as its class), a list
    of those (None where not) for a tuple; else None. A name ``local`` binds
    once to a call stands for that call (``model = model_cls(cfg); return data, model``). ``own``: the
    def's parameters and local names; ``kept``: the parameters it never rebinds."""
    if type(value) is ast.Name and local and type(local.get(value.id)) is ast.Call:
        value = local[value.id]
    if type(value) is ast.Tuple:
        items = [returned_call(item, imports, own, local, kept) if type(item) in (ast.Call, ast.Name) else None
                 for item in value.elts]
        return items if any(items) else None
    name = value.func if type(value) is ast.Call else None
    if type(name) is ast.Subscript:  # MODELS[cfg.name](cfg): a class the dict's entry may be
        lookup = looked_up(name, imports, own)
        return {"class": list(lookup)} if lookup is not None else None
    if type(name) is ast.Name and name.id in kept:
        return {"parameter": name.id}
    while type(name) is ast.Attribute:
        name = name.value
    if type(name) is not ast.Name or name.id in own:
        return None
    target = call_target(value.func, imports, {name.id})
    return {"class": list(target)} if target is not None else None


def _dict_values(value, imports, local, depth):
    """The kind ("jax", "numpy") every value of a dict display or comprehension has (``{n:
    v.astype(t) for n, v in params.items()}`` of a local ``params`` display), else None."""
    if depth >= _LOCAL_DEPTH or type(value) not in (ast.Dict, ast.DictComp):
        return None
    if type(value) is ast.Dict:
        kinds = {json.dumps(returned_kind(v, imports, local, depth + 1)) for v in value.values}
        each = json.loads(kinds.pop()) if len(kinds) == 1 and None not in value.keys else None
        return each if each in ("jax", "numpy") else None
    names = dict(local)
    for generator in value.generators:
        target, source = generator.target, generator.iter
        view = source.func.attr if type(source) is ast.Call and type(source.func) is ast.Attribute \
            and not source.args and source.func.attr in ("items", "values") else None
        if view is None or generator.is_async:
            return None
        if view == "items":
            if type(target) is not ast.Tuple or len(target.elts) != 2:
                return None
            target = target.elts[1]
        each = _dict_values(local.get(source.func.value.id), imports, local, depth + 1) \
            if type(source.func.value) is ast.Name and source.func.value.id in local else None
        if type(target) is not ast.Name or each is None:
            return None
        names[target.id] = each
    each = returned_kind(value.value, imports, names, depth + 1)
    return each if each in ("jax", "numpy") else None


def unchanged_dicts(func, local):
    """``local`` less the names bound to a dict that ``func`` may change: every use of such a name but
    a subscript read (``d["w"]``), a call of a method that reads it (``d.items()``) and its return may
    change it (``d["b"] = ...``, ``d.update(...)``, ``fill(d)``), and then its values are unknown."""
    dicts = {name for name, value in local.items() if type(value) in (ast.Dict, ast.DictComp)}
    if not dicts:
        return local
    read, uses = set(), []
    for node in walk_own([func], ()):  # (one walk: the uses are judged once every read is known)
        kind = type(node)
        if kind is ast.Call and type(node.func) is ast.Attribute and node.func.attr in MAPPING_READS:
            read.add(node.func.value)
        elif kind is ast.Subscript and type(node.ctx) is ast.Load or kind is ast.Return:
            read.add(node.value)
        elif kind is ast.Name and node.id in dicts and type(node.ctx) is ast.Load:
            uses.append(node)
    changed = {node.id for node in uses if node not in read}
    return {name: value for name, value in local.items() if name not in changed}


def returned_dtype(value, imports, local, params, depth=0):
    """The dtype of what a returned value holds, in the shape of ``returned_kind``'s answer: a dtype
    (``x.astype(np.float32)``, ``jnp.zeros(n, dtype="int32")``, arithmetic of one with a number of
    a kind it keeps), the position of the parameter whose argument names it (``v.astype(dtype)``:
    its callers' dtype), a list for a tuple, ``{"each": ...}`` for a dict whose values all have
    one; else None. ``local`` as for ``returned_kind``; ``params``: the parameters the def never
    rebinds (a comprehension's names may hide them)."""
    kind = type(value)
    if kind is ast.Name and value.id in local and depth < _LOCAL_DEPTH:
        return returned_dtype(local[value.id], imports, local, params, depth + 1)
    if kind is ast.Tuple and depth == 0 and value.elts and not any(type(e) is ast.Starred for e in value.elts):
        found = [returned_dtype(e, imports, local, params, depth + 1) for e in value.elts]
        return found if any(d is not None for d in found) else None
    if kind is ast.Dict and None not in value.keys and value.values:
        found = {json.dumps(returned_dtype(v, imports, local, params, depth + 1)) for v in value.values}
        each = json.loads(found.pop()) if len(found) == 1 else None
        return {"each": each} if type(each) in (str, int) else None
    if kind is ast.DictComp:
        hidden = {n.id for g in value.generators for n in ast.walk(g.target) if type(n) is ast.Name}
        each = returned_dtype(value.value, imports, {n: v for n, v in local.items() if n not in hidden},
                              [p if p not in hidden else None for p in params], depth + 1)
        return {"each": each} if type(each) in (str, int) else None
    if kind is ast.UnaryOp and type(value.op) in (ast.USub, ast.UAdd):
        return returned_dtype(value.operand, imports, local, params, depth)
    if kind is ast.BinOp:
        sides = [returned_dtype(side, imports, local, params, depth) for side in (value.left, value.right)]
        numbers = [type(side) is ast.Constant and type(side.value) in (int, float)
                   for side in (value.left, value.right)]
        divides = type(value.op) is ast.Div  # (integers divided give floats)
        if type(sides[0]) is str and (sides[0] == sides[1] or numbers[1] and _keeps(sides[0], value.right.value)):
            return sides[0] if not divides or dtypes.kind_rank(sides[0]) >= 2 else None
        found = sides[1] if type(sides[1]) is str and numbers[0] and _keeps(sides[1], value.left.value) else None
        return found if found is None or not divides or dtypes.kind_rank(found) >= 2 else None
    if kind is not ast.Call or any(type(a) is ast.Starred for a in value.args) \
            or any(k.arg is None for k in value.keywords):
        return None
    func = value.func
    if type(func) is ast.Attribute and func.attr == "astype" and len(value.args) == 1 and not value.keywords:
        given = value.args[0]
        if type(given) is ast.Name and given.id in params:
            return params.index(given.id)
        return dtype_spelled(given, imports)[0]
    qualname = summary_qualname(func, imports) or ""
    module, _, function = qualname.rpartition(".")
    if module not in ("jax.numpy", "jax.random", *NUMPY_ARRAY_MODULES) or function in non_array_functions():
        return None
    slot = dtypes.dtype_slot(qualname)
    given = [k.value for k in value.keywords if k.arg == "dtype"] \
        or (value.args[slot:slot + 1] if slot is not None else [])
    if given:
        return dtype_spelled(given[0], imports)[0]
    return _default_dtype(qualname, module, function)


def _default_dtype(qualname, module, function):
    """The dtype a constructor or sampler gives when the call names none, as measured (the default
    float is float64, which JAX narrows unless x64 is on): ``jnp.zeros(n)``, ``jax.random.normal(k,
    shape)``, ``jnp.float32(x)``; None for the others (their dtype follows their data)."""
    if module == "jax.random":
        return api.random_dtypes().get(qualname)
    found = dtypes.dtype_constructor(qualname)
    default = api.constructor_defaults().get(function)
    return found or (default if module != "jax.numpy" or default == "float64" else None)


def _keeps(dtype, number):
    """Whether arithmetic of an array of ``dtype`` with the Python number ``number`` keeps ``dtype``."""
    return dtypes.canonical(dtype) is not None and dtypes.kind_rank(dtype) >= (2 if type(number) is float else 1)


def dtype_spelled(value, imports):
    """(dtype, spelled as a Python type) that an expression names (``jnp.float64``, ``"float32"``,
    ``float``), or (None, False)."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return dtypes.canonical(value.value), False
    return dtypes.dtype_of_qualname(summary_qualname(value, imports))


def passes_tracers(params, traced, staged, returns_of):
    """Whether a value derived from ``params`` (the flows' derivations) holds a tracer when the
    parameters ``traced`` do: one of them is traced, or, under a staging trace (where every JAX
    result is a tracer), one comes through an imported project function (``RETURNED``) whose
    returns say a JAX array there; ``returns_of(binding, attributes)``: its summary's ``returns``."""
    if traced.intersection(params):
        return True
    for param in params if staged else ():
        base, _, through = param.partition(RETURNED)
        if through and base in traced:
            binding, attributes, item = json.loads(through)
            returns = returns_of(binding, attributes)
            if returns == "jax" or item is not None and type(returns) is list \
                    and -len(returns) <= item < len(returns) and returns[item] == "jax":
                return True
    return False


def traced_unders(transform, applied, behaviour, params, positional, passed, argnums):
    """{transform: the parameters of a callee it gives tracers} for a call reached under ``transform``
    that applies ``applied`` to the callee (a transform of that ``behaviour``, or None): a
    differentiating one gives tracers to the parameters at the positions ``argnums`` alone (of
    ``passed``, the positions given tracers; ``positional``: the callee's positional parameters;
    argnums None: to all), so what derives from the step's data alone is traced by the step's
    transform, not differentiated."""
    unders = {transform: params}
    given = params if argnums is None else {positional[i] for i in passed if i in argnums and i < len(positional)}
    if behaviour is Behaviour.DIFFERENTIATING and params and given:
        unders[applied] = unders.get(applied, set()) | given
    return unders
