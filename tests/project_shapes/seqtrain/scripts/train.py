"""Train from the command line: `python scripts/train.py` from the repository root."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from seqlib import KeySeq, RunConfig, Trainer, log_scalar, make_key, noise_like  # noqa: E402
from seqlib import model  # noqa: E402
from seqlib.data import batches, make_dataset  # noqa: E402

CFG = RunConfig()


def setup(cfg=CFG):
    params = model.init_params(make_key(cfg.seed), cfg.model)
    x, y = make_dataset(cfg)
    return Trainer(cfg), params, x, y


def on_device(cfg=CFG):
    trainer, params, x, y = setup(cfg)
    x, y = jax.device_put((x, y))
    return trainer, params, x, y


# project shape (not a thread): the whole NumPy dataset handed to the Trainer's jitted step every step
def case_host_dataset_every_step():
    trainer, params, x, y = setup()
    for _ in range(CFG.optim.steps):
        params, loss = trainer.train_step(params, x, y)  # reported: JNP104
    return loss


def case_ok_dataset_placed_once():
    trainer, params, x, y = on_device()
    for _ in range(CFG.optim.steps):
        params, loss = trainer.train_step(params, x, y)
    return loss


def case_ok_minibatches_from_the_host():
    trainer, params, x, y = setup()
    for xb, yb in batches(x, y, CFG.batch_size):
        params, loss = trainer.train_step(params, xb, yb)
    return loss


# project shape (not a thread): the loss of the Trainer's step turned into a float on every step
def case_loss_to_float_every_step():
    trainer, params, x, y = on_device()
    history = []
    for _ in range(CFG.optim.steps):
        params, loss = trainer.train_step(params, x, y)
        history.append(float(loss))  # reported: JNP102
    return history


def case_ok_loss_every_n_steps():
    trainer, params, x, y = on_device()
    history = []
    for step in range(CFG.optim.steps):
        params, loss = trainer.train_step(params, x, y)
        if step % CFG.optim.log_every == 0:
            history.append(float(loss))
    return history


# project shape (not a thread): the package's re-exported logger calls float() on the loss every step
def case_logged_every_step():
    trainer, params, x, y = on_device()
    for step in range(CFG.optim.steps):
        params, loss = trainer.train_step(params, x, y)
        log_scalar(step, "loss", loss)  # reported: JNP102
    return params


def case_ok_logged_once():
    trainer, params, x, y = on_device()
    for _ in range(CFG.optim.steps):
        params, loss = trainer.train_step(params, x, y)
    return log_scalar(CFG.optim.steps, "loss", loss)


# project shape (not a thread): an f-string progress line with the device loss on every step
def case_progress_printed_every_step():
    trainer, params, x, y = on_device()
    for step in range(CFG.optim.steps):
        params, loss = trainer.train_step(params, x, y)
        print(f"step {step} loss {loss}")  # reported: JNP103
    return params


def case_ok_progress_without_values():
    trainer, params, x, y = on_device()
    for step in range(CFG.optim.steps):
        params, loss = trainer.train_step(params, x, y)
        print(f"step {step} of {CFG.optim.steps}")
    return loss


# project shape (not a thread): a step timed without waiting for the asynchronous result
def case_step_timed_without_waiting():
    trainer, params, x, y = on_device()
    params, loss = trainer.train_step(params, x, y)
    start = time.perf_counter()
    params, loss = trainer.train_step(params, x, y)
    elapsed = time.perf_counter() - start  # reported: JNP603
    return elapsed


def case_ok_step_timed_after_block():
    trainer, params, x, y = on_device()
    params, loss = trainer.train_step(params, x, y)
    start = time.perf_counter()
    params, loss = trainer.train_step(params, x, y)
    loss.block_until_ready()
    return time.perf_counter() - start


# project shape (not a thread): a draw from the key that init_params() split (marked JNP601 as written;
# a split then a draw of one key is JNP606's, off by default)
def case_init_key_reused_for_noise():
    key = make_key(0)
    params = model.init_params(key, CFG.model)
    x, _ = make_dataset(CFG)
    x_noisy = noise_like(key, jnp.asarray(x))  # reported: JNP606
    return params, x_noisy


def case_ok_keys_from_the_stream():
    keys = KeySeq(0)
    params = model.init_params(keys.next(), CFG.model)
    x, _ = make_dataset(CFG)
    return params, noise_like(keys.next(), jnp.asarray(x))


# project shape (not a thread): the learning rate lowered on the Trainer after its step was compiled
def case_learning_rate_changed_after_compile():
    trainer, params, x, y = on_device()
    params, loss = trainer.train_step(params, x, y)
    trainer.lr = trainer.lr * 0.1  # reported: JNP306
    params, loss = trainer.train_step(params, x, y)
    return loss


def case_ok_new_trainer_for_new_rate():
    trainer, params, x, y = on_device()
    params, loss = trainer.train_step(params, x, y)
    slow = Trainer(RunConfig(optim=type(CFG.optim)(learning_rate=CFG.optim.learning_rate * 0.1)))
    params, loss = slow.train_step(params, x, y)
    return loss


# project shape (not a thread): a bias of the parameters init_params() returned patched in place
def case_bias_patched_in_place():
    params = model.init_params(make_key(1), CFG.model)
    params["b2"][0] = 1.0  # reported: JNP501
    return params


def case_ok_bias_patched_functionally():
    params = model.init_params(make_key(1), CFG.model)
    params["b2"] = params["b2"].at[0].set(1.0)
    return params
