"""The text test that lets a module importing nothing of the project into the reach: it may apply a
transform to a parameter (``package.given_a_transform``)."""
from flake8_jaxnp.model.project.package import given_a_transform

LAST_NAMES = ("jit", "vmap")


def test_a_transform_of_a_partial_of_a_parameter_is_let_through():
    text = (b"class Actor:\n    def __init__(self, policy, scale):\n"
            b"        self.act = jax.jit(functools.partial(policy, scale))\n")
    assert given_a_transform(text, LAST_NAMES)


def test_a_transform_of_a_parameter_is_let_through():
    assert given_a_transform(b"def make(fn):\n    return jax.vmap(fn)\n", LAST_NAMES)


def test_a_transform_of_a_module_function_is_not():
    text = b"def step(x):\n    return x\n\n\nfast = jax.jit(step)\n\n\ndef run(params, x):\n    return fast(x)\n"
    assert not given_a_transform(text, LAST_NAMES)


def test_a_transform_of_a_method_of_a_parameter_is_let_through():
    text = b"class Controller:\n    def __init__(self, planner):\n        self.plan = jax.jit(planner.plan)\n"
    assert given_a_transform(text, LAST_NAMES)


def test_a_transform_of_a_method_of_self_is_not():
    text = b"class Trainer:\n    def __init__(self, cfg):\n        self.step = jax.jit(self.update)\n"
    assert not given_a_transform(text, LAST_NAMES)
