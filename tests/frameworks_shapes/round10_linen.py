"""Flax Linen, lifted transforms, train_state and Optax code as users write it, held out (needs flax and optax)."""
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


# framework shape (not a thread)
# A residual block wrapped in nn.remat to save memory rescales its input by its norm, read as a
# Python float; the rematerialised block is traced, so float() meets a tracer.
class NormalisedBlock(nn.Module):
    as_float: bool = True

    @nn.compact
    def __call__(self, x):
        if self.as_float:
            scale = float(jnp.linalg.norm(x)) + 1e-6  # reported: JNP202
        else:
            scale = jnp.linalg.norm(x) + 1e-6
        return x + nn.Dense(x.shape[-1])(x / scale)


class RematStack(nn.Module):
    as_float: bool = True

    @nn.compact
    def __call__(self, x):
        for _ in range(2):
            x = nn.remat(NormalisedBlock)(as_float=self.as_float)(x)
        return x


def _remat_stack(model):
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    return model.apply(variables, x)


def case_float_norm_in_remat_block():
    return _remat_stack(RematStack())


def case_ok_array_norm_in_remat_block():
    return _remat_stack(RematStack(as_float=False))


# framework shape (not a thread)
# An ensemble built with nn.vmap over the parameters: each member turns its logits into
# probabilities with np.exp, which meets the tracer nn.vmap passes.
class Member(nn.Module):
    use_numpy: bool = True

    @nn.compact
    def __call__(self, x):
        logits = nn.Dense(4)(x)
        if self.use_numpy:
            unnormalised = np.exp(logits - logits.max(-1, keepdims=True))  # reported: JNP201
        else:
            unnormalised = jnp.exp(logits - logits.max(-1, keepdims=True))
        return unnormalised / unnormalised.sum(-1, keepdims=True)


class Ensemble(nn.Module):
    use_numpy: bool = True

    @nn.compact
    def __call__(self, x):
        members = nn.vmap(Member, variable_axes={"params": 0}, split_rngs={"params": True},
                          in_axes=None, out_axes=0, axis_size=3)
        return members(use_numpy=self.use_numpy)(x).mean(0)


def _ensemble(model):
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    return model.apply(variables, x)


def case_numpy_exp_in_vmapped_member():
    return _ensemble(Ensemble())


def case_ok_jnp_exp_in_vmapped_member():
    return _ensemble(Ensemble(use_numpy=False))


# framework shape (not a thread)
# __call__ hands its hidden features to a pooling method of the module, which keeps only the
# positive ones with a boolean mask: a shape that depends on the values, under jax.jit.
class PositivePool(nn.Module):
    masked: bool = True

    def pool(self, h):
        if self.masked:
            return h[h > 0].mean()  # reported: JNP203
        return jnp.where(h > 0, h, 0.0).sum() / jnp.maximum((h > 0).sum(), 1)

    @nn.compact
    def __call__(self, x):
        return self.pool(nn.Dense(4)(x))


def _pooled(model):
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(model.apply)(variables, x)


def case_boolean_mask_in_pool_method():
    return _pooled(PositivePool())


def case_ok_where_in_pool_method():
    return _pooled(PositivePool(masked=False))


# framework shape (not a thread)
# A host-side exponential moving average of the TrainState parameters: every step copies each
# parameter back to NumPy to mix it into the average.
class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(nn.relu(nn.Dense(8)(x)))


def _regressor_state():
    model = Regressor()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(1e-3))


@jax.jit
def _fit_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def case_numpy_ema_of_params_every_step():
    state = _regressor_state()
    ema = jax.tree_util.tree_map(np.asarray, state.params)
    for _ in range(20):
        state, _ = _fit_step(state, jnp.ones((4, 3)), jnp.zeros((4, 2)))
        ema = jax.tree_util.tree_map(lambda e, p: 0.99 * e + 0.01 * np.asarray(p), ema, state.params)  # reported: JNP101
    return ema


def case_ok_device_ema_of_params_every_step():
    state = _regressor_state()
    ema = state.params
    for _ in range(20):
        state, _ = _fit_step(state, jnp.ones((4, 3)), jnp.zeros((4, 2)))
        ema = jax.tree_util.tree_map(lambda e, p: 0.99 * e + 0.01 * p, ema, state.params)
    return jax.device_get(ema)


# framework shape (not a thread)
# The TrainState is donated to the jitted step to save memory, and the loop then evaluates the
# old state, whose buffers the step deleted, to log the loss before the update.
@functools.partial(jax.jit, donate_argnums=0)
def _donating_step(state, x, y):
    return _fit_step(state, x, y)


@jax.jit
def _eval_loss(state, x, y):
    return jnp.mean((state.apply_fn({"params": state.params}, x) - y) ** 2)


def case_donated_state_evaluated_after_step():
    state = _regressor_state()
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 2))
    losses = []
    for _ in range(3):
        new_state, _ = _donating_step(state, x, y)
        losses.append(_eval_loss(state, x, y))  # reported: JNP605
        state = new_state
    return losses


def case_ok_state_evaluated_before_step():
    state = _regressor_state()
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 2))
    losses = []
    for _ in range(3):
        losses.append(_eval_loss(state, x, y))
        state, _ = _donating_step(state, x, y)
    return losses


# framework shape (not a thread)
# Checkpoints kept every other step, decided by the TrainState's step counter on the device: the
# condition waits for the step to finish on every iteration.
def case_checkpoint_every_other_device_step():
    state = _regressor_state()
    kept = []
    for _ in range(20):
        state, _ = _fit_step(state, jnp.ones((4, 3)), jnp.zeros((4, 2)))
        if state.step % 2 == 0:  # reported: JNP102
            kept.append(state.params)
    return kept


def case_ok_checkpoint_every_other_host_step():
    state = _regressor_state()
    kept = []
    for step in range(1, 21):
        state, _ = _fit_step(state, jnp.ones((4, 3)), jnp.zeros((4, 2)))
        if step % 2 == 0:
            kept.append(state.params)
    return kept


# framework shape (not a thread)
# A layer with a learned kernel zeroes its diagonal through a masking method called from
# __call__, by assigning into the parameter in place as NumPy would allow.
class NoSelfLoops(nn.Module):
    functional: bool = False

    def masked(self, kernel):
        if self.functional:
            return kernel * (1.0 - jnp.eye(kernel.shape[0]))
        kernel[jnp.diag_indices(kernel.shape[0])] = 0.0  # reported: JNP501
        return kernel

    @nn.compact
    def __call__(self, x):
        kernel = self.param("kernel", nn.initializers.lecun_normal(), (x.shape[-1], x.shape[-1]))
        return x @ self.masked(kernel)


def _no_self_loops(model):
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    return model.apply(variables, x)


def case_param_diagonal_assigned_in_place():
    return _no_self_loops(NoSelfLoops())


def case_ok_param_diagonal_masked():
    return _no_self_loops(NoSelfLoops(functional=True))
