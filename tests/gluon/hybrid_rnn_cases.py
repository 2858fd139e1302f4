"""Training hybridized Gluon recurrent blocks (gluon.rnn's LSTM / GRU / RNN layers, a model taking their
states as one list argument, an LSTMCell unrolled in a block), written once for both frameworks:
``train(mx, case, hybrid)`` builds the case's block with the ``mx`` given (real MXNet 1.9.1 in
tests/fixtures/mxnet/gen_hybrid_rnn_train.py, cellonnx.mxnet in test_hybrid_rnn_training.py) and runs the
imperative loop of MXNet's word language model (train.py) on it: states carried from step to step and
detached, forward and loss under ``autograd.record()``, ``backward``, ``gluon.Trainer.step``.

The first step's states have ``attach_grad`` (so their gradients come out of the recorded block), the
next steps detach them, and the last step takes a shorter batch (the remainder of an epoch) with its
states cut to that batch. NumPy only besides the ``mx`` passed in.
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["BATCHES", "CASES", "STEPS", "train"]

T, C, H = 4, 3, 5
BATCHES = (3, 3, 3, 2)   # the batch size of each step: the last batch of an epoch is shorter
STEPS = len(BATCHES)
LR, MOMENTUM = 0.1, 0.9


def _layer(kind: str, layers: int, **kwargs: Any) -> Any:
    def make(mx: Any) -> Any:
        rnn = mx.gluon.rnn
        if kind == "lstm":
            return rnn.LSTM(H, layers, input_size=C, **kwargs)
        if kind == "gru":
            return rnn.GRU(H, layers, input_size=C, **kwargs)
        return rnn.RNN(H, layers, activation=kind, input_size=C, **kwargs)
    return make


def _model(kind: str) -> Any:
    """A recurrent encoder under a Dense head taking its states as one list argument (the word language
    model's ``hybrid_forward(F, inputs, hidden)``)."""
    def make(mx: Any) -> Any:
        class Model(mx.gluon.HybridBlock):
            def __init__(self, **kwargs: Any) -> None:
                super().__init__(**kwargs)
                with self.name_scope():
                    self.rnn = _layer(kind, 2)(mx)
                    self.head = mx.gluon.nn.Dense(2, in_units=H, flatten=False)

            def hybrid_forward(self, F: Any, inputs: Any, hidden: Any) -> Any:
                output, hidden = self.rnn(inputs, hidden)
                return self.head(F.tanh(output)), hidden

            def begin_state(self, *args: Any, **kwargs: Any) -> Any:
                return self.rnn.begin_state(*args, **kwargs)
        return Model()
    return make


def _unrolled(mx: Any) -> Any:
    """An LSTMCell unrolled over the sequence in a block ('NTC'; the cell's states are (batch, hidden))."""
    class Unrolled(mx.gluon.HybridBlock):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                self.cell = mx.gluon.rnn.LSTMCell(H, input_size=C)

        def hybrid_forward(self, F: Any, inputs: Any, hidden: Any) -> Any:
            return self.cell.unroll(T, inputs, hidden, layout="NTC", merge_outputs=True)

        def begin_state(self, *args: Any, **kwargs: Any) -> Any:
            return self.cell.begin_state(*args, **kwargs)
    return Unrolled()


# case -> (builder, layout of the data, width of the output)
CASES: dict[str, tuple[Any, str, int]] = {
    "lstm": (_layer("lstm", 2), "TNC", H),
    "gru": (_layer("gru", 1), "TNC", H),
    "rnn_tanh": (_layer("tanh", 2), "TNC", H),
    "rnn_relu": (_layer("relu", 1), "TNC", H),
    "lstm_ntc_bidirectional": (_layer("lstm", 1, layout="NTC", bidirectional=True), "NTC", 2 * H),
    "model_lstm": (_model("lstm"), "TNC", 2),
    "model_gru": (_model("gru"), "TNC", 2),
    "lstm_cell_unrolled": (_unrolled, "NTC", H),
}


def value(seed: int, shape: tuple, scale: float = 0.5) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-scale, scale, tuple(int(d) for d in shape)).astype(np.float32)


def data(case: str) -> dict[str, list[np.ndarray]]:
    """Per step: the input (full batch, cut to the step's batch by ``train``), the target of the output."""
    _, layout, width = CASES[case]
    n = max(BATCHES)
    shape = (T, n, C) if layout == "TNC" else (n, T, C)
    out_shape = (T, n, width) if layout == "TNC" else (n, T, width)
    return {"x": [value(10 + i, shape, 1.0) for i in range(STEPS)],
            "y": [value(20 + i, out_shape, 1.0) for i in range(STEPS)]}


def build(mx: Any, case: str) -> Any:
    """The case's block in a fresh NameManager, each parameter set by its position in collect_params()."""
    with mx.name.NameManager():
        net = CASES[case][0](mx)
    net.initialize()
    for k, p in enumerate(net.collect_params().values()):
        p.set_data(mx.nd.array(value(100 + k, p.shape)))
    return net


def _state_axis(h: Any) -> int:
    """The batch axis of a state: a layer's are (layers, batch, hidden), a cell's (batch, hidden)."""
    return 1 if len(h.shape) == 3 else 0


def train(mx: Any, case: str, hybrid: bool) -> tuple[Any, dict[str, np.ndarray]]:
    """The loop; returns the block and per step ``loss<i>``, after the first step ``grad<k>`` of every
    parameter and ``dstate<j>`` of every begin state, and at the end ``param<k>``, ``state<j>`` (the last
    step's states) and the names of the parameters."""
    gluon, autograd = mx.gluon, mx.autograd
    _, layout, _ = CASES[case]
    net = build(mx, case)
    if hybrid:
        net.hybridize()
    params = net.collect_params()
    trainer = gluon.Trainer(params, "sgd", {"learning_rate": LR, "momentum": MOMENTUM})
    loss_fn = gluon.loss.L2Loss()
    d = data(case)
    axis = 1 if layout == "TNC" else 0
    begin = net.begin_state(batch_size=BATCHES[0])
    hidden = [mx.nd.array(value(30 + j, s.shape)) for j, s in enumerate(begin)]
    rec: dict[str, np.ndarray] = {"names": np.array(list(params.keys()))}
    for i, batch in enumerate(BATCHES):
        x = mx.nd.array(np.take(d["x"][i], range(batch), axis=axis))
        y = mx.nd.array(np.take(d["y"][i], range(batch), axis=axis))
        hidden = [h.detach() if h.shape[_state_axis(h)] == batch
                  else mx.nd.array(np.take(h.asnumpy(), range(batch), axis=_state_axis(h))) for h in hidden]
        if i == 0:
            for h in hidden:
                h.attach_grad()
        with autograd.record():
            out, new = net(x, hidden)
            loss = loss_fn(out, y)
        loss.backward()
        if i == 0:
            rec.update({f"grad{k}": p.grad().asnumpy() for k, p in enumerate(params.values())})
            rec.update({f"dstate{j}": h.grad.asnumpy() for j, h in enumerate(hidden)})
        trainer.step(batch)
        rec[f"loss{i}"] = loss.asnumpy()
        hidden = list(new)
    rec.update({f"param{k}": p.data().asnumpy() for k, p in enumerate(params.values())})
    rec.update({f"state{j}": h.asnumpy() for j, h in enumerate(hidden)})
    return net, rec
