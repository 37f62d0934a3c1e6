"""Fitting the learned dynamics with Optax: a step factory and a `Trainer`."""
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def make_optimizer(cfg):
    return optax.chain(optax.clip_by_global_norm(1.0), optax.adam(cfg.learning_rate))


def make_loss(static):
    def loss(params, xs, us, xs_next):
        model = eqx.combine(params, static)
        return jnp.mean(jnp.sum((jax.vmap(model)(xs, us) - xs_next) ** 2, axis=-1))

    return loss


def make_train_step(model, optimizer, donate=False):
    """Returns the model's arrays, its static part and a jitted step over the arrays."""
    params, static = eqx.partition(model, eqx.is_array)
    loss = make_loss(static)

    def step(params, opt_state, xs, us, xs_next):
        value, grads = jax.value_and_grad(loss)(params, xs, us, xs_next)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, value

    return params, static, jax.jit(step, donate_argnums=(0, 1) if donate else ())


class Trainer:
    def __init__(self, cfg, model, donate=False):
        self.cfg = cfg
        self.optimizer = make_optimizer(cfg)
        self.params, self.static, self._step = make_train_step(model, self.optimizer, donate)
        self.opt_state = self.optimizer.init(self.params)
        self._valid_loss = jax.jit(make_loss(self.static))
        self.history = []

    @property
    def model(self):
        return eqx.combine(self.params, self.static)

    def update(self, xs, us, xs_next):
        self.params, self.opt_state, loss = self._step(self.params, self.opt_state, xs, us, xs_next)
        return loss

    def fit(self, buffer, rng, n_steps):
        for _ in range(n_steps):
            loss = self.update(*buffer.sample(rng, self.cfg.batch_size))
            # project shape (not a thread): the loss read back after every step
            self.history.append(float(loss))  # reported: JNP102
        return self.model

    def fit_ok(self, buffer, rng, n_steps):
        losses = [self.update(*buffer.sample(rng, self.cfg.batch_size)) for _ in range(n_steps)]
        self.history.extend(jnp.stack(losses).tolist())
        return self.model

    def fit_validated(self, train, valid, rng, n_epochs):
        """Epochs over the training split, scored on the validation split after each."""
        xs, us, xs_next = train
        scores = []
        for _ in range(n_epochs):
            order = rng.permutation(len(xs))
            for start in range(0, len(xs), self.cfg.batch_size):
                index = order[start:start + self.cfg.batch_size]
                self.update(xs[index], us[index], xs_next[index])
            # project shape (not a thread): the NumPy validation split given to the jitted loss each epoch
            score = self._valid_loss(self.params, *valid)  # reported: JNP104
            scores.append(score)
        return self.model, jnp.stack(scores)

    def fit_validated_ok(self, train, valid, rng, n_epochs):
        xs, us, xs_next = train
        valid = jax.device_put(valid)
        scores = []
        for _ in range(n_epochs):
            order = rng.permutation(len(xs))
            for start in range(0, len(xs), self.cfg.batch_size):
                index = order[start:start + self.cfg.batch_size]
                self.update(xs[index], us[index], xs_next[index])
            scores.append(self._valid_loss(self.params, *valid))
        return self.model, jnp.stack(scores)
