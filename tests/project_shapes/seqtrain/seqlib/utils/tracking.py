"""Logging on the host, and norms the steps can report."""
import jax
import jax.numpy as jnp


def log_scalar(step, name, value):
    line = f"step {step}: {name}={float(value):.4f}"
    print(line)
    return line


def param_norm(params):
    return jnp.sqrt(sum(jnp.sum(p ** 2) for p in jax.tree.leaves(params)))


def trace_norm(params):
    norm = param_norm(params)
    # project shape (not a thread): a debug print in a helper that the Trainer's jitted step calls
    print("param norm", norm)  # reported: JNP301
    return norm


def trace_norm_ok(params):
    norm = param_norm(params)
    jax.debug.print("param norm {}", norm)
    return norm
