"""JNP201/JNP202 through containers: a tracer indexing a NumPy array or a Python list or tuple
(also one reached through a literal dict or a name), and the truth of a sum of traced items;
static indices, dicts, and containers whose items the scope changed or passed on stay silent."""
import pytest

HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"


def found(lint_body, body):
    return lint_body(HEADER, body, "JNP201", "JNP202")


@pytest.mark.parametrize("body, expected", [
    ("W = [0.5, 1.0]\n@jax.jit\ndef f(i):\n    return W[i]\n", [(4, "JNP202")]),
    ("@jax.jit\ndef f(x, i):\n    pair = (1.0, 2.0)\n    return x * pair[i]\n", [(4, "JNP202")]),
    ("T = {'a': np.arange(4.0), 'n': 4}\n@jax.jit\ndef f(i):\n    return T['a'][i]\n", [(4, "JNP201")]),
    ("T = [np.arange(4.0), np.ones(4)]\n@jax.jit\ndef f(i):\n    t = T[1]\n    return t[i]\n", [(5, "JNP201")]),
    ("@jax.jit\ndef f(x, i):\n    grid = np.arange(x.shape[0])\n    return x[grid[i]]\n", [(4, "JNP201")]),
    ("@jax.jit\ndef f(x):\n    total = sum(x[i] for i in range(3))\n    assert total > 0\n    return x\n",
     [(4, "JNP202")]),
    ("@jax.jit\ndef f(x):\n    if sum([x, x]) > 0:\n        return x\n    return -x\n", [(3, "JNP202")]),
])
def test_found(lint_body, body, expected):
    assert found(lint_body, body) == expected


@pytest.mark.parametrize("body", [
    "W = [0.5, 1.0]\n@jax.jit\ndef f(x):\n    return x * W[0]\n",
    "W = [0.5, 1.0]\n@jax.jit\ndef f(x):\n    for i in range(2):\n        x = x * W[i]\n    return x\n",
    "T = {0: 1.0}\n@jax.jit\ndef f(i):\n    return T[i]\n",  # a dict: the tracer is hashed, not converted
    "@jax.jit\ndef f(x):\n    t = np.arange(4.0)\n    return x * t[2]\n",
    "@jax.jit\ndef f(x, i):\n    t = [np.arange(4.0)]\n    t[0] = jnp.arange(4.0)\n    return t[0][i]\n",
    "@jax.jit\ndef f(x, i):\n    t = [np.arange(4.0)]\n    t.clear()\n    t.append(x)\n    return t[0][i]\n",
    "def fill(t):\n    t[0] = 1.0\n@jax.jit\ndef f(i):\n    t = [np.arange(4.0)]\n    fill(t)\n    return t[0][i]\n",
    "@jax.jit\ndef f(x):\n    size = sum(d for d in x.shape)\n    assert size > 0\n    return x\n",
    "def f(i):\n    W = [0.5, 1.0]\n    return W[i]\n",  # not traced
])
def test_silent(lint_body, body):
    assert found(lint_body, body) == []
