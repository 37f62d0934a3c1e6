"""JNP602/JNP603 edge cases: only a function that is really new per iteration, only clocks that
bracket JAX work with nothing in between that could wait for it."""
import pytest

HEADER = "import time\nfrom functools import partial\nimport jax\nimport jax.numpy as jnp\n"


def found(lint_body, body, code):
    return [line for line, _ in lint_body(HEADER, body, code)]


OPT_STEP = "import optax\n@partial(jax.jit, static_argnums=0)\ndef step(opt, p):\n    return opt.update(p, p)\n"
NNX_STEP = "import optax\nfrom flax import nnx\n@nnx.jit\ndef step(model, opt):\n    return model\n"


@pytest.mark.parametrize("body", [
    # the same module-level function: JAX's cache hits
    "def f(v):\n    return v\ndef g(x):\n    for i in range(3):\n        x = jax.jit(f)(x)\n",
    # a def made outside the loop is one function object
    "def g(x):\n    def h(v):\n        return v\n    for i in range(3):\n        x = jax.jit(h)(x)\n",
    # built in the loop but never called there
    "def g(x):\n    fns = []\n    for i in range(3):\n        fns.append(jax.jit(lambda v: v * i))\n    return fns\n",
    # grad and vmap do not compile by themselves
    "def g(x):\n    for i in range(3):\n        x = jax.grad(lambda v: v * 2.0)(x)\n",
    # a loop that runs once
    "def g(x):\n    for i in (1,):\n        x = jax.jit(lambda v: v)(x)\n",
    # a static argument that does not change, or a counter the loop rebinds
    "@partial(jax.jit, static_argnums=1)\ndef p(x, n):\n    return x * n\n"
    "def g(x):\n    for i in range(3):\n        x = p(x, 2)\n",
    "@partial(jax.jit, static_argnums=1)\ndef p(x, n):\n    return x * n\n"
    "def g(x):\n    for i in range(3):\n        i = 0\n        x = p(x, i)\n",
    # a counter passed to a traced (non-static) parameter
    "@jax.jit\ndef p(x, n):\n    return x * n\ndef g(x):\n    for i in range(3):\n        x = p(x, i)\n",
    # a static argument that is one function object, or a bound method (bound methods of one object
    # compare equal), on every iteration
    "@partial(jax.jit, static_argnames='fn')\ndef p(x, fn):\n    return fn(x)\n"
    "def g(x, xs):\n    for v in xs:\n        x = p(x, fn=jnp.tanh)\n",
    "@partial(jax.jit, static_argnames='fn')\ndef p(x, fn):\n    return fn(x)\n"
    "class M:\n    def act(self, v):\n        return v\n"
    "def g(x, xs, m: M):\n    m = M()\n    for v in xs:\n        x = p(x, fn=m.act)\n",
    # a lambda given to a traced (non-static) parameter is not hashed
    "@jax.jit\ndef p(x, y):\n    return x\ndef g(x, xs):\n    for v in xs:\n        x = p(x, lambda u: u)\n",
    # a loop inside traced code unrolls at trace time
    "@jax.jit\ndef g(x):\n    for i in range(3):\n        x = jax.jit(lambda v: v + 1)(x)\n    return x\n",
    # a comprehension giving the counter where the function asks for a static value: one compile per
    # value on purpose; a filter_jit comprehension over other values, or run once
    "@partial(jax.jit, static_argnums=0)\ndef p(n, x):\n    return x * n\n"
    "def g(x):\n    return [p(n, x) for n in range(3)]\n",
    "import equinox as eqx\n@eqx.filter_jit\ndef p(n, x):\n    return x * n\n"
    "def g(x, ns):\n    return [p(n, x) for n in ns]\n",
    # an optimizer made once (at module level, or by the loop's caller) and given as a static argument
    OPT_STEP + "OPT = optax.adam(1e-2)\ndef train(p):\n    return step(OPT, p)\n"
    "def g(p):\n    return [train(p) for _ in range(3)]\n",
    OPT_STEP + "def train(opt, p):\n    return step(opt, p)\n"
    "def g(p):\n    opt = optax.adam(1e-2)\n    return [train(opt, p) for _ in range(3)]\n",
    # an nnx.Optimizer built in the loop around one optimizer made before it, or a holder under jax.jit
    NNX_STEP + "def g(model):\n    tx = optax.adam(1e-3)\n    for _ in range(3):\n"
    "        step(model, nnx.Optimizer(model, tx, wrt=nnx.Param))\n",
    NNX_STEP + "f = jax.jit(lambda m, o: m)\ndef g(model):\n    for _ in range(3):\n"
    "        f(model, nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param))\n",
    # made anew but given to a traced parameter
    "import optax\n@jax.jit\ndef step(lr, p):\n    return p * lr\ndef train(p):\n    return step(optax.adam(1e-2), p)\n"
    "def g(p):\n    return [train(p) for _ in range(3)]\n",
    "import equinox as eqx\n@eqx.filter_jit\ndef p(n, x):\n    return x * n\n"
    "def g(x):\n    return [p(n, x) for n in range(1)]\n",
    # the primal output of jax.vjp is no function; a pullback taken before the loop is one object
    "def g(xs):\n    for x in xs:\n        y, _ = jax.vjp(jnp.sin, x)\n        jax.jit(jnp.cos)(y)\n",
    "def g(x, vs):\n    _, pb = jax.vjp(jnp.sin, x)\n    pb = jax.jit(pb)\n    for v in vs:\n        pb(v)\n",
    # rebound to a module-level function after the unpacking
    "def g(xs):\n    for x in xs:\n        _, pb = jax.vjp(jnp.sin, x)\n        pb = jnp.cos\n"
    "        jax.jit(pb)(x)\n",
    # jax.closure_convert gives the same function again for the same function and shapes (cached, measured)
    "def g(xs):\n    for x in xs:\n        conv, consts = jax.closure_convert(jnp.sin, x)\n"
    "        jax.jit(conv)(x, *consts)\n",
    # ... or maybe rebound, in a nested block: the unpacking is not the binding that reaches the jit
    "def g(xs, custom):\n    for x in xs:\n        _, pb = jax.vjp(jnp.sin, x)\n        if custom:\n"
    "            pb = jnp.cos\n        jax.jit(pb)(x)\n",
])
def test_recompile_silent(lint_body, body):
    assert found(lint_body, body, "JNP602") == []


STEP = "@jax.jit\ndef f(v):\n    return v[:, -1:]\n"


@pytest.mark.parametrize("body", [
    # a fixed-size buffer, a window cut back to a fixed size, a growing name the step never sees
    STEP + "def g(x):\n    for i in range(9):\n        x = x.at[:, i].set(f(x)[:, 0])\n",
    STEP + "def g(x):\n    for i in range(9):\n        x = jnp.concatenate([x, f(x)], axis=1)[:, -4:]\n",
    STEP + "def g(x):\n    out = x\n    for i in range(9):\n        out = jnp.concatenate([out, f(x)], axis=1)\n",
    # rebound to something else too, or grown only by another name
    STEP + "def g(x):\n    for i in range(9):\n        x = jnp.concatenate([x, f(x)], axis=1)\n        x = x[:, 1:]\n",
    STEP + "def g(x, y):\n    for i in range(9):\n        y = jnp.concatenate([x, f(x)], axis=1)\n",
    # an unjitted function compiles nothing
    "def h(v):\n    return v\ndef g(x):\n    for i in range(9):\n        x = jnp.append(x, h(x))\n",
])
def test_growing_argument_silent(lint_body, body):
    assert found(lint_body, body, "JNP602") == []


@pytest.mark.parametrize("body, line", [
    ("def g(x):\n    while True:\n        x = jax.jit(lambda v: v)(x)\n", 3),
    ("def g(x):\n    for i in range(3):\n        x = jax.pmap(partial(jnp.add, 1.0))(x)\n", 3),
    ("def p(x, n):\n    return x * n\nq = jax.jit(p, static_argnames='n')\n"
     "def g(x):\n    for i in range(3):\n        x = q(x, i)\n", 6),
    ("def g(x):\n    for i in range(3):\n        @jax.jit\n        def h(v):\n            return v\n"
     "        x = h(x)\n", 3),
    # a comprehension giving the counter where a framework keeps Python values static unasked
    ("import equinox as eqx\n@eqx.filter_jit\ndef p(n, x):\n    return x * n\n"
     "def g(x):\n    return [p(n, x) for n in range(3)]\n", 6),
    ("import equinox as eqx\nclass M(eqx.Module):\n    w: jax.Array\n    n: int\n"
     "@eqx.filter_jit\ndef p(m, x):\n    return m.w * x + m.n\n"
     "def g(x):\n    return {s: p(M(x, s + 1), x) for s in range(3)}\n", 9),
    # an nnx.Optimizer built in the loop around a new optimizer: nnx.jit keeps its tx static
    (NNX_STEP + "def g(model):\n    for _ in range(3):\n        tx = optax.sgd(0.1)\n"
     "        opt = nnx.Optimizer(model, tx=tx, wrt=nnx.Param)\n        step(model, opt)\n", 10),
    # a new optimizer made by each call of a def a loop calls, given as a static argument
    (OPT_STEP + "def train(p):\n    opt = optax.adam(1e-2)\n    for _ in range(5):\n        p = step(opt, p)\n"
     "    return p\ndef g(p):\n    for _ in range(3):\n        p = train(p)\n", 8),
    # a new lambda or partial as a static argument, whatever the loop iterates
    ("@partial(jax.jit, static_argnames='fn')\ndef p(x, fn):\n    return fn(x)\n"
     "def g(x, xs):\n    for v in xs:\n        x = p(x, fn=lambda u: u * 2.0)\n", 6),
    ("@partial(jax.jit, static_argnums=1)\ndef p(x, fn):\n    return fn(x)\ndef h(u, s):\n    return u * s\n"
     "def g(x, xs):\n    for v in xs:\n        x = p(x, partial(h, s=2.0))\n", 8),
    # the function a transform makes on each call (measured: jax.vjp's pullback, jax.linearize's)
    ("def g(xs, v):\n    for x in xs:\n        _, pb = jax.vjp(jnp.sin, x)\n        pb = jax.jit(pb)\n"
     "        pb(v)\n", 4),
    ("def g(xs, t):\n    for x in xs:\n        _, f_jvp = jax.linearize(jnp.sin, x)\n"
     "        jax.jit(f_jvp)(t)\n", 4),
])
def test_recompile_reported(lint_body, body, line):
    assert found(lint_body, body, "JNP602") == [line]


@pytest.mark.parametrize("body, line", [
    (STEP + "def g(x):\n    for i in range(9):\n        t = f(x)\n        x = jnp.concatenate([x, t], axis=1)\n", 6),
    (STEP + "def g(x):\n    while True:\n        x = jnp.hstack((x, f(v=x)))\n", 6),
    (STEP + "def g(x):\n    for i in range(9):\n        x = jnp.append(x, 1.0)\n        f(x)\n", 7),
])
def test_growing_argument_reported(lint_body, body, line):
    assert found(lint_body, body, "JNP602") == [line]


TIMER = "f = jax.jit(jnp.sin)\nclass Timer:\n    def __enter__(self):\n        self.start = time.perf_counter()\n" \
        "        return self\n    def __exit__(self, *exc):\n        self.elapsed = time.perf_counter() - self.start\n"


@pytest.mark.parametrize("body", [
    # something between the clock reads waits for the device, or might
    "def g(x):\n    t = time.time()\n    y = jnp.dot(x, x)\n    print(y)\n    return time.time() - t\n",
    "def g(x):\n    t = time.time()\n    y = jnp.dot(x, x).block_until_ready()\n    return time.time() - t\n",
    "def g(x, f):\n    t = time.time()\n    y = f(x)\n    return time.time() - t\n",
    "def g(x):\n    t = time.time()\n    y = jnp.dot(x, x)\n    return f'{y} {time.time() - t}'\n",
    "def g(x):\n    t = time.time()\n    y = jnp.dot(x, x).item()\n    return time.time() - t\n",
    # no JAX work in between, or not in the same block
    "def g(x):\n    t = time.time()\n    return time.time() - t\n",
    "def g(x, c):\n    t = time.time()\n    if c:\n        y = jnp.dot(x, x)\n    return time.time() - t\n",
    # inside traced code the clock is read at trace time (JNP305's business)
    "@jax.jit\ndef g(x):\n    t = time.time()\n    y = jnp.dot(x, x)\n    return y, time.time() - t\n",
    # a loop of JAX calls that waits: a sync after it, in it, in its test or its iterable; host-only loops
    "def g(x, bs):\n    t = time.time()\n    for b in bs:\n        x = jnp.dot(x, b)\n"
    "    jax.block_until_ready(x)\n    return time.time() - t\n",
    "def g(x, bs):\n    t = time.time()\n    for b in bs:\n        x = jnp.dot(x, b)\n        print(x)\n"
    "    return time.time() - t\n",
    "def g(x):\n    x = jnp.asarray(x)\n    t = time.time()\n    while x.sum() > 1:\n        x = jnp.sqrt(x)\n"
    "    return time.time() - t\n",
    "def g(x):\n    t = time.time()\n    for r in jnp.sqrt(x):\n        y = jnp.sin(r)\n"
    "    return time.time() - t\n",
    "def g(bs):\n    t = time.time()\n    for b in bs:\n        y = sorted(b)\n    return time.time() - t\n",
    "def g(x, bs):\n    t = time.time()\n    for b in bs:\n        x = jnp.dot(x, b)\n    else:\n"
    "        x.block_until_ready()\n    return time.time() - t\n",
    # an every-N block that waits before its clock read, or a loop that waits every step
    "f = jax.jit(jnp.sin)\ndef g(x, n):\n    t = time.time()\n    for i in range(n):\n        x = f(x)\n"
    "        if i % 10 == 0:\n            v = x.item()\n            print(v, time.time() - t)\n",
    "f = jax.jit(jnp.sin)\ndef g(x, n):\n    t = time.time()\n    for i in range(n):\n        x = f(x)\n"
    "        print(x)\n        if i % 10 == 0:\n            print(time.time() - t)\n",
    # restarted before the wait (Haiku's runahead): the next interval holds it, the rate adds up
    "f = jax.jit(jnp.sin)\ndef g(x, n):\n    t = time.time()\n    for i in range(n):\n        x = f(x)\n"
    "        if i % 10 == 0:\n            dt = time.time() - t\n            t = time.time()\n"
    "            print(x.item(), dt)\n",
    # cumulative time, never restarted
    "f = jax.jit(jnp.sin)\ndef g(x, n):\n    t = time.time()\n    for i in range(n):\n        x = f(x)\n"
    "        if i % 10 == 0:\n            print(time.time() - t, x.item())\n",
    # a region started before a loop that waits somewhere in its body: the time holds the steps so far
    "f = jax.jit(jnp.sin)\ndef g(x, n):\n    t = time.time()\n    for i in range(n):\n        x = f(x)\n"
    "        print(time.time() - t)\n        print(x.item())\n",
    # restarted in the loop: the per-step region is the block's own (_unsynchronised)
    "f = jax.jit(jnp.sin)\ndef g(x, n):\n    t = time.time()\n    for i in range(n):\n        x = f(x)\n"
    "        x.block_until_ready()\n        print(time.time() - t)\n        t = time.time()\n",
    # a comprehension over device data waits for it; a generator expression queues nothing yet
    "f = jax.jit(jnp.sin)\ndef g(x):\n    t = time.time()\n    ys = [f(r) for r in jnp.sqrt(x)]\n"
    "    return time.time() - t\n",
    "f = jax.jit(jnp.sin)\ndef g(x):\n    t = time.time()\n    ys = (f(x) for _ in range(3))\n"
    "    return time.time() - t\n",
    # a timer class that reads the clock on entry only, and a timed block that waits
    TIMER.replace("        self.elapsed = time.perf_counter() - self.start", "        pass")
    + "def g(x):\n    with Timer():\n        y = f(x)\n",
    TIMER + "def g(x):\n    with Timer():\n        y = f(x).block_until_ready()\n",
    # every branch that reads the clock after the work waits first; a branch test that reads the device
    "f = jax.jit(jnp.sin)\ndef g(x, sync):\n    t = time.time()\n    x = f(x)\n    if sync:\n"
    "        x.block_until_ready()\n        dt = time.time() - t\n    else:\n        dt = None\n    return dt\n",
    "f = jax.jit(jnp.sin)\ndef g(x):\n    t = time.time()\n    x = f(x)\n    if x.sum() > 0:\n"
    "        dt = time.time() - t\n    else:\n        dt = time.time() - t\n    return dt\n",
    # an if whose body returns without reading the clock, the rest waiting first
    "f = jax.jit(jnp.sin)\ndef g(x, n, quick):\n    t = time.time()\n    for _ in range(n):\n        x = f(x)\n"
    "    if quick:\n        return x\n    jax.block_until_ready(x)\n    return time.time() - t\n",
])
def test_timing_silent(lint_body, body):
    assert found(lint_body, body, "JNP603") == []


@pytest.mark.parametrize("body, line", [
    ("def g(x):\n    t = time.monotonic()\n    jnp.dot(x, x)\n    return time.monotonic() - t\n", 4),
    # a list comprehension of jitted calls queues each; a timer class whose __exit__ reads the clock
    ("f = jax.jit(jnp.sin)\ndef g(x, n):\n    t = time.time()\n    ys = [f(x) for _ in range(n)]\n"
     "    return time.time() - t\n", 5),
    (TIMER + "def g(x, n):\n    with Timer() as timer:\n        ys = [f(x) for _ in range(n)]\n", 9),
    ("f = jax.jit(jnp.sin)\nt = time.perf_counter()\ny = f(jnp.ones(3))\nt2 = time.perf_counter()\n", 4),
    # a loop of jitted calls, with host work that touches no device value, nothing waiting after it
    ("f = jax.jit(jnp.sin)\ndef g(x, bs):\n    t = time.time()\n    for b in bs:\n        h = list(b)\n"
     "        x = f(x + h[0])\n    return time.time() - t\n", 7),
    # the clock read of an every-N block, before the conversion that would wait
    ("f = jax.jit(jnp.sin)\ndef g(x, n):\n    t = time.time()\n    for i in range(n):\n        x = f(x)\n"
     "        if i % 10 == 0:\n            dt = time.time() - t\n            print(x.item(), dt)\n"
     "            t = time.time()\n", 7),
    # flax's freeze (and unfreeze) keeps device leaves on the device: the call still only queues work
    ("from flax.core import freeze\nf = jax.jit(lambda p, b: p)\ndef g(p, bs):\n    p = f(p, 0.0)\n"
     "    t = time.time()\n    for b in bs:\n        f(freeze(p), b)\n    return time.time() - t\n", 8),
    # a region started before a loop that only queues JAX work: each read in the loop measures dispatch
    ("f = jax.jit(jnp.sin)\ndef g(x, n):\n    t = time.time()\n    for i in range(n):\n        x = f(x)\n"
     "        print(i, time.time() - t)\n", 6),
    # the branch of an if on a Python flag that reads the clock before anything waits
    ("f = jax.jit(jnp.sin)\ndef g(x, n, sync):\n    t = time.time()\n    for _ in range(n):\n        x = f(x)\n"
     "    if sync:\n        jax.block_until_ready(x)\n        dt = time.time() - t\n    else:\n"
     "        dt = time.time() - t\n    return dt\n", 10),
    # after an if on a Python flag whose body waits and returns: the rest is its else
    ("f = jax.jit(jnp.sin)\ndef g(x, n, sync):\n    t = time.time()\n    for _ in range(n):\n        x = f(x)\n"
     "    if sync:\n        jax.block_until_ready(x)\n        return time.time() - t\n"
     "    return time.time() - t\n", 9),
])
def test_timing_reported(lint_body, body, line):
    assert found(lint_body, body, "JNP603") == [line]


def test_static_counter_with_only_a_decorated_jit(lint_body):
    """The module's only use of jit is a decorator: the loop check still runs."""
    body = "@partial(jax.jit, static_argnums=1)\ndef p(x, n):\n    return x * n\n" \
           "def g(x):\n    for i in range(3):\n        x = p(x, i)\n"
    assert lint_body(HEADER, body, "JNP602") == [(6, "JNP602")]


JITTED_OBJECT = "@partial(jax.jit, static_argnums=0)\ndef p(opt, x):\n    return x\n" \
                "class Momentum:\n    def __init__(self, rate):\n        self.rate = rate\n"


@pytest.mark.parametrize("body, lines", [
    # a plain object built on every iteration at a static position: a new key each time (the control)
    (JITTED_OBJECT + "def g(x):\n    for _ in range(3):\n        opt = Momentum(0.1)\n        p(opt, x)\n", [10]),
    # built under a branch that runs once: one object, one compilation (measured: 1 trace)
    (JITTED_OBJECT + "def g(x):\n    opt = None\n    for _ in range(3):\n        if opt is None:\n"
     "            opt = Momentum(0.1)\n        p(opt, x)\n", []),
    # __eq__ and __hash__ bound by assignment: equal objects are one key (measured: 1 trace)
    (JITTED_OBJECT + "class Keyed:\n    def __init__(self, rate):\n        self.rate = rate\n"
     "    __eq__ = lambda self, other: self.rate == other.rate\n    __hash__ = lambda self: hash(self.rate)\n"
     "def g(x):\n    for _ in range(3):\n        p(Keyed(0.1), x)\n", []),
    # a registered pytree under eqx.filter_jit: its arrays are traced, its object is no key (measured:
    # 1 trace)
    ("import equinox as eqx\n@eqx.filter_jit\ndef f(tree, x):\n    return x\n"
     "class Tree:\n    def __init__(self, w):\n        self.w = w\n"
     "jax.tree_util.register_pytree_node(Tree, lambda t: ((t.w,), None), lambda _, c: Tree(*c))\n"
     "def g(x):\n    for _ in range(3):\n        f(Tree(jnp.ones(2)), x)\n", []),
])
def test_a_new_object_is_a_new_key_only_when_built_each_time_and_hashed_by_identity(lint_body, body, lines):
    """``new_object_every_iteration``: the object is built on every iteration, JAX cannot flatten it and
    its class binds no ``__eq__`` or ``__hash__``."""
    assert found(lint_body, body, "JNP602") == lines
