"""Train the feature models: `python train.py` from the repository root."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import equinox as eqx  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

from featlib import (  # noqa: E402
    MLP,
    Config,
    LoggedMLP,
    SafeEncoder,
    create_augmented_step,
    create_batched_step,
    create_eqx_step,
    create_train_step,
    create_weighted_step,
    make_split,
    next_key,
    reseed,
)
from featlib.data import CLASS_WEIGHTS  # noqa: E402
from featlib.steps import create_clipped_eqx_step  # noqa: E402

CFG = Config()


def setup(model_cls=LoggedMLP, cfg=CFG):
    model = model_cls(cfg.model.hidden, cfg.model.num_classes)
    x, y = make_split(cfg)
    params = model.init(jax.random.key(cfg.train.seed), x[:1])
    tx = optax.adam(cfg.train.learning_rate)
    return model, params, tx, tx.init(params), x, y


def on_device(model_cls=LoggedMLP, cfg=CFG):
    model, params, tx, opt_state, x, y = setup(model_cls, cfg)
    return model, params, tx, opt_state, jnp.asarray(x), jnp.asarray(y)


# project shape (not a thread): the MLP with a print in __call__ trained by a factory's jitted step,
# and the loss read back as a float at every step
def case_train_mlp_with_float_history():
    model, params, tx, opt_state, x, y = on_device(MLP)
    train_step = create_train_step(model, tx)
    history = []
    for _ in range(CFG.train.steps):
        params, opt_state, loss = train_step(params, opt_state, x, y)
        history.append(float(loss))  # reported: JNP102
    return history


def case_ok_train_logged_mlp_history_on_device():
    model, params, tx, opt_state, x, y = on_device(LoggedMLP)
    train_step = create_train_step(model, tx)
    history = []
    for _ in range(CFG.train.steps):
        params, opt_state, loss = train_step(params, opt_state, x, y)
        history.append(loss)
    return jnp.stack(history).tolist()


# project shape (not a thread): the NumPy split from make_split converted to a device array on every step
def case_upload_split_every_step():
    model, params, tx, opt_state, x, y = setup()
    train_step = create_train_step(model, tx)
    for _ in range(CFG.train.steps):
        params, opt_state, loss = train_step(params, opt_state, jnp.asarray(x), y)  # reported: JNP104
    return loss


def case_ok_upload_split_once():
    model, params, tx, opt_state, x, y = setup()
    train_step = create_train_step(model, tx)
    x_dev, y_dev = jnp.asarray(x), jnp.asarray(y)
    for _ in range(CFG.train.steps):
        params, opt_state, loss = train_step(params, opt_state, x_dev, y_dev)
    return loss


# project shape (not a thread): the loss formatted into a log line at every step
def case_log_every_step():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_train_step(model, tx)
    for step in range(CFG.train.steps):
        params, opt_state, loss = train_step(params, opt_state, x, y)
        print(f"step {step}: loss {loss:.4f}")  # reported: JNP103
    return loss


def case_ok_log_every_n_steps_after_the_loop():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_train_step(model, tx)
    losses = []
    for _ in range(CFG.train.steps):
        params, opt_state, loss = train_step(params, opt_state, x, y)
        losses.append(loss)
    for step, value in enumerate(jax.device_get(losses)):
        if step % CFG.train.log_every == 0:
            print(f"step {step}: loss {value:.4f}")
    return losses[-1]


# project shape (not a thread): a step timer that stops before the device is done
def case_time_each_step():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_train_step(model, tx)
    params, opt_state, loss = train_step(params, opt_state, x, y)
    times = []
    for _ in range(CFG.train.steps):
        start = time.perf_counter()
        params, opt_state, loss = train_step(params, opt_state, x, y)
        times.append(time.perf_counter() - start)  # reported: JNP603
    return times


def case_ok_time_each_step_blocking():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_train_step(model, tx)
    params, opt_state, loss = train_step(params, opt_state, x, y)
    times = []
    for _ in range(CFG.train.steps):
        start = time.perf_counter()
        params, opt_state, loss = jax.block_until_ready(train_step(params, opt_state, x, y))
        times.append(time.perf_counter() - start)
    return times


# project shape (not a thread): the noise key made once and handed to every augmented step
def case_same_noise_key_every_step():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_augmented_step(model, tx)
    noise_key = jax.random.key(CFG.train.seed)
    for _ in range(CFG.train.steps):
        params, opt_state, loss = train_step(params, opt_state, x, y, noise_key)  # reported: JNP601
    return loss


def case_ok_fresh_noise_key_every_step():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_augmented_step(model, tx)
    key = jax.random.key(CFG.train.seed)
    for _ in range(CFG.train.steps):
        key, noise_key = jax.random.split(key)
        params, opt_state, loss = train_step(params, opt_state, x, y, noise_key)
    return loss


def case_ok_noise_keys_from_the_stream_on_the_host():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_augmented_step(model, tx)
    for _ in range(CFG.train.steps):
        params, opt_state, loss = train_step(params, opt_state, x, y, next_key())
    return loss


# project shape (not a thread): the augmented step left to draw its own key from the module's stream
def case_augmented_step_draws_from_the_stream():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_augmented_step(model, tx)
    try:
        for _ in range(CFG.train.steps):
            params, opt_state, loss = train_step(params, opt_state, x, y)
    finally:
        reseed(CFG.train.seed)
    return loss


# project shape (not a thread): the class-weighted step with the host weight table
def case_weighted_step_with_host_table():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_weighted_step(model, tx)
    params, opt_state, loss = train_step(params, opt_state, x, y)
    return loss


def case_ok_weighted_step_with_device_table():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_weighted_step(model, tx, class_weights=jnp.asarray(CLASS_WEIGHTS))
    params, opt_state, loss = train_step(params, opt_state, x, y)
    return loss


# project shape (not a thread): the step that wraps its inputs in a validated Batch
def case_batched_step():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_batched_step(model, tx)
    params, opt_state, loss = train_step(params, opt_state, x, y)
    return loss


# project shape (not a thread): the Equinox regression step with its divergence guard
def case_eqx_step_with_guard():
    x = jnp.ones((CFG.train.batch_size, CFG.model.features))
    encoder = SafeEncoder(CFG.model.embed_dims, jax.random.key(0))
    y = jnp.zeros((CFG.train.batch_size, CFG.model.embed_dims[-1]))
    optim = optax.sgd(CFG.train.learning_rate)
    opt_state = optim.init(eqx.filter(encoder, eqx.is_array))
    step = create_eqx_step(optim)
    encoder, opt_state, loss = step(encoder, opt_state, x, y)
    return loss


def case_ok_eqx_step_with_where_guard():
    x = jnp.ones((CFG.train.batch_size, CFG.model.features))
    encoder = SafeEncoder(CFG.model.embed_dims, jax.random.key(0))
    y = jnp.zeros((CFG.train.batch_size, CFG.model.embed_dims[-1]))
    optim = optax.sgd(CFG.train.learning_rate)
    opt_state = optim.init(eqx.filter(encoder, eqx.is_array))
    step = create_clipped_eqx_step(optim)
    encoder, opt_state, loss = step(encoder, opt_state, x, y)
    return loss


def main():
    model, params, tx, opt_state, x, y = on_device()
    train_step = create_train_step(model, tx)
    losses = []
    for _ in range(CFG.train.steps):
        params, opt_state, loss = train_step(params, opt_state, x, y)
        losses.append(loss)
    print("final loss", float(losses[-1]))
    return params


if __name__ == "__main__":
    main()
