"""Dropout in a compiled step draws from the counter generator (cellonnx/ops/prims/counter_rng.py) through
the ``rng_state`` graph input: the masks are the eager step's, so a compiled trajectory with dropout equals
the eager one; consecutive steps draw fresh masks, a step re-run from the same state repeats them, and an
inference graph holds no dropout."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import pytest
from cellonnx.models import lstm_classifier, transformer

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.graph import train as graph_train
from cellonnx.ops.prims.counter_rng import STATE_NAME, rng_state
from tests.train_graph.harness import STEPS, check_trajectory, classification_batches


def _ids(n: int, length: int, vocab: int, classes: int, seed: int = 0) -> list[tuple]:
    rng = np.random.default_rng(seed)
    return [(ms.Tensor(rng.integers(0, vocab, (n, length)).astype(np.int32)),
             ms.Tensor(rng.integers(0, classes, (n,)).astype(np.int32))) for _ in range(STEPS)]


class ConvNet(nn.Cell):
    """Conv2d -> Dropout2d -> Conv1d over the rows -> Dropout1d -> Dense."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, pad_mode="same")
        self.drop2d = nn.Dropout2d(p=0.4)
        self.conv1d = nn.Conv1d(4, 4, 3, pad_mode="same")
        self.drop1d = nn.Dropout1d(p=0.25)
        self.fc = nn.Dense(4 * 6, 3)
        self.drop = nn.Dropout(p=0.2)

    def construct(self, x: Any) -> Any:
        h = self.drop2d(ops.relu(self.conv(x)))            # (N, 4, 6, 6)
        h = ops.mean(h, 3)                                 # (N, 4, 6)
        h = self.drop1d(ops.relu(self.conv1d(h)))
        return self.fc(self.drop(ops.reshape(h, (h.shape[0], -1))))


NETS: dict[str, tuple[Callable[[], nn.Cell], Callable[[], list]]] = {
    "MLP": (lambda: nn.SequentialCell(nn.Dense(6, 32), nn.ReLU(), nn.Dropout(p=0.3), nn.Dense(32, 16),
                                      nn.Tanh(), nn.Dropout(keep_prob=0.5), nn.Dense(16, 3)),
            lambda: classification_batches((8, 6), 3, sizes=[8, 5])),
    "Transformer": (lambda: transformer.transformer_classifier(3, vocab_size=20, hidden_size=16, num_layers=2,
                                                               num_heads=2, intermediate_size=32,
                                                               max_position=8, dropout=0.3),
                    lambda: _ids(3, 6, 20, 3)),
    "LSTMClassifier": (lambda: lstm_classifier.lstm_classifier(3, vocab_size=20, embedding_size=8,
                                                               hidden_size=8, num_layers=2, dropout=0.5),
                       lambda: _ids(3, 5, 20, 3)),
    "ConvNet": (ConvNet, lambda: classification_batches((3, 2, 6, 6), 3)),
}


def _train_step(make_net: Callable[[], nn.Cell], opt: str = "momentum") -> Callable[[], Any]:
    def build() -> Any:
        net = make_net()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        optimizer = nn.Momentum(net.trainable_params(), 0.05, 0.9) if opt == "momentum" else \
            nn.SGD(net.trainable_params(), 0.0)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
        step.set_train()
        build.step = step  # type: ignore[attr-defined]
        return step
    return build


@pytest.mark.parametrize("algo", ["lowbias32", "squares32"])
@pytest.mark.parametrize("name", sorted(NETS))
def test_dropout_trajectory_equals_eager(name: str, algo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the generator's CPU hash, and with its CUDA hash (the step traced as for CUDA, run here by the
    CPU provider)."""
    from cellonnx.graph import builder

    monkeypatch.setattr(builder, "targets_gpu", lambda: algo == "squares32")
    make_net, batches = NETS[name]
    build = _train_step(make_net)
    check_trajectory(build, batches(), what=f"{name} ({algo})")
    (compiled,) = graph_train.compiled_steps(build.step)
    kinds = [n.op_type for n in compiled.step.model.graph.node]
    assert "Dropout" not in kinds and ("BitwiseXor" in kinds) == (algo == "lowbias32")
    # both runs drew the same number of times: the generator ends where the eager one did
    assert int(rng_state().asnumpy()[2]) > 0


@pytest.mark.parametrize("name", sorted(NETS))
def test_dropout_for_cuda_computes_nothing_on_the_host(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Traced for CUDA (static dims): no Shape / Size node is left for onnxruntime to run on the host (each one
    a copy per step, and no CUDA graph capture); the masks' counters are constants or a Range of constants."""
    from cellonnx.graph import builder, step_trace

    monkeypatch.setattr(builder, "targets_gpu", lambda: True)
    monkeypatch.setattr(step_trace, "targets_gpu", lambda: True)
    make_net, batches = NETS[name]
    build = _train_step(make_net)
    check_trajectory(build, batches(), what=f"{name} (static, for CUDA)")
    for compiled in graph_train.compiled_steps(build.step):   # one per batch size
        _assert_nothing_on_the_host(compiled.step.model)


def _assert_nothing_on_the_host(model: Any) -> None:
    consts = {t.name for t in model.graph.initializer}
    kinds = {n.op_type for n in model.graph.node}
    assert not kinds & {"Shape", "Size"}, kinds & {"Shape", "Size"}
    for node in model.graph.node:
        if node.op_type == "Range":
            assert set(node.input) <= consts, f"{node.name}: a Range of computed bounds"


def test_wide_dropout_keeps_its_counters_a_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mask over 16 x 4096 values: its counters stay a Range node rather than a 256 KiB constant in the
    model (and shape inference, which would follow each of their values, skips them: tracing at batch 64
    took minutes)."""
    from cellonnx.graph import builder, step_trace

    monkeypatch.setattr(builder, "targets_gpu", lambda: True)
    monkeypatch.setattr(step_trace, "targets_gpu", lambda: True)
    build = _train_step(lambda: nn.SequentialCell(nn.Dense(8, 4096), nn.Dropout(p=0.5), nn.Dense(4096, 3)))
    check_trajectory(build, classification_batches((16, 8), 3), what="wide dropout (static, for CUDA)")
    (compiled,) = graph_train.compiled_steps(build.step)
    model = compiled.step.model
    _assert_nothing_on_the_host(model)
    assert "Range" in {n.op_type for n in model.graph.node}
    integers = [t for t in model.graph.initializer if t.data_type in (onnx.TensorProto.INT64, onnx.TensorProto.UINT64)]
    assert max(int(np.prod(t.dims)) for t in integers) < 1024


def _probe_step() -> tuple[Any, nn.Cell, tuple]:
    ms.set_seed(5)
    net = nn.SequentialCell(nn.Dense(4, 64), nn.Dropout(p=0.5), nn.Dense(64, 2))
    step = _train_step(lambda: net, "sgd0")()
    x = ms.Tensor(np.random.default_rng(0).standard_normal((16, 4)).astype(np.float32))
    y = ms.Tensor(np.zeros(16, np.int32))
    return step, net, (x, y)


def test_steps_draw_fresh_masks_and_a_rerun_from_the_same_state_repeats_them() -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step, _, batch = _probe_step()   # learning rate 0: only the masks change the loss
        saved = rng_state().asnumpy().copy()
        losses = [float(step(*batch).asnumpy()) for _ in range(3)]
        assert len(set(losses)) == 3
        assert int(rng_state().asnumpy()[2]) == int(saved[2]) + 3
        rng_state().set_data(saved)          # back to the state before the first step
        again = [float(step(*batch).asnumpy()) for _ in range(3)]
        ms.set_seed(5)                       # set_seed restarts the stream the steps draw from
        rng_state().set_data(saved)
        (compiled,) = graph_train.compiled_steps(step)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert again == losses
    inputs = [i.name for i in compiled.step.model.graph.input]
    assert STATE_NAME in inputs
    assert f"{STATE_NAME}.new" in [n for n, _ in compiled.step.updates]


def test_inference_graph_holds_no_dropout() -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _, net, (x, _) = _probe_step()
        net.set_train(False)
        out = net(x).asnumpy()
        kinds = {n.op_type for n in net.compile(x).traced.model.graph.node}
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert out.shape == (16, 2)
    assert not kinds & {"Dropout", "BitwiseXor", "Range", "RandomUniformLike"}
