"""Where a module stores each attribute, as an instance of one of its classes sees it, from its text alone.

What ``__init__`` stores once on ``self`` (``self.loss_fn = LOSSES[name]``, ``self.step =
jax.jit(self._step)``) is what an instance holds, unless the module stores the attribute again
where that instance may see it. A store on the ``self`` of another class's method reaches only
that class's instances, so two unrelated classes that each store ``self.kernel`` in their own
``__init__`` do not hide each other's; a class related through a base (or a base from elsewhere)
may share instances, and counts.
"""
import ast

from ..syntax import sharing_instances, walk_own


def attribute_stores(tree):
    """{attribute: how many times the module ``tree`` stores ``.attribute``} (``self._fn = fn``, ``obj._fn = g``)."""
    found = {}
    for node in walk_own([tree], ()):  # (every node: twice as fast as ast.walk)
        if type(node) is ast.Attribute and type(node.ctx) is not ast.Load:
            found[node.attr] = found.get(node.attr, 0) + 1
    return found


def top_level_classes(tree):
    """{name: ClassDef} for the undecorated top-level classes whose name the module binds once."""
    counts, classes = {}, {}
    for stmt in tree.body:
        for name in bound_names(stmt):
            counts[name] = counts.get(name, 0) + 1
        if type(stmt) is ast.ClassDef and not stmt.decorator_list:
            classes[stmt.name] = stmt
    return {name: cls for name, cls in classes.items() if counts[name] == 1}


def bound_names(stmt):
    """The names a top-level statement binds that matter here: defs, classes, assignments."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if type(stmt) is ast.Assign else [stmt.target]
        return [n.id for t in targets for n in ast.walk(t) if type(n) is ast.Name]
    return []


class ClassStores:
    """The module's ``tree`` and its ``classes`` ({name: ClassDef}, ``top_level_classes``): their
    same-module bases, and the stores an instance of each may see."""

    def __init__(self, tree, classes):
        self.tree = tree
        self.classes = classes
        self._stored = None  # (attribute_stores, {class: own_stores}, sharing_instances), on demand

    def chain(self, name):
        """The class and its same-module single bases, nearest first; None ends it where a
        base is unknown (several bases, one from elsewhere)."""
        seen = []
        while name is not None and name not in seen:
            seen.append(name)
            bases = self.classes[name].bases
            if not bases:
                return seen
            base = bases[0]
            if len(bases) != 1 or type(base) is not ast.Name or base.id not in self.classes:
                return seen + [None]
            name = base.id
        return seen

    def stores(self, name):
        """{attribute: how many times the module stores it} (``attribute_stores``, read once) where an
        instance of the class ``name`` may hold it: less what the methods of another class store on their
        own ``self``, unless it may share objects with ``name`` (``sharing_instances``); nothing is left out
        for a class not in ``classes`` (decorated, or its name bound again)."""
        if self._stored is None:
            own = {cls: own_stores(self.classes[cls]) for cls in self.classes}
            sharing = sharing_instances({each: [cls] for each, cls in self.classes.items()})
            self._stored = attribute_stores(self.tree), own, sharing
        stored, own, sharing = self._stored
        if name not in self.classes:
            return stored
        unrelated = [cls for cls in self.classes if own[cls] and self.classes[cls] not in sharing[self.classes[name]]]
        if not unrelated:
            return stored
        counts = dict(stored)
        for cls in unrelated:
            for attribute, count in own[cls].items():
                counts[attribute] -= count
        return counts


def own_stores(cls):
    """{attribute: how many times the methods of ``cls`` store ``self.<attribute>``} (``self`` each one's
    first parameter, a staticmethod left out; a nested def's stores left out: its ``self`` may be another
    object)."""
    found = {}
    for method in cls.body:
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.args.args \
                and not any(type(d) is ast.Name and d.id == "staticmethod" for d in method.decorator_list):
            this = method.args.args[0].arg
            for node in walk_own(method.body):
                if type(node) is ast.Attribute and type(node.ctx) is not ast.Load and type(node.value) is ast.Name \
                        and node.value.id == this:
                    found[node.attr] = found.get(node.attr, 0) + 1
    return found
