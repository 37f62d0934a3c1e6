"""Tracing reaches across any number of calls and modules of a project (the reach solved
over the modules' summaries), names the chain's root, keeps static arguments static,
and gives the same findings whatever the order, --jobs, file-by-file or stdin linting,
and never a stale answer when a module along the chain changes."""
import ast
import os
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES
from flake8_jaxnp import linter
from flake8_jaxnp.model.project import Project, project_around
from flake8_jaxnp.model.project.cache import MEMORY
from flake8_jaxnp.model.project.package import PROJECT_FILES, project_folder, real_path
from flake8_jaxnp.options import Options
from flake8_runs import flake8, serial_and_parallel, stdin_mismatches
from test_project import codes_at, lint

CHAIN = FIXTURES / "chainpkg"


def copy_chain(root):
    shutil.copytree(CHAIN, root / "chainpkg", ignore=shutil.ignore_patterns("__pycache__"))
    return root / "chainpkg"


def test_a_trace_reaches_a_helper_three_modules_down_and_names_its_root():
    found = flake8(["chainpkg/util.py"], FIXTURES)
    assert codes_at(found) == [(7, "JNP301"), (12, "JNP201"), (24, "JNP202")]
    [printed] = [line for line in found if " JNP301 " in line]
    assert "jax.jit (called from 'forward' in chainpkg/model.py:11, traced from 'step' in chainpkg/step.py:13)" \
        in printed


@pytest.mark.parametrize("package, reached", [("chainpkg", "util.py"), ("crosspkg", "helpers.py")])
def test_the_chain_agrees_across_orders_jobs_files_and_stdin(package, reached):
    paths = sorted((FIXTURES / package).glob("*.py"))
    serial, parallel = serial_and_parallel(FIXTURES, paths)
    assert any(f"{package}/{reached}" in line for line in serial)
    assert parallel == serial
    backwards = flake8(["--jobs", "1", *[str(p.relative_to(FIXTURES)) for p in reversed(paths)]], FIXTURES)
    assert backwards == serial
    for order in (paths, reversed(paths)):
        one_by_one = sorted(line for path in order for line in flake8([str(path.relative_to(FIXTURES))], FIXTURES))
        assert one_by_one == serial
    assert stdin_mismatches(FIXTURES, paths, serial) == []


@pytest.mark.parametrize("module, old, new", [
    ("step.py", "@jax.jit\ndef step(", "def step("),  # the root is no longer jitted
    ("step.py", "@jax.jit\ndef step(", "@partial(jax.jit, static_argnums=(0, 1))\ndef step("),  # static
    ("model.py", "    log_stats(y)\n", "    log_stats(2.0)\n"),  # the middle stops passing tracers on
])
def test_a_change_anywhere_along_the_chain_is_seen_with_a_warm_cache(tmp_path, module, old, new):
    package = copy_chain(tmp_path)
    assert (7, "JNP301") in codes_at(lint(tmp_path, "chainpkg/util.py"))
    assert (7, "JNP301") in codes_at(lint(tmp_path, "chainpkg/util.py"))  # reused, still there
    text = (package / module).read_text()
    assert old in text
    (package / module).write_text(text.replace(old, new))
    assert (7, "JNP301") not in codes_at(lint(tmp_path, "chainpkg/util.py"))
    (package / module).write_text(text)  # and back: the kept findings of the other version are not used
    assert (7, "JNP301") in codes_at(lint(tmp_path, "chainpkg/util.py"))


@pytest.mark.parametrize("module, old, new", [
    ("train.py", "step(params, x)\n", "step(params, x, stream.next_noise_key())\n"),  # every call passes the key
    ("steps.py", "        if key is None:\n            key = stream.next_noise_key()\n",
     "        key = jax.random.fold_in(key, 1)\n        if key is None:\n            key = stream.next_noise_key()\n"),
])
def test_a_call_that_fills_in_a_missing_key_is_traced_while_a_call_of_the_step_leaves_it_out(
        tmp_path, module, old, new):
    """streampkg: train.py calls a factory-made jitted step without its key, so the step's `if key
    is None:` block advances stream.py's global stream at trace time; not when every call passes a
    key, or when the step binds the key again before the test (a change seen with a warm cache)."""
    shutil.copytree(FIXTURES / "streampkg", tmp_path / "streampkg", ignore=shutil.ignore_patterns("__pycache__"))
    assert codes_at(lint(tmp_path, "streampkg/stream.py")) == [(10, "JNP302")]
    text = (tmp_path / "streampkg" / module).read_text()
    assert old in text
    (tmp_path / "streampkg" / module).write_text(text.replace(old, new))
    assert codes_at(lint(tmp_path, "streampkg/stream.py")) == []


def test_a_chain_through_a_same_module_helper_and_back(tmp_path):
    """step (a.py) -> a.inner (same module) -> b.middle -> a.last (back in a.py) -> d.leaf;
    e.leaf is never called with tracers."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("import jax\nfrom . import b\nfrom .d import leaf\n\n\n@jax.jit\ndef step(x):\n"
                                  "    return inner(x)\n\n\ndef inner(x):\n    return b.middle(x + 1)\n\n\n"
                                  "def last(x):\n    return leaf(x)\n")
    (package / "b.py").write_text("from .a import last\n\n\ndef middle(v):\n    return last(-v)\n")
    (package / "d.py").write_text("import jax\n\n\ndef leaf(x):\n    print(x)\n")
    (package / "e.py").write_text("import jax\n\n\ndef leaf(x):\n    print(x)\n")
    found = lint(tmp_path, "pkg/b.py", "pkg/d.py", "pkg/e.py")
    assert codes_at(found) == [(5, "JNP301")]
    assert found[0].startswith("pkg/d.py:5:")
    assert "(called from 'last' in pkg/a.py:16, traced from 'step' in pkg/a.py:7)" in found[0]


def test_a_grad_in_a_method_reaches_another_module_through_its_self(tmp_path):
    """jax.grad of a def nested in a method traces it: its ``self.energy(x)`` runs the class's
    method, whose call of another module's helper is differentiated there (a where that guards
    a sqrt gives NaN gradients)."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "model.py").write_text(
        "import jax\nimport jax.numpy as jnp\nfrom . import ops\n\n\nclass Net:\n"
        "    def energy(self, x):\n        return jnp.sum(ops.length(x))\n\n"
        "    def forces(self, x):\n        def total(y):\n            return self.energy(y)\n"
        "        return jax.grad(total)(x)\n")
    (package / "ops.py").write_text(
        "import jax.numpy as jnp\n\n\ndef length(d2):\n    return jnp.where(d2 > 0, jnp.sqrt(d2), 0.0)\n")
    found = lint(tmp_path, "pkg/ops.py")
    assert codes_at(found) == [(5, "JNP604")]
    assert "differentiated by jax.grad" in found[0]


@pytest.mark.parametrize("body, passed", [
    ("y = jnp.dot(p, x)\n    return h(y)", {"p", "x"}),
    ("return h(x.shape[0], len(x))", set()),
    ("y = x\n    y = 3\n    return h(y)", set()),  # bound to a Python value once: may be one here
    ("y = x * 2\n    y += p\n    return h(y)", {"p", "x"}),
    ("y = x.at[0].set(p)\n    return h(y)", {"p", "x"}),
    ("return h(float(x))", set()),
    ("return h(x if p else 0)", set()),
    ("for y in x:\n        h(y)", set()),
    ("return h(other(x))", set()),  # what another function returns is not known here
    ("return h((x, p), key=p.sum())", {"p", "x"}),
    ("w, v = jnp.linalg.eigh(p @ x)\n    return h(v)", {"p", "x"}),  # each item of a traced result
    ("y, z = x * 2, 3\n    return h(z)", set()),  # an item of a display: that item alone
    ("y, z = x * 2, 3\n    return h(y)", {"x"}),
    ("y, *z = jnp.split(x, 3)\n    return h(z)", set()),  # a starred target: a list, not followed
    ("y, z = other(x)\n    return h(z)", set()),
])
def test_which_parameters_an_argument_derives_from(body, passed):
    from flake8_jaxnp.model.project.flows import parameter_calls
    from flake8_jaxnp.model.syntax import module_imports
    tree = ast.parse(f"import jax\nimport jax.numpy as jnp\nfrom .helpers import h\n\n\ndef f(p, x):\n    {body}\n")
    calls = parameter_calls(tree.body[3], module_imports(tree), {"f"})
    found = {p for call in calls for _, params, _ in call[2] + call[3] for p in params}
    assert found == passed


@pytest.mark.parametrize("handed, under", [
    ("jax.grad(loss_fn)(p)", "jax.grad"),
    ("jax.jit(loss_fn)(p)", "jax.jit"),
    ("np.vectorize(loss_fn)(p)", None),  # another call given the nested def: no transform
    ("functools.partial(loss_fn)(p)", None),
])
def test_calls_in_a_nested_def_run_under_the_transform_it_is_handed_to(handed, under):
    from flake8_jaxnp.model.project.flows import parameter_calls
    from flake8_jaxnp.model.syntax import module_imports
    tree = ast.parse("import functools\nimport jax\nimport numpy as np\nfrom .helpers import h\n\n\n"
                     f"def f(p, x):\n    def loss_fn(q):\n        return h(p)\n    return {handed}\n")
    calls = parameter_calls(tree.body[4], module_imports(tree), {"f"})
    assert [call[6] for call in calls if call[4] == 9] == [under]


def test_a_conversion_two_modules_down_is_reported_at_the_loop_and_follows_its_changes(tmp_path):
    """step.py's loop calls model.record, which hands its argument to util.as_float, which
    calls float() on it: the loop's call is reported, naming both places; editing the far
    module (util.py) is seen by step.py's next lint, whose own text did not change."""
    package = copy_chain(tmp_path)
    [line] = lint(tmp_path, "chainpkg/step.py")
    assert line.startswith("chainpkg/step.py:40:") and " JNP102 " in line
    assert "record(), which calls float() in 'as_float' (chainpkg/util.py:34) on its argument " \
           "(chainpkg/model.py:32)" in line
    util = (package / "util.py").read_text()
    (package / "util.py").write_text(util.replace("    return float(v)\n", "    return v\n"))
    assert lint(tmp_path, "chainpkg/step.py") == []
    (package / "util.py").write_text(util)
    assert lint(tmp_path, "chainpkg/step.py") == [line]


@pytest.mark.parametrize("helper, expected", [
    ("def record(x):\n    to_float(x)\n", [(9, "JNP102")]),
    ("def record(x):\n    to_float(x * 2)\n", []),  # not the argument as it came in: left alone
    ("def record(x, now):\n    if now:\n        to_float(x)\n", []),  # not on every call
    ("def record(x):\n    jitted(x)\n", []),  # a jitted function's float() is a tracer error, not a sync
    ("import jax\n\n\n@jax.jit\ndef record(x):\n    print('x', x)\n    return x\n", []),  # prints tracers
    ("def record(x):\n    record(x)\n    other(x)\n", []),  # calls that come back end the search
])
def test_conversions_through_helpers_of_other_modules(tmp_path, helper, expected):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "far.py").write_text("import jax\nfrom .middle import record as other\n\n\ndef to_float(v):\n"
                                    "    return float(v)\n\n\n@jax.jit\ndef jitted(v):\n    return float(v)\n")
    (package / "middle.py").write_text(f"from .far import jitted, other, to_float\n\n\n{helper}")
    (package / "loop.py").write_text("import jax.numpy as jnp\nfrom .middle import record\n\n\ndef run(n):\n"
                                     "    x = jnp.zeros(3)\n    for _ in range(n):\n"
                                     "        x = x + 1\n        record(x)\n")
    assert codes_at(lint(tmp_path, "pkg/loop.py")) == expected


def kept_callers(root, path):
    """What the reach says of ``path`` in a new process (the process's memory emptied) that
    keeps its cache in ``root / "cache"``."""
    MEMORY.__init__()
    return project_around(str(path), Options(cache_dir=str(root / "cache"))).callers()


@pytest.fixture
def reach_solves(monkeypatch):
    """The packages whose reach is solved (not read back from the cache) from now on."""
    solved, solve = [], Project._reach
    monkeypatch.setattr(Project, "_reach", lambda self, files: solved.append(self.package) or solve(self, files))
    return solved


def test_the_reach_is_kept_on_disk_until_a_module_it_read_changes(tmp_path, monkeypatch, reach_solves):
    package = copy_chain(tmp_path)
    monkeypatch.chdir(tmp_path)
    first = kept_callers(tmp_path, package / "util.py")
    assert first and reach_solves == [package]
    assert kept_callers(tmp_path, package / "util.py") == first  # read back, not solved
    assert kept_callers(tmp_path, package / "step.py") == {} and reach_solves == [package]
    text = (package / "model.py").read_text()
    (package / "model.py").write_text(text.replace("    log_stats(y)\n", "    log_stats(2.0)\n"))
    assert kept_callers(tmp_path, package / "util.py") != first and reach_solves == [package] * 2
    (package / "model.py").write_text(text)
    assert kept_callers(tmp_path, package / "util.py") == first


def test_the_kept_reach_is_solved_again_when_an_import_resolves_elsewhere(tmp_path, monkeypatch, reach_solves):
    """A module outside the package appears (``import helpers`` now resolves): no file of the
    package changed, but the reach through it did."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "step.py").write_text("import jax\n\nimport helpers\n\nfrom . import util\n\n\n@jax.jit\n"
                                     "def step(x):\n    return helpers.relay(util.scale(x))\n")
    (package / "util.py").write_text("def scale(x):\n    return x\n\n\ndef leaf(x):\n    print(x)\n")
    monkeypatch.chdir(tmp_path)
    assert list(kept_callers(tmp_path, package / "util.py")) == ["scale"]
    (tmp_path / "helpers.py").write_text("from pkg import util\n\n\ndef relay(x):\n    return util.leaf(x)\n")
    assert sorted(kept_callers(tmp_path, package / "util.py")) == ["leaf", "scale"] and len(reach_solves) == 2


CALLBACKS = """STEPS = 0
SEEN = []


def on_step(loss):
    global STEPS
    STEPS += 1
    SEEN.append(loss)
    return loss
"""
STEP = """import jax

from . import callbacks


{decorator}
def step(x):
    return callbacks.on_step(x * 2)
"""


@pytest.mark.parametrize("decorator, expected", [
    ("@jax.jit", [(7, "JNP302"), (8, "JNP303")]),
    ("", []),  # nothing traces it: a plain Python module stays silent
])
def test_a_module_that_never_names_jax_is_linted_when_a_trace_reaches_it(tmp_path, decorator, expected):
    package = tmp_path / "cbpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "callbacks.py").write_text(CALLBACKS)
    (package / "steps.py").write_text(STEP.format(decorator=decorator))
    assert codes_at(lint(tmp_path, "cbpkg/callbacks.py")) == expected


def test_a_module_that_never_names_jax_and_has_no_def_asks_no_reach(tmp_path, monkeypatch):
    """Traces reach functions only: a module without one is not worth its package's reach."""
    package = tmp_path / "cbpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "settings.py").write_text("STEPS = 0\nSEEN = []\n")
    (package / "steps.py").write_text(STEP.format(decorator="@jax.jit"))

    def solved(project):
        raise AssertionError("the reach was asked")

    monkeypatch.setattr(Project, "callers", solved)
    source = (package / "settings.py").read_text()
    options = Options(cache_dir=str(tmp_path / "cache"))
    assert linter.lint(ast.parse(source), source.splitlines(True), options, str(package / "settings.py")) == []


def test_a_path_resolves_as_pathlib_resolves_it_through_linked_files_and_folders(tmp_path, monkeypatch):
    """``real_path`` resolves each folder once per process and gives what ``Path.resolve`` gives."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "module.py").write_text("x = 1\n")
    (tmp_path / "folder").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "linked.py").symlink_to(tmp_path / "real" / "module.py")
    monkeypatch.chdir(tmp_path / "real")
    for path in ("module.py", "./module.py", "linked.py", "../folder/module.py", "../folder/linked.py",
                 str(tmp_path / "folder" / ".." / "real" / "module.py"), "../folder/missing.py", "../folder/sub/m.py"):
        assert real_path(path) == Path(path).resolve(), path
    assert real_path("../folder/linked.py") == tmp_path.resolve() / "real" / "module.py"


def test_a_def_named_like_a_kept_part_of_its_module_reads_its_own_summary(tmp_path):
    """The parts of a module's summary kept beside its key (its roots', its calls') are named
    so that no def's own part can take their place: a top-level ``def roots`` or ``def uses``."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "other.py").write_text("def g(x):\n    return x\n")
    (package / "util.py").write_text("import jax\nfrom pkg import other\n\n\ndef roots(x):\n    return x + 1\n\n\n"
                                     "def uses(x):\n    return other.g(x)\n\n\n@jax.jit\ndef step(x):\n"
                                     "    return other.g(x)\n")
    (package / "main.py").write_text("from pkg.util import roots, uses\n\n\ndef run():\n    return uses(roots(1))\n")
    kept_callers(tmp_path, package / "other.py")  # the reach keeps util.py's roots' part
    MEMORY.__init__()
    project = project_around(str(package / "main.py"), Options(cache_dir=str(tmp_path / "cache")))
    assert project.kept_defaults("g", "x", 0) == []  # (keeps other.py's calls, as its key's part)
    for name in ("roots", "uses"):
        assert project.function(("pkg.util", 0, name))[1]["params"] == ["x"]


DRAW = """import jax
import jax.numpy as jnp
import numpy as np


def draw(key, x):
    return {returned}
"""
DRAWING_STEP = """import jax
import jax.numpy as jnp

from .draw import draw
from .weights import weight


@{transform}
def step(x, key):
    t, noise = draw(key, x)
    return weight(t) + jnp.sum(noise)
"""
WEIGHTS = """import numpy as np


def weight(t):
    return np.minimum(t, 5.0)
"""


@pytest.mark.parametrize("returned, transform, expected", [
    ("jax.random.randint(key, x.shape, 0, 9), jax.random.normal(key, x.shape)", "jax.jit", [(5, "JNP201")]),
    ("jnp.ones(3), jax.random.normal(key, x.shape)", "jax.jit", [(5, "JNP201")]),  # staged: a tracer
    ("np.ones(3), jax.random.normal(key, x.shape)", "jax.jit", []),  # NumPy's data: not traced
    ("jax.random.randint(key, x.shape, 0, 9), jax.random.normal(key, x.shape)", "jax.vmap", []),  # not staged: unsaid
])
def test_what_another_module_returns_from_a_traced_value_is_traced(tmp_path, returned, transform, expected):
    """``t, noise = draw(key, x)`` in a jitted step: ``t`` holds a tracer when ``draw`` (another
    module) returns a JAX array there, and a helper given it is reached."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "draw.py").write_text(DRAW.format(returned=returned))
    (package / "step.py").write_text(DRAWING_STEP.format(transform=transform))
    (package / "weights.py").write_text(WEIGHTS)
    assert codes_at(lint(tmp_path, "pkg/weights.py")) == expected


def test_the_project_folder_is_the_nearest_holding_one_and_each_folder_is_asked_once(tmp_path, monkeypatch):
    (tmp_path / "repo" / "pkg" / "a").mkdir(parents=True)
    (tmp_path / "repo" / "pkg" / "b").mkdir()
    (tmp_path / "repo" / "setup.cfg").write_text("")
    monkeypatch.setattr("flake8_jaxnp.model.project.package.MEMORY", type(MEMORY)())
    asked = []
    access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: asked.append(Path(path).parent) or access(path, mode))
    assert project_folder(tmp_path / "repo" / "pkg" / "a") == tmp_path / "repo"
    assert project_folder(tmp_path / "repo" / "pkg" / "b") == tmp_path / "repo"
    assert asked.count(tmp_path / "repo" / "pkg") == len(PROJECT_FILES)  # (asked once, for both folders)
