"""Parameters of the operator: a lifting, Fourier layers and a projection, as dicts."""
import jax
import jax.numpy as jnp


def init_dense(key, n_in, n_out):
    return {"w": jax.random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in), "b": jnp.zeros(n_out)}


def init_spectral(key, width, modes):
    k_re, k_im = jax.random.split(key)
    scale = 1.0 / (width * width)
    return scale * (jax.random.normal(k_re, (width, width, modes))
                    + 1j * jax.random.normal(k_im, (width, width, modes)))


def init_fno(key, cfg):
    """cfg: a ModelConfig. The input has two channels, the field and the grid."""
    k_lift, k_proj, *k_layers = jax.random.split(key, 2 + cfg.n_layers)
    # project shape (not a thread): each layer's key drawn from twice, so both weights share their bits
    # (marked JNP601 as written; init_spectral splits the key and init_dense draws from it: JNP606's, off by default)
    layers = [{"spectral": init_spectral(k, cfg.width, cfg.modes), "pointwise": init_dense(k, cfg.width, cfg.width)}  # reported: JNP606
              for k in k_layers]
    return {"lift": init_dense(k_lift, 2, cfg.width), "layers": layers, "proj": init_dense(k_proj, cfg.width, 1)}


def init_fno_ok(key, cfg):
    k_lift, k_proj, *k_layers = jax.random.split(key, 2 + cfg.n_layers)
    layers = []
    for k in k_layers:
        k_spec, k_point = jax.random.split(k)
        layers.append({"spectral": init_spectral(k_spec, cfg.width, cfg.modes),
                       "pointwise": init_dense(k_point, cfg.width, cfg.width)})
    return {"lift": init_dense(k_lift, 2, cfg.width), "layers": layers, "proj": init_dense(k_proj, cfg.width, 1)}
