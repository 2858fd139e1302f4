"""The LSTM forms of MXNet's fused RNN operator that ONNX's LSTM node does not compute - a projection of the
hidden state (LSTMP, ``projection_size``), clipped cell states (``lstm_state_clip_min/max``) and per-sample
lengths (``use_sequence_length``) - as a loop of cellonnx ops over the time steps (differentiable and
traceable like any composite).
"""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.tensor import Tensor

__all__ = ["lstm_loop"]


def _direction(x: Tensor, h: Tensor, c: Tensor, w: list[Tensor], reverse: bool, live: Tensor | None,
               clip: tuple[Any, Any, bool] | None) -> tuple[Tensor, Tensor, Tensor]:
    """One direction over (T, N, in) from (h, c): returns ((T, N, P or H), h_T, c_T)."""
    w_i2h, w_h2h, b_i2h, b_h2h = w[:4]
    w_h2r = w[4] if len(w) > 4 else None
    steps = int(x.shape[0])
    proj = ops.matmul(x, ops.transpose(w_i2h, (1, 0))) + b_i2h
    w_hh = ops.transpose(w_h2h, (1, 0))
    w_hr = None if w_h2r is None else ops.transpose(w_h2r, (1, 0))
    outs: list[Tensor] = [None] * steps  # type: ignore[list-item]
    for t in range(steps - 1, -1, -1) if reverse else range(steps):
        gates = proj[t] + ops.matmul(h, w_hh) + b_h2h
        i, f, g, o = ops.split(gates, int(gates.shape[-1]) // 4, axis=1)
        c_new = ops.sigmoid(f) * c + ops.sigmoid(i) * ops.tanh(g)
        if clip is not None:
            low, high, nan = clip
            c_new = ops.clip_by_value(c_new, low, high)
            if nan and low is not None:  # cuDNN's NOT_PROPAGATE_NAN: fmin(fmax(nan, low), high) is low
                c_new = ops.where(ops.isnan(c_new), ops.zeros_like(c_new) + low, c_new)
        h_new = ops.sigmoid(o) * ops.tanh(c_new)
        if w_hr is not None:
            h_new = ops.matmul(h_new, w_hr)
        if live is None:
            h, c = h_new, c_new
            outs[t] = h_new
        else:
            keep = live[t]
            outs[t] = h_new * keep
            h = ops.where(keep > 0, h_new, h)
            c = ops.where(keep > 0, c_new, c)
    return ops.stack(outs, axis=0), h, c


def lstm_loop(x: Tensor, h0: Tensor, c0: Tensor, weights: list[list[Tensor]], layers: int, dirs: int,
              dropout: float, training: bool, lengths: Tensor | None,
              clip: tuple[Any, Any, bool] | None) -> tuple[Tensor, Tensor, Tensor]:
    """Stacked LSTM(P) over (T, N, C): ``weights`` per layer and direction [w_i2h, w_h2h, b_i2h, b_h2h
    (, w_h2r)]; returns (output, h_n, c_n)."""
    live = None
    if lengths is not None:
        steps = ops.arange(0, int(x.shape[0])).astype(x.dtype)
        live = ops.expand_dims(ops.expand_dims(steps, 1) < ops.expand_dims(lengths.astype(x.dtype), 0), 2)
        live = live.astype(x.dtype)
    finals_h: list[Tensor] = []
    finals_c: list[Tensor] = []
    for layer in range(layers):
        if layer > 0 and training and dropout > 0:
            x = ops.dropout(x, p=float(dropout))
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            y, h, c = _direction(x, h0[k], c0[k], weights[k], d == 1, live, clip)
            outs.append(y)
            finals_h.append(h)
            finals_c.append(c)
        x = outs[0] if dirs == 1 else ops.concat(outs, axis=2)
    return x, ops.stack(finals_h, axis=0), ops.stack(finals_c, axis=0)
