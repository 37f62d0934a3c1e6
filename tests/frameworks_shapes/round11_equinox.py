"""Equinox code as users write it (donating filter_jit, eqx.nn.State, scanned cells, contrastive losses), held out (needs equinox and optax)."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


# framework shape (not a thread)
# The eqx.filter_jit step donates its arguments to save memory; the loop then scores the model it
# passed in, whose arrays the step deleted, to compare it with the updated one.
def _step(model, opt_state, x, y):
    optim = optax.sgd(0.1)
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state


_donating_step = eqx.filter_jit(_step, donate="all")


@eqx.filter_jit
def _score(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def _improvements(score_before_step):
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    opt_state = optax.sgd(0.1).init(eqx.filter(model, eqx.is_array))
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 1))
    gains = []
    for _ in range(3):
        if score_before_step:
            before = _score(model, x, y)
            model, opt_state = _donating_step(model, opt_state, x, y)
        else:
            new_model, opt_state = _donating_step(model, opt_state, x, y)
            before = _score(model, x, y)  # reported: JNP605
            model = new_model
        gains.append(before - _score(model, x, y))
    return gains


def case_donated_model_scored_after_step():
    return _improvements(False)


def case_ok_model_scored_before_donating_step():
    return _improvements(True)


# framework shape (not a thread)
# A synthetic regression set is drawn from the key, and the same key is split afterwards to
# initialise the model: the draw and the initialisation share randomness.
def _synthetic_setup(split_first):
    key = jax.random.PRNGKey(0)
    if split_first:
        key, data_key = jax.random.split(key)
        x = jax.random.normal(data_key, (8, 3))
        _, model_key = jax.random.split(key)
    else:
        x = jax.random.normal(key, (8, 3))
        key, model_key = jax.random.split(key)  # reported: JNP606
    model = eqx.nn.MLP(3, 1, 8, 2, key=model_key)
    return jax.vmap(model)(x)


def case_key_drawn_then_split_for_init():
    return _synthetic_setup(False)


def case_ok_key_split_before_draw():
    return _synthetic_setup(True)


# framework shape (not a thread)
# A contrastive loss takes pairwise distances as the square root of squared distances, guarded at
# zero with jnp.where; the diagonal is zero, so eqx.filter_grad gives nan.
class Embedder(eqx.Module):
    linear: eqx.nn.Linear
    guarded: bool

    def distances(self, x):
        z = jax.vmap(self.linear)(x)
        squared = jnp.sum((z[:, None, :] - z[None, :, :]) ** 2, -1)
        if self.guarded:
            safe = jnp.where(squared > 0, squared, 1.0)
            return jnp.where(squared > 0, jnp.sqrt(safe), 0.0)
        return jnp.where(squared > 0, jnp.sqrt(squared), 0.0)  # reported: JNP604


def _contrastive_grads(guarded):
    model = Embedder(eqx.nn.Linear(3, 2, key=jax.random.PRNGKey(0)), guarded)
    x = jnp.arange(12.0).reshape(4, 3)
    grads = eqx.filter_grad(lambda m: jnp.mean(jax.nn.relu(1.0 - m.distances(x))))(model)
    return bool(jnp.isnan(grads.linear.weight).any())


def case_where_guarded_pairwise_distance_under_filter_grad():
    return _contrastive_grads(False)


def case_ok_double_where_pairwise_distance_under_filter_grad():
    return _contrastive_grads(True)


# framework shape (not a thread)
# A running maximum kept in eqx.nn.State for activation calibration; __call__ updates it with
# np.maximum, on the tracers eqx.filter_jit passes.
class Calibrated(eqx.Module):
    linear: eqx.nn.Linear
    peak: eqx.nn.StateIndex
    use_numpy: bool

    def __init__(self, key, use_numpy):
        self.linear = eqx.nn.Linear(3, 3, key=key)
        self.peak = eqx.nn.StateIndex(jnp.zeros(3))
        self.use_numpy = use_numpy

    def __call__(self, x, state):
        h = self.linear(x)
        if self.use_numpy:
            peak = np.maximum(state.get(self.peak), jnp.abs(h))  # reported: JNP201
        else:
            peak = jnp.maximum(state.get(self.peak), jnp.abs(h))
        return h, state.set(self.peak, peak)


def _calibrate(use_numpy):
    model, state = eqx.nn.make_with_state(Calibrated)(jax.random.PRNGKey(0), use_numpy)
    forward = eqx.filter_jit(lambda model, x, state: model(x, state))
    for x in jnp.eye(3):
        _, state = forward(model, x, state)
    return state.get(model.peak)


def case_numpy_maximum_on_state_under_filter_jit():
    return _calibrate(True)


def case_ok_jnp_maximum_on_state_under_filter_jit():
    return _calibrate(False)


# framework shape (not a thread)
# A module checks its activations are finite with an assert in __call__; under eqx.filter_jit the
# assert asks a tracer for its truth value.
class Checked(eqx.Module):
    linear: eqx.nn.Linear
    use_error_if: bool

    def __call__(self, x):
        h = self.linear(x)
        if self.use_error_if:
            return eqx.error_if(h, ~jnp.all(jnp.isfinite(h)), "non-finite activations")
        assert jnp.all(jnp.isfinite(h)), "non-finite activations"  # reported: JNP202
        return h


def _checked(use_error_if):
    model = Checked(eqx.nn.Linear(3, 2, key=jax.random.PRNGKey(0)), use_error_if)
    return eqx.filter_jit(lambda model, x: jax.vmap(model)(x))(model, jnp.ones((4, 3)))


def case_assert_finite_in_call_under_filter_jit():
    return _checked(False)


def case_ok_error_if_finite_in_call_under_filter_jit():
    return _checked(True)


# framework shape (not a thread)
# A multi-task loss averages its task losses, kept in a Python list, with jnp.mean, which takes
# arrays only.
class TwoHeads(eqx.Module):
    trunk: eqx.nn.Linear
    heads: list

    def __init__(self, key):
        trunk_key, *head_keys = jax.random.split(key, 3)
        self.trunk = eqx.nn.Linear(3, 4, key=trunk_key)
        self.heads = [eqx.nn.Linear(4, 1, key=k) for k in head_keys]

    def __call__(self, x):
        h = jax.nn.relu(self.trunk(x))
        return [head(h) for head in self.heads]


def _multitask_grads(stacked):
    model = TwoHeads(jax.random.PRNGKey(0))
    x, targets = jnp.ones((4, 3)), [jnp.zeros((4, 1)), jnp.ones((4, 1))]

    def loss(model):
        outputs = jax.vmap(model)(x)
        losses = [jnp.mean((out - target) ** 2) for out, target in zip(outputs, targets)]
        if stacked:
            return jnp.mean(jnp.stack(losses))
        return jnp.mean(losses)  # reported: JNP505

    return eqx.filter_grad(loss)(model)


def case_mean_of_list_of_task_losses():
    return _multitask_grads(False)


def case_ok_mean_of_stacked_task_losses():
    return _multitask_grads(True)


# framework shape (not a thread)
# A curriculum lengthens the training sequences by one every step; the eqx.filter_jit step sees a
# new input shape each time, so it compiles again on every iteration.
@eqx.filter_jit
def _sequence_loss(model, xs):
    return jnp.mean(jax.vmap(model)(xs) ** 2)


def case_sequence_lengthened_every_step():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    data = jnp.ones((16, 3))
    losses = []
    for length in range(2, 10):
        losses.append(_sequence_loss(model, data[:length]))  # reported: JNP602
    return losses


def case_ok_sequence_padded_to_fixed_length():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    data = jnp.ones((16, 3))
    losses = []
    for length in range(2, 10):
        losses.append(_sequence_loss(model, jnp.where(jnp.arange(16)[:, None] < length, data, 0.0)))
    return losses


# framework shape (not a thread)
# An Elman cell run over a sequence with jax.lax.scan in __call__; the scanned step collects the
# hidden states in a Python list it shares with __call__, which stacks them after the scan.
class Elman(eqx.Module):
    cell: eqx.nn.Linear
    collect_in_list: bool

    def __call__(self, xs):
        hiddens = []

        def step(h, x):
            h = jnp.tanh(self.cell(jnp.concatenate([h, x])))
            if self.collect_in_list:
                hiddens.append(h)  # reported: JNP303
            return h, h

        _, scanned = jax.lax.scan(step, jnp.zeros(2), xs)
        if self.collect_in_list:
            return jnp.stack(hiddens)
        return scanned


def _hidden_states(collect_in_list):
    model = Elman(eqx.nn.Linear(5, 2, key=jax.random.PRNGKey(0)), collect_in_list)
    return model(jnp.ones((4, 3)))


def case_scanned_hidden_states_collected_in_list():
    return _hidden_states(True)


def case_ok_scanned_hidden_states_returned_by_scan():
    return _hidden_states(False)
