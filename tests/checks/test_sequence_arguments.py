"""JNP505: literal lists and tuples only where the generator saw jax.numpy refuse them."""
import pytest

HEADER = "import jax.numpy as jnp\nimport numpy as np\n"


def found(lint_body, body):
    return [line for line, _ in lint_body(HEADER, body, "JNP505")]


@pytest.mark.parametrize("body", [
    "y = jnp.array([1.0, 2.0])\n",
    "y = jnp.stack([jnp.ones(2), jnp.ones(2)])\n",
    "y = jnp.concatenate((jnp.ones(2), jnp.ones(2)))\n",
    "y = jnp.zeros((2, 3))\n",
    "y = jnp.reshape(jnp.ones(4), (2, 2))\n",
    "y = np.sum([1.0, 2.0])\n",
    "args = ([1.0],)\ny = jnp.sum(*args)\n",
    "y = jnp.transpose(jnp.ones((2, 3)), (1, 0))\n",
])
def test_silent(lint_body, body):
    assert found(lint_body, body) == []


@pytest.mark.parametrize("body", [
    "y = jnp.mean([1.0, 2.0])\n",
    "y = jnp.maximum(jnp.ones(2), [0.0, 1.0])\n",
    "y = jnp.linalg.norm([3.0, 4.0])\n",
])
def test_reported(lint_body, body):
    assert found(lint_body, body) == [1]
