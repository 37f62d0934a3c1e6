"""Transforms applied anywhere are roots of the project's reach: at a call site, to a method
or a nested def, to an imported function, through partial; static arguments stay static,
test modules are no roots, and the findings agree across orders, jobs, files and stdin and
follow every change under a warm cache."""
import ast
import os
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


def test_an_edit_that_keeps_the_size_and_puts_back_the_modification_time_is_seen(tmp_path):
    """The reach keeps what each module says of its roots by file identity: a write moves the
    change time even where a tool restores the modification time."""
    package = tmp_path / "rootpkg"
    shutil.copytree(ROOTS, package, ignore=shutil.ignore_patterns("__pycache__"))
    train = package / "train.py"
    assert 8 in [line for line, _ in codes_at(lint(tmp_path, "rootpkg/ops.py"))]
    before = train.stat()
    text = train.read_text()
    train.write_text(text.replace("step = jax.jit(loss)", "step = loss  # nojit"))  # same size
    os.utime(train, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert train.stat().st_size == before.st_size and train.stat().st_mtime_ns == before.st_mtime_ns
    assert 8 not in [line for line, _ in codes_at(lint(tmp_path, "rootpkg/ops.py"))]


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
    transforms = transform_tables(())[0]
    tree = ast.parse(source)
    roots, applied, units = applications(tree, module_imports(tree), transforms)
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
    assert applied == [[None, ["<passed>", "loss", "shadowed"], False, "jax.jit", 0, [], [], [], 29],  # its callers'
                       [["ops", 1, "loss"], [], False, "jax.jit", 0, [], [], ["cfg"], 31],
                       [["", 1, "ops"], ["loss"], False, "jax.jit", 0, [], [], [], 32]]


def test_what_a_factory_returns_is_the_root():
    roots, applied = roots_of(
        "import jax\nfrom .far import make\n\n"
        "def make_train(cfg):\n    def train(p, x):\n        return p\n    return train\n\n"
        "def make_either(flag):\n    def a(x):\n        return x\n    def b(x):\n        return x\n"
        "    return a if flag else b\n\n"
        "def make_twice():\n    def c(x):\n        return x\n    c = jax.vmap(c)\n    return c\n\n"
        "train = jax.jit(make_train(1))\nother = jax.jit(make_either(True))\ntwice = jax.jit(make_twice())\n"
        "far = jax.jit(make(2), static_argnums=0)\n")
    assert roots == [["make_train.train", "jax.jit", ["p", "x"], 22]]  # either, twice: not one def
    assert applied == [[["far", 1, "make"], [], True, "jax.jit", 0, [], [0], [], 25]]


FACTORIES = """import functools
import jax


@functools.cache
def cached(n):
    return jax.jit(lambda x: x * n)


def bound_once():
    fast = jax.jit(step)
    return fast


def maybe(flag):
    if flag:
        return jax.jit(step)
    return step


def traced_graph():
    return jax.make_jaxpr(step)


@jax.jit
def step(x):
    return x
"""


def test_which_functions_build_a_jitted_step_for_other_modules():
    from flake8_jaxnp.model.project.summaries import summarise
    transforms, _, scalars_static, _ = transform_tables(())
    functions = summarise(FACTORIES.encode(), transforms, scalars_static)["functions"]
    assert {name for name, facts in functions.items() if facts.get("builds_jitted")} == {"cached", "bound_once"}


@pytest.mark.parametrize("use, expected", [
    ("step = make()\n    for _ in range(STEPS):\n        x = step(x)\n        print(float(x.sum()))", [(11, "JNP102")]),
    # make() jits a new lambda on each call: the loop compiles again on every iteration (JNP602)
    ("for _ in range(STEPS):\n        x = make()(x)\n        print(float(x.sum()))", [(9, "JNP602"), (10, "JNP102")]),
    ("step = plain()\n    for _ in range(STEPS):\n        x = step(x)\n        print(float(x.sum()))", []),
])
def test_a_jitted_step_built_in_another_module_gives_device_arrays(tmp_path, use, expected):
    write_package(tmp_path, far="import jax\n\n\ndef make():\n    return jax.jit(lambda x: x + 1)\n\n\n"
                                "def plain():\n    return lambda x: x + 1\n",
                  near=f"import jax.numpy as jnp\nfrom .far import make, plain\n\nSTEPS = 10\n\n\ndef run(x):\n"
                       f"    {use}\n")
    assert codes_at(lint(tmp_path, "pkg/near.py")) == expected


def test_a_reexport_through_packages_keeps_the_reach_going_and_follows_its_changes(tmp_path):
    """pkg/__init__.py re-exports leaf from pkg/sub/__init__.py, which re-exports it from
    pkg/sub/leaf.py; an import cycle between the two __init__ files ends, silent."""
    package = write_package(tmp_path, step="import jax\n\nfrom pkg import leaf, loop\n\n\n@jax.jit\n"
                                           "def step(x):\n    return leaf(x) + loop(x)\n")
    (package / "__init__.py").write_text("from .sub import leaf, loop\n")
    (package / "sub").mkdir()
    (package / "sub" / "__init__.py").write_text("from .leaf import leaf\nfrom pkg import loop\n")
    (package / "sub" / "leaf.py").write_text("import jax.numpy as jnp\n\n\ndef leaf(x):\n    print(x)\n"
                                             "    return x\n")
    found = lint(tmp_path, "pkg/sub/leaf.py", "pkg/step.py")
    assert codes_at(found) == [(5, "JNP301")]
    assert "(called from 'step' in pkg/step.py:8)" in found[0]
    (package / "sub" / "__init__.py").write_text("from pkg import loop\n\n\ndef leaf(x):\n    return x\n")
    assert lint(tmp_path, "pkg/sub/leaf.py", "pkg/step.py") == []


LAYERS = """import flax.linen as nn
from flax import nnx


class Plain:
    def __init__(self, limit):
        if limit > 0:
            self.limit = limit

    def __call__(self, x):
        print(x)
        return x


class Linen(nn.Module):
    def __call__(self, x):
        print(x)
        return x


class Counting(nnx.Module):
    def __init__(self, x):
        self.seen = []

    def __call__(self, x):
        self.calls = x
        if x.sum() > 0:
            return x
        return -x


class Inherits(Plain):
    pass
"""


@pytest.mark.parametrize("body, expected", [
    ("return Plain(x)", [(7, "JNP202")]),  # __init__ runs with the tracer
    ("return Plain(2)", []),  # a Python int: nothing traced
    ("m = Plain(2)\n    return m(x)", [(11, "JNP301")]),  # __call__ of a name bound once to Plain(...)
    ("m = Plain(2)\n    m = other\n    return m(x)", []),  # bound twice: not known
    ("m = Linen()\n    return m(x)", []),  # a linen Module runs through apply: not followed here
    ("m = Counting(x)\n    return m(x)", [(27, "JNP202")]),  # NNX: assigning self.calls is its state
    ("return Inherits(x)", [(7, "JNP202")]),  # Plain's __init__, inherited, runs with the tracer
])
def test_a_class_of_another_module_runs_its_init_and_call_under_the_trace(tmp_path, body, expected):
    write_package(tmp_path, layers=LAYERS,
                  model=f"import jax\n\nfrom .layers import Counting, Inherits, Linen, Plain\n\nother = None\n\n\n"
                        f"@jax.jit\ndef step(x):\n    {body}\n")
    contract = {(17, "JNP301"), (27, "JNP202")}  # Linen's and Counting's __call__: traced by their framework
    assert codes_at(lint(tmp_path, "pkg/layers.py")) == sorted(set(expected) | contract)


@pytest.mark.parametrize("package, count", [("rootpkg", 4), ("factorypkg", 4), ("objectpkg", 3), ("exportpkg", 2),
                                            ("wrappkg", 4), ("applypkg", 2), ("modulepkg", 3),
                                            ("frameworks/linenpkg", 19), ("frameworks/conventionpkg", 5)])
def test_the_packages_agree_across_orders_jobs_files_and_stdin(package, count):
    paths = sorted((FIXTURES / package).rglob("*.py"))
    serial, parallel = serial_and_parallel(FIXTURES, paths)
    assert len(serial) == count and parallel == serial
    for order in (paths, reversed(paths)):
        one_by_one = sorted(line for path in order for line in flake8([str(path.relative_to(FIXTURES))], FIXTURES))
        assert one_by_one == serial
    assert stdin_mismatches(FIXTURES, paths, serial) == []


MODULES = """import flax.linen as nn


class MLP(nn.Module):
    def __call__(self, x):
        print(x)
        if x.sum() > 0:
            return x
        return -x


class Plain:
    def __call__(self, x):
        if x.sum() > 0:
            return x
        return -x
"""


@pytest.mark.parametrize("applying, expected", [
    ("model = MLP()\nforward = jax.jit(model.apply)", [(6, "JNP301"), (7, "JNP202")]),
    ("model = MLP()\nforward = jax.jit(model.apply, static_argnums=1)", [(6, "JNP301"), (7, "JNP202")]),
    # whatever is applied, linen's contract traces MLP.__call__
    ("model = Plain()\nforward = jax.jit(model.apply)", [(6, "JNP301"), (7, "JNP202")]),
    ("model = MLP()\nmodel = None\nforward = jax.jit(model.apply)", [(6, "JNP301"), (7, "JNP202")]),
])
def test_a_linen_module_of_another_module_is_traced_under_jit_of_its_apply(tmp_path, applying, expected):
    """Framework-shaped input: linted without Flax installed."""
    write_package(tmp_path, modules=MODULES, train=f"import jax\n\nfrom .modules import MLP, Plain\n\n{applying}\n")
    assert codes_at(lint(tmp_path, "pkg/modules.py")) == expected


@pytest.mark.parametrize("applying, expected", [
    ("fn = make(2)\nstep = jax.jit(fn)", [(6, "JNP301")]),  # what make returns, through a name
    ("fn = partial(leaf, n=2)\nstep = jax.jit(fn)", [(12, "JNP301")]),
    ("fn = make(2)\nfn = other\nstep = jax.jit(fn)", []),  # bound twice: not known
])
def test_a_name_bound_once_to_a_factory_call_or_a_partial_is_followed(tmp_path, applying, expected):
    write_package(tmp_path, far="import jax.numpy as jnp\n\n\ndef make(n):\n    def inner(x):\n        print(x)\n"
                                "        return x * n\n    return inner\n\n\ndef leaf(x, n):\n    print(x)\n"
                                "    return [x] * int(n)\n",
                  near=f"from functools import partial\n\nimport jax\n\nfrom .far import leaf, make\n\nother = None\n"
                       f"{applying}\n")
    assert codes_at(lint(tmp_path, "pkg/far.py")) == expected


def test_the_roots_part_of_a_module_equals_what_its_whole_summary_says():
    """root_summary parses only the statements on lines naming a transform and the top-level
    names they use (to any depth): what it says equals the whole summary, for every fixture;
    where the cut cannot be made (an import after the first def) it says nothing."""
    from flake8_jaxnp.model.project.summaries import root_summary, summarise
    transforms, _, scalars_static, _ = transform_tables(())
    compared = 0
    for path in sorted(FIXTURES.rglob("*.py")):
        source = path.read_bytes()
        part, whole = root_summary(source, transforms, scalars_static), summarise(source, transforms, scalars_static)
        if part is not None:
            compared += 1
            assert (part["roots"], part["applied"]) == (whole["roots"], whole["applied"]), path
            assert {unit: calls for unit, calls in part["flows"].items() if calls} == \
                {unit: whole["flows"][unit] for unit in part["flows"] if unit in whole["flows"]}, path
    assert compared > 30
    late = b"import jax\n\n\ndef f(x):\n    return x\n\n\nimport numpy\nstep = jax.jit(f)\n"
    assert root_summary(late, transforms, scalars_static) is None


APPLY_FN_MODULE = ("import jax\n\nfrom .nets import forward\n\n\ndef _step(state, x):\n    return {reads}\n\n\n"
                   "step = jax.jit(_step)\nstate = make_state({gives})\n")


@pytest.mark.parametrize("gives, reads, whole", [
    ("apply_fn=forward", "state.apply_fn(state.params, x)", True),  # both: what apply_fn runs changes a flow
    ("apply_fn = forward", "state.apply_fn \\\n        (state.params, x)", True),  # spaces, a continuation
    ("apply_fn=forward", "state.params", False),  # given, never read
    ("forward", "state.apply_fn(state.params, x)", False),  # read, never given here
    ("fn=forward  # apply_fn=", "state.apply_fn(state.params, x)", True),  # a comment may hide either: kept whole
])
def test_a_module_is_summarised_whole_for_apply_fn_only_when_it_both_gives_and_reads_it(gives, reads, whole):
    """Only a module that gives ``apply_fn=`` and reads ``.apply_fn`` needs its whole summary to say
    what ``state.apply_fn`` runs; elsewhere the roots' cut is made, and says what the whole does."""
    from flake8_jaxnp.model.project.summaries import root_summary, summarise
    transforms, _, scalars_static, _ = transform_tables(())
    source = APPLY_FN_MODULE.format(gives=gives, reads=reads).encode()
    part, full = root_summary(source, transforms, scalars_static), summarise(source, transforms, scalars_static)
    assert (part is None) is whole
    if part is not None:
        assert (part["roots"], part["applied"], part["flows"].get("_step") or []) == \
            (full["roots"], full["applied"], full["flows"].get("_step") or [])


APPLY_MODULE = "import jax\n\nfrom .nets import MLP\n\n{binding}\n\n\n@jax.jit\ndef step({params}):\n{body}"


@pytest.mark.parametrize("binding, params, body, whole", [
    ("model = MLP()", "v, x", "    return model.apply(v, x)\n", True),  # the module's name: which class it holds
    ("", "model, v, x", "    return model.apply(v, x)\n", False),  # the function's own parameter
    ("", "v, x", "    model = MLP()\n    return model.apply(v, x)\n", False),  # bound in the function
    ("model = MLP()", "v, x", "    def inner(y):\n        return model.apply(v, y)\n    return inner(x)\n", True),
])
def test_a_module_is_summarised_whole_for_apply_only_when_a_root_applies_a_name_it_does_not_bind(
        binding, params, body, whole):
    """``model.apply(variables, x)`` runs what the module binds ``model`` to, which only the
    whole module says; where the root binds the name itself, the roots' cut says what the whole does."""
    from flake8_jaxnp.model.project.summaries import root_summary, summarise
    transforms, _, scalars_static, _ = transform_tables(())
    source = APPLY_MODULE.format(binding=binding, params=params, body=body).encode()
    part, full = root_summary(source, transforms, scalars_static), summarise(source, transforms, scalars_static)
    assert (part is None) is whole
    if part is not None:
        assert (part["roots"], part["applied"], part["flows"].get("step") or []) == \
            (full["roots"], full["applied"], full["flows"].get("step") or [])


METHODS = """import flax.linen as nn


class Plain:
    def show(self, x):
        print(x)
        return x

    @staticmethod
    def static(x):
        print(x)
        return x


class Linen(nn.Module):
    def show(self, x):
        print(x)
        return x
"""


@pytest.mark.parametrize("body, expected", [
    ("m = Plain()\nfast = jax.jit(m.show)\n", [(6, "JNP301")]),  # self bound to the object
    ("def run(x):\n    m = Plain()\n    return jax.jit(m.show)(x)\n", [(6, "JNP301")]),
    ("fast = jax.jit(Plain().show)\n", []),  # no name holds the object: not read
    ("m = Plain()\nfast = jax.jit(m.static)\n", []),  # decorated: not followed
    ("m = Linen()\nfast = jax.jit(m.show)\n", []),  # a linen Module's methods run through apply
    ("m = Plain()\nm = None\nfast = jax.jit(m.show)\n", []),  # bound twice: not known
])
def test_a_method_of_an_object_of_another_module_given_to_a_transform(tmp_path, body, expected):
    write_package(tmp_path, layers=METHODS, model=f"import jax\n\nfrom .layers import Linen, Plain\n\n{body}")
    assert codes_at(lint(tmp_path, "pkg/layers.py")) == expected
