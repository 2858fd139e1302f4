"""NumPy kernels of the pooling primitives for three spatial dims (MaxPool / MaxPoolWithArgmax in pool.py and
AvgPool / AvgPoolGrad in pool_avg.py send 5-D inputs here): one strided view of the padded input per kernel
position, reduced in place. 1-D and 2-D pooling keep their kernels in pool.py / pool_avg.py."""
from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np

from cellonnx.ops.prims.conv import compute_dtype


def _pad(x: np.ndarray, pads: tuple, extra: tuple, value: Any) -> np.ndarray:
    nd = x.ndim - 2
    widths = [(0, 0), (0, 0)] + [(pads[i], pads[i + nd] + extra[i]) for i in range(nd)]
    if not any(b or e for b, e in widths):
        return x
    return np.pad(x, widths, constant_values=value)


def _views(xp: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
           outs: tuple) -> Iterator[tuple[tuple[int, ...], np.ndarray]]:
    """(kernel position, strided (N, C, *outs) view of the padded input) per kernel position."""
    nd = len(kernel)
    for pos in itertools.product(*[range(k) for k in kernel]):
        index = tuple(slice(pos[i] * dilation[i], pos[i] * dilation[i] + stride[i] * (outs[i] - 1) + 1,
                            stride[i])
                      for i in range(nd))
        yield pos, xp[(slice(None), slice(None)) + index]


def max_pool_forward_nd(x: np.ndarray, kernel: tuple, stride: tuple, pads: tuple, dilation: tuple,
                        outs: tuple, extra: tuple, with_index: bool) -> Any:
    """Window max and (with_index) the flat position of each window's first maximum in its input plane."""
    nd = len(kernel)
    lowest = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    xp = _pad(x, pads, extra, lowest)
    views = _views(xp, kernel, stride, dilation, outs)
    _, first = next(views)
    y = first.copy()
    best = np.zeros(y.shape, np.int64) if with_index else None
    for k, (_, v) in enumerate(views, start=1):
        if best is not None:
            np.copyto(best, k, where=np.greater(v, y))  # strict: a tie keeps the earlier position
        np.maximum(y, v, out=y)
    if best is None:
        return y
    plane = np.zeros(y.shape, np.int64)
    rest = best
    for i in range(nd - 1, -1, -1):  # kernel coordinates, last spatial dim first
        k_i = rest % kernel[i]
        rest = rest // kernel[i]
        shape = [1] * nd
        shape[i] = outs[i]
        origin = (np.arange(outs[i]) * stride[i] - pads[i]).reshape(shape)
        coord = origin + k_i * dilation[i]
        plane += coord * int(np.prod([int(s) for s in x.shape[3 + i:]]))
    return y, plane


def avg_pool_sum_nd(x: np.ndarray, kernel: tuple, stride: tuple, pads: tuple, outs: tuple,
                    extra: tuple) -> np.ndarray:
    """Window sums (in the compute dtype) over the zero-padded input."""
    ct = compute_dtype(x.dtype)
    xp = _pad(x.astype(ct, copy=False), pads, extra, 0)
    views = _views(xp, kernel, stride, (1,) * len(kernel), outs)
    _, first = next(views)
    acc = first.copy()
    for _, v in views:
        acc += v
    return acc


def avg_pool_spread_nd(gd: np.ndarray, in_shape: tuple, kernel: tuple, stride: tuple, pads: tuple,
                       outs: tuple,
                       extra: tuple) -> np.ndarray:
    """The adjoint of the window sum: each (already divided) value added over its window (col2im)."""
    nd = len(kernel)
    full = np.zeros(gd.shape[:2] + tuple(int(in_shape[i]) + pads[i] + pads[i + nd] + extra[i]
                                         for i in range(nd)), gd.dtype)
    for _, v in _views(full, kernel, stride, (1,) * nd, outs):
        v += gd  # writable slices of ``full``
    crop = tuple(slice(pads[i], pads[i] + int(in_shape[i])) for i in range(nd))
    return np.ascontiguousarray(full[(slice(None), slice(None)) + crop])
