"""Seventeenth round, held out: an objective that declares a batch size static but reads it from the
constants it passes through jit, where it is a traced leaf (JNP202)."""
import jax
import jax.numpy as jnp


# https://github.com/PlasmaControl/DESC/issues/2295
# The batch size was meant to be static, but the objective read it from the constants dictionary,
# which the jitted compute_scaled_error received as an argument, so the size was traced there.
class BoozerObjective:
    """Computes a residual in batches; surf_batch_size was declared a static attribute."""

    _static_attrs = ("surf_batch_size",)

    def __init__(self, surf_batch_size):
        self.surf_batch_size = surf_batch_size
        self.constants = {"surf_batch_size": surf_batch_size, "weight": 2.0}

    def compute(self, x, constants):
        if constants["surf_batch_size"] == 1:  # reported: JNP202
            return constants["weight"] * jnp.sum(x**2)
        batches = x.reshape(self.surf_batch_size, -1)
        return constants["weight"] * jnp.sum(jnp.sum(batches**2, axis=1))


def compute_scaled_error(objective, x, constants):
    return objective.compute(x, constants) / 10.0


def case_static_attribute_read_from_traced_constants():
    objective = BoozerObjective(1)
    return jax.jit(compute_scaled_error, static_argnums=0)(objective, jnp.ones(4), objective.constants)


class BoozerObjectiveStatic:
    def __init__(self, surf_batch_size):
        self.surf_batch_size = surf_batch_size
        self.constants = {"weight": 2.0}

    def compute(self, x, constants):
        if self.surf_batch_size == 1:
            return constants["weight"] * jnp.sum(x**2)
        batches = x.reshape(self.surf_batch_size, -1)
        return constants["weight"] * jnp.sum(jnp.sum(batches**2, axis=1))


def case_ok_static_attribute_read_from_self():
    objective = BoozerObjectiveStatic(1)
    return jax.jit(compute_scaled_error, static_argnums=0)(objective, jnp.ones(4), objective.constants)
