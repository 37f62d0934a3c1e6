"""Equinox and Optax code as users write it, held out (needs equinox and optax to run)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# A token model mapped over a batch with a plain jax.vmap of the Module itself (it is a pytree);
# __call__ looks its token up with int().
class TokenScorer(eqx.Module):
    embedding: eqx.nn.Embedding

    def __init__(self, key):
        self.embedding = eqx.nn.Embedding(10, 4, key=key)

    def __call__(self, token):
        return self.embedding.weight[int(token)].sum()  # reported: JNP202


class TokenScorerIndexed(TokenScorer):
    def __call__(self, token):
        return self.embedding(token).sum()


def case_int_of_token_under_vmap_of_module():
    return jax.vmap(TokenScorer(jax.random.PRNGKey(0)))(jnp.arange(3))


def case_ok_traced_index_under_vmap_of_module():
    return jax.vmap(TokenScorerIndexed(jax.random.PRNGKey(0)))(jnp.arange(3))


# framework shape (not a thread)
# A @staticmethod activation of the Module called as self.activation from __call__, which
# eqx.filter_jit traces; the activation is NumPy's.
class Gated(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 3, key=key)

    @staticmethod
    def activation(h):
        return h * np.tanh(h)  # reported: JNP201

    def __call__(self, x):
        return self.activation(self.linear(x))


class GatedJnp(Gated):
    @staticmethod
    def activation(h):
        return h * jnp.tanh(h)


@eqx.filter_jit
def _gate(model, x):
    return model(x)


def case_numpy_in_staticmethod_called_through_self():
    return _gate(Gated(jax.random.PRNGKey(0)), jnp.ones(3))


def case_ok_jnp_in_staticmethod_called_through_self():
    return _gate(GatedJnp(jax.random.PRNGKey(0)), jnp.ones(3))


# framework shape (not a thread)
# A method of the Module decorated with @eqx.filter_jit; it tests its logits with a Python if.
class Clipper(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 2, key=key)

    @eqx.filter_jit
    def logits(self, x):
        out = self.linear(x)
        if out.max() > 5.0:  # reported: JNP202
            out = out / out.max()
        return out

    @eqx.filter_jit
    def logits_where(self, x):
        out = self.linear(x)
        return jnp.where(out.max() > 5.0, out / out.max(), out)


def case_python_if_in_filter_jit_method():
    return Clipper(jax.random.PRNGKey(0)).logits(jnp.ones(3))


def case_ok_where_in_filter_jit_method():
    return Clipper(jax.random.PRNGKey(0)).logits_where(jnp.ones(3))


# framework shape (not a thread)
# A GRU run over a sequence with lax.scan in __call__; the scanned closure concatenates the hidden
# states with NumPy.
class Encoder(eqx.Module):
    cell: eqx.nn.GRUCell
    numpy_concat: bool = eqx.field(static=True, default=True)

    def __init__(self, key, numpy_concat=True):
        self.cell = eqx.nn.GRUCell(2, 3, key=key)
        self.numpy_concat = numpy_concat

    def __call__(self, xs):
        def step(h, x):
            h = self.cell(x, h)
            if self.numpy_concat:
                return h, np.concatenate([h, x])  # reported: JNP201
            return h, jnp.concatenate([h, x])
        _, outs = jax.lax.scan(step, jnp.zeros(3), xs)
        return outs


@eqx.filter_jit
def _encode(model, xs):
    return model(xs)


def case_numpy_concatenate_in_scanned_closure():
    return _encode(Encoder(jax.random.PRNGKey(0)), jnp.ones((4, 2)))


def case_ok_jnp_concatenate_in_scanned_closure():
    return _encode(Encoder(jax.random.PRNGKey(0), numpy_concat=False), jnp.ones((4, 2)))


# framework shape (not a thread)
# A dropout model in an eqx.filter_jit step with an optax.adamw chain; the step splits the key it is
# given into one key per example, but the host loop gives it the same key every step.
class Noisy(eqx.Module):
    mlp: eqx.nn.MLP
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.mlp = eqx.nn.MLP(3, 1, 8, 1, key=key)
        self.dropout = eqx.nn.Dropout(0.3)

    def __call__(self, x, key):
        return self.mlp(self.dropout(x, key=key))


OPTIM = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(1e-3))


@eqx.filter_jit
def _noisy_step(model, opt_state, x, y, key):
    def loss_fn(model):
        keys = jax.random.split(key, x.shape[0])
        return jnp.mean((eqx.filter_vmap(model)(x, keys) - y) ** 2)
    grads = eqx.filter_grad(loss_fn)(model)
    updates, opt_state = OPTIM.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


def case_same_key_every_filter_jit_step():
    model = Noisy(jax.random.PRNGKey(0))
    opt_state = OPTIM.init(eqx.filter(model, eqx.is_array))
    train_key = jax.random.PRNGKey(1)
    for _ in range(5):
        model, opt_state = _noisy_step(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)), train_key)  # reported: JNP601
    return model


def case_ok_split_key_every_filter_jit_step():
    model = Noisy(jax.random.PRNGKey(0))
    opt_state = OPTIM.init(eqx.filter(model, eqx.is_array))
    train_key = jax.random.PRNGKey(1)
    for _ in range(5):
        train_key, step_key = jax.random.split(train_key)
        model, opt_state = _noisy_step(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)), step_key)
    return model


# framework shape (not a thread)
# The epoch number is given to the eqx.filter_jit step as a Python int (for a warm-up factor):
# filter_jit keeps non-array arguments static, so every epoch compiles the step again.
class Affine(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 1, key=key)

    def __call__(self, x):
        return self.linear(x)


@eqx.filter_jit
def _warm_step(model, x, y, epoch):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    scale = jnp.minimum(1.0, (epoch + 1) / 3.0)
    return eqx.apply_updates(model, jax.tree_util.tree_map(lambda g: -0.1 * scale * g, grads))


def case_python_epoch_to_filter_jit_step():
    model = Affine(jax.random.PRNGKey(0))
    for epoch in range(4):
        model = _warm_step(model, jnp.ones((4, 3)), jnp.zeros((4, 1)), epoch)  # reported: JNP602
    return model


def case_ok_array_epoch_to_filter_jit_step():
    model = Affine(jax.random.PRNGKey(0))
    for epoch in range(4):
        model = _warm_step(model, jnp.ones((4, 3)), jnp.zeros((4, 1)), jnp.asarray(epoch))
    return model
