"""Fitting Lennard-Jones parameters to reference forces with Optax: a step factory and a fit loop."""
import jax
import jax.numpy as jnp
import optax

from .potentials import parametric_energy


def forces(params, R, box):
    """The forces on a batch of configurations."""
    return jax.vmap(lambda x: -jax.grad(parametric_energy, argnums=1)(params, x, box))(R)


def force_loss(params, R, F_ref, box):
    return jnp.mean((forces(params, R, box) - F_ref) ** 2)


def make_fit_step(box, lr=0.01, donate=True):
    """An Adam step on the force-matching loss, jitted, donating the parameters and the optimiser state."""
    opt = optax.adam(lr)

    def step(params, opt_state, R, F_ref):
        loss, grads = jax.value_and_grad(force_loss)(params, R, F_ref, box)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return opt, jax.jit(step, donate_argnums=(0, 1) if donate else ())


def init_params(sigma=0.9, epsilon=1.2):
    return {"sigma": jnp.asarray(sigma), "epsilon": jnp.asarray(epsilon)}


def fit(params, R_ref, F_ref, box, n_steps=50, lr=0.01):
    """Fits to NumPy reference configurations and forces."""
    opt, step = make_fit_step(box, lr)
    opt_state = opt.init(params)
    losses = []
    for _ in range(n_steps):
        # project shape (not a thread): the NumPy reference data given to the jitted step on every iteration
        params, opt_state, loss = step(params, opt_state, R_ref, F_ref)  # reported: JNP104
        losses.append(loss)
    return params, jnp.stack(losses)


def fit_ok(params, R_ref, F_ref, box, n_steps=50, lr=0.01):
    opt, step = make_fit_step(box, lr)
    opt_state = opt.init(params)
    R_ref, F_ref = jnp.asarray(R_ref), jnp.asarray(F_ref)
    losses = []
    for _ in range(n_steps):
        params, opt_state, loss = step(params, opt_state, R_ref, F_ref)
        losses.append(loss)
    return params, jnp.stack(losses)


def fit_logged(params, R_ref, F_ref, box, n_steps=50, lr=0.01):
    """As fit_ok, logging how far every step moves the parameters."""
    opt, step = make_fit_step(box, lr)
    opt_state = opt.init(params)
    R_ref, F_ref = jnp.asarray(R_ref), jnp.asarray(F_ref)
    moves = []
    for _ in range(n_steps):
        new_params, opt_state, _ = step(params, opt_state, R_ref, F_ref)
        # project shape (not a thread): the parameters read after the step donated them
        moves.append(jax.tree_util.tree_map(lambda a, b: jnp.abs(a - b), new_params, params))  # reported: JNP605
        params = new_params
    return params, moves


def fit_logged_ok(params, R_ref, F_ref, box, n_steps=50, lr=0.01):
    opt, step = make_fit_step(box, lr, donate=False)
    opt_state = opt.init(params)
    R_ref, F_ref = jnp.asarray(R_ref), jnp.asarray(F_ref)
    moves = []
    for _ in range(n_steps):
        new_params, opt_state, _ = step(params, opt_state, R_ref, F_ref)
        moves.append(jax.tree_util.tree_map(lambda a, b: jnp.abs(a - b), new_params, params))
        params = new_params
    return params, moves
