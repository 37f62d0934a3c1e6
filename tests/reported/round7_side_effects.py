"""Seventh round, held out: lists, counters and prints that run only while JAX traces
(JNP301, JNP303)."""
import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/pull/5905
# The JIT tutorial's impure function appends its input to a global list; the jaxpr has nothing for
# the append, which runs once while tracing.
global_list = []


def log2_with_log(x):
    global_list.append(x)  # reported: JNP303
    ln_x = jnp.log(x)
    ln_2 = jnp.log(2.0)
    return ln_x / ln_2


def case_global_list_append_under_jit():
    jitted = jax.jit(log2_with_log)
    return [jitted(jnp.float32(v)) for v in (2.0, 4.0, 8.0)]


def log2_pure(x):
    return jnp.log(x) / jnp.log(2.0)


def case_ok_values_collected_outside_jit():
    jitted = jax.jit(log2_pure)
    values = []
    for v in (2.0, 4.0, 8.0):
        values.append(jitted(jnp.float32(v)))
    return values


# https://github.com/jax-ml/jax/pull/20732
# The stateful-computations guide's counter: jitting its count method bakes the first increment in,
# so every call returns 1.
class Counter:
    def __init__(self):
        self.n = 0

    def count(self):
        self.n += 1  # reported: JNP303
        return self.n


def case_counter_method_jitted():
    counter = Counter()
    fast_count = jax.jit(counter.count)
    return [fast_count() for _ in range(3)]


class CounterV2:
    def count(self, n):
        return n + 1, n + 1


def case_ok_counter_state_passed_explicitly():
    counter = CounterV2()
    fast_count = jax.jit(counter.count)
    state = 0
    values = []
    for _ in range(3):
        value, state = fast_count(state)
        values.append(value)
    return values


# https://github.com/jax-ml/jax/issues/19887
# A NeRF loss prints the largest reflection encoding while the step is differentiated and jitted,
# and the console shows a JVPTrace tracer instead of a number.
def render_loss(params, rays):
    encoding = jnp.sin(rays @ params)
    max_reflection_encoding = jnp.max(encoding)
    print(max_reflection_encoding)  # reported: JNP301
    return jnp.mean(encoding / (1.0 + max_reflection_encoding))


def case_print_in_differentiated_loss():
    train_step = jax.jit(jax.value_and_grad(render_loss))
    return train_step(jnp.ones((3, 2)), jnp.ones((4, 3)))


def render_loss_debug(params, rays):
    encoding = jnp.sin(rays @ params)
    max_reflection_encoding = jnp.max(encoding)
    jax.debug.print("max reflection encoding {m}", m=max_reflection_encoding)
    return jnp.mean(encoding / (1.0 + max_reflection_encoding))


def case_ok_debug_print_in_differentiated_loss():
    train_step = jax.jit(jax.value_and_grad(render_loss_debug))
    return train_step(jnp.ones((3, 2)), jnp.ones((4, 3)))
