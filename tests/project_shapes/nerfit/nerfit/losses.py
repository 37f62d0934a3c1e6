"""Photometric losses looked up by name, and PSNR."""
import jax.numpy as jnp


def mse(pred, target, mask=None):
    return jnp.mean((pred - target) ** 2)


def masked_mse(pred, target, mask):
    """The error on the rays that hit the object only."""
    # project shape (not a thread): the foreground rays picked by a boolean mask inside the jitted step
    return jnp.mean((pred[mask] - target[mask]) ** 2)  # reported: JNP203


def masked_mse_ok(pred, target, mask):
    weights = mask[..., None].astype(pred.dtype)
    return jnp.sum(weights * (pred - target) ** 2) / jnp.maximum(3.0 * jnp.sum(weights), 1.0)


LOSSES = {"mse": mse, "masked": masked_mse, "masked_ok": masked_mse_ok}


def psnr(loss):
    return -10.0 * jnp.log10(loss)


def image_psnr(image, target):
    """PSNR of a rendered image, its error accumulated in double precision."""
    # project shape (not a thread): double precision asked of JAX without x64
    err = jnp.asarray(image, dtype=jnp.float64) - target  # reported: JNP402
    return -10.0 * jnp.log10(jnp.mean(err ** 2))


def image_psnr_ok(image, target):
    return -10.0 * jnp.log10(jnp.mean((jnp.asarray(image, dtype=jnp.float32) - target) ** 2))
