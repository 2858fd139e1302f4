"""Gluon recurrent code, written once for both frameworks: each case builds a layer or cell given ``mx``
(real MXNet 1.9.1 in tests/fixtures/mxnet/gen_rnn.py, cellonnx.mxnet in test_rnn.py) inside a fresh
NameManager and says how to run it on an input: ``(block, input name, run)`` where ``run(mx, block, x,
extra)`` returns a flat list of NDArrays (outputs, then states).

The layers (RNN relu / tanh, LSTM, GRU; stacked, bidirectional, NTC, LSTMP) run from ``begin_state``; the
cells unroll over the sequence (merged outputs or a list, ``valid_length``), alone and combined
(SequentialRNNCell, HybridSequentialRNNCell, BidirectionalCell, ResidualCell, DropoutCell and ZoneoutCell in
inference), the convolutional cells, LSTMPCell and VariationalDropoutCell (gluon.contrib.rnn in
MXNet 1.x).
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CASES", "INPUTS", "VALID_LENGTH", "repr_blocks"]

# (T, N, C) for TNC layers; (N, T, C) for NTC layers and the cells
INPUTS = {"tnc": np.linspace(-1, 1, 5 * 2 * 3, dtype=np.float32).reshape(5, 2, 3),
          "ntc": np.linspace(-1, 1, 2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)[:, ::-1].copy(),
          # (N, T, ...) for the convolutional cells
          "img2": np.linspace(-1, 1, 2 * 3 * 2 * 4 * 3, dtype=np.float32).reshape(2, 3, 2, 4, 3),
          "seq1": np.cos(np.arange(2 * 3 * 5 * 2, dtype=np.float32)).reshape(2, 3, 2, 5),
          "img3": np.sin(np.arange(2 * 2 * 2 * 27, dtype=np.float32)).reshape(2, 2, 2, 3, 3, 3),
          # token ids (T, N) for the language model
          "tok": (np.arange(5 * 2, dtype=np.float32).reshape(5, 2) * 7) % 20}
VALID_LENGTH = np.array([3, 5], np.float32)


def _flat(out: Any) -> list:
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flat(o)]
    return [out]


def _layer_run(batch_axis: int) -> Any:
    def run(mx: Any, net: Any, x: Any, extra: Any) -> list:
        states = net.begin_state(batch_size=x.shape[batch_axis])
        return _flat(net(x, states))
    return run


def _layer_plain(mx: Any, net: Any, x: Any, extra: Any) -> list:
    return _flat(net(x))


def _unroll(merge: bool, valid: bool) -> Any:
    def run(mx: Any, net: Any, x: Any, extra: Any) -> list:
        out, states = net.unroll(x.shape[1], x, layout="NTC", merge_outputs=merge,
                                 valid_length=extra if valid else None)
        return _flat(out) + _flat(states)
    return run


def _unroll_tnc(mx: Any, net: Any, x: Any, extra: Any) -> list:
    out, states = net.unroll(x.shape[0], x, layout="TNC", merge_outputs=True)
    return _flat(out) + _flat(states)


def _step(mx: Any, net: Any, x: Any, extra: Any) -> list:
    states = net.begin_state(batch_size=x.shape[0])
    out, states = net(x[:, 0], states)
    out, states = net(x[:, 1], states)
    return _flat(out) + _flat(states)


def _lstm(mx: Any) -> Any:
    return mx.gluon.rnn.LSTM(4, input_size=3), "tnc", _layer_run(1)


def _lstm_plain(mx: Any) -> Any:
    return mx.gluon.rnn.LSTM(4), "tnc", _layer_plain


def _lstm_bi2_ntc(mx: Any) -> Any:
    return mx.gluon.rnn.LSTM(4, num_layers=2, bidirectional=True, layout="NTC", input_size=3), "ntc", \
        _layer_run(0)


def _lstmp(mx: Any) -> Any:
    return mx.gluon.rnn.LSTM(4, num_layers=2, projection_size=2, input_size=3), "tnc", _layer_run(1)


def _gru_bi(mx: Any) -> Any:
    return mx.gluon.rnn.GRU(4, bidirectional=True, input_size=3), "tnc", _layer_run(1)


def _gru2_ntc(mx: Any) -> Any:
    return mx.gluon.rnn.GRU(3, num_layers=2, layout="NTC"), "ntc", _layer_run(0)


def _rnn_relu(mx: Any) -> Any:
    return mx.gluon.rnn.RNN(4, input_size=3), "tnc", _layer_run(1)


def _rnn_tanh_bi2(mx: Any) -> Any:
    return mx.gluon.rnn.RNN(3, num_layers=2, activation="tanh", bidirectional=True), "tnc", _layer_run(1)


def _rnn_cell(mx: Any) -> Any:
    return mx.gluon.rnn.RNNCell(4, input_size=3), "ntc", _unroll(True, False)


def _rnn_cell_relu_list(mx: Any) -> Any:
    return mx.gluon.rnn.RNNCell(4, activation="relu"), "ntc", _unroll(False, False)


def _lstm_cell_valid(mx: Any) -> Any:
    return mx.gluon.rnn.LSTMCell(4, input_size=3), "ntc", _unroll(True, True)


def _lstm_cell_step(mx: Any) -> Any:
    return mx.gluon.rnn.LSTMCell(4, input_size=3), "ntc", _step


def _gru_cell(mx: Any) -> Any:
    return mx.gluon.rnn.GRUCell(4, input_size=3), "ntc", _unroll(True, False)


def _gru_cell_tnc(mx: Any) -> Any:
    return mx.gluon.rnn.GRUCell(3, input_size=3), "tnc", _unroll_tnc


def _sequential(mx: Any) -> Any:
    rnn = mx.gluon.rnn
    net = rnn.SequentialRNNCell()
    with net.name_scope():
        net.add(rnn.LSTMCell(4, input_size=3))
        net.add(rnn.DropoutCell(0.5))
        net.add(rnn.ResidualCell(rnn.GRUCell(4, input_size=4)))
    return net, "ntc", _unroll(True, False)


def _hybrid_sequential_valid(mx: Any) -> Any:
    rnn = mx.gluon.rnn
    net = rnn.HybridSequentialRNNCell()
    with net.name_scope():
        net.add(rnn.GRUCell(3, input_size=3))
        net.add(rnn.ZoneoutCell(rnn.RNNCell(3, input_size=3), zoneout_outputs=0.3, zoneout_states=0.2))
    return net, "ntc", _unroll(True, True)


def _bidirectional(mx: Any) -> Any:
    rnn = mx.gluon.rnn
    net = rnn.BidirectionalCell(rnn.LSTMCell(3, input_size=3), rnn.GRUCell(2, input_size=3))
    return net, "ntc", _unroll(True, False)


def _bidirectional_valid(mx: Any) -> Any:
    rnn = mx.gluon.rnn
    net = rnn.BidirectionalCell(rnn.RNNCell(3, input_size=3), rnn.RNNCell(3, input_size=3))
    return net, "ntc", _unroll(True, True)


def _conv2d_lstm(mx: Any) -> Any:
    return mx.gluon.contrib.rnn.Conv2DLSTMCell((2, 4, 3), 3, 3, 3, i2h_pad=1), "img2", _unroll(True, False)


def _conv1d_gru(mx: Any) -> Any:
    return mx.gluon.contrib.rnn.Conv1DGRUCell((2, 5), 3, 3, 3, h2h_dilate=2), "seq1", _unroll(True, False)


def _conv3d_rnn(mx: Any) -> Any:
    return mx.gluon.contrib.rnn.Conv3DRNNCell((2, 3, 3, 3), 2, 1, 3, activation="relu"), "img3", \
        _unroll(True, False)


def _lstmp_cell(mx: Any) -> Any:
    return mx.gluon.contrib.rnn.LSTMPCell(4, 2, input_size=3), "ntc", _unroll(True, True)


def _variational_dropout(mx: Any) -> Any:
    cell = mx.gluon.contrib.rnn.VariationalDropoutCell(mx.gluon.rnn.GRUCell(3, input_size=3), 0.3, 0.3, 0.3)
    return cell, "ntc", _unroll(False, False)


def _language_model(mx: Any) -> Any:
    """The shape of MXNet's Gluon word language model (1.x code): embedding, a stacked LSTM fed its begin
    state, a decoder over every step."""
    gluon, nn = mx.gluon, mx.gluon.nn

    class RNNModel(gluon.HybridBlock):
        def __init__(self, vocab_size: int, num_embed: int, num_hidden: int, num_layers: int, **kwargs: Any):
            super().__init__(**kwargs)
            with self.name_scope():
                self.drop = nn.Dropout(0.0)
                self.encoder = nn.Embedding(vocab_size, num_embed)
                self.rnn = gluon.rnn.LSTM(num_hidden, num_layers, input_size=num_embed)
                self.decoder = nn.Dense(vocab_size, in_units=num_hidden, flatten=False)

        def hybrid_forward(self, F: Any, inputs: Any, hidden: Any) -> Any:
            output, hidden = self.rnn(self.drop(self.encoder(inputs)), hidden)
            return self.decoder(self.drop(output)), hidden

        def begin_state(self, *args: Any, **kwargs: Any) -> Any:
            return self.rnn.begin_state(*args, **kwargs)

    def run(mx: Any, net: Any, x: Any, extra: Any) -> list:
        hidden = net.begin_state(func=mx.nd.zeros, batch_size=x.shape[1])
        return _flat(net(x, hidden))

    return RNNModel(20, 4, 5, 2), "tok", run


CASES = {
    "lstm": _lstm,
    "lstm_plain": _lstm_plain,
    "lstm_bi2_ntc": _lstm_bi2_ntc,
    "lstmp": _lstmp,
    "gru_bi": _gru_bi,
    "gru2_ntc": _gru2_ntc,
    "rnn_relu": _rnn_relu,
    "rnn_tanh_bi2": _rnn_tanh_bi2,
    "rnn_cell": _rnn_cell,
    "rnn_cell_relu_list": _rnn_cell_relu_list,
    "lstm_cell_valid": _lstm_cell_valid,
    "lstm_cell_step": _lstm_cell_step,
    "gru_cell": _gru_cell,
    "gru_cell_tnc": _gru_cell_tnc,
    "sequential": _sequential,
    "hybrid_sequential_valid": _hybrid_sequential_valid,
    "bidirectional": _bidirectional,
    "bidirectional_valid": _bidirectional_valid,
    "conv2d_lstm": _conv2d_lstm,
    "conv1d_gru": _conv1d_gru,
    "conv3d_rnn": _conv3d_rnn,
    "lstmp_cell": _lstmp_cell,
    "variational_dropout": _variational_dropout,
    "language_model": _language_model,
}


def repr_blocks(mx: Any) -> list:
    """Layers and cells whose repr is compared with MXNet's."""
    rnn = mx.gluon.rnn
    stack = rnn.SequentialRNNCell()
    stack.add(rnn.LSTMCell(4, input_size=3))
    stack.add(rnn.ZoneoutCell(rnn.GRUCell(4), 0.1, 0.2))
    stack.add(rnn.DropoutCell(0.5))
    return [rnn.LSTM(4, 2, bidirectional=True, dropout=0.5), rnn.GRU(3, input_size=2, layout="NTC"),
            rnn.RNN(5, activation="tanh"), rnn.RNNCell(4, "relu"), stack,
            rnn.BidirectionalCell(rnn.LSTMCell(2), rnn.LSTMCell(2)),
            rnn.ResidualCell(rnn.GRUCell(3, input_size=3))]
