"""JNP505: lists and tuples (displays, or names bound to one) only where the generator saw jax.numpy refuse them;
a name rebound to an array, or bound to a list on one path only, is not one."""
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


@pytest.mark.parametrize("body, line", [
    ("def f():\n    x = [jnp.ones(()), jnp.ones(())]\n    return jnp.mean(x)\n", 3),
    ("def f(n):\n    x = [i * i for i in range(n)]\n    x.append(0)\n    return jnp.sqrt(x)\n", 4),
    ("SIZES = (1.0, 2.0)\ndef f():\n    return jnp.sum(SIZES)\n", 3),
])
def test_a_name_bound_to_a_sequence(lint_body, body, line):
    assert found(lint_body, body) == [line]


@pytest.mark.parametrize("body", [
    "def f():\n    x = [jnp.ones(()), jnp.ones(())]\n    x = jnp.stack(x)\n    return jnp.mean(x)\n",
    "def f(a):\n    x = [1.0, 2.0] if a else jnp.ones(2)\n    return jnp.mean(x)\n",
    "def f(a):\n    x = jnp.ones(2)\n    if a:\n        x = [1.0, 2.0]\n    return jnp.mean(x)\n",
    "def f():\n    x = {'a': 1.0}\n    return jnp.mean(x['a'])\n",
])
def test_a_name_not_always_a_sequence(lint_body, body):
    assert found(lint_body, body) == []
