"""Fourteenth round, held out: a few-shot NeRF training step that prints its depth-ranking loss with
print() inside the jitted step, and a legged-robot environment whose jitted step prints the motor
torques it computes; both show the tracer once instead of the values (JNP301)."""
import jax
import jax.numpy as jnp


def render_depth(params, rays):
    weights = jax.nn.softmax(rays @ params, axis=-1)
    return jnp.sum(weights * jnp.linspace(0.0, 1.0, weights.shape[-1]), axis=-1)


# https://github.com/Wanggcong/SparseNeRF/issues/16
# Debugging the depth-ranking loss, the user prints it inside the jitted training step and sees
# Traced<ShapedArray(float32[])> once, never a number.
@jax.jit
def train_step(params, rays, depth_prior):
    def loss_fn(params):
        depth = render_depth(params, rays)
        pairs = depth[::2] - depth[1::2]
        prior = depth_prior[::2] - depth_prior[1::2]
        depth_loss = jnp.mean(jax.nn.relu(-pairs * jnp.sign(prior)))
        print("depth ranking loss", depth_loss)  # reported: JNP301
        return depth_loss

    loss, grads = jax.value_and_grad(loss_fn)(params)
    return params - 0.1 * grads, loss


def case_depth_loss_printed_inside_the_jitted_step():
    params = jnp.full((3, 8), 0.1)
    rays = jnp.linspace(0.0, 1.0, 24).reshape(8, 3)
    for _ in range(3):
        params, _ = train_step(params, rays, jnp.linspace(1.0, 0.0, 8))
    return params


@jax.jit
def train_step_debug_print(params, rays, depth_prior):
    def loss_fn(params):
        depth = render_depth(params, rays)
        pairs = depth[::2] - depth[1::2]
        prior = depth_prior[::2] - depth_prior[1::2]
        depth_loss = jnp.mean(jax.nn.relu(-pairs * jnp.sign(prior)))
        jax.debug.print("depth ranking loss {}", depth_loss)
        return depth_loss

    loss, grads = jax.value_and_grad(loss_fn)(params)
    return params - 0.1 * grads, loss


def case_ok_depth_loss_printed_with_debug_print():
    params = jnp.full((3, 8), 0.1)
    rays = jnp.linspace(0.0, 1.0, 24).reshape(8, 3)
    for _ in range(3):
        params, _ = train_step_debug_print(params, rays, jnp.linspace(1.0, 0.0, 8))
    return params


# https://github.com/google-deepmind/mujoco/issues/1373
# Stepping through the joystick tutorial, the student prints the torques the PD controller computes;
# the environment's step is jitted, so the print shows Traced<ShapedArray(float32[12])> once.
class JoystickEnv:
    def __init__(self, kp=35.0, kd=0.5):
        self.kp = kp
        self.kd = kd
        self.default_pose = jnp.zeros(12)

    def step(self, state, action):
        qpos, qvel = state
        target = self.default_pose + 0.3 * action
        torques = self.kp * (target - qpos) - self.kd * qvel
        print("torques", torques)  # reported: JNP301
        qvel = qvel + 0.01 * torques
        qpos = qpos + 0.01 * qvel
        reward = -jnp.sum(torques**2)
        return (qpos, qvel), reward


def case_torques_printed_in_the_jitted_env_step():
    env = JoystickEnv()
    step = jax.jit(env.step)
    state = (jnp.zeros(12), jnp.zeros(12))
    for i in range(3):
        state, _ = step(state, jnp.full(12, 0.1 * i))
    return state


class DebugJoystickEnv(JoystickEnv):
    def step(self, state, action):
        qpos, qvel = state
        target = self.default_pose + 0.3 * action
        torques = self.kp * (target - qpos) - self.kd * qvel
        jax.debug.print("torques {}", torques)
        qvel = qvel + 0.01 * torques
        qpos = qpos + 0.01 * qvel
        reward = -jnp.sum(torques**2)
        return (qpos, qvel), reward


def case_ok_torques_printed_with_debug_print():
    env = DebugJoystickEnv()
    step = jax.jit(env.step)
    state = (jnp.zeros(12), jnp.zeros(12))
    for i in range(3):
        state, _ = step(state, jnp.full(12, 0.1 * i))
    return state
