"""A lax loop in traced code runs its body with what it is given (``lax.scan(step, init, xs)`` runs
``step(init, xs[i])``), and the body may be what a factory of another module makes: called by name,
looked up in a dict of factories (``MAKERS[name](cfg)``), stored by ``__init__`` from a method that
returns such a call."""
import pytest

from test_project import codes_at, lint
from test_project_roots import write_package

STEPS = '''import numpy as np


def host_step(carry, x):
    return np.abs(carry) + x, None


def make_host(scale):
    def step(carry, x):
        return scale * np.abs(carry), None
    return step


def make_plain(scale):
    def step(carry, x):
        return carry * scale, None
    return step


MAKERS = {"host": make_host, "plain": make_plain}
'''
HEADER = "import jax\nfrom jax import lax\n\nfrom .steps import MAKERS, host_step, make_host, make_plain\n\n\n"
SIMULATOR = '''class Simulator:
    def __init__(self, name):
        self.step = self.make_step(name)
        self.run = jax.jit(self._run)

    def make_step(self, name):
{returns}

    def _run(self, carry):
        return lax.scan(self.step, carry, None, length=2)[0]
'''


@pytest.mark.parametrize("caller, expected", [
    ("@jax.jit\ndef run(c):\n    return lax.scan(host_step, c, None, length=2)[0]\n", [(5, "JNP201")]),
    ("@jax.jit\ndef run(c):\n    return lax.fori_loop(0, 2, lambda i, c: c, c)\n", []),
    ("@jax.jit\ndef run(c):\n    return lax.scan(make_host(2.0), c, None, length=2)[0]\n", [(10, "JNP201")]),
    ("@jax.jit\ndef run(c):\n    return lax.scan(make_plain(2.0), c, None, length=2)[0]\n", []),
    (SIMULATOR.format(returns="        return MAKERS[name](2.0)"), [(10, "JNP201")]),
    (SIMULATOR.format(returns="        return MAKERS['plain'](2.0)"), []),  # a constant key: its entry alone
    (SIMULATOR.format(returns="        if name == 'one':\n            return make_plain(1.0)\n"
                              "        return MAKERS[name](2.0)"), [(10, "JNP201")]),  # either return
    (SIMULATOR.format(returns="        if name == 'one':\n            return make_plain\n"
                              "        return MAKERS[name](2.0)"), []),  # a return the text cannot name
    (SIMULATOR.format(returns="        pass"), []),  # no return
    (SIMULATOR.format(returns="        return MAKERS[name](2.0)") + "\n\ndef swap(sim):\n    sim.step = host_step\n",
     []),  # stored elsewhere too
])
def test_a_scanned_body_runs_what_a_factory_of_another_module_makes(tmp_path, caller, expected):
    write_package(tmp_path, steps=STEPS, sim=HEADER + caller)
    assert codes_at(lint(tmp_path, "pkg/steps.py")) == expected


@pytest.mark.parametrize("returns, expected", [
    ("        if name == 'one':\n            return make_plain(1.0)\n        return MAKERS[name](2.0)", [(10, "JNP201")]),
    ("        return make_host(2.0)", [(10, "JNP201")]),
    ("        return MAKERS['plain'](2.0)", []),
])
def test_a_scanned_body_a_method_of_the_same_file_makes(tmp_path, returns, expected):
    """In one file, ``names.functions_made_by`` reads the factory calls a method returns."""
    (tmp_path / "sim.py").write_text(STEPS + "\n\nimport jax\nfrom jax import lax\n\n\n" + SIMULATOR.format(
        returns=returns))
    assert codes_at(lint(tmp_path, "sim.py")) == expected
