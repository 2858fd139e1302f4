"""The training step of a small Gluon CNN (two Conv2D + BatchNorm + ReLU + MaxPool stages and a Dense head,
batch 32 x 3 x 32 x 32, softmax cross-entropy, SGD with momentum): the imperative loop
(``autograd.record()``, ``backward``, ``Trainer.step``) with the network hybridized (its forward and backward
run as onnxruntime graphs) against the same network run eagerly, and hybridized with onnxruntime's own Conv
kernels instead of the NCHWc ones (cellonnx/graph/nchwc_convs.py), in one process, in blocks of steps with a
pause between blocks (bench/blocks.py).

    .venv/bin/python bench/gluon_hybrid_train.py [--rounds 6] [--steps 5] [--batch 32]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blocks import in_blocks, timed

import cellonnx.mxnet as mx
from cellonnx.graph import nchwc_convs

gluon, autograd, nn = mx.gluon, mx.autograd, mx.gluon.nn


def small_cnn() -> nn.HybridSequential:
    net = nn.HybridSequential()
    net.add(nn.Conv2D(16, 3, padding=1), nn.BatchNorm(), nn.Activation("relu"), nn.MaxPool2D(2),
            nn.Conv2D(32, 3, padding=1), nn.BatchNorm(), nn.Activation("relu"), nn.MaxPool2D(2),
            nn.Flatten(), nn.Dense(10))
    return net


def side(hybrid: bool, batch: int, updates: list[float], nchwc: bool = True):
    rng = np.random.default_rng(0)
    x = mx.np.array(rng.normal(size=(batch, 3, 32, 32)).astype(np.float32))
    y = mx.np.array(rng.integers(0, 10, batch).astype(np.float32))
    net = small_cnn()
    net.initialize(mx.init.Xavier())
    if hybrid:
        net.hybridize(static_alloc=True, static_shape=True)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01, "momentum": 0.9})

    def step() -> None:
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        t = time.perf_counter()
        trainer.step(batch)
        updates.append(time.perf_counter() - t)

    saved = nchwc_convs.blocked_copy
    if not nchwc:   # the sessions are made at the first call
        nchwc_convs.blocked_copy = lambda *a, **k: None
    try:
        for _ in range(3):  # trace / warm up
            step()
    finally:
        nchwc_convs.blocked_copy = saved
    updates.clear()
    return lambda n: timed(step, n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--batch", type=int, default=32)
    args = ap.parse_args()
    updates: dict[str, list[float]] = {"eager": [], "hybridized": [], "hybridized, onnxruntime Conv": []}
    sides = {k: side(k != "eager", args.batch, updates[k], nchwc=k == "hybridized") for k in updates}
    times = in_blocks(sides, args.rounds, args.steps)
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    for k, v in med.items():
        print(f"{k:>28}: median {v:7.2f} ms per step ({len(times[k])} steps), of which Trainer.step "
              f"{statistics.median(updates[k]) * 1e3:.2f} ms")
    print(f"hybridized / eager: {med['hybridized'] / med['eager']:.2f}; NCHWc convs / onnxruntime's Conv: "
          f"{med['hybridized'] / med['hybridized, onnxruntime Conv']:.2f}")


if __name__ == "__main__":
    main()
