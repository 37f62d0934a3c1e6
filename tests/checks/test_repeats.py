"""``checks.repeats``: whether a loop reaches a second iteration, the one answer of every per-iteration rule."""
import ast

import pytest

from flake8_jaxnp.checks import repeats


@pytest.mark.parametrize("source, expected", [
    ("for x in data:\n    f(x)", True),
    ("for x in (a,):\n    f(x)", False),
    ("while False:\n    f()", False),
    ("for x in data:\n    f(x)\n    break", False),
    ("for x in data:\n    return f(x)", False),
    ("while True:\n    f()\n    raise StopIteration", False),
    ("for x in data:\n    f(x)\n    if x:\n        break", True),
    ("for x in data:\n    if x:\n        continue\n    break", True),
    ("for x in data:\n    for y in x:\n        continue\n    break", True),  # (a nested continue: taken to repeat)
    ("for x in data:\n    break\n    continue", False),
    ("for x in data:\n    def g():\n        pass\n    break", False),
])
def test_repeats(source, expected):
    body = "".join("    " + line + "\n" for line in source.splitlines())
    loop = ast.parse("def run(data, a):\n" + body).body[0].body[0]
    assert repeats(loop) is expected
