"""JNP604 edge cases: only differentiated code, only inputs the condition tests, never guarded ones."""
import pytest

HEADER = "import jax\nimport jax.numpy as jnp\n"


def found(lint_body, body):
    return [line for line, _ in lint_body(HEADER, body, "JNP604")]


@pytest.mark.parametrize("body", [
    # not differentiated, or only jitted
    "def f(x):\n    return jnp.where(x > 0, jnp.log(x), 0.0)\n",
    "@jax.jit\ndef f(x):\n    return jnp.where(x > 0, jnp.log(x), 0.0)\n",
    # the unsafe input is not what the condition tests
    "@jax.grad\ndef f(x):\n    return jnp.where(x > 0, jnp.log(x ** 2 + 1.0), 0.0)\n",
    "def f(x, y):\n    return jnp.where(x > 0, jnp.log(y), 0.0)\ng = jax.grad(f)\n",
    # the unsafe input is not differentiated (argnums), and the slope in the one that is stays finite
    "def f(x, y):\n    return jnp.where(y > 0, x + jnp.log(y), 0.0)\ng = jax.grad(f, argnums=0)\n",
    # guarded before, or by a custom derivative
    "@jax.grad\ndef f(x):\n    x = jnp.clip(x, 1e-6)\n    return jnp.where(x > 0, jnp.log(x), 0.0)\n",
    "@jax.custom_jvp\ndef f(x):\n    return jnp.where(x > 0, jnp.log(x), 0.0)\ng = jax.grad(f)\n",
    # functions with finite slopes everywhere
    "@jax.grad\ndef f(x):\n    return jnp.where(x > 0, jnp.tanh(x) * x, 0.0)\n",
    "@jax.grad\ndef f(x):\n    return jnp.where(x > 0, x / 2.0, 0.0)\n",
    "@jax.grad\ndef f(x):\n    return jnp.where(x > 0, x ** 2.0, 0.0)\n",
    # a mask applied before the unsafe operation keeps only safe inputs
    "@jax.grad\ndef f(x):\n    return jnp.sum(x[x > 0] ** 0.5)\n",
    # an indexed update keeps the whole array: sqrt(0) stays, its slope is inf, not nan
    "@jax.grad\ndef f(x):\n    return jnp.sum(jnp.sqrt(x).at[x > 0].set(1.0))\n",
    # a dropout mask drawn with keep_prob is random where keep_prob is not zero: it does not test keep_prob
    "def f(x, keep_prob):\n    mask = jax.random.bernoulli(jax.random.key(0), keep_prob, x.shape)\n"
    "    return jnp.where(mask, x / keep_prob, 0.0).sum()\ng = jax.grad(f)\n",
])
def test_silent(lint_body, body):
    assert found(lint_body, body) == []


@pytest.mark.parametrize("body, line", [
    ("def f(x):\n    return jnp.where(x > 0, jnp.arcsin(x), 0.0)\ng = jax.value_and_grad(f)\n", 2),
    ("def f(x):\n    return jnp.where(x != 0, 1.0 / x, 0.0)\ng = jax.jacrev(f)\n", 2),
    ("@jax.grad\ndef f(x):\n    y = 2.0 * x\n    return jnp.where(y > 0, jnp.log1p(y), 0.0)\n", 4),
    ("def loss(x):\n    return jnp.where(x > 0, jnp.sqrt(x), 0.0).sum()\n"
     "def outer(x):\n    return loss(x)\ng = jax.grad(outer)\n", 2),
    # a square root written as a power; a boolean mask that drops what the unsafe operation gave
    ("@jax.grad\ndef f(x):\n    return jnp.where(x > 0, x ** 0.5, 0.0)\n", 3),
    ("@jax.grad\ndef f(x):\n    return jnp.sum((x ** 0.5)[x > 0])\n", 3),
    ("@jax.grad\ndef f(x):\n    r = jnp.sqrt(x)\n    return jnp.sum(r[x > 0])\n", 4),
])
def test_reported(lint_body, body, line):
    assert found(lint_body, body) == [line]


# The shapes users report: the unsafe operation on an earlier line or in a helper, norms at zero, arctan2.
@pytest.mark.parametrize("body, line", [
    ("@jax.grad\ndef f(x):\n    z = jnp.log(x)\n    return jnp.where(x > 0, z, 0.0)\n", 4),
    ("@jax.grad\ndef f(x):\n    z = jnp.log(x)\n    w = 2.0 * z\n    return jnp.where(x > 0, w, 0.0)\n", 5),
    ("def h(a):\n    '''The root.'''\n    return jnp.sqrt(a)\n"
     "@jax.grad\ndef f(x):\n    return jnp.where(x > 0, h(x), 0.0)\n", 6),
    ("@jax.grad\ndef f(x):\n    return jnp.where(jnp.all(x == 0), 0.0, jnp.linalg.norm(x, axis=-1))\n", 3),
    ("@jax.grad\ndef f(x):\n    return jnp.where(jnp.any(x), jnp.sqrt(jnp.sum(x * x)), 0.0)\n", 3),
    ("@jax.grad\ndef f(x):\n    return jnp.where(jnp.any(x), jnp.sqrt(jnp.sum(jnp.square(x))), 0.0)\n", 3),
    ("def f(y, x):\n    return jnp.where((x == 0) & (y == 0), 0.0, jnp.arctan2(y, x))\ng = jax.grad(f)\n", 2),
    # the numerator's slope is 1 / y, infinite where y is zero (measured: nan), and a scaled divisor
    ("def f(x, y):\n    return jnp.where(y > 0, x / y, 0.0)\ng = jax.grad(f, argnums=0)\n", 2),
    ("@jax.grad\ndef f(x):\n    return jnp.where(x == 0, 1.0, jnp.sin(x) / (jnp.pi * x))\n", 3),
])
def test_reported_shapes(lint_body, body, line):
    assert found(lint_body, body) == [line]


@pytest.mark.parametrize("body", [
    # a name bound twice, or bound after the where: the check cannot tell which value it holds
    "@jax.grad\ndef f(x):\n    z = jnp.log(x)\n    z = jnp.exp(x)\n    return jnp.where(x > 0, z, 0.0)\n",
    # a guarded input on the earlier line
    "@jax.grad\ndef f(x):\n    z = jnp.log(jnp.where(x > 0, x, 1.0))\n    return jnp.where(x > 0, z, 0.0)\n",
    # arctan2 is nan only where both inputs are zero; a condition on one does not discard that point
    "def f(y, x):\n    return jnp.where(x > 0, jnp.arctan2(y, x), 0.0)\ng = jax.grad(f)\n",
    # a helper of more than one statement, or called with keywords
    "def h(a):\n    b = a\n    return jnp.sqrt(b)\n@jax.grad\ndef f(x):\n    return jnp.where(x > 0, h(x), 0.0)\n",
    "def h(a):\n    return jnp.sqrt(a)\n@jax.grad\ndef f(x):\n    return jnp.where(x > 0, h(a=x), 0.0)\n",
    # a smoothed norm is finite at zero
    "@jax.grad\ndef f(x):\n    return jnp.where(jnp.any(x), jnp.sqrt(jnp.sum(x ** 2) + 1e-6), 0.0)\n",
])
def test_silent_shapes(lint_body, body):
    assert found(lint_body, body) == []


# A where inside a lambda: differentiated itself, or mapped over the differentiated data.
@pytest.mark.parametrize("body, expected", [
    ("g = jax.grad(lambda x: jnp.where(x > 0, jnp.log(x), 0.0))\n", [1]),
    ("@jax.grad\ndef f(params):\n    logs = jax.tree.map(lambda p: jnp.where(p > 0, jnp.log(p), 0.0), params)\n"
     "    return sum(jax.tree.leaves(logs))\n", [3]),
    ("@jax.grad\ndef f(x):\n    return jax.vmap(lambda r: jnp.where(r != 0, 1.0 / r, 0.0))(x).sum()\n", [3]),
    # a lambda mapped over data that is not differentiated, or never called
    ("def f(x, table):\n    y = jax.tree.map(lambda p: jnp.where(p > 0, jnp.log(p), 0.0), table)\n"
     "    return x * y\ng = jax.grad(f)\n", []),
    ("@jax.grad\ndef f(x):\n    h = lambda p: jnp.where(p > 0, jnp.log(p), 0.0)\n    return x\n", []),
])
def test_where_in_lambdas(lint_body, body, expected):
    assert found(lint_body, body) == expected


# Issue 46: a lambda bound to a name, the unsafe value computed into the name the condition tests
# (also rebinding the input, as jax#347 does), a pairwise division whose zero diagonal a jnp.eye mask
# drops, and an exp that overflows on the dropped side.
@pytest.mark.parametrize("body, line", [
    ("f = lambda x: jnp.where(x < 1.0, x, jnp.sqrt(x))\ndf = jax.grad(f)\n", 1),
    ("def f(x):\n    r = jnp.sqrt(jnp.sum(x ** 2, axis=1))\n    return jnp.where(r > 0.5, r, 1.0).sum()\n"
     "g = jax.grad(f)\n", 3),
    ("def f(x):\n    x = jnp.sqrt(jnp.sum(x ** 2, axis=1))\n    x = jnp.where(x > 0.5, x, 1.0)\n    return x.sum()\n"
     "g = jax.grad(f)\n", 3),
    ("def f(x):\n    positive = x > 0\n    return jnp.where(positive, jnp.log(x), 0.0)\ng = jax.grad(f)\n", 3),
    ("def f(q, pos):\n    d = jnp.abs(pos[:, None] - pos[None, :])\n    mask = ~jnp.eye(pos.shape[0], dtype=bool)\n"
     "    return jnp.where(mask, q / d, 0.0).sum()\ng = jax.jacrev(f, argnums=1)\n", 4),
    ("def f(pos):\n    d = jnp.linalg.norm(jnp.expand_dims(pos, 0) - jnp.expand_dims(pos, 1), axis=-1)\n"
     "    return jnp.where(jnp.eye(pos.shape[0]) == 0, 1.0 / d, 0.0).sum()\ng = jax.hessian(f)\n", 3),
    ("def f(dt, tau):\n    return jnp.where(dt > 0, jnp.exp(-dt / tau), 0.0).sum()\ng = jax.grad(f)\n", 2),
    ("def f(dt, tau):\n    return jnp.where(dt > 0, jnp.exp(-dt / tau), 0.0).sum()\ng = jax.grad(f, argnums=1)\n", 2),
    ("def f(t):\n    return jnp.where(t < 0, jnp.exp(t * 2.0), 1.0).sum()\ng = jax.grad(f)\n", 2),
    ("def f(t):\n    return jnp.where(0 > t, 1.0, jnp.cosh(t)).sum()\ng = jax.grad(f)\n", 2),
    # an ELU and a thresholded softplus: exp(x) past 88.7 on the side the where drops (jax.nn.elu guards it)
    ("def f(x):\n    return jnp.where(x > 0, x, jnp.exp(x) - 1.0).sum()\ng = jax.grad(f)\n", 2),
    ("def f(x):\n    return jnp.where(x > 20.0, x, jnp.log1p(jnp.exp(x))).sum()\ng = jax.grad(f)\n", 2),
])
def test_reported_issue_shapes(lint_body, body, line):
    assert found(lint_body, body) == [line]


@pytest.mark.parametrize("body", [
    # forward mode selects the tangents: no nan under jax.jacfwd
    "def f(x):\n    return jnp.where(x > 0, jnp.log(x), 0.0)\ng = jax.jacfwd(f)\n",
    # the rebound input guarded before the sqrt; the tested name bound again under an if
    "def f(x):\n    x = jnp.sum(x ** 2, axis=1)\n    x = jnp.sqrt(jnp.where(x > 0.5, x, 1.0))\n    return x.sum()\n"
    "g = jax.grad(f)\n",
    "def f(x, flag):\n    r = jnp.sqrt(x)\n    if flag:\n        r = x\n"
    "    return jnp.where(r > 0.5, r, 1.0)\ng = jax.grad(f)\n",
    # a name computed from the input's shape tests no value of it
    "def f(x):\n    n = x.shape[0]\n    return jnp.where(n > 1, 1.0 / x, 0.0)\ng = jax.grad(f)\n",
    # the mask is not the diagonal, or the pairwise distance is guarded first
    "def f(pos, mask):\n    d = jnp.abs(pos[:, None] - pos[None, :])\n    return jnp.where(mask, 1.0 / d, 0.0).sum()\n"
    "g = jax.grad(f)\n",
    "def f(pos):\n    mask = jnp.eye(pos.shape[0]) == 0\n"
    "    d = jnp.where(mask, jnp.abs(pos[:, None] - pos[None, :]), 1.0)\n"
    "    return jnp.where(mask, 1.0 / d, 0.0).sum()\ng = jax.grad(f)\n",
    # an exp that shrinks on the dropped side, is bounded there, or whose argument the condition does not test
    "def f(dt, tau):\n    return jnp.where(dt > 0, jnp.exp(dt / tau), 0.0).sum()\ng = jax.grad(f)\n",
    "def f(dt, tau):\n    return jnp.where(dt < 0, jnp.exp(-dt / tau), 0.0).sum()\ng = jax.grad(f)\n",
    "def f(dt):\n    return jnp.where(dt > 0, jnp.exp(-(dt ** 2)), 0.0).sum()\ng = jax.grad(f)\n",
    "def f(dt, t):\n    return jnp.where(t > 0, jnp.exp(-dt), 0.0).sum()\ng = jax.grad(f)\n",
])
def test_silent_issue_shapes(lint_body, body):
    assert found(lint_body, body) == []
