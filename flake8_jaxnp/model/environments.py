"""The environments of a forward pass (``values``): what each local name holds on one path.

Overlays keep a pass linear in the body's size: a branch records only what it changes, and a
join touches only the names some branch changed.
"""
from .kinds import UNKNOWN_VALUE, join


class Env:
    """Local names -> Values on one path: an overlay over the path it branched from."""

    __slots__ = ("base", "changes")

    def __init__(self, base=None, changes=None):
        self.base = base
        self.changes = {} if changes is None else changes

    def get(self, name):
        env = self
        while env is not None:
            value = env.changes.get(name)
            if value is not None:
                return value
            env = env.base
        return None

    def __contains__(self, name):
        return self.get(name) is not None

    def __setitem__(self, name, value):
        self.changes[name] = value

    def branch(self):
        return Env(self)

    def meet(self, *branches):
        """Join ``branches`` (each branched from this env, an empty one being the path that
        skipped them) into this env, touching only the names a branch changed."""
        changed = set()
        for branch in branches:
            changed.update(branch.changes)
        for name in changed:
            values = [branch.get(name) for branch in branches]
            result = values[0]
            for value in values[1:]:
                result = join(result, value)
            self.changes[name] = result if result is not None else UNKNOWN_VALUE
