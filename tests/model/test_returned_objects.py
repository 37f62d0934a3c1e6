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


BUILT = '''import jax
import jax.numpy as jnp

from pkg.data import Windows


@jax.jit
def score(x):
    return jnp.sum(x)


def known(steps):
    data = Windows(8)
    {before}
    total = 0.0
    for _ in range(steps):
        total = total + score({argument})
    return total


def setup():
    data = Windows(8)
    batch = {{"x": data.rows(2)}}
    return batch


def from_setup(steps):
    batch = setup()
    for _ in range(steps):
        score(batch)
'''


def test_an_object_of_an_imported_class_holds_what_its_init_stored(tmp_path):
    """``Windows(8)`` built here: ``data.x`` is the NumPy data its ``__init__`` stores (``model.held``), and
    a dict of a method's NumPy result handed back by a helper is uploaded leaf by leaf."""
    write_package(tmp_path, data=DATA, run=BUILT.format(before="", argument="data.x"))
    assert codes_at(lint(tmp_path, "pkg/run.py")) == [(17, "JNP104"), (30, "JNP104")]


def test_an_object_whose_data_went_to_the_device_first_is_silent(tmp_path):
    run = BUILT.format(before="x = jax.device_put(data.x)", argument="x")
    run = run.replace('batch = {"x": data.rows(2)}', 'batch = {"x": jax.device_put(data.rows(2))}')
    write_package(tmp_path, data=DATA, run=run)
    assert lint(tmp_path, "pkg/run.py") == []


LOOPED = '''import jax
import jax.numpy as jnp

from pkg.data import Windows


@jax.jit
def score(x):
    return jnp.sum(x)


def known(steps):
    data = Windows(8)
    for _ in range(steps):
        score(data.batch(2))
'''


def test_only_an_object_a_loop_reads_kept_data_of_is_asked_about(tmp_path):
    """A method called in a loop gives new data on each step: no check of the loop needs what the object
    holds, and its class's module is not summarised (``Callees._kept``: no ``(held)`` part kept); an
    attribute the loop reads is, and its upload is JNP104."""
    found = {}
    for folder, read in (("looped", "data.batch(2)"), ("kept", "data.x")):
        (tmp_path / folder).mkdir()
        write_package(tmp_path / folder, data=DATA, run=LOOPED.replace("data.batch(2)", read))
        kept = (tmp_path / folder / "cache").glob("*-(held).json")
        found[folder] = (codes_at(lint(tmp_path / folder, "pkg/run.py")), sorted(p.name.split("-", 1)[1] for p in kept))
    assert found == {"looped": ([], []), "kept": ([(15, "JNP104")], ["(held).json"])}
