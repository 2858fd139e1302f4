"""compile() as MindSpore users meet it: GRAPH_MODE dispatch (one trace per input signature, onnxruntime
runs the call, training stays eager), Cell.compile / compile_and_run, set_inputs with dynamic dims, and
compiled cells that never serve stale weights (optimizer steps, load_param_into_net) without re-tracing."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
import pytest

import cellonnx as ms
from cellonnx import Tensor, nn, ops
from cellonnx.graph import compile as C
from cellonnx.graph.runtime import Session
from tests.tolerance import assert_close

RTOL, SCALE_RTOL = 1e-5, 1e-6  # SCALE_RTOL: of the output's scale, at least 1
HAS_CUDA = "CUDAExecutionProvider" in ort.get_available_providers()


class Counter:
    """Counts traces (compile.trace_cell) and onnxruntime runs (Session.run)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.traces = 0
        self.runs = 0
        trace_cell, run = C.trace_cell, Session.run

        def counting_trace(*args: Any, **kwargs: Any) -> Any:
            self.traces += 1
            return trace_cell(*args, **kwargs)

        def counting_run(sess: Session, *args: Any, **kwargs: Any) -> Any:
            self.runs += 1
            return run(sess, *args, **kwargs)

        monkeypatch.setattr(C, "trace_cell", counting_trace)
        monkeypatch.setattr(Session, "run", counting_run)


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> Counter:
    return Counter(monkeypatch)


@pytest.fixture
def graph_mode() -> Iterator[None]:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        yield
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


class ConvNet(nn.Cell):
    """Weights used through ops onnxruntime folds or fuses at load time: Conv + BatchNorm (fused), a 3-D
    Dense (its weight transposed)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.proj = nn.Dense(8, 8)
        self.fc = nn.Dense(4 * 8 * 8, 5)

    def construct(self, x: Tensor) -> Tensor:
        y = self.proj(self.relu(self.bn(self.conv(x))))  # Dense over (N, C, H, W): one MatMul + Add
        return self.fc(ops.reshape(y, (y.shape[0], -1)))


class TextNet(nn.Cell):
    """Embedding (Gather of the table) and LSTM (gates reordered by Gathers of its weights)."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(20, 6)
        self.lstm = nn.LSTM(6, 5, batch_first=True)
        self.fc = nn.Dense(5, 3)

    def construct(self, ids: Tensor) -> Tensor:
        out, _ = self.lstm(self.emb(ids))
        return self.fc(out[:, -1])


def _image(n: int = 2, seed: int = 0) -> Tensor:
    return Tensor(np.random.default_rng(seed).standard_normal((n, 3, 8, 8)).astype(np.float32))


def _ids(n: int = 2, seed: int = 0) -> Tensor:
    return Tensor(np.random.default_rng(seed).integers(0, 20, (n, 7)).astype(np.int32))


def _close(a: Tensor, b: Tensor) -> None:
    assert_close(a.asnumpy(), b.asnumpy(), rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0)


# ---------------------------------------------------------------- GRAPH_MODE
def test_graph_mode_compiles_once_per_signature_and_runs_in_onnxruntime(counter: Counter) -> None:
    net = ConvNet()
    net.set_train(False)
    x, x2, x5 = _image(), _image(seed=1), _image(5)
    want = [net(x), net(x2), net(x5)]  # PYNATIVE
    assert (counter.traces, counter.runs) == (0, 0)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        first = net(x)
        assert (counter.traces, counter.runs) == (1, 1)
        second = net(x2)  # same signature: the compile cache is hit
        assert (counter.traces, counter.runs) == (1, 2)
        assert len(C._CACHE[net]) == 1
        other = net(x5)  # a new batch size without set_inputs is a new signature
        assert (counter.traces, counter.runs) == (2, 3)
        assert len(C._CACHE[net]) == 2
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for got, expected in zip((first, second, other), want):
        assert isinstance(got, Tensor)
        _close(got, expected)


def test_graph_mode_only_the_top_level_call_is_compiled(counter: Counter, graph_mode: None) -> None:
    net = nn.SequentialCell([ConvNet(), nn.ReLU()])
    net.set_train(False)
    net(_image())
    assert counter.traces == 1
    assert set(C._CACHE.get(net[0], {})) == set()  # the inner cell ran inside the traced graph


def test_graph_mode_training_calls_stay_eager(counter: Counter, graph_mode: None) -> None:
    net = ConvNet()
    net.set_train(True)
    x = _image()
    before = net.bn.moving_mean.asnumpy().copy()
    out = net(x)
    assert (counter.traces, counter.runs) == (0, 0)
    assert not np.allclose(net.bn.moving_mean.asnumpy(), before)  # batch statistics were used and tracked
    assert isinstance(out, Tensor)


def test_graph_mode_training_step_matches_pynative(counter: Counter) -> None:
    def losses(mode: int) -> list[float]:
        ms.set_seed(3)
        net = ConvNet()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.05))
        y = Tensor(np.ones((2, 5), np.float32))
        ms.set_context(mode=mode)
        try:
            return [float(step(_image(), y).asnumpy()) for _ in range(3)]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)

    pynative = losses(ms.PYNATIVE_MODE)
    graph = losses(ms.GRAPH_MODE)  # one compiled step (cellonnx/graph/train.py), not an inference trace
    assert counter.traces == 0
    np.testing.assert_allclose(graph, pynative, rtol=1e-5)
    assert graph[-1] < graph[0]


def test_cell_compile_and_compile_and_run(counter: Counter) -> None:
    net = TextNet()
    net.set_train(False)
    ids = _ids()
    compiled = net.compile(ids)
    assert isinstance(compiled, C.CompiledCell)
    assert net.compile(ids) is compiled  # cached per input signature
    assert counter.traces == 1
    _close(compiled(ids), net(ids))
    _close(net.compile_and_run(_ids(seed=4)), net(_ids(seed=4)))
    assert counter.traces == 1
    assert [i.name for i in compiled.model.graph.input] == ["ids"]


def test_set_inputs_with_none_dims_gives_one_graph_for_every_batch_size(counter: Counter,
                                                                       graph_mode: None) -> None:
    net = ConvNet()
    net.set_train(False)
    net.set_inputs(Tensor(shape=(None, 3, 8, 8), dtype=ms.float32))
    outs = {n: net(_image(n, seed=n)) for n in (1, 3, 8)}
    assert counter.traces == 1
    assert counter.runs == 3
    (compiled,) = C._CACHE[net].values()
    dims = compiled.model.graph.input[0].type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in dims] == ["batch", 3, 8, 8]
    ms.set_context(mode=ms.PYNATIVE_MODE)
    for n, got in outs.items():
        assert got.shape == (n, 5)
        _close(got, net(_image(n, seed=n)))


def test_set_inputs_declaring_a_static_dim_rejects_other_sizes() -> None:
    net = ConvNet()
    net.set_train(False)
    net.set_inputs(Tensor(shape=(None, 3, 8, 8), dtype=ms.float32))
    with pytest.raises(ValueError, match="set_inputs declared dim 2 = 8"):
        net.compile(Tensor(np.zeros((2, 3, 9, 9), np.float32)))


# ---------------------------------------------------------------- never stale weights
@pytest.mark.parametrize("make, data", [(ConvNet, _image), (TextNet, _ids)],
                         ids=["conv_bn_dense", "emb_lstm"])
def test_optimizer_step_reaches_the_compiled_cell_without_retracing(counter: Counter, make: Any,
                                                                    data: Any) -> None:
    net = make()
    net.set_train(False)
    x = data()
    compiled = net.compile(x)
    before = compiled(x).asnumpy()
    assert counter.traces == 1 and compiled.sessions_built == 1
    compiled(x)
    assert compiled.sessions_built == 1  # nothing changed: the session is reused

    y = Tensor(np.random.default_rng(5).standard_normal(before.shape).astype(np.float32))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.5))
    step(x, y)
    net.set_train(False)
    after = compiled(x)
    assert counter.traces == 1  # no re-trace
    assert compiled.sessions_built == 2  # only the session was rebuilt
    _close(after, net(x))
    assert not np.allclose(after.asnumpy(), before, atol=1e-3)


def test_loaded_parameters_reach_the_compiled_cell(counter: Counter, tmp_path: Path) -> None:
    net, other = TextNet(), TextNet()
    for cell in (net, other):
        cell.set_train(False)
    ids = _ids()
    compiled = net.compile(ids)
    first = compiled(ids).asnumpy()
    if hasattr(ms, "load_param_into_net") and hasattr(ms, "save_checkpoint"):
        ms.save_checkpoint(other, str(tmp_path / "other.ckpt"))
        not_loaded, _ = ms.load_param_into_net(net, ms.load_checkpoint(str(tmp_path / "other.ckpt")))
        assert not_loaded == []
    else:
        for p, q in zip(net.get_parameters(), other.get_parameters()):
            p.set_data(q.asnumpy().copy())
    again = compiled(ids)
    assert counter.traces == 1
    _close(again, other(ids))
    assert not np.allclose(again.asnumpy(), first)


def test_graph_mode_call_after_training_sees_new_weights(counter: Counter, graph_mode: None) -> None:
    net = ConvNet()
    x = _image()
    net.set_train(False)
    before = net(x).asnumpy()
    assert counter.traces == 1
    optimizer = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), optimizer)
    for _ in range(2):
        step(x, Tensor(np.zeros((2, 5), np.float32)))  # the compiled training step
    net.set_train(False)
    after = net(x)
    assert counter.traces == 1
    ms.set_context(mode=ms.PYNATIVE_MODE)
    _close(after, net(x))
    assert not np.allclose(after.asnumpy(), before, atol=1e-3)


def test_a_parameter_changing_dtype_asks_for_a_new_compile() -> None:
    net = nn.Dense(3, 2)
    net.set_train(False)
    x = Tensor(np.ones((1, 3), np.float32))
    compiled = net.compile(x)
    compiled(x)
    net.to(ms.float64)
    with pytest.raises(RuntimeError, match="'weight' changed from float"):
        compiled(x)


# ---------------------------------------------------------------- CUDA
@pytest.mark.gpu
@pytest.mark.skipif(not HAS_CUDA, reason="needs onnxruntime-gpu and a CUDA device")
def test_graph_mode_on_gpu_matches_cpu() -> None:
    net = ConvNet()
    net.set_train(False)
    x = _image(3)
    want = net(x)
    ms.set_context(mode=ms.GRAPH_MODE, device_target="GPU")
    try:
        got = net(x)
        (compiled,) = C._CACHE[net].values()
        assert compiled.session.on_gpu
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    assert_close(got.asnumpy(), want.asnumpy(), rtol=1e-4, scale_rtol=1e-5, min_scale=1.0)
