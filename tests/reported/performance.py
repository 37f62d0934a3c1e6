"""Host transfers, recompilation and timing in loops (JNP101, JNP102, JNP104, JNP301, JNP306, JNP602, JNP603)."""
import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


# https://github.com/jax-ml/jax/issues/196
# print inside a jitted update prints a tracer, once.
@jax.jit
def _update(params, grads):
    new = params - 0.1 * grads
    print(new)  # reported: JNP301
    return new


def case_print_in_jitted_update():
    params = jnp.ones(3)
    for _ in range(20):
        params = _update(params, jnp.ones(3))


@jax.jit
def _update_debug(params, grads):
    new = params - 0.1 * grads
    jax.debug.print("{}", new)
    return new


def case_ok_debug_print_in_jitted_update():
    params = jnp.ones(3)
    for _ in range(20):
        params = _update_debug(params, jnp.ones(3))


# https://github.com/jax-ml/jax/issues/390
# Plotting a device array element by element: one device-to-host copy per element.
def case_elementwise_conversion_for_plotting():
    x = jnp.linspace(0.0, 1.0, 1000)
    return [float(x[i]) for i in range(1000)]  # reported: JNP102


def case_ok_one_copy_then_numpy_indexing():
    x = np.asarray(jnp.linspace(0.0, 1.0, 1000))
    return [float(x[i]) for i in range(1000)]


# https://github.com/huggingface/transformers/issues/18289 (comment: batches forced to NumPy;
# the metrics of each step are pulled to the host inside the loop)
@jax.jit
def _train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    return w - 0.01 * jax.grad(lambda v: jnp.mean((x @ v) ** 2))(w), loss


def case_loss_history_to_numpy_every_step():
    w = jnp.ones(4)
    history = []
    for _ in range(100):
        w, loss = _train_step(w, jnp.ones((8, 4)))
        history.append(np.asarray(loss))  # reported: JNP101
    return history


def case_ok_loss_history_stacked_after_loop():
    w = jnp.ones(4)
    history = []
    for _ in range(100):
        w, loss = _train_step(w, jnp.ones((8, 4)))
        history.append(loss)
    return np.asarray(jnp.stack(history))


# https://github.com/PlasmaControl/DESC/pull/1051
# NumPy matrices kept on the host and passed to a jitted projection on every iteration.
_AINV = np.eye(6, dtype=np.float32)
_Z = np.ones((6, 3), dtype=np.float32)


@jax.jit
def _project(x, ainv, z):
    return z.T @ (ainv @ x)


def case_numpy_matrices_uploaded_every_iteration():
    x = jnp.ones(6)
    for _ in range(100):
        y = _project(x, _AINV, _Z)  # reported: JNP104
        x = x - 0.01 * y.sum()
    return x


def case_ok_matrices_converted_once():
    ainv, z = jnp.asarray(_AINV), jnp.asarray(_Z)
    x = jnp.ones(6)
    for _ in range(100):
        y = _project(x, ainv, z)
        x = x - 0.01 * y.sum()
    return x


# https://github.com/jax-ml/jax/issues/28418
# A jitted method with self static, whose attribute is changed after the first call.
class Counter:
    def __init__(self):
        self.a = 1

    @partial(jax.jit, static_argnums=0)
    def f(self):
        return self.a + 1


def case_static_self_mutated():
    obj = Counter()
    obj.f()
    obj.a = 2  # reported: JNP306
    return obj.f()


class CounterFixed:
    def __init__(self, a):
        self.a = a

    @partial(jax.jit, static_argnums=0)
    def f(self):
        return self.a + 1


def case_ok_new_object_for_new_value():
    CounterFixed(1).f()
    return CounterFixed(2).f()


# https://github.com/jax-ml/jax/issues/13992
# A hashable static argument mutated between calls: the jitted call returns 101 after v.val = 0 (eagerly 1).
class StaticValue:
    def __init__(self, val):
        self.val = val

    def __hash__(self):
        return hash(self.val)

    def __eq__(self, other):
        return isinstance(other, StaticValue) and self.val == other.val


@partial(jax.jit, static_argnums=0)
def _add(v, y):
    return y + v.val


def case_static_argument_mutated():
    v = StaticValue(100)
    _add(v, 1)
    v.val = 0  # reported: JNP306
    _add(v, 1)
    return _add(v, 1)


def case_ok_new_static_value():
    _add(StaticValue(100), 1)
    return _add(StaticValue(0), 1)


# https://github.com/jax-ml/jax/issues/1832 (comment: jit once, outside the timing loop)
def _cumulative(x):
    return jnp.sum(jnp.cumsum(x))


def case_jit_of_grad_rebuilt_in_loop():
    x = jnp.arange(100.0)
    for _ in range(20):
        g = jax.jit(jax.grad(_cumulative))(x)  # reported: JNP602
    return g


def case_ok_jit_of_grad_built_once():
    x = jnp.arange(100.0)
    fast_grad = jax.jit(jax.grad(_cumulative))
    for _ in range(20):
        g = fast_grad(x)
    return g


# https://github.com/patrick-kidger/equinox/issues/1141
def _matmul(a, b):
    return jnp.matmul(a, b)


def case_jit_inside_for_loop():
    a = jnp.ones((8, 8))
    for _ in range(20):
        a = jax.jit(lambda m: _matmul(m, m) / 8.0)(a)  # reported: JNP602
    return a


def case_ok_jit_hoisted_out_of_loop():
    a = jnp.ones((8, 8))
    step = jax.jit(lambda m: _matmul(m, m) / 8.0)
    for _ in range(20):
        a = step(a)
    return a


# https://github.com/jax-ml/jax/issues/1219
# Timing a jitted multiply: the clock stops when the work is queued.
# The result is not kept, as in the thread: the runtime mode's clock probe looks for an unfinished
# array held by the timing frame, so it cannot see this one (it confirms the two cases below).
def case_time_jitted_call_without_block():
    a = jnp.ones((1000, 1000)) * 3
    b = jnp.ones((1000, 1000)) * 5
    f = jax.jit(jnp.matmul)
    f(a, b).block_until_ready()
    times = []
    for _ in range(5):
        start = time.time()
        f(a, b)
        times.append(time.time() - start)  # reported: JNP603
    return times


def case_ok_time_jitted_call_blocked():
    a = jnp.ones((1000, 1000)) * 3
    b = jnp.ones((1000, 1000)) * 5
    f = jax.jit(jnp.matmul)
    f(a, b).block_until_ready()
    times = []
    for _ in range(5):
        start = time.time()
        f(a, b).block_until_ready()
        times.append(time.time() - start)
    return times


# https://github.com/jax-ml/jax/issues/1797
# Epoch time of a network evaluation measured without waiting for it.
@jax.jit
def _log_psi(w, x):
    return jnp.tanh(x @ w).sum()


def case_epoch_time_without_block():
    w = jnp.ones((1000, 1000)) / 1000
    x = jnp.ones((1000, 1000))
    _log_psi(w, x).block_until_ready()
    epoch_times = []
    for _ in range(5):
        t0 = time.perf_counter()
        value = _log_psi(w, x)
        epoch_times.append(time.perf_counter() - t0)  # reported: JNP603
    return epoch_times, value


def case_ok_epoch_time_blocked():
    w = jnp.ones((1000, 1000)) / 1000
    x = jnp.ones((1000, 1000))
    _log_psi(w, x).block_until_ready()
    epoch_times = []
    for _ in range(5):
        t0 = time.perf_counter()
        value = _log_psi(w, x)
        value.block_until_ready()
        epoch_times.append(time.perf_counter() - t0)
    return epoch_times, value


# https://github.com/p-doom/jasmine/pull/47
# Step time of a training loop taken right after the (asynchronous) step.
@jax.jit
def _sgd_step(params, batch):
    return params - 0.001 * (batch.T @ (batch @ params))


def case_step_time_after_async_step():
    params = jnp.ones((1000, 1))
    batch = jnp.ones((1000, 1000))
    params = _sgd_step(params, batch).block_until_ready()
    for _ in range(5):
        step_start = time.time()
        params = _sgd_step(params, batch)
        step_time = time.time() - step_start  # reported: JNP603
    return step_time, params


def case_ok_step_time_after_blocking():
    params = jnp.ones((1000, 1))
    batch = jnp.ones((1000, 1000))
    params = _sgd_step(params, batch).block_until_ready()
    for _ in range(5):
        step_start = time.time()
        params = jax.block_until_ready(_sgd_step(params, batch))
        step_time = time.time() - step_start
    return step_time, params


# https://github.com/jax-ml/jax/issues/2919
# jnp.array of a long Python list converts it element by element; no rule covers it, and the runtime
# mode has no probe for speed.
def case_jnp_array_of_long_list():
    return jnp.array([0] * 20000)  # reported: none


def case_ok_numpy_first():
    return jnp.array(np.array([0] * 20000, dtype=np.int32))


# https://github.com/poets-ai/elegy/issues/141
# A progress-bar callback that prints the step's logs after every batch: each print waits for the step.
# The runtime mode counts a transfer as a loop's only when the loop is in the transferring frame, so it
# does not see this one, made in a method the loop calls.
class Progbar:
    def update(self, step, logs):
        print(f"step {step}: loss {logs['loss']:.4f}")  # reported: JNP103


class QuietProgbar:
    def __init__(self, interval):
        self.interval = interval

    def update(self, step, logs):
        if step % self.interval == 0:
            print(f"step {step}: loss {float(logs['loss']):.4f}")


def case_progress_bar_prints_every_batch():
    w, bar = jnp.ones(4), Progbar()
    for step in range(30):
        w, loss = _train_step(w, jnp.ones((8, 4)))
        bar.update(step, {"loss": loss})
    return w


def case_ok_progress_bar_prints_every_tenth_batch():
    w, bar = jnp.ones(4), QuietProgbar(10)
    for step in range(30):
        w, loss = _train_step(w, jnp.ones((8, 4)))
        bar.update(step, {"loss": loss})
    return w


# https://github.com/jax-ml/jax/pull/14503
# An f-string given to jax.debug.print inside jit is formatted once, at trace time: it prints the
# tracer on every call. The runtime mode counts calls, which do not change, so it cannot see this.
@jax.jit
def _scaled(x):
    jax.debug.print(f"x = {x}")  # reported: JNP301
    return 2 * x


def case_fstring_in_debug_print():
    for _ in range(3):
        _scaled(jnp.arange(3.0))


@jax.jit
def _scaled_fixed(x):
    jax.debug.print("x = {x}", x=x)
    return 2 * x


def case_ok_debug_print_placeholders():
    for _ in range(3):
        _scaled_fixed(jnp.arange(3.0))
