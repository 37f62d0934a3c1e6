"""rlkit: DQN-style agents in JAX/Flax on environments that step in NumPy."""
from .buffer import ReplayBuffer
from .collector import Collector
from .config import AgentConfig, EnvConfig, TrainConfig
from .envs import CartPole, make_env
from .learner import DQNLearner, soft_update
from .logger import Logger
from .networks import MaskedPolicy, QNetwork

__all__ = [
    "ReplayBuffer", "Collector", "AgentConfig", "EnvConfig", "TrainConfig", "CartPole",
    "make_env", "DQNLearner", "soft_update", "Logger", "MaskedPolicy", "QNetwork",
]
