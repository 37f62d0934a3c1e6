"""Helpers, constants and objects of other modules that a jitted step reaches
(fixtures/crosspkg): the reach follows them as it follows a same-file helper, and the
results agree across orders, --jobs, file-by-file and stdin linting (test_project_reach)."""
import ast

import pytest

from conftest import FIXTURES
from flake8_jaxnp.model.project.units import inherited_methods, run_methods
from flake8_jaxnp.model.syntax import module_imports
from flake8_runs import flake8
from test_project import codes_at
from test_values_through_helpers import findings

CROSS = FIXTURES / "crosspkg"
NOISE = "def noise(n):\n    return np.random.normal(size=n)\n\n\n"


def line_of(module, text):
    return 1 + (CROSS / module).read_text().splitlines().index(text)


def test_a_helper_given_the_parameter_it_rebinds_is_traced():
    """``x = check(x)``: the call runs before the rebinding, so check gets the tracer."""
    found = flake8(["crosspkg/helpers.py"], FIXTURES)
    printed = line_of("helpers.py", '    print("checking", x)  # expect: JNP301')
    assert (printed, "JNP301") in codes_at(found)
    call = line_of("train.py", "    x = check(x)  # the helper gets the parameter: the rebinding comes after the call")
    assert any(f"jax.jit (called from 'step' in crosspkg/train.py:{call})" in line for line in found)
    host_print = line_of("helpers.py", '    print("value", x)')
    assert (host_print, "JNP301") not in codes_at(found)


def test_a_rebinding_before_the_call_still_hides_the_parameter(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text("def check(x):\n    print(x)\n    return x\n")
    (package / "train.py").write_text(
        "import jax\n\nfrom pkg.helpers import check\n\n\n"
        "@jax.jit\ndef step(x):\n    x = x.shape[0]\n    return check(x)\n")
    assert flake8(["--jaxnp-cache-dir", "", "pkg/helpers.py"], tmp_path) == []


def test_a_helper_given_no_tracer_runs_at_trace_time_and_names_its_caller():
    found = flake8(["crosspkg/helpers.py"], FIXTURES)
    drawn = line_of("helpers.py", "    return np.random.rand(*shape) > 0.5  # expect: JNP305")
    counted = line_of("helpers.py", "    traces += 1  # expect: JNP302")
    assert (drawn, "JNP305") in codes_at(found) and (counted, "JNP302") in codes_at(found)
    call = line_of("train.py", "    m = dropout_mask(x.shape)")
    assert any(f"jax.jit (called from 'dropout_step' in crosspkg/train.py:{call})" in line for line in found)
    counting = line_of("helpers.py", "    count_trace()")
    assert any(f"jax.jit (called from 'dropout_mask' at line {counting})" in line for line in found)
    host_draw = line_of("helpers.py", "    return np.random.rand(*shape) > 0.5")
    assert (host_draw, "JNP305") not in codes_at(found)


STEP = """\
import jax
import numpy as np

from pkg.helpers import noise


{step}
"""


@pytest.mark.parametrize("step, expected", [
    ("@jax.jit\ndef step(x):\n    return x + noise(3)\n", [(2, "JNP305")]),
    ("@jax.jit\ndef step(x):\n    y = x + 1\n    return y + noise(x.shape)\n", [(2, "JNP305")]),
    # a call that may not run (under an if, in a loop), or runs on the host (a callback), is not followed
    ("@jax.jit\ndef step(x, flag=False):\n    if flag:\n        x = x + noise(3)\n    return x\n", []),
    ("@jax.jit\ndef step(x):\n    for _ in range(2):\n        x = x + noise(3)\n    return x\n", []),
    ("@jax.jit\ndef step(x):\n    def log(v):\n        noise(3)\n    jax.debug.callback(log, x)\n    return x\n",
     []),
    # under grad alone the body runs on every call: a new draw each time
    ("def loss(x):\n    return (x * noise(3)).sum()\n\n\ngrad = jax.grad(loss)\n", []),
])
def test_another_modules_helper_given_no_tracer(tmp_path, step, expected):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text("import numpy as np\n\n\n" + NOISE)
    (package / "train.py").write_text(STEP.format(step=step))
    found = codes_at(flake8(["--jaxnp-cache-dir", "", "pkg/helpers.py"], tmp_path))
    assert [(line - 3, code) for line, code in found] == expected


@pytest.mark.parametrize("body, expected", [
    # (what noise returns is NumPy float64 data, which meets a float32 tracer: JNP403)
    (NOISE + "@jax.jit\ndef step(x):\n    return x + noise(x.shape)\n", [(2, "JNP305"), (7, "JNP403")]),
    (NOISE + "def middle():\n    return noise(3)\n\n\n@jax.jit\ndef step(x):\n    return x + middle()\n",
     [(2, "JNP305")]),
    # a print shows tracers only for an array made there: a parameter may hold a Python value
    ("def show(n):\n    print(jnp.ones(n))\n\n\n@jax.jit\ndef step(x):\n    show(3)\n    return x\n",
     [(2, "JNP301")]),
    ("def show(n):\n    print(n)\n\n\n@jax.jit\ndef step(x):\n    show(3)\n    return x\n", []),
    # eager callers only, a call under an if, a helper under grad alone, a decorated helper: silent
    (NOISE + "def step(x):\n    return x + noise(x.shape)\n", []),
    (NOISE + "@jax.jit\ndef step(x, n=0):\n    if n:\n        x = x + noise(3)\n    return x\n", []),
    (NOISE + "@jax.grad\ndef step(x):\n    return (x * noise(3)).sum()\n", []),
    ("@partial(jax.jit, static_argnums=0)\ndef noise(n):\n    return np.random.normal(size=n)\n\n\n"
     "@jax.jit\ndef step(x):\n    return x + noise(3)\n", [(3, "JNP305")]),
])
def test_a_same_file_helper_given_no_tracer(lint_source, body, expected):
    assert findings(lint_source, body) == expected


def test_another_modules_numpy_constant_passed_in_a_loop_is_an_upload():
    found = flake8(["crosspkg/train.py"], FIXTURES)
    imported = line_of("train.py", "        w = masked(w, MASK)  # expect: JNP104")
    attribute = line_of("train.py", "        w = masked(w, config.WEIGHTS)  # expect: JNP104")
    assert [line for line, code in codes_at(found) if code == "JNP104"] == [imported, attribute]
    assert any("passing config.WEIGHTS to the jitted masked()" in line for line in found)


LOOP = """\
import jax
import jax.numpy as jnp

from pkg import config
from pkg.config import MASK


@jax.jit
def masked(w, m):
    return w * m


def train(w, steps):
    for _ in range(steps):
        w = masked(w, {argument})
    return w
"""


@pytest.mark.parametrize("constant, argument, expected", [
    ("MASK = np.ones(3)\n", "MASK", [(15, "JNP104")]),
    ("MASK = np.zeros((2, 3), dtype=np.float32)\n", "config.MASK", [(15, "JNP104")]),
    # not known to be the same NumPy data: rebound, made from a name, a JAX array, another attribute
    ("MASK = np.ones(3)\nMASK = MASK * 2\n", "MASK", []),
    ("N = 3\nMASK = np.ones(N)\n", "MASK", []),
    ("MASK = jnp.ones(3)\n", "config.MASK", []),
    ("MASK = np.ones(3)\n", "config.MASK.T", []),
])
def test_an_imported_numpy_constant(tmp_path, constant, argument, expected):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "config.py").write_text("import jax.numpy as jnp\nimport numpy as np\n\n" + constant)
    (package / "train.py").write_text(LOOP.format(argument=argument))
    assert codes_at(flake8(["--jaxnp-cache-dir", "", "pkg/train.py"], tmp_path)) == expected


def test_a_changed_constant_is_seen_with_a_warm_cache(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "config.py").write_text("import numpy as np\n\nMASK = np.ones(3)\n")
    (package / "train.py").write_text(LOOP.format(argument="MASK"))
    args = ["--jaxnp-cache-dir", str(tmp_path / "cache"), "pkg/train.py"]
    assert codes_at(flake8(args, tmp_path)) == [(15, "JNP104")]
    (package / "config.py").write_text("import jax.numpy as jnp\n\nMASK = jnp.ones(3)\n")
    assert flake8(args, tmp_path) == []


def test_inherited_methods_of_another_modules_class_run_under_the_trace():
    found = flake8(["crosspkg/layers.py"], FIXTURES)
    built = line_of("layers.py", '        print("built with", scale)  # expect: JNP301')
    called = line_of("layers.py", '        print("called with", x)  # expect: JNP301')
    assert codes_at(found) == [(built, "JNP301"), (called, "JNP301")]
    call = line_of("model.py", "    return layer(x)")
    assert any(f"jax.jit (called from 'scaled_by_two' in crosspkg/model.py:{call})" in line for line in found)


LAYERS = """\
import jax.numpy as jnp

from pkg import other


class Base:
    def __call__(self, x):
        print(x)
        return jnp.sin(x)


{child}
"""
CALLER = """\
import jax

from pkg.layers import Child


@jax.jit
def step(x):
    layer = Child()
    return layer(x)
"""


@pytest.mark.parametrize("child, expected", [
    ("class Child(Base):\n    pass\n", [(8, "JNP301")]),
    ("class Middle(Base):\n    pass\n\n\nclass Child(Middle):\n    pass\n", [(8, "JNP301")]),
    # its own __call__ (a def or another binding), another base too, a base of another module: not Base's
    ("class Child(Base):\n    def __call__(self, x):\n        return x\n", []),
    ("class Child(Base, other.Mixin):\n    pass\n", []),
    ("class Child(other.Base):\n    pass\n", []),
    ("class Child(Base):\n    __call__ = None\n", []),
])
def test_an_inherited_call_of_another_modules_class(tmp_path, child, expected):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "other.py").write_text("class Base:\n    pass\n\n\nclass Mixin:\n    pass\n")
    (package / "layers.py").write_text(LAYERS.format(child=child))
    (package / "train.py").write_text(CALLER)
    assert codes_at(flake8(["--jaxnp-cache-dir", "", "pkg/layers.py"], tmp_path)) == expected


def test_a_dataclass_writes_its_own_init_and_a_cycle_ends():
    tree = ast.parse(
        "class Base:\n    def __init__(self, x):\n        self.x = x\n\n"
        "    def __call__(self, y):\n        return y\n\n\n"
        "@dataclasses.dataclass\nclass Record(Base):\n    pass\n\n\nclass Plain(Base):\n    pass\n\n\n"
        "class A(B):\n    pass\n\n\nclass B(A):\n    pass\n")
    found, _ = run_methods(tree, module_imports(tree))
    expected = {"Plain.__init__": "Base.__init__", "Plain.__call__": "Base.__call__",
                "Record.__call__": "Base.__call__"}  # a dataclass writes __init__, not __call__
    assert inherited_methods(tree, found) == expected


@pytest.mark.parametrize("constant, read, expected", [
    ("TABLE = np.linspace(0.5, 1.5, 3).astype(np.float32)\n", "config.TABLE[label]", [(9, "JNP201")]),
    ("TABLE = np.ones(3)\n", "TABLE[label]", [(9, "JNP201")]),
    # a JAX array, or NumPy data made from a name: not known to be NumPy here
    ("TABLE = jnp.ones(3)\n", "config.TABLE[label]", []),
    ("N = 3\nTABLE = np.ones(N)\n", "TABLE[label]", []),
])
def test_an_imported_numpy_constant_indexed_by_a_tracer(tmp_path, constant, read, expected):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "config.py").write_text("import jax.numpy as jnp\nimport numpy as np\n\n" + constant)
    (package / "step.py").write_text("import jax\n\nfrom pkg import config\nfrom pkg.config import TABLE\n\n\n"
                                     f"@jax.jit\ndef weighted(w, label):\n    return w * {read}\n")
    assert codes_at(flake8(["--jaxnp-cache-dir", "", "pkg/step.py"], tmp_path)) == expected
