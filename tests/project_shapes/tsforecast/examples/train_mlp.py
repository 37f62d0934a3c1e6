"""Train and evaluate the plain-JAX MLP: `python examples/train_mlp.py`."""
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from tsflow import KeyStream, TrainConfig, cosine_lr, load, scheduled_step, sgd_step  # noqa: E402
from tsflow import augment  # noqa: E402
from tsflow.evaluation import (  # noqa: E402
    eval_loss,
    masked_mae,
    masked_mae_where,
    postprocess,
    postprocess_where,
    predict,
    rollout,
    rollout_static,
)
from tsflow.models import mlp  # noqa: E402

CFG = TrainConfig()
SIZES = (CFG.model.window, CFG.model.hidden, CFG.model.hidden, CFG.model.horizon)


def setup(cfg=CFG, init=mlp.init_params_split):
    params = init(jax.random.key(cfg.seed), SIZES)
    return params, load(cfg)


def train(params, data, cfg=CFG):
    for epoch in range(cfg.epochs):
        for xb, yb in data.batches(cfg.batch_size, seed=epoch):
            params, loss = sgd_step(params, xb, yb, cfg.learning_rate)
    return params


def case_init_bias_from_the_weights_key():
    params, data = setup(init=mlp.init_params)
    return train(params, data)


def case_ok_init_split_keys():
    params, data = setup()
    return train(params, data)


def case_forward_in_bfloat16():
    params, data = setup()
    return jax.jit(mlp.apply)(params, data.x[:8])


def case_ok_forward_in_bfloat16_cast():
    params, data = setup()
    return jax.jit(mlp.apply_cast)(params, data.x[:8])


# project shape (not a thread): a cosine learning rate passed as a static argument, a new value
# and so a new compilation on every step
def case_static_learning_rate_schedule():
    params, data = setup()
    total = len(data) // CFG.batch_size
    for step, (xb, yb) in enumerate(data.batches(CFG.batch_size)):
        lr = cosine_lr(CFG.learning_rate, step, total)
        params, loss = scheduled_step(params, xb, yb, lr=lr)  # reported: JNP602
    return loss


def case_ok_traced_learning_rate_schedule():
    params, data = setup()
    total = len(data) // CFG.batch_size
    for step, (xb, yb) in enumerate(data.batches(CFG.batch_size)):
        lr = cosine_lr(CFG.learning_rate, step, total)
        params, loss = sgd_step(params, xb, yb, lr)
    return loss


# project shape (not a thread): the NumPy validation split from data.split() uploaded every epoch
def case_validation_from_the_host_every_epoch():
    params, data = setup()
    _, (x_val, y_val) = data.split()
    scores = []
    for epoch in range(CFG.epochs):
        params = train(params, data, TrainConfig(epochs=1, seed=epoch))
        scores.append(eval_loss(params, x_val, y_val))  # reported: JNP104
    return jnp.stack(scores)


def case_ok_validation_placed_once():
    params, data = setup()
    _, (x_val, y_val) = data.split()
    x_val, y_val = jax.device_put((x_val, y_val))
    scores = []
    for epoch in range(CFG.epochs):
        params = train(params, data, TrainConfig(epochs=1, seed=epoch))
        scores.append(eval_loss(params, x_val, y_val))
    return jnp.stack(scores)


# project shape (not a thread): each batch's forecasts copied to the host inside the loop
def case_forecasts_to_numpy_per_batch():
    params, data = setup()
    forecasts = []
    for xb, _ in data.batches(CFG.batch_size):
        forecasts.append(np.asarray(predict(params, xb)))  # reported: JNP101
    return np.concatenate(forecasts)


def case_ok_forecasts_to_numpy_once():
    params, data = setup()
    forecasts = []
    for xb, _ in data.batches(CFG.batch_size):
        forecasts.append(predict(params, xb))
    return np.asarray(jnp.concatenate(forecasts))


def case_rollout_with_traced_steps():
    params, data = setup()
    return rollout(params, data.x[:8], 3)


def case_ok_rollout_with_static_steps():
    params, data = setup()
    return rollout_static(params, data.x[:8], 3)


def case_masked_mae():
    params, data = setup()
    target = data.y[:8].copy()
    target[0, 0] = np.nan
    return masked_mae(predict(params, data.x[:8]), target)


def case_ok_masked_mae_where():
    params, data = setup()
    target = data.y[:8].copy()
    target[0, 0] = np.nan
    return masked_mae_where(predict(params, data.x[:8]), target)


def case_postprocess_forecasts():
    params, data = setup()
    return postprocess(predict(params, data.x[:8]) - 0.5)


def case_ok_postprocess_forecasts_where():
    params, data = setup()
    return postprocess_where(predict(params, data.x[:8]) - 0.5)


def case_jitter_from_the_module_stream():
    _, data = setup()
    first = augment.jitter(data.x[:8])
    second = augment.jitter(data.x[:8])
    return first, second


def case_ok_jitter_with_keys_from_a_stream():
    _, data = setup()
    stream = KeyStream(CFG.seed)
    return [augment.jitter_with(data.x[:8], key) for key in stream.take(2)]


def case_noise_scale_changed_after_first_call():
    _, data = setup()
    stream = KeyStream(CFG.seed)
    before = augment.scale_jitter(data.x[:8], stream())
    augment.set_noise_scale(0.5)
    after = augment.scale_jitter(data.x[:8], stream())
    augment.set_noise_scale(0.05)
    return before, after


def case_ok_noise_scale_as_argument():
    _, data = setup()
    stream = KeyStream(CFG.seed)
    before = augment.scale_jitter_by(data.x[:8], stream(), 0.05)
    after = augment.scale_jitter_by(data.x[:8], stream(), 0.5)
    return before, after


def case_drop_days_with_numpy_random():
    _, data = setup()
    return [augment.drop_days(data.x[:8]) for _ in range(2)]


def case_ok_drop_days_with_keys():
    _, data = setup()
    stream = KeyStream(CFG.seed)
    return [augment.drop_days_with(data.x[:8], stream()) for _ in range(2)]


if __name__ == "__main__":
    trained = train(*setup())
    print(eval_loss(trained, *load(CFG).split()[1]))
