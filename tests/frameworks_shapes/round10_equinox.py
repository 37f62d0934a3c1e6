"""Equinox code as users write it (filter_vmap ensembles, partition/combine, tree_at), held out (needs equinox and optax)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# An ensemble made by eqx.filter_vmap over a factory of keys and run by eqx.filter_vmap: each
# member clips its negative outputs with np.where, on the tracer the vmap passes.
class Member(eqx.Module):
    linear: eqx.nn.Linear
    use_numpy: bool

    def __call__(self, x):
        h = self.linear(x)
        if self.use_numpy:
            return np.where(h > 0, h, 0.01 * h)  # reported: JNP201
        return jnp.where(h > 0, h, 0.01 * h)


def _ensemble_outputs(use_numpy):
    def make(key):
        return Member(eqx.nn.Linear(3, 2, key=key), use_numpy)

    ensemble = eqx.filter_vmap(make)(jax.random.split(jax.random.PRNGKey(0), 4))
    return eqx.filter_vmap(lambda member, x: member(x), in_axes=(eqx.if_array(0), None))(ensemble, jnp.ones(3))


def case_numpy_where_in_vmapped_ensemble():
    return _ensemble_outputs(True)


def case_ok_jnp_where_in_vmapped_ensemble():
    return _ensemble_outputs(False)


# framework shape (not a thread)
# The model is split with eqx.partition; a jax.jit loss combines it back and adds a weight
# penalty computed by a helper that receives the model and returns a Python float.
def _weight_penalty(model):
    return float(jnp.sum(model.weight ** 2))  # reported: JNP202


def _weight_penalty_array(model):
    return jnp.sum(model.weight ** 2)


def _penalised_grads(penalty):
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    params, static = eqx.partition(model, eqx.is_array)

    @jax.jit
    def loss(params, x, y):
        model = eqx.combine(params, static)
        return jnp.mean((jax.vmap(model)(x) - y) ** 2) + 1e-3 * penalty(model)

    return jax.grad(loss)(params, jnp.ones((4, 3)), jnp.zeros((4, 1)))


def case_float_penalty_after_combine():
    return _penalised_grads(_weight_penalty)


def case_ok_array_penalty_after_combine():
    return _penalised_grads(_weight_penalty_array)


# framework shape (not a thread)
# A softmax temperature kept as a Python float field is annealed every epoch with eqx.tree_at;
# eqx.filter_jit treats a non-array leaf as static, so each new temperature compiles the step.
class Tempered(eqx.Module):
    linear: eqx.nn.Linear
    temperature: float

    def __call__(self, x):
        return jax.nn.softmax(self.linear(x) / self.temperature)


@eqx.filter_jit
def _tempered_loss(model, x):
    return -jnp.log(jax.vmap(model)(x)[:, 0]).mean()


def case_float_temperature_annealed_with_tree_at():
    model = Tempered(eqx.nn.Linear(3, 2, key=jax.random.PRNGKey(0)), 1.0)
    losses = []
    for epoch in range(8):
        model = eqx.tree_at(lambda m: m.temperature, model, 1.0 / (epoch + 1))
        losses.append(_tempered_loss(model, jnp.ones((4, 3))))  # reported: JNP602
    return losses


def case_ok_array_temperature_annealed_with_tree_at():
    model = Tempered(eqx.nn.Linear(3, 2, key=jax.random.PRNGKey(0)), jnp.asarray(1.0))
    losses = []
    for epoch in range(8):
        model = eqx.tree_at(lambda m: m.temperature, model, jnp.asarray(1.0 / (epoch + 1)))
        losses.append(_tempered_loss(model, jnp.ones((4, 3))))
    return losses


# framework shape (not a thread)
# A residual tower keeps its blocks in a list built by a comprehension that gives every block
# the same key, so all the blocks start with the same weights.
class Tower(eqx.Module):
    blocks: list

    def __init__(self, key, split):
        if split:
            self.blocks = [eqx.nn.Linear(3, 3, key=k) for k in jax.random.split(key, 3)]
        else:
            self.blocks = [eqx.nn.Linear(3, 3, key=key) for _ in range(3)]  # reported: JNP601

    def __call__(self, x):
        for block in self.blocks:
            x = x + jax.nn.relu(block(x))
        return x


def _tower_blocks_equal(split):
    tower = Tower(jax.random.PRNGKey(0), split)
    return bool(jnp.array_equal(tower.blocks[0].weight, tower.blocks[1].weight))


def case_same_key_for_every_block():
    return _tower_blocks_equal(False)


def case_ok_split_key_per_block():
    return _tower_blocks_equal(True)


# framework shape (not a thread)
# A module-level learning rate read by the eqx.filter_jit step and halved by a step-decay
# schedule between epochs; the compiled step keeps the rate it saw first.
LEARNING_RATE = 0.1


@eqx.filter_jit
def _sgd_step(model, x, y):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    return jax.tree_util.tree_map(lambda p, g: p - LEARNING_RATE * g, model, grads)  # reported: JNP304


@eqx.filter_jit
def _sgd_step_with(model, x, y, learning_rate):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    return jax.tree_util.tree_map(lambda p, g: p - learning_rate * g, model, grads)


def case_global_rate_decayed_between_epochs():
    global LEARNING_RATE
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    for _ in range(3):
        model = _sgd_step(model, jnp.ones((4, 3)), jnp.zeros((4, 1)))
        LEARNING_RATE = LEARNING_RATE * 0.5
    return model.bias


def case_ok_rate_passed_to_step():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    learning_rate = 0.1
    for _ in range(3):
        model = _sgd_step_with(model, jnp.ones((4, 3)), jnp.zeros((4, 1)), learning_rate)
        learning_rate = learning_rate * 0.5
    return model.bias


# framework shape (not a thread)
# A sparse attention module picks the keys above a threshold in a method called from __call__,
# with the one-argument jnp.where, whose result's length depends on the scores.
class SparseAttention(eqx.Module):
    query: eqx.nn.Linear
    fixed_size: bool

    def selected(self, scores):
        if self.fixed_size:
            return jnp.where(scores > 0.0, size=scores.shape[0], fill_value=0)[0]
        return jnp.where(scores > 0.0)[0]  # reported: JNP203

    def __call__(self, keys, x):
        scores = keys @ self.query(x)
        return keys[self.selected(scores)].sum(0)


def _attend(fixed_size):
    model = SparseAttention(eqx.nn.Linear(3, 3, key=jax.random.PRNGKey(0)), fixed_size)
    return eqx.filter_jit(lambda model, keys, x: model(keys, x))(model, jnp.eye(3), jnp.ones(3))


def case_one_argument_where_in_attention_method():
    return _attend(False)


def case_ok_sized_where_in_attention_method():
    return _attend(True)


# framework shape (not a thread)
# Magnitude pruning of a trained Equinox layer: the small weights are zeroed by assigning into
# the layer's weight array, as one would in NumPy.
def _pruned_layer(functional):
    model = eqx.nn.Linear(3, 3, key=jax.random.PRNGKey(0))
    optim = optax.sgd(0.1)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    grads = eqx.filter_grad(lambda m: jnp.sum(jax.vmap(m)(jnp.ones((2, 3))) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    small = jnp.abs(model.weight) < 0.2
    if functional:
        return eqx.tree_at(lambda m: m.weight, model, jnp.where(small, 0.0, model.weight))
    model.weight[small] = 0.0  # reported: JNP501
    return model


def case_weight_pruned_in_place():
    return _pruned_layer(False)


def case_ok_weight_pruned_with_tree_at():
    return _pruned_layer(True)
