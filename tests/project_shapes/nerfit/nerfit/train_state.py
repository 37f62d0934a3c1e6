"""The train state: Flax's TrainState with an Optax Adam whose learning rate decays exponentially."""
import jax.numpy as jnp
import optax
from flax.training import train_state


def make_optimizer(cfg):
    schedule = optax.exponential_decay(cfg.lr, transition_steps=max(cfg.steps, 1), decay_rate=0.1)
    return optax.adam(schedule)


def create_train_state(model, cfg, key):
    pts = jnp.zeros((1, 3), jnp.float32)
    params = model.init(key, pts, pts)
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=make_optimizer(cfg))
