"""Framework entry points: ``state.apply_fn(variables, x)`` in traced code runs the function
the file gives as ``apply_fn=`` (``TrainState.create(apply_fn=model.apply, ...)``), when every
such keyword names the same one; and a def nested in a jitted step that the step calls through
a transform (``jax.value_and_grad(loss_fn)(state.params)``) runs under the step's trace.
Linen-shaped input, linted without Flax installed; each shape with look-alikes that stay silent."""
import ast
import shutil

import pytest

from conftest import FIXTURES
from test_project import codes_at, lint
from test_project_roots import write_package
from test_values_through_helpers import HEADER, findings

from flake8_jaxnp import linter
from flake8_jaxnp.options import DEFAULT

MODELS = """\
import flax.linen as nn
import numpy as np


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, depth=1):
        if x.sum() > 0:
            x = -x
        for _ in range(depth):
            x = nn.Dense(3)(x)
        return x


def forward(params, x):
    return np.sin(x) * params
"""
LINEN = MODELS + "\n\nfrom flax.training.train_state import TrainState\n\nmodel = MLP()\n"

STEP = """

@jax.jit
def train_step(state, batch):
    def loss_fn(params):
        return jnp.mean(state.apply_fn({{"params": params}}, {arguments}) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss
"""


def step(created, arguments="batch"):
    return LINEN + created + STEP.format(arguments=arguments)


CREATED = "state = TrainState.create(apply_fn=model.apply, params={}, tx=None)\n"


@pytest.mark.parametrize("body, expected", [
    # model.apply given as apply_fn=: MLP.__call__ runs under the step's jit, after the variables
    (step(CREATED), [(8, "JNP202")]),
    (step(CREATED, "batch, depth=2"), [(8, "JNP202")]),  # a Python int stays static
    (step(CREATED + "other = TrainState.create(apply_fn=model.apply, params={}, tx=None)\n"), [(8, "JNP202")]),
    (step(CREATED.replace("TrainState.create", "TrainState")), [(8, "JNP202")]),  # any callee
    # a plain function given as apply_fn=: it runs with every argument
    (step("state = TrainState.create(apply_fn=forward, params={}, tx=None)\n"), [(8, "JNP202"), (16, "JNP201")]),
    # two different apply_fn= in the file, a model bound twice, an argument that is no tracer,
    # an F of unknown origin, or apply_fn called outside traced code: unknown; MLP.__call__ is
    # traced by linen's contract whatever apply_fn= runs
    (step(CREATED + "other = TrainState.create(apply_fn=forward, params={}, tx=None)\n"), [(8, "JNP202")]),
    (step(CREATED + "model = MLP()\n"), [(8, "JNP202")]),
    (step(CREATED, "1.0"), [(8, "JNP202")]),
    (step("state = TrainState.create(apply_fn=make_apply(), params={}, tx=None)\n"), [(8, "JNP202")]),
    (LINEN + CREATED + "def evaluate(state, batch):\n    return state.apply_fn({'params': state.params}, batch)\n",
     [(8, "JNP202")]),
    (step(""), [(8, "JNP202")]),  # no apply_fn= at all
    (LINEN + CREATED + "class Agent:\n    def apply_fn(self, params, x):\n        return x\n\n"
     "    @partial(jax.jit, static_argnums=0)\n    def step(self, params, x):\n"
     "        return self.apply_fn(params, x)\n",
     [(8, "JNP202")]),  # self.apply_fn: the class's own method
])
def test_apply_fn_runs_the_function_given_as_apply_fn(lint_source, body, expected):
    assert findings(lint_source, body) == expected


def test_the_message_names_the_call_through_apply_fn():
    source = HEADER + step(CREATED)
    found = [f.message for f in linter.lint(ast.parse(source), source.splitlines(True), DEFAULT)]
    line = source.splitlines().index("        return jnp.mean(state.apply_fn({\"params\": params}, batch) ** 2)") + 1
    assert len(found) == 1
    assert f"'__call__' is traced by jax.jit (called through state.apply_fn from 'loss_fn' at line {line});" in found[0]


@pytest.mark.parametrize("body, expected", [
    # a def nested in a jitted step, called through grad: under the step's jit its truth tests fail
    ("@jax.jit\ndef step(p, x):\n    def loss(p):\n        if p.sum() > 0:\n            return 1.0\n"
     "        return (p * x).sum()\n    return jax.grad(loss)(p)\n", [(4, "JNP202")]),
    ("@jax.jit\ndef step(p, x):\n    def loss(q):\n        if x.sum() > 0:\n            return q\n        return -q\n"
     "    return jax.grad(loss)(1.0)\n", [(4, "JNP202")]),  # it reads the step's tracer x
    # under grad alone comparisons work; a top-level def given no tracer is not under the step's trace
    ("def step(p, x):\n    def loss(p):\n        if p.sum() > 0:\n            return 1.0\n"
     "        return (p * x).sum()\n    return jax.grad(loss)(p)\n", []),
    ("def loss(q):\n    if q > 0:\n        return q\n    return -q\n\n"
     "@jax.jit\ndef step(x):\n    return x * jax.grad(loss)(1.0)\n", []),
])
def test_a_nested_def_called_through_a_transform_runs_under_the_callers_trace(lint_source, body, expected):
    assert findings(lint_source, body) == expected


TRAIN = "import jax\nimport jax.numpy as jnp\nfrom flax.training.train_state import TrainState\n\n" \
    "from .models import MLP, forward\n\nmodel = MLP()\n{created}\n" + STEP


@pytest.mark.parametrize("created, arguments, expected", [
    # another module's linen Module (its @nn.compact __call__), after the variables; a plain function
    (CREATED, "batch", [(8, "JNP202")]),
    (CREATED, "batch, depth=2", [(8, "JNP202")]),
    (CREATED.replace("model.apply", "forward"), "batch", [(16, "JNP201")]),
    # no tracer passed, two different apply_fn=, a model bound twice: silent
    (CREATED, "1.0", []),
    (CREATED + "other = TrainState.create(apply_fn=forward, params={}, tx=None)\n", "batch", []),
    (CREATED + "model = None\n", "batch", []),
])
def test_apply_fn_runs_a_function_of_another_module(tmp_path, created, arguments, expected):
    write_package(tmp_path, models=MODELS, train=TRAIN.format(created=created, arguments=arguments))
    found = [line for line in lint(tmp_path, "pkg/models.py") if "flax.linen.Module (" not in line]  # the chain's
    assert codes_at(found) == expected
    if expected:
        assert "jax.jit (called from 'train_step' in pkg/train.py:15)" in found[0]


@pytest.mark.parametrize("old, new", [
    ("apply_fn=forward", "apply_fn=None"),  # the keyword no longer names nets.forward
    ("state.apply_fn(params, batch)", "state.apply_fn(params, 1.0)"),  # no tracer passed
])
def test_a_change_of_what_apply_fn_runs_is_seen_with_a_warm_cache(tmp_path, old, new):
    package = tmp_path / "applypkg"
    shutil.copytree(FIXTURES / "applypkg", package, ignore=shutil.ignore_patterns("__pycache__"))
    train = package / "train.py"
    text = train.read_text()
    assert codes_at(lint(tmp_path, "applypkg/nets.py")) == [(6, "JNP202")]
    assert old in text
    train.write_text(text.replace(old, new))
    assert codes_at(lint(tmp_path, "applypkg/nets.py")) == []
    train.write_text(text)
    assert codes_at(lint(tmp_path, "applypkg/nets.py")) == [(6, "JNP202")]
