"""The incremental shape probe used while tracing (cellonnx/graph/shape_probe.py) knows what ONNX shape
inference over the whole graph knows: asked after every few nodes, as tracing asks, it ends with the same dims
for every value of traced graphs with a dynamic batch (convolutions and batch norm, attention, an LSTM,
reshapes computed from shapes)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from onnx import helper, shape_inference

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.graph.builder import is_raw_numeric, to_tensor_proto, value_info_of
from cellonnx.graph.shape_probe import ShapeProbe
from cellonnx.graph.compile import cell_parameters
from cellonnx.graph.trace import trace


class Flattening(nn.Cell):
    """Shape arithmetic: a reshape to (batch, -1) computed from the input's shape, a split and a concat."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Dense(4 * 6 * 6, 5)

    def construct(self, x):
        y = self.bn(self.conv(x))
        y = ops.reshape(y, (x.shape[0], 4, 36)) * 2.0  # static dims known only from the shape's contents
        y = ops.reshape(y, (x.shape[0], -1))
        a, b = ops.split(y, y.shape[1] // 2, axis=1)
        return self.fc(ops.concat((b, a), axis=1))


CASES = {
    "conv_bn": (Flattening, (2, 3, 6, 6)),
    "transformer_layer": (lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True),
                          (2, 5, 8)),
    "lstm": (lambda: nn.LSTM(4, 6, num_layers=2, batch_first=True), (2, 3, 4)),
}


def _full_inference(g) -> dict[str, list]:
    small, typed = [], []
    for name, arr in g.initializers.items():
        (small.append(to_tensor_proto(arr, name)) if arr.nbytes <= 512 or not is_raw_numeric(arr.dtype)
         else typed.append(value_info_of(name, arr)))
    graph = helper.make_graph(g.nodes, "whole", list(g.inputs) + typed, [], initializer=small)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", g.opset)])
    inferred = shape_inference.infer_shapes(model, data_prop=True)
    return {vi.name: [d.dim_value if d.HasField("dim_value") else None for d in vi.type.tensor_type.shape.dim]
            for vi in inferred.graph.value_info if vi.type.tensor_type.HasField("shape")}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_probe_knows_what_whole_graph_inference_knows(name: str) -> None:
    make, shape = CASES[name]
    ms.set_seed(0)
    net = make()
    net.set_train(False)
    x = ms.Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    g, _ = trace(net, [("x", x, [None, *shape[1:]])], cell_parameters(net))
    growing = SimpleNamespace(nodes=[], inputs=g.inputs, initializers=g.initializers, opset=g.opset)
    probe = ShapeProbe(growing)
    for end in range(len(g.nodes) + 1):  # a probe after every node: every chain of shape arithmetic is cut
        growing.nodes = g.nodes[:end]
        probe.dims()
    growing.nodes = g.nodes
    got = probe.dims()
    want = _full_inference(g)
    assert want, "whole-graph inference found nothing"
    for value, dims in want.items():
        assert got.get(value) == dims, f"{name}: {value}: probe {got.get(value)}, whole graph {dims}"
