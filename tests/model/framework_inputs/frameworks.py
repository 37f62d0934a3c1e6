"""Framework transforms known by default (behaviour measured by the generator)."""
import io

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from flax import jax_utils, nnx
from jax.sharding import PartitionSpec

OUT = io.StringIO()
STEPS = 4


@eqx.filter_jit
def eqx_step(x, scale):
    print(x, file=OUT)  # expect: JNP301
    if scale > 0:  # a Python scalar stays static under filter_jit
        x = x * scale
    return x * 0.5, jnp.sum(x)


@eqx.filter_jit
def eqx_to_numpy(x):
    return np.sin(x.reshape(-1))  # expect: JNP201


@eqx.filter_grad
def eqx_loss(x):
    return jnp.sum(x * float(x.sum()))  # expect: JNP202


@nnx.jit
def nnx_step(x, n):
    if n > 0:  # expect: JNP202
        x = x + 1
    return x


@nnx.vmap
def nnx_rows(row):
    return np.asarray(row.sum())  # expect: JNP201


class Dense(nn.Module):
    @nn.jit
    @nn.compact
    def __call__(self, x):
        return np.tanh(x.sum())  # expect: JNP201


class Cell(nn.Module):
    @nn.compact
    def __call__(self, carry, x):
        return carry + np.asarray(x).sum(), x  # expect: JNP201


ScannedCell = nn.scan(Cell, variable_broadcast="params", split_rngs={"params": False})


def shard_body(block):
    return np.asarray(block.sum())  # expect: JNP201


def case_eqx_step_in_a_loop():
    x = jnp.ones(3)
    total = 0.0
    for _ in range(STEPS):
        x, loss = eqx_step(x, 2.0)
        total += float(loss)  # expect: JNP102
    return total


def case_eqx_to_numpy():
    return eqx_to_numpy(jnp.ones(3))


def case_eqx_grad():
    return eqx_loss(jnp.ones(3))


def case_nnx_traces_python_ints():
    return nnx_step(jnp.ones(3), 2)


def case_nnx_vmap():
    return nnx_rows(jnp.ones((2, 3)))


def case_linen_jit():
    module = Dense()
    return module.apply(module.init(jax.random.key(0), jnp.ones(3)), jnp.ones(3))


def case_linen_scan_of_a_module_class():
    module, carry, xs = ScannedCell(), jnp.zeros(()), jnp.ones((4, 3))
    return module.init(jax.random.key(0), carry, xs)


def case_shard_map_under_jit():
    mesh = jax.make_mesh((1,), ("i",))
    return jax.jit(jax.shard_map(shard_body, mesh=mesh, in_specs=PartitionSpec(), out_specs=PartitionSpec()))(
        jnp.ones(3))


def case_ok_eqx_static_scalar():
    return eqx_step(jnp.ones(3), 3)



class Gate(nn.Module):
    """A linen module whose __call__ branches on its input: it runs under a trace only where
    its apply is jitted or called from a jitted function (model.init runs it eagerly)."""

    @nn.compact
    def __call__(self, x):
        print("gate", file=OUT)  # runs under init too: not a trace-only side effect
        if x.sum() > 0:  # expect: JNP202
            return nn.Dense(3)(x)
        return x

    def encode(self, x):
        return jnp.tanh(x)


gate = Gate()
fast_gate = jax.jit(gate.apply)


class Squash(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(np.tanh(x))  # expect: JNP201


squash = Squash()


@jax.jit
def squash_loss(params, x):
    return squash.apply({"params": params}, x).sum()


def case_linen_apply_jitted():
    x = jnp.ones(3)
    return fast_gate(gate.init(jax.random.key(0), x), x)


def case_linen_apply_in_a_jitted_function():
    x = jnp.ones(3)
    return squash_loss(squash.init(jax.random.key(0), x)["params"], x)


def case_ok_linen_apply_eager():
    x = jnp.ones(3)
    return gate.apply(gate.init(jax.random.key(0), x), x)


@jax.jit
def gate_encode(variables, x):
    return gate.apply(variables, x, method=Gate.encode)


def case_ok_linen_apply_of_another_method():
    x = -jnp.ones(3)
    return gate_encode(gate.init(jax.random.key(0), x), x)


def replica_step(x):
    return x * 0.5, jnp.sum(x)


p_replica_step = jax.pmap(replica_step)


def case_unreplicated_metrics_in_a_loop():
    x = jax_utils.replicate(jnp.ones(3))
    losses = []
    for _ in range(STEPS):
        x, loss = p_replica_step(x)
        losses.append(float(jax_utils.unreplicate(loss)))  # expect: JNP102
    return losses


def case_ok_unreplicated_host_data_in_a_loop():
    replicas = np.ones((1, 3))
    return [float(jax_utils.unreplicate(replicas).sum()) for _ in range(STEPS)]


class Gated(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        if x.sum() > 0:  # expect: JNP202
            return self.linear(x)
        return x


@nnx.jit
def gated_step(model: Gated, x):
    return model(x)


def case_nnx_module_called_under_nnx_jit():
    return gated_step(Gated(nnx.Rngs(0)), jnp.ones(3))


def case_ok_nnx_module_called_eagerly():
    model = Gated(nnx.Rngs(0))
    return model(jnp.ones(3))


class Squashing(eqx.Module):
    scale: jax.Array

    def __call__(self, x):
        return np.tanh(x) * self.scale  # expect: JNP201


@eqx.filter_jit
def squashed(model: Squashing, x: jax.Array):
    return model(x)


def case_eqx_module_called_under_filter_jit():
    return squashed(Squashing(jnp.ones(3)), jnp.ones(3))


def case_ok_eqx_module_called_eagerly():
    return Squashing(jnp.ones(3))(jnp.ones(3))
