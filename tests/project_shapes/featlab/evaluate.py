"""Evaluate saved parameters: `python evaluate.py` from the repository root."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import equinox as eqx  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from featlib import (  # noqa: E402
    SoftmaxClassifier,
    Classifier,
    Config,
    Encoder,
    LoggedMLP,
    Normalizer,
    ProjectionHead,
    SafeEncoder,
    SafeNormalizer,
    SafeProjectionHead,
    batches,
    embed,
    make_predict,
    make_split,
)

CFG = Config()


def load_split():
    return make_split(CFG, seed=1)


# project shape (not a thread): a classifier whose probabilities() use NumPy, jitted through make_predict
def case_predict_with_numpy_softmax():
    x, _ = load_split()
    classifier = Classifier(CFG.model.num_classes)
    params = classifier.init(jax.random.key(0), x[:1])
    predict = make_predict(Classifier(CFG.model.num_classes))
    return predict(params, x)


def case_ok_predict_with_jax_softmax():
    x, _ = load_split()
    classifier = SoftmaxClassifier(CFG.model.num_classes)
    params = classifier.init(jax.random.key(0), x[:1])
    predict = make_predict(SoftmaxClassifier(CFG.model.num_classes))
    return predict(params, x)


# project shape (not a thread): the normaliser's apply jitted inline
def case_normalise_with_inline_jit():
    x, _ = load_split()
    normalise = jax.jit(Normalizer().apply)
    return normalise({}, x)


def case_ok_safe_normalise_with_inline_jit():
    x, _ = load_split()
    normalise = jax.jit(SafeNormalizer().apply)
    return normalise({}, x)


# project shape (not a thread): the encoder passed to the filter_jit embed helper
def case_embed_with_numpy_encoder():
    x, _ = load_split()
    return embed(Encoder(CFG.model.embed_dims, jax.random.key(0)), x)


def case_ok_embed_with_jax_encoder():
    x, _ = load_split()
    return embed(SafeEncoder(CFG.model.embed_dims, jax.random.key(0)), x)


# project shape (not a thread): the projection head mapped over a batch of embeddings
def case_project_embeddings():
    z = jnp.ones((4, CFG.model.embed_dims[-1]))
    head = ProjectionHead(CFG.model.embed_dims[-1], 4, jax.random.key(0))
    return eqx.filter_vmap(head)(z)


def case_ok_project_embeddings_safely():
    z = jnp.ones((4, CFG.model.embed_dims[-1]))
    head = SafeProjectionHead(CFG.model.embed_dims[-1], 4, jax.random.key(0))
    return eqx.filter_vmap(head)(z)


def _mlp_and_params():
    x, y = load_split()
    model = LoggedMLP(CFG.model.hidden, CFG.model.num_classes)
    params = model.init(jax.random.key(0), x[:1])
    return model, params, x, y


# project shape (not a thread): predictions pulled to NumPy batch by batch
def case_accuracy_batch_by_batch():
    model, params, x, y = _mlp_and_params()
    predict = make_predict(model)
    correct = 0
    for xb, yb in batches(x, y, CFG.train.batch_size):
        predicted = np.asarray(predict(params, xb)).argmax(axis=-1)  # reported: JNP101
        correct += int((predicted == yb).sum())
    return correct / len(x)


def case_ok_accuracy_on_device():
    model, params, x, y = _mlp_and_params()
    predict = make_predict(model)
    hits = []
    for xb, yb in batches(x, y, CFG.train.batch_size):
        hits.append(jnp.sum(jnp.argmax(predict(params, xb), axis=-1) == yb))
    return float(jnp.sum(jnp.stack(hits))) / len(x)


# project shape (not a thread): one jitted lambda per checkpoint
def case_evaluate_checkpoints():
    model, params, x, _ = _mlp_and_params()
    checkpoints = [jax.tree.map(lambda p, s=scale: p * s, params) for scale in (1.0, 0.5, 0.25)]
    scores = []
    for ckpt in checkpoints:
        logits = jax.jit(lambda p, inputs: model.apply(p, inputs))(ckpt, x)  # reported: JNP602
        scores.append(logits.mean())
    return scores


def case_ok_evaluate_checkpoints_with_one_jit():
    model, params, x, _ = _mlp_and_params()
    checkpoints = [jax.tree.map(lambda p, s=scale: p * s, params) for scale in (1.0, 0.5, 0.25)]
    predict = jax.jit(model.apply)
    return [predict(ckpt, x).mean() for ckpt in checkpoints]


def main():
    model, params, x, y = _mlp_and_params()
    logits = make_predict(model)(params, jnp.asarray(x))
    print("accuracy", float(jnp.mean(jnp.argmax(logits, axis=-1) == y)))


if __name__ == "__main__":
    main()
