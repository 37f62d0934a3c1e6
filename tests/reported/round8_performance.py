"""Eighth round, held out: metrics pulled to the host on every step, clocks read before the device
finished, and recompilations no rule covers (JNP102, JNP603)."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def p_train_step(state, batch):
    loss = jnp.mean((batch @ state) ** 2)
    return state - 0.01 * batch.T @ (batch @ state), {"loss": loss, "norm": jnp.linalg.norm(state)}


# https://github.com/AI-Hypercomputer/maxdiffusion/pull/81
# The training loop writes the step's metrics on every step; writing turns each metric into a
# Python float, so every step waits for the device before the next one is dispatched.
def write_metrics(writer, metrics, step):
    writer.append({"step": step, **{name: float(value) for name, value in metrics.items()}})  # reported: JNP102


def case_metrics_written_every_step():
    state, batch, writer = jnp.ones(4), jnp.ones((8, 4)), []
    for step in range(20):
        state, train_metric = p_train_step(state, batch)
        write_metrics(writer, train_metric, step)
    return writer


def case_ok_metrics_written_every_hundred_steps():
    state, batch, writer = jnp.ones(4), jnp.ones((8, 4)), []
    for step in range(20):
        state, train_metric = p_train_step(state, batch)
        if step % 100 == 0:
            writer.append(jax.device_get(train_metric))
    return writer


# https://github.com/pasteurlabs/tesseract-jax/pull/206
# The benchmarks time the applied function with perf_counter around the calls and read the clock
# as soon as they return, before the queued work finished.
def vectoradd(a, b):
    return {"result": a + 2.0 * b}


def case_benchmark_clock_read_without_blocking():
    apply_jit = jax.jit(vectoradd)
    a = b = jnp.ones(100_000)
    apply_jit(a, b)
    start = time.perf_counter()
    for _ in range(10):
        apply_jit(a, b)
    return (time.perf_counter() - start) / 10  # reported: JNP603


def case_ok_benchmark_blocks_before_the_clock():
    apply_jit = jax.jit(vectoradd)
    a = b = jnp.ones(100_000)
    jax.block_until_ready(apply_jit(a, b))
    start = time.perf_counter()
    for _ in range(10):
        out = apply_jit(a, b)
    jax.block_until_ready(out)
    return (time.perf_counter() - start) / 10


# https://github.com/google-deepmind/tapnet/issues/44
# Inference runs a jitted model on one video after another; each video has its own number of
# frames, so the jitted function is compiled again for every new shape (marked none until the
# twentieth round: JNP602 now reads a shape taken from a loop over distinct number literals).
model_apply = jax.jit(lambda params, frames: frames * params)


def case_new_video_shape_recompiles():
    tracks = []
    for n_frames in (3, 4, 5):
        frames = jnp.ones((n_frames, 8, 8))
        tracks.append(model_apply(2.0, frames))  # reported: JNP602
    return tracks


def case_ok_videos_padded_to_one_shape():
    tracks = []
    for n_frames in (3, 4, 5):
        frames = jnp.zeros((8, 8, 8)).at[:n_frames].set(1.0)
        tracks.append(model_apply(2.0, frames))
    return tracks


# https://github.com/QuantEcon/lecture-python-programming/pull/442
# A jitted option pricer steps the volatility with a Python for loop over n periods; jax.jit
# unrolls it, and compiling it for large n ran past the notebook's timeout.
def compute_call_price_jax(key, n=20, M=1000, mu=0.0, rho=0.9, nu=0.1):
    s = jnp.zeros(M)
    h = jnp.zeros(M)
    for t in range(n):  # reported: none
        key, subkey = jax.random.split(key)
        Z = jax.random.normal(subkey, (2, M))
        s = s + mu + jnp.exp(h) * Z[0, :]
        h = rho * h + nu * Z[1, :]
    return jnp.mean(jnp.maximum(jnp.exp(s) - 1.0, 0.0))


def case_python_loop_unrolled_under_jit():
    return jax.jit(compute_call_price_jax)(jax.random.PRNGKey(0))


def compute_call_price_fori(key, n=20, M=1000, mu=0.0, rho=0.9, nu=0.1):
    def loop_body(i, state):
        s, h, key = state
        key, subkey = jax.random.split(key)
        Z = jax.random.normal(subkey, (2, M))
        return s + mu + jnp.exp(h) * Z[0, :], rho * h + nu * Z[1, :], key

    s, h, key = jax.lax.fori_loop(0, n, loop_body, (jnp.zeros(M), jnp.zeros(M), key))
    return jnp.mean(jnp.maximum(jnp.exp(s) - 1.0, 0.0))


def case_ok_fori_loop_under_jit():
    return jax.jit(compute_call_price_fori)(jax.random.PRNGKey(0))


# https://github.com/patrick-kidger/diffrax/issues/111
# The latent ODE example trains on batches of 256 from 10000 samples; the last batch of each epoch
# is smaller, so the jitted step compiles a second time for it. No rule knows the batch sizes.
make_step = jax.jit(lambda params, batch: params - 0.01 * jnp.mean(batch))


def dataloader(data, batch_size):
    for start in range(0, data.shape[0], batch_size):
        yield data[start:start + batch_size]


def case_ragged_last_batch_recompiles():
    params = jnp.ones(3)
    for batch in dataloader(jnp.ones((10, 3)), 4):
        params = make_step(params, batch)  # reported: none
    return params


def dataloader_drop_last(data, batch_size):
    for start in range(0, data.shape[0] - batch_size + 1, batch_size):
        yield data[start:start + batch_size]


def case_ok_last_batch_dropped():
    params = jnp.ones(3)
    for batch in dataloader_drop_last(jnp.ones((10, 3)), 4):
        params = make_step(params, batch)
    return params
