"""JNP205: a method jitted with ``self`` traced, on a class JAX cannot flatten."""
import ast

from ..findings import Finding
from ..model.traced import _literals as literals

NOT_SELF_METHODS = frozenset({"builtins.staticmethod", "builtins.classmethod"})


def check(model):
    registered = _registered_names(model)
    for cls in model.nodes(ast.ClassDef):
        if not _plain_class(model, cls) or cls.name in registered:
            continue
        for method in cls.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = method.args.posonlyargs + method.args.args
            qualnames = [model.qualname(d) for d in method.decorator_list]
            if not params or params[0].arg != "self" or NOT_SELF_METHODS & set(qualnames):
                continue
            for decorator in method.decorator_list:
                spec = model.transform_spec(decorator)
                if spec and spec[0] in model.staging_transforms and _traces_self(spec[1]):
                    yield Finding.at(decorator, "JNP205", {"transform": spec[0], "cls": cls.name,
                                                           "method": method.name})


def _plain_class(model, cls):
    """A class without decorators, metaclass or bases other than object: JAX cannot flatten its
    instances unless it is registered."""
    return not cls.decorator_list and not cls.keywords and all(
        model.qualname(base) == "builtins.object" for base in cls.bases)


def _registered_names(model):
    """Names handed to a pytree registration call (jax.tree_util.register_pytree_node(C, ...))."""
    names = set()
    for call in model.nodes(ast.Call):
        qualname = model.qualname(call.func) or ""
        if "register" in qualname.rpartition(".")[2] and call.args and isinstance(call.args[0], ast.Name):
            names.add(call.args[0].id)
    return names


def _traces_self(keywords):
    """False when self is static (static_argnums=0 or static_argnames='self') or the options
    cannot be read."""
    options = {k.arg: k.value for k in keywords}
    if None in options:
        return False
    numbers = literals(options["static_argnums"], int) if "static_argnums" in options else []
    names = literals(options["static_argnames"], str) if "static_argnames" in options else []
    return numbers is not None and names is not None and 0 not in numbers and "self" not in names
