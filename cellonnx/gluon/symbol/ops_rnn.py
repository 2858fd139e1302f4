"""MXNet's fused RNN operator (``RNN``: LSTM, GRU, vanilla relu / tanh; stacked, bidirectional) and
``_rnn_param_concat``, which Gluon's rnn layers write into exported graphs to pack their weights into RNN's
one parameter vector.

The vector holds, for every layer and direction (layer-major, forward first), the input-to-hidden matrix
(G*H, in) and the hidden-to-hidden matrix (G*H, H), then in the same order all the biases (i2h, h2h of G*H
each); G is 4 for LSTM (gates i, f, g, o), 3 for GRU (r, z, n), 1 otherwise. LSTM runs on ``ops.lstm`` (one
ONNX LSTM node per layer); GRU and the vanilla RNNs are loops of cellonnx ops over the time steps.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.gluon import autograd
from cellonnx.tensor import Tensor

__all__ = ["RNN_OPS"]

_GATES = {"lstm": 4, "gru": 3, "rnn_relu": 1, "rnn_tanh": 1}


def rnn_param_concat(*data: Tensor, dim: int = 1, num_args: int | None = None, **_: Any) -> Tensor:
    """Concat of the (flattened) weight arrays."""
    return ops.concat(list(data), axis=int(dim))


def _unpack(params: Tensor, mode: str, size: int, hidden: int, layers: int, dirs: int) -> list[list[Tensor]]:
    """[w_i2h, w_h2h, b_i2h, b_h2h] per layer and direction, sliced from the parameter vector."""
    g = _GATES[mode] * hidden
    shapes = []
    for layer in range(layers):
        n_in = size if layer == 0 else dirs * hidden
        shapes += [((g, n_in), (g, hidden))] * dirs
    total = sum(a[0] * a[1] + b[0] * b[1] for a, b in shapes) + 2 * g * len(shapes)
    if int(params.shape[0]) != total:
        raise ValueError(
            f"RNN: the parameter vector has {int(params.shape[0])} values; mode={mode}, "
            f"state_size={hidden}, num_layers={layers}, {'bi' if dirs == 2 else 'uni'}directional "
            f"over {size} input features needs {total}"
        )
    out: list[list[Tensor]] = []
    pos = 0
    for a, b in shapes:
        wa = ops.reshape(params[pos : pos + a[0] * a[1]], a)
        pos += a[0] * a[1]
        wb = ops.reshape(params[pos : pos + b[0] * b[1]], b)
        pos += b[0] * b[1]
        out.append([wa, wb])
    for entry in out:
        entry += [params[pos : pos + g], params[pos + g : pos + 2 * g]]
        pos += 2 * g
    return out


def _cell_loop(x: Tensor, h: Tensor, w: list[Tensor], mode: str, reverse: bool) -> tuple[Tensor, Tensor]:
    """One direction of a GRU or vanilla RNN layer over (T, N, in); returns ((T, N, H), h_T)."""
    w_i2h, w_h2h, b_i2h, b_h2h = w
    steps = int(x.shape[0])
    proj = ops.matmul(x, ops.transpose(w_i2h, (1, 0))) + b_i2h
    w_hh = ops.transpose(w_h2h, (1, 0))
    outs: list[Tensor] = [None] * steps  # type: ignore[list-item]
    for t in range(steps - 1, -1, -1) if reverse else range(steps):
        gx = proj[t]
        gh = ops.matmul(h, w_hh) + b_h2h
        if mode == "gru":
            size = int(h.shape[-1])
            xr, xz, xn = ops.split(gx, size, axis=1)
            hr, hz, hn = ops.split(gh, size, axis=1)
            r = ops.sigmoid(xr + hr)
            z = ops.sigmoid(xz + hz)
            n = ops.tanh(xn + r * hn)
            h = (1 - z) * n + z * h
        else:
            h = ops.relu(gx + gh) if mode == "rnn_relu" else ops.tanh(gx + gh)
        outs[t] = h
    return ops.stack(outs, axis=0), h


def _batch_state(state: Tensor, data: Tensor) -> Tensor:
    """Gluon's exported begin state is ``zeros((L * D, 0, H))``: MXNet's shape inference fills the 0 with the
    batch size. Here it becomes zeros the size of data's batch (kept dynamic when traced)."""
    if int(state.shape[1]) != 0:
        return state
    lead = Tensor(np.zeros((int(state.shape[0]), 1, int(state.shape[2])), state._data.dtype))
    return lead + ops.expand_dims(data[0][:, :1], 0) * 0


def rnn(
    data: Tensor,
    parameters: Tensor,
    state: Tensor,
    *rest: Tensor,
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
    """MXNet's RNN over ``data`` (T, N, C) from ``state`` (num_layers * D, N, H) (and ``state_cell`` for
    LSTM). Returns the output (T, N, D * H), with ``state_outputs`` also the final states."""
    if mode not in _GATES:
        raise ValueError(f"RNN: mode must be one of {sorted(_GATES)}, got {mode!r}")
    for what, value in (
        ("projection_size", projection_size),
        ("lstm_state_clip_min", lstm_state_clip_min),
        ("lstm_state_clip_max", lstm_state_clip_max),
    ):
        if value is not None:
            raise NotImplementedError(f"RNN: {what}={value} is not supported (only MXNet's default None)")
    if use_sequence_length:
        raise NotImplementedError("RNN: use_sequence_length=True is not supported")
    cell = rest[0] if mode == "lstm" else None
    if mode == "lstm" and cell is None:
        raise ValueError("RNN: mode 'lstm' takes a state_cell input")
    if data.ndim != 3:
        raise ValueError(f"RNN: data must be (seq_len, batch, features), got shape {tuple(data.shape)}")
    hidden, layers, dirs = int(state_size), int(num_layers), 2 if bidirectional else 1
    state = _batch_state(state, data)
    cell = None if cell is None else _batch_state(cell, data)
    weights = _unpack(parameters, mode, int(data.shape[2]), hidden, layers, dirs)
    training = autograd.is_training() and p > 0
    if mode == "lstm":
        flat = [t for w in weights for t in w]
        out, (hy, cy) = ops.lstm(
            data,
            (state, cell),
            flat,
            num_layers=layers,
            bidirectional=bool(bidirectional),
            dropout=float(p),
            training=training,
        )
        return (out, hy, cy) if state_outputs else out
    x = data
    finals: list[Tensor] = []
    for layer in range(layers):
        if layer > 0 and training:
            x = ops.dropout(x, p=float(p))
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            y, h = _cell_loop(x, state[k], weights[k], mode, reverse=d == 1)
            outs.append(y)
            finals.append(h)
        x = outs[0] if dirs == 1 else ops.concat(outs, axis=2)
    return (x, ops.stack(finals, axis=0)) if state_outputs else x


RNN_OPS = {"RNN": rnn, "_rnn_param_concat": rnn_param_concat}
