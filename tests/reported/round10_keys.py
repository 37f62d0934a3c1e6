"""Tenth round, held out: one key drawn from twice in environment resets, and an exploration
schedule's key handed on after its own method split it (JNP601)."""
import jax
import jax.numpy as jnp


# https://github.com/google-deepmind/mujoco_playground/pull/349
# A finger environment's reset draws the joint positions and then the spinner's hinge angle, both
# from rng1: the hinge angle comes from the bits that placed the first joint.
def finger_reset(rng):
    lower = jnp.array([-1.0, -2.0])
    upper = jnp.array([1.0, 2.0])
    rng, rng1 = jax.random.split(rng)
    qpos = jax.random.uniform(rng1, (2,), minval=lower, maxval=upper)
    hinge_angle = jax.random.uniform(rng1, (), minval=-jnp.pi, maxval=jnp.pi)  # reported: JNP601
    return jnp.concatenate([qpos, hinge_angle[None]])


def case_finger_reset_draws_joints_and_hinge_from_one_key():
    return finger_reset(jax.random.PRNGKey(0))


# https://github.com/google-deepmind/mujoco_playground/pull/349
# The cart-pole balance reset takes the slider and hinge positions and the initial velocities from
# the same key, so the velocities repeat the positions' normal draws.
def cartpole_balance_reset(rng):
    rng, rng1 = jax.random.split(rng)
    qpos = jnp.array([0.0, 0.0]).at[0].set(0.01 * jax.random.normal(rng1))
    qpos = qpos.at[1].add(jnp.pi + 0.01 * jax.random.normal(rng1))  # reported: JNP601
    qvel = 0.01 * jax.random.normal(rng1, (2,))  # reported: JNP601
    return qpos, qvel


def case_cartpole_reset_draws_positions_and_velocities_from_one_key():
    return cartpole_balance_reset(jax.random.PRNGKey(0))


def cartpole_balance_reset_split(rng):
    rng, rng_slider, rng_hinge, rng_vel = jax.random.split(rng, 4)
    qpos = jnp.array([0.0, 0.0]).at[0].set(0.01 * jax.random.normal(rng_slider))
    qpos = qpos.at[1].add(jnp.pi + 0.01 * jax.random.normal(rng_hinge))
    qvel = 0.01 * jax.random.normal(rng_vel, (2,))
    return qpos, qvel


def case_ok_cartpole_reset_with_one_key_per_draw():
    return cartpole_balance_reset_split(jax.random.PRNGKey(0))


# https://github.com/theovincent/i-DQN/issues/13
# The exploration schedule splits its key in explore(); the agent then passes the same
# schedule.key to random_action, which splits it the way the next explore() will, so the random
# action and the next exploration draw share their bits.
class ExplorationSchedule:
    def __init__(self, key, epsilon):
        self.key = key
        self.epsilon = epsilon

    def explore(self):
        self.key, key = jax.random.split(self.key)
        return jax.random.uniform(key) < self.epsilon


class QNetwork:
    n_actions = 4

    def random_action(self, key):
        key, sample_key = jax.random.split(key)
        return jax.random.randint(sample_key, (), 0, self.n_actions)

    def best_action(self, q_params, state, key):
        del key
        return jnp.argmax(q_params @ state)


def case_schedule_key_handed_to_the_random_action():
    exploration_schedule = ExplorationSchedule(jax.random.PRNGKey(0), 1.0)
    q = QNetwork()
    q_params, state = jnp.ones((4, 3)), jnp.ones(3)
    actions = []
    for _ in range(3):
        if exploration_schedule.explore():
            action = q.random_action(exploration_schedule.key)  # reported: JNP601
        else:
            action = q.best_action(q_params, state, exploration_schedule.key)
        actions.append(action)
    return actions


def case_ok_random_action_from_its_own_subkey():
    exploration_schedule = ExplorationSchedule(jax.random.PRNGKey(0), 1.0)
    q = QNetwork()
    key = jax.random.PRNGKey(1)
    actions = []
    for _ in range(3):
        if exploration_schedule.explore():
            key, action_key = jax.random.split(key)
            actions.append(q.random_action(action_key))
    return actions
