"""Every mx.optimizer through gluon.Trainer on a hybridized block trained under ``autograd.record()`` (the
block's forward and backward compiled, cellonnx/gluon/hybrid_train.py) follows the same block run eagerly:
losses, parameters and the optimizer's states after 5 steps, within rtol 1e-4. The block's parameters get
exactly zero gradients too: one gated off in three of the five steps, and the rows of an embedding table that
no step looks up (a row-sparse table and lazy updates: tests/gluon/test_sparse_grad.py)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.gluon.hybrid_train import CompiledTraining
from tests.tolerance import assert_close

gluon, autograd, nn = mx.gluon, mx.autograd, mx.gluon.nn
STEPS = 5

# name -> (registered optimizer, its arguments); every name in mx.optimizer's registry but 'ccsgd' (an alias
# of sgd) and 'test' (MXNet's own test optimizer) appears
OPTIMIZERS: dict[str, tuple[str, dict[str, Any]]] = {
    "sgd": ("sgd", {"learning_rate": 0.1}),
    "sgd_momentum_wd_clip": ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-3,
                                     "clip_gradient": 0.5}),
    "nag": ("nag", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-3}),
    "signum": ("signum", {"learning_rate": 0.01, "momentum": 0.9, "wd_lh": 1e-3}),
    "adam": ("adam", {"learning_rate": 0.01}),
    "adam_wd_rescale": ("adam", {"learning_rate": 0.01, "wd": 1e-3, "rescale_grad": 0.5}),
    "adamax": ("adamax", {"learning_rate": 0.01}),
    "nadam": ("nadam", {"learning_rate": 0.01}),
    "lamb": ("lamb", {"learning_rate": 0.01, "wd": 1e-3}),
    "lars": ("lars", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-3}),
    "lbsgd": ("lbsgd", {"learning_rate": 0.1, "momentum": 0.9}),
    "adagrad": ("adagrad", {"learning_rate": 0.1}),
    "groupadagrad": ("groupadagrad", {"learning_rate": 0.1}),
    "adadelta": ("adadelta", {"learning_rate": 1.0, "wd": 1e-3}),
    "rmsprop": ("rmsprop", {"learning_rate": 0.01}),
    "rmsprop_centered": ("rmsprop", {"learning_rate": 0.01, "centered": True, "clip_weights": 1.0}),
    "ftrl": ("ftrl", {"learning_rate": 0.1, "lamda1": 0.01}),
    "ftml": ("ftml", {"learning_rate": 0.01}),
    "dcasgd": ("dcasgd", {"learning_rate": 0.1, "momentum": 0.9}),
    "sgld": ("sgld", {"learning_rate": 0.01}),
    "lr_scheduler": ("adam", {"learning_rate": 0.01,
                              "lr_scheduler": mx.lr_scheduler.FactorScheduler(2, 0.5)}),
}


class Net(gluon.HybridBlock):
    """Logits from a dense layer, a gated bias and an embedding of per-example ids."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Dense(3, in_units=6)
        self.table = nn.Embedding(10, 3)
        self.gated = gluon.Parameter("gated", shape=(3,), init=mx.init.Constant(0.5))

    def forward(self, x: Any, ids: Any, gate: Any) -> Any:
        return self.fc(x) + self.table(ids) + self.gated.data() * gate


def _batches() -> list[tuple]:
    rng = np.random.default_rng(3)
    out = []
    for i in range(STEPS):
        out.append((rng.standard_normal((4, 6)).astype(np.float32), rng.integers(0, 4, (4,)).astype(np.int32),
                    np.float32(1.0 if i in (0, 3) else 0.0), rng.integers(0, 3, (4,)).astype(np.float32)))
    return out


def trajectory(optimizer: str, hybrid: bool) -> dict[str, np.ndarray]:
    name, kwargs = OPTIMIZERS[optimizer]
    mx.random.seed(0)
    net = Net()
    net.initialize(mx.init.Uniform(0.5))
    if hybrid:
        net.hybridize()
    if "lr_scheduler" in kwargs:  # a scheduler counts the updates: one per trainer
        kwargs = dict(kwargs, lr_scheduler=mx.lr_scheduler.FactorScheduler(2, 0.5))
    # GroupAdaGrad takes 2-D weights only (MXNet's): the other parameters stay as they are
    trainer = gluon.Trainer(net.collect_params(".*weight" if name == "groupadagrad" else None), name,
                            dict(kwargs))
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    got: dict[str, np.ndarray] = {}
    for i, (x, ids, gate, y) in enumerate(_batches()):
        with autograd.record():
            loss = loss_fn(net(mx.np.array(x), mx.np.array(ids), mx.np.array(gate)), mx.np.array(y))
        loss.backward()
        trainer.step(x.shape[0])
        got[f"loss{i}"] = loss.asnumpy()
    for key, p in net.collect_params().items():
        got[key] = p.data().asnumpy()
    for i, state in trainer._states.items():
        slots = state if isinstance(state, (tuple, list)) else (state,)
        for j, arr in enumerate(s for s in slots if s is not None):
            got[f"state{i}.{j}"] = np.asarray(arr)
    if hybrid:
        runs = [c for c in net._compiled.values() if isinstance(c, CompiledTraining)]
        assert len(runs) == 1 and runs[0].backward_runs == STEPS, "each step ran the compiled graphs"
    return got


def test_every_registered_optimizer_has_a_row() -> None:
    registered = set(mx.optimizer.Optimizer.opt_registry) - {"ccsgd", "test"}
    assert registered <= {name for name, _ in OPTIMIZERS.values()}


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_hybridized_trajectory_equals_eager(optimizer: str) -> None:
    eager = trajectory(optimizer, False)
    compiled = trajectory(optimizer, True)
    assert sorted(compiled) == sorted(eager)
    for key in eager:
        assert_close(compiled[key], eager[key], 1e-4, 1e-4, what=f"{optimizer}: {key}")
