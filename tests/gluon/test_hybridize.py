"""hybridize() and export(): for every layer of the parity table, the compiled graph (traced once, batch axis
dynamic) and the exported ONNX file run by onnxruntime give the eager outputs, at several batch sizes."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from cellonnx import Tensor
from cellonnx.gluon import HybridBlock, nn, rnn
from tests.gluon.layer_cases import CASES, close, expected, load
from tests.tolerance import assert_close, sum_rtol

HYBRID_CASES = sorted(c for c in CASES if isinstance(CASES[c](), HybridBlock))


def batch(x: np.ndarray, n: int) -> np.ndarray:
    return np.concatenate([x] * n)[:n]


@pytest.mark.parametrize("case", HYBRID_CASES)
def test_hybridized_and_exported_match_eager(case: str, tmp_path) -> None:
    net = load(case)
    x = expected(case, "x")
    eager = {n: net(Tensor(batch(x, n))).asnumpy() for n in (1, 2, 3)}
    net.hybridize()
    for n in (2, 3):
        close(net(Tensor(batch(x, n))).asnumpy(), eager[n], f"{case}: hybridized, batch {n}")
    assert len(net._compiled) == 1, "one trace serves every batch size"
    path = net.export(str(tmp_path / case), epoch=3)
    assert path.endswith(f"{case}.onnx")
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    (inp,) = session.get_inputs()
    assert inp.shape[0] == "batch"
    for n in (1, 3):
        (out,) = session.run(None, {inp.name: batch(x, n)})
        close(out, eager[n], f"{case}: exported, batch {n}")
    meta = session.get_modelmeta().custom_metadata_map
    assert meta["epoch"] == "3"


@pytest.mark.filterwarnings("ignore:All children of this Sequential layer")
@pytest.mark.parametrize("case", sorted(set(CASES) - set(HYBRID_CASES)))
def test_plain_block_hybridizes_its_hybrid_children(case: str) -> None:
    net = load(case)
    x = Tensor(expected(case, "x"))
    eager = net(x).asnumpy()
    net.hybridize()
    close(net(x).asnumpy(), eager, f"{case}: hybridized children")
    compiled = [c for _, c in net.cells_and_names() if isinstance(c, HybridBlock) and c._compiled]
    assert compiled or not any(isinstance(c, HybridBlock) for _, c in net.cells_and_names())


def test_export_names_initializers_structurally(tmp_path) -> None:
    import onnx

    net = load("convnet")
    net.hybridize()
    net(Tensor(expected("convnet", "x")))
    model = onnx.load(net.export(str(tmp_path / "convnet")))
    names = {t.name for t in model.graph.initializer}
    assert {"features.0.weight", "features.1.running_var", "features.5.gamma", "head.3.bias"} <= names


def test_training_under_record_runs_compiled_and_deactivate() -> None:
    from cellonnx.gluon import autograd
    from cellonnx.gluon.hybrid_train import CompiledTraining

    net = load("batchnorm")
    x = Tensor(expected("batchnorm", "x"))
    net.hybridize()
    with autograd.record():
        y = net(x)
    y.backward(Tensor(expected("batchnorm", "head")))
    close(y.asnumpy(), expected("batchnorm", "y_train"), "training output while hybridized")
    (compiled,) = net._compiled.values()
    assert isinstance(compiled, CompiledTraining) and compiled.backward_runs == 1
    net.hybridize(False)
    net(x)
    assert not net._compiled


def test_compiled_graph_sees_updated_weights() -> None:
    net = nn.Dense(3, in_units=4)
    net.initialize()
    net.hybridize()
    x = Tensor(np.ones((2, 4), np.float32))
    first = net(x).asnumpy()
    net.weight.set_data(net.weight.data().asnumpy() * 2)
    net.bias.set_data(np.zeros(3, np.float32))
    close(net(x).asnumpy(), first * 2, "after set_data")


def test_static_shape_traces_per_shape() -> None:
    net = nn.Dense(3, in_units=4)
    net.initialize()
    net.hybridize(static_shape=True)
    net(Tensor(np.ones((2, 4), np.float32)))
    net(Tensor(np.ones((5, 4), np.float32)))
    assert len(net._compiled) == 2


def test_deferred_children_get_shapes_before_the_trace() -> None:
    net = nn.HybridSequential()
    net.add(nn.Dense(5, activation="relu"), nn.BatchNorm(), nn.Dense(2))
    net.initialize()
    net.hybridize()
    x = Tensor(np.random.default_rng(0).normal(size=(3, 7)).astype(np.float32))
    y = net(x)
    assert y.shape == (3, 2) and net[0].weight.shape == (5, 7)
    net.hybridize(False)
    close(net(x).asnumpy(), y.asnumpy(), "eager after deferred hybridized call")


def test_export_needs_a_forward_pass_first(tmp_path) -> None:
    net = nn.Dense(2, in_units=2)
    net.initialize()
    with pytest.raises(RuntimeError, match="run forward"):
        net.export(str(tmp_path / "m"))


def test_register_op_hook_sees_intermediate_outputs() -> None:
    net = load("convnet")
    net.hybridize()
    seen: list[tuple[str, str, tuple]] = []
    net.register_op_hook(lambda name, op, t: seen.append((name, op, tuple(t.shape))))
    x = Tensor(expected("convnet", "x"))
    net(x)
    ops_seen = {op for _, op, _ in seen}
    assert {"Conv", "BatchNormalization", "Relu", "MaxPool"} <= ops_seen
    conv_out = [shape for name, op, shape in seen if op == "Conv"]
    assert (2, 6, 8, 8) in conv_out
    count = len(seen)
    seen.clear()
    net.register_op_hook(lambda name, op, t: seen.append((name, op, tuple(t.shape))), monitor_all=True)
    net(x)
    assert len(seen) > count  # node inputs too


def test_optimize_for_compiles_for_a_provider() -> None:
    net = load("conv")
    x = Tensor(expected("conv", "x"))
    eager = net(x).asnumpy()
    net.optimize_for(x, backend="CPUExecutionProvider")
    assert net._active and len(net._compiled) == 1
    close(net(x).asnumpy(), eager, "optimize_for")
    with pytest.raises(ValueError, match="unknown backend"):
        net.optimize_for(x, backend="TensorRT-ish")


def test_hybrid_block_refuses_plain_block_child() -> None:
    net = nn.HybridSequential()
    with pytest.raises(ValueError, match="HybridSequential"):
        net.add(nn.Lambda("tanh"))


def test_hybridized_loss_takes_two_inputs_with_a_dynamic_batch() -> None:
    from cellonnx.gluon import loss

    fn = loss.SoftmaxCrossEntropyLoss()
    pred = np.random.default_rng(0).normal(size=(4, 5)).astype(np.float32)
    label = np.array([0, 4, 2, 1], np.float32)
    eager = fn(Tensor(pred), Tensor(label)).asnumpy()
    fn.hybridize()
    close(fn(Tensor(pred), Tensor(label)).asnumpy(), eager, "hybridized loss")
    close(fn(Tensor(pred[:3]), Tensor(label[:3])).asnumpy(), eager[:3], "hybridized loss, batch 3")
    assert len(fn._compiled) == 1


def test_a_hybridized_block_with_deferred_shapes_runs_in_graph_mode() -> None:
    """The first call in GRAPH_MODE still runs eagerly once to give the layers their shapes."""
    import cellonnx as ms
    from cellonnx.gluon import nn as gnn

    net = gnn.HybridSequential()
    net.add(gnn.Dense(8, activation="relu"), gnn.Dense(3))
    net.initialize()
    net.hybridize()
    x = ms.Tensor(np.random.default_rng(0).random((4, 5)).astype(np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = net(x).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    dense1, dense2 = net[0], net[1]
    hidden = np.maximum(x.asnumpy() @ dense1.weight.data().asnumpy().T + dense1.bias.data().asnumpy(), 0)
    want = hidden @ dense2.weight.data().asnumpy().T + dense2.bias.data().asnumpy()
    assert_close(got, want, rtol=1e-5, scale_rtol=sum_rtol(dense1.weight.shape[1] + dense2.weight.shape[1]))


class _Unrolled(HybridBlock):
    """A cell unrolled without begin_state: the zero states take the batch of the inputs."""

    def __init__(self, cell) -> None:
        super().__init__()
        self.cell = cell

    def forward(self, x):
        out, _ = self.cell.unroll(5, x, layout="NTC", merge_outputs=True)
        return out


@pytest.mark.parametrize("make", [lambda: rnn.LSTMCell(4, input_size=3),
                                  lambda: _stacked(), lambda: rnn.BidirectionalCell(
                                      rnn.GRUCell(2, input_size=3), rnn.GRUCell(2, input_size=3))],
                         ids=["lstm_cell", "sequential", "bidirectional"])
def test_an_unrolled_cell_without_begin_state_serves_every_batch_size(make) -> None:
    net = _Unrolled(make())
    net.initialize()
    xs = [np.random.default_rng(b).standard_normal((b, 5, 3)).astype(np.float32) for b in (3, 2, 4, 1)]
    eager = [net(Tensor(x)).asnumpy() for x in xs]
    net.hybridize()
    for x, want in zip(xs, eager):  # the first call runs eagerly, the second traces, the rest reuse it
        got = net(Tensor(x)).asnumpy()
        assert_close(got, want, rtol=1e-5, scale_rtol=sum_rtol(8), what=f"batch {len(x)}")
    assert len(net._compiled) == 1, "one graph for every batch size"


def _stacked():
    seq = rnn.HybridSequentialRNNCell()
    seq.add(rnn.LSTMCell(4, input_size=3))
    seq.add(rnn.RNNCell(2, input_size=4))
    return seq
