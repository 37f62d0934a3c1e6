"""graphkit: message passing on padded molecular graphs, energies and forces."""
from .config import ModelConfig, OptimConfig, TrainConfig
from .data import GraphLoader, make_dataset
from .graphs import Graph, batch_graphs, pad_graph
from .models import GraphNet, predict_energy
from .trainer import Trainer, TrainState

__all__ = ["ModelConfig", "OptimConfig", "TrainConfig", "GraphLoader", "make_dataset", "Graph",
           "batch_graphs", "pad_graph", "GraphNet", "predict_energy", "Trainer", "TrainState"]
