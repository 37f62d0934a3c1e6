"""The model: parameters and the forward pass."""
import jax
import jax.numpy as jnp


def init_params(key, n_in, n_out, dtype=jnp.float32):
    k1, k2 = jax.random.split(key)
    return {"w": jax.random.normal(k1, (n_in, n_out), dtype) * 0.1, "b": jnp.zeros(n_out, dtype)}


def wide_params(key, n_in, n_out, dtype=jnp.float64):
    w = jax.random.normal(key, (n_in, n_out)) * 0.1
    # project shape (not a thread): a float64 default that train.py keeps, without x64 enabled
    return {"w": w, "b": jnp.zeros(n_out, dtype)}  # reported: JNP402


def normalize(x):
    # project shape (not a thread): a check for constant features, reached from steps.train_step
    # through losses.mse (three modules)
    if x.std() == 0:  # reported: JNP202
        return x
    return (x - x.mean()) / x.std()


def normalize_ok(x):
    return (x - x.mean()) / jnp.maximum(x.std(), 1e-6)


def forward(params, x):
    return x @ params["w"] + params["b"]


def debug_forward(params, x):
    out = forward(params, x)
    # project shape (not a thread): a debug print left in a helper of a jitted step
    print("outputs", out)  # reported: JNP301
    return out


def dropout(key, x, rate=0.1):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def predict_scaled(params, x, scale):
    # project shape (not a thread): a jitted lambda made on every call; eval.py calls this per batch
    return jax.jit(lambda p, v: forward(p, v) * scale)(params, x)  # reported: JNP602


_predict = jax.jit(forward)


def predict_scaled_ok(params, x, scale):
    return _predict(params, x) * scale
