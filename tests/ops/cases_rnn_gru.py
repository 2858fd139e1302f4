"""Rows for the GRU and RNN primitives (cellonnx/ops/prims/rnn_gru.py) through stacked_rnn, the function
nn.GRU / nn.RNN call: references are plain NumPy loops (GRU gates r, z, n as in MindSpore; per-sample lengths
keep the state and output zeros past a sample's length, the reverse direction starting at its last live step);
gradients against finite differences on tiny sizes; lowering to ONNX GRU / RNN nodes (sequence_lens
included)."""
from __future__ import annotations

import numpy as np

from cellonnx.ops.prims.rnn_gru import stacked_rnn
from cellonnx.tensor import Tensor
from tests.ops.harness import OpCase, rand

T, N, IN, H = 4, 3, 3, 2


def weights(mode, num_layers, bidirectional, input_size, hidden, bias=True, seed=0):
    gates = 3 if mode == "GRU" else 1
    n_dir = 2 if bidirectional else 1
    out = []
    for layer in range(num_layers):
        size = input_size if layer == 0 else n_dir * hidden
        for d in range(n_dir):
            s = seed + 10 * layer + 5 * d
            out += [rand(gates * hidden, size, seed=s + 1), rand(gates * hidden, hidden, seed=s + 2)]
            if bias:
                out += [rand(gates * hidden, seed=s + 3) * 0.5, rand(gates * hidden, seed=s + 4) * 0.5]
    return out


def _cell(mode, x, h, w_ih, w_hh, b_ih, b_hh):
    gi, gh = x @ w_ih.T + b_ih, h @ w_hh.T + b_hh
    if mode == "GRU":
        hs = h.shape[1]
        sig = lambda v: 1 / (1 + np.exp(-v))
        r, z = sig(gi[:, :hs] + gh[:, :hs]), sig(gi[:, hs:2 * hs] + gh[:, hs:2 * hs])
        n = np.tanh(gi[:, 2 * hs:] + r * gh[:, 2 * hs:])
        return (1 - z) * n + z * h
    a = gi + gh
    return np.tanh(a) if mode == "RNN_TANH" else np.maximum(a, 0)


def ref(mode, x, h0, ws, num_layers, bidirectional, batch_first, lengths=None):
    n_dir = 2 if bidirectional else 1
    per = len(ws) // (num_layers * n_dir)
    if batch_first:
        x = x.transpose(1, 0, 2)
    steps, batch = x.shape[:2]
    hidden = ws[1].shape[1]
    lengths = np.full(batch, steps) if lengths is None else lengths
    h_n = []
    for layer in range(num_layers):
        outs = []
        for d in range(n_dir):
            w = ws[(layer * n_dir + d) * per:(layer * n_dir + d + 1) * per]
            b_ih, b_hh = (w[2], w[3]) if per == 4 else (np.zeros(w[0].shape[0]), np.zeros(w[0].shape[0]))
            k = layer * n_dir + d
            seq = np.zeros((steps, batch, hidden))
            last = np.zeros((batch, hidden))
            for b in range(batch):
                h = h0[k, b:b + 1] if h0 is not None else np.zeros((1, hidden))
                order = range(lengths[b] - 1, -1, -1) if d == 1 else range(lengths[b])
                for t in order:
                    h = _cell(mode, x[t, b:b + 1], h, w[0], w[1], b_ih, b_hh)
                    seq[t, b] = h[0]
                last[b] = h[0]
            outs.append(seq)
            h_n.append(last)
        x = np.concatenate(outs, axis=2)
    out = x.transpose(1, 0, 2) if batch_first else x
    return out, np.stack(h_n)


def _row(name, mode, num_layers, bidirectional, batch_first, initial, lengths=None, bias=True, **kw):
    n_dir = 2 if bidirectional else 1
    ws = weights(mode, num_layers, bidirectional, IN, H, bias, seed=len(name))
    x = rand(N, T, IN, seed=701) if batch_first else rand(T, N, IN, seed=701)
    h0 = rand(num_layers * n_dir, N, H, seed=702) * 0.5
    lens = None if lengths is None else np.asarray(lengths, np.int32)

    def fn(x, *rest):
        h = rest[0] if initial else None
        wts = list(rest[1:] if initial else rest)
        return stacked_rnn(mode, x, h, wts, num_layers, bidirectional, batch_first, 0.0, False,
                           None if lens is None else Tensor(lens))

    def reference(x, *rest):
        h = rest[0] if initial else None
        wts = list(rest[1:] if initial else rest)
        return ref(mode, x, h, wts, num_layers, bidirectional, batch_first, lens)

    inputs = [x] + ([h0] if initial else []) + ws
    return OpCase(name, fn, inputs, reference, **kw)


CASES = [
    _row("gru_one_layer", "GRU", 1, False, False, True, second_order=True),
    _row("gru_bi_two_layers_batch_first", "GRU", 2, True, True, False, dynamic=True),
    _row("gru_no_bias_lengths", "GRU", 1, False, False, True, lengths=[4, 1, 3], bias=False),
    _row("gru_bi_lengths", "GRU", 1, True, False, True, lengths=[2, 4, 3]),
    _row("rnn_tanh_bi", "RNN_TANH", 1, True, False, True),
    _row("rnn_relu_two_layers_lengths", "RNN_RELU", 2, False, False, False, lengths=[3, 4, 2]),
    _row("rnn_tanh_bi_two_layers_lengths", "RNN_TANH", 2, True, True, True, lengths=[1, 4, 2], dynamic=False),
]
