"""Equinox models (needs equinox to run)."""
import equinox as eqx
import jax
import jax.numpy as jnp


# https://github.com/patrick-kidger/equinox/issues/1062
# A module with a Python int field that changes every iteration: filter_jit treats it as
# static, so each new value is a new cache key and the step compiles again.
class Stepper(eqx.Module):
    weight: jax.Array
    x: int


@eqx.filter_jit
def _step(module, data):
    return module.weight * data + module.x


def case_int_field_changes_every_iteration():
    out = []
    for i in range(20):
        module = Stepper(jnp.ones(3), i)
        out.append(_step(module, jnp.ones(3)))  # reported: JNP602
    return out


class StepperArray(eqx.Module):
    weight: jax.Array
    x: jax.Array


def case_ok_array_field_changes():
    out = []
    for i in range(20):
        module = StepperArray(jnp.ones(3), jnp.asarray(i))
        out.append(_step(module, jnp.ones(3)))
    return out


# https://github.com/patrick-kidger/equinox/pull/306
# One dropout key for the whole vmapped batch: every example drops the same units.
class Block(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.linear = eqx.nn.Linear(4, 4, key=key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, key):
        return self.dropout(self.linear(x), key=key)


@eqx.filter_jit
def _batched(model, xs, key):
    return jax.vmap(model, in_axes=(0, None))(xs, key)  # reported: JNP601


@eqx.filter_jit
def _batched_fixed(model, xs, key):
    keys = jax.random.split(key, xs.shape[0])
    return jax.vmap(model)(xs, keys)


def case_one_dropout_key_for_the_batch():
    model = Block(jax.random.PRNGKey(0))
    return _batched(model, jnp.ones((8, 4)), jax.random.PRNGKey(1))


def case_ok_one_key_per_example():
    model = Block(jax.random.PRNGKey(0))
    return _batched_fixed(model, jnp.ones((8, 4)), jax.random.PRNGKey(1))


# https://github.com/patrick-kidger/equinox/pull/239
# jax.jit, not filter_jit, given a model whose pytree holds functions (its activations): JAX cannot
# trace them. JNP205 reports this mechanism for a jitted method's self; here it is an argument. The
# runtime mode places its TypeError on the jitted function (def _loss), not on this call.
def _loss(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def case_jax_jit_of_module_with_functions():
    model = eqx.nn.MLP(2, 1, 4, 1, key=jax.random.PRNGKey(0))
    return jax.jit(_loss)(model, jnp.ones((3, 2)), jnp.ones((3, 1)))  # reported: JNP205


def case_ok_filter_jit_of_module_with_functions():
    model = eqx.nn.MLP(2, 1, 4, 1, key=jax.random.PRNGKey(0))
    return eqx.filter_jit(_loss)(model, jnp.ones((3, 2)), jnp.ones((3, 1)))


# https://github.com/patrick-kidger/equinox/issues/746
# A jax.Array marked as a static field: the second call with other data fails; no rule covers it.
class Data(eqx.Module):
    data: jax.Array = eqx.field(static=True)


class DataDynamic(eqx.Module):
    data: jax.Array


class Offset(eqx.Module):
    foo: jax.Array


@eqx.filter_jit
@eqx.filter_value_and_grad
def _offset_loss(model, data):
    return jnp.sum(model.foo - data.data)


def case_array_as_static_field():
    model = Offset(jnp.array(1.0))
    _offset_loss(model, Data(jax.random.uniform(jax.random.PRNGKey(0), (3, 3))))
    return _offset_loss(model, Data(jax.random.uniform(jax.random.PRNGKey(1), (3, 3))))  # reported: none


def case_ok_array_as_dynamic_field():
    model = Offset(jnp.array(1.0))
    _offset_loss(model, DataDynamic(jax.random.uniform(jax.random.PRNGKey(0), (3, 3))))
    return _offset_loss(model, DataDynamic(jax.random.uniform(jax.random.PRNGKey(1), (3, 3))))
