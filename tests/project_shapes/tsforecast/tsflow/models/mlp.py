"""A plain-JAX MLP forecaster: the parameters are a list of {"w", "b"} dicts."""
import jax
import jax.numpy as jnp


def init_params(key, sizes):
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        w = jax.random.normal(sub, (fan_in, fan_out)) / jnp.sqrt(fan_in)
        # project shape (not a thread): the bias is drawn from the key the weights were drawn from
        b = 0.1 * jax.random.normal(sub, (fan_out,))  # reported: JNP601
        params.append({"w": w, "b": b})
    return params


def init_params_split(key, sizes):
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        key, w_key, b_key = jax.random.split(key, 3)
        w = jax.random.normal(w_key, (fan_in, fan_out)) / jnp.sqrt(fan_in)
        b = 0.1 * jax.random.normal(b_key, (fan_out,))
        params.append({"w": w, "b": b})
    return params


def apply(params, x, compute_dtype=jnp.bfloat16):
    h = x.astype(compute_dtype)
    first, *rest = params
    # project shape (not a thread): bfloat16 inputs times float32 weights: JAX promotes to float32
    h = jax.nn.relu(h @ first["w"] + first["b"])  # reported: JNP401
    for layer in rest[:-1]:
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
    last = rest[-1]
    return jax.nn.relu(h @ last["w"] + last["b"])


def apply_cast(params, x, compute_dtype=jnp.bfloat16):
    h = x.astype(compute_dtype)
    *hidden, last = params
    for layer in hidden:
        h = jax.nn.relu(h @ layer["w"].astype(compute_dtype) + layer["b"].astype(compute_dtype))
    out = h @ last["w"].astype(compute_dtype) + last["b"].astype(compute_dtype)
    return jax.nn.relu(out).astype(jnp.float32)
