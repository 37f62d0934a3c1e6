"""A learned dynamics model in Equinox: x' = x + dt * mlp([x, u]), inputs normalised by data statistics."""
import equinox as eqx
import jax
import jax.numpy as jnp


class LearnedDynamics(eqx.Module):
    mlp: eqx.nn.MLP
    mean: jax.Array
    scale: jax.Array
    dt: float = eqx.field(static=True)

    def __init__(self, state_dim, action_dim, hidden, depth, dt, key, mean=None, scale=None):
        n_in = state_dim + action_dim
        self.mlp = eqx.nn.MLP(n_in, state_dim, hidden, depth, activation=jax.nn.tanh, key=key)
        self.mean = jnp.zeros(n_in) if mean is None else jnp.asarray(mean)
        self.scale = jnp.ones(n_in) if scale is None else jnp.asarray(scale)
        self.dt = dt

    def __call__(self, x, u):
        z = (jnp.concatenate([x, u]) - self.mean) / self.scale
        return x + self.dt * self.mlp(z)


def make_model(cfg, state_dim, action_dim, key, stats=None):
    mean, scale = stats if stats is not None else (None, None)
    return LearnedDynamics(state_dim, action_dim, cfg.hidden, cfg.depth, cfg.dt, key, mean, scale)


def make_ensemble(cfg, state_dim, action_dim, key, size):
    """Members that should disagree away from the data."""
    # project shape (not a thread): every member initialised from the one key given by the caller
    return [make_model(cfg, state_dim, action_dim, key) for _ in range(size)]  # reported: JNP601


def make_ensemble_ok(cfg, state_dim, action_dim, key, size):
    return [make_model(cfg, state_dim, action_dim, k) for k in jax.random.split(key, size)]


def ensemble_dynamics(members):
    """The members' mean prediction, as a dynamics function for the planners."""
    def dynamics(x, u):
        return jnp.mean(jnp.stack([m(x, u) for m in members]), axis=0)

    return dynamics


@eqx.filter_jit
def one_step_error(model, xs, us, xs_next):
    return jnp.mean(jnp.sum((jax.vmap(model)(xs, us) - xs_next) ** 2, axis=-1))
