"""Spectral convolutions: multiply the lowest Fourier modes by learned complex weights."""
import jax.numpy as jnp


def no_filter(x_ft):
    return x_ft


def lowpass(x_ft):
    """Damp the higher kept modes smoothly."""
    k = jnp.arange(x_ft.shape[-1])
    return x_ft * jnp.exp(-(k / x_ft.shape[-1]) ** 2)


def lowpass_sharp(x_ft):
    """Keep the lower half of the kept modes, cut the rest."""
    # project shape (not a thread): the kept modes written in place, as the PyTorch original does
    x_ft[..., x_ft.shape[-1] // 2:] = 0  # reported: JNP501
    return x_ft


def lowpass_sharp_ok(x_ft):
    return x_ft.at[..., x_ft.shape[-1] // 2:].set(0)


FILTERS = {"none": no_filter, "lowpass": lowpass, "sharp": lowpass_sharp, "sharp_ok": lowpass_sharp_ok}


def spectral_conv(weights, x, modes, filter_name="none", debug=False):
    """x: (batch, channels, n) real; weights: (channels_in, channels_out, modes) complex."""
    x_ft = jnp.fft.rfft(x, axis=-1)[..., :modes]
    x_ft = FILTERS[filter_name](x_ft)
    if debug:
        # project shape (not a thread): the kept modes printed from inside the traced forward pass
        print("spectral modes", x_ft)  # reported: JNP301
    out_ft = jnp.einsum("bik,iok->bok", x_ft, weights)
    return jnp.fft.irfft(out_ft, n=x.shape[-1], axis=-1)


def spectral_conv_ok(weights, x, modes, filter_name="none"):
    x_ft = FILTERS[filter_name](jnp.fft.rfft(x, axis=-1)[..., :modes])
    return jnp.fft.irfft(jnp.einsum("bik,iok->bok", x_ft, weights), n=x.shape[-1], axis=-1)
