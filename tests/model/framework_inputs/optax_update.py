"""Optax: functions given to a gradient transformation run inside its ``update``, so they run
traced wherever ``update`` runs traced (which arguments: measured by running Optax,
``framework_update_callbacks``): a schedule given as ``learning_rate=``, the function of
``optax.stateless``, the ``update`` of a hand-written ``optax.GradientTransformation``."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


def halving_schedule(count):
    if count < 2:  # expect: JNP202
        return 0.1
    return 0.05


def where_schedule(count):
    return jnp.where(count < 2, 0.1, 0.05)


def numpy_sign(updates, params):
    return jax.tree_util.tree_map(lambda g: np.sign(g), updates)  # expect: JNP201


def jnp_sign(updates, params):
    return jax.tree_util.tree_map(jnp.sign, updates)


def clipping(clip):
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        return jax.tree_util.tree_map(lambda u: clip(u, -1.0, 1.0), updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def numpy_clipping():
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        return jax.tree_util.tree_map(lambda u: np.clip(u, -1.0, 1.0), updates), state  # expect: JNP201

    return optax.GradientTransformation(init_fn, update_fn)


def run(optimizer):
    params = {"w": jnp.ones(3)}
    opt_state = optimizer.init(params)

    @eqx.filter_jit
    def step(params, opt_state):
        grads = jax.grad(lambda p: jnp.sum(p["w"] ** 2))(params)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    for _ in range(3):
        params, opt_state = step(params, opt_state)
    return params


def run_eagerly(optimizer):
    params = {"w": jnp.ones(3)}
    opt_state = optimizer.init(params)
    for _ in range(3):
        grads = {"w": 2 * params["w"]}
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
    return params


def case_python_if_in_schedule():
    return run(optax.adam(learning_rate=halving_schedule))


def case_ok_where_in_schedule():
    return run(optax.adam(learning_rate=where_schedule))


def case_numpy_in_stateless_transformation():
    return run(optax.MultiSteps(optax.chain(optax.stateless(numpy_sign), optax.sgd(0.1)), 2))


def case_ok_jnp_in_stateless_transformation():
    return run(optax.chain(optax.stateless(jnp_sign), optax.sgd(0.1)))


def case_numpy_in_hand_written_transformation():
    transformation = optax.chain(numpy_clipping(), optax.sgd(0.1))
    return run(transformation)


def case_ok_jnp_in_hand_written_transformation():
    return run(optax.chain(clipping(jnp.clip), optax.sgd(0.1)))


def case_ok_python_if_in_schedule_run_eagerly():
    return run_eagerly(optax.sgd(learning_rate=lambda count: 0.1 if count < 2 else 0.05))
