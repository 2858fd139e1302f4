"""NumPy kernels of the convolution primitives for three spatial dims (Conv, ConvTranspose and
ConvGradWeight in conv.py / conv_grad.py send 5-D inputs here): im2col over a strided window view and one
matmul per batch chunk; the transposed convolution is ``W^T @ input`` followed by one strided add per kernel
position (col2im). 1-D and 2-D convolutions keep their tuned kernels in conv.py / conv_grad.py."""
from __future__ import annotations

import itertools

import numpy as np
from numpy.lib.stride_tricks import as_strided

from cellonnx.ops.prims.conv import chunk_rows, compute_dtype, out_size


def _pad(x: np.ndarray, pads: tuple) -> np.ndarray:
    nd = x.ndim - 2
    if not any(pads):
        return x
    return np.pad(x, [(0, 0), (0, 0)] + [(pads[i], pads[i + nd]) for i in range(nd)])


def _windows(xp: np.ndarray, kernel: tuple, out: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """Read-only view (N, C, *kernel, *out) of the sliding windows of a padded (N, C, *spatial) array."""
    nd = len(kernel)
    sp = xp.strides[2:]
    return as_strided(xp, xp.shape[:2] + tuple(kernel) + tuple(out),
                      xp.strides[:2] + tuple(sp[i] * dilation[i] for i in range(nd)) +
                      tuple(sp[i] * stride[i] for i in range(nd)), writeable=False)


def _out(spatial: tuple, kernel: tuple, stride: tuple, pads: tuple, dilation: tuple) -> tuple[int, ...]:
    nd = len(kernel)
    return tuple(out_size(int(spatial[i]), kernel[i], stride[i], dilation[i], pads[i] + pads[i + nd])
                 for i in range(nd))


def conv_forward_nd(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, stride: tuple, pads: tuple,
                    dilation: tuple, groups: int) -> np.ndarray:
    dtype = x.dtype
    ct = compute_dtype(dtype)
    x, w = x.astype(ct, copy=False), w.astype(ct, copy=False)
    kernel = tuple(w.shape[2:])
    out = _out(x.shape[2:], kernel, stride, pads, dilation)
    n, c = x.shape[:2]
    co, g = w.shape[0], groups
    kg, L = c // g * int(np.prod(kernel)), int(np.prod(out))
    win = _windows(_pad(x, pads), kernel, out, stride, dilation)
    wm = w.reshape(g, co // g, kg)
    y = np.empty((n, g, co // g, L), ct)
    step = chunk_rows(n, kg * g * L * ct.itemsize)
    for i in range(0, n, step):
        j = min(n, i + step)
        cols = np.ascontiguousarray(win[i:j]).reshape(j - i, g, kg, L)
        np.matmul(wm, cols, out=y[i:j])
    if b is not None:
        y += b.astype(ct, copy=False).reshape(1, g, co // g, 1)
    y = y.reshape((n, co) + out)
    return y if ct == dtype else y.astype(dtype)


def conv_transpose_forward_nd(u: np.ndarray, w: np.ndarray, b: np.ndarray | None, stride: tuple, pads: tuple,
                              dilation: tuple, groups: int, output_padding: tuple) -> np.ndarray:
    dtype = u.dtype
    ct = compute_dtype(dtype)
    u, w = u.astype(ct, copy=False), w.astype(ct, copy=False)
    nd = u.ndim - 2
    n, ci = u.shape[:2]
    spatial = u.shape[2:]
    kernel = tuple(w.shape[2:])
    cog, g = w.shape[1], groups
    co = cog * g
    full = tuple((spatial[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 + output_padding[i]
                 for i in range(nd))
    L = int(np.prod(spatial))
    wt = np.ascontiguousarray(w.reshape(g, ci // g, cog * int(np.prod(kernel))).transpose(0, 2, 1))
    cols = np.matmul(wt, np.ascontiguousarray(u).reshape(n, g, ci // g, L))  # (N, g, cog * k, L)
    parts = cols.reshape((n, co) + kernel + tuple(spatial))
    res = np.zeros((n, co) + full, ct)
    for pos in itertools.product(*[range(k) for k in kernel]):
        index = tuple(slice(pos[i] * dilation[i], pos[i] * dilation[i] + (spatial[i] - 1) * stride[i] + 1,
                            stride[i]) for i in range(nd))
        res[(slice(None), slice(None)) + index] += parts[(slice(None), slice(None)) + pos]
    crop = tuple(slice(pads[i], full[i] - pads[i + nd]) for i in range(nd))
    res = np.ascontiguousarray(res[(slice(None), slice(None)) + crop])
    if b is not None:
        res += b.astype(ct, copy=False).reshape((1, co) + (1,) * nd)
    return res if ct == dtype else res.astype(dtype)


def conv_grad_weight_nd(x: np.ndarray, gy: np.ndarray, kernel: tuple, stride: tuple, pads: tuple,
                        dilation: tuple, groups: int) -> np.ndarray:
    dtype = x.dtype
    ct = compute_dtype(dtype)
    x, gy = x.astype(ct, copy=False), gy.astype(ct, copy=False)
    n, c = x.shape[:2]
    co, g = gy.shape[1], groups
    out = tuple(gy.shape[2:])
    kg, L = c // g * int(np.prod(kernel)), int(np.prod(out))
    xp = _pad(x, pads)
    reach = tuple((out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 for i in range(len(kernel)))
    if any(r > s for r, s in zip(reach, xp.shape[2:])):
        raise ValueError(f"gradient {gy.shape} does not fit input {x.shape} with kernel {tuple(kernel)}")
    win = _windows(xp, tuple(kernel), out, stride, dilation)
    gym = np.ascontiguousarray(gy).reshape(n, g, co // g, L)
    dw = np.zeros((g, co // g, kg), ct)
    step = chunk_rows(n, kg * g * L * ct.itemsize)
    for i in range(0, n, step):
        j = min(n, i + step)
        cols = np.ascontiguousarray(win[i:j]).reshape(j - i, g, kg, L)
        dw += np.matmul(gym[i:j], cols.transpose(0, 1, 3, 2)).sum(axis=0)
    dw = dw.reshape((co, c // g) + tuple(kernel))
    return dw if ct == dtype else dw.astype(dtype)
