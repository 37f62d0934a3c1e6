"""Evaluate a briefly trained recommender on the held-out items: `python scripts/evaluate.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from reckit import (Batcher, Evaluator, EvaluatorOk, InteractionLog, KeyStream, Recommender, RecommenderOk,  # noqa: E402
                    TrainConfig, TrainerOk, build_model, item_matrix, item_matrix_ok, log_popularity_ok,
                    lookup_checked, lookup_checked_ok, recommend, recommend_ok, retrieve, top_items, top_items_ok,
                    unseen_candidates, unseen_candidates_ok)

CFG = TrainConfig(epochs=1)


def trained(cfg=CFG):
    log = InteractionLog.synthetic(cfg.model.n_users, cfg.model.n_items, seed=cfg.seed)
    train_log, test_users, test_items = log.split_last()
    model, keys = build_model(cfg.model), KeyStream(cfg.seed)
    batches = Batcher(train_log, cfg.batch_size, cfg.seed)
    trainer = TrainerOk(cfg, model, log_popularity_ok(train_log.popularity()), cfg.epochs * len(batches))
    params = trainer.init(keys.next()).fit(batches, keys.next(), cfg.epochs)
    return model, params, train_log, test_users, test_items


def user_batches(users, targets, size=16):
    for start in range(0, len(users) - size + 1, size):
        yield users[start:start + size], targets[start:start + size]


def evaluate_loop(cfg=CFG):
    """Recall at k and the recommended lists, batch by batch."""
    model, params, train_log, users, targets = trained(cfg)
    seen = train_log.seen()
    hits, lists = 0, []
    for u, t in user_batches(users, targets):
        # project shape (not a thread): a scorer closing over the parameters, jitted anew for every batch
        scores = jax.jit(lambda batch_users: model.score_all(params, batch_users))(u)  # reported: JNP602
        top = top_items_ok(jnp.where(jnp.asarray(seen[u]), -jnp.inf, scores), cfg.k)
        # project shape (not a thread): the batch's hit count read back on every batch
        hits += int(jnp.sum(jnp.any(top == t[:, None], axis=1)))  # reported: JNP102
        # project shape (not a thread): every batch's recommendations copied to the host on their own
        lists.append(np.asarray(top))  # reported: JNP101
    return hits / len(users), np.concatenate(lists)


def evaluate_loop_ok(cfg=CFG):
    model, params, train_log, users, targets = trained(cfg)
    seen = jnp.asarray(train_log.seen())
    hits, lists = 0, []
    for u, t in user_batches(users, targets):
        scores = model.score_all(params, u)
        top = top_items_ok(jnp.where(seen[u], -jnp.inf, scores), cfg.k)
        hits = hits + jnp.sum(jnp.any(top == t[:, None], axis=1))
        lists.append(top)
    return int(hits) / len(users), np.asarray(jnp.concatenate(lists))


def candidate_scores(cfg=CFG):
    """Scores of every real item (the padding item left out) for each batch of users."""
    model, params, _, users, targets = trained(cfg)
    score = jax.jit(model.score)
    candidates = np.arange(1, cfg.model.n_items)[None, :]
    out = []
    for u, _ in user_batches(users, targets):
        # project shape (not a thread): the same NumPy candidate ids uploaded for every batch
        out.append(score(params, u[:, None], candidates))  # reported: JNP104
    return jnp.concatenate(out)


def candidate_scores_ok(cfg=CFG):
    model, params, _, users, targets = trained(cfg)
    score = jax.jit(model.score)
    candidates = jnp.arange(1, cfg.model.n_items)[None, :]
    return jnp.concatenate([score(params, u[:, None], candidates) for u, _ in user_batches(users, targets)])


def metric_means(cfg=CFG, evaluator_cls=Evaluator, metrics=("recall", "ndcg", "mrr")):
    model, params, train_log, users, targets = trained(cfg)
    evaluator = evaluator_cls(model, train_log.seen(), cfg.k, metrics)
    per_batch = {name: [] for name in metrics}
    for u, t in user_batches(users, targets):
        for name, value in evaluator.evaluate_batch(params, u, t).items():
            per_batch[name].append(value)
    return per_batch


def mean_of_batches(cfg=CFG):
    # project shape (not a thread): jnp.mean of the Python list of per-batch values
    return {name: jnp.mean(values) for name, values in metric_means(cfg).items()}  # reported: JNP505


def mean_of_batches_ok(cfg=CFG):
    return {name: jnp.mean(jnp.stack(values)) for name, values in metric_means(cfg).items()}


def case_evaluate_loop():
    return evaluate_loop()


def case_candidate_scores():
    return candidate_scores()


def case_mean_of_batches():
    return mean_of_batches()


def case_hit_users():
    return metric_means(metrics=("recall", "hits"))


def case_recommend():
    model, params, train_log, users, _ = trained()
    return recommend(model, params, users[:8], train_log.seen(), CFG.k)


def case_recommender():
    model, params, train_log, users, _ = trained()
    return Recommender(model, train_log.seen(), CFG.k).recommend(params, users[:8])


def case_top_items():
    model, params, _, users, _ = trained()
    return top_items(model.score_all(params, users[:8]), k=CFG.k)


def case_lookup_checked():
    model, params, _, users, _ = trained()
    return lookup_checked(params["user"], jnp.asarray(users[:8]))


def case_unseen_candidates():
    _, _, train_log, users, _ = trained()
    return unseen_candidates(jnp.arange(CFG.model.n_items), jnp.asarray(train_log.items[train_log.users == users[0]]))


def case_retrieve_cached():
    model, params, _, users, _ = trained()
    item_matrix(params)
    return retrieve(params["user"][users[:8]], CFG.k)


def case_ok_evaluate_loop():
    return evaluate_loop_ok()


def case_ok_candidate_scores():
    return candidate_scores_ok()


def case_ok_mean_of_batches():
    return mean_of_batches_ok()


def case_ok_hit_users():
    return metric_means(metrics=("recall", "hits_ok"))


def case_ok_evaluator():
    return metric_means(evaluator_cls=EvaluatorOk)


def case_ok_recommend():
    model, params, train_log, users, _ = trained()
    return recommend_ok(model, params, users[:8], train_log.seen(), CFG.k)


def case_ok_recommender():
    model, params, train_log, users, _ = trained()
    return RecommenderOk(model, train_log.seen(), CFG.k).recommend(params, users[:8])


def case_ok_top_items():
    model, params, _, users, _ = trained()
    return top_items_ok(model.score_all(params, users[:8]), k=CFG.k)


def case_ok_lookup_checked():
    model, params, _, users, _ = trained()
    return lookup_checked_ok(params["user"], jnp.asarray(users[:8]))


def case_ok_unseen_candidates():
    _, _, train_log, users, _ = trained()
    return unseen_candidates_ok(jnp.arange(CFG.model.n_items), jnp.asarray(train_log.items[train_log.users == users[0]]))


def case_ok_retrieve_cached():
    model, params, _, users, _ = trained()
    items = item_matrix_ok(params)
    return jax.lax.top_k(params["user"][users[:8]] @ items.T, CFG.k)[1]


if __name__ == "__main__":
    recall, lists = evaluate_loop_ok()
    # project shape (not a thread): each metric's mean read back on its own for the report
    print(f"recall@{CFG.k} {recall:.3f}", {k: float(v) for k, v in mean_of_batches_ok().items()})  # reported: JNP102
