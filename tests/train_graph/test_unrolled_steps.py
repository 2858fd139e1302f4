"""A recurrence unrolls over its time steps (one node per step in the gradient of LSTM and GRU, and in
DynamicRNN / DynamicGRUV2), so the steps cannot be a dynamic dim of a graph. Time-major (MindSpore's default,
``batch_first=False``), they are axis 0, which a compiled step leaves dynamic: traced at 1 step, such a graph
took every sequence for one step (silently); traced at 4, a sequence of 6 failed in onnxruntime. The step now
sees that and is traced with axis 0 static, once per sequence length; a plain trace says which dim to
declare static."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.graph import train
from cellonnx.graph.trace import StaticDimRequired, trace
from tests.tolerance import assert_close
from tests.train_graph.harness import check_trajectory

LENGTHS = (1, 4, 3, 4, 6)   # traced first at one step


class TimeMajor(nn.Cell):
    def __init__(self, layer: Callable[[], nn.Cell]) -> None:
        super().__init__()
        self.rnn = layer()
        self.fc = nn.Dense(4, 2)

    def construct(self, x: Any) -> Any:
        y, _ = self.rnn(x)
        return self.fc(y[-1])


LAYERS: dict[str, Callable[[], nn.Cell]] = {
    "LSTM": lambda: nn.LSTM(3, 4),
    "GRU": lambda: nn.GRU(3, 4),
    "bidirectional LSTM": lambda: nn.LSTM(3, 2, bidirectional=True),
}


def _batches() -> list[tuple]:
    rng = np.random.default_rng(0)
    return [(ms.Tensor(rng.standard_normal((t, 2, 3)).astype(np.float32)),
             ms.Tensor(rng.standard_normal((2, 2)).astype(np.float32))) for t in LENGTHS]


def _step(layer: Callable[[], nn.Cell]) -> Callable[[], Any]:
    def build() -> Any:
        net = TimeMajor(layer)
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        step.set_train()
        build.step = step  # type: ignore[attr-defined]
        return step
    return build


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_time_major_recurrence_trains_at_every_length(name: str) -> None:
    build = _step(LAYERS[name])
    check_trajectory(build, _batches(), what=name)
    assert len(train.compiled_steps(build.step)) == len(set(LENGTHS)), "one graph per sequence length"


def test_dynamic_steps_in_a_plain_trace_name_the_dim() -> None:
    lstm = nn.LSTM(3, 4)
    x = ms.Tensor(np.ones((2, 2, 3), np.float32))
    loss = ms.grad(lambda t: ops.sum(lstm(t)[0]))
    with pytest.raises(StaticDimRequired, match=r"the LSTM's gradient unrolls over its 2 steps, a dim that "
                                                r"is dynamic in this graph; declare that dim static"):
        trace(loss, [("x", x, [None, 2, 3])])
    trace(loss, [("x", x, [2, None, 3])])   # the batch dynamic, the steps static: it traces


def test_hybridized_time_major_gluon_lstm_trains_at_every_length() -> None:
    """The same under ``autograd.record()``: a hybridized gluon LSTM (layout TNC) takes each sequence length
    through a graph of its own and trains as the eager block does."""
    import cellonnx.mxnet as mx

    rng = np.random.default_rng(1)
    xs = [mx.nd.array(rng.standard_normal((t, 2, 3)).astype(np.float32)) for t in LENGTHS]
    nets = []
    for hybrid in (False, True):
        ms.set_seed(3)
        net = mx.gluon.rnn.LSTM(4, input_size=3)
        net.initialize()
        for i, p in enumerate(net.collect_params().values()):
            p.set_data(mx.nd.array(np.random.default_rng(i).uniform(-0.5, 0.5, p.shape).astype(np.float32)))
        if hybrid:
            net.hybridize()
        trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
        for x in xs:
            with mx.autograd.record():
                loss = (net(x) ** 2).sum()
            loss.backward()
            trainer.step(1)
        nets.append(net)
    for p, q in zip(nets[0].collect_params().values(), nets[1].collect_params().values()):
        assert_close(q.data().asnumpy(), p.data().asnumpy(), 1e-5, 1e-6, what=p.name)
