"""Seventeenth round, held out: a streaming loop that brings every result back to NumPy, a plotting
helper that reads a device array one element at a time, an experiment sweep that builds a fresh
optimizer and hands it to a jitted run as a static argument, a solver whose solve() jits new
closures each time, an inference benchmark that reads the clock before the work is done, a trainer
that evaluates with the state it donated, and a step that donates one buffer twice (JNP101, JNP102,
JNP602, JNP603, JNP605)."""
import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def normalise(chunk):
    return (chunk - chunk.mean()) / (chunk.std() + 1e-6)


# https://github.com/jax-ml/jax/issues/36651
# Each chunk is normalised on the device and then fetched with np.asarray inside the loop, so every
# iteration waits for a device-to-host copy before the next chunk is dispatched.
def stream_chunks(chunks):
    host_results = []
    for chunk in chunks:
        out = normalise(chunk)
        host_results.append(np.asarray(out))  # reported: JNP101
    return host_results


def case_chunk_results_fetched_every_iteration():
    return stream_chunks([jnp.arange(8.0) + i for i in range(4)])


def stream_chunks_fetched_once(chunks):
    device_results = [normalise(chunk) for chunk in chunks]
    return np.asarray(jnp.stack(device_results))


def case_ok_chunk_results_fetched_once():
    return stream_chunks_fetched_once([jnp.arange(8.0) + i for i in range(4)])


# https://github.com/jax-ml/jax/pull/965
# Listing the values of a device array element by element slices the device buffer once per
# element and brings each slice back on its own, which made plotting a long curve take seconds.
def curve_points(losses):
    points = []
    for step in range(losses.shape[0]):
        points.append((step, float(losses[step])))  # reported: JNP102
    return points


def case_curve_read_element_by_element():
    return curve_points(jnp.linspace(1.0, 0.1, 50))


def curve_points_from_host(losses):
    host = np.asarray(losses)
    return [(step, float(host[step])) for step in range(host.shape[0])]


def case_ok_curve_copied_to_host_once():
    return curve_points_from_host(jnp.linspace(1.0, 0.1, 50))


class Momentum:
    """A tiny optimizer object, hashed by identity like most optimizer objects."""

    def __init__(self, learning_rate):
        self.learning_rate = learning_rate

    def update(self, grad, velocity):
        velocity = 0.9 * velocity + grad
        return -self.learning_rate * velocity, velocity


def quadratic(param):
    return jnp.square(param - 1.0)


@partial(jax.jit, static_argnums=0)
def optimise(optimizer, param):
    velocity = jnp.zeros_like(param)
    for _ in range(5):
        step, velocity = optimizer.update(jax.grad(quadratic)(param), velocity)
        param = param + step
    return param


# https://github.com/google-deepmind/optax/issues/197
# The sweep builds a new optimizer object on every repetition and passes it as a static argument;
# a new object hashes differently, so the jitted inference traces and compiles on every repetition.
def repeated_runs(repetitions):
    finals = []
    for _ in range(repetitions):
        finals.append(optimise(Momentum(0.05), jnp.float32(0.0)))  # reported: JNP602
    return finals


def case_fresh_optimizer_as_static_argument():
    return repeated_runs(3)


def repeated_runs_one_optimizer(repetitions):
    optimizer = Momentum(0.05)
    return [optimise(optimizer, jnp.float32(0.0)) for _ in range(repetitions)]


def case_ok_one_optimizer_reused():
    return repeated_runs_one_optimizer(3)


# https://github.com/iory/scikit-robot/issues/871
# The solver builds its cost and gradient as fresh jitted closures over the problem data inside
# solve(), so every solve of a planning loop compiles them again.
class TrajectorySolver:
    def __init__(self, targets):
        self.targets = targets

    def build_cost(self):
        targets = self.targets
        return jax.jit(jax.value_and_grad(lambda q: jnp.sum((q - targets) ** 2)))  # reported: JNP602

    def solve(self, q):
        cost = self.build_cost()
        for _ in range(3):
            _, grad = cost(q)
            q = q - 0.1 * grad
        return q


def plan(solver, starts):
    return [solver.solve(q) for q in starts]


def case_solver_rebuilds_jitted_cost_per_solve():
    return plan(TrajectorySolver(jnp.ones(4)), [jnp.zeros(4), jnp.full(4, 2.0)])


class CachedTrajectorySolver:
    def __init__(self, targets):
        self.targets = targets
        self.cost = jax.jit(jax.value_and_grad(self.residual))

    def residual(self, q):
        return jnp.sum((q - self.targets) ** 2)

    def solve(self, q):
        for _ in range(3):
            _, grad = self.cost(q)
            q = q - 0.1 * grad
        return q


def case_ok_solver_jits_cost_once():
    return plan(CachedTrajectorySolver(jnp.ones(4)), [jnp.zeros(4), jnp.full(4, 2.0)])


@jax.jit
def log_likelihood(theta, data):
    return -0.5 * jnp.sum((data[:, None] - theta[None, :]) ** 2, axis=0)


# https://github.com/kokabsc/gwkokab/issues/112
# The inference timing read the clock right after dispatching the jitted likelihood, so it measured
# the asynchronous dispatch rather than the evaluation.
def time_likelihood(theta, data):
    start = time.perf_counter()
    log_likelihood(theta, data)
    return time.perf_counter() - start  # reported: JNP603


def case_likelihood_timed_without_waiting():
    return time_likelihood(jnp.linspace(-1.0, 1.0, 64), jnp.ones(256))


def time_likelihood_blocked(theta, data):
    start = time.perf_counter()
    log_likelihood(theta, data).block_until_ready()
    return time.perf_counter() - start


def case_ok_likelihood_timed_after_block():
    return time_likelihood_blocked(jnp.linspace(-1.0, 1.0, 64), jnp.ones(256))


@partial(jax.jit, donate_argnums=0)
def train_on_batch(variables, batch):
    return {name: value - 0.01 * jnp.mean(batch) for name, value in variables.items()}


@jax.jit
def test_on_batch(variables, batch):
    return sum(jnp.sum(value * batch) for value in variables.values())


# https://github.com/keras-team/keras-core/pull/897
# Once the train function donated the variables, the evaluation that followed still read the
# original input copy, whose buffers the donation had deleted.
def fit_then_evaluate(variables, batch):
    trained = train_on_batch(variables, batch)
    loss = test_on_batch(variables, batch)  # reported: JNP605
    return trained, loss


def case_evaluates_with_donated_variables():
    return fit_then_evaluate({"w": jnp.ones(3), "b": jnp.zeros(3)}, jnp.ones(3))


def fit_then_evaluate_trained(variables, batch):
    trained = train_on_batch(variables, batch)
    return trained, test_on_batch(trained, batch)


def case_ok_evaluates_with_returned_variables():
    return fit_then_evaluate_trained({"w": jnp.ones(3), "b": jnp.zeros(3)}, jnp.ones(3))


@partial(jax.jit, donate_argnums=(0, 1))
def schedule_free_step(params, opt_state, grads):
    z = opt_state["z"] - 0.1 * grads
    return 0.9 * params + 0.1 * z, {"z": z}


def init_state(params):
    return {"z": params}


# https://github.com/google-deepmind/optax/pull/1059
# The freshly initialised optimizer state held the parameter array itself, so donating both the
# parameters and the state donated one buffer twice in the same call.
def first_step(params, grads):
    opt_state = init_state(params)
    return schedule_free_step(params, opt_state, grads)  # reported: JNP605


def case_params_and_state_share_a_donated_buffer():
    return first_step(jnp.ones(4), jnp.full(4, 0.5))


def init_state_copied(params):
    return {"z": jnp.array(params, copy=True)}


def first_step_copied(params, grads):
    opt_state = init_state_copied(params)
    return schedule_free_step(params, opt_state, grads)


def case_ok_state_holds_a_copy():
    return first_step_copied(jnp.ones(4), jnp.full(4, 0.5))
