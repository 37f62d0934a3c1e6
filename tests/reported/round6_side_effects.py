"""Sixth round, held out: state mutated while tracing, objects a jit keeps static, and donated
buffers used again (JNP303, JNP306, JNP605)."""
from functools import partial

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


# https://github.com/jax-ml/jax/issues/15817
# A jitted method of a pytree class writes a sub-system into its own array attribute; the
# assignment happens on the traced copy of self, so the caller's object never changes.
class System:
    def __init__(self, x):
        self.x = x

    @jax.jit
    def set_subsystem(self, index, sub):
        self.x = self.x.at[index].set(sub.x)  # reported: JNP303


register_pytree_node(System, lambda s: ((s.x,), None), lambda _, children: System(*children))


def case_jitted_method_assigns_self():
    whole, part = System(jnp.zeros(3)), System(jnp.ones(2))
    whole.set_subsystem(jnp.arange(2), part)
    return whole.x


class SystemReturning:
    def __init__(self, x):
        self.x = x

    @jax.jit
    def with_subsystem(self, index, sub):
        return SystemReturning(self.x.at[index].set(sub.x))


register_pytree_node(SystemReturning, lambda s: ((s.x,), None),
                     lambda _, children: SystemReturning(*children))


def case_ok_jitted_method_returns_new_object():
    whole, part = SystemReturning(jnp.zeros(3)), SystemReturning(jnp.ones(2))
    whole = whole.with_subsystem(jnp.arange(2), part)
    return whole.x


# https://github.com/jax-ml/jax/issues/12773
# A jitted closure keeps a running total in a list it closes over.
def make_incrementer(total):
    @jax.jit
    def increment(x):
        total[0] += x  # reported: JNP303
        return total[0]
    return increment


def case_closure_total_updated_under_jit():
    increment = make_incrementer([0.0])
    increment(1.0)
    return increment(1.0)


def make_pure_incrementer():
    @jax.jit
    def increment(total, x):
        return total + x
    return increment


def case_ok_total_threaded_through_calls():
    increment = make_pure_incrementer()
    total = increment(0.0, 1.0)
    return increment(total, 1.0)


# https://github.com/jax-ml/jax/issues/1567
# A physics world steps its velocity and position in a method jitted with self static.
class World:
    def __init__(self, p, v):
        self.p = p
        self.v = v

    @partial(jax.jit, static_argnums=(0,))
    def step(self, dt):
        self.v += -9.8 * dt  # reported: JNP303
        self.p += self.v * dt  # reported: JNP303


def case_static_self_steps_its_state():
    world = World(jnp.zeros(2), jnp.ones(2))
    for _ in range(3):
        world.step(0.01)
    return world.p


@jax.jit
def world_step(p, v, dt):
    v = v - 9.8 * dt
    return p + v * dt, v


def case_ok_state_returned_by_step():
    p, v = jnp.zeros(2), jnp.ones(2)
    for _ in range(3):
        p, v = world_step(p, v, 0.01)
    return p


# https://github.com/jax-ml/jax/issues/6335
# A data generator keeps its key on self and splits it inside the function it scans over, so the
# scanned samples never get fresh randomness and self.key ends up a tracer.
class Generator:
    def __init__(self, key):
        self.key = key

    def sample_step(self, prev, _):
        self.key, sub_key = jax.random.split(self.key)  # reported: JNP303
        value = prev + jax.random.normal(sub_key)
        return value, prev

    def gen_data(self, init):
        _, values = jax.lax.scan(self.sample_step, init, None, length=5)
        return values


def case_self_key_split_inside_scan():
    return Generator(jax.random.key(0)).gen_data(0.0)


def sample_step_carrying_key(carry, _):
    key, prev = carry
    key, sub_key = jax.random.split(key)
    value = prev + jax.random.normal(sub_key)
    return (key, value), prev


def case_ok_key_carried_through_scan():
    _, values = jax.lax.scan(sample_step_carrying_key, (jax.random.key(0), 0.0), None, length=5)
    return values


# https://github.com/reservoirpy/reservoirpy/issues/235
# A reservoir's step is jitted with self static, and training then updates the gain and bias the
# step reads; the compiled step keeps the values it was traced with.
class IPReservoir:
    def __init__(self):
        self.a = jnp.ones(3)
        self.b = jnp.zeros(3)

    @partial(jax.jit, static_argnums=(0,))
    def step(self, x):
        return jnp.tanh(self.a * x + self.b)

    def fit(self, xs):
        for x in xs:
            state = self.step(x)
            self.a = self.a + 0.1 * (1.0 - state)  # reported: JNP306
        return self.a


def case_static_self_updated_by_fit():
    return IPReservoir().fit([jnp.ones(3)] * 3)


@jax.jit
def reservoir_step(a, b, x):
    return jnp.tanh(a * x + b)


class IPReservoirArgs:
    def __init__(self):
        self.a = jnp.ones(3)
        self.b = jnp.zeros(3)

    def fit(self, xs):
        for x in xs:
            state = reservoir_step(self.a, self.b, x)
            self.a = self.a + 0.1 * (1.0 - state)
        return self.a


def case_ok_gain_passed_as_argument():
    return IPReservoirArgs().fit([jnp.ones(3)] * 3)


# https://github.com/jeffminlin/vmcnet/pull/18
# A pmapped update donates the parameters, and the training loop keeps the old parameters to
# compare them with the new ones.
def sgd_update(params, grads):
    return params - 0.1 * grads


pmapped_update = jax.pmap(sgd_update, donate_argnums=(0,))


def case_old_params_kept_after_donation():
    params, grads = jnp.ones((1, 3)), jnp.ones((1, 3))
    old_params = params
    params = pmapped_update(params, grads)
    return jnp.abs(params - old_params).max()  # reported: JNP605


pmapped_update_kept = jax.pmap(sgd_update)


def case_ok_old_params_without_donation():
    params, grads = jnp.ones((1, 3)), jnp.ones((1, 3))
    old_params = params
    params = pmapped_update_kept(params, grads)
    return jnp.abs(params - old_params).max()
