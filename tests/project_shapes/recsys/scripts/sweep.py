"""Sweep the softmax temperature, the samplers and the cut-off k: `python scripts/sweep.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402
import functools  # noqa: E402

import jax.numpy as jnp  # noqa: E402

from reckit import (Batcher, Evaluator, EvaluatorOk, InteractionLog, KeyStream, TrainConfig, TrainerOk,  # noqa: E402
                    build_model, log_popularity, log_popularity_ok, set_temperature)
from reckit.losses import sampled_softmax_ok  # noqa: E402

CFG = TrainConfig(loss="softmax", epochs=1)
TEMPERATURES = (1.0, 0.2, 0.05)


def data(cfg=CFG):
    log = InteractionLog.synthetic(cfg.model.n_users, cfg.model.n_items, seed=cfg.seed)
    train_log, test_users, test_items = log.split_last()
    return train_log, test_users, test_items, Batcher(train_log, cfg.batch_size, cfg.seed)


def sweep_temperature(cfg=CFG):
    """One trainer, its step compiled once, refitted from the same start at every temperature."""
    train_log, users, targets, batches = data(cfg)
    model, results = build_model(cfg.model), {}
    trainer = TrainerOk(cfg, model, log_popularity_ok(train_log.popularity()), cfg.epochs * len(batches))
    evaluator = EvaluatorOk(model, train_log.seen(), cfg.k)
    for t in TEMPERATURES:
        set_temperature(t)
        params = trainer.init(KeyStream(cfg.seed).next()).fit(batches, KeyStream(1).next(), cfg.epochs)
        results[t] = (trainer.history[-1], float(evaluator.evaluate(params, users, targets)["recall"]))
    return results


def sweep_temperature_ok(cfg=CFG):
    train_log, users, targets, batches = data(cfg)
    model, results = build_model(cfg.model), {}
    evaluator = EvaluatorOk(model, train_log.seen(), cfg.k)
    for t in TEMPERATURES:
        trainer = TrainerOk(cfg, model, log_popularity_ok(train_log.popularity()), cfg.epochs * len(batches),
                            loss_fn=functools.partial(sampled_softmax_ok, temperature=t))
        params = trainer.init(KeyStream(cfg.seed).next()).fit(batches, KeyStream(1).next(), cfg.epochs)
        results[t] = (trainer.history[-1], float(evaluator.evaluate(params, users, targets)["recall"]))
    return results


def sweep_samplers(cfg=CFG, popularity=log_popularity):
    train_log, users, targets, batches = data(cfg)
    model, results = build_model(cfg.model), {}
    log_pop = popularity(train_log.popularity())
    evaluator = EvaluatorOk(model, train_log.seen(), cfg.k)
    for name in ("uniform", "popularity", "mixed_ok"):
        run = dataclasses.replace(cfg, loss="bpr", sampler=name)
        trainer = TrainerOk(run, model, log_pop, run.epochs * len(batches)).init(KeyStream(run.seed).next())
        params = trainer.fit(batches, KeyStream(1).next(), run.epochs)
        results[name] = float(evaluator.evaluate(params, users, targets)["ndcg"])
    return results


def sweep_k(cfg=CFG, evaluator_cls=Evaluator):
    train_log, users, targets, batches = data(cfg)
    model = build_model(cfg.model)
    trainer = TrainerOk(dataclasses.replace(cfg, loss="bpr"), model, log_popularity_ok(train_log.popularity()),
                        cfg.epochs * len(batches))
    params = trainer.init(KeyStream(cfg.seed).next()).fit(batches, KeyStream(1).next(), cfg.epochs)
    evaluator, results = evaluator_cls(model, train_log.seen()), {}
    for k in (1, 5, 20):
        # project shape (not a thread): k changed on the evaluator whose jitted method holds it as a static self
        evaluator.k = k  # reported: JNP306
        results[k] = {name: float(v) for name, v in evaluator.evaluate(params, users, targets).items()}
    return results


def case_sweep_temperature():
    return sweep_temperature()


def case_sweep_samplers():
    return sweep_samplers()


def case_sweep_k():
    return sweep_k()


def case_ok_sweep_temperature():
    return sweep_temperature_ok()


def case_ok_sweep_samplers():
    return sweep_samplers(popularity=log_popularity_ok)


def case_ok_sweep_k():
    return sweep_k(evaluator_cls=EvaluatorOk)


if __name__ == "__main__":
    for name, result in (("temperature", sweep_temperature_ok()), ("sampler", sweep_samplers(popularity=log_popularity_ok)),
                         ("k", sweep_k(evaluator_cls=EvaluatorOk))):
        print(name, result)
    print("mean ndcg", float(jnp.mean(jnp.asarray(list(sweep_samplers(popularity=log_popularity_ok).values())))))
