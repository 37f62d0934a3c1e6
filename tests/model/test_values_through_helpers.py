"""Values through helpers and containers, and the transforms' reach within a file:
each case with a negative that must stay silent."""
import textwrap

import pytest

HEADER = "import typing\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom functools import partial\n"


def findings(lint_source, body):
    source = HEADER + textwrap.dedent(body)
    return [(line - HEADER.count("\n"), code) for line, code in lint_source(source)]


@pytest.mark.parametrize("body, expected", [
    # the result of grad inside jit is a tracer; outside traced code it is a device array
    ("@jax.jit\ndef f(p):\n    g = jax.grad(jnp.sum)(p)\n    return np.asarray(g)\n", [(4, "JNP201")]),
    ("def f(p, n):\n    for _ in range(n):\n        g = jax.grad(jnp.sum)(p)\n        print(g)\n",
     [(4, "JNP103")]),
    # a parameter annotated as an array is one; without the annotation it stays unknown
    ("def f(x: jax.Array, n):\n    for _ in range(n):\n        x = x + 1\n        print(x)\n", [(4, "JNP103")]),
    ("def f(x, n):\n    for _ in range(n):\n        x = x + 1\n        print(x)\n", []),
    ("@jax.jit\ndef f(x: jnp.ndarray):\n    return x.item()\n", [(3, "JNP202")]),
    # a jit parameter is a tree of tracers: whatever it is, a container has no .item()
    ("@jax.jit\ndef f(x):\n    return x.item()\n", [(3, "JNP202")]),
    ("@partial(jax.jit, static_argnums=0)\ndef f(x):\n    return x.item()\n", []),
    # a while loop's `a and b` runs b on every iteration that goes on; `a or b` only sometimes
    ("def f(n):\n    d = jnp.asarray(False)\n    i = 0\n    while i < n and not d:\n        i += 1\n"
     "        d = jnp.asarray(i > 5)\n", [(4, "JNP102")]),
    ("def f(n):\n    d = jnp.asarray(False)\n    i = 0\n    while i < n or d:\n        i += 1\n", []),
    ("def f(n):\n    d = jnp.asarray(False)\n    for i in range(n):\n        if i > 2 and d:\n            pass\n", []),
    # literal tuples unpack element by element
    ("def f(n):\n    for _ in range(n):\n        a, b = jnp.ones(3), 0\n        print(a, b)\n", [(4, "JNP103")]),
    # a same-file helper that returns a jax.numpy array
    ("def h(p):\n    return jnp.sum(p)\n\ndef f(p, n):\n    for _ in range(n):\n        print(float(h(p)))\n",
     [(6, "JNP102")]),
    ("def h(p):\n    if p:\n        return jnp.sum(p)\n\n"
     "def f(p, n):\n    for _ in range(n):\n        print(float(h(p)))\n",
     []),
    # an object whose __call__ jit traces
    ("class M:\n    def __call__(self, x):\n        return np.sin(x)\n\nf = jax.jit(M())\n", [(3, "JNP201")]),
    ("class M:\n    def __call__(self, x):\n        return np.sin(x)\n\nm = M()\nf = jax.jit(m)\n", [(3, "JNP201")]),
    ("class M:\n    def __call__(self, x):\n        return np.sin(x)\n\nm = M()\n", []),
    # a jitted method that stores a tracer in self's container
    ("class T:\n    def __init__(self):\n        self.seen = []\n\n    @partial(jax.jit, static_argnums=0)\n"
     "    def step(self, x):\n        self.seen.append(x * 2)\n        return x\n", [(7, "JNP303")]),
    ("class T:\n    def __init__(self):\n        self.seen = []\n\n    @partial(jax.jit, static_argnums=0)\n"
     "    def step(self, x):\n        self.seen.append(x.shape)\n        return x\n", []),
    # an optimizer's update is not a container's (haiku's IMPALA learner: self._opt.update(grads, state))
    ("class T:\n    def __init__(self, opt):\n        self._opt = opt\n\n    @partial(jax.jit, static_argnums=0)\n"
     "    def step(self, x, state):\n        return self._opt.update(x * 2, state)\n", []),
    # a module-level NumPy array uploaded on every iteration, unless something may change it
    ("W = np.ones(3, dtype=np.float32)\n\ndef f(p, n):\n    for _ in range(n):\n        p = p + jnp.asarray(W)\n",
     [(5, "JNP104")]),
    ("W = np.ones(3, dtype=np.float32)\nW[0] = 2.0\n\ndef f(p, n):\n    for _ in range(n):\n"
     "        p = p + jnp.asarray(W)\n", []),
    ("W = np.ones(3, dtype=np.float32)\n\ndef f(p, n):\n    for _ in range(n):\n        np.copyto(W, p)\n"
     "        p = p + jnp.asarray(W)\n", []),
])
def test_values_reach(lint_source, body, expected):
    assert findings(lint_source, body) == expected


JITTED = "@jax.jit\ndef step(p):\n    return p, {'loss': jnp.sum(p)}\n\n"


@pytest.mark.parametrize("body, expected", [
    # every leaf of a jitted result is a device array: mapped by a lambda that keeps it one, or listed
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n"
     "        m = jax.tree.map(lambda v: v.mean(), m)\n        print(f\"{m['loss']}\")\n", [(9, "JNP103")]),
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n"
     "        m = jax.tree_util.tree_map(lambda a, b: a + b, m, m)\n        print(m)\n", [(9, "JNP103")]),
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n"
     "        for leaf in jax.tree_util.tree_leaves(m):\n            float(leaf)\n", [(9, "JNP102")]),
    # a jitted result with .items() or .values() is a mapping of device subtrees (in a helper it is given
    # to, as in the loop); its keys are Python values
    ("def log(m):\n    return {k: float(v) for k, v in m.items()}\n\ndef f(p, n):\n    for _ in range(n):\n"
     "        p, m = step(p)\n        log(m)\n", [(6, "JNP102")]),
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n        print(sum(m.values()))\n",
     [(8, "JNP103")]),
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n        print([k for k in m.keys()])\n", []),
    # a lambda that fetches each leaf (a host tree: the fetch is the transfer), is_leaf= (a leaf may be a
    # subtree), a def, host trees: unknown
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n"
     "        m = jax.tree.map(lambda v: np.asarray(v), m)\n        print(m)\n", [(8, "JNP101")]),
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n"
     "        m = jax.tree.map(lambda v: v.mean(), m, is_leaf=callable)\n        print(m)\n", []),
    ("def mean(v):\n    return v.mean()\n\ndef f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n"
     "        m = jax.tree.map(mean, m)\n        print(m)\n", []),
    ("def f(p, n):\n    for _ in range(n):\n        m = jax.tree.map(lambda v: v.mean(), {'a': np.ones(3)})\n"
     "        print(m)\n", []),
    ("def f(p, n):\n    for _ in range(n):\n        for leaf in jax.tree.leaves({'a': np.ones(3)}):\n"
     "            float(leaf)\n", []),
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n"
     "        for leaf in jax.tree.leaves(m, is_leaf=callable):\n            float(leaf)\n", []),
    # an entry of a dict literal keeps its value while nothing can change the dict
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n        s = {'m': m, 'n': n}\n"
     "        float(s['m'])\n        float(s['n'])\n", [(9, "JNP102")]),
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n        s = {'m': m}\n"
     "        s['m'] = n\n        float(s['m'])\n", []),
    ("def f(p, n):\n    for _ in range(n):\n        p, m = step(p)\n        s = {'m': m}\n"
     "        reset(s)\n        float(s['m'])\n", []),
    # a field of a NamedTuple of the module, given by position or keyword; not another class's
    ("class R(typing.NamedTuple):\n    m: jax.Array\n    n: int\n\ndef f(p, n):\n    for _ in range(n):\n"
     "        p, m = step(p)\n        r = R(m, n=n)\n        float(r.m)\n        float(r.n)\n", [(13, "JNP102")]),
    ("class R:\n    def __init__(self, m, n):\n        self.m = 0\n\ndef f(p, n):\n    for _ in range(n):\n"
     "        p, m = step(p)\n        r = R(m, n=n)\n        float(r.m)\n", []),
])
def test_trees_of_device_arrays(lint_source, body, expected):
    assert findings(lint_source, JITTED + body) == expected


TRAINER = ("class T:\n    def __init__(self):\n        self.table = np.ones(3)\n\n"
           "    def fit(self, p, n):\n        for _ in range(n):\n            p, _ = step(self.table)\n"
           "            p = p + jnp.asarray(self.table)\n        return p\n")


@pytest.mark.parametrize("body, expected", [
    # NumPy data set once by __init__ and only read: the same upload on every call
    (TRAINER, [(11, "JNP104"), (12, "JNP104")]),
    # set again elsewhere (by any object), changed in place, or handed to an unknown call: not the same data
    (TRAINER + "\n    def reset(self):\n        self.table = np.zeros(3)\n", []),
    (TRAINER + "\nt = T()\nt.table = np.zeros(3)\n", []),
    (TRAINER + "\n    def bump(self):\n        self.table[0] += 1\n", []),
    (TRAINER + "\n    def shuffle(self, rng):\n        rng.shuffle(self.table)\n", []),
    (TRAINER.replace("np.ones(3)", "jnp.ones(3)"), []),
    (TRAINER.replace("    def fit(self", "    @staticmethod\n    def fit(self"), []),
])
def test_attributes_set_once_in_init(lint_source, body, expected):
    assert findings(lint_source, JITTED + body) == expected


HELPERS = "def forward(w, x):\n    return x @ w\n\ndef deep(w, x):\n    y = forward(w, x)\n    return y * 2\n\n"


@pytest.mark.parametrize("body, expected", [
    # what a helper computes from its parameters follows the call's arguments, helpers down
    ("@jax.jit\ndef f(w, x):\n    pred = forward(w, x)\n    return np.array(pred)\n", [(11, "JNP201")]),
    ("@jax.jit\ndef f(w, x):\n    return np.array(deep(w, x=x))\n", [(10, "JNP201")]),
    ("def f(n):\n    w, x = jnp.ones((3, 2)), jnp.ones(3)\n    for _ in range(n):\n        print(float(deep(w, x)))\n",
     [(11, "JNP102")]),
    ("class M:\n    def __init__(self, w):\n        self.w = w\n\n    def apply(self, x):\n"
     "        return x @ self.w\n\n    @partial(jax.jit, static_argnums=0)\n    def step(self, x):\n"
     "        return np.array(self.apply(x))\n", [(17, "JNP201")]),
    # NumPy or Python values in: not a JAX array out
    ("@jax.jit\ndef f(x):\n    return x * np.array(deep(np.ones((3, 2)), np.ones(3)))\n", []),
    ("def f(n):\n    for _ in range(n):\n        print(float(deep(np.ones((3, 2)), np.ones(3))))\n", []),
    # a return that may give the parameter itself, a pytree; recursion is not followed
    ("def pick(w, x):\n    if x is None:\n        return w\n    return x @ w\n\n"
     "@jax.jit\ndef f(w, x):\n    return np.array(pick(w, x))\n", []),
    ("def r(x):\n    return r(x)\n\n@jax.jit\ndef f(x):\n    return np.array(r(x))\n", []),
    # a decorated helper may return anything its decorator makes
    ("def unknown(f):\n    return f\n\n@unknown\ndef g(x):\n    return x * 2\n\n"
     "@jax.jit\ndef f(x):\n    return np.array(g(x))\n", []),
])
def test_helper_results_follow_their_arguments(lint_source, body, expected):
    assert findings(lint_source, HELPERS + body) == expected


@pytest.mark.parametrize("body, expected", [
    # extra traced arguments make *data a traced tuple; f(p, *data) traces what each parameter gets
    ("TABLE = np.ones(3, dtype=np.float32)\n\ndef update(fn, p, *data):\n    return jax.grad(fn)(p, *data)\n\n"
     "def make_step():\n    def loss(p, x, y):\n        return jnp.sum(p * x) * TABLE[y]\n\n"
     "    @jax.jit\n    def step(p, x, y):\n        return update(loss, p, x, y)\n\n    return step\n",
     [(8, "JNP201")]),
    ("def gather(*parts):\n    return np.stack(parts)\n\n@jax.jit\ndef f(x):\n    return gather(x, x)\n",
     [(2, "JNP201")]),
    # a traced tuple is a Python tuple: its truth, length and iteration are not the tracers'
    ("def total(*args):\n    if args:\n        out = args[0]\n        for a in args[1:]:\n            out = out + a\n"
     "        return out * len(args)\n    return 0.0\n\n@jax.jit\ndef f(x, y):\n    return total(x, y)\n", []),
    # NumPy data through *data stays NumPy: nothing traced enters
    ("def loss(p, x):\n    return np.sum(p * x)\n\ndef update(fn, p, *data):\n    return fn(p, *data)\n\n"
     "def run():\n    return update(loss, np.ones(2), np.ones(2))\n", []),
])
def test_star_args_carry_their_tracers(lint_source, body, expected):
    assert findings(lint_source, body) == expected


SCAN = "def scan_rows(t):\n    for r in t:\n        if r[0] > 0:\n            print(r)\n\n"


@pytest.mark.parametrize("body, expected", [
    # a call of the file that gives an untraced helper a device array runs the helper's sync
    ("def f():\n    scan_rows(jnp.ones((3, 2)))\n", [(3, "JNP102")]),
    ("def f():\n    scan_rows(np.ones((3, 2)))\n    return [scan_rows(t) for t in (jnp.ones((3, 2)),)]\n",
     [(3, "JNP102")]),
    ("scan_rows(jnp.ones((3, 2)))\n", [(3, "JNP102")]),
    ("def f(t):\n    scan_rows(t)\n\ndef g():\n    f(jnp.ones((3, 2)))\n", [(3, "JNP102")]),
    # NumPy or Python values in: nothing to sync
    ("def f():\n    scan_rows(np.ones((3, 2)))\n", []),
    ("def f(t):\n    scan_rows(t)\n\ndef g():\n    f(np.ones((3, 2)))\n", []),
    ("def f():\n    scan_rows([(1, 2), (3, 4)])\n", []),
])
def test_helpers_take_the_arrays_their_callers_give(lint_source, body, expected):
    assert findings(lint_source, SCAN + body) == expected


LAYER = ("class Drop:\n    def __init__(self, rate):\n        self.rate = rate\n\n"
         "    def __call__(self, x):\n        if self.rate == 0.0:\n            return x\n"
         "        return x * self.rate\n\n")
RATE_TEST = (6, "JNP202")


@pytest.mark.parametrize("body, expected", [
    # the object a traced call builds from a tracer and calls: __call__ sees the tracer in self.rate
    ("def f(r, x):\n    return Drop(r)(x)\n\njax.jit(f)(0.1, jnp.ones(3))\n", [RATE_TEST]),
    ("def f(r, x):\n    layer = Drop(r)\n    return layer(x)\n\njax.jit(f)(0.1, jnp.ones(3))\n", [RATE_TEST]),
    # built from a Python number, or the rate kept static
    ("def f(r, x):\n    return Drop(0.5)(x)\n\njax.jit(f)(0.1, jnp.ones(3))\n", []),
    ("def f(r, x):\n    return Drop(r)(x)\n\njax.jit(f, static_argnums=0)(0.1, jnp.ones(3))\n", []),
])
def test_a_called_object_holds_what_its_construction_stored(lint_source, body, expected):
    assert findings(lint_source, LAYER + body) == expected
