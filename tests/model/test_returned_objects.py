"""Objects another module's function returns (``project.returned_objects``): the class its
module names, resolved from there, and what that class's plain methods return by its module's own
forward pass (``model.held``: ``self.x[:n]`` of an attribute ``__init__`` stores NumPy data in); an
attribute another method may store other data in, or a class the name does not resolve to, keeps
the caller silent."""
from test_project import codes_at, lint
from test_project_roots import write_package

DATA = '''import numpy as np


class Windows:
    def __init__(self, size):
        self.size = size
        self.x = np.zeros((size, 4), np.float32)

    def batch(self, n):
        return np.ones((n, 4), np.float32)

    def rows(self, n):
        return self.x[:n]


def load(size=8):
    return Windows(size)


def helper(size=8):
    return size


def made_by_helper():
    return helper(3)
'''

RUN = '''import jax
import jax.numpy as jnp

from pkg.data import load, made_by_helper


@jax.jit
def score(x):
    return jnp.sum(x)


def known(steps):
    x = load().{method}(2)
    total = 0.0
    for _ in range(steps):
        total = total + score(x)
    return total
'''


def test_a_method_of_another_modules_returned_object_gives_numpy_data(tmp_path):
    write_package(tmp_path, data=DATA, run=RUN.format(method="batch"))
    assert codes_at(lint(tmp_path, "pkg/run.py")) == [(16, "JNP104")]


def test_a_method_returning_an_attribute_gives_what_init_stored(tmp_path):
    write_package(tmp_path, data=DATA, run=RUN.format(method="rows"))
    assert codes_at(lint(tmp_path, "pkg/run.py")) == [(16, "JNP104")]


def test_an_attribute_another_method_stores_says_nothing(tmp_path):
    data = DATA.replace("    def rows(self, n):", "    def reset(self, x):\n        self.x = x\n\n    def rows(self, n):")
    write_package(tmp_path, data=data, run=RUN.format(method="rows"))
    assert lint(tmp_path, "pkg/run.py") == []


def test_a_returned_call_of_a_function_is_no_object(tmp_path):
    run = RUN.replace("load().{method}(2)", "made_by_helper().batch(2)")
    write_package(tmp_path, data=DATA, run=run)
    assert lint(tmp_path, "pkg/run.py") == []
