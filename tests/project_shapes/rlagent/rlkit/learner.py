"""Learning: a DQN learner whose update is jitted from its method in `__init__`, the target
network's soft update, and a distillation step for the masked policy."""
import jax
import jax.numpy as jnp
import optax

from .losses import LOSSES, entropy

GAMMA = 0.99


def set_discount(gamma):
    """Anneal the discount between training phases."""
    global GAMMA
    GAMMA = gamma


def td_target(q_next, batch):
    # project shape (not a thread): the discount set_discount() rebinds, read in the jitted update
    return batch["reward"] + GAMMA * (1.0 - batch["done"]) * q_next.max(-1)  # reported: JNP304


def td_target_with(q_next, batch, gamma):
    return batch["reward"] + gamma * (1.0 - batch["done"]) * q_next.max(-1)


class DQNLearner:
    def __init__(self, network, cfg, loss="squared", donate=False, discount_arg=False):
        self.network = network
        self.cfg = cfg
        self.optimizer = optax.adam(cfg.learning_rate)
        self.loss_fn = LOSSES[loss]
        self.discount_arg = discount_arg
        self.num_updates = 0
        self.update = jax.jit(self._update, donate_argnums=(0, 1) if donate else ())

    def init(self, key, obs_dim):
        params = self.network.init(key, jnp.zeros((1, obs_dim), jnp.float32))
        return params, self.optimizer.init(params)

    def _loss(self, params, target_params, batch, gamma):
        q = self.network.apply(params, batch["obs"])
        q_taken = jnp.take_along_axis(q, batch["action"][:, None], axis=1)[:, 0]
        q_next = self.network.apply(target_params, batch["next_obs"]).astype(jnp.float32)
        if self.discount_arg:
            target = td_target_with(q_next, batch, gamma)
        else:
            target = td_target(q_next, batch)
        # project shape (not a thread): bfloat16 Q-values of the mixed-precision network minus
        # float32 targets
        td = q_taken - jax.lax.stop_gradient(target)  # reported: JNP401
        return self.loss_fn(td).mean(), td

    def _update(self, params, opt_state, target_params, batch, gamma=0.99):
        (loss, td), grads = jax.value_and_grad(self._loss, has_aux=True)(
            params, target_params, batch, gamma)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        # project shape (not a thread): an update counter on self, bumped while tracing
        self.num_updates += 1  # reported: JNP303
        return params, opt_state, {"loss": loss, "td": td, "q_mean": td.mean()}


def soft_update(target, online, tau):
    return jax.tree_util.tree_map(lambda t, o: (1.0 - tau) * t + tau * o, target, online)


def make_distill_step(policy, optimizer, beta=0.01, entropy_fn=entropy):
    """A jitted step fitting the masked policy to the greedy actions of a Q-network."""
    @jax.jit
    def step(params, opt_state, obs, mask, target_actions):
        def loss_fn(p):
            logits = policy.apply(p, obs, mask)
            logp = jax.nn.log_softmax(logits)
            nll = -jnp.take_along_axis(logp, target_actions[:, None], axis=1).mean()
            return nll - beta * entropy_fn(logits).mean()

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
