"""Flax Linen, train_state and Optax code as users write it, held out (needs flax and optax to run)."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


# framework shape (not a thread)
# A plain activation function listed among the layers of nn.Sequential; the model is applied by a
# jax.jit of its apply, and the activation is NumPy's.
def _np_softsign(x):
    return x / (1.0 + np.abs(x))  # reported: JNP201


def _jnp_softsign(x):
    return x / (1.0 + jnp.abs(x))


def _sequential_jitted(layers):
    model = nn.Sequential(layers)
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    return jax.jit(model.apply)(variables, x)


def case_numpy_function_in_sequential_layers():
    return _sequential_jitted([nn.Dense(4), _np_softsign, nn.Dense(2)])


def case_ok_jnp_function_in_sequential_layers():
    return _sequential_jitted([nn.Dense(4), _jnp_softsign, nn.Dense(2)])


# framework shape (not a thread)
# A call counter kept in a mutable "counters" collection with self.variable; __call__ warms up with
# a Python if on the counter, and the model is applied with mutable=["counters"] in a jitted step.
class Warmup(nn.Module):
    python_if: bool = True

    @nn.compact
    def __call__(self, x):
        calls = self.variable("counters", "calls", lambda: jnp.zeros((), jnp.int32))
        calls.value += 1
        y = nn.Dense(2)(x)
        if self.python_if:
            if calls.value < 3:  # reported: JNP202
                return y * 0.1
            return y
        return jnp.where(calls.value < 3, y * 0.1, y)


def _warmup_steps(model):
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.PRNGKey(0), x)
    step = jax.jit(lambda v, x: model.apply(v, x, mutable=["counters"]))
    outs = []
    for _ in range(4):
        y, counters = step(variables, x)
        variables = {**variables, **counters}
        outs.append(y)
    return outs


def case_python_if_on_mutable_counter():
    return _warmup_steps(Warmup())


def case_ok_where_on_mutable_counter():
    return _warmup_steps(Warmup(python_if=False))


# framework shape (not a thread)
# A jitted helper applies the model with the method it is given as a parameter; the caller hands
# it the decoder method, which squashes with NumPy.
class AutoCoder(nn.Module):
    def setup(self):
        self.enc = nn.Dense(2)
        self.dec = nn.Dense(3)

    def __call__(self, x):
        return self.dec(self.enc(x))

    def decode(self, z):
        return np.tanh(self.dec(z))  # reported: JNP201

    def decode_jnp(self, z):
        return jnp.tanh(self.dec(z))


def _apply_method(model, variables, x, method):
    return jax.jit(lambda v, x: model.apply(v, x, method=method))(variables, x)


def case_numpy_in_method_given_to_jitted_helper():
    model = AutoCoder()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))
    return _apply_method(model, variables, jnp.ones((1, 2)), AutoCoder.decode)


def case_ok_jnp_in_method_given_to_jitted_helper():
    model = AutoCoder()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))
    return _apply_method(model, variables, jnp.ones((1, 2)), AutoCoder.decode_jnp)


# framework shape (not a thread)
# An encoder and a decoder returned together by a factory are initialised with one key: their
# first Dense layers have the same shape, so they start with the same kernel.
class Half(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


def _make_pair():
    return Half(), Half()


def case_same_key_initialises_two_modules():
    encoder, decoder = _make_pair()
    key = jax.random.PRNGKey(0)
    enc_vars = encoder.init(key, jnp.ones((1, 3)))
    dec_vars = decoder.init(key, jnp.ones((1, 3)))  # reported: JNP601
    return enc_vars, dec_vars


def case_ok_split_key_initialises_two_modules():
    encoder, decoder = _make_pair()
    enc_key, dec_key = jax.random.split(jax.random.PRNGKey(0))
    enc_vars = encoder.init(enc_key, jnp.ones((1, 3)))
    dec_vars = decoder.init(dec_key, jnp.ones((1, 3)))
    return enc_vars, dec_vars


# framework shape (not a thread)
# Eager chunked inference with jax.lax.map over the batches; the model's __call__ logs the batch it
# is given with print, which runs once, while lax.map traces it.
class Logged(nn.Module):
    @nn.compact
    def __call__(self, x):
        print("batch", x)  # reported: JNP301
        return nn.Dense(2)(x)


class DebugLogged(nn.Module):
    @nn.compact
    def __call__(self, x):
        jax.debug.print("batch {x}", x=x)
        return nn.Dense(2)(x)


def _chunked(model):
    batches = jnp.ones((3, 4, 3))
    variables = model.init(jax.random.PRNGKey(0), batches[0])
    return jax.lax.map(lambda xb: model.apply(variables, xb), batches)


def case_print_in_call_under_lax_map():
    return _chunked(Logged())


def case_ok_debug_print_in_call_under_lax_map():
    return _chunked(DebugLogged())


# framework shape (not a thread)
# Eager evaluation that wraps the model's apply in jax.jit inside the loop over batches: the bound
# method is a new object every time, so every batch traces and compiles again.
class Head(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)


def case_jit_of_apply_every_batch():
    model = Head()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)))
    outs = []
    for i in range(5):
        outs.append(jax.jit(model.apply)(variables, jnp.full((4, 3), float(i))))  # reported: JNP602
    return outs


def case_ok_jit_of_apply_once():
    model = Head()
    variables = model.init(jax.random.PRNGKey(0), jnp.ones((4, 3)))
    apply = jax.jit(model.apply)
    outs = []
    for i in range(5):
        outs.append(apply(variables, jnp.full((4, 3), float(i))))
    return outs
