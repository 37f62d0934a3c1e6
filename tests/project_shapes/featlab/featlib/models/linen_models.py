"""Flax Linen modules."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


class MLP(nn.Module):
    hidden: int
    num_classes: int

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.hidden)(x))
        # project shape (not a thread): a debug print left in __call__; the training step runs it under jit
        print("hidden mean:", x.mean())  # reported: JNP301
        return nn.Dense(self.num_classes)(x)


class LoggedMLP(nn.Module):
    hidden: int
    num_classes: int

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.hidden)(x))
        jax.debug.print("hidden mean: {}", x.mean())
        return nn.Dense(self.num_classes)(x)


class Classifier(nn.Module):
    num_classes: int

    def setup(self):
        self.head = nn.Dense(self.num_classes)

    def __call__(self, x):
        return self.probabilities(self.head(x))

    def probabilities(self, logits):
        # project shape (not a thread): NumPy in a method that __call__ calls
        scores = np.exp(logits - logits.max(axis=-1, keepdims=True))  # reported: JNP201
        return scores / scores.sum(axis=-1, keepdims=True)


class SoftmaxClassifier(nn.Module):
    num_classes: int

    def setup(self):
        self.head = nn.Dense(self.num_classes)

    def __call__(self, x):
        return self.probabilities(self.head(x))

    def probabilities(self, logits):
        return jax.nn.softmax(logits, axis=-1)


class Normalizer(nn.Module):
    eps: float = 1e-6

    @nn.compact
    def __call__(self, x):
        scale = x.std()
        # project shape (not a thread): Python branching on a statistic of the input
        if scale < self.eps:  # reported: JNP202
            return x - x.mean()
        return (x - x.mean()) / scale


class SafeNormalizer(nn.Module):
    eps: float = 1e-6

    @nn.compact
    def __call__(self, x):
        scale = x.std()
        return (x - x.mean()) / jnp.where(scale < self.eps, 1.0, scale)
