"""A Trainer that jits its step method in __init__ and anneals its input noise between epochs."""
import jax
import jax.numpy as jnp
import numpy as np

from .layers import init_fno_ok
from .losses import LOSSES
from .optim import adam_init, adam_update_ok


class Trainer:
    def __init__(self, model, cfg, key):
        self.model, self.cfg = model, cfg
        self.loss_fn = LOSSES[cfg.loss]
        self.noise_scale = cfg.input_noise
        self.params = init_fno_ok(key, cfg.model)
        self.opt_state = adam_init(self.params)
        self.history = []
        self.step = jax.jit(self._step)

    def _step(self, params, opt_state, u, target, grid, key):
        u = u + self.noise_scale * jax.random.normal(key, u.shape)
        loss, grads = jax.value_and_grad(lambda p: self.loss_fn(self.model.apply(p, u, grid), target))(params)
        params, opt_state, _ = adam_update_ok(grads, opt_state, params, self.cfg.lr)
        return params, opt_state, loss

    def fit_epoch(self, batches, n_steps, grid, keys):
        for _ in range(n_steps):
            u, target = next(batches)
            self.params, self.opt_state, loss = self.step(self.params, self.opt_state, u, target, grid, keys.next())
            # project shape (not a thread): the loss read back on every step
            self.history.append(float(loss))  # reported: JNP102
        return self.history[-1]

    def fit(self, batches, n_epochs, grid, keys):
        for _ in range(n_epochs):
            self.fit_epoch(batches, self.cfg.steps, grid, keys)
            # project shape (not a thread): the noise annealed on the object whose bound method was jitted once
            self.noise_scale = self.noise_scale * 0.5  # reported: JNP306
        return self.params


class TrainerOk(Trainer):
    def __init__(self, model, cfg, key):
        super().__init__(model, cfg, key)
        self.step = jax.jit(self._step_ok)

    def _step_ok(self, params, opt_state, u, target, grid, key, noise_scale):
        u = u + noise_scale * jax.random.normal(key, u.shape)
        loss, grads = jax.value_and_grad(lambda p: self.loss_fn(self.model.apply(p, u, grid), target))(params)
        params, opt_state, _ = adam_update_ok(grads, opt_state, params, self.cfg.lr)
        return params, opt_state, loss

    def fit_epoch(self, batches, n_steps, grid, keys):
        losses = []
        for _ in range(n_steps):
            u, target = next(batches)
            self.params, self.opt_state, loss = self.step(self.params, self.opt_state, u, target, grid, keys.next(),
                                                          self.noise_scale)
            losses.append(loss)
        self.history.extend(np.asarray(jnp.stack(losses)).tolist())
        return self.history[-1]
