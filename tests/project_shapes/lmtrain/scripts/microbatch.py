"""Gradient accumulation with a micro-batch count chosen per step: `python scripts/microbatch.py`."""
import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import equinox as eqx  # noqa: E402
import jax  # noqa: E402
import numpy as np  # noqa: E402

from lmkit import TrainConfig, build_model, split_corpus, with_size, write_corpus  # noqa: E402
from lmkit.losses import token_mean  # noqa: E402
from lmkit.schedule import make_optimizer  # noqa: E402
from lmkit.trainer import microbatch_step, microbatch_step_static  # noqa: E402

CFG = with_size(TrainConfig(), "nano")


def params_loss(static, params, x, y, key):
    return token_mean(eqx.combine(params, static), x, y, key)


def run(step_fn, n_micro=2, max_micro=4, steps=3, cfg=CFG):
    corpus = write_corpus(cfg.corpus_tokens, cfg.model.vocab_size, seed=cfg.seed)
    train_data, _ = split_corpus(corpus, cfg.model.seq_len)
    params, static = eqx.partition(build_model(cfg.model, jax.random.key(0)), eqx.is_inexact_array)
    tx = make_optimizer(cfg.optim)
    opt_state = tx.init(params)
    loss_fn = functools.partial(params_loss, static)
    rng, key, losses = np.random.default_rng(0), jax.random.key(1), []
    for _ in range(steps):
        batches = [train_data.get_batch(rng, cfg.batch_size // max_micro) for _ in range(max_micro)]
        xs, ys = np.stack([b[0] for b in batches]), np.stack([b[1] for b in batches])
        key, sub = jax.random.split(key)
        params, opt_state, loss = step_fn(params, opt_state, xs, ys, sub, n_micro, loss_fn, tx)
        losses.append(loss)
    return losses


def case_traced_micro_count():
    return run(microbatch_step)


def case_ok_static_micro_count():
    return run(microbatch_step_static)


if __name__ == "__main__":
    print(run(microbatch_step_static))
