"""The Fourier neural operator: lift, Fourier layers with activations looked up by name, project."""
import jax
import jax.numpy as jnp

from .spectral import spectral_conv, spectral_conv_ok


def gelu(x):
    return jax.nn.gelu(x)


def gelu_checked(x):
    """GELU that stops a diverging run early."""
    # project shape (not a thread): a Python check on a traced value of the forward pass
    if jnp.max(jnp.abs(x)) > 1e4:  # reported: JNP202
        raise FloatingPointError("activations diverged")
    return jax.nn.gelu(x)


ACTIVATIONS = {"gelu": gelu, "gelu_checked": gelu_checked, "tanh": jnp.tanh}


def dense(p, x):
    return x @ p["w"] + p["b"]


def make_grid(n):
    """Grid coordinates in double precision, as the reference solver has them."""
    # project shape (not a thread): a float64 grid asked of JAX without x64
    return jnp.linspace(0.0, 1.0, n, endpoint=False, dtype=jnp.float64)  # reported: JNP402


def make_grid_half(n):
    return jnp.linspace(0.0, 1.0, n, endpoint=False, dtype=jnp.float16)


class FNO:
    """Binds a ModelConfig to the forward pass; parameters are passed to apply."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.act = ACTIVATIONS[cfg.activation]

    def features(self, u, grid):
        """(batch, n) field and (n,) grid -> (batch, n, 2)."""
        # project shape (not a thread): a half-precision grid joined to the float32 field
        return jnp.stack([u, jnp.broadcast_to(grid, u.shape)], axis=-1)  # reported: JNP401

    def apply(self, params, u, grid):
        h = dense(params["lift"], self.features(u, grid))           # (batch, n, width)
        for layer in params["layers"]:
            spec = spectral_conv(layer["spectral"], h.transpose(0, 2, 1), self.cfg.modes, self.cfg.filter,
                                 self.cfg.debug).transpose(0, 2, 1)
            h = self.act(spec + dense(layer["pointwise"], h))
        return dense(params["proj"], h)[..., 0]


class FNOOk(FNO):
    def features(self, u, grid):
        return jnp.stack([u, jnp.broadcast_to(grid.astype(u.dtype), u.shape)], axis=-1)

    def apply(self, params, u, grid):
        h = dense(params["lift"], self.features(u, grid))
        for layer in params["layers"]:
            spec = spectral_conv_ok(layer["spectral"], h.transpose(0, 2, 1), self.cfg.modes,
                                    self.cfg.filter).transpose(0, 2, 1)
            h = self.act(spec + dense(layer["pointwise"], h))
        return dense(params["proj"], h)[..., 0]
