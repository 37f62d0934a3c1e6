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
    "class A:\n    @jax.jit\n    def f(self, x):\n        return x\n"
    "jax.tree_util.register_pytree_node(A, None, None)\n",
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


STALE = "class A:\n    def __init__(self):\n        self.k = 1.0\n" \
        "    @partial(jax.jit, static_argnums=0)\n    def f(self, x):\n        return x * self.k\n"


@pytest.mark.parametrize("body", [
    "def g(x):\n    a = A()\n    a.k = 2.0\n    return a.f(x)\n",  # changed before the first call
    "def g(x):\n    a = A()\n    y = a.f(x)\n    a.other = 2.0\n",  # not read by the method
    "def g(x, c):\n    a = A()\n    if c:\n        a = A()\n    y = a.f(x)\n    a.k = 2.0\n",  # rebound
    "def g(x):\n    a = A()\n    y = A().f(x)\n    a.k = 2.0\n",  # another object was used
])
def test_stale_static_self_silent(lint_body, body):
    assert lint_body(HEADER + STALE, body, "JNP306") == []


@pytest.mark.parametrize("body, line", [
    ("def g(x):\n    a = A()\n    y = a.f(x)\n    a.k = 2.0\n", 4),
    ("a = A()\nfor i in range(3):\n    y = a.f(1.0)\n    a.k += 1.0\n", 4),
])
def test_stale_static_self_reported(lint_body, body, line):
    assert lint_body(HEADER + STALE, body, "JNP306") == [(line, "JNP306")]


@pytest.mark.parametrize("method, expected", [
    ("    def fit(self, xs):\n        for x in xs:\n            y = self.f(x)\n            self.k = self.k + 1.0\n",
     [(4, "JNP306")]),  # self is the object the jitted method ran on
    ("    def fit(self, xs):\n        self.k = 2.0\n        return self.f(xs)\n", []),  # changed before the call
    ("    def fit(self, xs):\n        y = self.f(xs)\n        self.other = 2.0\n", []),  # not read by the method
])
def test_stale_static_self_in_another_method(lint_body, method, expected):
    """A method of the class (the method's lines counted from its def) that runs the jitted one."""
    assert lint_body(HEADER + STALE, method, "JNP306") == expected


FILTERED = "import equinox as eqx\nclass C:\n    def __init__(self, w):\n        self.w = w\n{registered}" \
    "@eqx.filter_jit\ndef step(c, x):\n    return x * c.w\n"


@pytest.mark.parametrize("registered, expected", [
    ("", [(4, "JNP306")]),  # eqx.filter_jit keeps an object JAX cannot flatten static, keyed by it
    # a registered pytree's arrays are traced, so a new one is used (measured: the second call gives 0)
    ("jax.tree_util.register_pytree_node(C, lambda c: ((c.w,), None), lambda _, w: C(*w))\n", []),
])
def test_stale_attribute_of_an_object_filter_jit_keeps(lint_body, registered, expected):
    body = "def g(x):\n    c = C(jnp.ones(2))\n    y = step(c, x)\n    c.w = jnp.zeros(2)\n"
    assert lint_body(HEADER + "import jax.numpy as jnp\n" + FILTERED.format(registered=registered), body,
                     "JNP306") == expected
    imported = FILTERED.replace("import equinox as eqx", "from equinox import filter_jit").replace("eqx.", "")
    assert lint_body(HEADER + "import jax.numpy as jnp\n" + imported.format(registered=registered), body,
                     "JNP306") == expected  # (the jit imported by its name)


BOUND = "class B:\n    def __init__(self):\n        self.k = 1.0\n        self.f = jax.jit(self._f)\n" \
        "        self.g = jax.jit(scale)\n\n    def _f(self, x):\n        return self._scale(x)\n\n" \
        "    def _scale(self, x):\n        return x * self.k\n\n\ndef scale(x):\n    return x\n"


@pytest.mark.parametrize("body, expected", [
    # a jit of a bound method traced self.k (through the method it calls): its compiled code keeps it
    ("def g(x):\n    b = B()\n    y = b.f(x)\n    b.k = 2.0\n", [(4, "JNP306")]),
    ("b = B()\nfor i in range(3):\n    y = b.f(1.0)\n    b.k += 1.0\n", [(4, "JNP306")]),
    ("def g(x):\n    b = B()\n    b.k = 2.0\n    return b.f(x)\n", []),  # changed before the first call
    ("def g(x):\n    b = B()\n    y = b.f(x)\n    b.other = 2.0\n", []),  # not read by the trace
    ("def g(x):\n    b = B()\n    y = b.g(x)\n    b.k = 2.0\n", []),  # a jit of a function: no self
    ("def g(x, c):\n    b = B()\n    if c:\n        b = B()\n    y = b.f(x)\n    b.k = 2.0\n", []),  # rebound    # a nested def's store is another object (its own parameter): only the scope's own store counts
    ("def g(x):\n    b = B()\n    y = b.f(x)\n    def inner(b):\n        b.k = 5.0\n    b.k = 2.0\n",
     [(6, "JNP306")]),
])
def test_stale_attribute_of_a_jitted_bound_method(lint_body, body, expected):
    assert lint_body(HEADER + BOUND, body, "JNP306") == expected
