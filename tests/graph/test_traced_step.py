"""A network's loss and weight gradients traced into one graph (value_and_grad, as a compiled training step
holds them) equal eager ones on batches other than the one it was traced at: nothing of the example (an
argmax, a batch statistic) is baked into the graph as a constant."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import cellonnx as ms
from cellonnx import nn
from cellonnx.graph.optimize import optimize
from cellonnx.graph.trace import trace
from cellonnx.tensor import Tensor
from tests.tolerance import assert_close


def _convnet() -> nn.Cell:
    return nn.SequentialCell([nn.Conv2d(2, 4, 3, pad_mode="pad", padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                              nn.MaxPool2d(2, 2), nn.Conv2d(4, 6, 3, stride=2, pad_mode="same"), nn.ReLU(),
                              nn.AvgPool2d(2, 2), nn.Flatten(), nn.Dense(6, 3)])


def _overlapping_pools() -> nn.Cell:
    return nn.SequentialCell([nn.Conv2d(2, 3, 3), nn.ReLU(), nn.MaxPool2d(3, 2, pad_mode="same"),
                              nn.AvgPool2d(3, 1), nn.Flatten(), nn.Dense(27, 3)])


class _Norms(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.dense = nn.Dense(8, 8)
        self.norm = nn.LayerNorm((8,))
        self.out = nn.Dense(8, 3)

    def construct(self, x):
        return self.out(ms.ops.gelu(self.norm(self.dense(x.reshape(x.shape[0], -1)))))


class _Embedded(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.embedding = nn.Embedding(7, 4)
        self.out = nn.Dense(12, 3)

    def construct(self, ids):
        return self.out(self.embedding(ids).reshape(ids.shape[0], -1))


# name -> (network factory, input shape, int32 ids below this vocabulary or 0 for float inputs)
NETS: dict[str, tuple[Callable[[], nn.Cell], tuple[int, ...], int]] = {
    "conv_bn_pools": (_convnet, (4, 2, 8, 8), 0),
    "overlapping_pools": (_overlapping_pools, (3, 2, 9, 9), 0),
    "dense_layer_norm": (_Norms, (5, 2, 4), 0),
    "embedding_int32_ids": (_Embedded, (4, 3), 7),
}


def _batch(seed: int, shape: tuple[int, ...], vocab: int) -> tuple[np.ndarray, np.ndarray]:
    r = np.random.default_rng(seed)
    x = r.integers(0, vocab, shape).astype(np.int32) if vocab else r.standard_normal(shape).astype(np.float32)
    return x, r.integers(0, 3, shape[0]).astype(np.int32)


def _eager(net: nn.Cell, loss: nn.Cell, x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    weights = net.trainable_params()
    value, grads = ms.value_and_grad(lambda a, b: loss(net(a), b), None, weights)(Tensor(x), Tensor(y))
    return [value.asnumpy()] + [g.asnumpy() for g in grads]


@pytest.mark.parametrize("name", sorted(NETS))
def test_traced_step_follows_the_batch(name: str) -> None:
    factory, shape, vocab = NETS[name]
    ms.set_seed(0)
    net = factory()
    net.set_train()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    weights = net.trainable_params()
    params = list(net.parameters_and_names())
    vg = ms.value_and_grad(lambda a, b: loss(net(a), b), None, weights)

    def step(a: Tensor, b: Tensor) -> tuple:
        value, grads = vg(a, b)
        return (value, *grads)

    example, labels = _batch(0, shape, vocab)
    g, _ = trace(step, [("x", Tensor(example), list(shape)), ("y", Tensor(labels), [shape[0]])], params)
    model = optimize(g.model(), keep_initializers=[n for n, _ in params])
    onnx.checker.check_model(model, full_check=True)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for seed in (1, 2):
        x, y = _batch(seed, shape, vocab)
        got = sess.run(None, {"x": x, "y": y})
        want = _eager(net, loss, x, y)
        for k, (a, b) in enumerate(zip(got, want)):
            assert_close(a, b, rtol=1e-4, scale_rtol=1e-5, what=f"{name} output {k} (batch seed {seed})")
