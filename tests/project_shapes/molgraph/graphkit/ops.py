"""Graph operations: gathers, segment sums and softmax, degrees, edge lengths."""
import jax
import jax.numpy as jnp
import numpy as np


def gather(h, index, check=False):
    if check:
        # project shape (not a thread): bounds-checked gather, as NumPy's take would do it
        return jnp.take(h, index, axis=0, mode="raise")  # reported: JNP503
    return jnp.take(h, index, axis=0)


def aggregate(messages, receivers, num_nodes):
    return jax.ops.segment_sum(messages, receivers, num_segments=num_nodes)


def segment_softmax(logits, segments, num_segments):
    peak = jax.ops.segment_max(logits, segments, num_segments=num_segments)
    e = jnp.exp(logits - peak[segments])
    return e / (jax.ops.segment_sum(e, segments, num_segments=num_segments)[segments] + 1e-9)


def degree(receivers, num_nodes):
    """In-degree of each node, at least one."""
    # project shape (not a thread): a NumPy bincount on the receivers
    return np.maximum(np.bincount(receivers, minlength=num_nodes), 1)  # reported: JNP201


def degree_jax(receivers, num_nodes):
    ones = jnp.ones(receivers.shape[0], jnp.float32)
    return jnp.maximum(jax.ops.segment_sum(ones, receivers, num_segments=num_nodes), 1.0)


def edge_lengths(positions, senders, receivers):
    d2 = jnp.sum((positions[receivers] - positions[senders]) ** 2, -1)
    # project shape (not a thread): the padding self-loops have length zero
    return jnp.where(d2 > 0, jnp.sqrt(d2), 0.0)  # reported: JNP604


def edge_lengths_safe(positions, senders, receivers):
    d2 = jnp.sum((positions[receivers] - positions[senders]) ** 2, -1)
    return jnp.where(d2 > 0, jnp.sqrt(jnp.where(d2 > 0, d2, 1.0)), 0.0)


def radial_basis(lengths, num_rbf, cutoff):
    centres = jnp.linspace(0.0, cutoff, num_rbf)
    envelope = jnp.where(lengths < cutoff, 0.5 * (jnp.cos(jnp.pi * lengths / cutoff) + 1.0), 0.0)
    return jnp.exp(-4.0 * (lengths[:, None] - centres) ** 2) * envelope[:, None]
