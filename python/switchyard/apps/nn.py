"""A multilayer perceptron trained with reverse-mode autograd on any device: MLP, SGD, Adam,
train_step / fit, accuracy and a synthetic classification set. Inputs may be switchyard
Arrays or NumPy arrays; parameters and optimizer state stay on the device between steps."""

from __future__ import annotations

from .. import _switchyard as _sy
from .._creation import asarray
from .._dtypes import float32

_nn = _sy.apps.nn

__all__ = ["Var", "var", "relu", "sigmoid", "tanh", "mean", "matmul", "softmax_cross_entropy",
           "MLP", "SGD", "Adam", "Trainer", "make_classification", "train_step", "fit",
           "accuracy", "train"]

Trainer = _nn.Trainer

# ---- autograd: Var holds a value and, after loss.backward(), its gradient (None before).
Var = _nn.Var
Var.__add__ = lambda a, b: _nn.add(a, b)
Var.__sub__ = lambda a, b: _nn.subtract(a, b)
Var.__mul__ = lambda a, b: _nn.multiply(a, b)
Var.__matmul__ = lambda a, b: _nn.matmul(a, b)
Var.__repr__ = lambda v: f"Var(shape={tuple(v.value.shape)}, requires_grad={v.requires_grad})"
relu, sigmoid, tanh, mean, matmul = _nn.relu, _nn.sigmoid, _nn.tanh, _nn.mean, _nn.matmul


def var(value, requires_grad=False):
    """A leaf Var from an Array or anything asarray takes (a parameter when requires_grad)."""
    return _nn.Var(asarray(value), bool(requires_grad))


def softmax_cross_entropy(logits, labels):
    """mean(logsumexp(logits) - logits[label]) over the batch, fused and stable."""
    return _nn.softmax_cross_entropy(logits, asarray(labels))


def MLP(sizes, seed=0, dtype=float32):  # noqa: N802 - a constructor to its users
    """Dense layers sizes[0] -> ... -> sizes[-1], ReLU between them, logits out."""
    return _nn.MLP([int(s) for s in sizes], int(seed), _sy._to_dtype(dtype))


def SGD(lr=0.01, momentum=0.0):  # noqa: N802
    return _nn.SGD(float(lr), float(momentum))


def Adam(lr=1e-3, betas=(0.9, 0.999), eps=1e-8):  # noqa: N802
    return _nn.Adam(float(lr), float(betas[0]), float(betas[1]), float(eps))


def make_classification(n, features, classes, seed=0, dtype=float32):
    """(x, labels): n points from `classes` Gaussian clusters in `features` dimensions."""
    return _nn.make_classification(int(n), int(features), int(classes), int(seed),
                                   _sy._to_dtype(dtype))


def _labels(labels):
    return asarray(labels)


def train_step(trainer, x, labels):
    """One step of trainer (a Trainer(model, optimizer)) on a batch; returns the loss."""
    return trainer.train_step(asarray(x), _labels(labels))


def fit(trainer, x, labels, epochs=1, batch_size=256):
    """`epochs` passes over (x, labels) in batches; returns each epoch's mean loss."""
    return trainer.fit(asarray(x), _labels(labels), int(epochs), int(batch_size))


def accuracy(model, x, labels):
    """The fraction of rows of x whose largest logit is at their label."""
    return _nn.accuracy(model, asarray(x), _labels(labels))


def train(samples=4096, features=784, hidden=256, classes=10, epochs=3, batch_size=256,
          optimizer="adam", lr=None, seed=0, dtype=float32):
    """The workload end to end: a synthetic set (80% training, 20% held out), an MLP
    features -> hidden -> classes, `epochs` of training. Returns a dict with the epoch losses
    and the training and held-out accuracies. lr defaults to 1e-3 for Adam, 0.05 for SGD (with
    momentum 0.9)."""
    kinds = {"sgd": _nn.OptimizerKind.sgd, "adam": _nn.OptimizerKind.adam}
    if optimizer not in kinds:
        raise ValueError(f"optimizer: expected one of {sorted(kinds)}, given {optimizer!r}")
    if lr is None:
        lr = 1e-3 if optimizer == "adam" else 0.05
    run = _nn.train_classifier(int(samples), int(features), int(hidden), int(classes),
                               int(epochs), int(batch_size), kinds[optimizer], float(lr),
                               int(seed), _sy._to_dtype(dtype))
    return {"epoch_losses": list(run.epoch_losses), "train_accuracy": run.train_accuracy,
            "test_accuracy": run.test_accuracy}
