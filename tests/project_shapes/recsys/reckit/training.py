"""Training: a step factory with optional donation, and a Trainer that jits its step method in __init__."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

from .losses import LOSSES
from .optim import make_optimizer
from .sampling import SAMPLERS

LAST_GRAD_NORM = None


def pairwise_loss(model, loss_fn, full_catalogue=False):
    """The loss of a batch and its negatives: sampled, or a softmax over the whole catalogue."""

    def loss_of(params, batch, negs):
        if full_catalogue:
            log_probs = jax.nn.log_softmax(model.score_all(params, batch["user"]), axis=1)
            return -jnp.mean(jnp.take_along_axis(log_probs, batch["pos"][:, None], axis=1))
        pos = model.score(params, batch["user"], batch["pos"])
        neg = model.score(params, batch["user"][:, None], negs)
        return loss_fn(pos, neg)

    return loss_of


def make_train_step(model, loss_name, tx, donate=True, full_catalogue=False):
    """A jitted step (params, opt_state, batch, negs) -> (params, opt_state, loss), donating its state."""
    loss_of = pairwise_loss(model, LOSSES[loss_name], full_catalogue)

    def step(params, opt_state, batch, negs):
        global LAST_GRAD_NORM
        loss, grads = jax.value_and_grad(loss_of)(params, batch, negs)
        # project shape (not a thread): the gradient norm kept in a module global for the logger
        LAST_GRAD_NORM = optax.tree.norm(grads)  # reported: JNP302
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(step, donate_argnums=(0, 1) if donate else ())


def make_train_step_ok(model, loss_name, tx, donate=True, full_catalogue=False):
    """The same step, returning the gradient norm with the loss."""
    loss_of = pairwise_loss(model, LOSSES[loss_name], full_catalogue)

    def step(params, opt_state, batch, negs):
        loss, grads = jax.value_and_grad(loss_of)(params, batch, negs)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, (loss, optax.tree.norm(grads))

    return jax.jit(step, donate_argnums=(0, 1) if donate else ())


class Trainer:
    """Owns the parameters and optimiser state; the step, sampling included, is jitted from a method."""

    def __init__(self, cfg, model, log_pop, total_steps, loss_fn=None):
        self.cfg, self.model, self.log_pop = cfg, model, log_pop
        self.tx = make_optimizer(cfg.opt, total_steps)
        self.loss_of = pairwise_loss(model, loss_fn or LOSSES[cfg.loss])
        self.sampler = SAMPLERS[cfg.sampler]
        self.history = []
        self.step = jax.jit(self._step, donate_argnums=(0, 1) if cfg.donate else ())

    def init(self, key):
        self.params = self.model.init(key)
        self.opt_state = self.tx.init(self.params)
        self.history = []
        return self

    def _step(self, params, opt_state, batch, key):
        negs = self.sampler(key, batch["user"], self.log_pop, self.cfg.n_negatives)
        loss, grads = jax.value_and_grad(self.loss_of)(params, batch, negs)
        updates, opt_state = self.tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    def fit_epoch(self, batches, key):
        running = 0.0
        for batch in batches:
            key, sub = jax.random.split(key)
            self.params, self.opt_state, loss = self.step(self.params, self.opt_state, batch, sub)
            # project shape (not a thread): the loss read back on every step for the running mean
            running += loss.item()  # reported: JNP102
        self.history.append(running / len(batches))
        return key

    def fit(self, batches, key, epochs):
        for _ in range(epochs):
            key = self.fit_epoch(batches, key)
        return self.params


class TrainerOk(Trainer):
    def fit_epoch(self, batches, key):
        losses = []
        for batch in batches:
            key, sub = jax.random.split(key)
            self.params, self.opt_state, loss = self.step(self.params, self.opt_state, batch, sub)
            losses.append(loss)
        self.history.append(float(jnp.mean(jnp.stack(losses))))
        return key


class TrainerChecked(TrainerOk):
    """Stops as soon as the loss stops being finite."""

    def _step(self, params, opt_state, batch, key):
        negs = self.sampler(key, batch["user"], self.log_pop, self.cfg.n_negatives)
        loss, grads = jax.value_and_grad(self.loss_of)(params, batch, negs)
        # project shape (not a thread): a Python test of the traced loss inside the jitted step
        if not jnp.isfinite(loss):  # reported: JNP202
            raise FloatingPointError("the loss diverged; lower the learning rate")
        updates, opt_state = self.tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss


class TrainerCheckedOk(TrainerOk):
    def fit_epoch(self, batches, key):
        key = super().fit_epoch(batches, key)
        if not np.isfinite(self.history[-1]):
            raise FloatingPointError("the loss diverged; lower the learning rate")
        return key
