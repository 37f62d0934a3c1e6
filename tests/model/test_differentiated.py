"""Which names of a traced function no differentiating transform differentiates, and which parameters
the reach gives a differentiating transform applied in place."""
import ast
import textwrap

from flake8_jaxnp.model.differentiated import undifferentiated_names
from flake8_jaxnp.model.names import Names
from flake8_jaxnp.model.project.returns import traced_unders
from flake8_jaxnp.model.traced import Behaviour

LOSSES = textwrap.dedent('''
    import flax.linen as nn
    import jax.numpy as jnp


    def relative(pred, target):
        norm = jnp.sqrt(jnp.sum(target ** 2, axis=-1))
        safe = jnp.where(norm > 0, norm, 1.0)
        scaled = (pred - target) / safe
        return scaled.mean()


    def layered(x, target):
        h = nn.Dense(4)(x)
        y = helper(target)
        z = target.sum()
        for _ in range(2):
            target = target * 2
        return h, y, z
''')


def _names(name, constants):
    tree = ast.parse(LOSSES)
    func = next(node for node in tree.body if getattr(node, "name", None) == name)
    return undifferentiated_names(func, constants, Names(tree).qualname)


def test_what_is_computed_from_the_data_alone_is_not_differentiated():
    assert _names("relative", {"target"}) == {"target", "norm", "safe"}


def test_a_call_of_anything_but_a_jax_array_function_may_read_what_is_differentiated():
    """``nn.Dense(4)(x)`` reads the layer's parameters, ``helper`` may; a parameter rebound (in the
    loop) is no longer the data it was given, nor is what its method computes."""
    assert _names("layered", {"x"}) == {"x"}
    assert _names("layered", {"target"}) == set()


def test_a_differentiating_transform_applied_in_place_traces_the_positions_it_differentiates():
    unders = traced_unders("jax.jit", "jax.value_and_grad", Behaviour.DIFFERENTIATING, {"p", "x", "y"},
                           ["p", "x", "y"], [0, 1, 2], [0])
    assert unders == {"jax.jit": {"p", "x", "y"}, "jax.value_and_grad": {"p"}}
    unknown = traced_unders("jax.jit", "jax.grad", Behaviour.DIFFERENTIATING, {"p", "x"}, ["p", "x"], [0, 1], None)
    assert unknown == {"jax.jit": {"p", "x"}, "jax.grad": {"p", "x"}}
    untraced = traced_unders("jax.jit", "jax.grad", Behaviour.DIFFERENTIATING, {"x"}, ["p", "x"], [1], [0])
    assert untraced == {"jax.jit": {"x"}}
