"""The PyTorch twins of the training-step benchmarks' networks, holding the cellonnx network's weights.

``torch_step(name, net, batch, lr, threads)`` builds the twin of ``net`` (bench/step_models.py), copies its
weights, and returns one PyTorch training step on ``batch``: ``CrossEntropyLoss`` + ``SGD(lr)`` with
``zero_grad(set_to_none=True)``.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from export_vs_torch import TorchResNet18, copy_weights
from torch import nn as tnn
from transformer_step import TorchClassifier, torch_name


def torch_lenet5() -> tnn.Module:
    return tnn.Sequential(tnn.Conv2d(1, 6, 5, bias=False), tnn.ReLU(), tnn.MaxPool2d(2, 2),
                          tnn.Conv2d(6, 16, 5, bias=False), tnn.ReLU(), tnn.MaxPool2d(2, 2), tnn.Flatten(),
                          tnn.Linear(400, 120), tnn.ReLU(), tnn.Linear(120, 84), tnn.ReLU(),
                          tnn.Linear(84, 10))


def _copy_by_name(net, tnet: tnn.Module) -> None:
    theirs = dict(tnet.named_parameters())
    with torch.no_grad():
        for name, p in net.parameters_and_names():
            t = theirs.pop(torch_name(name))
            assert tuple(t.shape) == tuple(p.shape), (name, t.shape, p.shape)
            t.copy_(torch.from_numpy(p.asnumpy()))
    assert not theirs, f"torch parameters with no cellonnx twin: {sorted(theirs)}"


def torch_step(name: str, net, batch: list[np.ndarray], lr: float, threads: int) -> Callable[[], float]:
    torch.set_num_threads(threads)
    if name == "transformer":
        tnet = TorchClassifier(net.token_embedding.embedding_table.shape[0], net.max_position, 0.0)
        _copy_by_name(net, tnet)
        inputs = [torch.from_numpy(batch[0].astype(np.int64)), torch.from_numpy(batch[1])]
    else:
        tnet = torch_lenet5() if name == "lenet5" else TorchResNet18(10)
        copy_weights(net, tnet)
        inputs = [torch.from_numpy(batch[0])]
    tnet.train()
    opt = torch.optim.SGD(tnet.parameters(), lr=lr)
    criterion = tnn.CrossEntropyLoss()
    y = torch.from_numpy(batch[-1].astype(np.int64))

    def step() -> float:
        opt.zero_grad(set_to_none=True)
        out = criterion(tnet(*inputs), y)
        out.backward()
        opt.step()
        return float(out.detach())

    return step
