"""A file sees the other modules of its project, read from source and never imported:
jitted steps and helpers imported from them, and helpers traced from elsewhere.
Results do not depend on the order, on --jobs, on stdin, or on a stale cache."""
import subprocess
import sys
import textwrap

import pytest

from conftest import FIXTURES
from flake8_runs import flake8, serial_and_parallel, stdin_mismatches

PACKAGE = FIXTURES / "mypkg"
STEPS = """\
import jax
import jax.numpy as jnp
import numpy as np


{decorator}
def train_step(params):
    return params * 0.5, {{"loss": params.sum()}}  # (unjitted: what params is says what it gives)


def to_host(x):
    return np.asarray(x)
"""
TRAIN = """\
import jax.numpy as jnp

from pkg.steps import train_step


def train(params, steps):
    for _ in range(steps):
        params, metrics = train_step(params)
        print(float(metrics["loss"]))
"""


def write_project(root, decorator="@jax.jit"):
    package = root / "pkg"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "steps.py").write_text(STEPS.format(decorator=decorator))
    (package / "train.py").write_text(TRAIN)
    return package


def lint(root, *args):
    return flake8(["--jaxnp-cache-dir", str(root / "cache"), *args], root)


def test_the_multimodule_fixture_agrees_across_jobs_file_order_and_stdin():
    """fixtures/multipkg's findings come from other modules' text (a lambda jitted in run.py, a
    global run.py rebinds, a loop that calls ops.py, a star import, decorators.py's aliases)."""
    paths = sorted((FIXTURES / "multipkg").glob("*.py"))
    serial, parallel = serial_and_parallel(FIXTURES, paths)
    assert {line.split(":")[0].rsplit("/", 1)[1] for line in serial} == {"helpers.py", "ops.py", "run.py"}
    assert parallel == serial
    one_by_one = sorted(line for path in reversed(paths) for line in flake8([str(path.relative_to(FIXTURES))],
                                                                            FIXTURES))
    assert one_by_one == serial
    assert stdin_mismatches(FIXTURES, paths, serial) == []


def test_the_package_fixture_agrees_across_jobs_files_and_stdin():
    paths = sorted(PACKAGE.glob("*.py"))
    serial, parallel = serial_and_parallel(FIXTURES, paths)
    assert any("mypkg/model.py" in line for line in serial) and any("mypkg/train.py" in line for line in serial)
    assert parallel == serial
    one_by_one = sorted(line for path in reversed(paths) for line in flake8([str(path.relative_to(FIXTURES))],
                                                                            FIXTURES))
    assert one_by_one == serial
    assert stdin_mismatches(FIXTURES, paths, serial) == []


def test_the_traced_helper_names_its_caller():
    [line] = flake8(["mypkg/model.py"], FIXTURES)
    call = 1 + (PACKAGE / "steps.py").read_text().splitlines().index("    return normalize(params) * scale")
    assert f"under jax.jit (called from 'normalized_step' in mypkg/steps.py:{call})" in line


def test_a_changed_module_is_seen_by_the_next_lint(tmp_path):
    write_project(tmp_path, decorator="")
    assert lint(tmp_path, "pkg/train.py") == []
    write_project(tmp_path, decorator="@jax.jit")  # train_step is jitted now
    assert [line.split(": ")[1][:6] for line in lint(tmp_path, "pkg/train.py")] == ["JNP102"]
    write_project(tmp_path, decorator="")  # and back: the cached summary of the jitted version is not used
    assert lint(tmp_path, "pkg/train.py") == []


def test_the_cache_can_be_moved_or_turned_off(tmp_path):
    write_project(tmp_path)
    cached = lint(tmp_path, "pkg/train.py")
    assert list((tmp_path / "cache").glob("*.json"))
    assert flake8(["--jaxnp-cache-dir=", "pkg/train.py"], tmp_path) == cached
    assert len(cached) == 1


def test_an_unsaved_buffer_sees_its_imports(tmp_path):
    package = write_project(tmp_path)
    (package / "train.py").write_text("")  # the editor has not saved it yet
    piped = flake8(["--jaxnp-cache-dir=", "--stdin-display-name", "pkg/train.py", "-"], tmp_path,
                   stdin=TRAIN.encode())
    assert [line.split(": ")[1][:6] for line in piped] == ["JNP102"]


def test_modules_under_site_packages_are_never_read(tmp_path):
    root = tmp_path / "site-packages"
    root.mkdir()
    write_project(root)
    assert lint(root, "pkg/train.py") == []


def test_a_helper_traced_from_another_module_is_reported_once_at_its_own_line(tmp_path):
    package = write_project(tmp_path)
    (package / "model.py").write_text(textwrap.dedent("""\
        import jax
        from .steps import to_host


        @jax.jit
        def step(x):
            return to_host(x) + 1
    """))
    found = lint(tmp_path, "pkg/model.py", "pkg/steps.py")
    assert [line.split(": ")[1][:6] for line in found] == ["JNP201"]
    assert found[0].startswith("pkg/steps.py:12:") and "called from 'step' in pkg/model.py:7" in found[0]


@pytest.mark.parametrize("source", ["from .missing import f\nf(1)\n", "from ... import x\n",
                                    "import pkg.nothing.deeper as d\nd.f(1)\n", "from pkg import *\n"])
def test_imports_that_resolve_nowhere_are_silent(tmp_path, source):
    package = write_project(tmp_path)
    (package / "odd.py").write_text("import jax\n" + source)
    assert lint(tmp_path, "pkg/odd.py") == []


def test_linting_never_imports_the_project(tmp_path):
    package = write_project(tmp_path)
    (package / "__init__.py").write_text("raise SystemExit('imported')\n")
    result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "JNP", "pkg/train.py"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert "imported" not in result.stderr + result.stdout and result.stdout.count("JNP102") == 1


RECORDS = """\
import dataclasses
from typing import NamedTuple

import flax.struct
import jax
import jax.numpy as jnp


class State(NamedTuple):
    params: jax.Array
    loss: jax.Array


@flax.struct.dataclass
class Config:
    scale: jax.Array
    name: str = flax.struct.field(pytree_node={pytree_node})


@jax.jit
def step(state, config):
    new_state = State(state.params * config.scale, jnp.sum(state.params))
    return new_state, Config(config.scale, name=config.name)


{decorator}
def plain(state):
    return State(state.params, state.loss)
"""
RECORD_LOOP = """\
import numpy as np

from pkg.records import plain, step


def train(state, config, steps):
    for _ in range(steps):
        state, config = step(state, config)
        print(np.asarray(state.params), config.name)
        state = plain(state)
        print(float(state.loss))
"""


def codes_at(lines):
    return sorted((int(line.split(":")[1]), line.split(": ")[1][:6]) for line in lines)


@pytest.mark.parametrize("pytree_node, decorator, expected", [
    ("False", "", [(9, "JNP101")]),  # a static field, and a function that is not jitted: silent
    ("True", "", [(9, "JNP101"), (9, "JNP103")]),
    ("False", "@jax.jit", [(9, "JNP101"), (11, "JNP102")]),
    ("False", "@jax.vmap", [(9, "JNP101")]),  # jitted results only
])
def test_fields_of_a_jitted_result_from_another_module(tmp_path, pytree_node, decorator, expected):
    package = write_project(tmp_path)
    (package / "records.py").write_text(RECORDS.format(pytree_node=pytree_node, decorator=decorator))
    (package / "loop.py").write_text(RECORD_LOOP)
    assert codes_at(lint(tmp_path, "pkg/loop.py")) == expected


@pytest.mark.parametrize("returned, expected", [
    ("jnp.tanh(params) * 2.0", [(9, "JNP102"), (10, "JNP102")]),  # one array: its rows and np.sum are arrays
    ("(params, jnp.sum(params))", []),  # a tuple: its rows are not known to be arrays
    ("helper(params)", []),  # what a helper returns is not read
])
def test_an_array_returned_by_a_jitted_function_of_another_module(tmp_path, returned, expected):
    package = write_project(tmp_path)
    (package / "steps.py").write_text(f"import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\n"
                                      f"def score(params):\n    return {returned}\n")
    (package / "loop.py").write_text("import numpy as np\n\nfrom pkg.steps import score\n\n\n"
                                     "def train(params, steps):\n    for _ in range(steps):\n"
                                     "        out = score(params)\n        print(np.sum(out).item())\n"
                                     "        print([float(row) for row in out])\n")
    assert codes_at(lint(tmp_path, "pkg/loop.py")) == expected


def test_fields_of_a_class_that_is_not_known_are_silent(tmp_path):
    package = write_project(tmp_path)
    unknown = RECORDS.format(pytree_node="True", decorator="@jax.jit").replace("@flax.struct.dataclass\n", "")
    (package / "records.py").write_text(unknown.replace("class State(NamedTuple)", "class State(Base)"))
    (package / "loop.py").write_text(RECORD_LOOP)
    assert lint(tmp_path, "pkg/loop.py") == []


def test_a_dtype_alias_of_another_module_follows_its_changes(tmp_path):
    package = write_project(tmp_path)
    (package / "loop.py").write_text("import jax.numpy as jnp\nfrom . import util\nfrom .util import WIDE\n\n"
                                     "x = jnp.zeros(3, dtype=WIDE) + jnp.ones(3, dtype=util.WIDE)\n")
    for alias, expected in [("jnp.float64", [(5, "JNP402"), (5, "JNP402")]), ("jnp.float32", []),
                            ("'f8'", [(5, "JNP402"), (5, "JNP402")]), ("jnp.float64\nWIDE = jnp.float32", [])]:
        (package / "util.py").write_text(f"import jax.numpy as jnp\n\nWIDE = {alias}\n")
        assert codes_at(lint(tmp_path, "pkg/loop.py")) == expected, alias


HELPERS = '''\
"""Helpers."""
import jax
import numpy as np
from jax import numpy as jnp


def to_host(x):
    return np.asarray(x)


@some_decorator
def decorated(x):
    return float(x)


def cut_by_a_string(x):
    note = """
starts in the first column
"""
    return float(x)


def signature_over_lines(
    x,
):
    print(x)
    return jnp.zeros(3)


twice = 1
def twice(x):  # noqa: E302
    return np.asarray(x)


async def waits(x):
    to_host(x)
    return jnp.ones(3)


@jax.jit
def jitted(x):
    return jnp.sin(x)


step = jax.jit(to_host)
made = some_factory()
SCALE = 2.0
'''


@pytest.mark.parametrize("name", ["to_host", "signature_over_lines", "waits", "decorated", "jitted", "step",
                                  "made", "cut_by_a_string", "twice", "SCALE"])
def test_one_definition_is_summarised_as_the_whole_module_would_be(name):
    """A name's own lines (a def with its decorators, an assignment of a call) give the
    same facts (lines included) as the module parsed whole; where they cannot (a string
    that cuts the lines, a name bound twice, a constant that may be a dtype alias),
    nothing is guessed and the whole module is summarised."""
    from flake8_jaxnp.model.project import summaries
    from flake8_jaxnp.model.traced import transform_tables
    transforms = transform_tables(())[0]
    source = HELPERS.encode()
    whole = summaries.summarise(source, transforms)
    alone = summaries.function_summary(source, name, transforms)
    if name in ("cut_by_a_string", "twice", "SCALE"):
        assert alone is None
    else:
        assert alone["functions"] == {n: facts for n, facts in whole["functions"].items() if n == name}
        assert alone["jitted"] == ([name] if name in ("jitted", "step") else [])
        assert alone["jitted"] == [n for n in whole["jitted"] if n == name]
        assert alone["results"] == {n: shape for n, shape in whole["results"].items() if n == name}
        assert alone["flows"] == {n: calls for n, calls in whole["flows"].items() if n.split(".")[0] == name}


@pytest.mark.parametrize("source", [
    b"import numpy\n\ndef helper(x):\n    return np.asarray(x)\n\nimport numpy as np\n",  # a late import
    b'"""\ndef helper(x): shown in the docstring\n"""\nimport numpy as np\n\ndef helper(x):\n'
    b'    return np.asarray(x)\n',
])
def test_what_the_lines_alone_cannot_settle_needs_the_whole_module(source):
    from flake8_jaxnp.model.project import summaries
    assert summaries.summarise(source, {})["functions"]["helper"]["converts"]
    assert summaries.function_summary(source, "helper", {}) is None


def test_a_jitted_function_that_may_return_a_pytree_class_needs_the_whole_module():
    """What a jitted function returns may be a class of its module: its lines alone cannot say."""
    from flake8_jaxnp.model.project import summaries
    from flake8_jaxnp.model.traced import transform_tables
    transforms = transform_tables(())[0]
    source = (b"import jax\nfrom typing import NamedTuple\n\n\nclass State(NamedTuple):\n    loss: jax.Array\n\n\n"
              b"@jax.jit\ndef step(x):\n    return State(x)\n")
    assert summaries.summarise(source, transforms)["results"]["step"]
    assert summaries.function_summary(source, "step", transforms) is None


def test_a_helper_summarised_alone_follows_its_changes(tmp_path):
    package = write_project(tmp_path)
    (package / "loop.py").write_text("import jax.numpy as jnp\nfrom .helpers import to_host\n\n\ndef run(n):\n"
                                     "    x = jnp.zeros(3)\n    for _ in range(n):\n        x = x + 1.0\n"
                                     "        to_host(x)\n")
    for body, expected in [("return np.asarray(x)", [(9, "JNP101")]), ("return x", []),
                           ("return float(x)", [(9, "JNP102")])]:
        (package / "helpers.py").write_text(f"import numpy as np\n\n\ndef to_host(x):\n    {body}\n\n\n"
                                            f"def other(x):\n    return x\n")
        assert codes_at(lint(tmp_path, "pkg/loop.py")) == expected, body


@pytest.mark.parametrize("imports, body, expected", [
    ("import jax", "return jax.device_get(x)", [(9, "JNP101")]),
    ("import jax\nfrom flax.jax_utils import unreplicate", "return jax.device_get(unreplicate(x))", [(9, "JNP101")]),
    ("from flax import jax_utils", "return float(jax_utils.unreplicate(x))", [(9, "JNP102")]),
    ("", "return x.item()", [(9, "JNP102")]),
    ("", "return x.tolist()", [(9, "JNP101")]),
    ("from flax.jax_utils import unreplicate", "return unreplicate(x)", []),  # still on the device
    ("import jax", "return jax.device_get(x + 1) if x.ndim else x", []),  # not every call, not the parameter
    ("", "x = x[0]\n    return x.item()", []),  # rebound: no longer what the caller passed
])
def test_a_helper_that_fetches_its_argument_is_reported_at_the_loop(tmp_path, imports, body, expected):
    """jax.device_get, .item() and .tolist() of a parameter, also through flax's unreplicate,
    convert what the loop passes in on every call."""
    package = write_project(tmp_path)
    (package / "loop.py").write_text("import jax.numpy as jnp\nfrom .helpers import fetch\n\n\ndef run(n):\n"
                                     "    x = jnp.zeros(3)\n    for _ in range(n):\n        x = x + 1.0\n"
                                     "        fetch(x)\n")
    (package / "helpers.py").write_text(f"{imports}\n\n\ndef fetch(x):\n    {body}\n")
    assert codes_at(lint(tmp_path, "pkg/loop.py")) == expected, body


@pytest.mark.parametrize("decorator, expected", [
    ("@jax.pmap", [(5, "JNP202")]),
    ("@partial(jax.pmap, static_broadcasted_argnums=1)", []),  # n is static: a Python int in scale()
])
def test_static_arguments_stay_static_in_the_helpers_of_other_modules(tmp_path, decorator, expected):
    """A parameter that a transform keeps static is not traced in a helper of another module
    that the traced function passes it to, as in a helper of the same module."""
    package = write_project(tmp_path)
    (package / "steps.py").write_text(f"from functools import partial\n\nimport jax\n\nfrom .helpers import scale\n\n\n"
                                      f"{decorator}\ndef step(x, n):\n    return scale(x, n)\n")
    (package / "helpers.py").write_text("import jax.numpy as jnp\n\n\ndef scale(x, n):\n    if n > 0:\n"
                                        "        return jnp.tanh(x) * n\n    return x\n")
    assert codes_at(lint(tmp_path, "pkg/helpers.py")) == expected


@pytest.mark.parametrize("decorator, body, expected", [
    ("", "h = jnp.tanh(x)\n    return h @ w", [(9, "JNP201")]),  # every return follows x and w
    ("", "return -(x * w)", [(9, "JNP201")]),
    ("", "return w", []),  # the parameter itself: a pytree, maybe
    ("", "if w is None:\n        return x * 2\n    return w * 2", []),  # no parameter that every return follows
    ("", "return x.shape[0] * 2", []),  # a shape is static
    ("@registered\n", "return x * w", []),  # a decorator may return anything
])
def test_a_helper_of_another_module_returns_what_its_parameters_make(tmp_path, decorator, body, expected):
    package = write_project(tmp_path)
    (package / "ops.py").write_text(f"import jax\nimport jax.numpy as jnp\n\n\ndef registered(f):\n    return f\n\n\n"
                                    f"{decorator}def forward(w, x):\n    {body}\n")
    (package / "predict.py").write_text("import jax\nimport numpy as np\n\nfrom pkg.ops import forward\n\n\n"
                                        "@jax.jit\ndef predict(w, x):\n    return np.asarray(forward(w, x))\n")
    assert codes_at(lint(tmp_path, "pkg/predict.py")) == expected


@pytest.mark.parametrize("body, expected", [
    ("params = {'w': jnp.ones(3), 'b': jnp.zeros(3)}\n    return params", [(8, "JNP501")]),
    ("params = {'w': jax.random.normal(key, (3,)) * 0.3, 'b': jnp.zeros(3)}\n"
     "    return {n: v.astype(dtype) for n, v in params.items()}", [(8, "JNP501")]),  # the values' kind
    ("return {n: np.zeros(3) for n in 'wb'}", []),  # NumPy arrays take item assignment
    ("return {'w': jnp.ones(3), 'b': np.zeros(3)}", []),  # values of two kinds: which one is unknown
    ("return {n: v for n, v in dtype.items()}", []),  # a parameter's dict: its values are unknown
    ("params = {'w': jnp.ones(3), 'b': jnp.zeros(3)}\n    params['b'] = np.zeros(3)\n    return params", []),
    ("params = {'w': jnp.ones(3), 'b': jnp.zeros(3)}\n    jax.tree.map(print, params)\n    return params", []),
])
def test_a_dict_of_arrays_that_another_module_returns(tmp_path, body, expected):
    """A dict display or comprehension whose values are all JAX (or all NumPy) arrays keeps that
    kind in the caller: any of its keys gives one."""
    package = write_project(tmp_path)
    (package / "model.py").write_text(f"import jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"
                                      f"def init(key, dtype=jnp.float32):\n    {body}\n")
    (package / "train.py").write_text("import jax\n\nfrom pkg.model import init\n\n\ndef run():\n"
                                      "    params = init(jax.random.key(0))\n    params['b'][0] = 1.0\n")
    assert codes_at(lint(tmp_path, "pkg/train.py")) == expected


@pytest.mark.parametrize("body, expected", [
    ("return jnp.ones(3), jnp.zeros(3)", [(8, "JNP501")]),
    ("return jnp.ones(3), {'b': jnp.zeros(3)}['b']", []),  # an item of a display: not read by the summary
    ("return jnp.ones(3), np.zeros(3)", []),
])
def test_each_array_of_a_tuple_that_another_module_returns(tmp_path, body, expected):
    package = write_project(tmp_path)
    (package / "model.py").write_text(f"import jax.numpy as jnp\nimport numpy as np\n\n\ndef init():\n    {body}\n")
    (package / "train.py").write_text("import jax\n\nfrom pkg.model import init\n\n\ndef run():\n"
                                      "    w, b = init()\n    b[0] = 1.0\n")
    assert codes_at(lint(tmp_path, "pkg/train.py")) == expected
