"""JNP601 edge cases: what rebinds a key, and where the check cannot tell and stays silent."""
import pytest

from snippets import messages

HEADER = "import jax\nfrom jax import random\n"


def codes(lint_body, body):
    return lint_body(HEADER, body, "JNP601")


@pytest.mark.parametrize("body", [
    # rebound through split or a new key between the uses
    "def f(key):\n    key, sub = random.split(key)\n    a = random.normal(sub)\n    return a, random.normal(key)\n",
    "def f(key):\n    a = random.normal(key)\n    key = random.fold_in(key, 1)\n    return a, random.normal(key)\n",
    # consumed on one path only
    "def f(key, c):\n    if c:\n        a = random.normal(key)\n    return random.normal(key)\n",
    # a loop that may leave after one iteration, or runs once
    "def f(key, xs):\n    for x in xs:\n        if x:\n            break\n        random.normal(key)\n",
    "def f(key):\n    for x in (1,):\n        random.normal(key)\n",
    "def f(key):\n    for i in range(1):\n        random.normal(key)\n",
    # a global or nonlocal key may be rebound elsewhere; attributes are not followed
    "KEY = random.key(0)\ndef f():\n    global KEY\n    a = random.normal(KEY)\n    return random.normal(KEY)\n",
    "def f(self):\n    a = random.normal(self.key)\n    return random.normal(self.key)\n",
    # each item binds its own key
    "def f(keys):\n    return [random.normal(k) for k in keys]\n",
    # a seeded sampler given a fresh subkey each time; another method's seed; a sampler given no seed keyword
    "def f(dist, key):\n    key, sub = random.split(key)\n    a = dist.sample(seed=sub)\n"
    "    return dist.sample(seed=key)\n",
    "def f(dist, key):\n    a = dist.log_prob(1.0, seed=key)\n    return dist.sample(seed=key)\n",
    "def f(dist, key):\n    a = dist.sample(key)\n    return dist.sample(key)\n",
    # rebound inside try: forgotten
    "def f(key):\n    a = random.normal(key)\n    try:\n        key = random.split(key)[0]\n"
    "    except ValueError:\n        pass\n    return random.normal(key)\n",
    # an arm taken on every iteration, or one whose test the loop changes: only what the arm repeats counts
    "def f(key, fold):\n    for i in range(3):\n        if fold:\n            key = random.fold_in(key, i)\n"
    "        else:\n            key, sub = random.split(key)\n        x = random.normal(key)\n",
    "def f(key, c):\n    for i in range(3):\n        if c:\n            x = random.normal(key)\n"
    "        c = not c\n",
    "def f(key, c):\n    for i in range(3):\n        key, sub = random.split(key)\n        if c:\n"
    "            x = random.normal(sub)\n        y = random.uniform(key)\n",
])
def test_silent(lint_body, body):
    assert codes(lint_body, body) == []


@pytest.mark.parametrize("body, line", [
    ("def f(key):\n    a = random.uniform(key)\n    return random.bernoulli(key)\n", 3),
    ("def f(key):\n    a = random.normal(key=key)\n    return random.normal(key)\n", 3),
    ("def f(key, c):\n    if c:\n        a = random.normal(key)\n    else:\n        a = random.uniform(key)\n"
     "    return random.normal(key)\n", 6),
    ("def f(key):\n    while True:\n        x = random.normal(key)\n", 3),
    # the arm of an `if` the loop cannot change runs on every iteration once it runs
    ("def f(key, c):\n    for i in range(3):\n        if c:\n            x = random.normal(key)\n", 4),
    ("def f(key, c):\n    for i in range(3):\n        if not c:\n            pass\n        else:\n"
     "            x = random.normal(key)\n", 6),
    ("def f(key):\n    for i in range(2, 5):\n        x = random.normal(key)\n", 3),
    ("def f(key):\n    k1, k2 = random.split(key)\n    return random.normal(k1) + random.normal(k1)\n", 3),
    ("key = random.key(0)\nx = random.normal(key)\ny = random.normal(key)\n", 3),
    ("def f(key, n):\n    return {i: random.normal(key) for i in range(n)}\n", 2),
    # a distribution's sampler draws from its seed, as a jax.random sampler draws from its key
    ("def f(dist, key):\n    a = dist.sample(seed=key)\n    return random.normal(key)\n", 3),
    ("def f(dist, key):\n    a = random.normal(key)\n    return dist.sample(seed=key)\n", 3),
    ("def f(dist, key):\n    a, logp = dist.sample_and_log_prob(seed=key)\n    return dist.sample(seed=key)\n", 3),
    # a match statement in the loop (its patterns hold constants, not nodes) rebinds nothing of the key
    ("def f(key, xs):\n    for x in xs:\n        match x:\n            case True:\n                pass\n"
     "        y = random.normal(key)\n", 6),
])
def test_reported_at_second_use(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


def test_long_elif_chain_of_draws(lint_body):
    arms = "".join(f"    elif c == {i}:\n        x = random.normal(key)\n" for i in range(1, 2000))
    body = f"def f(key, c):\n    if c == 0:\n        x = random.normal(key)\n{arms}" \
        "    else:\n        x = random.uniform(key)\n    return random.normal(key)\n"
    assert codes(lint_body, body) == [(4004, "JNP601")]


# A split none of whose outputs is used draws bits nobody sees: the key's next use repeats nothing.
@pytest.mark.parametrize("body", [
    "def f(key):\n    random.split(key)\n    return random.split(key)\n",
    "def f(key):\n    _, _ = random.split(key)\n    return random.split(key)\n",
    "def f(key):\n    old, _ = random.split(key)\n    return random.split(key)\n",
    "def f(key):\n    a = random.split(key)\n    random.split(key, 3)\n    return a\n",
    "def f(key, n):\n    for _ in range(n):\n        random.split(key)\n        key, sub = random.split(key)\n"
    "        random.normal(sub)\n",
    "_KEYS = random.split(random.key(0))\ndef f(key):\n    jax.random.split(key)\n    return random.split(key)\n",
])
def test_unused_split_consumes_nothing(lint_body, body):
    assert codes(lint_body, body) == []


# A split whose outputs are all bound again before anything reads them is dead: it consumes nothing.
@pytest.mark.parametrize("body", [
    "def f(key, other):\n    a, b = random.split(key)\n    a, b = random.split(other)\n"
    "    return a, b, random.split(key)\n",
    "def f(key, other):\n    a, b = random.split(key)\n    a = random.normal(other)\n    b: int = 0\n"
    "    return a, b, random.split(key)\n",
    "def f(key, other, c):\n    if c:\n        a, b = random.split(key)\n        x = random.split(key)\n"
    "    a, b = random.split(other)\n    return a, b\n",
    "def f(key, other):\n    for i in range(3):\n        a, b = random.split(key)\n"
    "        a, b = random.split(random.fold_in(other, i))\n    return a, b\n",
    "A, B = random.split(KEY)\nA, B = random.split(OTHER)\nC = random.split(KEY)\n",
    "def f(key, other, lock):\n    with lock:\n        a, b = random.split(key)\n        x = random.split(key)\n"
    "    a, b = random.split(other)\n    return a, b\n",
    # bound again in both branches of an if, or in a with
    "def f(key, other, c):\n    a, b = random.split(key)\n    if c:\n        a, b = random.split(other)\n    else:\n"
    "        a = b = random.normal(other)\n    return a, b, random.split(key)\n",
    "def f(key, other, lock):\n    a, b = random.split(key)\n    with lock:\n        a, b = random.split(other)\n"
    "    return a, b, random.split(key)\n",
    # bound again by the first iteration of a loop that follows, before anything reads them
    "def f(key, n, steps):\n    subs = random.split(key, n)\n    for _ in range(steps):\n"
    "        key, *subs = random.split(key, n + 1)\n        random.normal(subs[0])\n    return key\n",
    "def f(key, n, done):\n    subs = random.split(key, n)\n    while not done():\n"
    "        key, *subs = random.split(key, n + 1)\n        random.normal(subs[0])\n",
])
def test_overwritten_split_consumes_nothing(lint_body, body):
    assert codes(lint_body, body) == []


@pytest.mark.parametrize("body, line", [
    # read before the rebinding, by the rebinding itself, or by a nested function
    ("def f(key, other):\n    a, b = random.split(key)\n    x = random.normal(a)\n    a, b = random.split(other)\n"
     "    return x, a, b, random.split(key)\n", 5),
    ("def f(key):\n    a, b = random.split(key)\n    a, b = random.split(a)\n    return a, b, random.split(key)\n", 4),
    ("def f(key, other):\n    a, b = random.split(key)\n    g = lambda: a\n    a, b = random.split(other)\n"
     "    return g, b, random.split(key)\n", 5),
    # only one of the outputs is bound again, or only on one path
    ("def f(key, other):\n    a, b = random.split(key)\n    a = random.normal(other)\n"
     "    return a, b, random.split(key)\n", 4),
    ("def f(key, other, c):\n    a, b = random.split(key)\n    if c:\n        a, b = random.split(other)\n"
     "    return a, b, random.split(key)\n", 5),
    ("def f(key, other, c):\n    a, b = random.split(key)\n    if c:\n        a, b = random.split(other)\n    else:\n"
     "        x = a\n        a, b = random.split(other)\n    return x, a, b, random.split(key)\n", 8),
    # a loop that reads them before its own split, may leave before it, or tests them; a read after the loop
    ("def f(key, n, steps):\n    subs = random.split(key, n)\n    for _ in range(steps):\n"
     "        random.normal(subs[0])\n        key, *subs = random.split(key, n + 1)\n", 5),
    ("def f(key, n, steps):\n    subs = random.split(key, n)\n    for s in steps:\n        if s:\n"
     "            break\n        key, *subs = random.split(key, n + 1)\n        random.normal(subs[0])\n", 6),
    ("def f(key, n):\n    subs = random.split(key, n)\n    while subs is not None:\n"
     "        key, *subs = random.split(key, n + 1)\n        random.normal(subs[0])\n", 4),
    ("def f(key, n, steps):\n    subs = random.split(key, n)\n    for _ in range(steps):\n"
     "        key, *subs = random.split(key, n + 1)\n        random.normal(subs[0])\n    return subs\n", 4),
])
def test_split_read_before_rebinding_consumes(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


@pytest.mark.parametrize("body, line", [
    ("def f(key):\n    a, b = random.split(key)\n    c, d = random.split(key)\n    return a, d\n", 3),
    ("def f(key):\n    a, b = random.split(key)\n    def g():\n        return a\n"
     "    return g, random.split(key)\n", 5),  # read by a nested function
    ("def f(key):\n    global a\n    a, b = random.split(key)\n    return random.split(key)\n", 4),
    ("def f(key):\n    s = {}\n    s['k'], b = random.split(key)\n    return s, random.split(key)\n", 4),
    ("A, B = random.split(KEY)\nC = random.split(KEY)\n", 2),  # module names others may import
])
def test_used_split_still_consumes(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


# A draw from a key and a split of it share bits (measured: each 32-bit draw is the XOR of a
# subkey's two words), in either order: JNP606, not JNP601.
@pytest.mark.parametrize("body, line", [
    ("def f(key):\n    a = random.normal(key)\n    return random.split(key)\n", 3),
    ("def f(key):\n    a = random.normal(key)\n    key, sub = random.split(key)\n"
     "    return a, random.normal(sub)\n", 3),
    ("def f(key):\n    k1, k2 = random.split(key)\n    x = random.normal(key)\n    return x, k1, k2\n", 3),
    ("def f(key, c):\n    if c:\n        a = random.normal(key)\n    else:\n        a = random.split(key)\n"
     "    return a, random.uniform(key)\n", 6),  # a draw on one path, a split on the other: shared bits on both
    ("def f(dist, key):\n    k1, k2 = random.split(key)\n    a = random.normal(k1)\n"
     "    return dist.sample(seed=key)\n", 4),
])
def test_draw_and_split_of_one_key(lint_body, body, line):
    assert lint_body(HEADER, body, "JNP601", "JNP606") == [(line, "JNP606")]


# Each use is judged against an earlier one of its own kind: a draw after a split and a draw is JNP601.
@pytest.mark.parametrize("body, found", [
    ("def f(key):\n    k1, k2 = random.split(key)\n    x = random.normal(key)\n    return k1, x, random.uniform(key)\n",
     [(3, "JNP606"), (4, "JNP601")]),
    ("def f(key):\n    x = random.normal(key)\n    k = random.split(key)\n    return k, random.split(key, 3)\n",
     [(3, "JNP606"), (4, "JNP601")]),
    # the split on every iteration repeats the subkeys: JNP601 wins over the first pass's JNP606
    ("def f(key):\n    while True:\n        x = random.normal(key)\n        k = random.split(key)\n"
     "        y = random.normal(k)\n",
     [(3, "JNP601"), (4, "JNP601")]),
])
def test_each_use_against_its_own_kind(lint_body, body, found):
    assert lint_body(HEADER, body, "JNP601", "JNP606") == found


def text_of(body):
    return [m for m in messages(HEADER + body) if "JNP60" in m]


def test_draw_and_split_message_says_what_is_shared():
    assert text_of("def f(key):\n    a = random.normal(key)\n    return a, random.split(key)\n") == [
        "JNP606 'key' was already drawn from by random.normal() on line 4; a draw from a key and the subkeys "
        "split() makes of it share bits (with jax_threefry_partitionable on, the default since JAX 0.5, each "
        "32-bit draw is the XOR of a subkey's two words), though no correlation between their numbers was "
        "measured: split first and draw from a subkey"]


# JNP601 says what the second use gives: the same numbers (one sampler called the same way), numbers
# from the same bits (another sampler, other arguments, a helper), or the same subkeys (split again).
@pytest.mark.parametrize("body, says", [
    ("def f(key):\n    a = random.normal(key, (3,))\n    return a, random.normal(key, (3,))\n", "same numbers again"),
    ("def f(key):\n    return [random.normal(key, (3,)) for _ in range(4)]\n", "same numbers again"),
    ("def f(key):\n    a = random.normal(key, (3,))\n    return a, random.uniform(key, (3,))\n", "same random bits"),
    ("def f(key):\n    a = random.normal(key, (3,))\n    return a, random.normal(key, (4,))\n", "same random bits"),
    ("def f(dist, key):\n    a = dist.sample(seed=key)\n    return a, dist.sample(seed=key)\n", "same random bits"),
    # split(key, n) is the first n of split(key, m) only with jax_threefry_partitionable on (JAX 0.5 and later)
    ("def f(key):\n    a = random.split(key, 5)\n    return a, random.split(key, 64)\n",
     "same first subkeys again (with jax_threefry_partitionable on, the default since JAX 0.5"),
    ("def f(key):\n    a = random.split(key, 5)\n    return a, random.split(key, 5)\n", "gives the same subkeys again"),
    # one call repeated by a loop whose shapes, or counts, change with it
    ("def f(key, sizes):\n    return [random.normal(key, (m,)) for m in sizes]\n", "same random bits"),
    ("def f(key, sizes):\n    for m in sizes:\n        x = random.normal(key, (m,))\n", "same random bits"),
    ("def f(key, sizes):\n    for m in sizes:\n        x = random.normal(key, (4,))\n", "same numbers again"),
    ("def f(key, sizes):\n    for m in sizes:\n        ks = random.split(key, m)\n        y = random.normal(ks[0])\n",
     "same first subkeys again"),
])
def test_reuse_message_says_what_repeats(body, says):
    found = text_of(body)
    assert len(found) == 1 and found[0].startswith("JNP601") and says in found[0]


NOISE = "def noise(k, shape=(2,)):\n    return random.normal(k, shape)\n"


# A same-file function that consumes its parameter on every call consumes the key passed there.
@pytest.mark.parametrize("body, line", [
    (NOISE + "def f(key):\n    a = noise(key)\n    return a, random.normal(key)\n", 5),
    (NOISE + "def f(key):\n    a = random.normal(key)\n    return a, noise(key)\n", 5),
    (NOISE + "def f(key):\n    return noise(k=key), noise(key, (3,))\n", 4),
    ("def pair(key):\n    k1, k2 = random.split(key)\n    return k1, k2\n"
     "def f(key):\n    a = pair(key)\n    return a, random.split(key)\n", 6),
    ("class M:\n    def noise(self, k):\n        return random.normal(k)\n"
     "    def f(self, key):\n        return self.noise(key), random.normal(key)\n", 5),
    # a nested def before the draw returns from itself, not from the helper
    ("def noise(k):\n    def inner():\n        return 1\n    return random.normal(k, inner())\n"
     "def f(key):\n    a = noise(key)\n    return a, random.normal(key)\n", 7),
    # through a transform: the transformed function takes the helper's arguments and draws from its keys
    (NOISE + "def f(key):\n    g = jax.grad(noise)(key)\n    return g, random.normal(key)\n", 5),
    (NOISE + "def f(key):\n    v, g = jax.value_and_grad(noise, has_aux=True)(key)\n"
     "    return random.normal(key)\n", 5),
    (NOISE + "def f(key):\n    a = jax.jit(jax.grad(noise))(key)\n    return a, random.normal(key)\n", 5),
    (NOISE + "fast = jax.jit(noise)\ndef f(key):\n    a = fast(key)\n    return a, random.normal(key)\n", 6),
    (NOISE + "def f(keys):\n    a = jax.vmap(noise)(keys)\n    return a, jax.vmap(noise)(keys)\n", 5),
    ("import equinox as eqx\n" + NOISE + "def f(key):\n    a = eqx.filter_value_and_grad(noise)(key)\n"
     "    return a, random.normal(key)\n", 6),
    ("import functools\n" + NOISE + "def f(key):\n    a = functools.partial(jax.jit, static_argnums=1)(noise)(key)\n"
     "    return a, random.normal(key)\n", 6),
    # the first iteration of a top-level loop consumes the parameter; a split rebinding it afterwards
    ("def fit(n, key=None):\n    for _ in range(n):\n        key, sub = random.split(key)\n"
     "        random.normal(sub)\n    return n\ndef f(key):\n    a = random.split(key)\n"
     "    return a, fit(3, key=key)\n", 8),
    ("def noise(k):\n    k, sub = random.split(k)\n    return random.normal(sub)\n"
     "def f(key):\n    a = random.split(key)\n    return a, noise(key)\n", 6),
])
def test_helper_that_consumes(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


# The model cannot assert a consumption by a callee it cannot see consuming: silent.
@pytest.mark.parametrize("body", [
    # consumed only on one path, after a return, or rebound first
    "def noise(k, c):\n    if c:\n        return random.normal(k)\n    return 0\n"
    "def f(key):\n    return noise(key, True), random.normal(key)\n",
    "def noise(k, c):\n    if c:\n        return 0\n    return random.normal(k)\n"
    "def f(key):\n    return noise(key, True), random.normal(key)\n",
    "def noise(k):\n    k = random.fold_in(k, 1)\n    return random.normal(k)\n"
    "def f(key):\n    return noise(key), random.normal(key)\n",
    # a generator's body runs when it is iterated, not when it is called
    "def batches(k):\n    x = random.normal(k, (8,))\n    yield from x\n"
    "def f(key):\n    return list(batches(key)), list(batches(key))\n",
    # passed on to a callee the model cannot see, or through *args
    "def noise(model, k):\n    return model(key=k)\n"
    "def f(model, key):\n    return noise(model, key), random.normal(key)\n",
    NOISE + "def f(key):\n    args = (key,)\n    return noise(*args), random.normal(key)\n",
    # split outputs handed only to an unknown callee (a model whose dropout may be off)
    "def f(model, key, batches):\n    for b in batches:\n        model(b, key=random.split(key, 8))\n",
    "def f(model, key, x):\n    keys = random.split(key, 8)\n    a = model(x, key=keys)\n"
    "    return a, model(x, key=random.split(key, 8))\n",
    "def f(model, key, x):\n    k1, k2 = random.split(key)\n    a = model(x, k1)\n    return a, random.normal(key)\n",
    # a transform that computes nothing from the arguments draws nothing; a transform of an unknown callee
    NOISE + "def f(key):\n    jax.make_jaxpr(noise)(key)\n    return random.normal(key)\n",
    "def f(model, key):\n    return jax.grad(model)(key), random.normal(key)\n",
    # the transformed function is given a fresh subkey
    NOISE + "def f(key):\n    key, sub = random.split(key)\n    g = jax.grad(noise)(sub)\n"
    "    return g, random.normal(key)\n",
    # a loop that binds the key before consuming it, or consumes it only after a branch
    "def fit(n, key):\n    for _ in range(n):\n        key = random.fold_in(key, 1)\n        random.normal(key)\n"
    "    return n\ndef f(key):\n    a = random.split(key)\n    return a, fit(3, key)\n",
    "def fit(n, key):\n    for i in range(n):\n        if i:\n            continue\n        random.normal(key)\n"
    "    return n\ndef f(key):\n    a = random.normal(key)\n    return a, fit(3, key)\n",
    "def fit(keys, key):\n    for key in keys:\n        random.normal(key)\n"
    "def f(key):\n    a = random.normal(key)\n    return a, fit([], key)\n",
])
def test_unknown_consumer_silent(lint_body, body):
    assert codes(lint_body, body) == []


STEP = "def step(key, x):\n    x = x + random.normal(key)\n    return key, x\n"


# A same-file function that returns the key it consumed hands back a consumed key.
@pytest.mark.parametrize("body, line", [
    (STEP + "def f(key, x):\n    key, x = step(key, x)\n    return random.uniform(key)\n", 6),
    (STEP + "def f(key, x):\n    for _ in range(3):\n        key, x = step(key, x)\n    return x\n", 6),
    ("def again(key):\n    random.normal(key)\n    return key\n"
     "def f(key):\n    k = again(key)\n    return random.uniform(k)\n", 6),
])
def test_returned_consumed_key(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


@pytest.mark.parametrize("body", [
    # the key handed back is a fresh one, or not the consumed parameter's position
    "def step(key, x):\n    key, sub = random.split(key)\n    return key, x + random.normal(sub)\n"
    "def f(key, x):\n    key, x = step(key, x)\n    return random.split(key)\n",
    STEP + "def f(key, x):\n    x, key = step(key, x)\n    return random.split(key)\n",
    # two returns: which one ran is not known
    "def step(key, x, c):\n    x = x + random.normal(key)\n    if c:\n        return x, x\n    return key, x\n"
    "def f(key, x):\n    key, x = step(key, x, False)\n    return random.split(key)\n",
])
def test_returned_fresh_key_silent(lint_body, body):
    assert codes(lint_body, body) == []


# A jax.lax loop hands the carry its body returns back to the body (measured: ``lax_body_carries``): a
# key the body consumed and returns there is consumed again by the next step, which consumes its carry.
@pytest.mark.parametrize("body, line", [
    (STEP + "def f(key, xs):\n    return jax.lax.scan(step, key, xs)\n", 3),
    (STEP + "def f(key):\n    return jax.lax.scan(step, key, None, length=2)\n", 3),
    ("def body(i, key):\n    print(random.normal(key))\n    return key\n"
     "def f(key, n):\n    return jax.lax.fori_loop(0, n, body, key)\n", 3),
    ("def step(key, _):\n    key, sub = random.split(key)\n    a, b = random.split(key)\n"
     "    return key, random.normal(sub) + random.normal(a) + random.normal(b)\n"
     "def f(key):\n    return jax.lax.scan(step, key, None, length=3)\n", 4),
    ("def body(i, key):\n    print(random.normal(key))\n    return key\n"
     "def f(key):\n    return jax.lax.fori_loop(0, 3, body, key)\n", 3),
])
def test_consumed_key_carried_to_the_next_step(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


@pytest.mark.parametrize("body", [
    # a fresh half is carried; the consumed key is returned as the step's output, not its carry
    "def step(key, x):\n    key, sub = random.split(key)\n    return key, x + random.normal(sub)\n"
    "def f(key, xs):\n    return jax.lax.scan(step, key, xs)\n",
    "def step(x, key):\n    x = x + random.normal(key)\n    return x, key\n"
    "def f(x, keys):\n    return jax.lax.scan(step, x, keys)\n",
    # the step is called directly, not by a loop
    STEP + "def f(key, x):\n    return step(key, x)\n",
    # a loop of one step (measured: ``lax_body_steps``) hands nothing to a next step
    STEP + "def f(key):\n    return jax.lax.scan(step, key, None, length=1)\n",
    "def body(i, key):\n    print(random.normal(key))\n    return key\n"
    "def f(key):\n    return jax.lax.fori_loop(0, 1, body, key)\n",
    "def body(i, key):\n    print(random.normal(key))\n    return key\n"
    "def f(key):\n    return jax.lax.fori_loop(4, 5, body, key)\n",
])
def test_fresh_or_uncarried_key_silent(lint_body, body):
    assert codes(lint_body, body) == []


INIT = "class Layer:\n    def __init__(self, key):\n        w_key, b_key = random.split(key)\n" \
    "        self.w, self.b = random.normal(w_key), random.normal(b_key)\n"


# A same-file class's own __init__ runs when the class is called: it consumes what __init__ consumes.
@pytest.mark.parametrize("body, line", [
    (INIT + "def f(key):\n    layer = Layer(key)\n    return layer, random.split(key)\n", 7),
    (INIT + "def f(key):\n    return [Layer(key) for _ in range(3)]\n", 6),
    (INIT + "def f(key):\n    a = random.split(key)\n    return a, Layer(key=key)\n", 7),
])
def test_constructor_consumes(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


@pytest.mark.parametrize("body", [
    # no own __init__ (inherited, or a dataclass's), or a class bound twice
    "class Base:\n    def __init__(self, key):\n        self.w = random.normal(key)\nclass Layer(Base):\n    pass\n"
    "def f(key):\n    return Layer(key), random.normal(key)\n",
    "class Layer:\n    key: int\ndef f(key):\n    return Layer(key), random.normal(key)\n",
    INIT + "if c:\n    class Layer:\n        pass\ndef f(key):\n    return Layer(key), random.split(key)\n",
])
def test_constructor_not_seen_consuming_silent(lint_body, body):
    assert codes(lint_body, body) == []


# A split whose subkeys go only to callees not known to draw (a model with dropout off) consumes
# nothing another such split or a draw could repeat, but it gives a split's subkeys again.
@pytest.mark.parametrize("body, line", [
    ("def f(model, key, x):\n    k1, k2 = random.split(key)\n    a = random.normal(k1)\n"
     "    return a, model(x, key=random.split(key, 8))\n", 4),
    ("def f(model, key, x):\n    a = model(x, key=random.split(key, 8))\n    k1, k2 = random.split(key)\n"
     "    return a, random.normal(k1)\n", 3),
    ("def f(model, key, xs):\n    keys = random.split(key, 3)\n    w = [random.normal(k) for k in keys]\n"
     "    return w, [model(x, key=random.split(key, 8)) for x in xs]\n", 4),
])
def test_unseen_split_repeats_subkeys(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]
    assert "same first subkeys again" in " ".join(messages(HEADER + body))


@pytest.mark.parametrize("body", [
    "def f(model, key, x):\n    a = random.normal(key)\n    return a, model(x, key=random.split(key, 8))\n",
    "def f(model, key, x):\n    a = model(x, key=random.split(key, 8))\n    return a, random.normal(key)\n",
    "def f(model, key, x, c):\n    if c:\n        a = model(x, key=random.split(key, 8))\n    else:\n"
    "        a = random.normal(key)\n    return a, random.uniform(key)\n",
])
def test_unseen_split_and_draw_silent(lint_body, body):
    assert lint_body(HEADER, body, "JNP601", "JNP606") == []


def test_key_bound_by_an_outer_comprehension_is_its_own(lint_body):
    body = "def f(k, keys):\n    a = random.normal(k)\n" \
        "    return a, [[random.uniform(k) for _ in (1,)] for k in keys]\n"
    assert codes(lint_body, body) == []


# A lax.cond or lax.switch runs one of its branches: each branch is read like a branch of an if,
# from what was consumed before the call; what every branch consumes is consumed after it.
@pytest.mark.parametrize("body, line", [
    ("def f(key, c, x):\n    a = random.normal(key)\n"
     "    return a, jax.lax.cond(c, lambda v: v + random.normal(key), lambda v: v, x)\n", 3),
    ("def f(key, c, x):\n    a = random.normal(key)\n"
     "    return a, jax.lax.cond(c, lambda k: random.normal(k), lambda k: k, key)\n", 3),
    ("def f(key, c):\n    a = jax.lax.cond(c, lambda: random.normal(key), lambda: random.uniform(key))\n"
     "    return a, random.normal(key)\n", 3),
    ("def f(key, i):\n    a = random.normal(key)\n    def first():\n        return random.uniform(key)\n"
     "    def second():\n        return a\n    return jax.lax.switch(i, [first, second])\n", 4),
])
def test_lax_cond_branch_consumes(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


@pytest.mark.parametrize("body", [
    # consumed by one branch only, then used after the call
    "def f(key, c):\n    a = jax.lax.cond(c, lambda: random.normal(key), lambda: 0.0)\n"
    "    return a, random.normal(key)\n",
    # a fresh subkey for the branch; the branch's own key
    "def f(key, c):\n    key, sub = random.split(key)\n"
    "    a = jax.lax.cond(c, lambda: random.normal(sub), lambda: 0.0)\n    return a, random.normal(key)\n",
    "def f(key, c):\n    a = random.normal(key)\n    def first():\n        key = random.key(1)\n"
    "        return random.normal(key)\n    return a, jax.lax.cond(c, first, lambda: a)\n",
    # a module-level branch reads the global key, not the function's
    "def first():\n    return random.normal(key)\ndef f(key, c):\n    a = random.normal(key)\n"
    "    return a, jax.lax.cond(c, first, lambda: a)\n",
])
def test_lax_cond_branch_silent(lint_body, body):
    assert codes(lint_body, body) == []


# A tree map runs its function once per leaf: a key the function closes over is consumed once per leaf.
@pytest.mark.parametrize("body, line", [
    ("def f(key, grads):\n    return jax.tree.map(lambda g: g + random.normal(key, g.shape), grads)\n", 2),
    ("def f(key, grads):\n    def noise(g):\n        return g + random.normal(key, g.shape)\n"
     "    return jax.tree_util.tree_map(noise, grads)\n", 3),
    ("def f(key, a, b):\n    return jax.tree.map(lambda x, y: x + random.uniform(key, (3,)), a, b)\n", 2),
    # and again after a draw before the map
    ("def f(key, grads):\n    a = random.normal(key)\n"
     "    return a, jax.tree.map(lambda g: random.bernoulli(key, 0.5, g.shape), grads)\n", 3),
])
def test_tree_map_consumes_per_leaf(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


@pytest.mark.parametrize("body", [
    # a key per leaf; the function's own key; a tree written out with one leaf
    "def f(keys, grads):\n    return jax.tree.map(lambda k, g: g + random.normal(k, g.shape), keys, grads)\n",
    "def f(grads):\n    return jax.tree.map(lambda g: g + random.normal(random.key(0), g.shape), grads)\n",
    "def f(key, g):\n    return jax.tree.map(lambda g: g + random.normal(key, g.shape), [g])\n",
    "def f(key):\n    x = jax.numpy.zeros(3)\n    return jax.tree.map(lambda g: g + random.normal(key, g.shape), x)\n",
    # the same permutation of every leaf keeps a dataset's arrays aligned
    "def f(key, data):\n    return jax.tree.map(lambda x: random.permutation(key, x), data)\n",
    "def shuffle(x, key):\n    return random.permutation(key, x)\n"
    "def f(key, data):\n    return jax.tree.map(lambda x: shuffle(x, key), data)\n",
    # a def of another scope reads the global key, not the function's
    "def noise(g):\n    return g + random.normal(key, g.shape)\n"
    "def f(key, grads):\n    return jax.tree.map(noise, grads)\n",
])
def test_tree_map_per_leaf_silent(lint_body, body):
    assert codes(lint_body, body) == []


# A call that runs a same-scope function (directly or through a transform) consumes the keys it closes over.
@pytest.mark.parametrize("body, line", [
    ("def f(p, key):\n    def loss(q):\n        return q * random.normal(key)\n"
     "    g = jax.grad(loss)(p)\n    return g, random.normal(key)\n", 5),
    ("def f(p, key):\n    a = random.normal(key)\n    return a, jax.grad(lambda q: q * random.normal(key))(p)\n", 3),
    ("def f(p, key):\n    def noisy():\n        return p + random.normal(key)\n    return noisy(), noisy()\n", 3),
])
def test_function_run_consumes_closed_over_key(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


@pytest.mark.parametrize("body", [
    # a fresh subkey for the closure; the function's parameter given fresh keys; a generator runs nothing yet
    "def f(p, key):\n    key, sub = random.split(key)\n    def loss(q):\n        return q * random.normal(sub)\n"
    "    g = jax.grad(loss)(p)\n    return g, random.normal(key)\n",
    "def f(p, key):\n    def noise(k):\n        return random.normal(k)\n    a = noise(key)\n"
    "    key, sub = random.split(key)\n    return a, noise(sub)\n",
    "def f(p, key):\n    def gen():\n        yield random.normal(key)\n"
    "    g = gen()\n    return g, random.normal(key)\n",
    # consumed only under a condition inside the function
    "def f(p, key, c):\n    def loss(q):\n        if c:\n            return q * random.normal(key)\n        return q\n"
    "    g = jax.grad(loss)(p)\n    return g, random.normal(key)\n",
])
def test_function_run_silent(lint_body, body):
    assert codes(lint_body, body) == []


def test_function_run_message_names_the_call():
    found = text_of("def f(p, key):\n    def loss(q):\n        return q * random.normal(key)\n"
                    "    g = jax.grad(loss)(p)\n    return g, random.normal(key)\n")
    assert len(found) == 1 and "consumed by jax.grad(loss)() on line 6" in found[0]


def test_tree_map_message_says_per_leaf():
    found = text_of("def f(key, grads):\n    return jax.tree.map(lambda g: g + random.normal(key, (3,)), grads)\n")
    assert len(found) == 1 and "for every leaf of jax.tree.map() on line 4" in found[0] \
        and "same numbers again" in found[0]
    found = text_of("def f(key, grads):\n    return jax.tree.map(lambda g: g + random.normal(key, g.shape), grads)\n")
    assert len(found) == 1 and "same random bits" in found[0]


def _loop(head, maker, tail="    return x\n"):
    """A function whose loop ``head`` makes ``maker`` each iteration and adds a draw from it to the carried x."""
    return f"def f(x, n, seed, base, cfg, step_fn):\n    {head}:\n        {maker}\n" \
           f"        x = x + random.normal(key)\n{tail}"


# A key made again from the same seed on every iteration draws the same numbers each time: reported at
# the first consumption after it is made, when what it gives reaches a name the loop carries.
@pytest.mark.parametrize("body, line", [
    (_loop("for step in range(n)", "key = random.PRNGKey(0)"), 4),
    (_loop("for batch in cfg.batches", "key = random.key(seed)"), 4),
    (_loop("while x < n", "key = jax.random.PRNGKey(seed * 2 + 1)"), 4),
    (_loop("for step in range(n)", "key: jax.Array = random.PRNGKey(cfg.seed)"), 4),
    ("def f(x, n):\n    for _ in range(n):\n        x = x * random.uniform(random.PRNGKey(1))\n    return x\n", 3),
    # seeded each epoch, split batch by batch: every epoch splits the same keys
    ("def f(x, n, batches):\n    for epoch in range(n):\n        key = random.PRNGKey(0)\n"
     "        for b in batches:\n            key, sub = random.split(key)\n            x = x + b * random.normal(sub)\n"
     "    return x\n", 5),
    # a same-file helper that draws from its key parameter
    (NOISE + "def f(x, n):\n    for _ in range(n):\n        key = random.PRNGKey(0)\n        x = x + noise(key)\n", 6),
    # subkeys read by index are drawn from
    ("def f(x, n):\n    for _ in range(n):\n        key = random.PRNGKey(0)\n        subs = random.split(key, 3)\n"
     "        x = x + random.normal(subs[0])\n", 4),
    # only the first consumption: a second one is the ordinary reuse
    ("def f(x, n):\n    for _ in range(n):\n        key = random.PRNGKey(0)\n        a = random.normal(key)\n"
     "        x = x + a + random.uniform(key)\n", 4),
    # a name bound on some paths only is carried: a handler that goes on, an if with no else
    ("def f(sizes, bench):\n    for m in sizes:\n        a = random.uniform(random.key(0), (m,))\n"
     "        try:\n            t = bench(a)\n        except ValueError:\n            pass\n        print(t)\n", 3),
    ("def f(sizes, bench, c):\n    for m in sizes:\n        a = random.uniform(random.key(0), (m,))\n"
     "        if c:\n            t = bench(a)\n        print(t)\n", 3),
    # an inner loop's target, which an inner loop that runs no iteration leaves as it was
    ("def f(sizes):\n    for m in sizes:\n        a = random.uniform(random.key(0), (m,))\n"
     "        for t in a:\n            pass\n        print(t)\n", 3),
])
def test_key_made_again_in_loop(lint_body, body, line):
    found = codes(lint_body, body)
    assert found[0] == (line, "JNP601") and all(code == "JNP601" for _, code in found)


@pytest.mark.parametrize("body", [
    # the seed changes with the loop
    _loop("for step in range(n)", "key = random.PRNGKey(step)"),
    _loop("for i in range(n)", "key = random.PRNGKey(seed + i)"),
    _loop("for step in range(n)", "key = random.fold_in(base, step)"),
    _loop("for step in range(n)", "key = random.PRNGKey(seed)", "        seed += 1\n"),
    _loop("for step in range(n)", "key = random.PRNGKey(next(cfg.seeds))"),
    _loop("for step in range(n)", "key = random.PRNGKey(cfg['seed'])"),
    _loop("for step in range(n)", "key = random.PRNGKey(cfg.seed)", "def g(cfg):\n    cfg.seed += 1\n"),
    "SEED = 0\ndef g():\n    global SEED\n    SEED += 1\n"
    + _loop("for step in range(n)", "key = random.PRNGKey(SEED)"),
    # made on some iterations only; rebound before the draw; a loop target
    _loop("for step in range(n)", "if step == 0:\n            key = random.PRNGKey(0)"),
    _loop("for step in range(n)", "key = random.PRNGKey(0)\n        key = random.fold_in(key, step)"),
    "def f(x, keys):\n    key = random.PRNGKey(0)\n    for key in keys:\n        x = x + random.normal(key)\n",
    # a demo of a handful of literal steps, a loop that runs once
    _loop("for _ in range(3)", "key = random.PRNGKey(0)"),
    _loop("for lr in (0.1, 0.2)", "key = random.PRNGKey(0)"),
    _loop("for _ in range(1)", "key = random.PRNGKey(0)"),
    # what is drawn reaches nothing the loop carries: an evaluation key, a sweep's seed
    "def f(x, n):\n    for epoch in range(n):\n        x = x * 0.9\n        key = random.PRNGKey(0)\n"
    "        print(x + random.normal(key))\n",
    "def f(rates, n):\n    results = []\n    for lr in rates:\n        key = random.PRNGKey(0)\n"
    "        x = random.normal(key)\n        for _ in range(n):\n            x = x - lr * x\n"
    "        results.append(x)\n    return results\n",
    # what is drawn reaches a name each iteration binds before reading it, on every path that goes on:
    # a benchmark sweep's timing in a try whose handler continues, an inner tuning loop's running best
    "def f(sizes, tiles, bench):\n    for m in sizes:\n        a = random.uniform(random.key(0), (m,))\n"
    "        best = 0.0\n        for tile in tiles:\n            try:\n                t = bench(a, tile)\n"
    "            except ValueError:\n                continue\n            util = 1 / t\n"
    "            if util > best:\n                best = util\n        print(best)\n",
    "def f(sizes, bench, c):\n    for m in sizes:\n        a = random.uniform(random.key(0), (m,))\n"
    "        if c:\n            t = bench(a)\n        elif m:\n            t = 2 * bench(a)\n        else:\n"
    "            raise ValueError\n        print(t)\n",
    # a callee not known to draw, given the key or the subkeys of its split
    "def f(x, n, step_fn):\n    for _ in range(n):\n        key = random.PRNGKey(0)\n"
    "        key, sub = random.split(key)\n        x = step_fn(x, sub)\n",
    "def f(x, n, step_fn):\n    for _ in range(n):\n        key = random.PRNGKey(0)\n        x = step_fn(x, key)\n",
])
def test_key_made_again_in_loop_silent(lint_body, body):
    assert codes(lint_body, body) == []


def test_key_made_again_message_says_where_and_what_repeats():
    found = text_of(_loop("for step in range(n)", "key = random.PRNGKey(0)"))
    assert found == ["JNP601 'key' is made again by random.PRNGKey(0) on line 5 from the same seed on every "
                     "iteration of the loop on line 4, so random.normal() draws the same numbers each time; "
                     "make it once before the loop: split it and use a fresh subkey"]


@pytest.mark.parametrize("body, says", [
    ("def f(x, sizes):\n    for m in sizes:\n        a = random.uniform(random.PRNGKey(0), (m,))\n        x = x + a\n",
     "random.uniform() draws from the same random bits each time"),
    ("def f(x, sizes):\n    for m in sizes:\n        key = random.PRNGKey(0)\n        ks = random.split(key, m)\n"
     "        x = x + random.normal(ks[0])\n",
     "random.split() gives the same first subkeys (with jax_threefry_partitionable on, the default since JAX 0.5"),
])
def test_key_made_again_message_says_when_the_shape_changes(body, says):
    found = text_of(body)
    assert len(found) == 1 and says in found[0]


def test_key_made_again_before_a_long_elif_chain(lint_body):
    """The carried names are found without recursing along an elif chain, however long."""
    arms = "".join(f"        elif c == {i}:\n            x = x + a\n" for i in range(1, 2000))
    body = "def f(x, n, c):\n    for _ in range(n):\n        a = random.normal(random.PRNGKey(0))\n" \
        f"        if c == 0:\n            x = x + a\n{arms}"
    assert codes(lint_body, body) == [(3, "JNP601")]


# A def that makes its key from the same seed on every call is the loop form when the def runs many times.
STEP = "def step(x):\n    key = random.PRNGKey(0)\n    return x + random.normal(key, x.shape)\n"
BODY = "def body(i, x):\n    return x + random.normal(random.key(0), x.shape)\n"


@pytest.mark.parametrize("body, line", [
    (STEP + "def f(x, n):\n    for _ in range(n):\n        x = step(x)\n    return x\n", 3),
    (STEP + "def f(x, n):\n    while n:\n        x = 2 * step(x)\n        n -= 1\n    return x\n", 3),
    (BODY + "def f(x, n):\n    return jax.lax.fori_loop(0, n, body, x)\n", 2),
    (BODY.replace("(i, x)", "(x, _)") + "def f(x, n):\n    return jax.lax.scan(body, x, None, length=n)\n", 2),
    (BODY.replace("(i, x)", "(x)") + "def f(x):\n    return jax.lax.while_loop(lambda x: x.sum() < 9, body, x)\n", 2),
    # a seed the def closes over is the same on every call
    ("def make(seed):\n    def body(i, x):\n        return x + random.normal(random.key(seed), x.shape)\n"
     "    return body\ndef f(x, n, seed):\n    return jax.lax.fori_loop(0, n, make(seed), x)\n"
     "def g(x, n):\n    b = make(0)\n    def inner(i, x):\n        return x * random.uniform(random.key(1))\n"
     "    return jax.lax.fori_loop(0, n, inner, x)\n", 10),
])
def test_key_made_again_in_a_def_that_runs_many_times(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


@pytest.mark.parametrize("body", [
    # called once, or in a handful of literal steps, or its result not carried: an evaluation key
    STEP + "def f(x):\n    return step(x)\n",
    STEP + "def f(x):\n    for _ in range(3):\n        x = step(x)\n    return x\n",
    STEP + "def f(x, n):\n    scores = []\n    for _ in range(n):\n        x = x * 0.9\n"
    "        scores.append(step(x))\n    return scores\n",
    # the seed is a parameter, or the key is folded with the step, or the draw reaches no return
    "def step(x, seed):\n    return x + random.normal(random.PRNGKey(seed), x.shape)\n"
    "def f(x, n):\n    for i in range(n):\n        x = step(x, i)\n    return x\n",
    "def body(i, x):\n    return x + random.normal(random.fold_in(random.key(0), i), x.shape)\n"
    "def f(x, n):\n    return jax.lax.fori_loop(0, n, body, x)\n",
    "def body(i, x):\n    print(random.normal(random.key(0), x.shape))\n    return x\n"
    "def f(x, n):\n    return jax.lax.fori_loop(0, n, body, x)\n",
    # made on some calls only
    "def step(x, c):\n    if c:\n        key = random.PRNGKey(0)\n        x = x + random.normal(key)\n    return x\n"
    "def f(x, n):\n    for _ in range(n):\n        x = step(x, True)\n    return x\n",
])
def test_key_made_again_in_a_def_silent(lint_body, body):
    assert codes(lint_body, body) == []


def test_key_made_again_in_a_def_message_says_where_it_runs_again():
    found = text_of(BODY + "def f(x, n):\n    return jax.lax.fori_loop(0, n, body, x)\n")
    assert found == ["JNP601 'random.key(0)' makes the same key from the same seed on every step of "
                     "jax.lax.fori_loop() on line 6, so random.normal() draws the same numbers each time; "
                     "make the key once outside body(): split it and use a fresh subkey"]


NOISY = "def noisy(x, k):\n    return x + random.normal(k, x.shape)\n"


@pytest.mark.parametrize("body, line", [
    # a vmap that hands the key unmapped to every element: in_axes None at its position
    (NOISY + "def f(xs, key):\n    return jax.vmap(noisy, in_axes=(0, None))(xs, key)\n", 4),
    (NOISY + "def f(xs, key):\n    return jax.vmap(noisy, (0, None))(xs, key)\n", 4),
    (NOISY + "def f(xs, key):\n    return jax.jit(jax.vmap(noisy, in_axes=(0, None)))(xs, key)\n", 4),
    (NOISY + "fast = jax.vmap(noisy, in_axes=(0, None))\ndef f(xs, key):\n    return fast(xs, key)\n", 5),
    # or the vmapped function closes over the key
    ("def f(xs, key):\n    return jax.vmap(lambda x: x + random.normal(key, x.shape))(xs)\n", 2),
    # a model whose __call__ draws from its key parameter, known by its callers' Block(...)
    ("class Block:\n    def __call__(self, x, key):\n        return x + random.normal(key, x.shape)\n"
     "def f(model, xs, key):\n    return jax.vmap(model, in_axes=(0, None))(xs, key)\n"
     "def g(xs, key):\n    return f(Block(), xs, key)\n", 5),
    # a step whose loss closes over its key, called with one key in a loop
    ("def step(p, key):\n    def loss(q):\n        return (q * random.normal(key, q.shape)).sum()\n"
     "    return p - jax.grad(loss)(p)\ndef f(p, key, n):\n    for _ in range(n):\n        p = step(p, key)\n"
     "    return p\n", 7),
])
def test_consumed_once_per_element_or_through_a_closure(lint_body, body, line):
    assert codes(lint_body, body) == [(line, "JNP601")]


@pytest.mark.parametrize("body", [
    # each element gets its own key: mapped (in_axes 0, the default), or a keyword argument (batched)
    NOISY + "def f(xs, key):\n    return jax.vmap(noisy)(xs, random.split(key, xs.shape[0]))\n",
    NOISY + "def f(xs, keys):\n    return jax.vmap(noisy, in_axes=(0, 0))(xs, keys)\n",
    NOISY + "def f(xs, keys):\n    return jax.vmap(noisy, in_axes=(0, None))(xs, k=keys)\n",
    # the closed-over key folded with the element's index; a shuffle of the element itself
    "def f(xs, key):\n    return jax.vmap(lambda x, i: x + random.normal(random.fold_in(key, i), x.shape))"
    "(xs, jax.numpy.arange(4))\n",
    "def f(xs, key):\n    return jax.vmap(lambda x: random.permutation(key, x))(xs)\n",
    # the step splits a fresh subkey for each call
    "def step(p, key):\n    def loss(q):\n        return (q * random.normal(key, q.shape)).sum()\n"
    "    return p - jax.grad(loss)(p)\ndef f(p, key, n):\n    for _ in range(n):\n"
    "        key, sub = random.split(key)\n        p = step(p, sub)\n    return p\n",
])
def test_consumed_once_per_element_or_through_a_closure_silent(lint_body, body):
    assert codes(lint_body, body) == []


EQX = "import equinox as eqx\n"


@pytest.mark.parametrize("built, reported", [
    ("eqx.nn.Dropout(0.5)", True),
    ("eqx.nn.Dropout(p=0.5)", True),
    ("eqx.nn.Dropout()", True),
    # another option than the measured rate, a rate of 0 (draws nothing), a configured rate (may be 0)
    ("eqx.nn.Dropout(0.5, inference=True)", False),
    ("eqx.nn.Dropout(0.0)", False),
    ("eqx.nn.Dropout(rate)", False),
])
def test_an_equinox_dropout_draws_from_its_key_when_built_as_measured(lint_body, built, reported):
    body = f"{EQX}def f(x, key, rate):\n    drop = {built}\n    a = drop(x, key=key)\n    return drop(x, key=key)\n"
    assert codes(lint_body, body) == ([(5, "JNP601")] if reported else [])


LINEN = "import flax.linen as nn\n\n\nclass Net(nn.Module):\n    @nn.compact\n    def __call__(self, x, train=True):\n" \
        "        return {dropout}\n\n\ndef f(params, x, key):\n    m = Net()\n    for _ in range(3):\n" \
        "        m.apply(params, x, {given}rngs={{'dropout': key}})\n"


@pytest.mark.parametrize("dropout, given, reported", [
    ("nn.Dropout(0.5, deterministic=not train)(x)", "", True),
    ("nn.Dropout(0.5)(x, deterministic=not train)", "", True),
    ("nn.Dropout(0.5)(x, deterministic=not train)", "False, ", False),  # train=False: deterministic
    # the call's deterministic given by position: not read, so the dropout may be off
    ("nn.Dropout(0.5)(x, not train)", "False, ", False),
    ("nn.Dropout(0.5)(x, True)", "", False),
    ("nn.Dropout(0.5)(x, **{'deterministic': True})", "", False),
    ("nn.Dropout(0.5)(x, deterministic=False, rng=jax.random.key(0))", "", False),  # its own key
])
def test_a_linen_apply_draws_from_its_dropout_key_when_the_dropout_is_on(lint_body, dropout, given, reported):
    body = LINEN.format(dropout=dropout, given=given)
    assert codes(lint_body, body) == ([(13, "JNP601")] if reported else [])


ROTATING = ("class S:\n    def __init__(self, key):\n        self.key = key\n    def explore(self):\n"
            "        self.key, k = random.split(self.key)\n        return random.uniform(k)\n")


@pytest.mark.parametrize("body, line", [
    # the caller's split of the object's key, then the method's split of the same key
    ("def f():\n    s = S(random.key(0))\n    a = random.split(s.key)\n    s.explore()\n    return a\n", 10),
    ("    def step(self):\n        a = random.split(self.key)\n        self.explore()\n        return a\n", 9),
])
def test_key_an_object_rotates(lint_body, body, line):
    """``self.key, k = split(self.key)`` consumes the object's key and stores a fresh one."""
    assert codes(lint_body, ROTATING + body) == [(line, "JNP601")]


@pytest.mark.parametrize("body, expected", [
    # split on every call, never replaced: a second call, or explore() after it, splits the same key
    ("    def fork(self, n):\n        return random.split(self.key, n)\n", [(8, "JNP601")]),
    ("    def noise(self):\n        return random.normal(self.key)\n", [(8, "JNP601")]),
    # replaced by a store of its own, or the method is the rotation: each call finds a fresh key (a method
    # that runs explore() itself is test_key_an_object_rotates's: reported at the rotation)
    ("    def fork(self, n):\n        keys = random.split(self.key, n + 1)\n        self.key = keys[0]\n"
     "        return keys[1:]\n", []),
    ("    def fork(self, n):\n        self.key, *keys = random.split(self.key, n + 1)\n        return keys\n", []),
])
def test_a_field_the_class_rotates_consumed_without_a_new_key(lint_body, body, expected):
    """A method that consumes the rotated ``self.key`` on every call and stores nothing back."""
    assert codes(lint_body, ROTATING + body) == expected


@pytest.mark.parametrize("subclasses", [
    "class G(S):\n    def reset(self, key):\n        self.key = key\n",
    "class M(S):\n    pass\nclass G(M):\n    def reset(self, key):\n        self.key = key\n",  # through a base
])
def test_a_field_a_subclass_stores_is_not_only_rotated(lint_body, subclasses):
    """A subclass's method storing ``self.key`` stores the field of the class's own objects."""
    body = ROTATING + "    def noise(self):\n        return random.normal(self.key)\n" + subclasses
    assert codes(lint_body, body) == []


def test_a_field_no_method_rotates_is_a_fixed_key(lint_body):
    """An evaluation key split on every call on purpose: no method rotates it, so nothing is reported."""
    fixed = "class S:\n    def __init__(self, key):\n        self.key = key\n    def noise(self, n):\n" \
            "        return random.split(self.key, n)\n"
    assert codes(lint_body, fixed) == []


@pytest.mark.parametrize("body", [
    "def f():\n    s = S(random.key(0))\n    s.explore()\n    s.explore()\n",
    # handed on, or an unknown call in a method, may rotate the key
    "def f(g):\n    s = S(random.key(0))\n    a = random.split(s.key)\n    g(s)\n    s.explore()\n    return a\n",
    "    def step(self, g):\n        a = random.split(self.key)\n        g()\n        self.explore()\n        return a\n",
    # the field is stored elsewhere too
    "    def reset(self, key):\n        self.key = key\n"
    "def f():\n    s = S(random.key(0))\n    a = random.split(s.key)\n    s.explore()\n    return a\n",
])
def test_key_an_object_rotates_silent(lint_body, body):
    assert codes(lint_body, ROTATING + body) == []


GUARDED = "def drop(x, rate, key=None):\n    if key is None or rate == 0.0:\n        return x\n" \
          "    return x * random.bernoulli(key, 1.0 - rate, x.shape)\n"


@pytest.mark.parametrize("body, line", [
    # two calls that pass the guard the same values: both draw from the key, or neither does
    ("def f(x, key):\n    h = drop(x, 0.5, key)\n    return drop(h, 0.5, key)\n", 7),
    ("def f(x, rate, key):\n    h = drop(x, rate, key)\n    return drop(h, rate, key=key)\n", 7),
    # a method whose guard reads a field of the object it is called on, stored nowhere in the caller
    ("class B:\n    rate = 0.5\n    def __call__(self, x, key):\n        h = drop(x, self.rate, key)\n"
     "        return drop(h, self.rate, key)\n", 9),
    # the same call on every iteration of a loop, its guard given the same values
    ("def f(x, key, layers):\n    for w in layers:\n        x = drop(x @ w, 0.5, key)\n    return x\n", 7),
])
def test_a_guarded_draw_repeated(lint_body, body, line):
    """A helper that draws only past a guard (``if key is None or rate == 0.0: return x``) draws
    alike on every call whose guard arguments are the same."""
    assert codes(lint_body, GUARDED + body) == [(line, "JNP601")]


@pytest.mark.parametrize("body", [
    # other guard values: the second call may return before drawing
    "def f(x, key):\n    h = drop(x, 0.5, key)\n    return drop(h, 0.0, key)\n",
    "def f(x, rate, key):\n    h = drop(x, rate, key)\n    rate = 0.0\n    return drop(h, rate, key)\n",
    "def f(x, key, rates):\n    for rate in rates:\n        x = drop(x, rate, key)\n    return x\n",
    "class B:\n    def __call__(self, x, key):\n        h = drop(x, self.rate, key)\n        self.rate = 0.0\n"
    "        return drop(h, self.rate, key)\n",
    # guard values that make both calls return before drawing
    "def f(x, key):\n    h = drop(x, 0.0, key)\n    return drop(h, 0.0, key)\n",
    "def f(x, key):\n    rate = 0.0\n    h = drop(x, rate, key)\n    return drop(h, rate, key)\n",
    "def f(x, k):\n    key, rate = k, 0.0\n    h = drop(x, rate, key)\n    return drop(h, rate, key)\n",
    "def f(x, key):\n    h = drop(x, 0.0, key=key)\n    return drop(h, rate=0.0, key=key)\n",
    # a guarded draw and an unconditional one: the guard may have returned
    "def f(x, key):\n    h = drop(x, 0.5, key)\n    return random.normal(key)\n",
    # a caller handing its key to a guarded helper does not consume it on every call itself
    "def g(x, key):\n    return drop(x, 0.5, key)\n"
    "def f(x, key):\n    h = g(x, key)\n    return g(h, key)\n",
])
def test_a_guarded_draw_silent(lint_body, body):
    assert codes(lint_body, GUARDED + body) == []


@pytest.mark.parametrize("guard", [
    "    if key is None or len(x) == 0:\n        return x\n",  # a test that calls is no guard
    "    if key is None or FLAG:\n        return x\n",  # it reads a global
    "    if key is None:\n        return x\n    else:\n        x = x + 1\n",  # it has an else
])
def test_not_a_guard(lint_body, guard):
    helper = "FLAG = True\ndef drop(x, rate, key):\n" + guard + \
             "    return x * random.bernoulli(key, 1.0 - rate, x.shape)\n"
    body = "def f(x, key):\n    h = drop(x, 0.5, key)\n    return drop(h, 0.5, key)\n"
    assert codes(lint_body, helper + body) == []


FILLED = "def jitter(x, key=None, seed=0):\n    if key is None:\n        key = random.key(seed)\n" \
         "    return x + random.normal(key, x.shape)\n"


@pytest.mark.parametrize("body, line", [
    ("def f(x, key):\n    h = jitter(x, key)\n    return jitter(h, key)\n", 7),
    ("def f(x, key):\n    h = jitter(x, key, seed=1)\n    return jitter(h, key=key, seed=1)\n", 7),
])
def test_a_key_filled_in_when_missing_is_a_guard(lint_body, body, line):
    """``if key is None: key = ...`` fills in a missing key: past it the helper draws from the key
    it was given whenever that was not None, so two calls given one key draw alike."""
    assert codes(lint_body, FILLED + body) == [(line, "JNP601")]


@pytest.mark.parametrize("helper", [
    # the if derives the key from the one given: two calls may derive different keys
    "def jitter(x, key, step):\n    if key is not None:\n        key = random.fold_in(key, step)\n"
    "    return x + random.normal(key, x.shape)\n",
    # it binds a name its test does not read
    "def jitter(x, key, step):\n    if step is None:\n        key = random.key(0)\n"
    "    return x + random.normal(key, x.shape)\n",
    # it binds two names
    "def jitter(x, key, step):\n    if key is None:\n        key, step = random.key(0), 0\n"
    "    return x + random.normal(key, x.shape)\n",
])
def test_not_a_key_filled_in(lint_body, helper):
    body = "def f(x, key):\n    h = jitter(x, key, 0)\n    return jitter(h, key, 1)\n"
    assert codes(lint_body, helper + body) == []


DENSE = "def dense(key, n):\n    return random.normal(key, (n, n))\n"


@pytest.mark.parametrize("body, line", [
    ("def f(keys):\n    return [(dense(k, 2), dense(k, 3)) for k in keys]\n", 4),
    ("def f(keys):\n    return {i: [dense(k, 2), random.uniform(k)] for i, k in enumerate(keys)}\n", 4),
    ("def f(keys, xs):\n    return [dense(k, 2) + dense(k, 2) for k in keys for x in xs]\n", 4),
])
def test_a_comprehensions_element_is_a_loops_body(lint_body, body, line):
    """Two consumptions of the item's key in one run of a comprehension's element reuse it."""
    assert codes(lint_body, DENSE + body) == [(line, "JNP601")]


@pytest.mark.parametrize("body", [
    "def f(keys):\n    return [dense(k, 2) for k in keys]\n",
    "def f(keys, bias):\n    return [(dense(k, 2), dense(k, 2) if bias else None) for k in keys]\n",
    "def f(keys):\n    return [(dense(a, 2), dense(b, 2)) for k in keys for a, b in [random.split(k)]]\n",
])
def test_a_comprehensions_element_silent(lint_body, body):
    assert codes(lint_body, DENSE + body) == []
