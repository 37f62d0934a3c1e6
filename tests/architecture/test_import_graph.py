"""The package's imports flow one way: no import circle, and the generator (``datagen``)
is build-time code that nothing run by a user loads or hashes."""
import ast
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

PACKAGE = ROOT / "flake8_jaxnp"
GENERATOR = "flake8_jaxnp.datagen"
# What a user runs: lint itself, flake8's entry point, the runtime mode's command and the
# process it starts per case, the pytest plugin, the fix command and the pylsp plugin.
ENTRY_POINTS = ("flake8_jaxnp.linter", "flake8_jaxnp.plugin", "flake8_jaxnp.confirm.cli",
                "flake8_jaxnp.confirm.worker", "flake8_jaxnp.confirm.pytest_plugin", "flake8_jaxnp.autofix.cli",
                "flake8_jaxnp.lsp")
FIXER = "flake8_jaxnp.autofix"


def module_name(path, package=PACKAGE):
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(name, path, modules):
    """The package's modules that ``path`` imports anywhere (in functions too), resolving
    relative imports; ``from package import module`` names the module, not the package."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = node.module
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                yield submodule if submodule in modules else source


def import_graph(package=PACKAGE):
    """{module: the package's modules it imports}."""
    paths = {module_name(path, package): path for path in package.rglob("*.py")}
    return {name: {target for target in imported(name, path, paths) if target in paths and target != name}
            for name, path in paths.items()}


def cycles(graph):
    """One import circle (as a closed list of modules) per back edge of a depth-first walk."""
    found, state = [], {}

    def walk(node, path):
        state[node] = "open"
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                found.append(path[path.index(target):] + [target])
            elif target not in state:
                walk(target, path)
        path.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            walk(node, [])
    return found


def test_the_package_has_no_import_circle():
    assert cycles(import_graph()) == []


def test_the_circle_finder_sees_a_circle_through_a_function_level_import(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("from .c import thing\n")
    (package / "c.py").write_text("def later():\n    from .a import name\n")
    assert cycles(import_graph(package)) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]


def test_the_graph_resolves_relative_and_submodule_imports():
    graph = import_graph()
    assert "flake8_jaxnp.facts" in graph["flake8_jaxnp.confirm.observe"]  # from ..facts import
    assert {f"{GENERATOR}.frameworks", f"{GENERATOR}.tables", "flake8_jaxnp.api"} <= graph[f"{GENERATOR}.generate"]


def test_no_runtime_module_imports_the_generator():
    """Function-level imports included: a lazy import would load it at run time."""
    graph = import_graph()
    assert {name: sorted(t for t in targets if t.startswith(GENERATOR)) for name, targets in graph.items()
            if not name.startswith(GENERATOR) and any(t.startswith(GENERATOR) for t in targets)} == {}


def reachable(graph, start):
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    return seen


def test_lint_mode_never_reaches_the_fixer():
    """The fixer (and libcst, which only it imports) sits above the checks: flake8's entry point
    must not load it, so flake8 starts as fast as before."""
    graph = import_graph()
    assert sorted(name for name in reachable(graph, "flake8_jaxnp.plugin") if name.startswith(FIXER)) == []


def test_the_fixer_is_an_entry_point_above_the_checks_and_below_the_runtime_mode():
    graph = import_graph()
    fixer = {name for name in graph if name.startswith(FIXER)}
    below = set().union(*(graph[name] for name in fixer)) - fixer
    assert "flake8_jaxnp.checks.api_usage" in below and "flake8_jaxnp.linter" in below
    assert sorted(name for name in below if name.startswith(("flake8_jaxnp.confirm", GENERATOR))) == []
    importers = sorted(name for name in graph if name not in fixer and graph[name] & fixer)
    # the fix command, the runtime mode's --measure-cost (it times the fixed case) and the pylsp plugin
    assert importers == ["flake8_jaxnp.__main__", "flake8_jaxnp.confirm.cost", "flake8_jaxnp.lsp"]


@pytest.mark.parametrize("entry_point", ENTRY_POINTS)
def test_entry_points_load_no_generator_module(entry_point):
    probe = (f"import sys, {entry_point}\n"
             f"print(sorted(m for m in sys.modules if m.startswith({GENERATOR!r})))\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_findings_cache_key_hashes_the_runtime_not_the_generator(tmp_path):
    """A copy of the package: editing the generator keeps the key, editing a check changes it."""
    copy = tmp_path / "flake8_jaxnp"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    probe = ("from flake8_jaxnp import reuse\nfrom flake8_jaxnp.model.project import cache\n"
             "print(reuse.__file__)\nprint(cache.plugin_digest())\n")

    def digest():
        result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
        where, key = result.stdout.split()
        assert where == str(copy / "reuse.py"), result.stderr
        return key

    before = digest()
    with open(copy / "datagen" / "generate.py", "a", encoding="utf-8") as generator:
        generator.write("# an edit\n")
    assert digest() == before
    with open(copy / "checks" / "dtypes.py", "a", encoding="utf-8") as check:
        check.write("# an edit\n")
    assert digest() != before


def test_a_module_that_names_no_jax_is_linted_without_the_checks_or_the_model():
    """The checks and the model's facade are imported when a file first needs them: an editor's
    save of a module that names no JAX (and defines no function that traces could reach) pays
    only for the rest of the plugin's start-up."""
    probe = ("import ast, sys\nfrom flake8_jaxnp import linter\nfrom flake8_jaxnp.options import Options\n"
             "text = 'import os\\nprint(os.sep)\\n'\n"
             "assert linter.lint(ast.parse(text), text.splitlines(True), Options(cache_dir='')) == []\n"
             "print(sorted(m for m in sys.modules\n"
             "             if m.startswith(('flake8_jaxnp.checks', 'flake8_jaxnp.model.facade'))))\n"
             "text = 'import jax\\njax.numpy.zeros(3).at\\n'\n"
             "linter.lint(ast.parse(text), text.splitlines(True), Options(cache_dir=''))\n"
             "print('flake8_jaxnp.model.facade' in sys.modules, len(linter.CHECKS) > 10)\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["[]", "True True"]
