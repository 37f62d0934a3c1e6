"""Framework contracts the sixteenth round's held-out shapes asked for (issue 43, round 6): a measured
layer's output is a tracer in a staging trace whatever its input (``self.linear(x)`` in an
``@eqx.filter_jit`` method, whose ``x`` may be static); a measured layer stored by ``__init__`` has its
measured fields traced (``self.bn.mean.value`` of an ``nnx.BatchNorm``); ``nnx.scan`` traces the
function it scans (measured); ``apply(..., method=lambda module, x: module.m(x))`` runs ``m``; a
``TrainState.create`` built anew in a loop around a new ``optax.chain`` keeps it static under
``jax.jit`` (measured), also through a helper that returns it. Linted without the frameworks;
``tests/frameworks_shapes/round6_*.py`` is confirmed at runtime with them."""
import pytest

NNX = "from flax import nnx\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"
EQX = "import equinox as eqx\nimport jax\nimport jax.numpy as jnp\n\n\n"


def _line(source, text):
    """The number of the first line of ``source`` holding ``text``."""
    return next(number for number, line in enumerate(source.splitlines(), 1) if text in line)


@pytest.mark.parametrize("decorator, reported", [
    ("@eqx.filter_jit", True),  # staged: the layer's weights make a tracer
    ("", False),  # a plain method called eagerly: concrete
])
def test_a_layer_in_a_staged_method_gives_a_tracer(lint_source, decorator, reported):
    source = EQX + ("class Model(eqx.Module):\n    linear: eqx.nn.Linear\n\n    def __init__(self, key):\n"
                    "        self.linear = eqx.nn.Linear(3, 2, key=key)\n\n"
                    f"    {decorator}\n    def logits(self, x):\n        out = self.linear(x)\n"
                    "        if out.max() > 5.0:\n            return out\n        return -out\n\n\n"
                    "def run():\n    return Model(jax.random.PRNGKey(0)).logits(3.0)\n")
    assert lint_source(source) == ([(_line(source, "out.max()"), "JNP202")] if reported else [])


@pytest.mark.parametrize("read, reported", [
    ("self.bn.mean.value.max() > 10.0", True),  # measured: a BatchStat holding an array
    ("self.bn.use_running_average", False),  # a Python flag
    ("self.bn.helper.value.max() > 10.0", False),  # not measured: unknown
])
def test_a_stored_layer_has_its_measured_fields_traced(lint_source, read, reported):
    source = NNX + ("class Model(nnx.Module):\n    def __init__(self, rngs):\n"
                    "        self.bn = nnx.BatchNorm(4, rngs=rngs)\n\n"
                    f"    def __call__(self, x):\n        if {read}:\n            x = x * 0.5\n"
                    "        return self.bn(x)\n\n\n"
                    "@nnx.jit\ndef step(model, x):\n    return model(x)\n\n\n"
                    "def run():\n    return step(Model(nnx.Rngs(0)), jnp.ones((2, 4)))\n")
    assert lint_source(source) == ([(_line(source, read), "JNP202")] if reported else [])


@pytest.mark.parametrize("body, reported", [
    ("print(h)", True),
    ("jax.debug.print('{}', h)", False),
])
def test_nnx_scan_traces_the_function_it_scans(lint_source, body, reported):
    source = NNX + ("import jax\n\n\ndef step(h, x):\n    h = jnp.tanh(h + x)\n"
                    f"    {body}\n    return h, h\n\n\n"
                    "def run():\n    return nnx.scan(step, in_axes=(nnx.Carry, 0), out_axes=(nnx.Carry, 0))("
                    "jnp.zeros(3), jnp.ones((5, 3)))\n")
    assert lint_source(source) == ([(_line(source, body), "JNP301")] if reported else [])


LINEN = ("import flax.linen as nn\nimport jax\nimport jax.numpy as jnp\n\n\n"
         "class Codec(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n        return nn.Dense(2)(x)\n\n"
         "    def norm(self, x):\n        return float(jnp.linalg.norm(x))\n\n\n@jax.jit\ndef f(variables, x):\n")


@pytest.mark.parametrize("method, reported", [
    ("lambda module, x: module.norm(x)", True),
    ("lambda module, x: module.norm(x + 1)", False),  # not its parameters as given: not followed
    ("lambda module, x: other.norm(x)", False),  # not a method of the module it is given
])
def test_apply_with_a_lambda_forwarding_to_a_method(lint_source, method, reported):
    source = LINEN + f"    return Codec().apply(variables, x, method={method})\n"
    assert lint_source(source) == ([(_line(source, "float("), "JNP202")] if reported else [])


TRAIN = ("import jax\nimport jax.numpy as jnp\nimport optax\nfrom flax.training import train_state\n\n\n"
         "@jax.jit\ndef step(state, x):\n    return state\n\n\n"
         "def make(params, lr):\n    tx = {tx}\n"
         "    return train_state.TrainState.create(apply_fn=jnp.dot, params=params, tx=tx)\n\n\n"
         "def fit(params):\n    for epoch in range(3):\n        state = make(params, 0.1 / (epoch + 1))\n"
         "        state = step(state, jnp.ones(3))\n    return state\n")


@pytest.mark.parametrize("tx, reported", [
    ("optax.chain(optax.clip(1.0), optax.sgd(lr))", True),  # measured: a new chain on every call
    ("optax.sgd(lr)", True),
    ("TX", False),  # one optimizer made once
    ("helper(lr)", False),  # unknown
])
def test_a_train_state_built_anew_around_a_new_optimizer(lint_source, tx, reported):
    source = TRAIN.format(tx=tx) + "\n\nTX = optax.sgd(0.1)\n"
    assert lint_source(source) == ([(_line(source, "= step(state"), "JNP602")] if reported else [])
