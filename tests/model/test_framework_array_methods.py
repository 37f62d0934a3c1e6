"""A method of a framework object measured to give one JAX array (``framework_array_methods``):
``optax.MultiSteps(...).has_updated(state)`` is a device bool, so testing it in the host loop of
every step syncs (JNP102); a method not measured, an object not built here or one built in
traced code stays unknown. Linted without the frameworks."""
import pytest

HEADER = "import jax\nimport jax.numpy as jnp\nimport optax\n\n\n"


@pytest.mark.parametrize("test, reported", [
    ("multi.has_updated(state)", True),
    ("multi.gradient_transformation()", False),  # not measured to give an array
    ("other.has_updated(state)", False),  # an object whose class is not known
])
def test_a_measured_array_method_is_a_device_value(lint_source, test, reported):
    source = HEADER + ("@jax.jit\ndef step(state):\n    return state\n\n\n"
                       "def train(other, params):\n"
                       "    multi = optax.MultiSteps(optax.adam(1e-2), every_k_schedule=4)\n"
                       "    state = multi.init(params)\n"
                       "    applied = 0\n"
                       "    for _ in range(8):\n"
                       "        state = step(state)\n"
                       f"        if {test}:\n"
                       "            applied += 1\n"
                       "    return applied\n")
    line = source.splitlines().index(f"        if {test}:") + 1
    assert lint_source(source) == ([(line, "JNP102")] if reported else [])


def test_built_in_traced_code_the_object_says_nothing(lint_source):
    source = HEADER + ("@jax.jit\n"
                       "def step(params):\n"
                       "    multi = optax.MultiSteps(optax.adam(1e-2), every_k_schedule=4)\n"
                       "    return multi.has_updated(multi.init(params))\n")
    assert lint_source(source) == []
