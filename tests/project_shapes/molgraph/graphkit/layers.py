"""Message-passing layers on a padded `Graph`; parameters are dicts of arrays."""
import math

import jax
import jax.numpy as jnp

from . import ops

LAST_ATTENTION = None


def dense_init(key, n_in, n_out):
    return {"w": jax.random.normal(key, (n_in, n_out)) / math.sqrt(n_in), "b": jnp.zeros(n_out)}


def dense(p, x):
    return x @ p["w"] + p["b"]


def init_layer(key, cfg):
    k1, k2, k3, k4 = jax.random.split(key, 4)
    h = cfg.hidden
    return {"filter": dense_init(k1, cfg.num_rbf, h), "update": dense_init(k2, h, h),
            "query": dense_init(k3, h, h), "key": dense_init(k4, h, h)}


def drop_edges(key, messages, rate):
    keep = jax.random.bernoulli(key, 1.0 - rate, (messages.shape[0], 1))
    return jnp.where(keep, messages / (1.0 - rate), 0.0)


def interaction(p, h, rbf, graph, cfg, key=None):
    """A continuous-filter convolution: neighbours' features times a filter of the distance."""
    messages = ops.gather(h, graph.senders, cfg.check_indices) * jax.nn.silu(dense(p["filter"], rbf))
    if key is not None and cfg.edge_dropout:
        messages = drop_edges(key, messages, cfg.edge_dropout)
    agg = ops.aggregate(messages, graph.receivers, h.shape[0])
    if cfg.degree_norm:
        agg = agg / ops.degree(graph.receivers, h.shape[0])[:, None]
    return h + jax.nn.silu(dense(p["update"], agg))


def attention(p, h, rbf, graph, cfg, key=None):
    """Neighbours weighted by a softmax over each node's incoming edges."""
    global LAST_ATTENTION
    logits = jnp.sum(dense(p["query"], h)[graph.receivers] * dense(p["key"], h)[graph.senders], -1)
    weights = ops.segment_softmax(logits / math.sqrt(h.shape[-1]), graph.receivers, h.shape[0])
    # project shape (not a thread): the attention weights kept for a plot
    LAST_ATTENTION = weights  # reported: JNP302
    messages = weights[:, None] * h[graph.senders] * jax.nn.silu(dense(p["filter"], rbf))
    agg = ops.aggregate(messages, graph.receivers, h.shape[0])
    return h + jax.nn.silu(dense(p["update"], agg))


def attention_weights(p, h, graph):
    logits = jnp.sum(dense(p["query"], h)[graph.receivers] * dense(p["key"], h)[graph.senders], -1)
    return ops.segment_softmax(logits / math.sqrt(h.shape[-1]), graph.receivers, h.shape[0])


LAYERS = {"schnet": interaction, "attention": attention}
