from .mlp import NeRFMLP, set_sigma_noise

__all__ = ["NeRFMLP", "set_sigma_noise"]
