"""Sweep the z-loss coefficient with one trainer: `python scripts/sweep.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from lmkit import TrainConfig, Trainer, build_model, split_corpus, with_size, write_corpus  # noqa: E402
from lmkit import losses  # noqa: E402
from lmkit.evaluation import validation_loss_stacked  # noqa: E402

CFG = dataclasses.replace(with_size(TrainConfig(), "nano"), loss="token_mean_z", steps=4)


def sweep_z_loss(coefs=(0.0, 1e-2, 1.0), cfg=CFG):
    corpus = write_corpus(cfg.corpus_tokens, cfg.model.vocab_size, seed=cfg.seed)
    train_data, valid_data = split_corpus(corpus, cfg.model.seq_len)
    trainer = Trainer(build_model(cfg.model, jax.random.key(cfg.seed)), cfg, donate=False)
    results = {}
    for coef in coefs:
        losses.set_z_loss(coef)
        params, opt_state = trainer.init()
        rng, key = np.random.default_rng(cfg.seed), jax.random.key(cfg.seed)
        for _ in range(cfg.steps):
            x, y = train_data.get_batch(rng, cfg.batch_size)
            key, sub = jax.random.split(key)
            params, opt_state, metrics = trainer.step(params, opt_state, x, y, sub)
        results[coef] = validation_loss_stacked(trainer.eval_step, params,
                                                valid_data.eval_batches(cfg.batch_size, cfg.eval_batches))
    return {coef: float(v) for coef, v in results.items()}


def case_sweep_z_loss():
    return sweep_z_loss()


def case_ok_sweep_token_mean():
    return sweep_z_loss(cfg=dataclasses.replace(CFG, loss="token_mean"))


if __name__ == "__main__":
    print(sweep_z_loss())
