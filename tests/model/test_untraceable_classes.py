"""An object of a plain same-file class given to a jitted function is refused (JNP205), unless the
file may register its class as a pytree: by name, or through a registration of what it does not name
(a helper's parameter, a loop variable), which may be of any class."""
import pytest

HEADER = ("import jax\nimport jax.numpy as jnp\nfrom jax import tree_util\n\n\n"
          "class Pair:\n    def __init__(self, a):\n        self.a = a\n\n\n"
          "def add(p, x):\n    return p.a + x\n\n\n")
CALL = "def run():\n    return jax.jit(add)(Pair(1.0), jnp.ones(3))\n"
FLATTEN = "lambda p: ((p.a,), None), lambda _, c: Pair(*c)"


@pytest.mark.parametrize("registration, reported", [
    ("", True),
    (f"tree_util.register_pytree_node(Pair, {FLATTEN})\n\n\n", False),
    # a helper registering the class it is given
    (f"def _pytree(cls):\n    tree_util.register_pytree_node(cls, {FLATTEN})\n\n\n_pytree(Pair)\n\n\n", False),
    # a loop over the classes to register
    (f"for _cls in (Pair,):\n    tree_util.register_pytree_node(_cls, {FLATTEN})\n\n\n", False),
])
def test_a_plain_object_given_to_a_jitted_function(lint_source, registration, reported):
    source = HEADER + registration + CALL
    line = len(source.splitlines())
    assert [found for found in lint_source(source) if found[1] == "JNP205"] == ([(line, "JNP205")] if reported else [])


RUNNER = ("class Runner:\n    def apply(self, cfg, x):\n        return x * cfg.a\n\n"
          "    def run(self):\n        return jax.jit(self.apply{options})(Pair(2.0), jnp.ones(3))\n")


@pytest.mark.parametrize("options, reported", [
    ("", True),
    (", static_argnames='cfg'", False),  # a bound method's first position is cfg: self is not given
    (", static_argnums=0", False),
])
def test_a_plain_object_given_to_a_jitted_bound_method(lint_source, options, reported):
    source = HEADER + RUNNER.format(options=options)
    line = len(source.splitlines())
    assert [found for found in lint_source(source) if found[1] == "JNP205"] == ([(line, "JNP205")] if reported else [])


DATACLASS = ("import dataclasses\nfrom functools import partial\n\nimport jax\nimport jax.numpy as jnp\n\n\n"
             "@partial(jax.tree_util.register_dataclass, data_fields={data}, meta_fields={meta})\n"
             "@dataclasses.dataclass\nclass Interp:\n    x: jax.Array\n    method: str = 'linear'\n\n\n"
             "def run():\n    return jax.jit(lambda i: i.x)({built})\n")


@pytest.mark.parametrize("data, meta, built, reported", [
    (["x", "method"], [], "Interp(jnp.ones(3))", True),  # the default string is a leaf
    (["x", "method"], [], "Interp(jnp.ones(3), method='cubic')", True),
    (["x", "method"], [], "Interp(jnp.ones(3), None)", False),  # None flattens to no leaf
    (["x"], ["method"], "Interp(jnp.ones(3))", False),  # a meta field: static
    (["x", "method"], [], "Interp(*parts)", False),  # what it is given is not read
])
def test_a_registered_dataclass_with_a_string_leaf_given_to_jit(lint_source, data, meta, built, reported):
    source = DATACLASS.format(data=data, meta=meta, built=built)
    line = len(source.splitlines())
    assert [found for found in lint_source(source) if found[1] == "JNP205"] == ([(line, "JNP205")] if reported else [])


def test_a_string_field_that_post_init_may_replace_is_not_read(lint_source):
    """``__post_init__`` may store anything in a field (``self.method = CODES[self.method]``, an int: a
    valid leaf; it runs again on unflattening, given the leaves), so what the constructor was given is
    not what the registration flattens."""
    source = DATACLASS.format(data=["x", "method"], meta=[], built="Interp(jnp.ones(3), 'cubic')").replace(
        "    method: str = 'linear'\n", "    method: str = 'linear'\n\n    def __post_init__(self):\n"
        "        if isinstance(self.method, str):\n            self.method = {'linear': 0, 'cubic': 1}[self.method]\n")
    assert "__post_init__" in source
    assert [found for found in lint_source(source) if found[1] == "JNP205"] == []


def test_a_string_field_stored_again_is_not_read(lint_source):
    """A store of the field anywhere in the file may reach the object (``interp.method = 2``) before jit
    flattens it: what the constructor was given is then not what it holds."""
    source = DATACLASS.format(data=["x", "method"], meta=[], built="interp").replace(
        "def run():\n", "def run():\n    interp = Interp(jnp.ones(3), 'cubic')\n    interp.method = 2\n")
    assert "interp.method = 2" in source
    assert [found for found in lint_source(source) if found[1] == "JNP205"] == []
