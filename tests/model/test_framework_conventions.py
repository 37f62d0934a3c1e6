"""Framework conventions read from the generated data, within one module: the methods that building
an Equinox Module runs on its fields (``__check_init__``), the parameters ``jax.jit(model.apply)``
traces, a layer's one array unpacked into rows; and JAX operations staged in a cached trace
whatever they are given.
Framework-shaped input, linted without the frameworks; each case
with a look-alike that stays silent."""
import textwrap

import pytest

HEADER = "import equinox as eqx\nimport flax.linen as nn\nimport jax\nimport jax.numpy as jnp\n"

CHECKED = """\
class Normal(eqx.Module):
    loc: jax.Array
    scale: jax.Array

    def __check_init__(self):
        if jnp.any(self.scale <= 0):
            raise ValueError("scale")

"""


def findings(lint_source, body):
    source = HEADER + textwrap.dedent(body)
    return [(line - HEADER.count("\n"), code) for line, code in lint_source(source)]


@pytest.mark.parametrize("body, expected", [
    # built from tracers under jit: __check_init__ sees them
    (CHECKED + "@jax.jit\ndef f(m, s):\n    return Normal(m, s)\n", [(6, "JNP202")]),
    # built inside a module's __call__ from a layer's output, unpacked into rows
    (CHECKED + "class Head(eqx.Module):\n    linear: eqx.nn.Linear\n\n    def __init__(self, key):\n"
     "        self.linear = eqx.nn.Linear(3, 2, key=key)\n\n    def __call__(self, x):\n"
     "        loc, log_scale = self.linear(x)\n        return Normal(loc, jnp.exp(log_scale))\n", [(6, "JNP202")]),
    # built eagerly from Python numbers, or validated with eqx.error_if: nothing to report
    (CHECKED + "def f():\n    return Normal(1.0, 2.0)\n", []),
    (CHECKED.replace("        if jnp.any(self.scale <= 0):\n            raise ValueError(\"scale\")\n",
                     "        eqx.error_if(self.scale, jnp.any(self.scale <= 0), \"scale\")\n")
     + "@jax.jit\ndef f(m, s):\n    return Normal(m, s)\n", []),
    # its own __init__ says what the fields hold: not followed
    (CHECKED.replace("    def __check_init__", "    def __init__(self, loc, scale):\n        self.loc = loc\n"
                     "        self.scale = 1.0\n\n    def __check_init__")
     + "@jax.jit\ndef f(m, s):\n    return Normal(m, s)\n", []),
])
def test_equinox_check_init_sees_the_fields_it_was_built_from(lint_source, body, expected):
    assert findings(lint_source, body) == expected


NOISY = """\
class Noisy(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        h = nn.Dense(4)(x)
        if train:
            h = h * 0.5
        return h

"""


@pytest.mark.parametrize("calls, expected", [
    # jit traces the flag the jitted apply is given
    ("apply = jax.jit(model.apply)\napply(v, jnp.ones(3), True)\n", [(5, "JNP202")]),
    ("jax.jit(model.apply)(v, jnp.ones(3), True)\n", [(5, "JNP202")]),
    # static there, or apply called eagerly: a Python bool
    ("apply = jax.jit(model.apply, static_argnames='train')\napply(v, jnp.ones(3), train=True)\n", []),
    ("apply = jax.jit(model.apply, static_argnums=2)\napply(v, jnp.ones(3), True)\n", []),
    ("model.apply(v, jnp.ones(3), True)\n", []),
    ("apply = jax.jit(model.apply)\napply(v, jnp.ones(3), True)\nmodel.apply(v, jnp.ones(3), False)\n", []),
])
def test_a_jitted_apply_traces_the_python_values_it_is_given(lint_source, calls, expected):
    assert findings(lint_source, NOISY + "model = Noisy()\nv = {}\n" + calls) == expected


@pytest.mark.parametrize("body, expected", [
    # under a cached trace JAX stages every operation: a draw from a concrete key, a mask from a static n
    ("@jax.jit\ndef f(x):\n    if jax.random.uniform(jax.random.key(0)) < 0.5:\n        return x\n    return -x\n",
     [(3, "JNP202")]),
    ("from functools import partial\n\n@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n"
     "    mask = jnp.arange(n) < 3\n    return x[mask].sum()\n", [(6, "JNP203")]),
    # a collective of a Python scalar is the axis size, a Python int; vmap stages nothing; plain code runs eagerly
    ("@jax.jit\ndef f(x):\n    n = jax.lax.psum(1, 'i')\n    return [x * j for j in range(n)]\n", []),
    ("@jax.vmap\ndef f(x):\n    if jax.random.uniform(jax.random.key(0)) < 0.5:\n        return x\n    return -x\n",
     []),
    ("def f(x):\n    if jax.random.uniform(jax.random.key(0)) < 0.5:\n        return x\n    return -x\n", []),
])
def test_jax_operations_are_staged_in_a_cached_trace(lint_source, body, expected):
    assert findings(lint_source, body) == expected
