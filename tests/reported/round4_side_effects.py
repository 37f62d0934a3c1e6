"""Fourth round, held out: prints in traced code and objects a jit keeps static
(JNP301, JNP306)."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


# https://github.com/jax-ml/jax/pull/4618
# Printing an argument of a jitted function shows a tracer's type, not the number.
def show_and_return(x):
    print(x)  # reported: JNP301
    return x


def case_print_argument_under_jit():
    return jax.jit(show_and_return)(3.14)


def show_and_return_debug(x):
    jax.debug.print("{}", x)
    return x


def case_ok_debug_print_under_jit():
    return jax.jit(show_and_return_debug)(3.14)


# https://github.com/jax-ml/jax/pull/2591
# A square printed inside a function that is jitted and then differentiated.
def square_and_show(x):
    y = x ** 2
    print(y)  # reported: JNP301
    return y


def case_print_under_grad_of_jit():
    return jax.grad(jax.jit(square_and_show))(3.0)


def square_and_show_debug(x):
    y = x ** 2
    jax.debug.print("{}", y)
    return y


def case_ok_debug_print_under_grad_of_jit():
    return jax.grad(jax.jit(square_and_show_debug))(3.0)


# https://github.com/jax-ml/jax/issues/9024
# A pytree passed as a static argument; its data changes, the compiled result does not.
class Holder:
    def __init__(self, data):
        self.data = data


register_pytree_node(Holder, lambda v: ((v.data,), None), lambda _, data: Holder(*data))

get_data_static = jax.jit(lambda h: h.data * 1, static_argnums=0)


def case_static_pytree_data_changed():
    m = Holder(jnp.arange(4))
    first = get_data_static(m)
    m.data += 1  # reported: JNP306
    return first, get_data_static(m)


get_data_traced = jax.jit(lambda h: h.data * 1)


def case_ok_pytree_passed_traced():
    m = Holder(jnp.arange(4))
    first = get_data_traced(m)
    m.data += 1
    return first, get_data_traced(m)


# https://github.com/jax-ml/jax/issues/9023
# A wrapper method jitted with self static calls a function stored on self; swapping the
# function later does not recompile.
class Wrapper:
    def assign_fn(self, fn):
        self.fn = fn

    @partial(jax.jit, static_argnums=(0,))
    def wrapped(self, x):
        return self.fn(x)


def case_function_on_static_self_swapped():
    t = Wrapper()
    t.assign_fn(lambda x: x + 1)
    first = t.wrapped(1)
    t.assign_fn(lambda x: x + 2)  # reported: JNP306
    return first, t.wrapped(1)


class PlainWrapper:
    def __init__(self, fn):
        self.fn = jax.jit(fn)

    def wrapped(self, x):
        return self.fn(x)


def case_ok_new_wrapper_per_function():
    first = PlainWrapper(lambda x: x + 1).wrapped(1)
    second = PlainWrapper(lambda x: x + 2).wrapped(1)
    return first, second


# https://github.com/PlasmaControl/DESC/pull/310
# An objective whose compute method is jitted with self static; its target is updated between
# optimizer runs and the compiled residual keeps the old one.
class AspectRatio:
    def __init__(self, target, weight=1.0):
        self.target = target
        self.weight = weight

    @partial(jax.jit, static_argnums=0)
    def compute(self, x):
        return self.weight * (jnp.sum(x) - self.target)


def case_objective_target_updated_after_compile():
    objective = AspectRatio(5.0)
    first = objective.compute(jnp.ones(3))
    objective.target = 8.0  # reported: JNP306
    return first, objective.compute(jnp.ones(3))


def case_ok_objective_rebuilt_with_new_target():
    first = AspectRatio(5.0).compute(jnp.ones(3))
    second = AspectRatio(8.0).compute(jnp.ones(3))
    return first, second
