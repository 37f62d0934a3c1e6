"""What each line of the watched files does, read from their bytecode (no jax needed).

The probes ask, at each line a watched frame runs, which globals and closure variables the line reads,
which names it rebinds outside its frame and which outer objects it mutates.
"""
import dis
import types
from collections import defaultdict

from ..facts import ADVANCING_BUILTINS, CONSTRUCTORS, MUTATING_METHODS

# Instructions that may sit between a receiver load and the store that mutates it.
RECEIVER_PASS = frozenset({"LOAD_ATTR", "LOAD_CONST", "COPY", "SWAP", "BINARY_OP", "BINARY_SUBSCR"})


class Watched(frozenset):
    """The real paths (as code objects name their files) of the files whose code is watched, with
    each one's bytecode facts, read when first needed. A frozenset: ``in`` is asked on every call."""

    def __init__(self, paths):
        super().__init__()
        self._facts = {}
        self.unwatched = {}  # module name -> the module object last found not to be a watched file's

    def facts(self, path):
        """LineFacts of ``path``; None when it cannot be compiled."""
        if path not in self._facts:
            code = _compile(path)
            self._facts[path] = LineFacts(code) if code is not None else None
        return self._facts[path]


def _compile(path):
    """The file's module code, compiled the way Python reads it (BOM, coding cookie); None if it cannot be."""
    try:
        with open(path, "rb") as handle:
            return compile(handle.read(), path, "exec", dont_inherit=True)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


class LineFacts:
    """What each line of a file does, read from its bytecode: the globals it reads, the
    names it rebinds outside its frame, and the outer objects it mutates, as
    (kind, name) with kind "global", "closure" or "self"."""

    def __init__(self, code):
        self.outer_loads, self.rebinds, self.mutates, self.cell_lines = _line_facts(code)
        # every outer object a line mutates outlives the trace: a probe checks it for a tracer after the line
        self.leak_watch = {line: {name for _, name in found} for line, found in self.mutates.items()}


def _line_facts(code):
    outer_loads, rebinds, mutates = defaultdict(set), defaultdict(set), defaultdict(set)
    cell_lines = {}  # (line, closure variable it reads) -> the lines of the function that owns the cell
    owners = {}  # code object -> {closure variable: lines of the nearest enclosing code object that makes its cell}
    for unit in _code_objects(code):
        instructions = list(dis.get_instructions(unit))
        own = frozenset(line for line in _lines(instructions) if line is not None)
        made = dict(owners.get(unit, {}), **{name: own for name in unit.co_cellvars})
        for const in unit.co_consts:
            if isinstance(const, types.CodeType):
                owners[const] = made
        builds_self = unit.co_name in CONSTRUCTORS  # tree_unflatten's cls(*tracers) builds a new object
        outer_locals = {"self"} if unit.co_argcount and unit.co_varnames[:1] == ("self",) and not builds_self \
            else set()
        for index, (instruction, line) in enumerate(zip(instructions, _lines(instructions))):
            if line is None:
                continue
            op = instruction.opname
            if op == "LOAD_GLOBAL" or (op == "LOAD_DEREF" and instruction.argval in unit.co_freevars):
                outer_loads[line].add(("global" if op == "LOAD_GLOBAL" else "closure", instruction.argval))
                if op == "LOAD_DEREF":
                    cell_lines[(line, instruction.argval)] = owners.get(unit, {}).get(instruction.argval, frozenset())
            elif op == "STORE_GLOBAL" or (op == "STORE_DEREF" and instruction.argval in unit.co_freevars):
                rebinds[line].add(instruction.argval)
            elif op in ("STORE_ATTR", "STORE_SUBSCR", "DELETE_ATTR", "DELETE_SUBSCR") or (
                    op in ("LOAD_METHOD", "LOAD_ATTR") and instruction.argval in MUTATING_METHODS):
                receiver = _outer_receiver(instructions, index, unit, outer_locals)
                if receiver:
                    mutates[line].add(receiver)
            elif op == "LOAD_GLOBAL" and instruction.argval in ADVANCING_BUILTINS and _calls_with_one_load(
                    instructions, index):
                receiver = _outer_receiver(instructions, index + 2, unit, outer_locals)  # next(batches)
                if receiver:
                    mutates[line].add(receiver)
    return outer_loads, rebinds, mutates, cell_lines


def _calls_with_one_load(instructions, index):
    """Whether the function loaded at ``index`` is called at once with the one value the next
    instruction loads (``next(batches)``, not ``next(iter(xs))``)."""
    return index + 2 < len(instructions) and instructions[index + 2].opname in ("PRECALL", "CALL", "CALL_FUNCTION")


def _lines(instructions):
    """The source line of each instruction (positions on 3.11+, else the last line start)."""
    line = None
    for instruction in instructions:
        positions = getattr(instruction, "positions", None)
        if positions is not None:
            line = positions.lineno
        elif instruction.starts_line:
            line = instruction.starts_line
        yield line


def _outer_receiver(instructions, index, unit, outer_locals):
    """(kind, name) of the global, closure or self object an instruction mutates, else None."""
    for previous in reversed(instructions[:index]):
        op = previous.opname
        if op == "LOAD_GLOBAL":
            return "global", previous.argval
        if op in ("LOAD_DEREF", "LOAD_CLASSDEREF") and previous.argval in unit.co_freevars:
            return "closure", previous.argval
        if op == "LOAD_FAST":
            return ("self", previous.argval) if previous.argval in outer_locals else None
        if op not in RECEIVER_PASS:
            return None
    return None


def _code_objects(code):
    """``code`` and the code objects nested in it (as deep as its functions nest)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)
