"""The networks and data of scripts/train_sync.py, shared with the one-process reference in
test_sync_batch_norm.py."""
from __future__ import annotations

import numpy as np

import cellonnx as ms
from cellonnx import gluon, nn, ops

STEPS = 3
GLOBAL_BATCH = 8


def data(rows: int = GLOBAL_BATCH, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(100 + seed)
    return (rng.standard_normal((rows, 2, 6, 6)).astype(np.float32),
            rng.integers(0, 3, rows).astype(np.int32))


class SyncNet(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, pad_mode="valid", has_bias=False)
        self.bn = nn.SyncBatchNorm(4)  # statistics of every rank's batch together
        self.fc = nn.Dense(4 * 4 * 4, 3)

    def construct(self, x: ms.Tensor) -> ms.Tensor:
        return self.fc(ops.flatten(ops.relu(self.bn(self.conv(x)))))


def sync_net(seed: int) -> SyncNet:
    ms.set_seed(seed)
    return SyncNet()


def gluon_net(num_devices: int) -> gluon.nn.HybridSequential:
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Conv2D(4, 3, in_channels=2),
            gluon.nn.SyncBatchNorm(in_channels=4, num_devices=num_devices),
            gluon.nn.Activation("relu"), gluon.nn.Dense(3, in_units=64))
    net.initialize()
    rng = np.random.default_rng(7)
    for _, p in sorted(net.collect_params().items()):
        if p.grad_req != "null":
            p.set_data(ms.Tensor(rng.standard_normal(p.shape).astype(np.float32) * 0.3))
    return net
