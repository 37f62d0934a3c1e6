"""Models looked up by the config's name."""
from .mf import MatrixFactorization
from .two_tower import TwoTower, TwoTowerNet, TwoTowerNetOk

MODELS = {"mf": MatrixFactorization, "two_tower": TwoTower}


def build_model(cfg, **kwargs):
    return MODELS[cfg.name](cfg, **kwargs)


__all__ = ["MODELS", "MatrixFactorization", "TwoTower", "TwoTowerNet", "TwoTowerNetOk", "build_model"]
