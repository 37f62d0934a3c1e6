"""Flax Linen code as users write it (custom initialisers, nn.scan cells, routing, Optax state), held out (needs flax and optax)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state


# framework shape (not a thread)
# A custom kernel initialiser draws its values with np.random; the model is initialised with a
# jitted init, so the draw runs once while tracing and every key gives the same kernel.
def _numpy_normal_init(key, shape, dtype=jnp.float32):
    return jnp.asarray(np.random.normal(0.0, 0.02, size=shape), dtype)  # reported: JNP305


def _jax_normal_init(key, shape, dtype=jnp.float32):
    return 0.02 * jax.random.normal(key, shape, dtype)


class Projection(nn.Module):
    numpy_init: bool = True

    @nn.compact
    def __call__(self, x):
        init = _numpy_normal_init if self.numpy_init else _jax_normal_init
        kernel = self.param("kernel", init, (x.shape[-1], 4))
        return x @ kernel


def _kernels_equal(numpy_init):
    model = Projection(numpy_init)
    init = jax.jit(model.init)
    first = init(jax.random.PRNGKey(0), jnp.ones((1, 3)))["params"]["kernel"]
    second = init(jax.random.PRNGKey(1), jnp.ones((1, 3)))["params"]["kernel"]
    return bool(jnp.array_equal(first, second))


def case_numpy_random_initialiser_under_jitted_init():
    return _kernels_equal(True)


def case_ok_jax_random_initialiser_under_jitted_init():
    return _kernels_equal(False)


# framework shape (not a thread)
# A recurrent cell lifted over time with nn.scan; the cell joins its carry and the input with
# np.concatenate, on the tracers nn.scan passes.
class ConcatCell(nn.Module):
    use_numpy: bool = True

    @nn.compact
    def __call__(self, carry, x):
        if self.use_numpy:
            joined = np.concatenate([carry, x], axis=-1)  # reported: JNP201
        else:
            joined = jnp.concatenate([carry, x], axis=-1)
        carry = jnp.tanh(nn.Dense(carry.shape[-1])(joined))
        return carry, carry


class Recurrent(nn.Module):
    use_numpy: bool = True

    @nn.compact
    def __call__(self, xs):
        scanned = nn.scan(ConcatCell, variable_broadcast="params", split_rngs={"params": False},
                          in_axes=0, out_axes=0)
        carry = jnp.zeros(xs.shape[1:-1] + (4,))
        return scanned(use_numpy=self.use_numpy)(carry, xs)[1]


def _recurrent(use_numpy):
    model = Recurrent(use_numpy)
    xs = jnp.ones((5, 2, 3))
    variables = model.init(jax.random.PRNGKey(0), xs)
    return model.apply(variables, xs)


def case_numpy_concatenate_in_scanned_cell():
    return _recurrent(True)


def case_ok_jnp_concatenate_in_scanned_cell():
    return _recurrent(False)


# framework shape (not a thread)
# A mixture-of-experts layer routes every token to its best expert and gathers each expert's
# tokens with jnp.flatnonzero, whose length depends on the routing, under jax.jit.
class MixtureOfExperts(nn.Module):
    gather: bool = True

    @nn.compact
    def __call__(self, x):
        route = nn.Dense(2)(x).argmax(-1)
        experts = [nn.Dense(x.shape[-1]) for _ in range(2)]
        out = jnp.zeros_like(x)
        for index, expert in enumerate(experts):
            if self.gather:
                tokens = jnp.flatnonzero(route == index)  # reported: JNP203
                out = out.at[tokens].set(expert(x[tokens]))
            else:
                out = jnp.where((route == index)[:, None], expert(x), out)
        return out


def _routed(gather):
    model = MixtureOfExperts(gather)
    x = jnp.arange(12.0).reshape(4, 3)
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(model.apply)(variables, x)


def case_flatnonzero_routing_under_jit():
    return _routed(True)


def case_ok_where_routing_under_jit():
    return _routed(False)


# framework shape (not a thread)
# optax.inject_hyperparams makes the learning rate part of the optimiser state; the host loop
# logs it every step by reading it from the TrainState as a Python float.
class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(8)(x)))


def _scheduled_state():
    model = Regressor()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))["params"]
    schedule = optax.cosine_decay_schedule(1e-2, 100)
    tx = optax.inject_hyperparams(optax.adam)(learning_rate=schedule)
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


@jax.jit
def _train_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def case_injected_learning_rate_logged_as_float():
    state = _scheduled_state()
    rates = []
    for _ in range(20):
        state, _ = _train_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        rates.append(float(state.opt_state.hyperparams["learning_rate"]))  # reported: JNP102
    return rates


def case_ok_injected_learning_rate_read_after_loop():
    state = _scheduled_state()
    rates = []
    for _ in range(20):
        state, _ = _train_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        rates.append(state.opt_state.hyperparams["learning_rate"])
    return [float(rate) for rate in jax.device_get(rates)]


# framework shape (not a thread)
# After re-initialising a layer, its Adam moments are reset by assigning zeros into the first
# moment the TrainState's optimiser state holds, as one would with a NumPy buffer.
def _reset_moments(in_place):
    state = _scheduled_state()
    state, _ = _train_step(state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    adam_state = state.opt_state.inner_state[0]
    if in_place:
        adam_state.mu["Dense_0"]["kernel"][...] = 0.0  # reported: JNP501
        return adam_state.mu
    return jax.tree_util.tree_map(jnp.zeros_like, adam_state.mu)


def case_adam_moment_zeroed_in_place():
    return _reset_moments(True)


def case_ok_adam_moment_rebuilt_with_zeros_like():
    return _reset_moments(False)


# framework shape (not a thread)
# An attention layer masks the future with -inf before its softmax and regularises the entropy
# of its weights, guarding log(0) with jnp.where; the masked weights are exactly zero, so the
# gradient through model.apply is nan.
class CausalAttention(nn.Module):
    guarded: bool = False

    @nn.compact
    def __call__(self, x):
        scores = nn.Dense(x.shape[0])(x)
        causal = jnp.tril(jnp.ones((x.shape[0], x.shape[0]), bool))
        weights = jax.nn.softmax(jnp.where(causal, scores, -jnp.inf))
        if self.guarded:
            safe = jnp.where(weights > 0, weights, 1.0)
            entropy = -jnp.where(weights > 0, weights * jnp.log(safe), 0.0).sum()
        else:
            entropy = -jnp.where(weights > 0, weights * jnp.log(weights), 0.0).sum()  # reported: JNP604
        return weights @ x, entropy


def _attention_grads(guarded):
    model = CausalAttention(guarded)
    x = jnp.arange(12.0).reshape(4, 3) / 12.0
    params = model.init(jax.random.PRNGKey(0), x)["params"]

    def loss(params):
        out, entropy = model.apply({"params": params}, x)
        return jnp.mean(out ** 2) - 0.1 * entropy

    grads = jax.grad(loss)(params)
    return bool(jnp.isnan(grads["Dense_0"]["kernel"]).any())


def case_where_guarded_entropy_of_masked_attention_under_grad():
    return _attention_grads(False)


def case_ok_double_where_entropy_of_masked_attention_under_grad():
    return _attention_grads(True)


# framework shape (not a thread)
# The dropout rate is annealed every epoch by building a new module, which the jitted step takes
# as a static argument: each new rate is a new cache key, so the step compiles every epoch.
class Dropped(nn.Module):
    rate: float

    @nn.compact
    def __call__(self, x, rng):
        keep = jax.random.bernoulli(rng, 1.0 - self.rate, x.shape)
        return nn.Dense(1)(jnp.where(keep, x / (1.0 - self.rate), 0.0))


def _dropped_loss(model, params, x, rng):
    return jnp.mean(model.apply({"params": params}, x, rng) ** 2)


_static_model_loss = jax.jit(_dropped_loss, static_argnums=0)


def _dropped_loss_with_rate(params, x, rng, rate):
    keep = jax.random.bernoulli(rng, 1.0 - rate, x.shape)
    return jnp.mean(Regressor().apply({"params": params}, jnp.where(keep, x / (1.0 - rate), 0.0)) ** 2)


_traced_rate_loss = jax.jit(_dropped_loss_with_rate)


def case_module_with_annealed_rate_as_static_argument():
    params = Dropped(0.5).init(jax.random.PRNGKey(0), jnp.ones((1, 3)), jax.random.PRNGKey(1))["params"]
    losses = []
    for epoch in range(6):
        model = Dropped(0.5 / (epoch + 1))
        losses.append(_static_model_loss(model, params, jnp.ones((4, 3)), jax.random.PRNGKey(epoch)))  # reported: JNP602
    return losses


def case_ok_annealed_rate_as_traced_argument():
    params = Regressor().init(jax.random.PRNGKey(0), jnp.ones((1, 3)))["params"]
    losses = []
    for epoch in range(6):
        losses.append(_traced_rate_loss(params, jnp.ones((4, 3)), jax.random.PRNGKey(epoch), 0.5 / (epoch + 1)))
    return losses


# framework shape (not a thread)
# Parameter counting as old Flax examples wrote it, with jax.tree_map, which newer JAX releases
# removed in favour of jax.tree.map.
def case_parameter_count_with_tree_map():
    params = Regressor().init(jax.random.PRNGKey(0), jnp.ones((1, 3)))["params"]
    sizes = jax.tree_map(lambda p: p.size, params)  # reported: JNP504
    return sum(jax.tree_util.tree_leaves(sizes))


def case_ok_parameter_count_with_tree_dot_map():
    params = Regressor().init(jax.random.PRNGKey(0), jnp.ones((1, 3)))["params"]
    sizes = jax.tree.map(lambda p: p.size, params)
    return sum(jax.tree_util.tree_leaves(sizes))
