"""Flax NNX: state that an nnx.jit step writes back into its Module, read on the host on
every iteration."""
import jax.numpy as jnp
from flax import nnx

STEPS = 3


class Counter(nnx.Module):
    def __init__(self, rngs):
        self.count = nnx.Variable(jnp.array(0))
        self.linear = nnx.Linear(2, 2, rngs=rngs)

    def __call__(self, x):
        self.count.value += 1
        return self.linear(x)


@nnx.jit
def train_step(model, x):
    return jnp.sum(model(x) ** 2)


def case_variable_value_each_step():
    model, x, counts = Counter(nnx.Rngs(0)), jnp.ones((1, 2)), []
    for _ in range(STEPS):
        train_step(model, x)
        counts.append(model.count.value.item())  # expect: JNP102
    return counts


def case_variable_indexed_each_step():
    model, x, total = Counter(nnx.Rngs(0)), jnp.ones((1, 2)), 0
    for _ in range(STEPS):
        train_step(model, x)
        total += int(model.count[...])  # expect: JNP102
    return total


def case_ok_read_after_the_loop():
    model, x = Counter(nnx.Rngs(0)), jnp.ones((1, 2))
    for _ in range(STEPS):
        train_step(model, x)
    return model.count.value.item()


def case_ok_read_before_the_step():
    model, x, counts = Counter(nnx.Rngs(0)), jnp.ones((1, 2)), []
    for _ in range(STEPS):
        counts.append(len(model.linear.kernel.value.shape))  # a shape: static
        train_step(model, x)
    return counts


class Warmup(nnx.Module):
    """A Variable (and a subclass of one) of a Module given to nnx.jit: the trace's arrays."""

    def __init__(self, rngs):
        self.count = Steps(jnp.array(0))
        self.scale = nnx.Param(jnp.ones(2))
        self.linear = nnx.Linear(2, 2, rngs=rngs)

    def __call__(self, x):
        self.count.value += 1
        if self.count.value > STEPS:  # expect: JNP202
            return self.linear(x)
        return x

    def scaled(self, x):
        if self.scale.sum() > 0:  # expect: JNP202
            return x * self.scale[...]
        return x

    def masked(self, x):
        return jnp.where(self.count.value > STEPS, self.linear(x), x * self.scale[...])


class Steps(nnx.Variable):
    pass


@nnx.jit
def warm_step(model, x):
    return model(x)


@nnx.jit
def scaled_step(model, x):
    return model.scaled(x)


@nnx.jit
def masked_step(model, x):
    return model.masked(x)


def case_variable_value_tested_in_the_step():
    return warm_step(Warmup(nnx.Rngs(0)), jnp.ones((1, 2)))


def case_param_tested_in_a_method_of_the_step():
    return scaled_step(Warmup(nnx.Rngs(0)), jnp.ones((1, 2)))


def case_ok_variable_value_in_where():
    return masked_step(Warmup(nnx.Rngs(0)), jnp.ones((1, 2)))
