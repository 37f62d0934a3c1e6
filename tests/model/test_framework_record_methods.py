"""Framework contracts the twenty-third round asked for (issue 43, rounds 10 and 11 held out): a framework
record's methods measured to give its own class (``TrainState.apply_gradients``, ``replace``:
``framework_records``' ``returning``) keep the class of a state a host loop rebinds to a jitted step's
result; the functions that give an NNX Module's own arrays (``nnx.state``: ``framework_module_arrays``);
the fields a framework layer built eagerly holds as device arrays (``eqx.nn.Linear(...).weight``:
``built_on_device``). Linted without the frameworks; ``tests/frameworks_shapes/round10_*.py`` and
``round11_*.py`` are confirmed at runtime with them."""
import pytest

LINEN = ("import jax\nimport jax.numpy as jnp\nimport optax\nfrom flax.training import train_state\n\n\n"
         "def make():\n    return train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(3)},"
         " tx=optax.adam(0.1))\n\n\n")


def _line(source, text):
    """The number of the first line of ``source`` holding ``text``."""
    return next(number for number, line in enumerate(source.splitlines(), 1) if text in line)


@pytest.mark.parametrize("returned, built, reported", [
    ("state.apply_gradients(grads=grads), x", "make()", True),  # measured: gives a TrainState
    ("state.replace(step=state.step + 1), x", "make()", True),
    ("state.apply_gradients(grads=grads), x", "other()", False),  # not a record the file knows
    ("state.accumulate(grads), x", "make()", False),  # not a method measured to give its class
    ("x, state.apply_gradients(grads=grads)", "make()", False),  # the loop unpacks the other position
])
def test_a_train_state_rebound_to_a_jitted_step_result(lint_source, returned, built, reported):
    source = LINEN + ("class Other:\n    def apply_gradients(self, grads):\n        return 0\n\n\n"
                      "def other():\n    return Other()\n\n\n"
                      "@jax.jit\ndef step(state, x):\n    grads = {'w': x}\n"
                      f"    return {returned}\n\n\n"
                      f"def run(x):\n    state = {built}\n    kept = []\n    for _ in range(20):\n"
                      "        state, _ = step(state, x)\n        if state.step % 2 == 0:\n"
                      "            kept.append(1)\n    return kept\n")
    assert lint_source(source) == ([(_line(source, "if state.step"), "JNP102")] if reported else [])


NNX = ("from flax import nnx\nimport jax\nimport jax.numpy as jnp\n\n\n"
       "@nnx.jit\ndef step(model, x):\n    return model(x)\n\n\n")


@pytest.mark.parametrize("stepped, read, reported", [
    (True, "nnx.state(model, nnx.Param)", True),  # measured: the Module's own (device) arrays
    (True, "nnx.split(model)", True),
    (False, "nnx.state(model, nnx.Param)", False),  # never given to the jitted step: not known here
    (True, "nnx.graphdef(model)", False),  # no array
])
def test_a_module_state_copied_to_the_host_every_step(lint_source, stepped, read, reported):
    source = NNX + ("def run(x):\n    model = nnx.Linear(3, 3, rngs=nnx.Rngs(0))\n    kept = []\n"
                    "    for _ in range(10):\n" + ("        step(model, x)\n" if stepped else "") +
                    f"        kept.append(jax.device_get({read}))\n    return kept\n")
    assert lint_source(source) == ([(_line(source, "jax.device_get"), "JNP101")] if reported else [])


EQX = ("import equinox as eqx\nimport jax\nimport jax.numpy as jnp\n\n\n"
       "class Plain:\n    def __init__(self):\n        self.weight = [0.0, 1.0]\n\n\n")


@pytest.mark.parametrize("built, reported", [
    ("eqx.nn.Linear(3, 3, key=jax.random.PRNGKey(0))", True),  # measured: built eagerly, a device array
    ("Plain()", False),  # a list
    ("eqx.nn.Lambda(jnp.tanh)", False),  # no such array field measured
])
def test_a_layer_weight_assigned_in_place_after_apply_updates(lint_source, built, reported):
    source = EQX + (f"def prune(updates):\n    model = {built}\n    model = eqx.apply_updates(model, updates)\n"
                    "    model.weight[0] = 0.0\n    return model\n")
    assert lint_source(source) == ([(_line(source, "model.weight[0]"), "JNP501")] if reported else [])


@pytest.mark.parametrize("read, reported", [
    ('state.opt_state.hyperparams["learning_rate"]', True),  # measured: a field of an Optax state
    ("state.opt_state.inner_state[0].mu['w']", True),
    ("state.opt_state.schedule", False),  # no Optax state has it: not known to be a subtree
    ("state.opt_state.count", False),  # a tuple's own method too
])
def test_a_field_of_an_optimiser_state_is_its_subtree(lint_source, read, reported):
    source = LINEN + ("@jax.jit\ndef step(state, x):\n    return state.apply_gradients(grads={'w': x}), x\n\n\n"
                      "def run(x):\n    state = make()\n    kept = []\n    for _ in range(20):\n"
                      f"        state, _ = step(state, x)\n        kept.append(float({read}))\n    return kept\n")
    assert lint_source(source) == ([(_line(source, "kept.append"), "JNP102")] if reported else [])
