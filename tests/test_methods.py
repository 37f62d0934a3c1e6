"""JNP205 edge cases: only plain classes, only self traced."""
import pytest

HEADER = "from functools import partial\nimport jax\n"


def found(lint_body, body):
    return [line for line, _ in lint_body(HEADER, body, "JNP205")]


@pytest.mark.parametrize("body", [
    "class A(SomeBase):\n    @jax.jit\n    def f(self, x):\n        return x\n",  # the base may be a pytree
    "import dataclasses\n@dataclasses.dataclass\nclass A:\n    @jax.jit\n    def f(self, x):\n        return x\n",
    "class A:\n    @partial(jax.jit, static_argnames='self')\n    def f(self, x):\n        return x\n",
    "N = 0\nclass A:\n    @partial(jax.jit, static_argnums=N)\n    def f(self, x):\n        return x\n",
    "class A:\n    @jax.vmap\n    def f(self, x):\n        return x\n",
    "class A:\n    @jax.jit\n    def f(this, x):\n        return x\n",
    "class A:\n    @jax.jit\n    def f(self, x):\n        return x\njax.tree_util.register_pytree_node(A, None, None)\n",
])
def test_silent(lint_body, body):
    assert found(lint_body, body) == []


@pytest.mark.parametrize("body, line", [
    ("class A:\n    @jax.jit\n    def f(self, x):\n        return x\n", 2),
    ("class A:\n    @partial(jax.jit, static_argnums=(1,))\n    def f(self, n):\n        return n\n", 2),
    ("class A(object):\n    @jax.jit\n    async def f(self, x):\n        return x\n", 2),
])
def test_reported(lint_body, body, line):
    assert found(lint_body, body) == [line]
