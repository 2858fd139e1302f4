"""amp.convert_hybrid_block traces a block to MXNet's operator graph: Gluon 1.x code through
``hybrid_forward(F, ...)`` with its gluon.nn layers (against MXNet 1.9.1's conversion of the same network,
tests/fixtures/mxnet/amp/hybrid_layers.json), and Gluon 2.x code through ``forward`` (layers, mx.npx
operators), as MXNet 2.x traces it: the same graph as the 1.x form's, names aside, and the same outputs."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet.contrib import amp
from tests.mxnet import amp_layer_nets as nets
from tests.tolerance import assert_close

WANT = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "amp" /
                   "hybrid_layers.json").read_text())
BF16 = dict(rtol=2.0 ** -6, scale_rtol=2.0 ** -6)  # a few bfloat16 roundings through the network


def _nodes(block: mx.gluon.SymbolBlock) -> list:
    return [[n["op"], n["name"], n.get("attrs", {}), n["inputs"]]
            for n in json.loads(block.symbol.tojson(remove_amp_cast=False))["nodes"]]


def _convert(style: str) -> tuple:
    with mx.name.NameManager():
        net = nets.build(mx, style)
    net.hybridize()
    x = mx.nd.array(nets.data())
    want = net(x).asnumpy()
    return net, x, want, amp.convert_hybrid_block(net, target_dtype="bfloat16", ctx=mx.cpu())


def test_gluon1_layers_convert_as_mxnet() -> None:
    """The 1.x form: MXNet 1.9.1's converted graph node for node (variables' attributes aside), parameter
    types and float32 outputs; the converted block computes them to bfloat16's precision."""
    net, x, want, out = _convert("1.x")
    strip = [[op, name, {} if op == "null" else attrs, inputs] for op, name, attrs, inputs in WANT["nodes"]]
    assert _nodes(out) == strip
    assert {k: np.dtype(p.data().dtype).name for k, p in out.collect_params().items()} == WANT["params"]
    assert_close(want, np.array(WANT["output"]), rtol=1e-6, scale_rtol=1e-6)
    assert_close(out(x).asnumpy(), want, **BF16)
    assert_close(net(x).asnumpy(), want, rtol=1e-6, scale_rtol=1e-6)  # the block still runs compiled


def test_gluon2_block_traces_to_the_gluon1_graph() -> None:
    """The 2.x form (forward, mx.npx): the 1.x form's converted graph but for names, parameters named by
    collect_params (structural), the same outputs."""
    _, _, _, first = _convert("1.x")
    net, x, want, out = _convert("2.x")
    assert_close(want, np.array(WANT["output"]), rtol=1e-6, scale_rtol=1e-6)

    def unnamed(nodes: list) -> list:
        return [[op, {} if op == "null" else attrs, inputs] for op, _, attrs, inputs in nodes]
    assert unnamed(_nodes(out)) == unnamed(_nodes(first))
    assert set(out.collect_params()) == set(net.collect_params())
    assert [np.dtype(p.data().dtype).name for p in out.collect_params().values()] == \
        [np.dtype(p.data().dtype).name for p in first.collect_params().values()]
    np.testing.assert_array_equal(out(x).asnumpy(), first(x).asnumpy())
    assert_close(out(x).asnumpy(), want, **BF16)


def test_npx_operators_on_symbols_add_their_nodes() -> None:
    data, weight = mx.sym.var("data"), mx.sym.var("weight")
    fc = mx.npx.fully_connected(data, weight, num_hidden=3)
    nodes = json.loads(mx.sym.Group([fc, mx.npx.softmax(fc, axis=0)]).tojson())["nodes"]
    assert [(n["op"], n.get("attrs", {})) for n in nodes if n["op"] != "null"] == [
        ("FullyConnected", {"no_bias": "True", "num_hidden": "3"}), ("softmax", {"axis": "0"})]


def test_a_block_that_does_not_trace_is_named() -> None:
    class Recurrent(mx.gluon.HybridBlock):
        def __init__(self) -> None:
            super().__init__()
            self.lstm = mx.gluon.rnn.LSTM(4, input_size=3)

        def forward(self, x):
            return self.lstm(x)

    net = Recurrent()
    net.initialize()
    net.hybridize()
    net(mx.nd.ones((2, 1, 3)))
    with pytest.raises(NotImplementedError, match="convert_hybrid_block: Recurrent does not trace"):
        amp.convert_hybrid_block(net, target_dtype="bfloat16")
