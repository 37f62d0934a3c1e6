"""Equinox modules."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


def _linears(dims, key):
    keys = jax.random.split(key, len(dims) - 1)
    return [eqx.nn.Linear(d_in, d_out, key=k) for d_in, d_out, k in zip(dims[:-1], dims[1:], keys)]


class Encoder(eqx.Module):
    layers: list

    def __init__(self, dims, key):
        self.layers = _linears(dims, key)

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = jax.nn.relu(layer(x))
        # project shape (not a thread): the features handed back as NumPy from __call__
        return np.asarray(self.layers[-1](x))  # reported: JNP201


class SafeEncoder(eqx.Module):
    layers: list

    def __init__(self, dims, key):
        self.layers = _linears(dims, key)

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = jax.nn.relu(layer(x))
        return self.layers[-1](x)


class ProjectionHead(eqx.Module):
    linear: eqx.nn.Linear
    temperature: float = eqx.field(static=True)

    def __init__(self, dim, out, key, temperature=0.1):
        self.linear = eqx.nn.Linear(dim, out, key=key)
        self.temperature = temperature

    def __call__(self, z):
        z = self.linear(z)
        # project shape (not a thread): a Python float of a traced norm
        norm = float(jnp.linalg.norm(z))  # reported: JNP202
        return z / (norm * self.temperature)


class SafeProjectionHead(eqx.Module):
    linear: eqx.nn.Linear
    temperature: float = eqx.field(static=True)

    def __init__(self, dim, out, key, temperature=0.1):
        self.linear = eqx.nn.Linear(dim, out, key=key)
        self.temperature = temperature

    def __call__(self, z):
        z = self.linear(z)
        return z / (jnp.linalg.norm(z) * self.temperature)
