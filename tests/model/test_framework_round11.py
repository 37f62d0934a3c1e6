"""Framework contracts the twenty-second round's held-out shapes asked for (issue 43, round 11): a
linen Module's ``apply`` given traced variables runs ``__call__`` under the caller's transform; a
framework jit's own donation option (``eqx.filter_jit(step, donate="all")``: measured,
``framework_donations``); a static argument that is a new object each iteration, and a slice whose
length is the loop's counter. Linted without the frameworks; ``tests/frameworks_shapes/round11_*.py``
is confirmed at runtime with them."""
import pytest

from flake8_jaxnp import api

EQX = "import equinox as eqx\nimport jax\nimport jax.numpy as jnp\n\n\n"
LINEN = "import flax.linen as nn\nimport jax\nimport jax.numpy as jnp\n\n\n"


def _line(source, text):
    """The number of the first line of ``source`` holding ``text``."""
    return next(number for number, line in enumerate(source.splitlines(), 1) if text in line)


@pytest.mark.parametrize("variables, reported", [
    ('{"params": params}', True),  # the differentiated parameters become self's
    ("fixed", False),  # variables closed over: __call__ runs on nothing the gradient follows
])
def test_linen_apply_of_traced_variables_runs_call_under_the_transform(lint_source, variables, reported):
    source = LINEN + (
        "class Entropy(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n"
        "        w = jax.nn.softmax(nn.Dense(3)(x))\n"
        "        return -jnp.where(w > 0, w * jnp.log(w), 0.0).sum()\n\n\n"
        "def grads(params, fixed, x):\n    model = Entropy()\n\n"
        f"    def loss(params):\n        return model.apply({variables}, x)\n\n"
        "    return jax.grad(loss)(params)\n")
    assert lint_source(source) == ([(_line(source, "jnp.where"), "JNP604")] if reported else [])


def test_the_measured_donation_option_of_filter_jit():
    assert api.framework_donations()["equinox.filter_jit"]["donate"]["all"] == ["first", "rest"]
    assert api.framework_donations()["equinox.filter_jit"]["donate"]["all-except-first"] == ["rest"]
    assert "none" not in api.framework_donations()["equinox.filter_jit"]["donate"]


@pytest.mark.parametrize("donate, read, reported", [
    ("all", "model", True),
    ("all-except-first", "model", False),  # the model is the first argument: kept
    ("none", "model", False),
    ("all", "x", False),  # data the step does not give back: no output takes its buffer
])
def test_filter_jit_donation_option(lint_source, donate, read, reported):
    source = EQX + (
        "def _step(model, x):\n    grads = eqx.filter_grad(lambda m: jnp.sum(m(x)))(model)\n"
        "    return eqx.apply_updates(model, grads)\n\n\n"
        f'step = eqx.filter_jit(_step, donate="{donate}")\n\n\n'
        "def train(model, x):\n    for _ in range(3):\n        new_model = step(model, x)\n"
        f"        print({read})\n        model = new_model\n    return model\n")
    assert lint_source(source) == ([(_line(source, "print("), "JNP605")] if reported else [])


@pytest.mark.parametrize("returned, reported", [
    ("eqx.apply_updates(model, grads)", True),
    # a tree map keeps the structure, not the leaves' dtypes: no output takes a cast model's buffers
    # (checked against Equinox: the model is readable after the call)
    ("jax.tree.map(lambda p: p.astype(jnp.bfloat16) if eqx.is_array(p) else p, model)", False),
])
def test_filter_jit_donation_needs_the_leaves_given_back(lint_source, returned, reported):
    source = EQX + (
        "def _step(model, x):\n    grads = eqx.filter_grad(lambda m: jnp.sum(m(x)))(model)\n"
        f"    return {returned}\n\n\n"
        'step = eqx.filter_jit(_step, donate="all")\n\n\n'
        "def run(model, x):\n    new_model = step(model, x)\n    print(model)\n    return new_model\n")
    assert lint_source(source) == ([(_line(source, "print("), "JNP605")] if reported else [])


@pytest.mark.parametrize("cls, built, reported", [
    ("class Rate:\n    def __init__(self, rate):\n        self.rate = rate\n", "Rate(0.5 / (epoch + 1))", True),
    # a plain class hashes by identity: a new Rate(0.5) on each iteration is a new key too, no number needed
    ("class Rate:\n    def __init__(self, rate):\n        self.rate = rate\n", "Rate(0.5)", True),
    # jit refuses an unhashable object: it raises, it does not compile again
    ("import dataclasses\n\n\n@dataclasses.dataclass\nclass Rate:\n    rate: float\n", "Rate(0.5 / (epoch + 1))", False),
    ("class Rate:\n    def __init__(self, rate):\n        self.rate = rate\n\n    def __hash__(self):\n"
     "        return 0\n", "Rate(0.5 / (epoch + 1))", False),  # a hash the file defines may ignore the field
    # a linen Module is not a pytree: jit hashes it whole, by its fields
    ("import flax.linen as nn\n\n\nclass Rate(nn.Module):\n    rate: float\n", "Rate(0.5 / (epoch + 1))", True),
    ("import flax.linen as nn\n\n\nclass Rate(nn.Module):\n    rate: float\n", "Rate(0.5)", False),  # equal fields
    # an Equinox Module is a pytree, hashed by its leaves (arrays make it unhashable)
    ("import equinox as eqx\n\n\nclass Rate(eqx.Module):\n    rate: float\n", "Rate(0.5 / (epoch + 1))", False),
])
def test_a_static_object_built_from_the_counter(lint_source, cls, built, reported):
    source = "import functools\n\nimport jax\n\n\n" + cls + (
        "\n\n@functools.partial(jax.jit, static_argnums=0)\ndef scaled(rate, x):\n    return x * rate.rate\n\n\n"
        f"def run(x):\n    for epoch in range(10):\n        x = scaled({built}, x)\n    return x\n")
    assert lint_source(source) == ([(_line(source, "x = scaled("), "JNP602")] if reported else [])


@pytest.mark.parametrize("given, reported", [
    ("data[:length]", True),
    ("data[length:]", True),
    ("data[length:length + 4]", False),  # a window of one length
    ("data[:8]", False),
])
def test_a_slice_whose_length_is_the_counter(lint_source, given, reported):
    source = ("import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef mean(x):\n    return jnp.mean(x)\n\n\n"
              f"def run(data):\n    out = []\n    for length in range(2, 10):\n        out.append(mean({given}))\n"
              "    return out\n")
    assert lint_source(source) == ([(_line(source, "out.append"), "JNP602")] if reported else [])
