"""Flax linen state and methods that a jitted ``apply`` reaches: a counter kept with ``self.variable``
is the trace's array, and a method handed to a helper that applies the model with it runs traced."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


class Counted(nn.Module):
    """Counts its calls in a mutable collection; ``early`` branches on the count in Python."""

    early: bool = True

    @nn.compact
    def __call__(self, x):
        seen = self.variable("counters", "seen", lambda: 0)
        seen.value += 1
        if self.early and seen.value < 2:  # expect: JNP202
            return x * 0.5
        return jnp.where(seen.value < 2, x * 0.5, x)


def counted_steps(model):
    x = jnp.ones(3)
    variables = model.init(jax.random.key(0), x)
    step = jax.jit(lambda v, x: model.apply(v, x, mutable=["counters"]))
    outs = []
    for _ in range(3):
        out, counters = step(variables, x)
        variables = {**variables, **counters}
        outs.append(out)
    return outs


def case_python_if_on_a_variable_counter():
    return counted_steps(Counted())


def case_ok_where_on_a_variable_counter():
    return counted_steps(Counted(early=False))


def case_ok_variable_counter_applied_eagerly():
    model = Counted()
    x = jnp.ones(3)
    variables = model.init(jax.random.key(0), x)
    return model.apply(variables, x, mutable=["counters"])


class Codec(nn.Module):
    def setup(self):
        self.down = nn.Dense(2)
        self.up = nn.Dense(3)

    def __call__(self, x):
        return self.up(self.down(x))

    def expand(self, z):
        return np.exp(self.up(z))  # expect: JNP201

    def expand_jnp(self, z):
        return jnp.exp(self.up(z))


def apply_with(model, variables, z, method):
    return jax.jit(lambda v, z: model.apply(v, z, method=method))(variables, z)


def case_numpy_in_a_method_handed_to_a_jitted_apply():
    model = Codec()
    variables = model.init(jax.random.key(0), jnp.ones(3))
    return apply_with(model, variables, jnp.ones(2), Codec.expand)


def case_ok_jnp_in_a_method_handed_to_a_jitted_apply():
    model = Codec()
    variables = model.init(jax.random.key(0), jnp.ones(3))
    return apply_with(model, variables, jnp.ones(2), Codec.expand_jnp)
