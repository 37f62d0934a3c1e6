"""Equinox code as users write it (closed-form heads, token selection on partitioned models, best-loss globals, divergence checks, timed steps, gradient norms, parameter counts, polar features), held out (needs equinox and optax)."""
import time

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


def _data():
    return jnp.arange(24.0).reshape(8, 3) / 24.0, jnp.ones((8, 1))


def _mlp():
    return eqx.nn.MLP(3, 1, 8, 2, key=jax.random.PRNGKey(0))


# framework shape (not a thread)
# A frozen encoder's features are fitted by a closed-form least-squares head inside
# eqx.filter_jit; the solve was written with np.linalg.lstsq, which cannot take the tracers.
class Encoder(eqx.Module):
    layer: eqx.nn.Linear

    def __call__(self, x):
        return jax.nn.tanh(self.layer(x))


@eqx.filter_jit
def _fit_head(encoder, x, y, numpy_solve):
    features = jax.vmap(encoder)(x)
    if numpy_solve:
        weights = np.linalg.lstsq(features, y, rcond=None)[0]  # reported: JNP201
    else:
        weights = jnp.linalg.lstsq(features, y)[0]
    return features @ weights


def case_numpy_lstsq_head_under_filter_jit():
    x, y = _data()
    return _fit_head(Encoder(eqx.nn.Linear(3, 4, key=jax.random.PRNGKey(0))), x, y, True)


def case_ok_jnp_lstsq_head_under_filter_jit():
    x, y = _data()
    return _fit_head(Encoder(eqx.nn.Linear(3, 4, key=jax.random.PRNGKey(0))), x, y, False)


# framework shape (not a thread)
# The model is split with eqx.partition and the loss combines it back; a token-pruning Module
# keeps the positions of the confident tokens with one-argument jnp.where, whose length depends
# on the data, so the jitted loss cannot trace it.
class TokenPruner(eqx.Module):
    scorer: eqx.nn.Linear
    fixed_size: bool = eqx.field(static=True)

    def __call__(self, tokens):
        scores = jax.vmap(self.scorer)(tokens)[:, 0]
        if self.fixed_size:
            (kept,) = jnp.where(scores > 0, size=tokens.shape[0], fill_value=0)
        else:
            (kept,) = jnp.where(scores > 0)  # reported: JNP203
        return tokens[kept].mean()


def _pruned_loss(fixed_size):
    model = TokenPruner(eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0)), fixed_size)
    params, static = eqx.partition(model, eqx.is_array)
    x, _ = _data()

    @jax.jit
    def loss(params, x):
        return eqx.combine(params, static)(x) ** 2
    return jax.grad(loss)(params, x)


def case_one_argument_where_in_a_combined_model():
    return _pruned_loss(False)


def case_ok_sized_where_in_a_combined_model():
    return _pruned_loss(True)


# framework shape (not a thread)
# The eqx.filter_jit step keeps the best loss so far in a module-level variable through a
# global statement; the rebinding runs only while the step is traced and leaks a tracer.
best_loss = jnp.inf


@eqx.filter_jit
def _step_tracking_best(model, x, y):
    global best_loss
    loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    best_loss = jnp.minimum(best_loss, loss)  # reported: JNP302
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads)), loss


@eqx.filter_jit
def _step(model, x, y):
    loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads)), loss


def case_best_loss_rebound_through_global_in_filter_jit():
    model, (x, y) = _mlp(), _data()
    for _ in range(3):
        model, loss = _step_tracking_best(model, x, y)
    return isinstance(best_loss, jax.core.Tracer)


def case_ok_best_loss_kept_by_the_loop():
    model, (x, y) = _mlp(), _data()
    best = jnp.inf
    for _ in range(3):
        model, loss = _step(model, x, y)
        best = jnp.minimum(best, loss)
    return best


# framework shape (not a thread)
# The training loop stops on divergence by testing the step's loss with jnp.isnan in an `if`;
# the test turns the device scalar into a Python bool and waits for the step every iteration.
def case_divergence_check_every_step():
    model, (x, y) = _mlp(), _data()
    for _ in range(5):
        model, loss = _step(model, x, y)
        if jnp.isnan(loss):  # reported: JNP102
            break
    return model


def case_ok_divergence_check_after_the_loop():
    model, (x, y) = _mlp(), _data()
    losses = []
    for _ in range(5):
        model, loss = _step(model, x, y)
        losses.append(loss)
    return bool(jnp.isnan(jnp.stack(losses)).any())


# framework shape (not a thread)
# The step time of an Optax-trained Equinox model is taken around the eqx.filter_jit call; the
# call returns once the work is dispatched, so the clock stops before the step runs.
@eqx.filter_jit
def _optax_step(model, opt_state, x, y, optimizer):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = optimizer.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


def _timed_steps(wait):
    model, (x, y) = _mlp(), _data()
    optimizer = optax.adamw(1e-3)
    opt_state = optimizer.init(eqx.filter(model, eqx.is_array))
    times = []
    for _ in range(3):
        start = time.perf_counter()
        model, opt_state = _optax_step(model, opt_state, x, y, optimizer)
        if wait:
            jax.block_until_ready(model)
            times.append(time.perf_counter() - start)
        else:
            times.append(time.perf_counter() - start)  # reported: JNP603
    return len(times)


def case_step_timed_without_waiting():
    return _timed_steps(False)


def case_ok_step_timed_after_block_until_ready():
    return _timed_steps(True)


# framework shape (not a thread)
# The gradient norm for the dashboard is the norm of the per-leaf norms, taken with
# jnp.linalg.norm of a Python list; JAX's norm refuses lists.
def _grad_norm(use_optax):
    model, (x, y) = _mlp(), _data()
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    if use_optax:
        return optax.tree.norm(eqx.filter(grads, eqx.is_array))
    leaves = jax.tree_util.tree_leaves(eqx.filter(grads, eqx.is_array))
    return jnp.linalg.norm([jnp.linalg.norm(g) for g in leaves])  # reported: JNP505


def case_norm_of_a_list_of_leaf_norms():
    return _grad_norm(False)


def case_ok_optax_tree_norm():
    return _grad_norm(True)


# framework shape (not a thread)
# The parameter count of an Equinox model, as older tutorials wrote it with jax.tree_leaves;
# JAX removed the alias, so the count fails.
def case_parameter_count_with_jax_tree_leaves():
    model = _mlp()
    return sum(leaf.size for leaf in jax.tree_leaves(eqx.filter(model, eqx.is_array)))  # reported: JNP504


def case_ok_parameter_count_with_jax_tree_util():
    model = _mlp()
    return sum(leaf.size for leaf in jax.tree_util.tree_leaves(eqx.filter(model, eqx.is_array)))


# framework shape (not a thread)
# A Module turns planar points into polar features, taking the angle with jnp.arctan2 where the
# radius is positive; a saliency map takes eqx.filter_grad with respect to the points, and at the
# origin arctan2 still runs, so its gradient is nan.
class PolarHead(eqx.Module):
    head: eqx.nn.Linear
    guard_input: bool = eqx.field(static=True)

    def __call__(self, point):
        radius = jnp.sqrt(jnp.sum(point ** 2) + 1e-12)
        if self.guard_input:
            safe = jnp.where(radius > 1e-5, point, jnp.ones_like(point))
            angle = jnp.where(radius > 1e-5, jnp.arctan2(safe[1], safe[0]), 0.0)
        else:
            angle = jnp.where(radius > 1e-5, jnp.arctan2(point[1], point[0]), 0.0)  # reported: JNP604
        return self.head(jnp.stack([radius, jnp.sin(angle), jnp.cos(angle)]))


def _polar_grads(guard_input):
    model = PolarHead(eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0)), guard_input)
    points = jnp.array([[0.0, 0.0], [1.0, 1.0]])
    saliency = eqx.filter_grad(lambda p, m: jnp.sum(jax.vmap(m)(p)))(points, model)
    return bool(jnp.isnan(saliency).any())


def case_arctan2_at_the_origin_under_filter_grad():
    return _polar_grads(False)


def case_ok_guarded_arctan2_under_filter_grad():
    return _polar_grads(True)
