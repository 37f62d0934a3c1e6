"""JNP201-JNP203 on JAX operations that a staging trace stages although no argument is traced: the
operators of a module-level JAX array inside jax.jit, and the body of a def that jitted code calls
with no tracer (its JAX operations run in that trace). Under vmap and grad, and on NumPy data, such
operations stay concrete and the same code is silent."""
import pytest

HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\nG = jnp.arange(10.0)\nH = np.arange(10.0)\n"


def found(lint_body, body):
    return lint_body(HEADER, body, "JNP201", "JNP202", "JNP203")


@pytest.mark.parametrize("body, expected", [
    ("@jax.jit\ndef f(x):\n    if np.all(G <= 0):\n        return x\n    return -x\n", [(3, "JNP202")]),
    ("@jax.jit\ndef f(x):\n    return float(G[0]) + x\n", [(3, "JNP202")]),
    ("@jax.jit\ndef f(x):\n    return x * int(G[1] + 1)\n", [(3, "JNP202")]),
    ("@jax.jit\ndef f(x):\n    return x * float(-G[0])\n", [(3, "JNP202")]),
    # a helper jitted code calls on every run with no tracer: its jnp results are tracers there
    ("def count(cell):\n    return int(jnp.ceil(cell).max())\n\n\n@jax.jit\ndef f(x):\n    return x * count(G)\n",
     [(2, "JNP202")]),
    ("def rows(m):\n    return jnp.nonzero(jnp.sin(m))[0]\n\n\n@jax.jit\ndef f(x):\n    return x[rows(G)]\n",
     [(2, "JNP203")]),
    # a size function stages whatever it is given: NumPy data, or what == of two jit arguments gives
    ("@jax.jit\ndef f(x):\n    return x[jnp.nonzero(H > 2)[0]]\n", [(3, "JNP203")]),
    ("@jax.jit\ndef f(lo, hi):\n    return jnp.where(lo == hi)[0]\n", [(3, "JNP203")]),
])
def test_found(lint_body, body, expected):
    assert found(lint_body, body) == expected


@pytest.mark.parametrize("body", [
    "@jax.vmap\ndef f(x):\n    return float(G[0]) + x\n",  # batching stages nothing that has no batched input
    "@jax.grad\ndef f(x):\n    return float(G[0]) * x\n",
    "@jax.jit\ndef f(x):\n    return float(H[0]) + x\n",  # NumPy's operators never stage
    "@jax.jit\ndef f(x):\n    if np.all(H <= 0):\n        return x\n    return -x\n",
    "def f(x):\n    return float(G[0]) + x\n",  # nothing traces it
    "@jax.vmap\ndef f(x):\n    return x + jnp.nonzero(H > 2)[0].size\n",
    "@jax.jit\ndef f(x):\n    return x[jnp.nonzero(H > 2, size=3)[0]]\n",
    # the helper runs in the trace only under an if, or from untraced code
    "def count(cell):\n    return int(jnp.ceil(cell).max())\n\n\n@jax.jit\ndef f(x, flag=False):\n"
    "    if flag:\n        return x * count(G)\n    return x\n",
    "def count(cell):\n    return int(jnp.ceil(cell).max())\n\n\ndef f(x):\n    return x * count(G)\n",
])
def test_silent(lint_body, body):
    assert found(lint_body, body) == []
