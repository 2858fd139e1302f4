"""MXNet 1.x symbolic recurrent code (mx.rnn), written once for both frameworks: each case unrolls cells over
``mx.sym.Variable('data')`` given ``mx`` (real MXNet 1.9.1 in tests/fixtures/mxnet/gen_rnn_sym.py,
cellonnx.mxnet in test_rnn_sym.py) and returns (symbol, layout); the test binds it to seeded arguments."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CASES", "INPUTS", "SENTENCES"]

INPUTS = {"NTC": np.linspace(-1, 1, 2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3),
          "TNC": np.linspace(-1, 1, 4 * 2 * 3, dtype=np.float32).reshape(4, 2, 3),
          "IMG": np.cos(np.arange(2 * 3 * 2 * 5 * 4, dtype=np.float32)).reshape(2, 3, 2, 5, 4)}
SENTENCES = [["the", "cat", "sat"], ["a", "dog"], ["the", "dog", "sat", "down"], ["a", "cat"]]


def _group(mx: Any, out: Any, states: list) -> Any:
    flat = []
    for s in states:
        flat += s if isinstance(s, list) else [s]
    return mx.sym.Group([out, *flat])


def _rnn(mx: Any) -> Any:
    out, states = mx.rnn.RNNCell(4, activation="relu", prefix="rnn_").unroll(
        4, mx.sym.Variable("data"), merge_outputs=True)
    return _group(mx, out, states), "NTC"


def _lstm(mx: Any) -> Any:
    out, states = mx.rnn.LSTMCell(4, prefix="lstm_").unroll(4, mx.sym.Variable("data"), merge_outputs=True)
    return _group(mx, out, states), "NTC"


def _gru_list(mx: Any) -> Any:
    out, states = mx.rnn.GRUCell(3, prefix="gru_").unroll(4, mx.sym.Variable("data"), merge_outputs=False)
    return _group(mx, mx.sym.Concat(*out, dim=1), states), "NTC"


def _sequential(mx: Any) -> Any:
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.LSTMCell(3, prefix="l0_"))
    stack.add(mx.rnn.DropoutCell(0.5, prefix="d0_"))
    stack.add(mx.rnn.ResidualCell(mx.rnn.GRUCell(3, prefix="l1_")))
    out, states = stack.unroll(4, mx.sym.Variable("data"), merge_outputs=True)
    return _group(mx, out, states), "NTC"


def _bidirectional(mx: Any) -> Any:
    cell = mx.rnn.BidirectionalCell(mx.rnn.LSTMCell(3, prefix="fw_"), mx.rnn.GRUCell(2, prefix="bw_"))
    out, states = cell.unroll(4, mx.sym.Variable("data"), merge_outputs=True)
    return _group(mx, out, states), "NTC"


def _fused_lstm(mx: Any) -> Any:
    cell = mx.rnn.FusedRNNCell(3, num_layers=2, mode="lstm", bidirectional=True, get_next_state=True,
                               prefix="f_")
    out, states = cell.unroll(4, mx.sym.Variable("data"), layout="TNC", merge_outputs=True)
    return _group(mx, out, states), "TNC"


def _fused_gru_ntc(mx: Any) -> Any:
    cell = mx.rnn.FusedRNNCell(3, num_layers=1, mode="gru", get_next_state=True, prefix="g_")
    out, states = cell.unroll(4, mx.sym.Variable("data"), layout="NTC", merge_outputs=True)
    return _group(mx, out, states), "NTC"


def _unfused_lstm(mx: Any) -> Any:
    cell = mx.rnn.FusedRNNCell(3, num_layers=2, mode="lstm", bidirectional=True, prefix="f_").unfuse()
    out, states = cell.unroll(4, mx.sym.Variable("data"), layout="TNC", merge_outputs=True)
    return _group(mx, out, states), "TNC"


def _conv(kind: str) -> Any:
    def make(mx: Any) -> Any:
        cls = getattr(mx.rnn, f"Conv{kind}Cell")
        kw = {"i2h_stride": (1, 2), "h2h_dilate": (2, 1)} if kind == "LSTM" else {}
        if kind == "GRU":
            kw["activation"] = "tanh"
        cell = cls((2, 2, 5, 4), 3, prefix=f"c{kind.lower()}_", **kw)
        out, states = cell.unroll(3, mx.sym.Variable("data"), merge_outputs=True)
        return _group(mx, out, states), "IMG"
    return make


CASES = {"rnn": _rnn, "lstm": _lstm, "gru_list": _gru_list, "sequential": _sequential,
         "bidirectional": _bidirectional, "fused_lstm": _fused_lstm, "fused_gru_ntc": _fused_gru_ntc,
         "unfused_lstm": _unfused_lstm, "conv_rnn": _conv("RNN"), "conv_lstm": _conv("LSTM"),
         "conv_gru": _conv("GRU")}
