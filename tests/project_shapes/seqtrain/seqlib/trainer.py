"""The Trainer: every step is jitted once, in __init__, from a method."""
import jax
import jax.numpy as jnp

from . import data, metrics, model
from .configs import RunConfig
from .utils import trace_norm, trace_norm_ok


class Trainer:
    def __init__(self, cfg: RunConfig, loss=model.loss_fn):
        self.cfg = cfg
        self.loss = loss
        self.lr = cfg.optim.learning_rate
        self.losses = []
        self.train_step = jax.jit(self._train_step)
        self.eval_step = jax.jit(self._eval_step)
        self.logits = jax.jit(model.forward)
        self.checked_step = jax.jit(self._checked_step)
        self.clean_step = jax.jit(self._clean_step)
        self.squashed_step = jax.jit(self._squashed_step)
        self.noisy_step = jax.jit(self._noisy_step)
        self.counted_step = jax.jit(self._counted_step)
        self.recording_step = jax.jit(self._recording_step)
        self.monitored_step = jax.jit(self._monitored_step)
        self.safe_step = jax.jit(self._safe_step)

    def _descend(self, params, grads):
        return jax.tree.map(lambda p, g: p - self.lr * g, params, grads)

    def _train_step(self, params, x, y):
        loss, grads = jax.value_and_grad(self.loss)(params, x, y)
        return self._descend(params, grads), loss

    def _eval_step(self, params, x, y):
        return metrics.accuracy(model.forward(params, x), y)

    def predict(self, params, x):
        return self.logits(params, x)

    # project shape (not a thread): a method jitted as a plain function; self is not a pytree
    @jax.jit  # reported: JNP205
    def predict_classes(self, params, x):
        return jnp.argmax(model.forward(params, x), axis=-1)

    def _checked_step(self, params, x, y):
        params, loss = self._train_step(params, x, y)
        return params, metrics.assert_finite(loss)

    def _clean_step(self, params, x, y):
        x, y = data.drop_padding(x, y)
        return self._train_step(params, x, y)

    def _squashed_step(self, params, x, y):
        return self._train_step(params, data.standardize(x), y)

    def _noisy_step(self, params, x, y):
        grads = jax.grad(lambda p: model.cross_entropy(model.forward_dropout(p, x), y, 0.0))(params)
        return self._descend(params, grads)

    def _counted_step(self, params, x, y):
        metrics.count_step()
        return self._train_step(params, x, y)

    def _recording_step(self, params, x, y):
        params, loss = self._train_step(params, x, y)
        # project shape (not a thread): the history kept on the Trainer, appended to inside its jitted step
        self.losses.append(loss)  # reported: JNP303
        return params, loss

    def _monitored_step(self, params, x, y):
        params, loss = self._train_step(params, x, y)
        return params, loss, trace_norm(params)

    def _safe_step(self, params, key, x, y, smoothing):
        x = data.standardize_ok(x) * data.padding_weights(x)[:, None]

        def objective(p):
            logits = model.forward_dropout_ok(p, key, x)
            penalty = jnp.mean(model.row_norms_ok(model.preactivation(p, x)))
            return model.cross_entropy(logits, y, smoothing) + 1e-3 * penalty

        loss, grads = jax.value_and_grad(objective)(params)
        trace_norm_ok(params)
        return self._descend(params, grads), metrics.finite_or_zero(loss)
