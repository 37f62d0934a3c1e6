"""A Sampler that jits its kernel step in __init__, adapts its step size, and collects draws."""
import jax
import jax.numpy as jnp
import numpy as np

from .adaptation import DualAveraging
from .kernels import KERNELS, init_state


class Sampler:
    """Runs one chain of a kernel looked up by name on a log density."""

    def __init__(self, log_density, cfg, path=None):
        self.log_density, self.cfg = log_density, cfg
        self.kernel = KERNELS[cfg.kernel.name]
        self.step_size = cfg.kernel.step_size
        self.extra = {"path": path} if path is not None else {}
        self.step = jax.jit(self._step, donate_argnums=(0,) if cfg.donate else ())

    def _step(self, state, key):
        return self.kernel(self.log_density, state, key, self.step_size, self.cfg.kernel.n_leapfrog,
                           self.cfg.debug, **self.extra)

    def init(self, position):
        return init_state(self.log_density, position)

    def warmup(self, state, keys):
        adapt = DualAveraging(self.step_size, self.cfg.kernel.target_accept)
        for key in keys:
            state, info = self.step(state, key)
            # project shape (not a thread): the step size adapted on the object whose bound method was jitted once
            self.step_size = adapt.update(float(info.accept_prob))  # reported: JNP306 JNP102
        return state

    def sample(self, state, keys):
        draws, accepts = [], []
        for key in keys:
            new_state, info = self.step(state, key)
            # project shape (not a thread): the position the step started from, kept after the step donated it
            draws.append(state.position)  # reported: JNP605
            state = new_state
            # project shape (not a thread): the acceptance copied to the host after every step
            accepts.append(np.asarray(info.accepted))  # reported: JNP101
        return state, jnp.stack(draws), np.mean(accepts)


class SamplerOk:
    """The step size is an argument of the jitted step, so adaptation reaches it."""

    def __init__(self, log_density, cfg):
        self.log_density, self.cfg = log_density, cfg
        self.kernel = KERNELS[cfg.kernel.name]
        self.step_size = cfg.kernel.step_size
        self.step = jax.jit(self._step)

    def _step(self, state, key, step_size):
        return self.kernel(self.log_density, state, key, step_size, self.cfg.kernel.n_leapfrog, self.cfg.debug)

    def init(self, position):
        return init_state(self.log_density, position)

    def warmup(self, state, keys):
        adapt = DualAveraging(self.step_size, self.cfg.kernel.target_accept)
        infos = []
        for key in keys:
            state, info = self.step(state, key, self.step_size)
            infos.append(info.accept_prob)
            if len(infos) % 4 == 0:
                for accept_prob in jax.device_get(infos):
                    self.step_size = adapt.update(float(accept_prob))
                infos = []
        return state

    def sample(self, state, keys):
        draws, accepts = [], []
        for key in keys:
            state, info = self.step(state, key, self.step_size)
            draws.append(state.position)
            accepts.append(info.accepted)
        return state, jnp.stack(draws), float(jnp.mean(jnp.stack(accepts)))
