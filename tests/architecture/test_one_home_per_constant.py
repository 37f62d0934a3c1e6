"""No constant collection is defined twice: each fact about JAX, NumPy or Python has one home."""
import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "flake8_jaxnp"
COLLECTIONS = (ast.Set, ast.Dict, ast.Tuple, ast.List)


def _literal(node):
    """A hashable form of a literal collection of constants (frozenset(...) included), or None."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("frozenset", "set", "tuple") \
            and len(node.args) == 1:
        node = node.args[0]
    if not isinstance(node, COLLECTIONS):
        return None
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return None
    if isinstance(value, dict):
        return frozenset((k, repr(v)) for k, v in value.items())
    return frozenset(repr(item) for item in value)


def module_constants():
    """[(module, name, literal)] for every module-level constant collection in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = str(path.relative_to(PACKAGE))
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                literal = _literal(node.value)
                for target in targets:
                    if isinstance(target, ast.Name) and target.id.isupper() and literal is not None:
                        found.append((module, target.id, literal))
    return found


def test_no_constant_name_is_defined_in_two_modules():
    homes = defaultdict(set)
    for module, name, _ in module_constants():
        homes[name].add(module)
    assert {name: sorted(modules) for name, modules in homes.items() if len(modules) > 1} == {}


def test_no_constant_collection_is_repeated_under_another_name():
    homes = defaultdict(set)
    for module, name, literal in module_constants():
        if len(literal) > 1:
            homes[literal].add(f"{module}:{name}")
    assert [sorted(places) for places in homes.values() if len(places) > 1] == []


def test_the_scan_sees_the_package_constants():
    names = {name for _, name, _ in module_constants()}
    assert {"MUTATING_METHODS", "CLOCKS", "STDLIB_RANDOM"} <= names
