"""JNP202/JNP203 extensions: slice bounds, slice sizes, ordering a traced parameter, .at[mask]
updates and traced repeat counts; static and concrete look-alikes stay silent."""
import pytest

HEADER = "from functools import partial\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n"


def found(lint_body, body):
    return lint_body(HEADER, body, "JNP202", "JNP203")


@pytest.mark.parametrize("body", [
    "@jax.jit\ndef f(x):\n    return x[: x.shape[0] // 2]\n",
    "@partial(jax.jit, static_argnames='n')\ndef f(x, n):\n    return x[n:]\n",
    "def f(x, n):\n    return x[:n]\n",  # not traced
    "@jax.grad\ndef f(x):\n    return x[:2].sum()\n",
    "@jax.jit\ndef f(x, i):\n    return lax.dynamic_slice_in_dim(x, i, 2)\n",  # traced start, static size
    "@jax.jit\ndef f(x):\n    return x.at[2:].set(0.0)\n",
    "@jax.jit\ndef f(x):\n    return x.at[0].set(x[0] > 1)\n",
    "@jax.jit\ndef f(x, k):\n    return jnp.repeat(x, k, total_repeat_length=4)\n",
    "@jax.jit\ndef f(x):\n    return jnp.repeat(x, 3)\n",
    "@jax.jit\ndef f(x):\n    n = 0\n    while n < len(x):\n        n += 1\n    return x\n",
])
def test_silent(lint_body, body):
    assert found(lint_body, body) == []


@pytest.mark.parametrize("body, expected", [
    ("@jax.jit\ndef f(x, i):\n    return x[i:i + 2]\n", [(3, "JNP202")]),
    # two traced trees ordered: arrays, or tuples whose ordering asks bool(leaf == leaf)
    ("@jax.jit\ndef f(a, b):\n    i = a\n    if i < b:\n        return a\n    return b\n", [(4, "JNP202")]),
    ("@jax.jit\ndef f(x):\n    return [0 < x < 1]\n", [(3, "JNP202")]),
    ("@jax.jit\ndef f(x, n):\n    return x[::n]\n", [(3, "JNP202")]),
    ("@jax.jit\ndef f(x, n):\n    return x[0, :n]\n", [(3, "JNP202")]),
    ("@jax.jit\ndef f(x, n):\n    return x.at[:n].set(0.0)\n", [(3, "JNP202")]),
    ("def f(x):\n    return lax.fori_loop(0, 3, lambda i, c: c + x[i:i + 2].sum(), 0.0)\n", [(2, "JNP202")]),
    ("@jax.jit\ndef f(x, n):\n    return lax.dynamic_slice(x, (0,), slice_sizes=(n,))\n", [(3, "JNP202")]),
    ("@jax.jit\ndef f(x, n):\n    i = 0\n    while n > i:\n        i = i + 2\n    return x\n", [(4, "JNP202")]),
    ("@jax.jit\ndef f(x, m):\n    return x.at[m > 0].add(1.0)\n", [(3, "JNP203")]),
    ("@jax.jit\ndef f(x, k):\n    return jnp.repeat(x, repeats=k)\n", [(3, "JNP203")]),
])
def test_reported(lint_body, body, expected):
    assert found(lint_body, body) == expected


# A bound method's static_argnums count from after self (checked against JAX: with
# static_argnums=(2,) on self._m, m's third parameter after self may steer an ``if``).
BOUND_METHOD = "class Engine:\n    def __init__(self):\n        self.step = {wrap}\n" \
    "    {decorator}def _m(self, state, grads, count):\n        if count <= 1:\n            return state\n" \
    "        return grads\n"


@pytest.mark.parametrize("wrap, decorator, expected", [
    ("jax.jit(self._m, static_argnums=(2,))", "", []),
    ("partial(jax.jit, static_argnums=(2,))(self._m)", "", []),
    ("jax.jit(partial(self._m, 0), static_argnums=(1,))", "", []),
    ("jax.jit(self._m, static_argnums=(1,))", "", [(5, "JNP202")]),  # grads static, count traced
    ("jax.jit(self._m, static_argnums=(3,))", "@staticmethod\n    ", []),  # a staticmethod binds nothing
    ("jax.jit(self._m, static_argnums=(2,))", "@staticmethod\n    ", [(6, "JNP202")]),
])
def test_bound_method_positions_start_after_self(lint_body, wrap, decorator, expected):
    body = BOUND_METHOD.format(wrap=wrap, decorator=decorator)
    assert found(lint_body, body) == expected


@pytest.mark.parametrize("static, expected", [("(1,)", []), ("(0,)", [(3, "JNP202")])])
def test_callable_instance_positions_start_after_self(lint_body, static, expected):
    """jax.jit(Model(), static_argnums=(1,)) makes __call__'s n static (checked against JAX)."""
    body = "class Model:\n    def __call__(self, x, n):\n        if n > 1:\n            return x\n" \
        f"        return -x\nstep = jax.jit(Model(), static_argnums={static})\n"
    assert found(lint_body, body) == expected


@pytest.mark.parametrize("transform, expected", [
    ("jax.jit(jax.nn.one_hot)", [(1, "JNP202")]),
    ("jax.pmap(jax.nn.one_hot)", []),  # the int has no axis to map: ValueError, not a shape error
    ("jax.pmap(jax.nn.one_hot, in_axes=(0, 0))", []),
    ("jax.pmap(jax.nn.one_hot, in_axes=(0, None))", [(1, "JNP202")]),  # unmapped: a tracer reaches it
])
def test_library_function_staged_whole_by_a_mapping_transform(lint_body, transform, expected):
    """Checked against JAX 0.10.2: pmap of one_hot with the class count mapped fails for its axis."""
    assert found(lint_body, f"y = {transform}(jnp.zeros((1, 4), jnp.int32), 3)\n") == expected


DEFAULT_MODULE = "import numpy as np\ndef helper(x, xnp=np):\n    return xnp.stack([x, x])\n"


@pytest.mark.parametrize("callers, expected", [
    ("@jax.jit\ndef f(x):\n    return helper(x)\n", [(3, "JNP201")]),  # the traced call leaves the default
    ("@jax.jit\ndef f(x):\n    return helper(x, xnp=np)\n", [(3, "JNP201")]),  # the same module given
    ("@jax.jit\ndef f(x):\n    return helper(x, jnp)\n", []),
    ("@jax.jit\ndef f(x):\n    return helper(x, xnp=jnp)\ndef g(x):\n    return helper(x)\n", []),  # eager np
    ("@jax.jit\ndef f(x, **options):\n    return helper(x, **options)\n", []),
])
def test_numpy_through_a_defaulted_module_parameter(lint_source, callers, expected):
    """``xnp=np`` read under a trace whose call leaves the default (multinerf's helpers)."""
    source = HEADER + DEFAULT_MODULE + callers
    offset = HEADER.count("\n")
    assert [(line - offset, code) for line, code in lint_source(source) if code == "JNP201"] == expected
