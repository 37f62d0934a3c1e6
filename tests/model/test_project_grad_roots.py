"""A transform that is not abstract (``jax.grad``, ``jax.value_and_grad``) applied in one module
traces what the function it is given calls in others, as a jit there would: the reach starts
from every transform's application (but one inside a unit a jit already traces, whose flows
follow it). Differentiating ``jnp.where(d2 > 0, jnp.sqrt(d2), 0.0)`` gives a NaN gradient at
``d2 == 0`` (JNP604); a function whose body is fine, or that runs only eagerly, stays silent."""
import pytest

from test_project import codes_at, lint

OPS = '''import jax.numpy as jnp


def length(d2):
    return jnp.where(d2 > 0, jnp.sqrt(d2), 0.0)


def safe_length(d2):
    return jnp.where(d2 > 0, jnp.sqrt(jnp.where(d2 > 0, d2, 1.0)), 0.0)
'''
ENERGY = '''import jax.numpy as jnp

from . import ops


def energy(x):
    return jnp.sum(ops.{helper}(x))
'''


def write(tmp_path, **modules):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ops.py").write_text(OPS)
    for name, text in modules.items():
        (package / f"{name}.py").write_text(text)
    return lint(tmp_path, "pkg/ops.py")


@pytest.mark.parametrize("helper, driver, expected", [
    ("length", "from .energy import energy\n\n\ndef forces(x):\n    return jax.grad(energy)(x)\n", [(5, "JNP604")]),
    ("length", "from . import energy\n\n\ndef forces(x):\n    return jax.value_and_grad(energy.energy)(x)\n",
     [(5, "JNP604")]),
    ("length", "from .energy import energy\n\nforces = jax.grad(energy)\n", [(5, "JNP604")]),
    ("safe_length", "from .energy import energy\n\n\ndef forces(x):\n    return jax.grad(energy)(x)\n", []),
    ("length", "from .energy import energy\n\n\ndef total(x):\n    return energy(x)\n", []),  # eager only
])
def test_a_grad_in_one_module_reaches_a_helper_of_a_third(tmp_path, helper, driver, expected):
    found = write(tmp_path, energy=ENERGY.format(helper=helper), train="import jax\n\n" + driver)
    assert codes_at(found) == expected
    assert all("differentiated by jax." in line for line in found)


@pytest.mark.parametrize("store, expected", [
    ("", [(5, "JNP604")]),
    ("\n\ndef rebind(net, other):\n    net.energy = other\n", []),  # a store the roots' part leaves out
])
def test_a_grad_in_a_method_runs_a_method_reached_through_self(tmp_path, store, expected):
    """``jax.grad(total)`` of a def nested in a method nobody jits: its ``self.energy(y)`` runs the
    class's method, which calls a third module's helper; silent where the module stores the
    attribute elsewhere (what it holds is then the whole module's to say)."""
    model = ("import jax\n\nfrom .energy import energy\n\n\nclass Net:\n    def energy(self, x):\n"
             "        return energy(x)\n\n    def forces(self, x):\n        def total(y):\n"
             "            return self.energy(y)\n        return jax.grad(total)(x)\n" + store)
    found = write(tmp_path, energy=ENERGY.format(helper="length"), model=model)
    assert codes_at(found) == expected


def test_a_grad_inside_a_jitted_step_is_followed_by_the_steps_flows(tmp_path):
    """The grad inside a jitted def is no root of its own: the jit's flows follow the call under
    it, and what the differentiated function calls is differentiated too."""
    driver = "import jax\n\nfrom .energy import energy\n\n\n@jax.jit\ndef step(x):\n    return jax.grad(energy)(x)\n"
    found = write(tmp_path, energy=ENERGY.format(helper="length"), train=driver)
    assert codes_at(found) == [(5, "JNP604")]
    assert "differentiated by jax.grad" in found[0]


@pytest.mark.parametrize("helper, caller, expected", [
    ("length", "from . import ops\n\n\ndef grid(density):\n    return ops.score(density)(1.0)\n\n\n"
     "def case():\n    return grid(ops.total)\n", [(5, "JNP604")]),
    ("safe_length", "from . import ops\n\n\ndef case():\n    return ops.score(ops.total)(1.0)\n", []),
    ("length", "", [(5, "JNP604")]),  # handed in its own module only: the in-file model's, found once
])
def test_a_function_handed_in_to_a_transform_of_its_own_module(tmp_path, helper, caller, expected):
    """``score(density)`` returns ``jax.jit(jax.grad(density))`` beside the function another module
    hands it (``ops.score(ops.total)``): the in-file model cannot know what the parameter holds,
    so the project's reach gives it the transform, applied in its own module."""
    ops = (OPS + f"\n\ndef total(x):\n    return {helper}(x)\n\n\ndef score(density):\n"
           "    return jax.jit(jax.grad(density))\n")
    if not caller:
        ops += "\n\ndef case():\n    return score(total)(1.0)\n"
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "ops.py").write_text("import jax\n" + ops)
    (package / "driver.py").write_text(caller or "from . import ops\n")
    found = lint(tmp_path, "pkg/ops.py")
    assert codes_at(found) == [(line + 1, code) for line, code in expected]


@pytest.mark.parametrize("helper, transform, expected", [
    ("length", "jax.value_and_grad(objective)(x)[1]", [(5, "JNP604")]),
    ("safe_length", "jax.value_and_grad(objective)(x)[1]", []),
    ("length", "objective(x)", []),  # the nested def runs as it is: only the jit traces the helper
])
def test_a_def_nested_in_a_jitted_step_and_differentiated_there_differentiates_what_it_calls(
        tmp_path, helper, transform, expected):
    """The objective nested in the jitted step is handed to a transform there: the calls in it run
    under that transform too, so a helper of another module it reaches is differentiated."""
    driver = ("import jax\n\nfrom .energy import energy\n\n\n@jax.jit\ndef step(x, y):\n"
              "    def objective(p):\n        return energy(p * y)\n\n" f"    return {transform}\n")
    found = write(tmp_path, energy=ENERGY.format(helper=helper), train=driver)
    assert codes_at(found) == expected


@pytest.mark.parametrize("plain, differentiated, expected", [
    ("q * y", "energy(q * y)", [(5, "JNP604")]),
    ("energy(q * y)", "q * y", []),
])
def test_nested_defs_of_one_name_in_two_functions_keep_their_own_transform(
        tmp_path, plain, differentiated, expected):
    """Two defs nested in different functions share a name: the one handed to the transform (in the
    second function) is differentiated, the other runs as it is, whichever calls the helper."""
    driver = ("import jax\n\nfrom .energy import energy\n\n\n@jax.jit\ndef step(x, y):\n"
              f"    def first(p):\n        def objective(q):\n            return {plain}\n        return objective(p)\n\n"
              f"    def second(p):\n        def objective(q):\n            return {differentiated}\n"
              "        return jax.value_and_grad(objective)(p)[1]\n\n    return first(x) + second(x)\n")
    found = write(tmp_path, energy=ENERGY.format(helper="length"), train=driver)
    assert codes_at(found) == expected
