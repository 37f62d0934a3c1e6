"""Names that stand for a transform where they decorate a def: ``jit_classes = partial(jax.jit,
static_argnums=(2,))`` or ``fast = jax.jit``, and a project's own wrapper ``def compiled(fn): return
jax.jit(fn)``, bound once at the top level of this module or of another project module
(``summaries.transform_aliases``, asked through ``Project.transform_alias``)."""
import ast

from .names import BindingKind
from .syntax import SCOPES, import_binding, positional, split_attributes, transform_spec, walk_own


class TransformAliases:
    def __init__(self, names, transforms, project):
        self.names = names
        self.transforms = transforms
        self.project = project
        self._found = {}  # (module-level name, attributes) -> spec or None

    def spec(self, expr):
        """(transform name, keywords) that ``expr``, a name or ``module.name``, stands for; else None."""
        name, attributes = split_attributes(expr)
        binding = self.names.one_binding(name, module_level=True)
        if binding is None:
            return None
        key = (name.id, *attributes)
        if key not in self._found:
            self._found[key] = self._alias(name, attributes, binding)
        return self._found[key]

    def _alias(self, name, attributes, binding):
        if binding.kind is BindingKind.IMPORT:
            imported = import_binding(binding.stmt, name.id) if self.project is not None else None
            alias = self.project.transform_alias(imported, attributes) if imported else None
            if alias is None:
                return None
            return alias[0], [ast.keyword(arg=arg, value=ast.parse(text, mode="eval").body) for arg, text in alias[1]]
        if attributes or binding.kind not in (BindingKind.ASSIGN, BindingKind.DEF):
            return None
        stmt = binding.stmt if binding.kind is BindingKind.ASSIGN else binding.node
        return transform_alias(stmt, self.names.qualname, self.transforms)


def transform_alias(node, qualname, transforms):
    """(transform name, keywords) that a top-level statement binds its name to, for use as a
    decorator: an assignment of a transform or ``partial`` of one, or an undecorated def of one
    parameter every ``return`` of which applies one transform, the same way, to that parameter
    alone (``return jax.jit(fn, donate_argnums=0)``); else None."""
    if type(node) is ast.Assign:
        return transform_spec(node.value, qualname, transforms)
    if type(node) is not ast.FunctionDef or node.decorator_list or len(positional(node)) != 1 \
            or node.args.vararg or node.args.kwarg or node.args.kwonlyargs:
        return None
    param, specs = positional(node)[0].arg, []
    for stmt in walk_own(node.body, SCOPES):
        if type(stmt) in (ast.Yield, ast.YieldFrom):
            return None
        if type(stmt) is not ast.Return:
            continue
        call = stmt.value
        if type(call) is not ast.Call or len(call.args) != 1 or type(call.args[0]) is not ast.Name \
                or call.args[0].id != param:
            return None
        name = qualname(call.func)
        spec = (name, call.keywords) if name in transforms else transform_spec(call.func, qualname, transforms)
        if spec is None:
            return None
        specs.append(spec)
    same = {(name, ast.dump(ast.List(keywords))) for name, keywords in specs}
    return specs[0] if len(same) == 1 else None


def transform_aliases(tree, qualname, transforms):
    """{name: [transform, [[keyword, its source text]]]} for the top-level names bound once that
    stand for a transform where they decorate a def (``transform_alias``: ``jit_classes =
    partial(jax.jit, static_argnums=(2,))``, ``def compiled(fn): return jax.jit(fn)``)."""
    found, counts = {}, {}
    for stmt in tree.body:
        named = stmt.targets[0].id if type(stmt) is ast.Assign and len(stmt.targets) == 1 \
            and type(stmt.targets[0]) is ast.Name else getattr(stmt, "name", None)
        if named is None:
            continue
        counts[named] = counts.get(named, 0) + 1
        spec = transform_alias(stmt, qualname, transforms)
        if spec is not None and all(k.arg for k in spec[1]):
            found[named] = [spec[0], [[k.arg, ast.unparse(k.value)] for k in spec[1]]]
    return {name: spec for name, spec in found.items() if counts[name] == 1}


# The options of a jit that select its arguments, kept in a module's summary for the calls other
# modules make: a static argument that changes in a loop compiles again (JNP602), a donated one is
# deleted (JNP605).
ARGUMENT_OPTIONS = frozenset({"static_argnums", "static_argnames", "donate_argnums", "donate_argnames"})


def argument_options(keywords, params):
    """[[[keyword, its source text]], the jitted function's positional parameters or None] for the
    ``keywords`` of a jit that select arguments (``ARGUMENT_OPTIONS``), or None when there are none
    or one of the keywords is not a literal (``**options``, a name): the selection is then unknown."""
    if any(k.arg is None for k in keywords):
        return None
    chosen = [k for k in keywords if k.arg in ARGUMENT_OPTIONS]
    try:
        for keyword in chosen:
            ast.literal_eval(keyword.value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return [[[k.arg, ast.unparse(k.value)] for k in chosen], params] if chosen else None
