"""What an object's attributes hold, as its class's methods store them: ``self.<attr> = value``
assignments found once per class, the containers and arguments ``__init__`` binds, and every store
that can have put what ``obj.attr`` reads. A part of ``instances.Instances``, kept apart to keep that
module's size (it gives ``names``, ``classes_of`` and ``class_named``).
"""
import ast
from collections import Counter

from .carried import MAX_DEPTH as _MAX_DEPTH
from .containers import DEFAULT_DICT, LITERALS, defaulting
from .kinds import PYTHON, UNKNOWN_VALUE, Shaped
from .syntax import (argument_for, block_children, class_body_names, method_in, positional_names, sharing_instances,
                     walk_own)


class ObjectStores:
    """The attribute-store questions of ``Instances``."""

    def self_assignments(self, cls):
        """{attribute: [(statement, its targets)] for each target ``self.<attribute>``} of the
        assignments in the ClassDef ``cls``, found in one walk of its statements for all its attributes."""
        found = self._assignments.get(cls)
        if found is None:
            found = self._assignments[cls] = {}
            for node in walk_own([cls], (), block_children):
                kind = type(node)
                targets = node.targets if kind is ast.Assign else [node.target] \
                    if kind is ast.AugAssign or kind is ast.AnnAssign else ()
                for target in targets:
                    if type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == "self":
                        found.setdefault(target.attr, []).append((node, targets))
        return found

    def held_containers(self, cls):
        """{attribute: Value} for the attributes the ClassDef ``cls`` binds once (``_init_stores``) to a
        display (``self.returns = []``) or to a ``defaultdict`` of a builtin container whose items the
        file never stores (``self.history = defaultdict(list)``): every method sees that kind of
        container (its items may change, its kind does not)."""
        init, found, stores = method_in(cls, "__init__"), {}, self.attribute_stores()
        for attr, value in self._init_stores(cls, init, stores, 1).items() if init is not None else ():
            kind = type(value)
            if kind in LITERALS and LITERALS[kind] != "generator":
                found[attr] = Shaped(PYTHON, container=LITERALS[kind])
            elif kind is ast.Call and value.args and not stores[f"[{attr}]"] \
                    and self.names.qualname(value.func) == DEFAULT_DICT:
                held = defaulting(self.names.qualname(value.args[0]))
                if held is not None:
                    found[attr] = held
        return found

    def stored_arguments(self, cls):
        """{attribute: parameter} for the attributes that the ClassDef ``cls``, with no base, binds once
        in the body of its ``__init__`` (``_init_stores``) to a parameter the body never rebinds
        (``self.phase = phase``), and that no other store in the file may bind on its objects (another
        class's ``self.phase`` is another object's: ``attribute_stores``): every method of an object sees
        there what its construction passed."""
        init = method_in(cls, "__init__")
        if init is None or cls.bases:
            return {}
        scope = self.names.scopes.get(init)
        stores = self._init_stores(cls, init, self.attribute_stores(cls), 1)
        return {attr: value.id for attr, value in stores.items()
                if type(value) is ast.Name and value.id in positional_names(init, bound=True)
                and len(scope.bindings.get(value.id, ())) == 1}

    def built_fields(self, method, call, values):
        """The attributes holding tracers for ``method`` of a same-file class, run by ``call`` on an
        object built in the traced code whose forward pass gave ``values`` (``Rx(phase).array()``;
        ``obj = Rx(phase)`` then ``obj.array()``): those ``__init__`` stores as given (``stored_arguments``)
        a traced argument; for ``__call__``, the object called (``Dropout(rate)(x)``, ``layer(x)``)."""
        receiver = call.func.value if type(call.func) is ast.Attribute else \
            call.func if getattr(method, "name", None) == "__call__" else None
        built = self.constructor(receiver) if type(receiver) in (ast.Name, ast.Call) else None
        cls = self.class_named(built.func) if built is not None else None
        init = method_in(cls, "__init__") if cls is not None and cls is self.names.parent.get(method) else None
        if init is None:
            return set()
        names = positional_names(init, bound=True)
        return {attr for attr, param in self.stored_arguments(cls).items()
                if values.get(argument_for(built, names, param), UNKNOWN_VALUE).holds_tracers}

    def attribute_stores(self, cls=None):
        """Counter of the stores in the file of each attribute name, and of ``[attribute]`` for each item
        store into an attribute; with the ClassDef ``cls``: those that may reach its objects, less the stores
        on the ``self`` of another class's methods (``stores_another_object``)."""
        if cls not in self._stored_attributes:
            attributes = self.names.by_type.get(ast.Attribute, ())
            counted = self._stored_attributes[cls] = Counter(
                node.attr for node in attributes if type(node.ctx) is ast.Store
                and (cls is None or not self.stores_another_object(node, cls)))
            counted.update(f"[{node.value.attr}]" for node in self.names.by_type.get(ast.Subscript, ())
                           if type(node.ctx) is not ast.Load and type(node.value) is ast.Attribute)
        return self._stored_attributes[cls]

    def stores_another_object(self, store, cls):
        """Whether ``store`` (``self.<field> = ...``) stores the field of objects that cannot be instances of
        the ClassDef ``cls``: it is on the ``self`` of a method of a class that shares no object with it
        (``sharing_instances``)."""
        where = self.names.enclosing_function(store)
        owner = self.names.parent.get(where)
        if type(owner) is not ast.ClassDef or type(store.value) is not ast.Name or store.value.id != "self":
            return False
        if self._sharing is None:
            classes = {}
            for each in self.names.by_type.get(ast.ClassDef, ()):
                classes.setdefault(each.name, []).append(each)
            self._sharing = sharing_instances(classes)
        return owner not in self._sharing[cls]

    def _init_stores(self, cls, init, stores, most):
        """{attribute: the value it is given} for the attributes that the ClassDef ``cls`` binds once, in
        the body of its ``init`` by a plain assignment, and that ``stores`` (``attribute_stores``) count
        ``most`` times at most."""
        found = {}
        for attr, assignments in self.self_assignments(cls).items():
            statement, targets = assignments[0]
            if stores[attr] <= most and len(assignments) == 1 and type(statement) is ast.Assign \
                    and len(targets) == 1 and statement in init.body:
                found[attr] = statement.value
        return found

    def stored_values(self, expr):
        """[(method, value)] for each store ``self.<attr> = value`` that can have put what ``expr``
        (``foo.factors``, ``self.factors``) reads: the stores in the methods of the object's class and
        of its same-file bases, where its class is known (``classes_of``; a method's own class for its
        ``self``, when no same-file class derives from it), no other store in the file may reach its
        objects (``attribute_stores``), each store is a plain assignment and no class body binds the
        name; else None."""
        name, attr = expr.value, expr.attr
        if type(name) is not ast.Name or not self.attribute_stores()[attr]:
            return None
        method = self.names.parameter_of(name)
        own = self.names.parent.get(method)
        if type(own) is ast.ClassDef and positional_names(method)[:1] == [name.id] and not method.decorator_list:
            derived = any(self.class_named(base) is own for cls in self.names.by_type.get(ast.ClassDef, ())
                          for base in cls.bases)
            classes = None if derived else {own}
        else:
            classes = self.classes_of(name)
        found = []
        for cls in classes or ():
            first, reaching = len(found), self.attribute_stores(cls)[attr]
            for _ in range(_MAX_DEPTH):
                for statement, targets in self.self_assignments(cls).get(attr, ()):
                    if type(statement) is not ast.Assign or len(targets) != 1:
                        return None
                    found.append((self.names.enclosing_function(statement), statement.value))
                if found and cls not in self._body_names:
                    self._body_names[cls] = class_body_names(cls)
                if found and attr in self._body_names[cls]:
                    return None  # a class attribute or a property: read before any store
                if not cls.bases:
                    break
                cls = self.class_named(cls.bases[0]) if len(cls.bases) == 1 else None
                if cls is None:
                    return None
            else:  # (a long chain of bases: not followed)
                return None
            if reaching != len(found) - first:
                return None  # stored through another name, or on the self of a class deriving from it
        return found or None
