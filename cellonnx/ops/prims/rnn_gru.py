"""Recurrent primitives GRU and RNN (tanh / relu), shaped like the LSTM one in rnn.py: one primitive is one
layer (both directions when bidirectional) over a whole sequence, with optional per-sample lengths.

- forward: NumPy, the input projection of all steps in one matmul, then a loop over the steps;
- lengths: a step t is live for sample b when t < length[b]; a dead step keeps the state and outputs zeros,
  so the forward direction's final state is the one after the last live step and the reverse direction
  starts at each sample's last live step (MindSpore's variable_recurrent with reverse_sequence; ONNX's
  sequence_lens);
- gradient: back-propagation through time written with cellonnx ops; the state each live step started from
  is read off the output (the previous live output, or the initial state), the gates are recomputed for all
  steps with batched matmuls, and only the hidden-state gradient is carried through the loop;
- lowering: one ONNX GRU (linear_before_reset = 1: MindSpore's candidate gate multiplies the reset gate by
  W_hn h + b_hn) or RNN node; MindSpore stacks the GRU gates r, z, n, ONNX wants z, r, h, so the weights are
  reordered inside the graph by a Gather with constant indices (onnxruntime folds it when the session is
  created).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def _unpack(rest: Sequence[Any], n_dir: int, has_bias: bool, has_initial: bool,
            has_lengths: bool) -> tuple[Any, Any, list]:
    """(h0, lengths, [(w_ih, w_hh, b_ih, b_hh) per direction]) from the inputs after x."""
    h0 = lengths = None
    if has_initial:
        h0, rest = rest[0], rest[1:]
    if has_lengths:
        lengths, rest = rest[0], rest[1:]
    k = 4 if has_bias else 2
    params = []
    for d in range(n_dir):
        p = list(rest[d * k:(d + 1) * k])
        params.append((p[0], p[1], p[2], p[3]) if has_bias else (p[0], p[1], None, None))
    return h0, lengths, params


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return 0.5 * (np.tanh(0.5 * a) + 1.0)  # never overflows


def _cell_np(kind: str, gx: np.ndarray, h: np.ndarray, wh_t: np.ndarray,
             b_hh: np.ndarray | None) -> np.ndarray:
    """The new state from the step's input projection ``gx`` (bias included) and the state ``h``."""
    gh = np.matmul(h, wh_t)
    if b_hh is not None:
        gh += b_hh
    if kind == "GRU":
        hs = h.shape[1]
        r = _sigmoid(gx[:, :hs] + gh[:, :hs])
        z = _sigmoid(gx[:, hs:2 * hs] + gh[:, hs:2 * hs])
        n = np.tanh(gx[:, 2 * hs:] + r * gh[:, 2 * hs:])
        return n + z * (h - n)
    a = gx + gh
    return np.tanh(a) if kind == "RNN_TANH" else np.maximum(a, 0)


def _run_direction(kind: str, x: np.ndarray, h: np.ndarray, w_ih: np.ndarray, w_hh: np.ndarray,
                   b_ih: np.ndarray | None, b_hh: np.ndarray | None, live: np.ndarray | None, reverse: bool,
                   out: np.ndarray) -> np.ndarray:
    """Run one direction writing outputs into ``out[t]``; ``live`` (T, N, 1) masks dead steps. Returns the
    final state."""
    steps, batch, n_in = x.shape
    gx = np.matmul(x.reshape(steps * batch, n_in), w_ih.T).reshape(steps, batch, -1)
    if b_ih is not None:
        gx += b_ih
    wh_t = np.ascontiguousarray(w_hh.T)
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        new = _cell_np(kind, gx[t], h, wh_t, b_hh)
        if live is None:
            h = new
            out[t] = h
        else:
            out[t] = new * live[t]
            h = np.where(live[t] > 0, new, h)
    return h


def _live_mask(lengths: np.ndarray, steps: int, dtype: Any) -> np.ndarray:
    return (np.arange(steps)[:, None] < lengths.reshape(1, -1)).astype(dtype)[:, :, None]


class _Recurrent(Op, register=False):
    """Inputs: x (T, N, I); h0 (D, N, H) when ``has_initial``; lengths (N,) int when ``has_lengths``; per
    direction w_ih (G*H, I), w_hh (G*H, H) and, when ``has_bias``, b_ih and b_hh (G*H,).
    Outputs: y (T, N, D*H), h_n (D, N, H)."""

    n_outputs = 2
    save_output = True
    kind = ""
    gates = 1

    def _kind(self, attrs: dict) -> str:
        return self.kind

    def forward(self, x, *rest, bidirectional, has_bias, has_initial, has_lengths, **attrs):
        kind = self._kind(attrs)
        n_dir = 2 if bidirectional else 1
        h0, lengths, params = _unpack(rest, n_dir, has_bias, has_initial, has_lengths)
        steps, batch, _ = x.shape
        hs = params[0][1].shape[1]
        live = _live_mask(lengths, steps, x.dtype) if lengths is not None else None
        y = np.zeros((steps, batch, n_dir * hs), dtype=x.dtype)
        h_n = np.empty((n_dir, batch, hs), dtype=x.dtype)
        for d in range(n_dir):
            h = h0[d] if h0 is not None else np.zeros((batch, hs), dtype=x.dtype)
            h_n[d] = _run_direction(kind, x, h, *params[d], live, d == 1, y[:, :, d * hs:(d + 1) * hs])
        return y, h_n

    def check(self, x, *rest, bidirectional, has_bias, has_initial, has_lengths, **attrs):
        n_dir = 2 if bidirectional else 1
        h0, lengths, params = _unpack(rest, n_dir, has_bias, has_initial, has_lengths)
        if x.ndim != 3:
            return f"input must be 3-D (seq_len, batch, input_size), got shape {x.shape}"
        _, batch, n_in = x.shape
        hs = params[0][1].shape[-1]
        g = self.gates * hs
        for d, (w_ih, w_hh, b_ih, b_hh) in enumerate(params):
            if w_ih.shape != (g, n_in) or w_hh.shape != (g, hs):
                return (f"direction {d}: weight_ih {w_ih.shape} / weight_hh {w_hh.shape} do not match "
                        f"input_size {n_in} and hidden_size {hs} (expected {(g, n_in)} and {(g, hs)})")
            if b_ih is not None and (b_ih.shape != (g,) or b_hh.shape != (g,)):
                return f"direction {d}: biases {b_ih.shape} / {b_hh.shape} must be {(g,)}"
        if h0 is not None and h0.shape != (n_dir, batch, hs):
            return f"h0 has shape {h0.shape}, expected {(n_dir, batch, hs)}"
        if lengths is not None and lengths.shape != (batch,):
            return f"seq_length has shape {lengths.shape}, expected ({batch},)"
        return None

    def backward(self, ctx, gy, g_hn, *, bidirectional, has_bias, has_initial, has_lengths, **attrs):
        from cellonnx.ops.prims.creation import zeros_like
        from cellonnx.ops.prims.index import concat, split
        from cellonnx.ops.prims.linalg import matmul
        from cellonnx.ops.prims.math import add, mul, sub
        from cellonnx.ops.prims.reduce import reduce_sum
        from cellonnx.ops.prims.shape import reshape, transpose

        kind = self._kind(attrs)
        n_dir = 2 if bidirectional else 1
        x = ctx.inputs[0]
        h0, lengths, params = _unpack(ctx.inputs[1:], n_dir, has_bias, has_initial, has_lengths)
        from cellonnx.graph.trace import require_static
        require_static(x.shape[0], f"the {kind}'s gradient")
        steps, _, n_in = x._data.shape
        hs = params[0][1]._data.shape[1]
        y = ctx.output(0)
        dt = x._data.dtype
        live = None
        if lengths is not None:
            live = Tensor._make(_live_mask(lengths._data, steps, dt))  # constant: lengths are not trained
        ys, gys = list(split(y, hs, -1)), list(split(gy, hs, -1))
        g_hns = list(split(g_hn, 1, 0))
        h0s = list(split(h0, 1, 0)) if h0 is not None else None
        x2 = reshape(x, (-1, n_in))
        gx: Tensor | None = None
        grads: list[Tensor | None] = []
        g_h0: list[Tensor] = []
        for d, (w_ih, w_hh, b_ih, b_hh) in enumerate(params):
            h_init = h0s[d] if h0s is not None else zeros_like(g_hns[d])
            outs = list(split(ys[d], 1, 0))
            prev = [None] * steps  # the state each (live) step started from
            order = list(range(steps - 1, -1, -1) if d == 1 else range(steps))
            for k, t in enumerate(order):
                if k == 0:
                    prev[t] = h_init
                    continue
                before = order[k - 1]
                if live is None:
                    prev[t] = outs[before]
                else:  # the previous step's output when it was live, else (not started yet) the initial state
                    m = live[before:before + 1]
                    prev[t] = add(mul(outs[before], m), mul(h_init, sub(1.0, m)))
            hp = concat(prev, 0)  # (T, N, H)
            gxp = matmul(x, transpose(w_ih, (1, 0)))
            ghp = matmul(hp, transpose(w_hh, (1, 0)))
            if b_ih is not None:
                gxp, ghp = add(gxp, b_ih), add(ghp, b_hh)
            dgi_steps: list[Any] = [None] * steps
            dgh_steps: list[Any] = [None] * steps
            dh = g_hns[d]
            pieces = _gate_pieces(kind, gxp, ghp, hp, hs)
            for t in reversed(order):
                dnew = add(dh,
                           gys[d][t:t + 1]) if live is None else mul(add(dh, gys[d][t:t + 1]), live[t:t + 1])
                dgi, dgh, dh_direct = _step_grad(kind, dnew, pieces, t)
                dgi_steps[t], dgh_steps[t] = dgi, dgh
                carry = add(dh_direct, matmul(dgh, w_hh))
                dh = carry if live is None else add(carry, mul(dh, sub(1.0, live[t:t + 1])))
            dgi_all, dgh_all = concat(dgi_steps, 0), concat(dgh_steps, 0)
            if x.requires_grad:
                part = matmul(dgi_all, w_ih)
                gx = part if gx is None else add(gx, part)
            gi2 = transpose(reshape(dgi_all, (-1, self.gates * hs)), (1, 0))
            gh2 = transpose(reshape(dgh_all, (-1, self.gates * hs)), (1, 0))
            grads.append(matmul(gi2, x2) if w_ih.requires_grad else None)
            grads.append(matmul(gh2, reshape(hp, (-1, hs))) if w_hh.requires_grad else None)
            if b_ih is not None:
                grads.append(reduce_sum(dgi_all, (0, 1)) if b_ih.requires_grad else None)
                grads.append(reduce_sum(dgh_all, (0, 1)) if b_hh.requires_grad else None)
            g_h0.append(dh)
        extra: list[Tensor | None] = []
        if has_initial:
            extra.append(concat(g_h0, 0))
        if has_lengths:
            extra.append(None)
        return [gx] + extra + grads

    def lower(self, g, x, *rest, bidirectional, has_bias, has_initial, has_lengths, **attrs):
        kind = self._kind(attrs)
        n_dir = 2 if bidirectional else 1
        h0, lengths, params = _unpack(rest, n_dir, has_bias, has_initial, has_lengths)
        w_hh_index = 1 + int(has_initial) + int(has_lengths) + 1
        hs = int(g.in_tensors[w_hh_index]._data.shape[1])
        perm = g.i64(np.r_[hs:2 * hs, 0:hs, 2 * hs:3 * hs]) if kind == "GRU" else None  # r, z, n -> z, r, h

        def stacked(names: list[str]) -> str:
            parts = [g.unsqueeze(n, [0]) for n in names]
            return parts[0] if len(parts) == 1 else g.op("Concat", *parts, axis=0)

        def reorder(name: str) -> str:
            return g.op("Gather", name, perm, axis=0) if perm is not None else name

        w = stacked([reorder(p[0]) for p in params])
        r = stacked([reorder(p[1]) for p in params])
        b = stacked([g.op("Concat", reorder(p[2]), reorder(p[3]),
                          axis=0) for p in params]) if has_bias else None
        lens = g.op("Cast", lengths, to=6) if lengths is not None else None  # ONNX wants int32
        direction = "bidirectional" if bidirectional else "forward"
        if kind == "GRU":
            y, y_h = g.op("GRU", x, w, r, b, lens, h0, outputs=2, hidden_size=hs, direction=direction,
                          linear_before_reset=1)
        else:
            act = "Tanh" if kind == "RNN_TANH" else "Relu"
            y, y_h = g.op("RNN", x, w, r, b, lens, h0, outputs=2, hidden_size=hs, direction=direction,
                          activations=[act] * n_dir)
        if n_dir == 1:  # Y is (T, D, N, H); ours is (T, N, D*H)
            return g.squeeze(y, [1]), y_h
        return g.op("Reshape", g.op("Transpose", y, perm=[0, 2, 1, 3]), g.i64([0, 0, -1])), y_h


def _gate_pieces(kind: str, gxp: Tensor, ghp: Tensor, hp: Tensor, hs: int) -> dict[str, list[Tensor]]:
    """Per-step tensors the backward loop reads, computed for all steps at once."""
    from cellonnx.ops.prims.index import split
    from cellonnx.ops.prims.math import add, mul, relu, sigmoid, sub, tanh

    def steps(t: Tensor) -> list[Tensor]:
        return list(split(t, 1, 0))

    if kind == "GRU":
        i_r, i_z, i_n = split(gxp, hs, -1)
        h_r, h_z, h_n = split(ghp, hs, -1)
        r, z = sigmoid(add(i_r, h_r)), sigmoid(add(i_z, h_z))
        n = tanh(add(i_n, mul(r, h_n)))
        # d/da of the gates: da_n = dn (1 - n^2), da_r = dr r (1 - r), da_z = dz z (1 - z)
        return {"one_minus_z": steps(sub(1.0, z)), "z": steps(z), "hp_minus_n": steps(sub(hp, n)),
                "dn": steps(sub(1.0, mul(n, n))), "h_n": steps(h_n), "r": steps(r),
                "dr": steps(mul(r, sub(1.0, r))), "dz": steps(mul(z, sub(1.0, z)))}
    a = add(gxp, ghp)
    if kind == "RNN_TANH":
        h = tanh(a)
        return {"dact": steps(sub(1.0, mul(h, h)))}
    from cellonnx.ops.prims.math import cast, greater
    return {"dact": steps(cast(greater(relu(a), 0.0), a._data.dtype))}


def _step_grad(kind: str, dnew: Tensor, p: dict[str, list[Tensor]], t: int) -> tuple[Tensor, Tensor, Tensor]:
    """(gradient of the input gates, of the hidden gates, of the state through the gates' direct path) of
    step t from the gradient of its new state."""
    from cellonnx.ops.prims.index import concat
    from cellonnx.ops.prims.math import mul
    if kind == "GRU":
        dn = mul(dnew, p["one_minus_z"][t])
        da_z = mul(mul(dnew, p["hp_minus_n"][t]), p["dz"][t])
        da_n = mul(dn, p["dn"][t])
        da_r = mul(mul(da_n, p["h_n"][t]), p["dr"][t])
        dgi = concat([da_r, da_z, da_n], -1)
        dgh = concat([da_r, da_z, mul(da_n, p["r"][t])], -1)
        return dgi, dgh, mul(dnew, p["z"][t])
    da = mul(dnew, p["dact"][t])
    from cellonnx.ops.prims.creation import zeros_like
    return da, da, zeros_like(dnew)


class GRU(_Recurrent):
    """One GRU layer (gates r, z, n; n = tanh(W_in x + b_in + r (W_hn h + b_hn)), h' = (1 - z) n + z h)."""

    kind = "GRU"
    gates = 3


class RNN(_Recurrent):
    """One Elman RNN layer, h' = tanh or relu(W_ih x + b_ih + W_hh h + b_hh) (attribute ``nonlinearity``)."""

    gates = 1

    def _kind(self, attrs: dict) -> str:
        return "RNN_TANH" if attrs.get("nonlinearity", "tanh") == "tanh" else "RNN_RELU"


def stacked_rnn(mode: str, input: Tensor, hx: Tensor | None, weights: Sequence[Tensor], num_layers: int,
                bidirectional: bool, batch_first: bool, dropout: float, training: bool,
                seq_length: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """Multi-layer GRU or RNN over a sequence, as nn.GRU / nn.RNN compute it (``mode``: 'GRU', 'RNN_TANH',
    'RNN_RELU'); weights per layer and direction: weight_ih, weight_hh[, bias_ih, bias_hh]. Returns
    (output, h_n)."""
    from cellonnx.ops.prims.dropout import dropout as _dropout
    from cellonnx.ops.prims.index import concat, split
    from cellonnx.ops.prims.shape import transpose

    n_dir = 2 if bidirectional else 1
    weights = list(weights)
    has_bias = len(weights) == 4 * num_layers * n_dir
    x = transpose(input, (1, 0, 2)) if batch_first else input
    initial = list(split(hx, n_dir,
                         0)) if hx is not None and num_layers > 1 else ([hx] if hx is not None else None)
    op = GRU if mode == "GRU" else RNN
    attrs: dict[str, Any] = {"bidirectional": bool(bidirectional), "has_bias": has_bias,
                             "has_initial": hx is not None, "has_lengths": seq_length is not None}
    if op is RNN:
        attrs["nonlinearity"] = "tanh" if mode == "RNN_TANH" else "relu"
    k = (4 if has_bias else 2) * n_dir
    h_n: list[Tensor] = []
    for layer in range(num_layers):
        if layer > 0 and dropout > 0 and training:
            x = _dropout(x, p=dropout, training=True)
        args = [x] + ([initial[layer]] if initial is not None else [])
        args += [seq_length] if seq_length is not None else []
        args += weights[layer * k:(layer + 1) * k]
        x, h = op.apply(*args, **attrs)
        h_n.append(h)
    hn = concat(h_n, 0) if num_layers > 1 else h_n[0]
    return (transpose(x, (1, 0, 2)) if batch_first else x), hn


__all__: list[str] = []
