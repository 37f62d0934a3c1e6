"""What a call of one of the project's own functions gives: a top-level def of this
module or a function of another project module, with its summary's facts (what it
returns, which parameters it converts to the host, whether it is jitted) and the
shape of a jitted function's result. Library calls are ``library``'s."""
import ast

from .names import BindingKind
from .project.modules import shown
from .project.records import module_records, result_shape
from .project.summaries import CACHING_DECORATORS, function_facts
from .syntax import import_binding, module_imports, split_attributes
from .traced import Behaviour


class Callees:
    """The functions a call names, and what they are known to return."""

    def __init__(self, names, roots, project):
        self.names = names
        self.roots = roots
        self.project = project  # the Project around the file, or None (a buffer with no path)
        self._facts = {}  # def node -> its facts (returns, conversions), on demand
        self._helpers = {}  # a call's function expression -> helper_facts' answer (the forward pass asks again)
        self._imports = None  # module-level import bindings, on demand
        self._records = None  # this module's pytree classes, on demand
        self._results = {}  # jitted def -> the shape of its result, on demand
        self._builders = {}  # def -> whether it returns a jitted function, on demand
        self._returns = None  # def -> the values its return statements give, on demand
        self._generators = set()  # defs that yield

    def callee(self, func_expr):
        """The same-file def that a call's function expression names."""
        return self.names.function_bound_to(func_expr)

    def helper_facts(self, func_expr):
        """(facts, path shown in messages) for the function a call names: a top-level def
        of this module (path None) or a function of another project module. Facts: params,
        returns, converts, and for another module's function whether it is jitted."""
        if func_expr not in self._helpers:
            self._helpers[func_expr] = self._helper_facts(func_expr)
        return self._helpers[func_expr]

    def _helper_facts(self, func_expr):
        callee = self.callee(func_expr)
        if callee is not None:
            if isinstance(callee, ast.Lambda) or self.names.parent.get(callee) is not self.names.tree:
                return None
            facts = self._facts.get(callee)
            if facts is None:
                facts = self._facts[callee] = function_facts(callee, self._module_imports())
            return facts, None
        binding = self._project_import(func_expr)
        imported = self.project.function(*binding) if binding else None
        if imported is None:
            return None
        path, facts = imported
        return facts, shown(path)

    def imported_dtype(self, expr):
        """(dtype, spelled as a Python type) for a dtype constant bound in another project
        module (``util.f64``, ``from .util import f64``), or None."""
        binding = self._project_import(expr)
        alias = self.project.dtype_alias(*binding) if binding else None
        return tuple(alias) if alias else None

    def jitted_result(self, callee):
        """The shape of what a same-file jitted function returns (see project.records.result_shape),
        when its transforms turn every leaf into an array; else None."""
        roots = self.roots
        traced = roots.traced.get(callee)
        if traced is None or self.names.parent.get(callee) is not self.names.tree or not callee.decorator_list:
            return None
        if any(t.behaviour is not Behaviour.STAGING or t.name in roots.scalars_static for t in traced.transforms) \
                or any(roots.transform_spec(d) is None for d in callee.decorator_list):
            return None
        if callee not in self._results:
            records = self._module_records()
            self._results[callee] = result_shape(callee, records) if records else None
        return self._results[callee]

    def annotated_record(self, annotation):
        """The shape (``{"record": ...}``) of the same-file pytree class a parameter's
        annotation names (``state: TrainState``), or None."""
        if not isinstance(annotation, ast.Name):
            return None
        found = self.names.resolve_name(annotation)
        if not found or found[0] is not self.names.module_scope or len(found[1]) != 1 \
                or found[1][0].kind is not BindingKind.CLASS:
            return None
        record = self._module_records().get(annotation.id)
        return {"record": record} if record else None

    def _module_records(self):
        if self._records is None:
            self._records = module_records(self.names.tree, self._module_imports())
        return self._records

    def builds_jitted(self, callee):
        """Whether a same-file def, undecorated or cached by functools, returns only a
        transformed function whose calls give device arrays (``return jax.jit(step)``)."""
        if callee not in self._builders:
            self._builders[callee] = not isinstance(callee, ast.Lambda) and all(
                self.names.qualname(d.func if isinstance(d, ast.Call) else d) in CACHING_DECORATORS
                for d in callee.decorator_list) and self._returns_jitted(callee)
        return self._builders[callee]

    def _returns_jitted(self, callee):
        if self._returns is None:  # one pass over the module's index, not a walk of each callee
            enclosing, self._returns = self.names.enclosing_function, {}
            for node in self.names.by_type.get(ast.Return, ()):
                self._returns.setdefault(enclosing(node), []).append(node.value)
            self._generators = {enclosing(node) for kind in (ast.Yield, ast.YieldFrom)
                                for node in self.names.by_type.get(kind, ())}
        returns = self._returns.get(callee)
        if not returns or callee in self._generators:
            return False
        roots = self.roots
        for value in returns:
            if isinstance(value, ast.Name):  # fast = jax.jit(step); return fast
                found = self.names.resolve_name(value)
                if not found or len(found[1]) != 1 or found[1][0].kind is not BindingKind.ASSIGN:
                    return False
                value = found[1][0].value
            transform = self.names.qualname(value.func) if isinstance(value, ast.Call) and value.args else None
            if transform not in roots.array_results or roots.transforms[transform] is not Behaviour.STAGING:
                return False
        return True

    def _project_import(self, expr):
        """(import binding, attributes) for ``name`` or ``module.name`` bound by a module-level
        import, when the file has a project; else None."""
        if self.project is None:
            return None
        name, attributes = split_attributes(expr)
        if name is None:
            return None
        found = self.names.resolve_name(name)
        if found is None or found[0] is not self.names.module_scope or len(found[1]) != 1 \
                or found[1][0].kind is not BindingKind.IMPORT:
            return None
        binding = import_binding(found[1][0].stmt, name.id)
        return (binding, attributes) if binding else None

    def _module_imports(self):
        if self._imports is None:
            self._imports = module_imports(self.names.tree)
        return self._imports
