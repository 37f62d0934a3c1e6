"""Flax Linen and Optax code as users write it (needs flax and optax to run)."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


# framework shape (not a thread)
# A Module three subclasses deep: the framework's contract still traces its __call__.
class Base(nn.Module):
    features: int = 4


class Middle(Base):
    pass


class Leaf(Middle):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(self.features)(x)
        return x * np.asarray(x).std()  # reported: JNP201


class LeafJnp(Middle):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(self.features)(x)
        return x * jnp.std(x)


def case_numpy_in_subclass_of_subclass():
    model = Leaf()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(params, jnp.ones((2, 3)))


def case_ok_jnp_in_subclass_of_subclass():
    model = LeafJnp()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(params, jnp.ones((2, 3)))


# framework shape (not a thread)
# A helper method that __call__ calls: a Python float of a tracer.
class Normalised(nn.Module):
    def scale(self, x):
        return x / float(jnp.abs(x).max())  # reported: JNP202

    @nn.compact
    def __call__(self, x):
        return self.scale(nn.Dense(4)(x))


class NormalisedJnp(nn.Module):
    def scale(self, x):
        return x / jnp.abs(x).max()

    @nn.compact
    def __call__(self, x):
        return self.scale(nn.Dense(4)(x))


def case_float_in_method_called_from_call():
    model = Normalised()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(params, jnp.ones((2, 3)))


def case_ok_jnp_in_method_called_from_call():
    model = NormalisedJnp()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(params, jnp.ones((2, 3)))


# framework shape (not a thread)
# A TrainState holding model.apply; the jitted step applies it and squares the logits with NumPy.
class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(nn.relu(nn.Dense(8)(x)))


def _state():
    model = Classifier()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(1e-3))


@jax.jit
def _numpy_step(state, x, y):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, x)
        return np.square(logits - y).mean()  # reported: JNP201
    grads = jax.grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads)


@jax.jit
def _jnp_step(state, x, y):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, x)
        return jnp.mean((logits - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def case_numpy_mean_of_apply_fn_logits():
    return _numpy_step(_state(), jnp.ones((2, 4)), jnp.zeros((2, 3)))


def case_ok_jnp_mean_of_apply_fn_logits():
    return _jnp_step(_state(), jnp.ones((2, 4)), jnp.zeros((2, 3)))


# framework shape (not a thread)
# The TrainState loop pulls the loss to the host with float() on every step.
def case_float_loss_every_train_state_step():
    state = _state()
    history = []
    for _ in range(20):
        state, loss = _jnp_step(state, jnp.ones((2, 4)), jnp.zeros((2, 3)))
        history.append(float(loss))  # reported: JNP102
    return history


def case_ok_losses_stacked_after_the_loop():
    state = _state()
    history = []
    for _ in range(20):
        state, loss = _jnp_step(state, jnp.ones((2, 4)), jnp.zeros((2, 3)))
        history.append(loss)
    return jnp.stack(history).tolist()


# framework shape (not a thread)
# A Python if on the batch statistics inside @nn.compact with a submodule.
class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.LayerNorm()(nn.Dense(4)(x))


class Gate(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = Block()(x)
        if h.mean() > 0:  # reported: JNP202
            h = h * 2
        return h


class GateWhere(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = Block()(x)
        return jnp.where(h.mean() > 0, h * 2, h)


def case_python_if_on_submodule_output():
    model = Gate()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(params, jnp.ones((2, 3)))


def case_ok_where_on_submodule_output():
    model = GateWhere()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(params, jnp.ones((2, 3)))


# framework shape (not a thread)
# A module passed to a helper that jits its apply with the module as a plain jax.jit argument.
def _apply(model, params, x):
    return model.apply(params, x)


def _run_through_helper(model, x):
    params = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(_apply)(model, params, x)  # reported: JNP205


def case_module_through_helper_into_jit():
    return _run_through_helper(Block(), jnp.ones((2, 3)))


def _run_static(model, x):
    params = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(_apply, static_argnums=0)(model, params, x)


def case_ok_module_static_through_helper():
    return _run_static(Block(), jnp.ones((2, 3)))


# framework shape (not a thread)
# lax.scan over a module's apply: a print in the scanned body runs at trace time only.
def _scan_apply(params, xs):
    model = Block()

    def body(carry, x):
        y = model.apply(params, x)
        print("step output", y)  # reported: JNP301
        return carry + y.sum(), y
    return jax.lax.scan(body, 0.0, xs)


def _scan_apply_debug(params, xs):
    model = Block()

    def body(carry, x):
        y = model.apply(params, x)
        jax.debug.print("step output {}", y)
        return carry + y.sum(), y
    return jax.lax.scan(body, 0.0, xs)


def case_print_in_scan_over_apply():
    params = Block().init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return _scan_apply(params, jnp.ones((5, 2, 3)))


def case_ok_debug_print_in_scan_over_apply():
    params = Block().init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return _scan_apply_debug(params, jnp.ones((5, 2, 3)))


# framework shape (not a thread)
# A non-__call__ method applied with method=: NumPy on its tracer.
class AutoEncoder(nn.Module):
    def setup(self):
        self.enc = nn.Dense(2)
        self.dec = nn.Dense(3)

    def encode(self, x):
        return np.tanh(self.enc(x))  # reported: JNP201

    def __call__(self, x):
        return self.dec(jnp.tanh(self.enc(x)))


def case_numpy_in_applied_method():
    model = AutoEncoder()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    encode = jax.jit(lambda p, x: model.apply(p, x, method=AutoEncoder.encode))
    return encode(params, jnp.ones((2, 3)))


def case_ok_call_applied():
    model = AutoEncoder()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    return jax.jit(model.apply)(params, jnp.ones((2, 3)))


# framework shape (not a thread)
# The same dropout key given to model.apply on every step of an eager loop: the same mask each step.
class Dropped(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        return nn.Dropout(0.5, deterministic=not train)(nn.Dense(4)(x))


def case_dropout_key_reused_in_loop():
    model = Dropped()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)), train=False)
    key = jax.random.PRNGKey(1)
    outs = []
    for _ in range(5):
        outs.append(model.apply(params, jnp.ones((2, 3)), rngs={"dropout": key}))  # reported: JNP601
    return outs


def case_ok_dropout_key_split_in_loop():
    model = Dropped()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((2, 3)), train=False)
    key = jax.random.PRNGKey(1)
    outs = []
    for _ in range(5):
        key, sub = jax.random.split(key)
        outs.append(model.apply(params, jnp.ones((2, 3)), rngs={"dropout": sub}))
    return outs
