"""NNX and Equinox modules reached through ``model(x)`` in a transformed step: the module's
``__call__``, its methods and its submodules run under the step's trace, in the step's file
or in another module of the project. filter_jit traces only what every call gives an array;
an NNX module's updates of ``self`` are its state. Look-alikes stay silent."""
import pytest

from conftest import FIXTURES
from flake8_runs import flake8, serial_and_parallel, stdin_mismatches
from test_project import codes_at, lint
from test_project_roots import write_package
from test_values_through_helpers import findings

EQX_MODELS = """\
import equinox as eqx
import jax
import numpy as np


class Linear(eqx.Module):
    w: jax.Array
    n: int

    def __call__(self, x):
        print(x)
        if self.n > 0:
            return self.w @ x
        return x

    def to_host(self, x):
        return np.asarray(x)
"""
EQX_PRINT, EQX_HOST = (11, "JNP301"), (17, "JNP201")
EQX_TRAIN = "import equinox as eqx\nimport jax\nimport jax.numpy as jnp\n\nfrom .models import Linear\n\n\n"


CONTRACT = {(11, "JNP301")}  # the print in __call__: the framework traces it, whatever the chain


@pytest.mark.parametrize("step, calls, expected", [
    # every call gives x an array: filter_jit traces it into Linear.__call__ or Linear.to_host
    ("def step(model, x):\n    return model(x)", "step(m, jnp.ones(3))", [EQX_PRINT]),
    ("def step(model, x):\n    return model(x)", "x = jnp.ones(3)\nfor _ in range(3):\n    step(m, x)", [EQX_PRINT]),
    ("def step(model, x: jax.Array):\n    return model(x)", "for x in batches:\n    step(m, x)", [EQX_PRINT]),
    ("def step(model, x):\n    return model.to_host(x)", "step(m, jnp.ones(3))", [EQX_HOST]),
    ("def step(model, x):\n    def loss(mod):\n        return mod(x).sum()\n    return eqx.filter_grad(loss)(model)",
     "step(m, jnp.ones(3))", [EQX_PRINT]),
    # a Python scalar is static under filter_jit; an argument the file cannot place is unknown
    ("def step(model, x):\n    return model(x)", "step(m, 3.0)", []),
    ("def step(model, x):\n    return model(x)", "step(m, jnp.ones(3))\nstep(m, 2)", []),
    ("def step(model, x):\n    return model(x)", "for x in batches:\n    step(m, x)", []),
    ("def step(model, x):\n    return model.to_host(x)", "step(m, jnp.ones(3))\nstep(jnp.tanh, jnp.ones(3))", []),
])
def test_an_equinox_module_called_by_a_filter_jit_step_of_another_module(tmp_path, step, calls, expected):
    write_package(tmp_path, models=EQX_MODELS,
                  train=EQX_TRAIN + f"@eqx.filter_jit\n{step}\n\n\nm = Linear(jnp.eye(3), 2)\n{calls}\n")
    for _ in range(2):  # a cold cache, then a warm one
        found = lint(tmp_path, "pkg/models.py")
        assert codes_at(found) == sorted(set(expected) | CONTRACT)
    if expected:  # the chain's findings name it
        assert "equinox.filter_jit (called from 'step' in pkg/train.py:" in found[-1]


NNX_MODELS = """\
import numpy as np
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 3, rngs=rngs)
        self.seen = 0

    def __call__(self, x):
        print(x)
        self.seen = self.seen + x.sum()
        return self.lin(x)

    def score(self, x):
        return np.asarray(x)
"""
NNX_PRINT, NNX_HOST = (11, "JNP301"), (16, "JNP201")
NNX_TRAIN = "import jax.numpy as jnp\nfrom flax import nnx\n\nfrom .models import Net\n\n\n"


@pytest.mark.parametrize("step, expected", [
    # nnx.jit caches the trace: a print in __call__ runs once; self.seen is the module's state
    ("def step(model, x):\n    return model(x)", [NNX_PRINT]),
    ("def step(model, x):\n    return model.score(x)", [NNX_HOST]),
    ("def step(model, x, y):\n    def loss_fn(m):\n        return ((m(x) - y) ** 2).mean()\n"
     "    return nnx.value_and_grad(loss_fn)(model)", [NNX_PRINT]),
    # the nested def's parameter is rebound there, or it is given something else
    ("def step(model, x, y):\n    def loss_fn(m):\n        m = model\n        return ((m(x) - y) ** 2).mean()\n"
     "    return nnx.value_and_grad(loss_fn)(model)", []),
    ("def step(model, x, y):\n    def loss_fn(m):\n        return ((m(x) - y) ** 2).mean()\n"
     "    return nnx.value_and_grad(loss_fn)(y)", []),
])
def test_an_nnx_module_called_by_an_nnx_jit_step_of_another_module(tmp_path, step, expected):
    arguments = "m, jnp.ones(3)" + (", jnp.ones(3)" if "y)" in step else "")
    write_package(tmp_path, models=NNX_MODELS,
                  train=NNX_TRAIN + f"@nnx.jit\n{step}\n\n\nm = Net(nnx.Rngs(0))\nfor _ in range(3):\n"
                                    f"    step({arguments})\n")
    assert codes_at(lint(tmp_path, "pkg/models.py")) == sorted(set(expected) | CONTRACT)


@pytest.mark.parametrize("given, expected", [
    ("make()", [NNX_HOST]),  # what a factory returns: its returns settle the class
    ("Net(nnx.Rngs(0))", [NNX_HOST]),  # built in the call: they do
])
def test_a_method_of_an_object_is_followed_where_the_calls_settle_its_class(tmp_path, given, expected):
    write_package(tmp_path, models=NNX_MODELS,
                  train=NNX_TRAIN + "def make():\n    return Net(nnx.Rngs(0))\n\n\n"
                                    "@nnx.jit\ndef step(model, x):\n    return model.score(x)\n\n\n"
                                    f"step({given}, jnp.ones(3))\n")
    assert codes_at(lint(tmp_path, "pkg/models.py")) == sorted(set(expected) | CONTRACT)


NNX_SAME_FILE = """\
from flax import nnx


class Block(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        print(x)
        return self.lin(x)


class Net(nnx.Module):
    def __init__(self, rngs):
        self.block = {block}
        self.total = 0

    def __call__(self, x):
        self.total += 1
        return self.block(x)


@{transform}
def step(model, x):
    return model(x)


model = Net(nnx.Rngs(0))
step(model, jnp.ones(3))
"""


@pytest.mark.parametrize("block, transform, expected", [
    ("Block(rngs)", "nnx.jit", [(9, "JNP301")]),  # self.block(x) runs Block.__call__, once per trace
    ("Block(rngs)", "nnx.grad", []),  # no cached trace: the print runs on every call
    ("Block(rngs) if rngs else Block(rngs)", "nnx.jit", []),  # not one class's call
    ("nnx.Linear(3, 3, rngs=rngs)", "nnx.jit", []),  # a framework layer: not the project's
])
def test_the_submodule_of_an_nnx_module_in_one_file(lint_source, block, transform, expected):
    contract = {(9, "JNP301")}  # Block.__call__'s print: NNX traces it (measured under nnx.jit), whatever calls it
    found = findings(lint_source, NNX_SAME_FILE.format(block=block, transform=transform))
    assert found == sorted(set(expected) | contract)


def test_a_submodule_assigned_outside_init_is_not_followed(lint_source):
    source = NNX_SAME_FILE.format(block="Block(rngs)", transform="nnx.jit").replace(
        "        self.total = 0\n", "        self.total = 0\n\n    def reset(self, rngs):\n"
                                    "        self.block = Block(rngs)\n")
    assert findings(lint_source, source) == [(9, "JNP301")]  # Block.__call__'s print, by NNX's contract


INHERITING = """\
import numpy as np
from flax import nnx


class Base(nnx.Module):
    def __call__(self, x):
        print(x)
        return x

    def score(self, x):
        return np.asarray(x)


class Net(Base):
    {body}
"""


@pytest.mark.parametrize("body, calls, expected", [
    ("pass", "model(x)", [(7, "JNP301")]),  # Net runs Base.__call__, and Base.score
    ("pass", "model.score(x)", [(11, "JNP201")]),
    ("def __call__(self, x):\n        return x", "model(x)", []),  # its own __call__
    ("__call__ = None", "model(x)", []),  # bound in its body: not Base's
])
def test_an_inherited_call_runs_the_base_class_method(tmp_path, lint_source, body, calls, expected):
    step = f"@nnx.jit\ndef step(model, x):\n    return {calls}\n\n\nm = Net()\nfor _ in range(3):\n" \
           "    step(m, jnp.ones(3))\n"
    models = INHERITING.format(body=body)
    expected = sorted(set(expected) | {(7, "JNP301")})  # Base.__call__'s print, by NNX's contract
    assert findings(lint_source, models + step) == expected
    train = f"import jax.numpy as jnp\nfrom flax import nnx\n\nfrom .models import Net\n\n\n{step}"
    write_package(tmp_path, models=models, train=train)
    assert codes_at(lint(tmp_path, "pkg/models.py")) == expected


@pytest.mark.parametrize("package, reported", [("nnxpkg", 4), ("eqxpkg", 8)])
def test_the_framework_fixtures_agree_across_jobs_files_and_stdin(package, reported):
    paths = sorted((FIXTURES / "frameworks" / package).glob("*.py"))
    serial, parallel = serial_and_parallel(FIXTURES, paths)
    assert len([line for line in serial if f"frameworks/{package}/models.py" in line]) == reported
    assert parallel == serial
    one_by_one = sorted(line for path in reversed(paths) for line in flake8([str(path.relative_to(FIXTURES))],
                                                                            FIXTURES))
    assert one_by_one == serial
    assert stdin_mismatches(FIXTURES, paths, serial) == []


LOCAL_MODULE = """\
import equinox as eqx
import jax
import jax.numpy as jnp


def test_counts_its_calls():
    class Counted(eqx.Module):
        def __call__(self, x):
            nonlocal called
            called = True
            return x + 1

    called = False
    {use}
    assert called
"""


@pytest.mark.parametrize("use, expected", [
    ("module = Counted()\n    module(jnp.array(0))", []),  # built and called here: eager, every call
    ("Counted()(jnp.array(0))", []),
    ("module = Counted()\n    eqx.filter_jit(lambda m, x: m(x))(module, jnp.array(0))", [(10, "JNP302")]),
    ("module = Counted()\n    run(module)", [(10, "JNP302")]),  # handed on: the framework's contract
])
def test_a_module_class_a_def_only_builds_and_calls_runs_as_those_calls(lint_source, use, expected):
    """Equinox's own tests define a Module in a test and call it eagerly, counting calls with
    ``nonlocal`` (measured: the flag is set on every eager call); handed to a transform or to
    another function, the class's ``__call__`` is traced by contract."""
    assert findings(lint_source, LOCAL_MODULE.format(use=use)) == expected


GATED_LAYER = """\
from flax import nnx


class Gated(nnx.Module):
    def __init__(self, rngs):
        self.gate = nnx.Param(jnp.ones(()))
        self.on = True


{step}
"""


@pytest.mark.parametrize("step, expected", [
    # annotated with the same-file Module, or given one by every call: its Variables hold tracers
    ("@nnx.jit\ndef f(layer: Gated):\n    if layer.gate[...] > 0:\n        return 1", [(12, "JNP202")]),
    ("@nnx.jit\ndef f(layer: Gated):\n    if layer.gate.value > 0:\n        return 1", [(12, "JNP202")]),
    ("@nnx.jit\ndef f(layer):\n    if layer.gate[...] > 0:\n        return 1\n\n\nf(Gated(nnx.Rngs(0)))",
     [(12, "JNP202")]),
    ("@nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)\ndef f(x, layer: Gated):\n"
     "    if layer.gate[...] > 0:\n        return x\n    return x", [(12, "JNP202")]),
    # its Python fields stay static; a class the file cannot place says nothing
    ("@nnx.jit\ndef f(layer: Gated):\n    if layer.on:\n        return 1", []),
    ("@nnx.jit\ndef f(layer):\n    if layer.gate[...] > 0:\n        return 1", []),
    ("def f(layer: Gated):\n    if layer.gate[...] > 0:\n        return 1", []),
])
def test_a_traced_parameter_of_a_module_class_holds_its_traced_variables(lint_source, step, expected):
    """A Module handed to an NNX transform as an argument holds, in the transformed function, what
    its ``self`` holds in its methods (``conventions.module_instance``): its Variables are tracers."""
    assert findings(lint_source, GATED_LAYER.format(step=step)) == expected
