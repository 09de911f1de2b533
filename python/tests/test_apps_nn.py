"""switchyard.apps.nn against NumPy: one training step's parameters against the same step
written in NumPy (forward, backward, update), and training to a held-out accuracy."""

import numpy as np
import pytest

import switchyard as sy
from switchyard.apps import nn


def numpy_step(params, x, labels, lr):
    """Forward, backward and a plain SGD update of a ReLU MLP with softmax cross-entropy."""
    activations = [x]
    for i in range(0, len(params), 2):
        z = activations[-1] @ params[i] + params[i + 1]
        activations.append(np.maximum(z, 0) if i + 2 < len(params) else z)
    logits = activations[-1]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -log_softmax[np.arange(len(labels)), labels].mean()
    grad = np.exp(log_softmax)
    grad[np.arange(len(labels)), labels] -= 1
    grad /= len(labels)
    new = list(params)
    for i in range(len(params) - 2, -1, -2):
        a = activations[i // 2]
        new[i] = params[i] - lr * (a.T @ grad)
        new[i + 1] = params[i + 1] - lr * grad.sum(axis=0)
        grad = (grad @ params[i].T) * (a > 0)
    return loss, new


def skip_without_float64(device):
    fp64 = {d["backend"] + ":" + str(d["index"]): d["fp64"] for d in sy._switchyard._devices()}
    if device != "auto" and not fp64[device]:
        pytest.skip("float64 reference needs a float64 device")


def test_one_sgd_step_matches_numpy(on_device):
    skip_without_float64(on_device)
    x, labels = nn.make_classification(64, 10, 3, seed=4, dtype=sy.float64)
    model = nn.MLP([10, 16, 3], seed=2, dtype=sy.float64)
    before = [np.asarray(p) for p in model.parameters]
    trainer = nn.Trainer(model, nn.SGD(lr=0.1))
    loss = nn.train_step(trainer, x, labels)
    expected_loss, expected = numpy_step(before, np.asarray(x), np.asarray(labels), 0.1)
    assert loss == pytest.approx(expected_loss, rel=1e-12)
    for got, want in zip(trainer.model.parameters, expected):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_training_reaches_held_out_accuracy(on_device, optimizer):
    x, labels = nn.make_classification(1200, 20, 4, seed=9)
    x_np, labels_np = np.asarray(x), np.asarray(labels)
    opt = nn.SGD(lr=0.05, momentum=0.9) if optimizer == "sgd" else nn.Adam(lr=3e-3)
    trainer = nn.Trainer(nn.MLP([20, 32, 4], seed=1), opt)
    losses = nn.fit(trainer, x_np[:900], labels_np[:900], epochs=6, batch_size=100)
    assert losses[-1] < 0.5 * losses[0]
    assert nn.accuracy(trainer.model, x_np[900:], labels_np[900:]) >= 0.9


def test_bad_input_raises_typed_errors():
    with pytest.raises(sy.ValueError, match="sizes"):
        nn.MLP([3])
    with pytest.raises(sy.ValueError, match="lr"):
        nn.SGD(lr=-1)
    trainer = nn.Trainer(nn.MLP([4, 2]), nn.SGD())
    with pytest.raises(sy.ShapeError, match="x"):
        nn.train_step(trainer, np.zeros((3, 5), np.float32), np.zeros(3, np.int64))


def test_train_runs_the_workload_end_to_end(on_device):
    run = nn.train(samples=800, features=40, hidden=32, classes=4, epochs=4, batch_size=64,
                   optimizer="adam", lr=1e-2, seed=3)
    assert len(run["epoch_losses"]) == 4
    assert run["epoch_losses"][-1] < run["epoch_losses"][0]
    assert run["test_accuracy"] >= 0.9
    with pytest.raises(ValueError, match="optimizer"):
        nn.train(optimizer="rmsprop")


def test_autograd_gradients_match_numpy(on_device):
    skip_without_float64(on_device)
    rng = np.random.default_rng(2)
    a, w, b = rng.standard_normal((5, 4)), rng.standard_normal((4, 3)), rng.standard_normal(3)
    va, vw, vb = nn.var(a, True), nn.var(w, True), nn.var(b, True)
    loss = nn.mean(nn.tanh(va @ vw + vb) * nn.var(np.full((5, 3), 2.0)))
    loss.backward()
    z = a @ w + b
    dz = 2.0 * (1 - np.tanh(z) ** 2) / z.size
    assert float(np.asarray(loss.value)) == pytest.approx(np.mean(np.tanh(z) * 2.0), rel=1e-12)
    np.testing.assert_allclose(np.asarray(va.grad), dz @ w.T, rtol=1e-10)
    np.testing.assert_allclose(np.asarray(vw.grad), a.T @ dz, rtol=1e-10)
    np.testing.assert_allclose(np.asarray(vb.grad), dz.sum(axis=0), rtol=1e-10)
    assert nn.var(a).grad is None
