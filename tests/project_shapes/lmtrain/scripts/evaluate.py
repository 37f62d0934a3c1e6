"""Evaluate a checkpoint: per-token losses, perplexity, a reload: `python scripts/evaluate.py`."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from lmkit import TrainConfig, Trainer, build_model, split_corpus, with_size, write_corpus  # noqa: E402
from lmkit import checkpoint  # noqa: E402
from lmkit.evaluation import TokenStats, TokenStatsOk, make_metrics_step, make_metrics_step_ok  # noqa: E402

CFG = with_size(TrainConfig(), "nano")


def setup(cfg=CFG):
    corpus = write_corpus(cfg.corpus_tokens, cfg.model.vocab_size, seed=cfg.seed)
    train_data, valid_data = split_corpus(corpus, cfg.model.seq_len)
    trainer = Trainer(build_model(cfg.model, jax.random.key(cfg.seed)), cfg)
    params, _ = trainer.init()
    return trainer, params, valid_data


def token_stats(stats_class):
    trainer, params, valid_data = setup()
    stats = stats_class(trainer.static, valid_data, CFG.batch_size, CFG.eval_batches)
    return jnp.concatenate(stats.all_token_losses(params))


def metrics(make_step):
    trainer, params, valid_data = setup()
    step = make_step(trainer.eval_step)
    return [step(params, x, y) for x, y in valid_data.eval_batches(CFG.batch_size, CFG.eval_batches)]


def reload(load_fn):
    trainer, params, valid_data = setup()
    path = os.path.join(tempfile.mkdtemp(prefix="lmkit-ckpt-"), "ckpt.npz")
    checkpoint.save(path, params, step=3)
    restored, step = load_fn(path, params)
    return jax.tree.map(lambda a, b: jnp.max(jnp.abs(a - b)), params, restored), step


def case_token_stats():
    return token_stats(TokenStats)


def case_ok_token_stats_closure():
    return token_stats(TokenStatsOk)


def case_perplexity():
    return metrics(make_metrics_step)


def case_ok_perplexity_jnp():
    return metrics(make_metrics_step_ok)


def case_reload_tree_map():
    return reload(checkpoint.load_to_device)


def case_ok_reload():
    return reload(checkpoint.load_to_device_ok)


if __name__ == "__main__":
    print(metrics(make_metrics_step_ok))
