"""Every fix is proven on its rule's catalogue example: the tool fixes the example, the
fixed code lints clean of the rule, runs under JAX where the example raised, and leaves
what the catalogue's ``instead`` leaves (what it prints, and every array it binds)."""
import ast
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT
from snippet_runs import run_snippets
from flake8_jaxnp.linter import lint
from flake8_jaxnp.options import Options
from flake8_jaxnp.rules import RULES

FIXABLE = sorted(code for code, rule in RULES.items() if rule.fix_safety)
NO_CACHE = Options(cache_dir="")


def fix_with_the_tool(source, *flags, cwd=ROOT):
    """(the fixed text, the exit status) of ``python -m flake8_jaxnp fix -`` on ``source``."""
    result = subprocess.run([sys.executable, "-m", "flake8_jaxnp", "fix", "--isolated", "--jaxnp-cache-dir", "",
                             *flags, "-"], input=source, capture_output=True, text=True, cwd=cwd, timeout=120)
    assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
    return result.stdout, result.returncode


def codes(source):
    return sorted({f.code for f in lint(ast.parse(source), source.splitlines(True), NO_CACHE)})


@pytest.fixture(scope="module")
def fixed():
    return {code: fix_with_the_tool(RULES[code].example, "--unsafe-fixes") for code in FIXABLE}


def test_some_rules_have_fixes_and_every_fixable_rule_has_an_example():
    assert {"JNP201", "JNP301", "JNP501", "JNP504"} <= set(FIXABLE)
    assert [code for code in FIXABLE if not (RULES[code].example and RULES[code].instead)] == []


@pytest.mark.parametrize("code", FIXABLE)
def test_the_fixed_example_changed_and_lints_clean(fixed, code):
    text, status = fixed[code]
    assert text != RULES[code].example
    assert codes(text) == []
    assert status == 0  # nothing left to fix


def test_fixed_examples_run_and_leave_what_instead_leaves(fixed, tmp_path):
    pytest.importorskip("jax")
    snippets = {f"{code}-fixed": fixed[code][0] for code in FIXABLE}
    snippets |= {f"{code}-{part}": getattr(RULES[code], part) for code in FIXABLE for part in ("example", "instead")}
    outcome = run_snippets(snippets, tmp_path)
    assert {code: outcome[f"{code}-fixed"]["raised"] for code in FIXABLE} == dict.fromkeys(FIXABLE, "")
    assert {code: outcome[f"{code}-example"]["raised"] for code in FIXABLE} == \
        {code: RULES[code].raises for code in FIXABLE}
    for part in ("printed", "arrays"):
        assert {code: outcome[f"{code}-fixed"][part] for code in FIXABLE} == \
            {code: outcome[f"{code}-instead"][part] for code in FIXABLE}
    # a trace-time print printed tracers once; after the fix the values print on every call
    before, after = outcome["JNP301-example"]["printed"], outcome["JNP301-fixed"]["printed"]
    assert len(before.splitlines()) == 1 and "Tracer" in before
    assert after.splitlines() == ["x = [1. 1.]"] * 2


# The shapes of print the JNP301 fix takes, in a jitted function of (x, v, i) with ``i`` static.
PRINT_SHAPES = [
    'print("x =", x)',
    'print("x", x, v, i, sep=": ", end="\\n")',
    'print(f"loss {x:.3f}, v={v!r} {x} {{set}}")',
    'print("braces {x}", x)',
    'print("}{", x, "{}")',
    'print("{}".format(x))',
    'print("v {0} {name!r:>30} {{0}}".format(v, name=x))',
    'print("value %s, %.2f, %-10.3e|%+08.2f|%5s 100%%" % (v, x, x, x, i))',
    'print("a", str(x), repr(v), 7, sep="")',
    'print(f"{str(x)} {f\'{v}\'!s}")',
    'jax.debug.print(f"x = {x}")',
    'jax.debug.print("v = %s" % (v,))',
]


def test_each_print_shape_prints_under_jit_what_it_printed_given_the_values(tmp_path):
    """The fixed print prints, on every call under jit, exactly what the print printed given
    the values (under jax.disable_jit): str() of a 0-d array is not its format(), and JAX prints
    a format string whose text has a brace before the first field as written."""
    pytest.importorskip("jax")
    original = "import functools\n\nimport jax\nimport jax.numpy as jnp\n" + "".join(
        f"\n\n@functools.partial(jax.jit, static_argnums=2)\ndef show_{n}(x, v, i):\n    {shape}\n"
        for n, shape in enumerate(PRINT_SHAPES))
    fixed, status = fix_with_the_tool(original)
    assert status == 0 and codes(fixed) == []
    values = "\nx, v = jnp.float32(1.23456), jnp.arange(3.0) / 3\n"
    snippets = {}
    for n in range(len(PRINT_SHAPES)):
        twice = f"show_{n}(x, v, 3)\nshow_{n}(x, v, 3)\n"
        snippets[f"{n} given values"] = original + values + "with jax.disable_jit():\n" + textwrap.indent(twice, "    ")
        snippets[f"{n} fixed"] = fixed + values + twice + "jax.effects_barrier()\n"
    outcome = run_snippets(snippets, tmp_path)
    printed = {label: result["printed"] or result["raised"] for label, result in outcome.items()}
    assert [printed[f"{n} fixed"] for n in range(len(PRINT_SHAPES))] == \
        [printed[f"{n} given values"] for n in range(len(PRINT_SHAPES))]
    assert all(len(text.splitlines()) == 2 and "Tracer" not in text for text in printed.values())
