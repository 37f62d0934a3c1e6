from .cartpole import CartPole


def make_env(cfg, seed=0):
    return CartPole(cfg, seed=seed)


__all__ = ["CartPole", "make_env"]
