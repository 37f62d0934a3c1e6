"""JNP601 edge cases: what rebinds a key, and where the check cannot tell and stays silent."""
import pytest

HEADER = "import jax\nfrom jax import random\n"


def codes(lint_body, body):
    return lint_body(HEADER, body, "JNP601")


@pytest.mark.parametrize("body", [
    # rebound through split or a new key between the uses
    "def f(key):\n    a = random.normal(key)\n    key, sub = random.split(key)\n    return a, random.normal(key)\n",
    "def f(key):\n    a = random.normal(key)\n    key = random.fold_in(key, 1)\n    return a, random.normal(key)\n",
    # consumed on one path only
    "def f(key, c):\n    if c:\n        a = random.normal(key)\n    return random.normal(key)\n",
    # a sampler and split of the same key: related but not the same bits; silent
    "def f(key):\n    a = random.normal(key)\n    return random.split(key)\n",
    # a loop that may leave after one iteration, or runs once
    "def f(key, xs):\n    for x in xs:\n        if x:\n            break\n        random.normal(key)\n",
    "def f(key):\n    for x in (1,):\n        random.normal(key)\n",
    "def f(key):\n    for i in range(1):\n        random.normal(key)\n",
    # a global or nonlocal key may be rebound elsewhere; attributes are not followed
    "KEY = random.key(0)\ndef f():\n    global KEY\n    a = random.normal(KEY)\n    return random.normal(KEY)\n",
    "def f(self):\n    a = random.normal(self.key)\n    return random.normal(self.key)\n",
    # each item binds its own key
    "def f(keys):\n    return [random.normal(k) for k in keys]\n",
    # rebound inside try: forgotten
    "def f(key):\n    a = random.normal(key)\n    try:\n        key = random.split(key)[0]\n"
    "    except ValueError:\n        pass\n    return random.normal(key)\n",
])
def test_silent(lint_body, body):
    assert codes(lint_body, body) == []


@pytest.mark.parametrize("body, line", [
    ("def f(key):\n    a = random.uniform(key)\n    return random.bernoulli(key)\n", 3),
    ("def f(key):\n    a = random.normal(key=key)\n    return random.normal(key)\n", 3),
    ("def f(key, c):\n    if c:\n        a = random.normal(key)\n    else:\n        a = random.uniform(key)\n"
     "    return random.normal(key)\n", 6),
    ("def f(key):\n    while True:\n        x = random.normal(key)\n", 3),
    ("def f(key):\n    for i in range(2, 5):\n        x = random.normal(key)\n", 3),
    ("def f(key):\n    k1, k2 = random.split(key)\n    return random.normal(k1) + random.normal(k1)\n", 3),
    ("key = random.key(0)\nx = random.normal(key)\ny = random.normal(key)\n", 3),
    ("def f(key, n):\n    return {i: random.normal(key) for i in range(n)}\n", 2),
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
