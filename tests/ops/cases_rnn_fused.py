"""Rows for the fused recurrent cells behind ops.BasicLSTMCell / DynamicRNN / DynamicGRUV2
(cellonnx/ops/composite/rnn_fused.py): references are float64 NumPy loops written from MindSpore's documented
formulas (LSTM gate columns i, j, f, o over concat(x, h) @ w + b, forget_bias inside the forget sigmoid,
cell_clip on the cell state; GRU gates in 'rzh' or 'zrh' column order, reset before or after the hidden
matmul), every per-step output compared; gradients against finite differences on tiny sizes."""
from __future__ import annotations

import numpy as np

from cellonnx.ops.composite.rnn_fused import basic_lstm_cell, dynamic_gru_v2, dynamic_rnn
from tests.ops.harness import OpCase, rand


def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def ref_lstm_step(x, h, c, w, b, forget_bias=0.0, cell_clip=-1.0):
    hid = h.shape[-1]
    g = np.concatenate([x, h], axis=1) @ w + b
    i = _sigmoid(g[:, :hid])
    j = np.tanh(g[:, hid:2 * hid])
    f = _sigmoid(g[:, 2 * hid:3 * hid] + forget_bias)
    o = _sigmoid(g[:, 3 * hid:])
    ct = f * c + i * j
    if cell_clip > 0:
        ct = np.clip(ct, -cell_clip, cell_clip)
    return ct, o * np.tanh(ct), i, j, f, o, np.tanh(ct)


def ref_dynamic_rnn(x, w, b, h0, c0, forget_bias=0.0, cell_clip=-1.0):
    h, c = h0[0], c0[0]
    steps = []
    for t in range(x.shape[0]):
        out = ref_lstm_step(x[t], h, c, w, b, forget_bias, cell_clip)
        c, h = out[0], out[1]
        steps.append(out)
    ct, ht, it, jt, ft, ot, tc = (np.stack([s[k] for s in steps]) for k in range(7))
    return ht, ht, ct, it, jt, ft, ot, tc


def ref_gru(x, wi, wh, bi, bh, h, gate_order="rzh", reset_after=True):
    hid = wh.shape[0]
    bi = np.zeros(3 * hid) if bi is None else bi
    bh = np.zeros(3 * hid) if bh is None else bh
    r_at, z_at = (0, 1) if gate_order == "rzh" else (1, 0)

    def blk(a, k):
        return a[..., k * hid:(k + 1) * hid]

    outs = []
    for t in range(x.shape[0]):
        gi = x[t] @ wi + bi
        r = _sigmoid(blk(gi, r_at) + h @ blk(wh, r_at) + blk(bh, r_at))
        z = _sigmoid(blk(gi, z_at) + h @ blk(wh, z_at) + blk(bh, z_at))
        hn = (h @ blk(wh, 2) + blk(bh, 2)) if reset_after else ((r * h) @ blk(wh, 2) + blk(bh, 2))
        n = np.tanh(blk(gi, 2) + (r * hn if reset_after else hn))
        h = (1 - z) * n + z * h
        outs.append((h, z, r, n, hn))
    hs, zs, rs, ns, hns = (np.stack([s[k] for s in outs]) for k in range(5))
    return hs, hs, zs, rs, ns, hns


B, IN, H = 2, 3, 2


def _lstm_inputs(seed):
    return [rand(B, IN, seed=seed), rand(B, H, seed=seed + 1), rand(B, H, seed=seed + 2),
            rand(IN + H, 4 * H, seed=seed + 3), rand(4 * H, seed=seed + 4) * 0.5]


def _rnn_inputs(steps, seed):
    return [rand(steps, B, IN, seed=seed), rand(IN + H, 4 * H, seed=seed + 1),
            rand(4 * H, seed=seed + 2) * 0.5, rand(1, B, H, seed=seed + 3), rand(1, B, H, seed=seed + 4)]


def _gru_inputs(steps, seed):
    return [rand(steps, B, IN, seed=seed), rand(IN, 3 * H, seed=seed + 1), rand(H, 3 * H, seed=seed + 2),
            rand(3 * H, seed=seed + 3) * 0.5, rand(3 * H, seed=seed + 4) * 0.5, rand(B, H, seed=seed + 5)]


def _gru_row(name, gate_order, reset_after, seed, bias=True, **kw):
    if bias:
        return OpCase(name, lambda x, wi, wh, bi, bh, h: dynamic_gru_v2(x, wi, wh, bi, bh, h, gate_order,
                                                                        reset_after),
                      _gru_inputs(3, seed), lambda *a: ref_gru(*a, gate_order, reset_after), **kw)
    inputs = _gru_inputs(3, seed)
    return OpCase(name,
                  lambda x, wi, wh, h: dynamic_gru_v2(x, wi, wh, None, None, h, gate_order, reset_after),
                  [inputs[0], inputs[1], inputs[2], inputs[5]],
                  lambda x, wi, wh, h: ref_gru(x, wi, wh, None, None, h, gate_order, reset_after), **kw)


CASES = [
    OpCase("basic_lstm_cell", lambda *a: basic_lstm_cell(*a, 1.0), _lstm_inputs(0),
           lambda *a: ref_lstm_step(*a, 1.0), second_order=True),
    OpCase("basic_lstm_cell_forget_bias_0_clip", lambda *a: basic_lstm_cell(*a, 0.0, 0.4), _lstm_inputs(5),
           lambda *a: ref_lstm_step(*a, 0.0, 0.4),
           note="the clip's kinks are away from the drawn values (finite differences stay one-sided)"),
    OpCase("dynamic_rnn", lambda *a: dynamic_rnn(*a), _rnn_inputs(3, 10), lambda *a: ref_dynamic_rnn(*a)),
    OpCase("dynamic_rnn_forget_bias_clip", lambda *a: dynamic_rnn(*a, 1.0, 0.6), _rnn_inputs(4, 20),
           lambda *a: ref_dynamic_rnn(*a, 1.0, 0.6)),
    OpCase("dynamic_rnn_zero_state", lambda x, w, b: dynamic_rnn(x, w, b), _rnn_inputs(2, 30)[:3],
           lambda x, w, b: ref_dynamic_rnn(x, w, b, np.zeros((1, B, H)), np.zeros((1, B, H)))),
    _gru_row("dynamic_gru_v2_rzh", "rzh", True, 40, second_order=True),
    _gru_row("dynamic_gru_v2_zrh", "zrh", True, 50),
    _gru_row("dynamic_gru_v2_reset_before", "rzh", False, 60),
    _gru_row("dynamic_gru_v2_no_bias_zrh_reset_before", "zrh", False, 70, bias=False),
]
