"""Flax linen Modules traced through ``apply``: ``jax.jit(model.apply)``, ``model.apply`` in a
traced function (also under ``jax.grad`` of a loss that calls it, and in another module than
the Module's), ``method=``, and submodules assigned in ``setup``. Fields are static Python
values, and a Python value the parent passes stays one. Framework-shaped input: linted
without Flax installed (``fixtures/frameworks/linenpkg`` is confirmed at runtime with it)."""
import pytest

from conftest import FIXTURES
from flake8_runs import flake8
from test_project import codes_at, lint
from test_project_roots import write_package
from test_values_through_helpers import findings

LINEN = FIXTURES / "frameworks" / "linenpkg"


def test_the_fixture_names_where_each_module_is_applied():
    found = flake8([str(path.relative_to(FIXTURES)) for path in sorted(LINEN.glob("*.py"))], FIXTURES)
    found.sort(key=lambda line: (line.split(":")[0], int(line.split(":")[1])))
    assert [(line.split(":")[0], int(line.split(":")[1]), line.split(": ")[1][:6]) for line in found] == [
        ("frameworks/linenpkg/dropout.py", 22, "JNP601"), ("frameworks/linenpkg/local.py", 20, "JNP301"), ("frameworks/linenpkg/local.py", 50, "JNP201"),
        ("frameworks/linenpkg/models.py", 14, "JNP301"),
        ("frameworks/linenpkg/models.py", 32, "JNP201"), ("frameworks/linenpkg/models.py", 58, "JNP202"),
        ("frameworks/linenpkg/models.py", 78, "JNP201"), ("frameworks/linenpkg/models.py", 106, "JNP301"),
        ("frameworks/linenpkg/models.py", 110, "JNP201"), ("frameworks/linenpkg/models.py", 123, "JNP202"),
        ("frameworks/linenpkg/precision.py", 18, "JNP401"), ("frameworks/linenpkg/precision.py", 25, "JNP401"),
        ("frameworks/linenpkg/precision.py", 53, "JNP401"), ("frameworks/linenpkg/precision.py", 60, "JNP401"),
        ("frameworks/linenpkg/precision.py", 120, "JNP402"), ("frameworks/linenpkg/precision.py", 140, "JNP402"),
        ("frameworks/linenpkg/schedules.py", 12, "JNP202"),
        ("frameworks/linenpkg/state.py", 14, "JNP202"), ("frameworks/linenpkg/state.py", 64, "JNP102")]
    dropped, encode, pooled, printed, scored, sign, root, encoded, decoded, objective, _, _, _, _, _, _, scheduled, \
        gated, _ = found
    assert "called through state.apply_gradients from 'train_step'" in scheduled  # the TrainState's tx= update
    assert "'key' is consumed again on every iteration of the loop on line 21" in dropped  # rngs={"dropout": key}
    assert "jax.jit (called from 'encode_step' at line 29)" in encode  # method=AutoEncoder.encode
    assert "in 'pool' raises TracerArrayConversionError under jax.jit;" in pooled  # method=pooler.pool
    assert "jax.jit (called through state.apply_fn from 'loss_fn' at line 27)" in gated  # apply_fn=module.apply
    assert "jax.jit (applied in frameworks/linenpkg/train.py:13)" in printed  # jax.jit(logger.apply)
    assert "jax.jit (called from 'score_step' in frameworks/linenpkg/train.py:37)" in scored
    assert "(called from 'loss_fn' in frameworks/linenpkg/train.py:64, traced from 'train_step'" in sign
    assert "(called from 'stack_step' in frameworks/linenpkg/train.py:83)" in root  # state.apply_fn
    assert "jax.jit (called from 'encode_step' in frameworks/linenpkg/train.py:107)" in encoded  # method=Codec.encode
    assert "jax.jit (called from 'decode_step' in frameworks/linenpkg/train.py:112)" in decoded  # method="decode"
    assert "jax.jit (applied in frameworks/linenpkg/train.py:128)" in objective  # jax.jit(objective.loss)


MODELS = """import flax.linen as nn
import numpy as np


class MLP(nn.Module):
    def __call__(self, x, depth=1):
        print(x)
        if depth > 1:
            x = -x
        return x

    def encode(self, x):
        return np.tanh(x)


class Plain:
    def __call__(self, x, depth=1):
        print(x)
        if depth > 1:
            return np.tanh(x)
        return x

    def apply(self, variables, x, depth=1):
        return self(x, depth)
"""


@pytest.mark.parametrize("train, expected", [
    # model.apply in a jitted step: __call__ gets what follows the variables
    ("model = MLP()\n\n@jax.jit\ndef step(v, x):\n    return model.apply(v, x)\n", [(7, "JNP301")]),
    ("model = MLP()\n\n@jax.jit\ndef step(v, x):\n    return model.apply(v, x, x, rngs=x)\n",
     [(7, "JNP301"), (8, "JNP202")]),
    ("@jax.jit\ndef step(v, x):\n    model = MLP()\n    return model.apply(v, x, depth=x)\n",
     [(7, "JNP301"), (8, "JNP202")]),
    # under jax.grad of a loss inside the jitted step: the loss's arguments are tracers there
    ("model = MLP()\n\ndef loss(v, x):\n    return model.apply(v, x, x).sum()\n\n"
     "@jax.jit\ndef step(v, x):\n    return jax.value_and_grad(loss, has_aux=False)(v, x)\n",
     [(7, "JNP301"), (8, "JNP202")]),
    # a Python value passed on stays one; untraced, a static argument: silent
    ("model = MLP()\n\n@jax.jit\ndef step(v, x):\n    return model.apply(v, 1.0)\n", []),
    ("model = MLP()\n\ndef step(v, x):\n    return model.apply(v, x, x)\n", []),
    ("model = MLP()\n\ndef loss(v, x):\n    return model.apply(v, x, x).sum()\n\n"
     "@jax.jit\ndef step(v, x):\n    return jax.jit(loss, static_argnums=1)(v, x)\n", []),
    # method=MLP.encode: that method gets what follows the variables
    ("model = MLP()\n\n@jax.jit\ndef step(v, x):\n    return model.apply(v, x, method=MLP.encode)\n",
     [(13, "JNP201")]),
    # no linen Module, a name bound twice: not known
    ("model = Plain()\n\n@jax.jit\ndef step(v, x):\n    return model.apply(v, x, x)\n", []),
    ("model = MLP()\nmodel = None\n\n@jax.jit\ndef step(v, x):\n    return model.apply(v, x, x)\n", []),
])
def test_apply_in_a_traced_function_of_another_module(tmp_path, train, expected):
    write_package(tmp_path, models=MODELS, train=f"import jax\n\nfrom .models import MLP, Plain\n\n{train}")
    contract = {(7, "JNP301")}  # the print in MLP.__call__: linen traces it, whatever the chain
    assert codes_at(lint(tmp_path, "pkg/models.py")) == sorted(set(expected) | contract)


SUBMODULES = """\
import flax.linen as nn

class Block(nn.Module):
    def __call__(self, x, depth):
        if depth > 1:
            x = -x
        return np.tanh(x)

class Net(nn.Module):
    width: int = 3

    def setup(self):
        self.block = Block()
        self.dense = nn.Dense(3)

    def __call__(self, x):
        if self.width > 2:
            x = x + 1
        return self.block(x, {depth}) + self.dense(x)

net = Net()
fast = jax.jit(net.apply)
"""


@pytest.mark.parametrize("body, expected", [
    # self.block(x, ...) runs Block.__call__ with what Net passes: a Python int stays static
    (SUBMODULES.format(depth="2"), [(7, "JNP201")]),
    (SUBMODULES.format(depth="x"), [(5, "JNP202"), (7, "JNP201")]),
    # assigned twice (linen refuses it) or outside setup: not known
    (SUBMODULES.format(depth="x").replace("self.dense = nn.Dense(3)", "self.block = Block()"), []),
    (SUBMODULES.format(depth="x").replace("def setup(self)", "def prepare(self)"), []),
    # a plain object setup stores: its __call__ runs where it is called, as an NNX module's would
    (SUBMODULES.format(depth="x").replace("class Block(nn.Module)", "class Block"), [(5, "JNP202"), (7, "JNP201")]),
])
def test_submodules_assigned_in_setup(lint_source, body, expected):
    assert findings(lint_source, body) == expected


METHODS = """\
import flax.linen as nn

class Net(nn.Module):
    def __call__(self, x):
        return x

    def encode(self, x, scale):
        if scale > 1:
            x = x * scale
        return np.tanh(x)

class Other(nn.Module):
    def encode(self, x, scale):
        return x

net = Net()

@jax.jit
def step(variables, x):
    return net.apply(variables, x, {arguments})
"""


@pytest.mark.parametrize("arguments, expected", [
    ("2, method=Net.encode", [(10, "JNP201")]),
    ("x, method='encode'", [(8, "JNP202"), (10, "JNP201")]),
    ("x, method=Other.encode", []),  # a method of another class: not Net's
    ("x, method=pick", []),  # not known
])
def test_apply_with_method_in_the_same_file(lint_source, arguments, expected):
    assert findings(lint_source, METHODS.format(arguments=arguments)) == expected


@pytest.mark.parametrize("step, expected", [
    # grad traces nothing by itself: under the jit, the function gets the call's tracers
    ("return jax.grad(helper)(x)", [(5, "JNP201")]),
    ("return jax.value_and_grad(helper, has_aux=True)(x)", [(5, "JNP201")]),
    ("return jax.grad(helper)(1.0)", []),
    ("return jax.jit(helper, static_argnums=0)(x)", []),  # a static argument is no tracer
])
def test_a_transformed_function_of_another_module_gets_the_calls_tracers(tmp_path, step, expected):
    write_package(tmp_path, helpers="import numpy as np\n\n\ndef helper(x):\n    return np.tanh(x)\n",
                  train=f"import jax\n\nfrom .helpers import helper\n\n\n@jax.jit\ndef step(x):\n    {step}\n")
    assert codes_at(lint(tmp_path, "pkg/helpers.py")) == expected
