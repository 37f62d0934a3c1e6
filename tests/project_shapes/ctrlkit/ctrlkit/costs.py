"""Stage costs looked up by name; the control weight is a module global set by a setter."""
import jax.numpy as jnp

CONTROL_WEIGHT = 0.01
N_COST_CALLS = 0
GOAL = jnp.array([1.0, 1.0])
OBSTACLE = jnp.array([0.0, 0.0])
RADIUS = 0.4


def set_control_weight(weight):
    global CONTROL_WEIGHT
    CONTROL_WEIGHT = weight


def swingup(x, u):
    """Upright is theta = pi, where cos(theta) + 1 vanishes."""
    upright = jnp.cos(x[0]) + 1.0
    # project shape (not a thread): the control weight read from the module inside the planned cost
    return upright ** 2 + 0.1 * x[1] ** 2 + CONTROL_WEIGHT * jnp.sum(u ** 2)  # reported: JNP304


def swingup_weighted(x, u, control_weight=0.01):
    upright = jnp.cos(x[0]) + 1.0
    return upright ** 2 + 0.1 * x[1] ** 2 + control_weight * jnp.sum(u ** 2)


def swingup_counted(x, u):
    """The swing-up cost, counting its evaluations for the planner's profile."""
    global N_COST_CALLS
    # project shape (not a thread): a module counter incremented in a cost that the planner traces
    N_COST_CALLS += 1  # reported: JNP302
    return swingup_weighted(x, u)


def reach_avoid(x, u):
    """The distance to GOAL (sharper than its square near the goal), a penalty inside the disc."""
    sq = jnp.sum((x[:2] - GOAL) ** 2)
    # project shape (not a thread): the guarded square root is differentiated at the goal too
    to_goal = jnp.where(sq > 0.0, jnp.sqrt(sq), 0.0)  # reported: JNP604
    inside = jnp.maximum(RADIUS - jnp.linalg.norm(x[:2] - OBSTACLE), 0.0)
    return to_goal + 10.0 * inside ** 2 + 0.01 * jnp.sum(u ** 2)


def reach_avoid_ok(x, u):
    sq = jnp.sum((x[:2] - GOAL) ** 2)
    to_goal = jnp.where(sq > 0.0, jnp.sqrt(jnp.where(sq > 0.0, sq, 1.0)), 0.0)
    inside = jnp.maximum(RADIUS - jnp.linalg.norm(x[:2] - OBSTACLE), 0.0)
    return to_goal + 10.0 * inside ** 2 + 0.01 * jnp.sum(u ** 2)
