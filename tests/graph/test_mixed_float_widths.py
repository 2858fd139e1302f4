"""A float64 batch through float32 weights computes in float64 eagerly (NumPy's promotion); traced, each op
whose float inputs differ in width casts the narrower ones to its result's type first (ONNX ops take one
float type: a float64 by float32 Gemm would not load). Compiled inference and a compiled training step equal
eager."""
from __future__ import annotations

import numpy as np

import cellonnx as ms
from cellonnx import nn
from tests.tolerance import assert_close
from tests.train_graph.harness import check_trajectory, momentum_step


def _net() -> nn.Cell:
    return nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3))


def test_float64_batch_through_float32_weights_compiles_as_eager() -> None:
    net = _net()
    x = ms.Tensor(np.random.default_rng(0).random((4, 6)))
    eager = net(x)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        compiled = net(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert eager.dtype == compiled.dtype == ms.float64
    assert_close(compiled.asnumpy(), eager.asnumpy(), rtol=1e-12)


def test_float64_batches_train_compiled_as_eager() -> None:
    rng = np.random.default_rng(1)
    batches = [(ms.Tensor(rng.random((4, 6))), ms.Tensor(rng.integers(0, 3, 4).astype(np.int32)))
               for _ in range(3)]
    check_trajectory(lambda: momentum_step(_net(), 0.1), batches, what="float64 batches, float32 weights")
