"""MXNet's fused RNN operator (``RNN``: LSTM, GRU, vanilla relu / tanh; stacked, bidirectional, LSTM with a
projection and clipped cell states, per-sample sequence lengths) and ``_rnn_param_concat``, which Gluon's rnn
layers write into exported graphs to pack their weights into RNN's one parameter vector. ``nd.RNN``,
``sym.RNN``, ``npx.rnn``, gluon.rnn's layers and the symbol.json interpreter all run this one function.

The vector holds, for every layer and direction (layer-major, forward first), the input-to-hidden matrix
(G*H, in) and the hidden-to-hidden matrix (G*H, H or P) (and with ``projection_size`` P the projection
(P, H)), then in the same order all the biases (i2h, h2h of G*H each); G is 4 for LSTM (gates i, f, g, o),
3 for GRU (r, z, n), 1 otherwise. LSTM runs on ``ops.lstm`` (one ONNX LSTM node per layer), GRU and the
vanilla RNNs on the GRU / RNN primitives (one ONNX GRU / RNN node per layer, sequence lengths included); the
LSTM forms ONNX's LSTM node lacks (projection, clipping, lengths) are a loop of ops (ops_rnn_loop.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.gluon import autograd
from cellonnx.gluon.symbol.ops_rnn_loop import lstm_loop
from cellonnx.ops.prims.rnn_gru import stacked_rnn
from cellonnx.tensor import Tensor

__all__ = ["RNN_OPS", "rnn", "run_rnn"]

_GATES = {"lstm": 4, "gru": 3, "rnn_relu": 1, "rnn_tanh": 1}


def rnn_param_concat(*data: Tensor, dim: int = 1, num_args: int | None = None, **_: Any) -> Tensor:
    """Concat of the (flattened) weight arrays."""
    return ops.concat(list(data), axis=int(dim))


def _unpack(
    params: Tensor, mode: str, size: int, hidden: int, layers: int, dirs: int, proj: int | None = None
) -> list[list[Tensor]]:
    """[w_i2h, w_h2h, b_i2h, b_h2h(, w_h2r)] per layer and direction, sliced from the parameter vector."""
    g = _GATES[mode] * hidden
    out_size = proj or hidden
    shapes: list[list[tuple[int, int]]] = []
    for layer in range(layers):
        n_in = size if layer == 0 else dirs * out_size
        entry = [(g, n_in), (g, out_size)] + ([(proj, hidden)] if proj else [])
        shapes += [entry] * dirs
    total = sum(a * b for entry in shapes for a, b in entry) + 2 * g * len(shapes)
    if int(params.shape[0]) != total:
        raise ValueError(
            f"RNN: the parameter vector has {int(params.shape[0])} values; mode={mode}, "
            f"state_size={hidden}, num_layers={layers}, {'bi' if dirs == 2 else 'uni'}directional "
            f"over {size} input features{f' with projection_size={proj}' if proj else ''} needs {total}"
        )
    out: list[list[Tensor]] = []
    pos = 0
    for entry in shapes:
        mats = []
        for a, b in entry:
            mats.append(ops.reshape(params[pos : pos + a * b], (a, b)))
            pos += a * b
        out.append(mats)
    for mats in out:
        biases = [params[pos : pos + g], params[pos + g : pos + 2 * g]]
        pos += 2 * g
        mats[2:2] = biases  # [w_i2h, w_h2h, b_i2h, b_h2h(, w_h2r)]
    return out


def _batch_state(state: Tensor, data: Tensor) -> Tensor:
    """Gluon's exported begin state is ``zeros((L * D, 0, H))``: MXNet's shape inference fills the 0 with the
    batch size. Here it becomes zeros the size of data's batch (kept dynamic when traced)."""
    if int(state.shape[1]) != 0:
        return state
    lead = Tensor(np.zeros((int(state.shape[0]), 1, int(state.shape[2])), state._data.dtype))
    return lead + ops.expand_dims(data[0][:, :1], 0) * 0


def _check_state(name: str, state: Tensor, lead: int, size: int, what: str) -> None:
    got = tuple(int(d) for d in state.shape)
    if len(got) != 3 or got[0] != lead or got[2] != size:
        raise ValueError(f"RNN: {name} has shape {got}, expected ({lead}, batch, {size}) "
                         f"(num_layers * directions, batch, {what})")


def rnn(
    data: Tensor,
    parameters: Tensor,
    state: Tensor,
    *rest: Tensor,
    state_cell: Tensor | None = None,
    sequence_length: Tensor | None = None,
    mode: str = "lstm",
    state_size: int = 0,
    num_layers: int = 1,
    bidirectional: bool = False,
    p: float = 0.0,
    state_outputs: bool = False,
    projection_size: int | None = None,
    lstm_state_clip_min: float | None = None,
    lstm_state_clip_max: float | None = None,
    lstm_state_clip_nan: bool = False,
    use_sequence_length: bool = False,
    **_: Any,
) -> Any:
    """MXNet's RNN over ``data`` (T, N, C) from ``state`` (num_layers * D, N, H or P) (and ``state_cell``
    (num_layers * D, N, H) for LSTM; then ``sequence_length`` (N,) with ``use_sequence_length``). Returns the
    output (T, N, D * (P or H)), with ``state_outputs`` a list of it and the final states."""
    if mode not in _GATES:
        raise ValueError(f"RNN: mode must be one of {sorted(_GATES)}, got {mode!r}")
    rest_list = list(rest)
    if mode == "lstm" and state_cell is None:
        if not rest_list:
            raise ValueError("RNN: mode 'lstm' takes a state_cell input")
        state_cell = rest_list.pop(0)
    if use_sequence_length and sequence_length is None:
        if not rest_list:
            raise ValueError("RNN: use_sequence_length=True takes a sequence_length input")
        sequence_length = rest_list.pop(0)
    proj = int(projection_size) if projection_size else None
    if proj is not None and mode != "lstm":
        raise ValueError(f"RNN: projection_size is for mode 'lstm' only, got mode {mode!r}")
    clip = None
    if lstm_state_clip_min is not None or lstm_state_clip_max is not None:
        if mode != "lstm":
            raise ValueError(f"RNN: lstm_state_clip_min/max are for mode 'lstm' only, got mode {mode!r}")
        clip = (lstm_state_clip_min, lstm_state_clip_max, bool(lstm_state_clip_nan))
    if data.ndim != 3:
        raise ValueError(f"RNN: data must be (seq_len, batch, features), got shape {tuple(data.shape)}")
    hidden, layers, dirs = int(state_size), int(num_layers), 2 if bidirectional else 1
    state = _batch_state(state, data)
    _check_state("state", state, layers * dirs, proj or hidden, "projection_size" if proj else "state_size")
    cell = None
    if mode == "lstm":
        cell = _batch_state(state_cell, data)  # type: ignore[arg-type]
        _check_state("state_cell", cell, layers * dirs, hidden, "state_size")
    lengths = sequence_length if use_sequence_length else None
    weights = _unpack(parameters, mode, int(data.shape[2]), hidden, layers, dirs, proj)
    outs = run_rnn(data, weights, state, cell, mode, layers, dirs, float(p), lengths, clip)
    return outs if state_outputs else outs[0]


def run_rnn(data: Tensor, weights: list[list[Tensor]], state: Tensor, cell: Tensor | None, mode: str,
            layers: int, dirs: int, p: float = 0.0, lengths: Tensor | None = None,
            clip: tuple[Any, Any, bool] | None = None) -> list[Tensor]:
    """The recurrence behind ``rnn`` on unpacked weights (per layer and direction [w_i2h, w_h2h, b_i2h,
    b_h2h(, w_h2r)]): [output, h_n(, c_n)]. gluon.rnn's layers call it with their parameters directly."""
    training = autograd.is_training() and p > 0
    if mode == "lstm":
        if len(weights[0]) > 4 or clip is not None or lengths is not None:
            out, hy, cy = lstm_loop(data, state, cell, weights, layers, dirs, p, training, lengths, clip)
        else:
            flat = [t for w in weights for t in w]
            out, (hy, cy) = ops.lstm(data, (state, cell), flat, num_layers=layers, bidirectional=dirs == 2,
                                     dropout=p, training=training)
        return [out, hy, cy]
    flat = [t for w in weights for t in w]
    kind = {"gru": "GRU", "rnn_tanh": "RNN_TANH", "rnn_relu": "RNN_RELU"}[mode]
    if lengths is not None:
        lengths = lengths.astype("int64")
    out, hy = stacked_rnn(kind, data, state, flat, layers, dirs == 2, False, p, training, seq_length=lengths)
    return [out, hy]


RNN_OPS = {"RNN": rnn, "_rnn_param_concat": rnn_param_concat}
