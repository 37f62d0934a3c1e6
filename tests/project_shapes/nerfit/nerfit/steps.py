"""Step factories: the loss of a ray batch through the renderer, and jitted train and eval steps."""
import jax

from . import losses
from .rendering import RENDERERS

RAYS_TRACED = 0


def make_loss_fn(cfg, renderer="rays"):
    render, photometric = RENDERERS[renderer], losses.LOSSES[cfg.loss]

    def loss_fn(params, apply_fn, batch, key, noise_key):
        out = render(params, apply_fn, batch["rays_o"], batch["rays_d"], key, cfg.render, noise_key)
        loss = photometric(out["rgb"], batch["rgb"], batch["hit"])
        if cfg.depth_weight:
            loss = loss + cfg.depth_weight * losses.mse(out["depth"], batch["depth"])
        return loss, out

    return loss_fn


def make_train_step(cfg, renderer="rays", history=None):
    loss_fn = make_loss_fn(cfg, renderer)

    def train_step(state, batch, key):
        global RAYS_TRACED
        key, noise_key = jax.random.split(key)
        (loss, out), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params, state.apply_fn, batch, key,
                                                                      noise_key)
        if cfg.debug:
            # project shape (not a thread): the loss printed from inside the jitted step
            print("loss", loss, "psnr", losses.psnr(loss))  # reported: JNP301
        if history is not None:
            # project shape (not a thread): the losses recorded in the caller's list from inside the step
            history.append(loss)  # reported: JNP303
        # project shape (not a thread): a count of the rays trained on, advanced inside the step
        RAYS_TRACED += batch["rays_o"].shape[0]  # reported: JNP302
        state = state.apply_gradients(grads=grads)
        return state, {"loss": loss, "psnr": losses.psnr(loss), "acc": out["acc"].mean()}

    return jax.jit(train_step, donate_argnums=(0,) if cfg.donate else ())


def make_train_step_ok(cfg, renderer="rays_ok"):
    loss_fn = make_loss_fn(cfg, renderer)

    def train_step(state, batch, key):
        key, noise_key = jax.random.split(key)
        (loss, out), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params, state.apply_fn, batch, key,
                                                                      noise_key)
        if cfg.debug:
            jax.debug.print("loss {loss}", loss=loss)
        state = state.apply_gradients(grads=grads)
        return state, {"loss": loss, "psnr": losses.psnr(loss), "acc": out["acc"].mean()}

    return jax.jit(train_step, donate_argnums=(0,) if cfg.donate else ())


def make_eval_step(cfg, apply_fn, renderer="rays_ok"):
    render = RENDERERS[renderer]

    @jax.jit
    def eval_step(params, rays_o, rays_d, rgb, key):
        out = render(params, apply_fn, rays_o, rays_d, key, cfg.render)
        return losses.mse(out["rgb"], rgb), out

    return eval_step
