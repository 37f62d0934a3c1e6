"""Train a recommender on the toy log: `python scripts/train.py [mf|two_tower]`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402

from reckit import (SAMPLERS, Batcher, InteractionLog, KeyStream, ModelConfig, TrainConfig, Trainer,  # noqa: E402
                    TrainerChecked, TrainerCheckedOk, TrainerOk, build_model, log_popularity_ok, make_optimizer,
                    make_train_step, make_train_step_ok, sparse_sgd, sparse_sgd_ok)
from reckit.embeddings import normalize_rows_ok  # noqa: E402
from reckit.losses import bpr  # noqa: E402

CFG = TrainConfig()
COSINE = dataclasses.replace(CFG, model=ModelConfig(cosine=True), donate=False)


def setup(cfg=CFG):
    log = InteractionLog.synthetic(cfg.model.n_users, cfg.model.n_items, seed=cfg.seed)
    train_log, test_users, test_items = log.split_last()
    log_pop = log_popularity_ok(train_log.popularity())
    return train_log, log_pop, Batcher(train_log, cfg.batch_size, cfg.seed), KeyStream(cfg.seed)


def train(cfg=CFG, cls=TrainerOk, **model_kwargs):
    _, log_pop, batches, keys = setup(cfg)
    trainer = cls(cfg, build_model(cfg.model, **model_kwargs), log_pop, cfg.epochs * len(batches))
    trainer.init(keys.next()).fit(batches, keys.next(), cfg.epochs)
    return trainer


def train_functional(cfg=CFG, full_catalogue=False, **model_kwargs):
    """The loop written out: sampling on the host side of the step, a step factory, a log line per step."""
    _, log_pop, batches, keys = setup(cfg)
    model = build_model(cfg.model, **model_kwargs)
    tx = make_optimizer(cfg.opt, cfg.epochs * len(batches))
    step = make_train_step(model, cfg.loss, tx, cfg.donate, full_catalogue)
    params = model.init(keys.next())
    opt_state, key, sampler = tx.init(params), keys.next(), SAMPLERS[cfg.sampler]
    losses = []
    for epoch in range(cfg.epochs):
        for i, batch in enumerate(batches):
            # project shape (not a thread): the loop's key never split, so every step trains on the same negatives
            negs = sampler(key, batch["user"], log_pop, cfg.n_negatives)  # reported: JNP601
            params, opt_state, loss = step(params, opt_state, batch, negs)
            # project shape (not a thread): the device loss formatted on every step
            print(f"epoch {epoch} step {i:3d} loss {loss:.4f}")  # reported: JNP103
            losses.append(loss)
    return params, jnp.stack(losses)


def train_functional_ok(cfg=CFG, full_catalogue=False, **model_kwargs):
    _, log_pop, batches, keys = setup(cfg)
    model = build_model(cfg.model, **model_kwargs)
    tx = make_optimizer(cfg.opt, cfg.epochs * len(batches))
    step = make_train_step_ok(model, cfg.loss, tx, cfg.donate, full_catalogue)
    params = model.init(keys.next())
    opt_state, sampler = tx.init(params), SAMPLERS[cfg.sampler]
    losses = []
    for epoch in range(cfg.epochs):
        for batch in batches:
            negs = sampler(keys.next(), batch["user"], log_pop, cfg.n_negatives)
            params, opt_state, (loss, _) = step(params, opt_state, batch, negs)
            losses.append(loss)
        print(f"epoch {epoch} loss {float(jnp.mean(jnp.stack(losses[-len(batches):]))):.4f}")
    return params, jnp.stack(losses)


def train_tracked(cfg=CFG):
    """Records the size of every update, to watch the warmup."""
    _, log_pop, batches, keys = setup(cfg)
    model = build_model(cfg.model)
    tx = make_optimizer(cfg.opt, len(batches))
    step = make_train_step_ok(model, cfg.loss, tx, cfg.donate)
    params = model.init(keys.next())
    opt_state, sizes = tx.init(params), []
    for batch in batches:
        negs = SAMPLERS[cfg.sampler](keys.next(), batch["user"], log_pop, cfg.n_negatives)
        new_params, opt_state, (loss, _) = step(params, opt_state, batch, negs)
        # project shape (not a thread): the update measured against the parameters the step donated
        sizes.append(optax.tree.norm(jax.tree_util.tree_map(jnp.subtract, new_params, params)))  # reported: JNP605
        params = new_params
    return params, jnp.stack(sizes)


def train_tracked_ok(cfg=CFG):
    _, log_pop, batches, keys = setup(cfg)
    model = build_model(cfg.model)
    tx = make_optimizer(cfg.opt, len(batches))
    step = make_train_step_ok(model, cfg.loss, tx, donate=False)
    params = model.init(keys.next())
    opt_state, sizes = tx.init(params), []
    for batch in batches:
        negs = SAMPLERS[cfg.sampler](keys.next(), batch["user"], log_pop, cfg.n_negatives)
        new_params, opt_state, (loss, _) = step(params, opt_state, batch, negs)
        sizes.append(optax.tree.norm(jax.tree_util.tree_map(jnp.subtract, new_params, params)))
        params = new_params
    return params, jnp.stack(sizes)


def train_sparse(cfg=CFG, update=sparse_sgd, lr=0.5):
    """Matrix factorisation by hand: BPR gradients of the rows a batch touches, applied row by row."""
    _, log_pop, batches, keys = setup(cfg)
    params = build_model(cfg.model).init(keys.next())

    def loss_rows(u, v_pos, v_neg):
        return bpr(jnp.sum(u * v_pos, -1), jnp.sum(u[:, None] * v_neg, -1))

    grad_rows = jax.jit(jax.grad(loss_rows, argnums=(0, 1, 2)))
    for batch in batches:
        negs = SAMPLERS["uniform"](keys.next(), batch["user"], log_pop, cfg.n_negatives)
        U, V = params["user"], params["item"]
        g_user, g_pos, g_neg = grad_rows(U[batch["user"]], V[batch["pos"]], V[negs])
        params["user"] = update(U, batch["user"], g_user, lr)
        params["item"] = update(update(V, batch["pos"], g_pos, lr), negs.reshape(-1), g_neg.reshape(-1, cfg.model.dim), lr)
    return params


def case_train_running_mean():
    return train(cls=Trainer).history


def case_train_checked():
    return train(cls=TrainerChecked).history


def case_train_bpr_logaddexp():
    return train(dataclasses.replace(CFG, loss="bpr_logaddexp")).history


def case_train_bce():
    return train(dataclasses.replace(CFG, loss="bce")).history


def case_train_host_sampler():
    return train(dataclasses.replace(CFG, sampler="host")).history


def case_train_mixed_sampler():
    return train(dataclasses.replace(CFG, sampler="mixed")).history


def case_train_two_tower_debug():
    return train(dataclasses.replace(CFG, model=ModelConfig(name="two_tower"), epochs=1), debug=True).history


def case_train_functional():
    return train_functional()[1]


def case_train_cosine_full_catalogue():
    return train_functional(COSINE, full_catalogue=True)[1]


def case_train_tracked():
    return train_tracked()[1]


def case_train_sparse():
    return train_sparse()


def case_ok_train_running_mean():
    return train().history


def case_ok_train_checked():
    return train(cls=TrainerCheckedOk).history


def case_ok_train_bpr_logaddexp():
    return train(dataclasses.replace(CFG, loss="bpr_logaddexp_ok")).history


def case_ok_train_bce():
    return train(dataclasses.replace(CFG, loss="bce_ok")).history


def case_ok_train_popularity_sampler():
    return train(dataclasses.replace(CFG, sampler="popularity")).history


def case_ok_train_mixed_sampler():
    return train(dataclasses.replace(CFG, sampler="mixed_ok")).history


def case_ok_train_two_tower_debug():
    from reckit import models
    return train(dataclasses.replace(CFG, model=ModelConfig(name="two_tower"), epochs=1), debug=True,
                 net_cls=models.TwoTowerNetOk).history


def case_ok_train_functional():
    return train_functional_ok()[1]


def case_ok_train_cosine_full_catalogue():
    return train_functional_ok(COSINE, full_catalogue=True, normalize=normalize_rows_ok)[1]


def case_ok_train_tracked():
    return train_tracked_ok()[1]


def case_ok_train_sparse():
    return train_sparse(update=sparse_sgd_ok)


if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "mf"
    trainer = train(dataclasses.replace(CFG, model=ModelConfig(name=name), epochs=5))
    print("loss per epoch", np.round(trainer.history, 4).tolist())
