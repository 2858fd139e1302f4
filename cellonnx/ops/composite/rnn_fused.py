"""The fused recurrent cells behind MindSpore's ``ops.BasicLSTMCell``, ``ops.DynamicRNN`` and
``ops.DynamicGRUV2``, written as loops over matmul, sigmoid and tanh (gradients and ONNX lowering come from
those ops; the graph unrolls the time steps).

Layouts, as MindSpore documents them (and as its nn.LSTM / nn.GRU hand weights to these kernels):

- LSTM (BasicLSTMCell, DynamicRNN): one weight ``w`` of shape ``(input_size + hidden_size, 4 * hidden_size)``
  applied to ``concat(x_t, h)``, one bias ``b`` of ``4 * hidden_size``; the gate columns are ordered
  i (input), j (candidate), f (forget), o (output). ``forget_bias`` is added to f before its sigmoid and
  ``cell_clip`` (when positive) clips the cell state to ``[-cell_clip, cell_clip]``.
- GRU (DynamicGRUV2): ``weight_input (input_size, 3 * hidden_size)``, ``weight_hidden (hidden_size,
  3 * hidden_size)``, gate columns r, z, n (``gate_order='rzh'``) or z, r, n (``'zrh'``). With
  ``reset_after`` the new gate is ``tanh(W_in x + b_in + r * (W_hn h + b_hn))``, otherwise
  ``tanh(W_in x + b_in + W_hn (r * h) + b_hn)``; ``hidden_new`` is the hidden term inside (``W_hn h + b_hn``,
  or ``W_hn (r * h) + b_hn``).

MindSpore returns the per-step hidden state ``output_h`` of the LSTM kernels in float16 (its only input
dtype); for float32 or float64 inputs, which MindSpore rejects, every output keeps the inputs' dtype.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _check_rank(op: str, name: str, t: Tensor, rank: int, what: str) -> None:
    if len(t.shape) != rank:
        raise ValueError(f"For '{op}', '{name}' must be {what} (rank {rank}), but got shape "
                         f"{tuple(t.shape)}.")


def _lstm_step(op: str, x: Tensor, h: Tensor, c: Tensor, w: Tensor, b: Tensor, forget_bias: float,
               cell_clip: float) -> tuple[Tensor, ...]:
    """One LSTM step: (c_t, h_t, i, j, f, o, tanh(c_t))."""
    hidden = int(h.shape[-1])
    gates = F.add(F.matmul(F.concat((x, h), axis=1), w), b)
    i = F.sigmoid(gates[:, 0:hidden])
    j = F.tanh(gates[:, hidden:2 * hidden])
    f_pre = gates[:, 2 * hidden:3 * hidden]
    if forget_bias != 0.0:
        f_pre = F.add(f_pre, forget_bias)
    f = F.sigmoid(f_pre)
    o = F.sigmoid(gates[:, 3 * hidden:4 * hidden])
    ct = F.add(F.mul(f, c), F.mul(i, j))
    if cell_clip > 0:
        ct = F.clamp(ct, -cell_clip, cell_clip)
    tanhct = F.tanh(ct)
    return ct, F.mul(o, tanhct), i, j, f, o, tanhct


def _check_lstm(op: str, x: Tensor, h: Tensor, w: Tensor, b: Tensor) -> None:
    in_size, hidden = int(x.shape[-1]), int(h.shape[-1])
    if tuple(w.shape) != (in_size + hidden, 4 * hidden):
        raise ValueError(f"For '{op}', 'w' must have shape (input_size + hidden_size, 4 * hidden_size) = "
                         f"({in_size + hidden}, {4 * hidden}), but got {tuple(w.shape)}.")
    if tuple(b.shape) != (4 * hidden,):
        raise ValueError(f"For '{op}', 'b' must have shape (4 * hidden_size,) = ({4 * hidden},), but got "
                         f"{tuple(b.shape)}.")


def _static_steps(x: Tensor, op: str) -> None:
    """The loop below unrolls over the time steps: in a graph they cannot be a dynamic dim."""
    from cellonnx.graph.trace import require_static
    require_static(x.shape[0], f"'{op}'")


def _half_if(t: Tensor, like: Tensor) -> Tensor:
    """MindSpore's LSTM kernels give the hidden state in float16, their only input dtype."""
    return F.cast(t, np.float16) if like._data.dtype == np.float16 else t


def basic_lstm_cell(x: Tensor, h: Tensor, c: Tensor, w: Tensor, b: Tensor, forget_bias: float = 1.0,
                    cell_clip: float = -1.0) -> tuple[Tensor, ...]:
    """One LSTM step, ``ops.BasicLSTMCell``'s math.

    Args:
        x: (batch_size, input_size). h, c: (batch_size, hidden_size). w: (input_size + hidden_size,
            4 * hidden_size), gate columns i, j, f, o. b: (4 * hidden_size,).
        forget_bias: added to the forget gate before its sigmoid.
        cell_clip: when positive, the cell state is clipped to [-cell_clip, cell_clip].

    Returns:
        (ct, ht, it, jt, ft, ot, tanhct), each (batch_size, hidden_size); ht is float16 when x is.
    """
    op = "BasicLSTMCell"
    for name, t in (("x", x), ("h", h), ("c", c), ("w", w)):
        _check_rank(op, name, t, 2, "2-D")
    _check_rank(op, "b", b, 1, "1-D")
    if tuple(c.shape) != tuple(h.shape) or int(x.shape[0]) != int(h.shape[0]):
        raise ValueError(f"For '{op}', 'h' and 'c' must both be (batch_size, hidden_size) with x's batch "
                         f"{int(x.shape[0])}, but got h {tuple(h.shape)} and c {tuple(c.shape)}.")
    _check_lstm(op, x, h, w, b)
    ct, ht, it, jt, ft, ot, tanhct = _lstm_step(op, x, h, c, w, b, forget_bias, cell_clip)
    return ct, _half_if(ht, x), it, jt, ft, ot, tanhct


def dynamic_rnn(x: Tensor, w: Tensor, b: Tensor, init_h: Tensor | None = None, init_c: Tensor | None = None,
                forget_bias: float = 0.0, cell_clip: float = -1.0) -> tuple[Tensor, ...]:
    """A one-layer LSTM over a time-major sequence, ``ops.DynamicRNN``'s math.

    Args:
        x: (num_step, batch_size, input_size). w, b: as in :func:`basic_lstm_cell`.
        init_h, init_c: (1, batch_size, hidden_size); zeros when None.
        forget_bias, cell_clip: as in :func:`basic_lstm_cell`.

    Returns:
        (y, output_h, output_c, i, j, f, o, tanhct), each (num_step, batch_size, hidden_size): the values of
        every step; y equals output_h (in b's dtype), output_h is float16 when x is.
    """
    op = "DynamicRNN"
    _check_rank(op, "x", x, 3, "(num_step, batch_size, input_size)")
    _check_rank(op, "w", w, 2, "2-D")
    _check_rank(op, "b", b, 1, "1-D")
    hidden = int(b.shape[0]) // 4
    batch = x.shape[1]  # a graph value where the batch is dynamic
    dtype = b._data.dtype
    states = []
    for name, s in (("init_h", init_h), ("init_c", init_c)):
        if s is None:
            states.append(F.zeros((batch, hidden), dtype))
            continue
        if tuple(int(d) for d in s.shape) != (1, int(batch), hidden):
            raise ValueError(f"For '{op}', '{name}' must have shape (1, batch_size, hidden_size) = "
                             f"(1, {batch}, {hidden}), but got {tuple(s.shape)}.")
        states.append(F.cast(F.reshape(s, (batch, hidden)), dtype))
    h, c = states
    _check_lstm(op, x[0], h, w, b)
    w = F.cast(w, dtype)
    steps: list[tuple[Tensor, ...]] = []
    _static_steps(x, op)
    for t in range(int(x.shape[0])):
        out = _lstm_step(op, F.cast(x[t], dtype), h, c, w, b, forget_bias, cell_clip)
        c, h = out[0], out[1]
        steps.append(out)
    ct, ht, it, jt, ft, ot, tanhct = (F.stack([s[k] for s in steps], axis=0) for k in range(7))
    return ht, _half_if(ht, x), ct, it, jt, ft, ot, tanhct


def dynamic_gru_v2(x: Tensor, weight_input: Tensor, weight_hidden: Tensor, bias_input: Tensor | None,
                   bias_hidden: Tensor | None, init_h: Tensor | None = None, gate_order: str = "rzh",
                   reset_after: bool = True) -> tuple[Tensor, ...]:
    """A one-layer GRU over a time-major sequence, ``ops.DynamicGRUV2``'s math.

    Args:
        x: (num_step, batch_size, input_size). weight_input: (input_size, 3 * hidden_size).
        weight_hidden: (hidden_size, 3 * hidden_size). bias_input, bias_hidden: (3 * hidden_size,) or None.
        init_h: (batch_size, hidden_size); zeros when None.
        gate_order: 'rzh' (reset, update, new) or 'zrh' (update, reset, new): the column blocks of the
            weights and biases.
        reset_after: apply the reset gate after the hidden matmul (True) or to h before it (False).

    Returns:
        (y, output_h, update, reset, new, hidden_new), each (num_step, batch_size, hidden_size), in the
        dtype of bias_input, else bias_hidden, else init_h.
    """
    op = "DynamicGRUV2"
    _check_rank(op, "x", x, 3, "(num_step, batch_size, input_size)")
    _check_rank(op, "weight_input", weight_input, 2, "2-D")
    _check_rank(op, "weight_hidden", weight_hidden, 2, "2-D")
    hidden = int(weight_hidden.shape[0])
    in_size, batch = int(x.shape[2]), x.shape[1]  # the batch a graph value where it is dynamic
    if tuple(weight_input.shape) != (in_size, 3 * hidden):
        raise ValueError(f"For '{op}', 'weight_input' must have shape (input_size, 3 * hidden_size) = "
                         f"({in_size}, {3 * hidden}), but got {tuple(weight_input.shape)}.")
    if tuple(weight_hidden.shape) != (hidden, 3 * hidden):
        raise ValueError(f"For '{op}', 'weight_hidden' must have shape (hidden_size, 3 * hidden_size) = "
                         f"({hidden}, {3 * hidden}), but got {tuple(weight_hidden.shape)}.")
    for name, bias in (("bias_input", bias_input), ("bias_hidden", bias_hidden)):
        if bias is not None and tuple(bias.shape) != (3 * hidden,):
            raise ValueError(f"For '{op}', '{name}' must have shape (3 * hidden_size,) = ({3 * hidden},), "
                             f"but got {tuple(bias.shape)}.")
    if gate_order not in ("rzh", "zrh"):
        raise ValueError(f"For '{op}', 'gate_order' must be 'rzh' or 'zrh', but got {gate_order!r}.")
    typed = next((t for t in (bias_input, bias_hidden, init_h) if t is not None), None)
    dtype = typed._data.dtype if typed is not None else x._data.dtype
    if init_h is None:
        h = F.zeros((batch, hidden), dtype)
    elif tuple(int(d) for d in init_h.shape) != (int(batch), hidden):
        raise ValueError(f"For '{op}', 'init_h' must have shape (batch_size, hidden_size) = ({batch}, "
                         f"{hidden}), but got {tuple(init_h.shape)}.")
    else:
        h = F.cast(init_h, dtype)
    w_i, w_h = F.cast(weight_input, dtype), F.cast(weight_hidden, dtype)
    r_at, z_at = (0, 1) if gate_order == "rzh" else (1, 0)

    def block(t: Tensor, k: int) -> Tensor:
        return t[:, k * hidden:(k + 1) * hidden] if len(t.shape) == 2 else t[k * hidden:(k + 1) * hidden]

    def add_bias(t: Tensor, bias: Tensor | None, k: int) -> Tensor:
        return t if bias is None else F.add(t, F.cast(block(bias, k), dtype))

    outs: list[tuple[Tensor, ...]] = []
    _static_steps(x, op)
    for t in range(int(x.shape[0])):
        gi = F.matmul(F.cast(x[t], dtype), w_i)
        r = F.sigmoid(F.add(add_bias(block(gi, r_at), bias_input, r_at),
                            add_bias(F.matmul(h, block(w_h, r_at)), bias_hidden, r_at)))
        z = F.sigmoid(F.add(add_bias(block(gi, z_at), bias_input, z_at),
                            add_bias(F.matmul(h, block(w_h, z_at)), bias_hidden, z_at)))
        if reset_after:
            hidden_new = add_bias(F.matmul(h, block(w_h, 2)), bias_hidden, 2)
            n = F.tanh(F.add(add_bias(block(gi, 2), bias_input, 2), F.mul(r, hidden_new)))
        else:
            hidden_new = add_bias(F.matmul(F.mul(r, h), block(w_h, 2)), bias_hidden, 2)
            n = F.tanh(F.add(add_bias(block(gi, 2), bias_input, 2), hidden_new))
        h = F.add(F.mul(F.sub(Tensor(np.ones((), dtype)), z), n), F.mul(z, h))
        outs.append((h, z, r, n, hidden_new))
    hs, zs, rs, ns, hn = (F.stack([s[k] for s in outs], axis=0) for k in range(5))
    return hs, hs, zs, rs, ns, hn
