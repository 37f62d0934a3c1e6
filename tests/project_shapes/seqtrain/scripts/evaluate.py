"""Evaluate and debug a model: `python scripts/evaluate.py` from the repository root."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import seqlib  # noqa: E402
from seqlib import metrics, model  # noqa: E402
from seqlib.configs import PreciseModelConfig, RunConfig  # noqa: E402
from seqlib.data import batches, make_dataset  # noqa: E402

CFG = RunConfig()


def setup(cfg=CFG, **trainer_options):
    params = model.init_params(seqlib.make_key(cfg.seed), cfg.model)
    x, y = jax.device_put(make_dataset(cfg))
    return seqlib.Trainer(cfg, **trainer_options), params, x, y


# project shape (not a thread): each batch's logits from Trainer.predict() copied to NumPy in the loop
def case_logits_to_numpy_per_batch():
    trainer, params, x, y = setup()
    predictions = []
    for xb, _ in batches(x, y, CFG.batch_size):
        predictions.append(np.asarray(trainer.predict(params, xb)))  # reported: JNP101
    return np.concatenate(predictions)


def case_ok_logits_to_numpy_once():
    trainer, params, x, y = setup()
    predictions = [trainer.predict(params, xb) for xb, _ in batches(x, y, CFG.batch_size)]
    return np.asarray(jnp.concatenate(predictions))


# project shape (not a thread): the evaluation factory called again for every checkpoint
def case_eval_fn_built_per_checkpoint():
    _, params, x, y = setup()
    scores = []
    for scale in (1.0, 0.5, 0.25):
        checkpoint = jax.tree.map(lambda p: p * scale, params)
        scores.append(metrics.make_eval_fn(CFG)(checkpoint, x, y))  # reported: JNP602
    return scores


def case_ok_eval_fn_built_once():
    _, params, x, y = setup()
    evaluate = metrics.make_eval_fn(CFG)
    return [evaluate(jax.tree.map(lambda p: p * scale, params), x, y) for scale in (1.0, 0.5, 0.25)]


# project shape (not a thread): float32 inputs meet the bfloat16 weights cast_params() returns
def case_half_weights_with_float_inputs():
    _, params, x, y = setup()
    half = model.cast_params(params, jnp.bfloat16)
    return x @ half["w1"]  # reported: JNP401


def case_ok_half_weights_with_half_inputs():
    _, params, x, y = setup()
    half = model.cast_params(params, jnp.bfloat16)
    return x.astype(jnp.bfloat16) @ half["w1"]


def case_precise_parameters():
    return model.init_params(seqlib.make_key(0), PreciseModelConfig())


def case_ok_default_parameters():
    return model.init_params(seqlib.make_key(0), CFG.model)


def case_classes_from_jitted_method():
    trainer, params, x, _ = setup()
    return trainer.predict_classes(params, x)


def case_ok_classes_from_logits():
    trainer, params, x, _ = setup()
    return jnp.argmax(trainer.predict(params, x), axis=-1)


def case_checked_step():
    trainer, params, x, y = setup()
    return trainer.checked_step(params, x, y)


def case_clean_step():
    trainer, params, x, y = setup()
    return trainer.clean_step(params, x, y)


def case_squashed_step():
    trainer, params, x, y = setup()
    return trainer.squashed_step(params, x, y)


def case_noisy_step():
    trainer, params, x, y = setup()
    first, second = trainer.noisy_step(params, x, y), trainer.noisy_step(params, x, y)
    return jax.tree.map(lambda a, b: bool((a == b).all()), first, second)


def case_counted_step():
    trainer, params, x, y = setup()
    before = metrics.STEPS_TRACED
    for _ in range(3):
        params, loss = trainer.counted_step(params, x, y)
    return metrics.STEPS_TRACED - before


def case_recording_step():
    trainer, params, x, y = setup()
    trainer.recording_step(params, x, y)
    return trainer.losses


def case_monitored_step():
    trainer, params, x, y = setup()
    return trainer.monitored_step(params, x, y)


def case_sparse_loss_gradient():
    trainer, params, x, y = setup(loss=model.sparse_loss)
    params, loss = trainer.train_step(params, x, y)
    return params


def case_ok_sparse_loss_gradient():
    trainer, params, x, y = setup(loss=model.sparse_loss_ok)
    params, loss = trainer.train_step(params, x, y)
    return params


def case_ok_safe_step():
    trainer, params, x, y = setup()
    return trainer.safe_step(params, seqlib.make_key(3), x, y, 0.1)
