"""Rows for 3-D pooling, LP pooling, max unpooling and fractional max pooling (cellonnx/ops/prims/pool3d.py,
3-D adaptive pooling in pool_adaptive.py). References loop over output positions in float64 with the rules
written out (ceil mode: the last window starts inside the input or its begin padding; adaptive windows
floor(i * L / out) .. ceil((i + 1) * L / out); fractional windows floor((i + u) * alpha) - floor(u * alpha)).
"""
from __future__ import annotations

import itertools

import numpy as np

from cellonnx import ops
from cellonnx.tensor import Tensor
from tests.ops.harness import OpCase, rand


def _t(v, nd):
    return (v,) * nd if isinstance(v, int) else tuple(v)


def _out(size, k, s, d, pb, pe, ceil):
    span = d * (k - 1) + 1
    if ceil:
        o = -(-(size + pb + pe - span) // s) + 1
        return o - 1 if (o - 1) * s >= size + pb else o
    return (size + pb + pe - span) // s + 1


def ref_max_pool_nd(x, kernel, stride=None, pads=None, dilation=1, ceil=False):
    """(values, flat plane argmax, first maximum in window order); pads in ONNX order."""
    nd = x.ndim - 2
    k, d = _t(kernel, nd), _t(dilation, nd)
    s = k if stride is None else _t(stride, nd)
    p = pads or (0,) * (2 * nd)
    sp = x.shape[2:]
    outs = [_out(sp[i], k[i], s[i], d[i], p[i], p[i + nd], ceil) for i in range(nd)]
    y, idx = np.zeros(x.shape[:2] + tuple(outs)), np.zeros(x.shape[:2] + tuple(outs), np.int64)
    for o in itertools.product(*[range(v) for v in outs]):
        cand = []
        for kk in itertools.product(*[range(v) for v in k]):
            pos = tuple(o[i] * s[i] - p[i] + kk[i] * d[i] for i in range(nd))
            if all(0 <= pos[i] < sp[i] for i in range(nd)):
                cand.append(pos)
        vals = np.stack([x[(slice(None), slice(None)) + c] for c in cand], -1)
        best = vals.argmax(-1)
        y[(slice(None), slice(None)) + o] = vals.max(-1)
        idx[(slice(None), slice(None)) + o] = np.array([np.ravel_multi_index(c, sp) for c in cand])[best]
    return y, idx


def ref_avg_pool_nd(x, kernel, stride, pads=None, ceil=False, count_include_pad=True, divisor=None):
    nd = x.ndim - 2
    k, s = _t(kernel, nd), _t(stride, nd)
    p = pads or (0,) * (2 * nd)
    sp = x.shape[2:]
    outs = [_out(sp[i], k[i], s[i], 1, p[i], p[i + nd], ceil) for i in range(nd)]
    y = np.zeros(x.shape[:2] + tuple(outs))
    for o in itertools.product(*[range(v) for v in outs]):
        lo = [o[i] * s[i] - p[i] for i in range(nd)]
        hi = [min(lo[i] + k[i], sp[i] + p[i + nd]) for i in range(nd)]
        count = np.prod([hi[i] - lo[i] for i in range(nd)])
        lo, hi = [max(v, 0) for v in lo], [min(hi[i], sp[i]) for i in range(nd)]
        if not count_include_pad:
            count = np.prod([hi[i] - lo[i] for i in range(nd)])
        win = x[(slice(None), slice(None)) + tuple(slice(lo[i], hi[i]) for i in range(nd))]
        y[(slice(None), slice(None)) + o] = win.sum(tuple(range(2, 2 + nd))) / (divisor or count)
    return y


def _bins(size, out):
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


def ref_adaptive_3d(x, out, max_pool):
    sp = x.shape[2:]
    bins = [_bins(sp[i], out[i]) for i in range(3)]
    y = np.zeros(x.shape[:2] + tuple(out))
    idx = np.zeros(x.shape[:2] + tuple(out), np.int64)
    for o in itertools.product(*[range(v) for v in out]):
        sl = tuple(slice(*bins[i][o[i]]) for i in range(3))
        win = x[(slice(None), slice(None)) + sl]
        flat = win.reshape(x.shape[:2] + (-1,))
        if max_pool:
            y[(slice(None), slice(None)) + o] = flat.max(-1)
            local = np.unravel_index(flat.argmax(-1), win.shape[2:])
            idx[(slice(None), slice(None)) + o] = np.ravel_multi_index(
                tuple(local[i] + bins[i][o[i]][0] for i in range(3)), sp)
        else:
            y[(slice(None), slice(None)) + o] = flat.mean(-1)
    return (y, idx.astype(np.int32)) if max_pool else y


def ref_lp(x, p, kernel, stride=None, ceil=False):
    nd = x.ndim - 2
    k = _t(kernel, nd)
    avg = ref_avg_pool_nd(x ** p, k, k if stride is None else stride, None, ceil)
    return (np.maximum(avg, 0) * np.prod(k)) ** (1.0 / p)


def ref_unpool(x, idx, out):
    n, c = x.shape[:2]
    y = np.zeros((n, c, int(np.prod(out))))
    for a in range(n):
        for b in range(c):
            y[a, b, idx[a, b].reshape(-1)] = x[a, b].reshape(-1)
    return y.reshape((n, c) + tuple(out))


def _intervals(u, size, k, out):
    if out == 1:
        return [size - k]
    alpha = np.float32((size - k) / (out - 1))
    seq = [int(np.floor(np.float32((i + u) * alpha))) - int(np.floor(np.float32(u * alpha)))
           for i in range(out - 1)]
    return seq + [size - k]


def ref_fractional(x, kernel, out, samples):
    nd = x.ndim - 2
    k = _t(kernel, nd)
    order = (1, 0) if nd == 2 else tuple(range(nd))
    y = np.zeros(x.shape[:2] + tuple(out))
    idx = np.zeros(x.shape[:2] + tuple(out), np.int64)
    for a in range(x.shape[0]):
        for b in range(x.shape[1]):
            starts = [_intervals(np.float32(samples[a, b, order[i]]), x.shape[2 + i], k[i], out[i])
                      for i in range(nd)]
            for o in itertools.product(*[range(v) for v in out]):
                sl = tuple(slice(starts[i][o[i]], starts[i][o[i]] + k[i]) for i in range(nd))
                win = x[(a, b) + sl]
                local = np.unravel_index(win.argmax(), win.shape)
                y[(a, b) + o] = win.max()
                idx[(a, b) + o] = np.ravel_multi_index(tuple(local[i] + starts[i][o[i]] for i in range(nd)),
                                                       x.shape[2:])
    return y, idx


X3 = rand(2, 2, 5, 6, 7, seed=501)
X1 = rand(2, 3, 11, seed=502)
X2 = rand(2, 3, 7, 9, seed=503)
POS2 = rand(2, 3, 7, 9, seed=504, low=0.1, high=1.5)
S2 = np.array([[[0.3, 0.7], [0.9, 0.1], [0.5, 0.5]], [[0.0, 0.99], [0.25, 0.6], [0.8, 0.45]]])
S3 = np.array([[[0.3, 0.7, 0.2], [0.9, 0.1, 0.6]], [[0.0, 0.99, 0.4], [0.25, 0.6, 0.75]]])


def _pool_and_unpool(nd, pool, unpool):
    def run(x):
        y, i = pool(x)
        return unpool(y, i)
    return run


CASES = [
    OpCase("max_pool3d_indices", lambda x: ops.max_pool3d(x, 3, 2, 1, return_indices=True), [X3],
           lambda x: ref_max_pool_nd(x, 3, 2, (1,) * 6)),
    OpCase("max_pool3d_ceil_dilation", lambda x: ops.max_pool3d(x, (2, 3, 2), (2, 1, 2), (1, 1, 0),
                                                                (1, 1, 2), True),
           [X3], lambda x: ref_max_pool_nd(x, (2, 3, 2), (2, 1, 2), (1, 1, 0, 1, 1, 0), (1, 1, 2), True)[0]),
    OpCase("max_pool3d_same_dynamic", lambda x: ops.max_pool3d(x, 3, 2, pad_mode="same"), [X3],
           lambda x: ref_max_pool_nd(x, 3, 2, (1, 0, 1, 1, 1, 1))[0], dynamic=True),
    OpCase("avg_pool3d_pad_exclude", lambda x: ops.avg_pool3d(x, 3, 2, 1, False, False), [X3],
           lambda x: ref_avg_pool_nd(x, 3, 2, (1,) * 6, count_include_pad=False)),
    OpCase("avg_pool3d_ceil_divisor", lambda x: ops.avg_pool3d(x, (2, 3, 2), 1, (1, 1, 0, 0, 1, 0), True,
                                                               True, 5),
           [X3], lambda x: ref_avg_pool_nd(x, (2, 3, 2), 1, (1, 0, 1, 1, 0, 0), True, divisor=5)),
    OpCase("avg_pool3d_ceil_include_pad", lambda x: ops.avg_pool3d(x, 2, 2, 1, True), [X3],
           lambda x: ref_avg_pool_nd(x, 2, 2, (1,) * 6, True), dynamic=True),
    OpCase("adaptive_avg_pool3d_uneven", lambda x: ops.adaptive_avg_pool3d(x, (2, 4, 3)), [X3],
           lambda x: ref_adaptive_3d(x, (2, 4, 3), False), second_order=True),
    OpCase("adaptive_avg_pool3d_divisible_none", lambda x: ops.adaptive_avg_pool3d(x, (5, None, 1)), [X3],
           lambda x: ref_adaptive_3d(x, (5, 6, 1), False)),
    OpCase("adaptive_avg_pool3d_global_unbatched", lambda x: ops.adaptive_avg_pool3d(x, 1), [X3[0]],
           lambda x: x.mean((1, 2, 3), keepdims=True)),
    OpCase("adaptive_max_pool3d_uneven", lambda x: ops.adaptive_max_pool3d(x, (2, 4, 3), True), [X3],
           lambda x: ref_adaptive_3d(x, (2, 4, 3), True), opsets=(16, 18, 21),
           note="overlapping windows without a fixed geometry: the gradient's scatter-add needs opset 16"),
    OpCase("adaptive_max_pool3d_divisible", lambda x: ops.adaptive_max_pool3d(x, (5, 3, 7)), [X3],
           lambda x: ref_adaptive_3d(x, (5, 3, 7), True)[0]),
    OpCase("adaptive_avg_pool2d_ext", lambda x: ops.adaptive_avg_pool2d_ext(x, (1, 3)), [X2],
           lambda x: np.stack([x[..., a:b].mean((-2, -1)) for a, b in _bins(9, 3)], -1)[..., None, :]),
    OpCase("lp_pool1d_p2", lambda x: ops.lp_pool1d(x, 2, 3, 2), [X1], lambda x: ref_lp(x, 2, 3, 2)),
    OpCase("lp_pool2d_p1_5_ceil", lambda x: ops.lp_pool2d(x, 1.5, (3, 2), (2, 1), True), [POS2],
           lambda x: ref_lp(x, 1.5, (3, 2), (2, 1), True)),
    OpCase("max_unpool1d", _pool_and_unpool(1, lambda x: ops.max_pool1d(x, 2, 2, return_indices=True),
                                            lambda y, i: ops.max_unpool1d(y, i, 2)), [X1[:, :, :10]],
           lambda x: ref_unpool(*ref_max_pool_nd(x, 2, 2), (10,))),
    OpCase("max_unpool2d_output_size",
           _pool_and_unpool(2, lambda x: ops.max_pool2d(x, 2, 2, return_indices=True),
                            lambda y, i: ops.max_unpool2d(y, i, 2, 2, 0, (7, 9))),
           [X2], lambda x: ref_unpool(*ref_max_pool_nd(x, 2, 2), (7, 9)), dynamic=True),
    OpCase("max_unpool3d", _pool_and_unpool(3, lambda x: ops.max_pool3d(x, 2, 2, return_indices=True),
                                            lambda y, i: ops.max_unpool3d(y, i, 2, output_size=(5, 6, 7))),
           [X3], lambda x: ref_unpool(*ref_max_pool_nd(x, 2, 2), (5, 6, 7))),
    OpCase("max_unpool2d_given_indices", lambda y, i: ops.max_unpool2d(y, i, 3, 2, 1),
           [rand(1, 2, 2, 3, seed=505), np.array([[[[0, 7, 4], [10, 13, 14]], [[1, 2, 3], [5, 6, 12]]]])],
           lambda y, i: ref_unpool(y, i, (3, 5))),
    OpCase("fractional_max_pool2d", lambda x, s: ops.fractional_max_pool2d(x, 2, (4, 3), None, True, s),
           [X2[:2], S2], lambda x, s: ref_fractional(x, 2, (4, 3), s), grad=(0,),
           note="the samples place the windows: no gradient in them"),
    OpCase("fractional_max_pool2d_ratio",
           lambda x, s: ops.fractional_max_pool2d(x, (3, 2), None, (0.5, 0.6), False,
                                                                                  s),
           [X2[:2], S2], lambda x, s: ref_fractional(x, (3, 2), (3, 5), s)[0], grad=(0,)),
    OpCase("fractional_max_pool3d",
           lambda x, s: ops.fractional_max_pool3d(x, (2, 3, 2), (3, 3, 4), None, True, s),
           [rand(2, 2, 5, 7, 6, seed=506), S3], lambda x, s: ref_fractional(x, (2, 3, 2), (3, 3, 4), s),
           grad=(0,)),
]


def _random_samples_drawn() -> None:
    """(kept importable for manual checks) fractional pooling without samples draws them."""
    ops.fractional_max_pool2d(Tensor(X2.astype(np.float32)), 2, output_ratio=0.5)
