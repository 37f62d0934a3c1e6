"""Models: Flax Linen modules and Equinox modules."""
from .linen_models import MLP, SoftmaxClassifier, Classifier, LoggedMLP, Normalizer, SafeNormalizer
from .eqx_models import Encoder, ProjectionHead, SafeEncoder, SafeProjectionHead

__all__ = [
    "MLP", "LoggedMLP", "Classifier", "SoftmaxClassifier", "Normalizer", "SafeNormalizer",
    "Encoder", "SafeEncoder", "ProjectionHead", "SafeProjectionHead",
]
