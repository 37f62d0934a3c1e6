"""The state JNP601's forward pass (``keys._KeyFlow``) carries: which held keys (``key``, ``keys[0]``,
``obj.key``) were consumed, and how, on every path so far; forgetting what a statement rebinds, and
joining the paths of a branch."""
import ast

from ..model.syntax import held_name, lookup_key
from .key_consumers import UNSEEN


def held_key(expr):
    """The name a key is held by: ``key``, or ``keys[6]`` for an item of a name read with a
    constant index (the subkeys of one split); else None."""
    name = held_name(expr)
    return None if name is None else name.id if name is expr else f"{name.id}[{lookup_key(expr)}]"


def base_name(name):
    """The variable a held key's name reads: ``keys`` of ``keys[6]``, ``obj`` of ``obj.key``."""
    return name.partition("[")[0].partition(".")[0]


def items_stored(stmt):
    """The held keys an assignment stores afresh (``keys[0] = ...``)."""
    targets = getattr(stmt, "targets", None) or [getattr(stmt, "target", None)]
    targets = [e for target in targets for e in getattr(target, "elts", [target])]
    return {held_key(target) for target in targets if type(target) is ast.Subscript} - {None} | {
        f"{target.value.id}.{target.attr}" for target in targets
        if type(target) is ast.Attribute and type(target.value) is ast.Name}


def forget(used, names):
    """``used`` less the keys held by ``names`` (and the items of a name rebound)."""
    return {name: state for name, state in used.items() if name not in names and base_name(name) not in names}


def every_path(after):
    """What every path consumed: ``after`` holds each path's state."""
    joined = {name: _join([state] + [other[name] for other in after[1:]]) for name, state in after[0].items()
              if all(name in other for other in after[1:])}
    return {name: state for name, state in joined.items() if state}


def _join(states):
    """The consumptions of a key that every path made, by kind; a key that every path consumed, but
    not in one same way, is consumed in an unknown way (a later use shares bits with it, at least)."""
    first, *others = states
    kept = tuple(entry for entry in first if all(any(kind == entry[0] for kind, *_ in other) for other in others))
    if kept or any(all(kind == UNSEEN for kind, *_ in state) for state in states):
        return kept
    return (("unknown", *first[0][1:]),)


def both_paths(a, b):
    """What both paths consumed."""
    return {name: state for name, state in a.items() if name in b}
