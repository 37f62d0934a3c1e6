"""Sixteenth round, held out: a rotation group's log map that selects its Taylor factor with where
while the Taylor branch still divides by the real part, which is zero at a half turn (JNP604)."""
import jax
import jax.numpy as jnp

EPS = 1e-6


# https://github.com/brentyi/jaxlie/issues/9
# SO3.log picks between a Taylor expansion and the arctan factor with jnp.where, but the Taylor
# branch divides by w even where it is not selected; at a rotation by pi, w is 0 and the gradient
# of log() is nan (the fix substitutes a safe w first).
class SO3:
    def __init__(self, wxyz):
        self.wxyz = wxyz

    def log(self):
        w = self.wxyz[0]
        xyz = self.wxyz[1:]
        norm_sq = jnp.sum(xyz**2)
        use_taylor = norm_sq < EPS**2
        norm_safe = jnp.sqrt(jnp.where(use_taylor, 1.0, norm_sq))
        atan_n_over_w = jnp.arctan2(jnp.where(w < 0, -norm_safe, norm_safe), jnp.abs(w))
        taylor = 2.0 / w - 2.0 / 3.0 * norm_sq / w**3
        atan_factor = jnp.where(use_taylor, taylor, 2.0 * atan_n_over_w / norm_safe)  # reported: JNP604
        return atan_factor * xyz


def case_log_map_gradient_at_half_turn():
    return jax.grad(lambda wxyz: SO3(wxyz).log().sum())(jnp.array([0.0, 1.0, 0.0, 0.0]))


class SafeSO3(SO3):
    def log(self):
        w = self.wxyz[0]
        xyz = self.wxyz[1:]
        norm_sq = jnp.sum(xyz**2)
        use_taylor = norm_sq < EPS**2
        safe_w = jnp.where(use_taylor, w, 1.0)
        norm_safe = jnp.sqrt(jnp.where(use_taylor, 1.0, norm_sq))
        atan_n_over_w = jnp.arctan2(jnp.where(w < 0, -norm_safe, norm_safe), jnp.abs(w))
        taylor = 2.0 / safe_w - 2.0 / 3.0 * norm_sq / safe_w**3
        atan_factor = jnp.where(use_taylor, taylor, 2.0 * atan_n_over_w / norm_safe)
        return atan_factor * xyz


def case_ok_log_map_gradient_with_safe_w():
    return jax.grad(lambda wxyz: SafeSO3(wxyz).log().sum())(jnp.array([0.0, 1.0, 0.0, 0.0]))
