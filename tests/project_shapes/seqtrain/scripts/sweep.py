"""Sweep settings over one Trainer: `python scripts/sweep.py` from the repository root."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402

from seqlib import RunConfig, Trainer, configs, make_key, model, noise_like  # noqa: E402
from seqlib.data import make_dataset  # noqa: E402

CFG = RunConfig()


def setup(loss):
    params = model.init_params(make_key(CFG.seed), CFG.model)
    x, y = jax.device_put(make_dataset(CFG))
    return Trainer(CFG, loss=loss), params, x, y


def case_smoothing_sweep_with_module_setting():
    trainer, params, x, y = setup(model.smoothed_loss)
    losses = []
    for smoothing in (0.0, 0.1, 0.3):
        configs.LABEL_SMOOTHING = smoothing
        configs.RUN_NAME = f"smoothing-{smoothing}"
        losses.append(trainer.train_step(params, x, y)[1])
    return losses


def case_ok_smoothing_sweep_with_arguments():
    trainer, params, x, y = setup(model.smoothed_loss_ok)
    step = jax.jit(lambda p, s: jax.value_and_grad(model.smoothed_loss_ok)(p, x, y, s))
    return [step(params, smoothing)[0] for smoothing in (0.0, 0.1, 0.3)]


# project shape (not a thread): the same key handed to noise_like() for every noise level
def case_noise_levels_from_one_key():
    _, params, x, y = setup(model.loss_fn)
    key = make_key(7)
    noisy = []
    for scale in (0.1, 0.2, 0.4):
        noisy.append(noise_like(key, x, scale))  # reported: JNP601
    return noisy


def case_ok_noise_levels_from_split_keys():
    _, params, x, y = setup(model.loss_fn)
    keys = jax.random.split(make_key(7), 3)
    return [noise_like(k, x, scale) for k, scale in zip(keys, (0.1, 0.2, 0.4))]
