"""Evaluate a trained operator on the test set and at finer resolutions: `python scripts/evaluate.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from opkit import (FNOOk, Evaluator, EvaluatorOk, KeyStream, PDEDataset, TrainConfig, init_fno_ok,  # noqa: E402
                   make_grid, summary, summary_ok)
from opkit import metrics  # noqa: E402

CFG = TrainConfig()


def setup(cfg=CFG):
    model = FNOOk(cfg.model)
    keys = KeyStream(cfg.seed)
    return model, init_fno_ok(keys.next(), cfg.model), PDEDataset(cfg.data, "test"), keys


def predict_each(cfg=CFG):
    model, params, test, _ = setup(cfg)
    predict = jax.jit(model.apply)
    grid = jnp.asarray(test.grid, jnp.float32)
    preds = []
    for i in range(len(test.inputs)):
        u = jnp.asarray(test.inputs[i:i + 1], jnp.float32)
        # project shape (not a thread): every prediction copied to the host inside the loop
        preds.append(np.asarray(predict(params, u, grid)))  # reported: JNP101
    return np.concatenate(preds)


def predict_each_ok(cfg=CFG):
    model, params, test, _ = setup(cfg)
    predict = jax.jit(model.apply)
    grid = jnp.asarray(test.grid, jnp.float32)
    preds = [predict(params, jnp.asarray(test.inputs[i:i + 1], jnp.float32), grid) for i in range(len(test.inputs))]
    return np.asarray(jnp.concatenate(preds))


def super_resolution(cfg=CFG, factors=(1, 2, 4)):
    """The same parameters evaluated on finer grids: an operator is resolution-free."""
    model, params, _, _ = setup(cfg)
    errors = []
    for factor in factors:
        data = PDEDataset(dataclasses.replace(cfg.data, n_grid=cfg.data.n_grid * factor), "test")
        grid = jnp.asarray(data.grid, jnp.float32)
        # project shape (not a thread): a fresh jitted function made for every resolution's closure
        pred = jax.jit(lambda u: model.apply(params, u, grid))(data.inputs.astype(np.float32))  # reported: JNP602
        errors.append(summary_ok(pred, jnp.asarray(data.targets, jnp.float32))["mean"])
    return jnp.stack(errors)


def super_resolution_ok(cfg=CFG, factors=(1, 2, 4)):
    model, params, _, _ = setup(cfg)
    predict = jax.jit(model.apply)
    errors = []
    for factor in factors:
        data = PDEDataset(dataclasses.replace(cfg.data, n_grid=cfg.data.n_grid * factor), "test")
        pred = predict(params, data.inputs.astype(np.float32), jnp.asarray(data.grid, jnp.float32))
        errors.append(summary_ok(pred, jnp.asarray(data.targets, jnp.float32))["mean"])
    return jnp.stack(errors)


def full_batch(cfg=CFG):
    model, params, test, _ = setup(cfg)
    # project shape (not a thread): the float64 test fields handed to JAX, which narrows them
    u = jnp.asarray(test.inputs)  # reported: JNP403
    return model.apply(params, u, make_grid(cfg.data.n_grid))


def full_batch_ok(cfg=CFG):
    model, params, test, _ = setup(cfg)
    u = jnp.asarray(test.inputs.astype(np.float32))
    return model.apply(params, u, jnp.asarray(test.grid, jnp.float32))


def case_predict_each():
    return predict_each()


def case_super_resolution():
    return super_resolution()


def case_full_batch():
    return full_batch()


def case_summary():
    model, params, test, _ = setup()
    pred = model.apply(params, jnp.asarray(test.inputs, jnp.float32), jnp.asarray(test.grid, jnp.float32))
    return summary(pred, jnp.asarray(test.targets, jnp.float32))


def case_worst_cases():
    return metrics.worst_cases(jnp.array([0.3, 0.1, 0.5, 0.2]))


def case_energy():
    _, _, test, _ = setup()
    return metrics.energy(jnp.asarray(test.inputs, jnp.float32), jnp.asarray(test.grid, jnp.float32))


def case_perturb():
    _, _, test, _ = setup()
    return metrics.perturb(jnp.asarray(test.inputs, jnp.float32), 0.01)


def case_evaluator():
    model, params, test, _ = setup()
    grid = jnp.asarray(test.grid, jnp.float32)
    return Evaluator(model, grid).score(params, jnp.asarray(test.inputs, jnp.float32),
                                        jnp.asarray(test.targets, jnp.float32))


def case_ok_predict_each():
    return predict_each_ok()


def case_ok_super_resolution():
    return super_resolution_ok()


def case_ok_full_batch():
    return full_batch_ok()


def case_ok_metrics():
    model, params, test, keys = setup()
    u, y = jnp.asarray(test.inputs, jnp.float32), jnp.asarray(test.targets, jnp.float32)
    grid = jnp.asarray(test.grid, jnp.float32)
    pred = model.apply(params, u, grid)
    return (summary_ok(pred, y), metrics.worst_cases_ok(metrics.relative_errors(pred, y)), metrics.energy_ok(u, grid),
            metrics.perturb_ok(u, 0.01, keys.next()), EvaluatorOk(model, grid).score(params, u, y))


if __name__ == "__main__":
    print(jax.device_get(super_resolution_ok()))
