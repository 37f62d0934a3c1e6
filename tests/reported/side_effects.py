"""Python side effects and state inside traced code (JNP302, JNP303, JNP304, JNP305)."""
import jax
import jax.numpy as jnp
import numpy as np

# https://github.com/jax-ml/jax/issues/1348
# A global counter incremented inside jit counts once, at trace time.
counter = 0


@jax.jit
def _tick(x):
    global counter
    counter = counter + 1  # reported: JNP302
    return x + counter  # reported: JNP304


def case_global_counter_in_jit():
    for _ in range(3):
        _tick(jnp.float32(0))


@jax.jit
def _tick_fixed(x, count):
    return x + count + 1, count + 1


def case_ok_counter_returned():
    count = jnp.float32(0)
    for _ in range(3):
        _, count = _tick_fixed(jnp.float32(0), count)


# https://github.com/jax-ml/jax/pull/4312
# A global PRNG key split inside a jitted initialiser: the jitted calls repeat their randomness.
key = jax.random.PRNGKey(0)


def _init():
    global key
    key, subkey = jax.random.split(key)  # reported: JNP302
    return jax.random.normal(subkey, ())


def case_global_key_split_in_jit():
    init = jax.jit(_init)
    init()
    init()


def _init_fixed(k):
    k, subkey = jax.random.split(k)
    return k, jax.random.normal(subkey, ())


def case_ok_key_threaded_through():
    init = jax.jit(_init_fixed)
    k = jax.random.PRNGKey(0)
    k, _ = init(k)
    init(k)


# https://github.com/jax-ml/jax/issues/3086
# A traced value stored in a global leaks the tracer.
last_input = None


@jax.jit
def _remember(y):
    global last_input
    last_input = y  # reported: JNP302
    return y + 2


def case_tracer_stored_in_global():
    _remember(7)
    _remember(8)


@jax.jit
def _plus_two(y):
    return y + 2


def case_ok_value_returned():
    global last_input
    last_input = _plus_two(7)
    last_input = _plus_two(8)


# https://github.com/jcmgray/autoray/issues/27
# A library keeps its key on an object and advances it inside the jitted sampler:
# the compiled sampler replays the first draw.
class KeyHolder:
    def __init__(self):
        self.key = jax.random.PRNGKey(0)


HOLDER = KeyHolder()


@jax.jit
def _sample():
    HOLDER.key, subkey = jax.random.split(HOLDER.key)  # reported: JNP303
    return jax.random.normal(subkey)


def case_key_on_object_advanced_in_jit():
    _sample()
    _sample()


@jax.jit
def _sample_fixed(k):
    k, subkey = jax.random.split(k)
    return k, jax.random.normal(subkey)


def case_ok_key_passed_in():
    k = jax.random.PRNGKey(0)
    k, _ = _sample_fixed(k)
    _sample_fixed(k)


# https://github.com/jax-ml/jax/pull/13022
# A closure over the traced value stored in a dict that outlives vmap. vmap does not cache its trace, so the
# runtime mode's trace counts cannot see it; calling the stored closure afterwards returns a leaked BatchTracer.
class Sketch:
    def __init__(self):
        self.table = {}


SKETCH = Sketch()


def _sketch(x):
    SKETCH.table["hi"] = [lambda: x]  # reported: JNP303
    return x


def case_tracer_kept_in_dict_under_vmap():
    jax.vmap(_sketch)(jnp.arange(3))


def _sketch_fixed(x):
    return x, x * 2


def case_ok_values_returned_from_vmap():
    SKETCH.table["hi"] = jax.vmap(_sketch_fixed)(jnp.arange(3))


# https://github.com/jax-ml/jax/issues/28225
# A global function rebound after the jitted wrapper was traced: the compiled code keeps the old one.
def mock_fn(x):
    return x


def _apply_mock(x):
    return jax.vmap(mock_fn)(x)  # reported: JNP304


def _identity(x):
    return x


def _negate(x):
    return -x


def case_global_function_rebound_after_trace():
    global mock_fn
    applied = jax.jit(_apply_mock)
    applied(jnp.array([1, 1]))
    mock_fn = _negate
    applied(jnp.array([1, 1]))
    mock_fn = _identity


def _apply_given(fn, x):
    return jax.vmap(fn)(x)


def case_ok_function_passed_static():
    applied = jax.jit(_apply_given, static_argnums=0)
    applied(_identity, jnp.array([1, 1]))
    applied(_negate, jnp.array([1, 1]))


# https://github.com/jax-ml/jax/issues/1426
# A closed-over scale changed after jit(grad(...)) was traced: both calls give the gradient for a = 10.
def case_closure_changed_after_trace():
    a = 10

    def loss_sum(val):
        return jnp.sum(val[:2] ** 2 + val[2:] ** 3) * a  # reported: JNP304

    grad = jax.jit(jax.grad(loss_sum))
    grad(jnp.array([2.0, 3.0, 4.0, 5.0]))
    a = 20
    grad(jnp.array([2.0, 3.0, 4.0, 5.0]))


def case_ok_scale_passed_as_argument():
    def loss_sum(val, a):
        return jnp.sum(val[:2] ** 2 + val[2:] ** 3) * a

    grad = jax.jit(jax.grad(loss_sum))
    grad(jnp.array([2.0, 3.0, 4.0, 5.0]), 10.0)
    grad(jnp.array([2.0, 3.0, 4.0, 5.0]), 20.0)


# https://github.com/jax-ml/jax/pull/2793 (review: np.random breaks jit invariance)
# NumPy's global generator inside jit: the noise is drawn once and baked into the compiled code.
@jax.jit
def _noisy(x):
    return x + np.random.randn(3)  # reported: JNP305


def case_numpy_random_in_jit():
    _noisy(jnp.zeros(3))
    _noisy(jnp.zeros(3))


@jax.jit
def _noisy_fixed(x, k):
    return x + jax.random.normal(k, (3,))


def case_ok_jax_random_with_key():
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    _noisy_fixed(jnp.zeros(3), k1)
    _noisy_fixed(jnp.zeros(3), k2)


# https://github.com/google/torchax/issues/17
# The key's seed drawn from the host generator at trace time: every call masks the same units.
@jax.jit
def _dropout_mask(x):
    seed = np.random.randint(1 << 30)  # reported: JNP305
    return x * jax.random.bernoulli(jax.random.PRNGKey(seed), 0.5, x.shape)


def case_clock_seed_in_jit():
    _dropout_mask(jnp.ones(4))
    _dropout_mask(jnp.ones(4))


@jax.jit
def _dropout_mask_fixed(x, k):
    return x * jax.random.bernoulli(k, 0.5, x.shape)


def case_ok_seed_as_key_argument():
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    _dropout_mask_fixed(jnp.ones(4), k1)
    _dropout_mask_fixed(jnp.ones(4), k2)
