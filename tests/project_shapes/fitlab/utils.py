"""Small helpers; losses.py takes them all with a star import."""
import jax.numpy as jnp
import numpy as np

__all__ = ["safe_log", "clip_by", "as_float", "log_metric", "accuracy", "one_hot", "count_call", "record"]

CALLS = 0
HISTORY = []


def safe_log(x):
    # project shape (not a thread): a guard written for NumPy inputs, reached from a jitted step
    if x.min() <= 0:  # reported: JNP202
        x = x + 1e-6
    return jnp.log(x)


def clip_by(g, limit):
    # project shape (not a thread): a NumPy clip on gradients, called only from traced code
    return np.clip(g, -limit, limit)  # reported: JNP201


def clip_by_jnp(g, limit):
    return jnp.clip(g, -limit, limit)


def as_float(x):
    return float(x)


def log_metric(name, value):
    print(name, value)


def accuracy(pred, labels):
    return (pred.argmax(-1) == labels).mean().item()


def one_hot(labels, n):
    return jnp.eye(n)[labels]


def count_call(x):
    # project shape (not a thread): a call counter bumped from traced code (runs once per trace)
    global CALLS
    CALLS = CALLS + 1  # reported: JNP302
    return x


def record(x):
    # project shape (not a thread): a history list filled from traced code (once per trace, with a tracer)
    HISTORY.append(x)  # reported: JNP303
    return x


def augment(x):
    # project shape (not a thread): host randomness in a helper of a jitted step: drawn once, at trace time
    return x + np.random.normal(0.0, 0.01, size=x.shape).astype(np.float32)  # reported: JNP305
