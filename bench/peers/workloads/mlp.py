"""One SGD training step (forward, backward, update) of a 784-256-10 MLP with ReLU and
softmax cross-entropy on a batch, float32, all starting from the same weights; the result is
the batch loss read back (the first step's loss must agree across implementations)."""

from types import SimpleNamespace

import numpy as np

FEATURES, HIDDEN, CLASSES, LEARNING_RATE = 784, 256, 10, 0.05


def inputs(batch):
    rng = np.random.default_rng(batch)
    return {
        "x": rng.standard_normal((batch, FEATURES), dtype=np.float32),
        "labels": rng.integers(0, CLASSES, batch),
        "w1": (rng.standard_normal((FEATURES, HIDDEN)) * np.sqrt(2 / FEATURES)).astype(np.float32),
        "b1": np.zeros(HIDDEN, np.float32),
        "w2": (rng.standard_normal((HIDDEN, CLASSES)) * np.sqrt(1 / HIDDEN)).astype(np.float32),
        "b2": np.zeros(CLASSES, np.float32),
    }


class NumpyMLP:
    """Backpropagation written out by hand, as NumPy users do."""

    def __init__(self, x):
        self.p = {k: x[k].copy() for k in ("w1", "b1", "w2", "b2")}
        self.x, self.labels = x["x"], x["labels"]
        self.onehot = np.eye(CLASSES, dtype=np.float32)[self.labels]

    def step(self):
        p, x = self.p, self.x
        h_pre = x @ p["w1"] + p["b1"]
        h = np.maximum(h_pre, 0)
        logits = h @ p["w2"] + p["b2"]
        shifted = logits - logits.max(1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
        loss = -(log_probs * self.onehot).sum() / len(x)
        d_logits = (np.exp(log_probs) - self.onehot) / len(x)
        d_h = (d_logits @ p["w2"].T) * (h_pre > 0)
        grads = {"w2": h.T @ d_logits, "b2": d_logits.sum(0), "w1": x.T @ d_h, "b1": d_h.sum(0)}
        for k, g in grads.items():
            p[k] -= LEARNING_RATE * g
        return np.float64(loss)


def torch_step(torch, x, device):
    model = torch.nn.Sequential(torch.nn.Linear(FEATURES, HIDDEN), torch.nn.ReLU(),
                                torch.nn.Linear(HIDDEN, CLASSES)).to(device)
    with torch.no_grad():
        model[0].weight.copy_(torch.from_numpy(x["w1"].T))
        model[0].bias.copy_(torch.from_numpy(x["b1"]))
        model[2].weight.copy_(torch.from_numpy(x["w2"].T))
        model[2].bias.copy_(torch.from_numpy(x["b2"]))
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    data = torch.from_numpy(x["x"]).to(device)
    labels = torch.from_numpy(x["labels"]).to(device)

    def step():
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(data), labels)
        loss.backward()
        optimizer.step()
        return np.float64(loss.item())

    return step


def jax_step(jax, x):
    jnp = jax.numpy

    def loss_of(p, data, labels):
        h = jax.nn.relu(data @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        return -jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], 1).mean()

    @jax.jit
    def update(p, data, labels):
        loss, grads = jax.value_and_grad(loss_of)(p, data, labels)
        return jax.tree_util.tree_map(lambda a, g: a - LEARNING_RATE * g, p, grads), loss

    state = {"p": {k: jnp.asarray(x[k]) for k in ("w1", "b1", "w2", "b2")}}
    data, labels = jnp.asarray(x["x"]), jnp.asarray(x["labels"])

    def step():
        state["p"], loss = update(state["p"], data, labels)
        return np.float64(loss)

    return step


def switchyard_step(sy, x):
    nn = sy.apps.nn
    model = nn.MLP([FEATURES, HIDDEN, CLASSES], seed=0, dtype=sy.float32)
    model.set_parameters([sy.asarray(x[k]) for k in ("w1", "b1", "w2", "b2")])
    trainer = nn.Trainer(model, nn.SGD(lr=LEARNING_RATE))
    data, labels = sy.asarray(x["x"]), sy.asarray(x["labels"])
    return lambda: np.float64(nn.train_step(trainer, data, labels))


def implementations(x, peers):
    fns = {"numpy": NumpyMLP(x).step}
    # Each variant trains its own model from the same weights.
    sy = peers.switchyard
    fns["switchyard auto"] = switchyard_step(sy, x)
    for device in peers.switchyard_devices:
        with sy.device(device):
            step = switchyard_step(sy, x)

        def pinned(step=step, device=device):
            with sy.device(device):
                return step()
        fns[f"switchyard {device}"] = pinned
    if peers.torch is not None:
        for device in peers.torch_devices:
            fns[f"torch {device}"] = torch_step(peers.torch, x, device)
    if peers.jax is not None:
        fns["jax cpu" if peers.jax_devices == ["cpu"] else "jax"] = jax_step(peers.jax, x)
    return fns


def matches(result, reference, x):
    return np.allclose(result, reference, rtol=1e-4)


WORKLOAD = SimpleNamespace(
    name="mlp", what="SGD training step, 784-256-10 MLP, ReLU, softmax cross-entropy, float32",
    size_label="batch", sizes=[32, 256, 1024], quick_sizes=[256],
    inputs=inputs, implementations=implementations, matches=matches)
