"""The framework shapes that reach another module's classes through an object: a module given to
a transform (``jax.vmap(model)(xs)``), a loss of another module that calls the model a step gives
it, an Equinox Module's array fields read through ``self``, and a linen Module's ``apply`` with
``method=``; each with look-alikes that stay silent, and a changed module seen with a warm cache.
Framework-shaped input, linted without the frameworks (``fixtures/frameworks`` is confirmed at
runtime with them)."""
import pytest

from test_linen_modules import METHODS
from test_project import codes_at, lint
from test_project_roots import write_package

EQX_MODELS = """\
import equinox as eqx
import jax
import numpy as np


class Model(eqx.Module):
    w: jax.Array
    depth: int = 2

    def __call__(self, x):
        print(x)
        return self.w @ x

    def host(self, x):
        for _ in range(self.depth):
            x = x * 2
        return x * np.asarray(self.w)


class Other(eqx.Module):
    def __call__(self, x):
        return x
"""
PRINT, HOST = (11, "JNP301"), (17, "JNP201")
STEP = """\
import equinox as eqx
import jax
import jax.numpy as jnp

from .models import Model, Other


@eqx.filter_jit
def step(model, x):
    return {body}


model = Model(jnp.eye(3))
for _ in range(3):
    step(model, jnp.ones(3))
"""


def chained(found):
    """The findings whose message names the step's chain, not Equinox's contract alone."""
    return codes_at([line for line in found if "equinox.Module (" not in line])


@pytest.mark.parametrize("body, expected", [
    ("jax.vmap(model)(x)", [PRINT]),  # vmap traces the object's __call__
    ("jax.vmap(model, in_axes=0)(x)", [PRINT]),
    ("eqx.filter_vmap(model)(x)", [PRINT]),
    # an Equinox Module's __call__ is traced by the framework's contract, whatever the step does
    ("jax.jit(model, static_argnums=0)(x)", [PRINT]),
    ("jax.vmap(other)(x)", [PRINT]),
    ("model.host(x)", [PRINT, HOST]),  # the array field is a tracer; the int field stays static
])
def test_an_object_given_to_a_transform_runs_its_call(tmp_path, body, expected):
    write_package(tmp_path, models=EQX_MODELS, train=STEP.format(body=body))
    assert codes_at(lint(tmp_path, "pkg/models.py")) == expected


@pytest.mark.parametrize("applied, expected", [
    ("jax.jit(model)", [PRINT]),  # a module-level object given to a transform: its __call__, self bound
    ("jax.jit(Model(jnp.eye(3)))", [PRINT]),
    # whatever is applied, Model.__call__ is traced by Equinox's contract
    ("jax.vmap(model)", [PRINT]),
    ("jax.jit(model, static_argnums=0)", [PRINT]),
    ("jax.jit(other)", [PRINT]),
])
def test_a_module_level_object_given_to_a_transform(tmp_path, applied, expected):
    train = f"import jax\nimport jax.numpy as jnp\n\nfrom .models import Model, Other\n\nmodel = Model(jnp.eye(3))\n" \
            f"other = Other()\nfast = {applied}\n"
    write_package(tmp_path, models=EQX_MODELS, train=train)
    assert codes_at(lint(tmp_path, "pkg/models.py")) == expected


LOSSES = """\
import jax


def loss(model, x):
    return (model(x) ** 2).mean()


def batched(model, xs):
    return jax.vmap(model)(xs).mean()


def rebound(model, x):
    model = Other()
    return model(x)
"""


@pytest.mark.parametrize("body, expected", [
    ("losses.loss(model, x)", [PRINT]),
    ("eqx.filter_value_and_grad(losses.loss)(model, x)", [PRINT]),
    ("losses.batched(model, x)", [PRINT]),
    # by Equinox's contract __call__ is traced whatever reaches it
    ("losses.loss(model, 1.0)", [PRINT]),
    ("losses.rebound(model, x)", [PRINT]),
    ("losses.loss(Other(), x)", [PRINT]),
])
def test_a_helper_of_another_module_calls_the_object_its_callers_pass(tmp_path, body, expected):
    write_package(tmp_path, models=EQX_MODELS, losses=LOSSES,
                  train=STEP.format(body=body).replace("from .models", "from . import losses\nfrom .models"))
    assert codes_at(lint(tmp_path, "pkg/models.py")) == expected


def test_callers_that_pass_two_classes_leave_the_object_unknown(tmp_path):
    train = STEP.format(body="losses.loss(model, x)").replace("from .models", "from . import losses\nfrom .models")
    train += "\n\n@eqx.filter_jit\ndef other_step(other, x):\n    return losses.loss(other, x)\n\n\n" \
             "other = Other()\nother_step(other, jnp.ones(3))\n"
    write_package(tmp_path, models=EQX_MODELS, losses=LOSSES, train=train)
    assert chained(lint(tmp_path, "pkg/models.py")) == []


@pytest.mark.parametrize("field, expected", [
    ("w: jax.Array", [PRINT, HOST]),
    ("w: jax.Array = eqx.field(static=True)", [PRINT]),  # a static field: not a leaf the transform traces
    ("w: float", [PRINT]),  # nothing says it is an array
])
def test_which_fields_of_an_equinox_module_are_tracers(tmp_path, field, expected):
    write_package(tmp_path, models=EQX_MODELS.replace("w: jax.Array", field, 1),
                  train=STEP.format(body="model.host(x)"))
    assert codes_at(lint(tmp_path, "pkg/models.py")) == expected


@pytest.mark.parametrize("transform, base, expected", [
    ("eqx.filter_jit", "eqx.Module", [HOST]),
    ("jax.jit", "eqx.Module", []),  # every leaf traced: not what this reads (the int field too)
    ("eqx.filter_jit", "object", []),  # no Equinox Module: a leaf the filter keeps static
])
def test_fields_are_traced_only_for_an_equinox_module_given_to_a_filter_transform(
        tmp_path, transform, base, expected):
    write_package(tmp_path, models=EQX_MODELS.replace("class Model(eqx.Module)", f"class Model({base})"),
                  train=STEP.format(body="model.host(x)").replace("@eqx.filter_jit", f"@{transform}"))
    assert [found for found in codes_at(lint(tmp_path, "pkg/models.py")) if found[0] == HOST[0]] == expected


def test_fields_of_a_module_set_by_init_from_jax(tmp_path):
    models = EQX_MODELS.replace("    w: jax.Array\n", "    w: object\n\n    def __init__(self, key):\n"
                                "        self.w = jax.random.normal(key, (3, 3))\n")
    write_package(tmp_path, models=models, train=STEP.format(body="model.host(x)").replace(
        "Model(jnp.eye(3))", "Model(jax.random.PRNGKey(0))"))
    assert (HOST[0] + 3, "JNP201") in codes_at(lint(tmp_path, "pkg/models.py"))


LINEN_MODELS, LINEN_STEP = METHODS.split("net = Net()")  # (the same file's shape, split in two modules)


@pytest.mark.parametrize("arguments, expected", [
    ("2, method=Net.encode", [(11, "JNP201")]),  # a Python int stays static
    ("x, method='encode'", [(9, "JNP202"), (11, "JNP201")]),
    ("x, method=Other.encode", []),  # a method of another class: not Net's
    ("x, method=pick", []),  # not known
    ("x, method='missing'", []),
])
def test_apply_with_method_of_another_modules_module(tmp_path, arguments, expected):
    write_package(tmp_path, models="import numpy as np\n" + LINEN_MODELS,
                  train="import jax\n\nfrom .models import Net, Other\n\nnet = Net()"
                        + LINEN_STEP.format(arguments=arguments))
    assert codes_at(lint(tmp_path, "pkg/models.py")) == expected


def test_a_changed_step_is_seen_with_a_warm_cache(tmp_path):
    package = write_package(tmp_path, models=EQX_MODELS, losses=LOSSES,
                            train=STEP.format(body="losses.loss(model, x)").replace(
                                "from .models", "from . import losses\nfrom .models"))
    assert chained(lint(tmp_path, "pkg/models.py")) == [PRINT]
    (package / "train.py").write_text(STEP.format(body="losses.loss(model, 1.0)").replace(
        "from .models", "from . import losses\nfrom .models"))
    assert chained(lint(tmp_path, "pkg/models.py")) == []
    (package / "losses.py").write_text(LOSSES.replace("(model(x) ** 2)", "(model(jnp.ones(3)) ** 2)"))
    (package / "train.py").write_text(STEP.format(body="losses.loss(model, x)").replace(
        "from .models", "from . import losses\nfrom .models"))
    assert chained(lint(tmp_path, "pkg/models.py")) == []  # the loss no longer passes the step's tracer


def test_the_equinox_training_loop_of_the_docs_across_modules(tmp_path):
    """Equinox's own example, its model in another module: a filter_value_and_grad loss that
    vmaps the model, called by the filter_jit step, the model carried through apply_updates."""
    models = "import equinox as eqx\nimport jax\nimport numpy as np\n\n\nclass MLP(eqx.Module):\n" \
             "    w: jax.Array\n\n    def __call__(self, x):\n        print(x)\n" \
             "        return self.w @ np.asarray(x)\n"
    train = """\
import equinox as eqx
import jax
import jax.numpy as jnp
import optax

from .models import MLP


@eqx.filter_value_and_grad
def compute_loss(model, x, y):
    return jnp.mean((y - jax.vmap(model)(x)) ** 2)


@eqx.filter_jit
def make_step(model, x, y, opt_state):
    loss, grads = compute_loss(model, x, y)
    updates, opt_state = optim.update(grads, opt_state)
    return loss, eqx.apply_updates(model, updates), opt_state


optim = optax.sgd(0.1)
model = MLP(jnp.eye(3))
opt_state = optim.init(model)
for _ in range(3):
    loss, model, opt_state = make_step(model, jnp.ones((4, 3)), jnp.zeros((4, 3)), opt_state)
"""
    write_package(tmp_path, models=models, train=train)
    found = lint(tmp_path, "pkg/models.py")
    assert codes_at(found) == [(10, "JNP301"), (11, "JNP201")]
    assert "(called from 'compute_loss' in pkg/train.py:11, traced from 'make_step' in pkg/train.py:15)" in found[0]


CONVENTION_MODELS = """\
import equinox as eqx
import flax.linen as nn
import jax
import numpy as np


class Linen(nn.Module):
    features: int = 4

    @nn.compact
    def __call__(self, x, train: bool, n=2):
        print(x)
        if train and self.features > n:
            return nn.Dense(self.features)(x)
        return x * np.asarray(x)


class Eqx(eqx.Module):
    w: jax.Array

    def __call__(self, x, times):
        for _ in range(times):
            x = self.w @ x
        return x

    def helper(self, x):
        return np.asarray(x)


class Plain:
    def __call__(self, x):
        print(x)
        return np.asarray(x)
"""


@pytest.mark.parametrize("train, expected", [
    # by the frameworks' contract, whatever calls them (here: nothing in the project): the print and
    # the NumPy call on x; train (bool), n (defaulted), self.features (a field) stay static; `times`
    # is used as a count only, not as an array; a plain method and a class of no framework: not traced
    ("", [(12, "JNP301"), (15, "JNP201")]),
    # the shapes of issue 43, each reaching the same Modules: nothing more, nothing less
    ("apply = jax.jit(Linen().apply)\n", [(12, "JNP301"), (15, "JNP201")]),
    ("def run(module):\n    return jax.jit(module.apply)\n\n\nrun(Linen())\n", [(12, "JNP301"), (15, "JNP201")]),
    ("@eqx.filter_jit\ndef forward(model, x):\n    return model(x, 3)\n\n\nforward(Eqx(jnp.eye(3)), jnp.ones(3))\n",
     [(12, "JNP301"), (15, "JNP201")]),
])
def test_framework_methods_are_traced_by_convention(tmp_path, train, expected):
    header = "import equinox as eqx\nimport jax\nimport jax.numpy as jnp\n\nfrom .models import Eqx, Linen, Plain\n\n\n"
    write_package(tmp_path, models=CONVENTION_MODELS, train=header + train)
    assert codes_at(lint(tmp_path, "pkg/models.py")) == expected


@pytest.mark.parametrize("call, expected", [
    ("Repeat()(x, 2)", []),  # a Python int its parent passes: static
    ("Repeat()(x, x)", [(8, "JNP202")]),
])
def test_a_python_value_a_parent_passes_keeps_a_parameter_static(lint_source, call, expected):
    source = ("import flax.linen as nn\nimport jax.numpy as jnp\n\n\nclass Repeat(nn.Module):\n"
              "    def __call__(self, x, times):\n        x = x.sum() + times.sum()\n"
              "        for _ in range(times):\n            x = jnp.tanh(x)\n        return x\n\n\n"
              f"class Parent(nn.Module):\n    def __call__(self, x):\n        return {call}\n")
    assert lint_source(source) == expected


def test_a_jitted_transform_of_a_loss_gives_tracers_under_filter_jit(lint_source):
    source = ("import equinox as eqx\n\n\ndef loss_fn(model, x):\n    return model(x)\n\n\n@eqx.filter_jit\n"
              "def step(model, x, n):\n    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x)\n"
              "    if n > 1:\n        return grads\n    if loss > 10:\n        return grads\n    return loss\n")
    assert lint_source(source) == [(13, "JNP202")]
