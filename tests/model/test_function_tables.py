"""A dict of functions that another module looks up by a key stands for the entries the key may
give: a traced lookup (direct, through a local name, a ``functools.partial`` or an attribute
``__init__`` stores) runs them with what the call gives."""
import pytest

from test_project import codes_at, lint

OPS = '''import numpy as np


def host_abs(err):
    return np.abs(err)


def host_scaled(scale, err):
    return np.float32(scale) * err


def squared(err):
    return err ** 2


TABLE = {"abs": host_abs, "squared": squared}
SCALED = {"scaled": host_scaled}
MIXED = {"abs": host_abs, "other": lambda err: err}
'''
HEADER = "import functools\n\nimport jax\nimport jax.numpy as jnp\n\nfrom .ops import MIXED, SCALED, TABLE\n\n\n"
LEARNER = '''class Learner:
    def __init__(self, name):
        self.loss_fn = {lookup}
        self.update = jax.jit(self._update)

    def _loss(self, x):
        return self.loss_fn(x)

    def _update(self, x):
        return jax.grad(self._loss)(x)
'''


@pytest.mark.parametrize("caller, expected", [
    ("@jax.jit\ndef step(x, name):\n    return TABLE[name](x)\n", [(5, "JNP201")]),
    ("@jax.jit\ndef step(x, name):\n    fn = TABLE[name]\n    return fn(x)\n", [(5, "JNP201")]),
    ("@jax.jit\ndef step(x):\n    return TABLE['squared'](x)\n", []),
    ("def make(name):\n    return jax.jit(TABLE[name])\n", [(5, "JNP201")]),
    ("def make():\n    return jax.jit(TABLE['squared'])\n", []),
    ("def make(name):\n    return jax.jit(MIXED[name])\n", []),  # a constant key: its entry alone
    ("@jax.jit\ndef step(x, name):\n    TABLE = {'abs': jnp.abs}\n    return TABLE[name](x)\n", []),  # shadowed
    ("@jax.jit\ndef step(x, name):\n    return MIXED[name](x)\n", []),  # an entry that is no function
    (LEARNER.format(lookup="TABLE[name]"), [(5, "JNP201")]),
    (LEARNER.format(lookup="functools.partial(SCALED[name], 2.0)"), []),  # the partial fills scale: a float
    (LEARNER.format(lookup="TABLE[name]") + "\n\ndef rebind(learner):\n    learner.loss_fn = jnp.abs\n", []),
])
def test_a_lookup_in_another_modules_dict_runs_the_entries_its_key_may_give(tmp_path, caller, expected):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ops.py").write_text(OPS)
    (package / "train.py").write_text(HEADER + caller)
    assert codes_at(lint(tmp_path, "pkg/ops.py")) == expected


def test_a_function_whose_lookup_is_in_an_imported_dict_is_asked_of_from_a_third_module(tmp_path):
    """What a traced caller asks of ``loss`` (the parameters it converts through its calls) follows no
    lookup: ``TABLE[name](x)`` names no one function, and the caller's module is analysed (no JNP900)."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ops.py").write_text(OPS)
    (package / "losses.py").write_text("from .ops import TABLE\n\n\ndef loss(x, name):\n    return TABLE[name](x)\n")
    (package / "train.py").write_text("import jax\n\nfrom .losses import loss\n\n\n@jax.jit\ndef step(x):\n"
                                      "    return loss(x, 'abs')\n")
    assert codes_at(lint(tmp_path, "pkg/train.py")) == []
    assert codes_at(lint(tmp_path, "pkg/ops.py")) == [(5, "JNP201")]


def test_an_entry_after_a_partial_is_given_the_later_parameters(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ops.py").write_text(OPS.replace("np.float32(scale) * err", "scale * np.asarray(err)"))
    (package / "train.py").write_text(HEADER + LEARNER.format(lookup="functools.partial(SCALED[name], 2.0)"))
    assert codes_at(lint(tmp_path, "pkg/ops.py")) == [(9, "JNP201")]


def test_a_method_a_jitted_method_runs_through_self_passes_its_tracers_on(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ops.py").write_text(OPS)
    (package / "train.py").write_text(HEADER.replace("MIXED, SCALED, TABLE", "host_abs") + (
        "class Learner:\n    def __init__(self):\n        self.update = jax.jit(self._update)\n\n"
        "    def _helper(self, x):\n        return host_abs(x)\n\n"
        "    def _update(self, x):\n        return self._helper(x)\n"))
    assert codes_at(lint(tmp_path, "pkg/ops.py")) == [(5, "JNP201")]


@pytest.mark.parametrize("key, expected", [("name", [(5, "JNP201")]), ("'squared'", [])])
def test_a_lookup_in_its_own_modules_dict_is_followed_from_another_modules_trace(tmp_path, key, expected):
    """``TABLE[name](x)`` in the dict's own module, in a function another module jits: the in-file
    model does not follow a called lookup, so the project's reach gives the entries their callers."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ops.py").write_text(OPS + f"\n\ndef loss(x, name):\n    return TABLE[{key}](x)\n")
    (package / "train.py").write_text("import jax\n\nfrom .ops import loss\n\n"
                                      "step = jax.jit(loss, static_argnames='name')\n")
    assert codes_at(lint(tmp_path, "pkg/ops.py")) == expected
