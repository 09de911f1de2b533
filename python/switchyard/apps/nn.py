"""A multilayer perceptron trained with reverse-mode autograd on any device: MLP, SGD, Adam,
train_step / fit, accuracy and a synthetic classification set. Inputs may be switchyard
Arrays or NumPy arrays; parameters and optimizer state stay on the device between steps."""

from __future__ import annotations

from .. import _switchyard as _sy
from .._creation import asarray
from .._dtypes import float32

_nn = _sy.apps.nn

__all__ = ["MLP", "SGD", "Adam", "Trainer", "make_classification", "train_step", "fit",
           "accuracy", "train"]

Trainer = _nn.Trainer


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
