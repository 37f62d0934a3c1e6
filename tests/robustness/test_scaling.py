"""Inputs an editor may hand the plugin: deep, long or new syntax. Each lints without
JNP900 and still finds the pitfall it holds (timings live in benchmarks/growth.py)."""
import ast
import sys

import pytest

from benchmarks import shapes
from flake8_jaxnp.checks import side_effects
from flake8_jaxnp.linter import lint


def _lint(source):
    return lint(ast.parse(source), source.splitlines(True))


@pytest.mark.parametrize("make, size, code", [
    (shapes.nested_loops, 20, "JNP102"),
    (shapes.elif_chain, 2000, "JNP103"),
    (shapes.conversions_in_one_loop, 2000, "JNP102"),
    (shapes.branchy_body, 5000, None),
], ids=["20 nested loops", "2000-branch elif", "2000 conversions in one loop", "branchy body"])
def test_stress_shapes_lint_without_internal_errors(make, size, code):
    codes = {finding.code for finding in _lint(make(size))}
    assert "JNP900" not in codes
    if code:
        assert code in codes


def test_3000_branch_elif_chain_where_python_parses_it():
    source = shapes.elif_chain(3000)
    try:
        tree = ast.parse(source)
    except RecursionError:
        pytest.skip(f"Python {sys.version.split()[0]} cannot parse a 3000-branch chain (flake8 reports E999)")
    codes = {finding.code for finding in lint(tree, source.splitlines(True))}
    assert "JNP900" not in codes and "JNP103" in codes


def test_conversions_in_one_loop_are_each_reported():
    findings = _lint(shapes.conversions_in_one_loop(300))
    assert sum(finding.code == "JNP102" for finding in findings) == 300


def test_a_branch_of_an_elif_chain_keeps_its_value():
    source = shapes.HEADER + "def f(x, k):\n    for _ in range(9):\n" + "".join(
        f"        {'if' if i == 0 else 'elif'} k == {i}:\n            y = np.ones(3)\n" for i in range(2000)
    ) + "        else:\n            y = np.zeros(3)\n        z = jnp.asarray(y)\n"
    assert "JNP900" not in {finding.code for finding in _lint(source)}


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 695 syntax needs Python 3.12")
def test_python_312_syntax_binds_names_and_keeps_findings():
    source = shapes.modern_syntax(3) + (
        "\n@jax.jit\ndef shadowed[np](x):\n    return np.sin(x)\n"
        "\nclass Holder[np]:\n    def method(self, x):\n        return jax.jit(lambda y: np.cos(y))(x)\n"
        "\n@jax.jit\ndef real(x):\n    return np.sin(x)\n"
    )
    findings = _lint(source)
    assert [(f.code, source.splitlines()[f.line - 1].strip()) for f in findings] == [
        ("JNP201", "return np.sin(x)")]
    assert source.splitlines()[findings[0].line - 2] == "def real(x):"


def test_match_captures_are_local_bindings():
    source = (
        "import jax\nimport numpy as np\n\n@jax.jit\ndef f(x, spec):\n    match spec:\n"
        "        case np:\n            return np.sin(x)\n        case [np, *rest]:\n            return np.cos(x)\n"
        "        case {**np}:\n            return np.tan(x)\n\n@jax.jit\ndef g(x):\n    return np.exp(x)\n"
    )
    assert [(f.line, f.code) for f in _lint(source)] == [(16, "JNP201")]


def test_full_width_identifiers_are_read_as_python_reads_them():
    source = "import ｊａｘ\nimport ｎｕｍｐｙ as np\n\n@ｊａｘ.jit\ndef f(x):\n    return np.sin(x)\n"
    assert [(f.line, f.code) for f in _lint(source)] == [(6, "JNP201")]


def test_a_print_of_a_name_bound_in_many_branches_costs_each_binding_once(monkeypatch):
    """Following a printed name through its bindings answers each binding once per depth: with
    twice the branches on each of seven levels, a walk of every path would cost 2**7 times more."""
    follow = side_effects._is_static
    counted = []

    def counting(*args):
        counted.append(1)
        return follow(*args)

    monkeypatch.setattr(side_effects, "_is_static", counting)
    calls = {}
    for branches in (4, 8):
        counted.clear()
        codes = {finding.code for finding in _lint(shapes.static_print_through_branches(branches))}
        assert "JNP301" not in codes and "JNP900" not in codes
        calls[branches] = len(counted)
    assert calls[8] < 8 * calls[4], calls


def test_a_trace_forty_modules_long_reaches_its_last_module(tmp_path, monkeypatch):
    """The project's reach has no bound on hops: every module of the chain prints a tracer.
    Each module's question about the next one's function follows the chain to its end
    once per run, not once per module that asks (40 x 39 / 2 searches before)."""
    from flake8_jaxnp.model.project import cache, modules as project_modules
    from flake8_jaxnp.options import Options
    package = tmp_path / "generated"
    package.mkdir()
    modules = shapes.module_chain(40)
    for name, source in modules.items():
        (package / name).write_text(source)
    searches, search = [], project_modules.Project._converts_through
    monkeypatch.setattr(project_modules.Project, "_converts_through",
                        lambda *args: searches.append(args[1:3]) or search(*args))
    monkeypatch.setattr(cache, "MEMORY", cache.Memory())
    monkeypatch.setattr(project_modules, "MEMORY", cache.MEMORY)
    reported = set()
    for name, source in modules.items():
        found = lint(ast.parse(source), source.splitlines(True), Options(cache_dir=""), str(package / name))
        reported.update(name for finding in found if finding.code == "JNP301")
    assert reported == set(modules) - {"__init__.py", "m0.py"}
    assert len(searches) <= 2 * len(modules)


def test_roots_applied_at_call_sites_in_forty_modules_are_each_summarised_once(tmp_path, monkeypatch):
    """Every module applies jax.jit to what the next one's factory returns and to a method:
    each module's inner def is traced from the module before it (its print reported), and
    each module is summarised once per run, whichever file asks."""
    from flake8_jaxnp.model.project import cache, modules as project_modules, summaries
    from flake8_jaxnp.options import Options
    package = tmp_path / "generated"
    package.mkdir()
    modules = shapes.roots_chain(40)
    for name, source in modules.items():
        (package / name).write_text(source)
    summarised, summarise = [], summaries.summarise  # (``Project.summary`` imports it where it summarises)
    monkeypatch.setattr(summaries, "summarise", lambda data, *args: summarised.append(data) or
                        summarise(data, *args))
    monkeypatch.setattr(cache, "MEMORY", cache.Memory())
    monkeypatch.setattr(project_modules, "MEMORY", cache.MEMORY)
    reported = set()
    for name, source in modules.items():
        found = lint(ast.parse(source), source.splitlines(True), Options(cache_dir=""), str(package / name))
        reported.update(name for finding in found if finding.code == "JNP301")
    assert reported == set(modules) - {"__init__.py", "m0.py"}
    assert len(summarised) <= len(modules)
