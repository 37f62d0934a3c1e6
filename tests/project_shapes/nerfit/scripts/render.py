"""Render every training view with fresh parameters and score it: `python scripts/render.py`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dataclasses  # noqa: E402
import functools  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from nerfit import KeyStream, NeRFMLP, RayDataset, TrainConfig, count_params, create_train_state  # noqa: E402
from nerfit import renderer as rnd  # noqa: E402
from nerfit.checkpoint import count_params_ok  # noqa: E402
from nerfit.losses import image_psnr, image_psnr_ok  # noqa: E402
from nerfit.rendering import depth_image, depth_image_ok, render_rays, render_rays_ok  # noqa: E402

CFG = TrainConfig()


def setup(cfg=CFG):
    data = RayDataset(cfg)
    model = NeRFMLP(cfg.model, encoding="nerf_ok")
    keys = KeyStream(cfg.seed)
    state = create_train_state(model, cfg, keys.next())
    return data, model, keys, state


def score_views(cfg=CFG):
    data, model, keys, state = setup(cfg)
    print("parameters:", count_params_ok(state.params))
    psnrs = []
    for i in range(cfg.n_views):
        view = data.view(i)
        # project shape (not a thread): a new jitted renderer made for every view
        render = jax.jit(functools.partial(render_rays_ok, apply_fn=model.apply, cfg=cfg.render))  # reported: JNP602
        out = render(state.params, rays_o=view["rays_o"], rays_d=view["rays_d"], key=keys.next())
        psnrs.append(image_psnr_ok(out["rgb"], view["rgb"]))
    # project shape (not a thread): the mean of a Python list of device scalars
    return float(jnp.mean(psnrs)), psnrs  # reported: JNP505


def worst_views(psnrs, k=2):
    # project shape (not a thread): NumPy's sort kind asked of jnp.argsort
    return jnp.argsort(jnp.stack(psnrs), kind="stable")[:k].tolist()  # reported: JNP503


def worst_views_ok(psnrs, k=2):
    return jnp.argsort(jnp.stack(psnrs), stable=True)[:k].tolist()


def score_views_ok(cfg=CFG):
    data, model, keys, state = setup(cfg)
    print("parameters:", count_params_ok(state.params))
    render = jax.jit(functools.partial(render_rays_ok, apply_fn=model.apply, cfg=cfg.render))
    psnrs = []
    for i in range(cfg.n_views):
        view = data.view(i)
        out = render(state.params, rays_o=view["rays_o"], rays_d=view["rays_d"], key=keys.next())
        psnrs.append(image_psnr_ok(out["rgb"], view["rgb"]))
    return float(jnp.mean(jnp.stack(psnrs))), psnrs


def render_backgrounds(cfg=CFG):
    """The first view on white, then on black, with one renderer."""
    data, model, keys, state = setup(cfg)
    view = data.view(0)
    renderer = rnd.ViewRenderer(model, cfg.render)
    white, _, _ = renderer.render(state.params, view["rays_o"], view["rays_d"], keys.next())
    # project shape (not a thread): the background switched on a renderer whose method was jitted in __init__
    renderer.white_bkgd = False  # reported: JNP306
    black, _, _ = renderer.render(state.params, view["rays_o"], view["rays_d"], keys.next())
    return white, black


def render_backgrounds_ok(cfg=CFG):
    data, model, keys, state = setup(cfg)
    view = data.view(0)
    white, _, _ = rnd.ViewRenderer(model, cfg.render).render(state.params, view["rays_o"], view["rays_d"], keys.next())
    black, _, _ = rnd.ViewRenderer(model, cfg.render, white_bkgd=False).render(
        state.params, view["rays_o"], view["rays_d"], keys.next())
    return white, black


def case_score_views():
    return score_views()


def case_ok_score_views():
    return score_views_ok()


def case_worst_views():
    return worst_views([jnp.float32(12.0), jnp.float32(9.5), jnp.float32(11.0)])


def case_ok_worst_views():
    return worst_views_ok(score_views_ok(dataclasses.replace(CFG, n_views=3))[1])


def case_render_backgrounds():
    return render_backgrounds()


def case_ok_render_backgrounds():
    return render_backgrounds_ok()


def case_count_params():
    return count_params(setup()[3].params)


def case_render_method():
    data, model, keys, state = setup()
    view = data.view(0)
    return rnd.Renderer(model, CFG.render).render(state.params, view["rays_o"], view["rays_d"], keys.next())


def case_ok_render_method():
    data, model, keys, state = setup()
    view = data.view(0)
    return rnd.RendererOk(model, CFG.render).render(state.params, view["rays_o"], view["rays_d"], keys.next())


def case_render_image_chunks():
    data, model, keys, state = setup()
    view = data.view(0)
    return rnd.make_render_image(model.apply, CFG.render)(state.params, view["rays_o"], view["rays_d"], keys.next(),
                                                          CFG.render.chunk)


def case_ok_render_image_chunks():
    data, model, keys, state = setup()
    view = data.view(0)
    return rnd.make_render_image_ok(model.apply, CFG.render)(state.params, view["rays_o"], view["rays_d"],
                                                             keys.next(), chunk=CFG.render.chunk)


def case_render_disparity():
    data, model, keys, state = setup()
    view = data.view(0)
    return rnd.make_render_view(model.apply, CFG.render)(state.params, view["rays_o"], view["rays_d"], keys.next())


def case_ok_render_disparity():
    data, model, keys, state = setup()
    view = data.view(0)
    return rnd.make_render_view_ok(model.apply, CFG.render)(state.params, view["rays_o"], view["rays_d"], keys.next())


def case_depth_image():
    data, model, keys, state = setup()
    view = data.view(0)
    out = render_rays(state.params, model.apply, view["rays_o"], view["rays_d"], keys.next(), CFG.render)
    return depth_image(out, CFG.render.far, CFG.image_size)


def case_ok_depth_image():
    data, model, keys, state = setup()
    view = data.view(0)
    out = render_rays_ok(state.params, model.apply, view["rays_o"], view["rays_d"], keys.next(), CFG.render)
    return depth_image_ok(out, CFG.render.far, CFG.image_size)


def case_numpy_jitter():
    cfg = dataclasses.replace(CFG, render=dataclasses.replace(CFG.render, jitter="numpy"))
    data, model, keys, state = setup(cfg)
    view = data.view(0)
    render = jax.jit(functools.partial(render_rays_ok, apply_fn=model.apply, cfg=cfg.render))
    return [render(state.params, rays_o=view["rays_o"], rays_d=view["rays_d"], key=keys.next())["depth"]
            for _ in range(2)]


def case_image_psnr():
    data, model, keys, state = setup()
    view = data.view(0)
    out = render_rays_ok(state.params, model.apply, view["rays_o"], view["rays_d"], keys.next(), CFG.render)
    return image_psnr(out["rgb"], view["rgb"]), image_psnr_ok(out["rgb"], view["rgb"])


if __name__ == "__main__":
    print(score_views_ok())
