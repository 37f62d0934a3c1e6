"""JNP505 through names: a name bound to a list or tuple display or a list comprehension is a Python
sequence where jax.numpy wants an array; a name rebound to an array, or bound on one path only, is not."""
import pytest

HEADER = "import jax.numpy as jnp\n"


@pytest.mark.parametrize("body, expected", [
    ("def f():\n    x = [jnp.ones(()), jnp.ones(())]\n    return jnp.mean(x)\n", [(3, "JNP505")]),
    ("def f(n):\n    x = [i * i for i in range(n)]\n    x.append(0)\n    return jnp.sqrt(x)\n", [(4, "JNP505")]),
    ("SIZES = (1.0, 2.0)\ndef f():\n    return jnp.sum(SIZES)\n", [(3, "JNP505")]),
])
def test_found(lint_body, body, expected):
    assert lint_body(HEADER, body, "JNP505") == expected


@pytest.mark.parametrize("body", [
    "def f():\n    x = [jnp.ones(()), jnp.ones(())]\n    x = jnp.stack(x)\n    return jnp.mean(x)\n",
    "def f(a):\n    x = [1.0, 2.0] if a else jnp.ones(2)\n    return jnp.mean(x)\n",
    "def f(a):\n    x = jnp.ones(2)\n    if a:\n        x = [1.0, 2.0]\n    return jnp.mean(x)\n",
    "def f():\n    x = {'a': 1.0}\n    return jnp.mean(x['a'])\n",
])
def test_silent(lint_body, body):
    assert lint_body(HEADER, body, "JNP505") == []
