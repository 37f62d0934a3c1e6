"""Transforms applied anywhere are roots of the project's reach: at a call site, to a method
or a nested def, to an imported function, through partial; static arguments stay static,
test modules are no roots, and the findings agree across orders, jobs, files and stdin and
follow every change under a warm cache."""
import ast
import shutil

import pytest

from conftest import FIXTURES
from flake8_runs import flake8, serial_and_parallel, stdin_mismatches
from test_project import codes_at, lint

from flake8_jaxnp.model.project.units import applications
from flake8_jaxnp.model.syntax import module_imports
from flake8_jaxnp.model.traced import transform_tables

ROOTS = FIXTURES / "rootpkg"


def test_roots_applied_at_call_sites_reach_helpers_in_other_modules_and_are_named():
    found = flake8(["rootpkg/ops.py"], FIXTURES)
    assert codes_at(found) == [(8, "JNP301"), (13, "JNP202"), (19, "JNP201"), (23, "JNP202")]
    printed, clipped, host, first = sorted(found, key=lambda line: int(line.split(":")[1]))
    assert "jax.jit (applied in rootpkg/train.py:9)" in printed  # step = jax.jit(loss), loss imported
    assert "(called from 'solve' in rootpkg/solver.py:12)" in clipped  # jax.jit(solve)(a, b)
    assert "(called from 'forward' in rootpkg/model.py:9, traced from 'Trainer._step' in rootpkg/train.py:14)" \
        in host  # self.step = jax.jit(self._step), three modules from the leaf
    assert "(called from 'make_runner.run' in rootpkg/train.py:22)" in first  # a nested def


def test_the_roots_agree_across_orders_jobs_files_and_stdin():
    paths = sorted(ROOTS.glob("*.py"))
    serial, parallel = serial_and_parallel(FIXTURES, paths)
    assert any("rootpkg/ops.py" in line for line in serial)
    assert parallel == serial
    for order in (paths, reversed(paths)):
        one_by_one = sorted(line for path in order for line in flake8([str(path.relative_to(FIXTURES))], FIXTURES))
        assert one_by_one == serial
    assert stdin_mismatches(FIXTURES, paths, serial) == []


@pytest.mark.parametrize("module, old, new, gone", [
    ("train.py", "step = jax.jit(loss)", "step = loss", 8),  # the root: no longer jitted
    ("train.py", "jax.jit(self._step)", "self._step", 19),
    ("model.py", "ops.to_host(y)", "ops.to_host(1.0)", 19),  # the middle stops passing tracers on
    ("solver.py", "jax.jit(solve)(a, b)", "solve(a, b)", 13),
    ("ops.py", "if v.sum() > 0:", "if v.shape[0] > 0:", 13),  # the far end
])
def test_a_change_at_the_root_middle_or_far_module_is_seen_with_a_warm_cache(tmp_path, module, old, new, gone):
    package = tmp_path / "rootpkg"
    shutil.copytree(ROOTS, package, ignore=shutil.ignore_patterns("__pycache__"))
    assert gone in [line for line, _ in codes_at(lint(tmp_path, "rootpkg/ops.py"))]
    assert gone in [line for line, _ in codes_at(lint(tmp_path, "rootpkg/ops.py"))]  # reused, still there
    text = (package / module).read_text()
    assert old in text
    (package / module).write_text(text.replace(old, new))
    assert gone not in [line for line, _ in codes_at(lint(tmp_path, "rootpkg/ops.py"))]
    (package / module).write_text(text)
    assert gone in [line for line, _ in codes_at(lint(tmp_path, "rootpkg/ops.py"))]


def write_package(root, **modules):
    package = root / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, text in modules.items():
        (package / f"{name}.py").write_text(text)
    return package


LEAF = "import jax.numpy as jnp\n\n\ndef leaf(x, n):\n    print(x)\n    return [x] * int(n)\n"


@pytest.mark.parametrize("applying, expected", [
    ("step = jax.jit(partial(leaf, n=3))", [(5, "JNP301")]),  # n bound: static, int(n) fine
    ("step = jax.jit(leaf, static_argnums=1)", [(5, "JNP301")]),
    ("step = jax.jit(leaf, static_argnames='n')", [(5, "JNP301")]),
    ("step = jax.jit(leaf)", [(5, "JNP301"), (6, "JNP202")]),
    ("step = jax.jit(leaf, static_argnums=SOME)", []),  # static options it cannot read: silent
    ("def use(f):\n    return jax.jit(f)", []),  # a parameter: not known
    ("leaf = print\nstep = jax.jit(leaf)", []),  # rebound: not known
])
def test_an_imported_function_jitted_elsewhere_is_traced_with_its_static_arguments_left_static(
        tmp_path, applying, expected):
    write_package(tmp_path, far=LEAF,
                  near=f"from functools import partial\n\nimport jax\n\nfrom .far import leaf\n\n{applying}\n")
    assert codes_at(lint(tmp_path, "pkg/far.py")) == expected


@pytest.mark.parametrize("tests_name", ["test_near.py", "near_test.py", "conftest.py"])
def test_a_test_module_is_no_root(tmp_path, tests_name):
    package = write_package(tmp_path, far=LEAF)
    (package / tests_name).write_text("import jax\n\nfrom .far import leaf\n\n\ndef test_leaf():\n"
                                      "    jax.jit(leaf)(1.0, 2)\n")
    assert lint(tmp_path, "pkg/far.py") == []
    (package / "near.py").write_text((package / tests_name).read_text().replace("def test_leaf", "def run"))
    assert codes_at(lint(tmp_path, "pkg/far.py")) == [(5, "JNP301"), (6, "JNP202")]


def roots_of(source):
    transforms, _, scalars_static, _ = transform_tables(())
    tree = ast.parse(source)
    roots_by = {n for n, b in transforms.items() if b.abstract and n not in scalars_static}
    roots, applied, units = applications(tree, module_imports(tree), transforms, roots_by)
    return roots, applied


def test_the_units_a_module_applies_a_transform_to():
    roots, applied = roots_of(
        "import jax\nfrom functools import partial\nfrom .ops import loss\nfrom . import ops\n\n"
        "@jax.jit\ndef top(x, n=2):\n    return x\n\n"
        "class Trainer:\n    def __init__(self):\n        self.step = jax.jit(self._step, static_argnums=1)\n"
        "        self.plain = jax.jit(self._static)\n\n"
        "    def _step(self, p, k):\n        return p\n\n    @staticmethod\n    def _static(p):\n        return p\n\n"
        "def outer():\n    def inner(a, b):\n        return a\n    fast = jax.vmap(partial(inner, b=1))\n"
        "    return jax.jit(jax.vmap(inner)), fast\n\n"
        "def shadowed(loss):\n    return jax.jit(loss)\n\n"
        "run = jax.jit(loss, static_argnames=('cfg',))\nother = jax.jit(ops.loss)\n")
    assert roots == [["Trainer._step", "jax.jit", ["p"], 12],  # self bound, k static; _static: not followed
                     ["outer.inner", "jax.jit", ["a", "b"], 26],  # through the vmap it is given
                     ["outer.inner", "jax.vmap", ["a", "b"], 25],  # a and b (line 26), a (partial, line 25)
                     ["top", "jax.jit", ["x"], 7]]  # a defaulted parameter is no tracer; shadowed: a parameter
    assert applied == [[["ops", 1, "loss"], [], "jax.jit", 0, [], [], ["cfg"], 31],
                       [["", 1, "ops"], ["loss"], "jax.jit", 0, [], [], [], 32]]
