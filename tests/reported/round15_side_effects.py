"""Fifteenth round, held out: an epoch runner that draws its batches with next() on a Python
iterator inside a lax.fori_loop body, which runs once while the loop is traced, so every step
trains on the first batch (JNP303)."""
import jax
import jax.numpy as jnp


def squared_loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


# https://github.com/jax-ml/jax/issues/3567
# The user's fori_loop body calls next(train_iterator) to fetch each batch; the body is traced once,
# so next runs once and the compiled loop reuses that batch on every iteration.
def run_epoch(w, batches):
    batch_iterator = iter(batches)

    def train_batch(i, w):
        x, y = next(batch_iterator)  # reported: JNP303
        return w - 0.1 * jax.grad(squared_loss)(w, x, y)

    return jax.lax.fori_loop(0, len(batches), train_batch, w)


def case_batches_drawn_with_next_inside_fori_loop():
    batches = [(jnp.ones((4, 3)) * (i + 1), jnp.full(4, float(i))) for i in range(3)]
    return run_epoch(jnp.zeros(3), batches)


def run_epoch_stacked(w, batches):
    xs = jnp.stack([x for x, _ in batches])
    ys = jnp.stack([y for _, y in batches])

    def train_batch(i, w):
        return w - 0.1 * jax.grad(squared_loss)(w, xs[i], ys[i])

    return jax.lax.fori_loop(0, len(batches), train_batch, w)


def case_ok_batches_indexed_from_stacked_arrays():
    batches = [(jnp.ones((4, 3)) * (i + 1), jnp.full(4, float(i))) for i in range(3)]
    return run_epoch_stacked(jnp.zeros(3), batches)
