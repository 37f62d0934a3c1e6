"""Traced code reached through an object: a step's parameter that every call of the step in
the file passes an instance of one same-file class runs that class's __call__ and methods
under the trace (the Equinox, NNX and pytree-module training loop), with look-alikes that
must stay silent."""
import ast

import pytest

from flake8_jaxnp import linter
from flake8_jaxnp.options import DEFAULT
from test_project import codes_at, lint
from test_project_roots import write_package
from test_values_through_helpers import HEADER, findings

MODEL = """\
class Model:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        print(x)
        return self.w @ x

    def loss(self, x):
        if x.sum() > 0:
            return x
        return -x

    def to_host(self, x):
        return np.asarray(x)
jax.tree_util.register_pytree_node(Model, lambda m: ((m.w,), None), lambda _, leaves: Model(*leaves))
"""
OTHER = """\
class Other:
    def __call__(self, x):
        print(x)
        return x
jax.tree_util.register_pytree_node(Other, lambda o: ((), None), lambda _, leaves: Other())
"""
PRINT, BRANCH, HOST = (6, "JNP301"), (10, "JNP202"), (15, "JNP201")


@pytest.mark.parametrize("body, expected", [
    # the step's every call passes a Model: model(x) runs __call__, model.loss(x) runs loss
    ("@jax.jit\ndef step(m, x):\n    return m(x)\n\nm = Model(jnp.ones((3, 3)))\nfor _ in range(5):\n"
     "    y = step(m, jnp.ones(3))\n", [PRINT]),
    ("@jax.jit\ndef step(m, x):\n    return m.loss(x)\n\nm = Model(1.0)\nstep(m, jnp.ones(3))\n", [BRANCH]),
    ("@jax.jit\ndef step(x, *, model):\n    return model(x)\n\nm = Model(1.0)\nstep(jnp.ones(3), model=m)\n", [PRINT]),
    ("def step(m, x):\n    return m(x)\n\nfast = jax.jit(step)\nm = Model(1.0)\nfast(m, jnp.ones(3))\n", [PRINT]),
    ("def run(x):\n    m = Model(1.0)\n    return jax.jit(lambda model, v: model.loss(v))(m, x)\n", [BRANCH]),
    ("fast = jax.jit(lambda model, v: model(v))\nm = Model(1.0)\nfast(m, jnp.ones(3))\n", [PRINT]),
    ("def loss(model, v):\n    return model.loss(v).sum()\n\nm = Model(1.0)\n"
     "jax.jit(jax.grad(loss, 1))(m, jnp.ones(3))\n", [BRANCH]),
    # a closure given the parameter: jax.grad(loss_fn)(model)
    ("@jax.jit\ndef step(model, x):\n    def loss_fn(mod):\n        return mod.to_host(x).sum()\n"
     "    return jax.grad(loss_fn)(model)\n\nm = Model(1.0)\nstep(m, jnp.ones(3))\n", [HOST]),
    # the loop-carried update returns the object's own structure: the same class
    ("@jax.jit\ndef step(m, x):\n    y = m(x)\n    return m, y\n\nm = Model(1.0)\nfor _ in range(3):\n"
     "    m, y = step(m, jnp.ones(3))\n", [PRINT]),
    ("@jax.jit\ndef step(m, x):\n    y = m(x)\n    m = jax.tree.map(lambda w: w - y.sum(), m)\n    return m\n\n"
     "m = Model(1.0)\nfor _ in range(3):\n    m = step(m, jnp.ones(3))\n", [PRINT]),
    # the object built in the call, as a name bound to it is
    ("@jax.jit\ndef step(m, x):\n    return m(x)\n\nstep(Model(1.0), jnp.ones(3))\n", [PRINT]),
    # a local object's method, as its __call__ already was
    ("@jax.jit\ndef step(x):\n    m = Model(1.0)\n    return m.loss(x)\n", [BRANCH]),
    # through a training function that returns the model its loop carries
    ("@jax.jit\ndef step(m, x):\n    new = jax.tree.map(lambda w: w * 0.9, m)\n    return m(x), new\n\n"
     "def train(m, n):\n    for _ in range(n):\n        loss, m = step(m, jnp.ones(3))\n    return m\n\n"
     "m = Model(1.0)\nm = train(m, 3)\n", [PRINT]),
])
def test_a_step_runs_the_methods_of_the_object_every_call_passes(lint_source, body, expected):
    assert findings(lint_source, MODEL + body) == expected


def test_parts_of_a_tuple_display_assigned_to_a_tuple_target_are_read_as_assigned_alone(lint_source):
    body = ("@jax.jit\ndef step(m, x):\n    return m(x)\n\na, b = Model(1.0), Other()\nstep(a, jnp.ones(3))\n"
            "step(b, jnp.ones(3))\n")
    assert findings(lint_source, MODEL + OTHER + body) == [PRINT, (19, "JNP301")]  # each class's print, traced


@pytest.mark.parametrize("body", [
    # a caller passes what the model does not read (a tuple's item), or something else
    "@jax.jit\ndef step(m, x):\n    return m(x)\n\npair = Model(1.0), Other()\na, b = pair\nstep(a, jnp.ones(3))\n"
    "step(b, jnp.ones(3))\n",
    "@jax.jit\ndef step(m, x):\n    return m(x)\n\nm = Model(1.0)\nstep(m, jnp.ones(3))\nstep(jnp.tanh, jnp.ones(3))\n",
    # the step escapes (passed on, so other calls may pass anything), or is never called
    "@jax.jit\ndef step(m, x):\n    return m(x)\n\nm = Model(1.0)\nstep(m, jnp.ones(3))\nregistry = [step]\n",
    "@jax.jit\ndef step(m, x):\n    return m(x)\n",
    # a rebinding to a result that is not the object's structure, or to another class
    "@jax.jit\ndef step(m, x):\n    return m(x), m\n\nm = Model(1.0)\nfor _ in range(3):\n"
    "    m, y = step(m, jnp.ones(3))\n",
    "@jax.jit\ndef step(m, x):\n    return m(x)\n\nm = Model(1.0)\nstep(m, jnp.ones(3))\nm = Other()\n",
    "@jax.jit\ndef step(m, x):\n    return m(x)\n\ndef swap(a, b):\n    return b, a\n\nm = Model(1.0)\no = Other()\n"
    "m, o = swap(m, o)\nstep(m, jnp.ones(3))\n",
    # the object's methods called outside traced code
    "def run(m, x):\n    return m(x) + m.loss(x)\n\nm = Model(1.0)\nrun(m, jnp.ones(3))\n",
    # a static method binds no self: what its positions get is not read
    "class Tool:\n    @staticmethod\n    def check(x):\n        if x.sum() > 0:\n            return x\n"
    "        return -x\n\njax.tree_util.register_static(Tool)\n\n"
    "@jax.jit\ndef step(t, x):\n    return t.check(x)\n\nt = Tool()\nstep(t, jnp.ones(3))\n",
    # a Python value, not a tracer, reaches the method
    "@jax.jit\ndef step(m, x):\n    return m.loss(3)\n\nm = Model(1.0)\nstep(m, jnp.ones(3))\n",
])
def test_the_object_is_not_known_or_its_methods_see_no_tracer(lint_source, body):
    assert findings(lint_source, MODEL + OTHER + body) == []


def test_a_factory_s_returns_settle_the_class(lint_source):
    body = ("def make():\n    return Model(1.0)\n\n@jax.jit\ndef step(m, x):\n    return m(x)\n\n"
            "step(make(), jnp.ones(3))\n")
    assert findings(lint_source, MODEL + OTHER + body) == [PRINT]


@pytest.mark.parametrize("calls, expected", [
    # each class's __call__ runs for the callers that pass it
    ("step(Model(1.0), jnp.ones(3))\nstep(Other(), jnp.ones(3))\n", [PRINT, (19, "JNP301")]),
    ("a = Model(1.0)\nb = Other()\nstep(a, jnp.ones(3))\nstep(b, jnp.ones(3))\n", [PRINT, (19, "JNP301")]),
    # one name bound to two classes: which one the call sees is not read
    ("a = Model(1.0)\na = Other()\nstep(a, jnp.ones(3))\n", []),
])
def test_callers_that_pass_two_classes_run_each_class_s_method(lint_source, calls, expected):
    body = "@jax.jit\ndef step(m, x):\n    return m(x)\n\n" + calls
    assert findings(lint_source, MODEL + OTHER + body) == expected


STEP_OF_BUILT = ("@jax.jit\ndef step(m, x):\n    return m.loss(x)\n\n"
                 "def build(cls=Model):\n    m = cls(1.0)\n    return m, jnp.ones(3)\n\n")


@pytest.mark.parametrize("calls, expected", [
    # the class a parameter names: its default, or a class handed on by the caller's own parameter
    ("m, x = build()\nstep(m, x)\n", [BRANCH]),
    ("def run(cls=Model):\n    m, x = build(cls)\n    return step(m, x)\n\nrun()\n", [BRANCH]),
    ("def run(cls):\n    m, x = build(cls)\n    return step(m, x)\n\nrun(Model)\nrun(Other)\n", [BRANCH]),
    # a caller that gives something else than a class, or a parameter handed round in a cycle: not known
    ("m, x = build(lambda w: Model(w))\nstep(m, x)\n", []),
    ("def run(cls):\n    m, x = build(cls)\n    return step(m, x)\n\nrun(Model)\nrun(make_model)\n", []),
    ("def run(cls):\n    m, x = build(cls)\n    step(m, x)\n    return run(cls)\n\nrun(cls=Model)\n", []),
])
def test_a_class_valued_parameter_settles_the_class_of_what_it_builds(lint_source, calls, expected):
    assert findings(lint_source, MODEL + OTHER + STEP_OF_BUILT + calls) == expected


@pytest.mark.parametrize("construction, expected", [
    ("Trainer().step(jnp.ones(3))\n", [BRANCH]),  # __init__'s default names the class
    ("Trainer(Model).step(jnp.ones(3))\n", [BRANCH]),
    ("Trainer(lambda w: Model(w)).step(jnp.ones(3))\n", []),
])
def test_the_class_an_init_parameter_names_builds_the_stored_object(lint_source, construction, expected):
    trainer = ("class Trainer:\n    def __init__(self, model_cls=Model):\n        self.model = model_cls(2.0)\n\n"
               "    @partial(jax.jit, static_argnums=0)\n    def step(self, x):\n        return self.model.loss(x)\n\n")
    assert findings(lint_source, MODEL + trainer + construction) == expected


def test_the_message_names_the_step_the_object_was_called_from():
    step = "@jax.jit\ndef step(m, x):\n    return m.loss(x)\n\nm = Model(1.0)\nstep(m, jnp.ones(3))\n"
    source = HEADER + MODEL + step
    [finding] = linter.lint(ast.parse(source), source.splitlines(True), DEFAULT)
    assert "traced by jax.jit (called from 'step' at line 24)" in finding.message  # the line of m.loss(x)


LAYERS = """\
import jax.numpy as jnp


class Block:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        print(x)
        return self.w * x
"""


@pytest.mark.parametrize("calls, expected", [
    ("b = Block(1.0)\nstep(b, jnp.ones(3))\n", [(9, "JNP301")]),
    ("b = layers.Block(1.0)\nfor _ in range(3):\n    b, y = step(b, jnp.ones(3))\n", [(9, "JNP301")]),
    # another class, or something else, in one of the calls; no call at all
    ("b = Block(1.0)\nstep(b, jnp.ones(3))\nstep(jnp.tanh, jnp.ones(3))\n", []),
    ("", []),
])
def test_a_step_runs_the_call_of_an_imported_class_every_call_passes(tmp_path, calls, expected):
    write_package(tmp_path, layers=LAYERS,
                  train="import jax\nimport jax.numpy as jnp\n\nfrom . import layers\nfrom .layers import Block\n\n\n"
                        "@jax.jit\ndef step(block, x):\n    return block, block(x)\n\n\n" + calls)
    for _ in range(2):  # a cold cache, then a warm one
        found = lint(tmp_path, "pkg/layers.py")
        assert codes_at(found) == expected
    if expected:
        assert "jax.jit (called from 'step' in pkg/train.py:10)" in found[0]


NETS = """\
import jax.numpy as jnp


class Net:
    def apply(self, p, x):
        print(x)
        return p * x


class Quiet:
    def apply(self, p, x):
        return p * x
"""
MODEL_STEPS = """\
import jax

from . import nets  # (a module that imports none of the project traces only what it is handed)


def make_step(model):
    def objective(p, x):
        return model.apply(p, x).sum()

    def step(p, x):
        return p - jax.grad(objective)(p, x)

    return jax.jit(step)
"""


@pytest.mark.parametrize("script, expected", [
    # the object is an item of the tuple a setup returns, built of the class its parameter names
    ("def setup(cls=Quiet):\n    model = cls()\n    return model, 1.0\n\n\n"
     "def train(cls=Quiet):\n    model, p = setup(cls)\n    return make_step(model)(p, jnp.ones(3))\n\n\n"
     "train(Net)\n", [(6, "JNP301")]),
    ("def setup():\n    return Net(), 1.0\n\n\ndef train():\n"
     "    model, p = setup()\n    return make_step(model)(p, jnp.ones(3))\n", [(6, "JNP301")]),
    # only the default, another item of the tuple, or a name the def binds twice
    ("def setup(cls=Quiet):\n    model = cls()\n    return model, 1.0\n\n\n"
     "def train():\n    model, p = setup()\n    return make_step(model)(p, jnp.ones(3))\n", []),
    ("def setup():\n    return Quiet(), Net()\n\n\ndef train():\n"
     "    model, other = setup()\n    return make_step(model)(1.0, jnp.ones(3))\n", []),
    ("def setup():\n    return Net(), 1.0\n\n\ndef train():\n    model, p = setup()\n    model = Quiet()\n"
     "    return make_step(model)(p, jnp.ones(3))\n", []),
])
def test_a_factory_s_object_unpacked_from_a_setup_s_tuple_of_another_module(tmp_path, script, expected):
    write_package(tmp_path, nets=NETS, steps=MODEL_STEPS,
                  train="import jax.numpy as jnp\n\nfrom .nets import Net, Quiet\nfrom .steps import make_step\n\n\n"
                        + script)
    for _ in range(2):  # a cold cache, then a warm one
        assert codes_at(lint(tmp_path, "pkg/nets.py")) == expected


EQX_MODEL = """\
import equinox as eqx
from flax import nnx


class Model(eqx.Module):
    w: jax.Array

    def __call__(self, x):
        print(x)
        return self.w @ x

    def to_host(self, x):
        return np.asarray(x)

"""


@pytest.mark.parametrize("body, expected", [
    # filter_jit traces the arrays: those every call passes an array for
    ("@eqx.filter_jit\ndef step(m, x):\n    return m(x)\n\nm = Model(jnp.ones((3, 3)))\nfor _ in range(3):\n"
     "    y = step(m, jnp.ones(3))\n", [(9, "JNP301")]),
    ("@eqx.filter_jit\ndef step(m, x):\n    def loss(model):\n        return model.to_host(x).sum()\n"
     "    return eqx.filter_grad(loss)(m)\n\nm = Model(jnp.ones((3, 3)))\n"
     "m = eqx.apply_updates(m, step(m, jnp.ones(3)))\n", [(13, "JNP201")]),
    # a Python scalar stays static under filter_jit; one call passes one, or the call is not seen
    ("@eqx.filter_jit\ndef step(m, x):\n    return m(x)\n\nm = Model(jnp.ones((3, 3)))\nstep(m, 3.0)\n", []),
    ("@eqx.filter_jit\ndef step(m, x):\n    return m(x)\n\nm = Model(jnp.ones((3, 3)))\nstep(m, jnp.ones(3))\n"
     "step(m, 3.0)\n", []),
    ("@eqx.filter_jit\ndef step(m, x):\n    return m(x)\n\nm = Model(jnp.ones((3, 3)))\nstep(m, *[jnp.ones(3)])\n", []),
    # NNX: a closure given the model through nnx.value_and_grad
    ("@nnx.jit\ndef train_step(model, x):\n    def loss_fn(model):\n        return model.to_host(x).sum()\n"
     "    loss, grads = nnx.value_and_grad(loss_fn)(model)\n    return loss\n\nmodel = Model(jnp.ones((3, 3)))\n"
     "for _ in range(3):\n    train_step(model, jnp.ones(3))\n", [(13, "JNP201")]),
])
def test_equinox_and_nnx_steps(lint_source, body, expected):
    contract = {(9, "JNP301")}  # the print in __call__: the framework traces it, whatever the step
    assert findings(lint_source, EQX_MODEL + body) == sorted(set(expected) | contract)
