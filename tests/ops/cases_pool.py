"""Rows for the pooling family (cellonnx/ops/prims/pool.py, pool_adaptive.py).

References loop over output positions in float64 with PyTorch's / MindSpore's rules written out (ceil mode:
the last window starts inside the input or its begin padding; average divisor per count_include_pad /
divisor_override; adaptive windows floor(i * L / out) .. ceil((i + 1) * L / out)).
"""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand, seed_like, seed_of


def _out(size, k, s, d, pb, pe, ceil):
    span = d * (k - 1) + 1
    if ceil:
        o = -(-(size + pb + pe - span) // s) + 1
        if (o - 1) * s >= size + pb:
            o -= 1
        return o
    return (size + pb + pe - span) // s + 1


def _geo(x, kernel, stride, pads, dilation):
    nd = x.ndim - 2
    k = (kernel,) * nd if isinstance(kernel, int) else tuple(kernel)
    s = k if stride is None else ((stride,) * nd if isinstance(stride, int) else tuple(stride))
    d = (dilation,) * nd if isinstance(dilation, int) else tuple(dilation)
    p = tuple(pads) if pads is not None else (0,) * (2 * nd)
    if nd == 1:
        return x[:, :, None], (1,) + k, (1,) + s, (0, 0) + p, (1,) + d
    return x, k, s, p, d


def ref_max_pool(x, kernel, stride=None, pads=None, dilation=1, ceil=False):
    """(values, plane argmax); pads (top, bottom, left, right) or (left, right)."""
    nd = x.ndim - 2
    x4, (kh, kw), (sh, sw), (pt, pb, pl, pr), (dh, dw) = _geo(x, kernel, stride, pads, dilation)
    n, c, h, w = x4.shape
    ho, wo = _out(h, kh, sh, dh, pt, pb, ceil), _out(w, kw, sw, dw, pl, pr, ceil)
    y, idx = np.zeros((n, c, ho, wo)), np.zeros((n, c, ho, wo), np.int64)
    for i in range(ho):
        for j in range(wo):
            rows = [i * sh - pt + a * dh for a in range(kh)]
            cols = [j * sw - pl + b * dw for b in range(kw)]
            cand = [(r, q) for r in rows for q in cols if 0 <= r < h and 0 <= q < w]
            vals = np.stack([x4[:, :, r, q] for r, q in cand], -1)
            best = vals.argmax(-1)
            y[:, :, i, j] = vals.max(-1)
            idx[:, :, i, j] = np.array([r * w + q for r, q in cand])[best]
    return (y, idx) if nd == 2 else (y[:, :, 0], idx[:, :, 0])


def ref_max_pool_grad(x, gy, **kw):
    _, idx = ref_max_pool(x, **kw)
    n, c = x.shape[:2]
    gx = np.zeros((n, c, int(np.prod(x.shape[2:]))))
    for a in range(n):
        for b in range(c):
            np.add.at(gx[a, b], idx[a, b].reshape(-1), gy[a, b].reshape(-1))
    return gx.reshape(x.shape)


def ref_avg_pool(x, kernel, stride=None, pads=None, ceil=False, count_include_pad=True, divisor=None):
    nd = x.ndim - 2
    x4, (kh, kw), (sh, sw), (pt, pb, pl, pr), _ = _geo(x, kernel, stride, pads, 1)
    n, c, h, w = x4.shape
    ho, wo = _out(h, kh, sh, 1, pt, pb, ceil), _out(w, kw, sw, 1, pl, pr, ceil)
    y = np.zeros((n, c, ho, wo))
    for i in range(ho):
        for j in range(wo):
            hs, ws = i * sh - pt, j * sw - pl
            he, we = min(hs + kh, h + pb), min(ws + kw, w + pr)
            count = (he - hs) * (we - ws)
            hs, ws, he, we = max(hs, 0), max(ws, 0), min(he, h), min(we, w)
            if not count_include_pad:
                count = (he - hs) * (we - ws)
            y[:, :, i, j] = x4[:, :, hs:he, ws:we].sum((2, 3)) / (divisor or count)
    return y if nd == 2 else y[:, :, 0]


def _bins(size, out):
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


def ref_adaptive(x, out, reduce):
    """Adaptive pooling over the last len(out) dims; ``reduce`` maps a window (..., rows, cols) to a value."""
    x4 = x if len(out) == 2 else x[..., None, :]
    out2 = tuple(out) if len(out) == 2 else (1,) + tuple(out)
    rows, cols = _bins(x4.shape[-2], out2[0]), _bins(x4.shape[-1], out2[1])
    y = np.stack([np.stack([reduce(x4[..., r0:r1, c0:c1]) for c0, c1 in cols], -1) for r0, r1 in rows], -2)
    return y if len(out) == 2 else y[..., 0, :]


def ref_adaptive_max(x, out):
    """Values and plane argmax (first maximum in row-major window order)."""
    w = x.shape[-1]
    x4 = x if len(out) == 2 else x[..., None, :]
    out2 = tuple(out) if len(out) == 2 else (1,) + tuple(out)
    rows, cols = _bins(x4.shape[-2], out2[0]), _bins(x4.shape[-1], out2[1])
    y = np.zeros(x4.shape[:-2] + out2)
    idx = np.zeros(x4.shape[:-2] + out2, np.int64)
    for i, (r0, r1) in enumerate(rows):
        for j, (c0, c1) in enumerate(cols):
            win = x4[..., r0:r1, c0:c1].reshape(x4.shape[:-2] + (-1,))
            k = win.argmax(-1)
            y[..., i, j] = win.max(-1)
            idx[..., i, j] = (r0 + k // (c1 - c0)) * w + c0 + k % (c1 - c0)
    return (y, idx) if len(out) == 2 else (y[..., 0, :], idx[..., 0, :])


def _grad_row(pool):
    """ops.grad of sum(pool(x) * seed), the seed made from the output's shape (so the row holds at other
    sizes of a dynamic axis); the input is marked so a trace keeps it as a graph input."""
    def run(x):
        def loss(t):
            y = pool(t)
            return ops.sum(y * seed_like(y))
        return ops.grad(loss)(x.requires_grad_())
    return run


def _gy(y):
    return seed_of(y.shape)


X = rand(2, 3, 7, 6, seed=1)
TIES = np.where(rand(2, 3, 8, 8, seed=2) > 0, rand(2, 3, 8, 8, seed=3), 0.0)  # many tied zeros (post-ReLU)
X1 = rand(2, 3, 11, seed=4)
STEPS = np.round(rand(2, 3, 9, 9, seed=6) * 1.5)  # a few distinct values: ties across rows and columns
WIDE_WINDOW = rand(1, 2, 18, 17, seed=7)  # a 17x16 window: 272 kernel positions (past uint8 indices)
ADAPT = rand(2, 3, 9, 7, seed=5)

MP3 = {"kernel": 3, "stride": 2, "pads": (1, 1, 1, 1), "ceil": True}
AV3 = {"kernel": 3, "stride": 2, "pads": (1, 1, 1, 1), "ceil": True}

CASES = [
    # max pooling
    OpCase("max_pool2d_2x2", lambda x: ops.max_pool2d(x, 2), [X], lambda x: ref_max_pool(x, 2)[0]),
    OpCase("max_pool2d_ties_first_index", lambda x: ops.max_pool2d(x, 2, return_indices=True), [TIES],
           lambda x: ref_max_pool(x, 2), grad=(), note="tied maxima: the gradient is not differentiable there"),
    OpCase("max_pool2d_ties_overlapping_windows", lambda x: ops.max_pool2d(x, 3, 2, 1, return_indices=True),
           [STEPS], lambda x: ref_max_pool(x, 3, 2, (1, 1, 1, 1)), grad=(),
           note="tied maxima: the gradient is not differentiable there"),
    OpCase("max_pool2d_stride1_one_plane", lambda x: ops.max_pool2d(x, 2, 1, return_indices=True),
           [rand(1, 1, 5, 6, seed=8)], lambda x: ref_max_pool(x, 2, 1),
           note="one plane: its first output rows are a contiguous block of the input, not a copy"),
    OpCase("max_pool2d_272_position_window", lambda x: ops.max_pool2d(x, (17, 16), 1, return_indices=True),
           [WIDE_WINDOW], lambda x: ref_max_pool(x, (17, 16), 1)),
    OpCase("max_pool2d_ceil_indices", lambda x: ops.max_pool2d(x, 3, 2, 1, return_indices=True, ceil_mode=True),
           [X], lambda x: ref_max_pool(x, **MP3)),
    OpCase("max_pool2d_ceil_rule", lambda x: ops.max_pool2d(x, 2, 2, 1, ceil_mode=True), [rand(1, 2, 5, 5)],
           lambda x: ref_max_pool(x, 2, 2, (1, 1, 1, 1), ceil=True)[0],
           note="ceil would give 4; the last window would start in the end padding, so 3"),
    OpCase("max_pool2d_dilation_stride", lambda x: ops.max_pool2d(x, (3, 2), (2, 1), (1, 1), (2, 1)), [X],
           lambda x: ref_max_pool(x, (3, 2), (2, 1), (1, 1, 1, 1), (2, 1))[0]),
    OpCase("max_pool2d_pad_mode_same", lambda x: ops.max_pool2d(x, 3, 2, pad_mode="same"), [X],
           lambda x: ref_max_pool(x, 3, 2, (1, 1, 0, 1))[0]),
    OpCase("max_pool2d_pad_mode_valid", lambda x: ops.max_pool2d(x, 3, 2, pad_mode="valid"), [X],
           lambda x: ref_max_pool(x, 3, 2)[0]),
    OpCase("max_pool2d_int", lambda x: ops.max_pool2d(x, 2), [(rand(1, 2, 4, 4) * 50).astype(np.int64)],
           lambda x: ref_max_pool(x, 2)[0].astype(np.int64)),
    OpCase("max_pool2d_dynamic_batch", lambda x: ops.max_pool2d(x, 3, 2, 1), [X],
           lambda x: ref_max_pool(x, 3, 2, (1, 1, 1, 1))[0], dynamic=True, grad=()),
    OpCase("max_pool1d", lambda x: ops.max_pool1d(x, 3, 2, 1, ceil_mode=True), [X1],
           lambda x: ref_max_pool(x, 3, 2, (1, 1), ceil=True)[0]),
    OpCase("max_pool2d_grad_overlapping", _grad_row(lambda x: ops.max_pool2d(x, 3, 2, 1, ceil_mode=True)), [X],
           lambda x: ref_max_pool_grad(x, _gy(ref_max_pool(x, **MP3)[0]), **MP3),
           note="opset 13 lowers the scatter-add as a one-hot ConvTranspose; 18+ as ScatterElements(add)"),
    OpCase("max_pool2d_grad_2x2", _grad_row(lambda x: ops.max_pool2d(x, 2)), [X],
           lambda x: ref_max_pool_grad(x, _gy(ref_max_pool(x, 2)[0]), kernel=2)),
    OpCase("max_pool2d_tiling_windows_grad", _grad_row(lambda x: ops.max_pool2d(x, 2)), [TIES],
           lambda x: ref_max_pool_grad(x, _gy(ref_max_pool(x, 2)[0]), kernel=2), grad=(),
           note="windows that tile the plane: Transpose + ArgMax; tied zeros take the first index"),
    OpCase("max_pool2d_tiling_windows_grad_fd", _grad_row(lambda x: ops.max_pool2d(x, 2)), [rand(2, 3, 8, 6)],
           lambda x: ref_max_pool_grad(x, _gy(ref_max_pool(x, 2)[0]), kernel=2)),
    OpCase("max_pool2d_tiling_3x3_grad_ties", _grad_row(lambda x: ops.max_pool2d(x, 3)), [STEPS],
           lambda x: ref_max_pool_grad(x, _gy(ref_max_pool(x, 3)[0]), kernel=3), grad=(),
           note="3 x 3 windows tiling the plane, ties across rows and columns: Transpose + ArgMax forward, "
                "MaxUnpool gradient"),
    OpCase("max_pool2d_disjoint_windows_grad", _grad_row(lambda x: ops.max_pool2d(x, 2, 3)), [STEPS],
           lambda x: ref_max_pool_grad(x, _gy(ref_max_pool(x, 2, 3)[0]), kernel=2, stride=3), grad=(),
           note="windows with gaps between them (not tiling): MaxPool with Indices, gradient by MaxUnpool"),
    OpCase("max_pool1d_disjoint_windows_grad", _grad_row(lambda x: ops.max_pool1d(x, 2)), [X1],
           lambda x: ref_max_pool_grad(x, _gy(ref_max_pool(x, 2)[0]), kernel=2),
           note="1-D windows: the gradient one MaxUnpool over (N, C, L)"),
    OpCase("max_pool2d_tiling_3x3_indices", lambda x: ops.max_pool2d(x, 3, return_indices=True), [STEPS],
           lambda x: ref_max_pool(x, 3), grad=(), note="tied maxima: not differentiable there"),
    OpCase("max_pool2d_tiling_dynamic_batch", lambda x: ops.max_pool2d(x, 3, return_indices=True),
           [rand(2, 3, 9, 6, seed=10)], lambda x: ref_max_pool(x, 3), dynamic=True, grad=()),
    OpCase("max_pool1d_grad_dilation", _grad_row(lambda x: ops.max_pool1d(x, 2, 1, 1, 2)), [X1],
           lambda x: ref_max_pool_grad(x, _gy(ref_max_pool(x, 2, 1, (1, 1), 2)[0]), kernel=2, stride=1,
                                       pads=(1, 1), dilation=2)),
    # average pooling
    OpCase("avg_pool2d_defaults", lambda x: ops.avg_pool2d(x), [X], lambda x: x,
           note="MindSpore 2.x defaults: kernel_size=1, stride=1"),
    OpCase("avg_pool2d_2x2", lambda x: ops.avg_pool2d(x, 2, 2), [X], lambda x: ref_avg_pool(x, 2, 2)),
    OpCase("avg_pool2d_ceil_include_pad", lambda x: ops.avg_pool2d(x, 3, 2, 1, True, True), [X],
           lambda x: ref_avg_pool(x, **AV3, count_include_pad=True)),
    OpCase("avg_pool2d_ceil_exclude_pad", lambda x: ops.avg_pool2d(x, 3, 2, 1, True, False), [X],
           lambda x: ref_avg_pool(x, **AV3, count_include_pad=False)),
    OpCase("avg_pool2d_exclude_pad", lambda x: ops.avg_pool2d(x, 3, 1, 1, count_include_pad=False), [X],
           lambda x: ref_avg_pool(x, 3, 1, (1, 1, 1, 1), count_include_pad=False)),
    OpCase("avg_pool2d_divisor_override", lambda x: ops.avg_pool2d(x, (3, 2), (2, 3), 1, divisor_override=5),
           [X], lambda x: ref_avg_pool(x, (3, 2), (2, 3), (1, 1, 1, 1), divisor=5)),
    OpCase("avg_pool2d_padding_4tuple", lambda x: ops.avg_pool2d(x, 3, 2, (1, 0, 1, 0), ceil_mode=True), [X],
           lambda x: ref_avg_pool(x, 3, 2, (1, 0, 1, 0), ceil=True)),
    OpCase("avg_pool2d_pad_mode_same", lambda x: ops.avg_pool2d(x, 3, 2, pad_mode="same"), [X],
           lambda x: ref_avg_pool(x, 3, 2, (1, 1, 0, 1), count_include_pad=False),
           note="MindSpore's 'same' averages over the real pixels of each window"),
    OpCase("avg_pool1d", lambda x: ops.avg_pool1d(x, 3, 2, 1, True, False), [X1],
           lambda x: ref_avg_pool(x, 3, 2, (1, 1), True, False)),
    OpCase("avg_pool2d_grad", _grad_row(lambda x: ops.avg_pool2d(x, 3, 2, 1, True, False)), [X],
           lambda x: _avg_grad_ref(x, dict(**AV3, count_include_pad=False))),
    OpCase("avg_pool2d_grad_plain", _grad_row(lambda x: ops.avg_pool2d(x, 2, 1)), [X],
           lambda x: _avg_grad_ref(x, {"kernel": 2, "stride": 1})),
    # adaptive pooling
    OpCase("adaptive_avg_pool2d_global", lambda x: ops.adaptive_avg_pool2d(x, 1), [ADAPT],
           lambda x: x.mean((2, 3), keepdims=True)),
    OpCase("adaptive_avg_pool2d_divisible", lambda x: ops.adaptive_avg_pool2d(x, (3, 7)), [ADAPT],
           lambda x: ref_adaptive(x, (3, 7), lambda w: w.mean((-2, -1)))),
    OpCase("adaptive_avg_pool2d_uneven", lambda x: ops.adaptive_avg_pool2d(x, (4, 3)), [ADAPT],
           lambda x: ref_adaptive(x, (4, 3), lambda w: w.mean((-2, -1)))),
    OpCase("adaptive_avg_pool2d_3d_none", lambda x: ops.adaptive_avg_pool2d(x, (None, 2)), [ADAPT[0]],
           lambda x: ref_adaptive(x, (9, 2), lambda w: w.mean((-2, -1)))),
    OpCase("adaptive_avg_pool1d", lambda x: ops.adaptive_avg_pool1d(x, 4), [X1],
           lambda x: ref_adaptive(x, (4,), lambda w: w.mean((-2, -1)))),
    OpCase("adaptive_max_pool2d_divisible", lambda x: ops.adaptive_max_pool2d(x, (3, 7), True), [ADAPT],
           lambda x: ref_adaptive_max(x, (3, 7))),
    OpCase("adaptive_max_pool2d_uneven", lambda x: ops.adaptive_max_pool2d(x, (4, 3), True), [ADAPT],
           lambda x: ref_adaptive_max(x, (4, 3))),
    OpCase("adaptive_max_pool1d", lambda x: ops.adaptive_max_pool1d(x, 4), [X1],
           lambda x: ref_adaptive_max(x, (4,))[0]),
    OpCase("adaptive_avg_pool2d_grad", _grad_row(lambda x: ops.adaptive_avg_pool2d(x, (4, 3))), [ADAPT],
           lambda x: _adaptive_grad_ref(x, (4, 3), False)),
    OpCase("adaptive_max_pool2d_grad_divisible", _grad_row(lambda x: ops.adaptive_max_pool2d(x, (3, 7))),
           [ADAPT], lambda x: _adaptive_grad_ref(x, (3, 7), True)),
    OpCase("adaptive_max_pool2d_grad_uneven", _grad_row(lambda x: ops.adaptive_max_pool2d(x, (4, 3))), [ADAPT],
           lambda x: _adaptive_grad_ref(x, (4, 3), True), opsets=(16, 18, 21),
           note="overlapping windows without a fixed geometry: the scatter-add needs opset 16"),
]


def _avg_grad_ref(x, kw):
    """The adjoint of ref_avg_pool, column by column: gx[j] = <gy, avg_pool(e_j)>."""
    gy = _gy(ref_avg_pool(x, **kw))
    flat = np.zeros(x.size)
    for j in range(x.size):
        e = np.zeros(x.size)
        e[j] = 1.0
        flat[j] = (ref_avg_pool(e.reshape(x.shape), **kw) * gy).sum()
    return flat.reshape(x.shape)


def _adaptive_grad_ref(x, out, max_pool):
    if max_pool:
        y, idx = ref_adaptive_max(x, out)
        gy = _gy(y)
        gx = np.zeros(x.shape[:2] + (x.shape[2] * x.shape[3],))
        for a in range(x.shape[0]):
            for b in range(x.shape[1]):
                np.add.at(gx[a, b], idx[a, b].reshape(-1), gy[a, b].reshape(-1))
        return gx.reshape(x.shape)
    gy = _gy(ref_adaptive(x, out, lambda w: w.mean((-2, -1))))
    gx = np.zeros(x.shape)
    rows, cols = _bins(x.shape[2], out[0]), _bins(x.shape[3], out[1])
    for i, (r0, r1) in enumerate(rows):
        for j, (c0, c1) in enumerate(cols):
            gx[:, :, r0:r1, c0:c1] += gy[:, :, i:i + 1, j:j + 1] / ((r1 - r0) * (c1 - c0))
    return gx
