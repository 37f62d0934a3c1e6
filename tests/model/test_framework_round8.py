"""Framework contracts the nineteenth round's held-out shapes asked for (issue 43, round 8): a new
object that a framework jit keeps static, given to it on every iteration (``optax.adam(lr)`` to an
``eqx.filter_jit`` step: measured, ``framework_static_objects``). Linted without the frameworks;
``tests/frameworks_shapes/round8_*.py`` is confirmed at runtime with them."""
import pytest

EQX = "import equinox as eqx\nimport jax\nimport jax.numpy as jnp\nimport optax\n\n\n"


def _line(source, text):
    """The number of the first line of ``source`` holding ``text``."""
    return next(number for number, line in enumerate(source.splitlines(), 1) if text in line)


@pytest.mark.parametrize("jit, made, reported", [
    ("eqx.filter_jit", "    for epoch in range(10):\n        optim = optax.adam(1e-2 / (epoch + 1))\n", True),
    ("eqx.filter_jit", "    optim = optax.adam(1e-2)\n    for epoch in range(10):\n", False),  # one, shared
    ("jax.jit", "    for epoch in range(10):\n        optim = optax.adam(1e-2 / (epoch + 1))\n", False),  # refused
])
def test_a_new_object_a_jit_keeps_static_every_iteration(lint_source, jit, made, reported):
    source = EQX + (f"@{jit}\ndef step(model, optim, x):\n    return optim.init(model), x\n\n\n"
                    "def run(model, x):\n" + made + "        state, x = step(model, optim, x)\n    return x\n")
    assert lint_source(source) == ([(_line(source, "state, x = step"), "JNP602")] if reported else [])
