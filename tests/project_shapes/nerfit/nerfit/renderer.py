"""Rendering whole images in chunks of rays with trained parameters."""
import functools

import jax
import jax.numpy as jnp

from . import visualize
from .rendering import render_rays_ok


class Renderer:
    """Renders rays with a model and a render config."""

    def __init__(self, model, cfg):
        self.apply_fn, self.cfg = model.apply, cfg

    # project shape (not a thread): a method of a plain class jitted with its self
    @jax.jit  # reported: JNP205
    def render(self, params, rays_o, rays_d, key):
        return render_rays_ok(params, self.apply_fn, rays_o, rays_d, key, self.cfg)["rgb"]


class RendererOk:
    def __init__(self, model, cfg):
        self.apply_fn, self.cfg = model.apply, cfg
        self.render = jax.jit(self._render)

    def _render(self, params, rays_o, rays_d, key):
        return render_rays_ok(params, self.apply_fn, rays_o, rays_d, key, self.cfg)["rgb"]


class ViewRenderer:
    """Renders a view's colours and disparity; the background is a setting."""

    def __init__(self, model, cfg, white_bkgd=True):
        self.apply_fn, self.cfg, self.white_bkgd = model.apply, cfg, white_bkgd
        self.render = jax.jit(self._render)

    def _render(self, params, rays_o, rays_d, key):
        out = render_rays_ok(params, self.apply_fn, rays_o, rays_d, key, self.cfg)
        rgb = out["rgb"] if self.white_bkgd else out["rgb"] - (1.0 - out["acc"][..., None])
        return rgb, out["depth"], out["acc"]


def make_render_image(apply_fn, cfg):
    def render_image(params, rays_o, rays_d, key, chunk):
        keys = jax.random.split(key, rays_o.shape[0])
        parts = []
        # project shape (not a thread): the chunk size passed to the jitted renderer as a traced argument
        for start in range(0, rays_o.shape[0], chunk):  # reported: JNP202
            # project shape (not a thread): the traced chunk size in the slices' bounds too
            out = render_rays_ok(params, apply_fn, rays_o[start:start + chunk], rays_d[start:start + chunk],  # reported: JNP202
                                 keys[start], cfg)
            parts.append(out["rgb"])
        return jnp.concatenate(parts)

    return jax.jit(render_image)


def make_render_image_ok(apply_fn, cfg):
    @functools.partial(jax.jit, static_argnames="chunk")
    def render_image(params, rays_o, rays_d, key, chunk):
        keys = jax.random.split(key, rays_o.shape[0])
        parts = []
        for start in range(0, rays_o.shape[0], chunk):
            out = render_rays_ok(params, apply_fn, rays_o[start:start + chunk], rays_d[start:start + chunk],
                                 keys[start], cfg)
            parts.append(out["rgb"])
        return jnp.concatenate(parts)

    return render_image


def make_render_view(apply_fn, cfg):
    @jax.jit
    def render_view(params, rays_o, rays_d, key):
        out = render_rays_ok(params, apply_fn, rays_o, rays_d, key, cfg)
        return out["rgb"], visualize.disparity(out["depth"], out["acc"])

    return render_view


def make_render_view_ok(apply_fn, cfg):
    @jax.jit
    def render_view(params, rays_o, rays_d, key):
        out = render_rays_ok(params, apply_fn, rays_o, rays_d, key, cfg)
        return out["rgb"], out["depth"], out["acc"]

    def render(params, rays_o, rays_d, key):
        rgb, depth, acc = render_view(params, rays_o, rays_d, key)
        return rgb, visualize.disparity(jax.device_get(depth), jax.device_get(acc))

    return render
