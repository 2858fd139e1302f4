"""Recurrent primitives: LSTM.

One ``LSTM`` primitive is one layer (both directions when bidirectional) over a whole sequence:

- forward: NumPy, one input-projection matmul for all time steps, then a loop over time steps only;
- gradient: back-propagation through time written with cellonnx ops (matmul, sigmoid, tanh, split, concat),
  so it is differentiable again and traceable; it reads the layer's hidden states from the saved output
  and recomputes the gates for all steps with one batched matmul;
- lowering: one ONNX ``LSTM`` node. MindSpore (like PyTorch) stacks the gates as i, f, g, o; ONNX wants
  i, o, f, c. The weights stay the graph's initializers under their parameter names (checkpoints map onto
  them unchanged), so the reorder is a ``Gather`` with constant row indices on each weight inside the graph;
  onnxruntime constant-folds that subgraph when the session is created, so it costs nothing per run.
  Sequence length and batch stay dynamic (no shape is baked into the graph).

``ops.lstm`` stacks layers (with dropout between them in training) and handles ``batch_first``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def _unpack(rest: Sequence[Any], n_dir: int, has_bias: bool, has_initial: bool) -> tuple[Any, Any, list]:
    """(h0, c0, [(w_ih, w_hh, b_ih, b_hh) per direction]) from the primitive's inputs after x."""
    h0 = c0 = None
    if has_initial:
        h0, c0, rest = rest[0], rest[1], rest[2:]
    k = 4 if has_bias else 2
    params = []
    for d in range(n_dir):
        p = list(rest[d * k:(d + 1) * k])
        params.append((p[0], p[1], p[2], p[3]) if has_bias else (p[0], p[1], None, None))
    return h0, c0, params


def _run_direction(x: np.ndarray, h: np.ndarray, c: np.ndarray, w_ih: np.ndarray, w_hh: np.ndarray,
                   b_ih: np.ndarray | None, b_hh: np.ndarray | None, reverse: bool,
                   out: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Run one direction, writing h_t into ``out[t]``; returns the last (h, c)."""
    T, N, n_in = x.shape
    H = w_hh.shape[1]
    dt = x.dtype
    # Gates reordered to i, f, o, g and the sigmoid rows pre-scaled by 1/2: then one tanh per step gives all
    # four activations (sigmoid(z) = (tanh(z/2) + 1) / 2, which never overflows).
    order = np.r_[0:2 * H, 3 * H:4 * H, 2 * H:3 * H]
    scale = np.r_[np.full(3 * H, 0.5), np.ones(H)].astype(dt)
    wi = w_ih[order] * scale[:, None]
    wh = np.ascontiguousarray((w_hh[order] * scale[:, None]).T)
    gx = np.matmul(x.reshape(T * N, n_in), wi.T).reshape(T, N, 4 * H)
    if b_ih is not None:
        gx += (b_ih + b_hh)[order] * scale
    for t in (range(T - 1, -1, -1) if reverse else range(T)):
        a = np.matmul(h, wh)
        a += gx[t]
        np.tanh(a, out=a)
        s = a[:, :3 * H]
        s *= 0.5
        s += 0.5
        c = a[:, H:2 * H] * c + a[:, :H] * a[:, 3 * H:]
        h = a[:, 2 * H:3 * H] * np.tanh(c)
        out[t] = h
    return h, c


class LSTM(Op):
    """One LSTM layer over a sequence.

    Inputs: x (T, N, I); when ``has_initial``, h0 and c0 (D, N, H); then per direction w_ih (4H, I),
    w_hh (4H, H) and, when ``has_bias``, b_ih and b_hh (4H,), gates stacked i, f, g, o.
    Outputs: y (T, N, D*H), h_n (D, N, H), c_n (D, N, H).
    """

    n_outputs = 3
    save_output = True

    def forward(self, x, *rest, bidirectional, has_bias, has_initial):
        n_dir = 2 if bidirectional else 1
        h0, c0, params = _unpack(rest, n_dir, has_bias, has_initial)
        T, N, _ = x.shape
        H = params[0][1].shape[1]
        y = np.empty((T, N, n_dir * H), dtype=x.dtype)
        h_n = np.empty((n_dir, N, H), dtype=x.dtype)
        c_n = np.empty((n_dir, N, H), dtype=x.dtype)
        for d in range(n_dir):
            h = h0[d] if h0 is not None else np.zeros((N, H), dtype=x.dtype)
            c = c0[d] if c0 is not None else np.zeros((N, H), dtype=x.dtype)
            out = y[:, :, d * H:(d + 1) * H]
            h_n[d], c_n[d] = _run_direction(x, h, c, *params[d], reverse=d == 1, out=out)
        return y, h_n, c_n

    def check(self, x, *rest, bidirectional, has_bias, has_initial):
        n_dir = 2 if bidirectional else 1
        h0, c0, params = _unpack(rest, n_dir, has_bias, has_initial)
        if x.ndim != 3:
            return f"input must be 3-D (seq_len, batch, input_size), got shape {x.shape}"
        _, N, n_in = x.shape
        H = params[0][1].shape[-1]
        for d, (w_ih, w_hh, b_ih, b_hh) in enumerate(params):
            if w_ih.shape != (4 * H, n_in) or w_hh.shape != (4 * H, H):
                return (f"direction {d}: weight_ih {w_ih.shape} / weight_hh {w_hh.shape} do not match "
                        f"input_size {n_in} and hidden_size {H} (expected {(4 * H, n_in)} and {(4 * H, H)})")
            if b_ih is not None and (b_ih.shape != (4 * H,) or b_hh.shape != (4 * H,)):
                return f"direction {d}: biases {b_ih.shape} / {b_hh.shape} must be {(4 * H,)}"
        for name, s in (("h0", h0), ("c0", c0)):
            if s is not None and s.shape != (n_dir, N, H):
                return f"{name} has shape {s.shape}, expected {(n_dir, N, H)}"
        return None

    def backward(self, ctx, gy, g_hn, g_cn, *, bidirectional, has_bias, has_initial):
        from cellonnx.ops.prims.creation import zeros_like
        from cellonnx.ops.prims.index import concat, split
        from cellonnx.ops.prims.linalg import matmul
        from cellonnx.ops.prims.math import add, mul, sigmoid, sub, tanh
        from cellonnx.ops.prims.reduce import reduce_sum
        from cellonnx.ops.prims.shape import reshape, transpose

        n_dir = 2 if bidirectional else 1
        x = ctx.inputs[0]
        h0, c0, params = _unpack(ctx.inputs[1:], n_dir, has_bias, has_initial)
        from cellonnx.graph.trace import require_static
        require_static(x.shape[0], "the LSTM's gradient")
        T, _, n_in = x._data.shape
        H = params[0][1]._data.shape[1]
        y = ctx.out

        def pieces(t: Tensor, size: int, axis: int) -> list[Tensor]:
            return list(split(t, size, axis))

        ys, gys = pieces(y, H, -1), pieces(gy, H, -1)
        g_hns, g_cns = pieces(g_hn, 1, 0), pieces(g_cn, 1, 0)
        h0s = pieces(h0, 1, 0) if h0 is not None else None
        c0s = pieces(c0, 1, 0) if c0 is not None else None
        x2 = reshape(x, (-1, n_in))
        gx: Tensor | None = None
        grads: list[Tensor | None] = []
        g_h0: list[Tensor] = []
        g_c0: list[Tensor] = []
        for d, (w_ih, w_hh, b_ih, b_hh) in enumerate(params):
            steps = list(range(T - 1, -1, -1) if d == 1 else range(T))
            zero = zeros_like(g_hns[d])
            h_init = h0s[d] if h0s is not None else zero
            c_init = c0s[d] if c0s is not None else zero
            hs = pieces(ys[d], 1, 0)
            # the hidden state each step started from, in time order
            h_prev: list[Any] = [None] * T
            for k, t in enumerate(steps):
                h_prev[t] = h_init if k == 0 else hs[steps[k - 1]]
            Hp = concat(h_prev, 0)
            z = add(matmul(x, transpose(w_ih, (1, 0))), matmul(Hp, transpose(w_hh, (1, 0))))
            if b_ih is not None:
                z = add(z, add(b_ih, b_hh))
            zi, zf, zg, zo = split(z, H, -1)
            i, f, gc, o = sigmoid(zi), sigmoid(zf), tanh(zg), sigmoid(zo)
            fs, igs = pieces(f, 1, 0), pieces(mul(i, gc), 1, 0)
            cs: list[Any] = [None] * T
            c_prev: list[Any] = [None] * T
            c = c_init
            for t in steps:
                c_prev[t] = c
                c = add(mul(fs[t], c), igs[t])
                cs[t] = c
            C = concat(cs, 0)
            Cp = concat(c_prev, 0)
            tc = tanh(C)
            # dc_t += dh_t * A_t; the gate pre-activation gradients are [dc, dc, dc, dh] * K_t
            A = mul(o, sub(1.0, mul(tc, tc)))
            K = concat([mul(gc, mul(i, sub(1.0, i))), mul(Cp, mul(f, sub(1.0, f))),
                        mul(i, sub(1.0, mul(gc, gc))), mul(tc, mul(o, sub(1.0, o)))], -1)
            As, Ks, gs = pieces(A, 1, 0), pieces(K, 1, 0), pieces(gys[d], 1, 0)
            dh, dc = g_hns[d], g_cns[d]
            dz: list[Any] = [None] * T
            for t in reversed(steps):
                dh_t = add(gs[t], dh)
                dc_t = add(mul(dh_t, As[t]), dc)
                dz[t] = mul(concat([dc_t, dc_t, dc_t, dh_t], -1), Ks[t])
                dh = matmul(dz[t], w_hh)
                dc = mul(dc_t, fs[t])
            DZ = concat(dz, 0)
            DZ2t = transpose(reshape(DZ, (-1, 4 * H)), (1, 0))
            if x.requires_grad:
                gxd = matmul(DZ, w_ih)
                gx = gxd if gx is None else add(gx, gxd)
            grads.append(matmul(DZ2t, x2) if w_ih.requires_grad else None)
            grads.append(matmul(DZ2t, reshape(Hp, (-1, H))) if w_hh.requires_grad else None)
            if b_ih is not None:
                gb = reduce_sum(DZ, (0, 1)) if (b_ih.requires_grad or b_hh.requires_grad) else None
                grads += [gb, gb]
            g_h0.append(dh)
            g_c0.append(dc)
        initial: list[Tensor | None] = []
        if has_initial:
            initial = [concat(g_h0, 0), concat(g_c0, 0)]
        return [gx] + initial + grads

    def lower(self, g, x, *rest, bidirectional, has_bias, has_initial):
        n_dir = 2 if bidirectional else 1
        h0, c0, params = _unpack(rest, n_dir, has_bias, has_initial)
        w_hh_index = 1 + (2 if has_initial else 0) + 1
        H = int(g.in_tensors[w_hh_index]._data.shape[1])
        # ONNX gate order i, o, f, c from MindSpore's i, f, g, o
        perm = g.i64(np.r_[0:H, 3 * H:4 * H, H:2 * H, 2 * H:3 * H])

        def stacked(names: list[str]) -> str:
            parts = [g.unsqueeze(n, [0]) for n in names]
            return parts[0] if len(parts) == 1 else g.op("Concat", *parts, axis=0)

        def reorder(name: str) -> str:
            return g.op("Gather", name, perm, axis=0)

        W = stacked([reorder(p[0]) for p in params])
        R = stacked([reorder(p[1]) for p in params])
        B = None
        if has_bias:
            B = stacked([g.op("Concat", reorder(p[2]), reorder(p[3]), axis=0) for p in params])
        Y, Y_h, Y_c = g.op("LSTM", x, W, R, B, None, h0, c0, outputs=3, hidden_size=H,
                           direction="bidirectional" if bidirectional else "forward")
        # Y is (T, D, N, H); ours is (T, N, D*H)
        if n_dir == 1:
            y = g.squeeze(Y, [1])
        else:
            y = g.op("Reshape", g.op("Transpose", Y, perm=[0, 2, 1, 3]), g.i64([0, 0, -1]))
        return y, Y_h, Y_c


# ---------------------------------------------------------------- functional API
def lstm(input: Tensor, hx: tuple[Tensor, Tensor] | None, weights: Sequence[Tensor], num_layers: int = 1,
         bidirectional: bool = False, batch_first: bool = False, dropout: float = 0.0,
         training: bool = False) -> tuple[Tensor, tuple[Tensor, Tensor]]:
    """Multi-layer LSTM over a whole sequence, as computed by ``nn.LSTM``.

    MindSpore 2.x has no public functional LSTM; this is the function ``nn.LSTM`` calls.

    Args:
        input (Tensor): (seq_len, batch, input_size), or (batch, seq_len, input_size) with ``batch_first``.
        hx (tuple[Tensor, Tensor], optional): (h0, c0), each
            (num_layers * num_directions, batch, hidden_size); None for zeros.
        weights (Sequence[Tensor]): for each layer k, for each direction (forward, then reverse):
            ``weight_ih_l{k}`` (4*hidden_size, in), ``weight_hh_l{k}`` (4*hidden_size, hidden_size) and,
            with bias, ``bias_ih_l{k}`` and ``bias_hh_l{k}`` (4*hidden_size,); the reverse direction's names
            carry the ``_reverse`` suffix. Gates are stacked i, f, g, o. ``in`` is input_size for layer 0 and
            num_directions * hidden_size after it. Bias is inferred from the count (4 or 2 per layer and
            direction).
        num_layers (int): number of stacked layers. Default: 1.
        bidirectional (bool): run a reverse direction too. Default: False.
        batch_first (bool): input and output put the batch first. Default: False.
        dropout (float): dropout probability on each layer's output except the last, in training.
            Default: 0.0.
        training (bool): apply ``dropout``. Default: False.

    Returns:
        (output, (h_n, c_n)): output (seq_len, batch, num_directions * hidden_size) (batch first with
        ``batch_first``), h_n and c_n (num_layers * num_directions, batch, hidden_size).

    Examples:
        >>> x = ops.ones((5, 2, 3))
        >>> w = [ops.ones((8, 3)) * 0.1, ops.ones((8, 2)) * 0.1, ops.zeros(8), ops.zeros(8)]
        >>> out, (h, c) = ops.lstm(x, None, w)
        >>> out.shape, h.shape
        ((5, 2, 2), (1, 2, 2))
    """
    from cellonnx.ops.prims.shape import transpose

    n_dir = 2 if bidirectional else 1
    weights = list(weights)
    if num_layers < 1:
        raise ValueError(f"ops.lstm: num_layers must be >= 1, got {num_layers}")
    if len(weights) == 4 * num_layers * n_dir:
        has_bias = True
    elif len(weights) == 2 * num_layers * n_dir:
        has_bias = False
    else:
        raise ValueError(f"ops.lstm: got {len(weights)} weights for num_layers={num_layers}, "
                         f"bidirectional={bidirectional}; expected {4 * num_layers * n_dir} (with bias) or "
                         f"{2 * num_layers * n_dir} (without): weight_ih, weight_hh[, bias_ih, bias_hh] per "
                         f"layer and direction")
    hidden = int(weights[1]._data.shape[-1])
    in_size = int(input._data.shape[-1])
    names = ["weight_ih", "weight_hh", "bias_ih", "bias_hh"][:4 if has_bias else 2]
    for layer in range(num_layers):
        size = in_size if layer == 0 else n_dir * hidden
        for d in range(n_dir):
            base = (layer * n_dir + d) * len(names)
            for j, name in enumerate(names):
                want: tuple[int, ...] = (4 * hidden, size) if j == 0 else \
                    (4 * hidden, hidden) if j == 1 else (4 * hidden,)
                got = tuple(weights[base + j]._data.shape)
                if got != want:
                    raise ValueError(f"ops.lstm: {name}_l{layer}{'_reverse' if d else ''} has shape {got}, "
                                     f"expected {want} (input_size={in_size}, hidden_size={hidden}, "
                                     f"num_layers={num_layers}, bidirectional={bidirectional}, "
                                     f"has_bias={has_bias})")
    if input.ndim != 3:
        layout = "batch, seq_len" if batch_first else "seq_len, batch"
        raise ValueError(f"ops.lstm: input must be 3-D ({layout}, input_size), got shape "
                         f"{tuple(input._data.shape)}")
    dt = input._data.dtype
    for t in weights + (list(hx) if hx is not None else []):
        if t._data.dtype != dt or not is_float_dtype(dt):
            raise TypeError(f"ops.lstm: input, hx and weights must share one float dtype; input is "
                            f"{input.dtype}, found a {t.dtype} tensor of shape {tuple(t._data.shape)}")
    if dropout and not 0.0 <= dropout <= 1.0:
        raise ValueError(f"ops.lstm: dropout must be in [0, 1], got {dropout}")
    x = transpose(input, (1, 0, 2)) if batch_first else input
    initial: list[tuple[Tensor, Tensor]] | None = None
    if hx is not None:
        h0, c0 = hx
        want = (num_layers * n_dir, int(x._data.shape[1]), hidden)
        for name, s in (("h0", h0), ("c0", c0)):
            if tuple(s._data.shape) != want:
                raise ValueError(f"ops.lstm: {name} has shape {tuple(s._data.shape)}, expected {want} "
                                 f"(num_layers * num_directions, batch, hidden_size)")
        if num_layers == 1:
            initial = [(h0, c0)]
        else:
            from cellonnx.ops.prims.index import split
            initial = list(zip(split(h0, n_dir, 0), split(c0, n_dir, 0)))
    k = (4 if has_bias else 2) * n_dir
    attrs = {"bidirectional": bool(bidirectional), "has_bias": has_bias, "has_initial": hx is not None}
    h_n: list[Tensor] = []
    c_n: list[Tensor] = []
    for layer in range(num_layers):
        if layer > 0 and dropout > 0 and training:
            from cellonnx.ops.prims.dropout import dropout as _dropout
            x = _dropout(x, p=dropout, training=True)
        args = [x] + (list(initial[layer]) if initial is not None else [])
        args += weights[layer * k:(layer + 1) * k]
        x, h, c = LSTM.apply(*args, **attrs)
        h_n.append(h)
        c_n.append(c)
    if num_layers > 1:
        from cellonnx.ops.prims.index import concat
        hn, cn = concat(h_n, 0), concat(c_n, 0)
    else:
        hn, cn = h_n[0], c_n[0]
    return (transpose(x, (1, 0, 2)) if batch_first else x), (hn, cn)


__all__ = ["lstm"]
