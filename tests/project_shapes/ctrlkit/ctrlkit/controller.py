"""Receding-horizon control: plan over the horizon, apply the first action, shift the plan."""
import functools

import jax
import jax.numpy as jnp


class MPC:
    def __init__(self, planner, horizon, action_dim, max_action):
        self.planner = planner
        self.plan = jax.jit(planner.plan)
        self.max_action = max_action
        self.u_seq = jnp.zeros((horizon, action_dim))

    def shift(self):
        self.u_seq = jnp.roll(self.u_seq, -1, axis=0).at[-1].set(0.0)

    def act(self, x, key):
        self.u_seq = self.plan(jnp.asarray(x), self.u_seq, key)
        u = self.u_seq[0]
        self.shift()
        return jnp.clip(u, -self.max_action, self.max_action)


class ShiftingMPC(MPC):
    """Keeps the last planned action at the end of the shifted plan instead of zero."""

    def shift(self):
        # project shape (not a thread): the warm start shifted in place
        self.u_seq[:-1] = self.u_seq[1:]  # reported: JNP501


class ShiftingMPCOk(MPC):
    def shift(self):
        self.u_seq = self.u_seq.at[:-1].set(self.u_seq[1:])


class ClippedMPC(MPC):
    def act(self, x, key):
        self.u_seq = self.plan(jnp.asarray(x), self.u_seq, key)
        u = self.u_seq[0]
        self.shift()
        # project shape (not a thread): NumPy's clip keywords given to jnp.clip
        return jnp.clip(u, a_min=-self.max_action, a_max=self.max_action)  # reported: JNP503


class FeedbackPolicy:
    """A linear feedback law u = -K (x - x_ref), the fallback when planning is too slow."""

    def __init__(self, gain, x_ref):
        self.gain, self.x_ref = jnp.asarray(gain), jnp.asarray(x_ref)

    # project shape (not a thread): a method jitted with its plain self traced
    @jax.jit  # reported: JNP205
    def __call__(self, x):
        return -self.gain @ (x - self.x_ref)


class FeedbackPolicyOk:
    def __init__(self, gain, x_ref):
        self.gain, self.x_ref = jnp.asarray(gain), jnp.asarray(x_ref)

    def __call__(self, x):
        return feedback(self.gain, self.x_ref, x)


@jax.jit
def feedback(gain, x_ref, x):
    return -gain @ (x - x_ref)


@functools.partial(jax.jit, static_argnums=0)
def planned_cost(cost_fn, xs, us):
    return jnp.sum(jax.vmap(cost_fn)(xs[:-1], us))
