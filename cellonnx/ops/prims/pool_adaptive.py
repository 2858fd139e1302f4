"""Adaptive pooling: AdaptiveAvgPool and AdaptiveMaxPool over 1-D, 2-D and 3-D windows
start = floor(i * L / out), end = ceil((i + 1) * L / out), with the functional adaptive_avg_pool1d/2d and
adaptive_max_pool1d/2d.

Averaging is linear and separable: NumPy applies one small pooling matrix per spatial dim (a reshape-mean
when the sizes divide), and the gradient is the transposed matrices (matmuls with constants). ONNX:
GlobalAveragePool for a 1x1 output, AveragePool when the sizes divide, otherwise the two MatMuls.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims.conv import compute_dtype, require_static, to2d
from cellonnx.ops.prims.pool import MaxPoolGrad, max_pool_forward, running_max
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def bins(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    """Window starts and ends of adaptive pooling along one dim."""
    i = np.arange(out)
    return (i * size) // out, -((-(i + 1) * size) // out)


def pool_matrix(size: int, out: int, dtype: Any) -> np.ndarray:
    """(out, size) matrix averaging each window."""
    start, end = bins(size, out)
    cols = np.arange(size)
    inside = (cols[None, :] >= start[:, None]) & (cols[None, :] < end[:, None])
    return (inside / (end - start)[:, None]).astype(dtype)


def _divisible(spatial: tuple, output_size: tuple) -> bool:
    return all(int(s) % o == 0 for s, o in zip(spatial, output_size))


class AdaptiveAvgPool(Op):
    """Adaptive average pooling over the last len(output_size) dims of an (N, C, ...) input."""

    def forward(self, x, *, output_size):
        nd = len(output_size)
        spatial = x.shape[-nd:]
        ct = compute_dtype(x.dtype)
        xc = x.astype(ct, copy=False)
        if all(o == 1 for o in output_size):
            y = xc.mean(axis=tuple(range(x.ndim - nd, x.ndim)), keepdims=True)
        elif _divisible(spatial, output_size):
            shape = list(x.shape[:-nd])
            for s, o in zip(spatial, output_size):
                shape += [o, s // o]
            y = xc.reshape(shape).mean(axis=tuple(range(x.ndim - nd + 1, x.ndim + nd, 2)))
        elif nd == 3:
            y = xc
            for i in range(3):  # one pooling matrix per spatial axis, applied over the last axis
                ax = x.ndim - 3 + i
                m = pool_matrix(spatial[i], output_size[i], ct)
                y = np.moveaxis(np.matmul(np.moveaxis(y, ax, -1), m.T), -1, ax)
            y = np.ascontiguousarray(y)
        else:
            y = xc
            if nd == 2:
                y = np.matmul(pool_matrix(spatial[0], output_size[0], ct), y)
            y = np.matmul(y, pool_matrix(spatial[-1], output_size[-1], ct).T)
        return y if ct == x.dtype else y.astype(x.dtype)

    def backward(self, ctx, g, *, output_size):
        from cellonnx.ops.prims.linalg import matmul
        nd = len(output_size)
        spatial = ctx.inputs[0]._data.shape[-nd:]
        dt = g._data.dtype
        if nd == 3:
            return (_along_axes(g, [pool_matrix(spatial[i], output_size[i], dt) for i in range(3)]),)
        gx = matmul(g, Tensor._make(pool_matrix(spatial[-1], output_size[-1], dt)))
        if nd == 2:
            gx = matmul(Tensor._make(np.ascontiguousarray(pool_matrix(spatial[0], output_size[0], dt).T)), gx)
        return (gx,)

    def lower(self, g, x, *, output_size):
        nd = len(output_size)
        spatial = [int(s) for s in g.in_tensors[0]._data.shape[-nd:]]
        dt = g.in_tensors[0]._data.dtype
        if all(o == 1 for o in output_size):
            return g.op("GlobalAveragePool", x)
        require_static(g.in_tensors[0], "adaptive average pooling")
        if _divisible(spatial, output_size):
            k = [s // o for s, o in zip(spatial, output_size)]
            return g.op("AveragePool", x, kernel_shape=k, strides=k)
        y = x
        if nd == 3:
            rank = len(g.in_tensors[0]._data.shape)
            for i in range(3):  # the axis moved last, pooled by a MatMul, moved back
                ax = rank - 3 + i
                perm = [a for a in range(rank) if a != ax] + [ax]
                back = [perm.index(a) for a in range(rank)]
                m = np.ascontiguousarray(pool_matrix(spatial[i], output_size[i], dt).T)
                y = g.op("Transpose", g.op("MatMul", g.op("Transpose", y, perm=perm), g.const(m)), perm=back)
            return y
        if nd == 2:
            y = g.op("MatMul", g.const(pool_matrix(spatial[0], output_size[0], dt)), y)
        return g.op("MatMul", y, g.const(np.ascontiguousarray(pool_matrix(spatial[-1], output_size[-1], dt).T)))


class AdaptiveMaxPool(Op):
    """Adaptive max pooling with the argmax (int64 flat index into each input plane, as in MindSpore).
    ONNX: MaxPool when the sizes divide; otherwise the windows gathered with Gather (clamped to repeat the
    window's last row / column, which changes neither the max nor the first argmax), ReduceMax and ArgMax."""

    n_outputs = 2
    save_output = True

    def forward(self, x, *, output_size):
        nd = len(output_size)
        spatial = x.shape[2:]
        if _divisible(spatial, output_size):
            k = tuple(int(s) // o for s, o in zip(spatial, output_size))
            return max_pool_forward(x, k, k, (0,) * (2 * nd), (1,) * nd, False, True)
        if nd == 3:
            return _adaptive_max_3d(x, output_size)
        rows, cols = _window_index(spatial, output_size)
        x2 = to2d(x)
        win = x2[:, :, rows[:, :, None, None], cols[None, None, :, :]]  # (N, C, oH, kH, oW, kW)
        kh, kw = rows.shape[1], cols.shape[1]
        y, k = running_max([(i * kw + j, win[:, :, :, i, :, j]) for i in range(kh) for j in range(kw)], True)
        assert k is not None
        oh, ow = np.arange(rows.shape[0])[:, None], np.arange(cols.shape[0])[None, :]
        plane = rows[oh, k // kw] * x2.shape[3] + cols[ow, k % kw]
        out = x.shape[:2] + tuple(output_size)
        return y.reshape(out), plane.astype(np.int64).reshape(out)

    def backward(self, ctx, gy, gidx, *, output_size):
        x = ctx.inputs[0]
        nd = len(output_size)
        spatial = tuple(int(s) for s in x._data.shape[2:])
        geo: dict[str, Any] = {}
        if _divisible(spatial, output_size):
            k = tuple(s // o for s, o in zip(spatial, output_size))
            geo = {"kernel": k, "stride": k, "pads": (0,) * (2 * nd), "dilation": (1,) * nd}
        return (MaxPoolGrad.apply(gy, ctx.output(1), in_shape=spatial, **geo),)

    def lower(self, g, x, *, output_size):
        require_static(g.in_tensors[0], "adaptive max pooling")
        nd = len(output_size)
        spatial = [int(s) for s in g.in_tensors[0]._data.shape[2:]]
        plane = int(np.prod(spatial))
        if _divisible(spatial, output_size):
            k = [s // o for s, o in zip(spatial, output_size)]
            y, ind = g.op("MaxPool", x, outputs=2, kernel_shape=k, strides=k)
            return y, g.op("Mod", ind, g.i64(plane))
        if nd == 3:
            return _lower_adaptive_max_3d(g, x, spatial, output_size)
        rows, cols = _window_index(spatial, output_size)
        kh, kw = rows.shape[1], cols.shape[1]
        win = g.op("Gather", x, g.const(cols), axis=nd + 1)  # (N, C, [H,] oW, kW)
        if nd == 2:
            win = g.op("Gather", win, g.const(rows), axis=2)  # (N, C, oH, kH, oW, kW)
            win = g.op("Transpose", win, perm=[0, 1, 2, 4, 3, 5])
        win = g.op("Reshape", win, g.i64([0, 0] + list(output_size) + [kh * kw]))
        y = g.axes([nd + 2], "ReduceMax", win, keepdims=0)
        k = g.op("ArgMax", win, axis=nd + 2, keepdims=0, select_last_index=0)
        table = (rows[:, None, :, None] * spatial[-1] + cols[None, :, None, :]).reshape(-1)  # (oH, oW, kH, kW)
        base = (np.arange(int(np.prod(output_size))) * kh * kw).reshape(output_size).astype(np.int64)
        return y, g.op("Gather", g.const(table.astype(np.int64)), g.op("Add", k, g.const(base)), axis=0)


def _along_axes(t: Tensor, matrices: list[np.ndarray]) -> Tensor:
    """``t`` multiplied along each of its last len(matrices) axes by the (out, in) matrix given for it (the
    transposed pooling): the gradient of 3-D adaptive average pooling, written with ops."""
    from cellonnx.ops.prims.linalg import matmul
    from cellonnx.ops.prims.shape import transpose
    rank = t.ndim
    for i, m in enumerate(matrices):
        ax = rank - len(matrices) + i
        perm = tuple(a for a in range(rank) if a != ax) + (ax,)
        back = tuple(perm.index(a) for a in range(rank))
        t = transpose(matmul(transpose(t, perm), Tensor._make(np.ascontiguousarray(m))), back)
    return t


def _axis_windows(size: int, out: int) -> np.ndarray:
    """(out, k_max) indices of each adaptive window along one axis, clamped to the window's last index (a
    repeated element changes neither the max nor the first argmax)."""
    start, end = bins(size, out)
    k = int((end - start).max())
    return np.minimum(start[:, None] + np.arange(k)[None, :], (end - 1)[:, None]).astype(np.int64)


def _table_3d(spatial: tuple, output_size: tuple) -> tuple[np.ndarray, tuple[int, ...]]:
    """Flat plane position of every (oD, oH, oW, kD, kH, kW) window element, and the window sizes."""
    d, h, w = (_axis_windows(int(s), o) for s, o in zip(spatial, output_size))
    hw, ww = int(spatial[1]) * int(spatial[2]), int(spatial[2])
    table = (d[:, None, None, :, None, None] * hw + h[None, :, None, None, :, None] * ww +
             w[None, None, :, None, None, :])
    return table.reshape(tuple(output_size) + (-1,)), (d.shape[1], h.shape[1], w.shape[1])


def _adaptive_max_3d(x: np.ndarray, output_size: tuple) -> tuple[np.ndarray, np.ndarray]:
    table, _ = _table_3d(x.shape[2:], output_size)
    win = x.reshape(x.shape[:2] + (-1,))[:, :, table]  # (N, C, oD, oH, oW, K)
    k = win.argmax(-1)
    y = np.take_along_axis(win, k[..., None], -1)[..., 0]
    return y, np.take_along_axis(np.broadcast_to(table, win.shape), k[..., None], -1)[..., 0]


def _lower_adaptive_max_3d(g: Any, x: str, spatial: list, output_size: tuple) -> tuple[str, str]:
    table, _ = _table_3d(tuple(spatial), output_size)
    flat = g.op("Reshape", x, g.i64([0, 0, -1]))
    win = g.op("Gather", flat, g.const(table), axis=2)  # (N, C, oD, oH, oW, K)
    y = g.axes([5], "ReduceMax", win, keepdims=0)
    k = g.op("ArgMax", win, axis=5, keepdims=0, select_last_index=0)
    base = (np.arange(int(np.prod(output_size))) * table.shape[-1]).reshape(output_size).astype(np.int64)
    return y, g.op("Gather", g.const(table.reshape(-1)), g.op("Add", k, g.const(base)), axis=0)


def _window_index(spatial: tuple, output_size: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of each window, (out, k_max), clamped to the window's last index; a 1-D pool
    has the single row 0."""
    def one(size: int, out: int) -> np.ndarray:
        start, end = bins(size, out)
        k = int((end - start).max())
        return np.minimum(start[:, None] + np.arange(k)[None, :], (end - 1)[:, None]).astype(np.int64)
    cols = one(int(spatial[-1]), output_size[-1])
    rows = one(int(spatial[0]), output_size[0]) if len(output_size) == 2 else np.zeros((1, 1), np.int64)
    return rows, cols


# ---------------------------------------------------------------- functional API (MindSpore names)
def _output_size(op: str, nd: int, x: Tensor, output_size: Any) -> tuple[int, ...]:
    spatial = x._data.shape[-nd:]
    if isinstance(output_size, (int, np.integer)) and not isinstance(output_size, bool):
        sizes: list[Any] = [int(output_size)] * nd
    elif isinstance(output_size, (tuple, list)) and len(output_size) == nd:
        sizes = list(output_size)
    else:
        raise ValueError(f"{op}: output_size must be an int or a tuple of {nd} (int or None), got {output_size!r}")
    out = tuple(int(spatial[i]) if s is None else int(s) for i, s in enumerate(sizes))
    if any(o < 1 for o in out):
        raise ValueError(f"{op}: output_size must be positive, got {output_size!r}")
    return out


def _adaptive(op: str, nd: int, input: Any, output_size: Any, max_pool: bool, return_indices: bool = False) -> Any:
    from cellonnx.ops.prims.shape import expand_dims, squeeze
    if not isinstance(input, Tensor):
        raise TypeError(f"{op}: expected a Tensor, got {type(input).__name__}")
    if input._data.dtype.kind != "f" and input._data.dtype.name != "bfloat16":
        raise TypeError(f"{op}: expected a float tensor, got {input.dtype}")
    ranks = (nd + 1, nd + 2) if nd >= 2 else (nd + 2,)
    if input.ndim not in ranks:
        raise ValueError(f"{op}: expected a {' or '.join(f'{r}-D' for r in ranks)} input, got shape "
                         f"{tuple(input.shape)}")
    out = _output_size(op, nd, input, output_size)
    x = expand_dims(input, 0) if input.ndim == nd + 1 else input
    if not max_pool:
        y = AdaptiveAvgPool.apply(x, output_size=out)
        return squeeze(y, 0) if x is not input else y
    y, idx = AdaptiveMaxPool.apply(x, output_size=out)
    if x is not input:
        y, idx = squeeze(y, 0), squeeze(idx, 0)
    return (y, idx) if return_indices else y


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """2D adaptive average pooling, as MindSpore's ``ops.adaptive_avg_pool2d``.

    Args:
        input: (N, C, H, W) or (C, H, W), float.
        output_size: int (H_out = W_out) or (H_out, W_out); None in the tuple keeps that input size.

    Returns:
        (..., H_out, W_out): window i covers rows floor(i * H / H_out) to ceil((i + 1) * H / H_out).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(ops.adaptive_avg_pool2d(x, (1, 2)))
        [[[[6.5 8.5]]]]
    """
    return _adaptive("adaptive_avg_pool2d", 2, input, output_size, False)


def adaptive_avg_pool1d(input: Tensor, output_size: int) -> Tensor:
    """1D adaptive average pooling over an (N, C, L) input, as MindSpore's ``ops.adaptive_avg_pool1d``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]]), ms.float32)
        >>> print(ops.adaptive_avg_pool1d(x, 3))
        [[[1.5 3.5 5.5]]]
    """
    return _adaptive("adaptive_avg_pool1d", 1, input, output_size, False)


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """2D adaptive max pooling, as MindSpore's ``ops.adaptive_max_pool2d``.

    Args:
        input: (N, C, H, W) or (C, H, W), float.
        output_size: int or (H_out, W_out) (None keeps that input size).
        return_indices: also return the argmax (int64 flat indices into each input plane).

    Returns:
        The pooled tensor, or (pooled, argmax).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(ops.adaptive_max_pool2d(x, (2, 2)))
        [[[[ 5.  7.]
           [13. 15.]]]]
    """
    return _adaptive("adaptive_max_pool2d", 2, input, output_size, True, return_indices)


def adaptive_max_pool1d(input: Tensor, output_size: int) -> Tensor:
    """1D adaptive max pooling over an (N, C, L) input, as MindSpore's ``ops.adaptive_max_pool1d`` (which
    requires L divisible by output_size; any size works here).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[1.0, 5.0, 3.0, 4.0, 2.0, 6.0]]]), ms.float32)
        >>> print(ops.adaptive_max_pool1d(x, 2))
        [[[5. 6.]]]
    """
    return _adaptive("adaptive_max_pool1d", 1, input, output_size, True)


def adaptive_avg_pool2d_ext(input: Tensor, output_size: Any) -> Tensor:
    """2D adaptive average pooling, as MindSpore's ``ops.adaptive_avg_pool2d_ext`` (same results as
    :func:`adaptive_avg_pool2d`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.arange(16).reshape(1, 4, 4), ms.float32)
        >>> print(ops.adaptive_avg_pool2d_ext(x, (2, 2)))
        [[[ 2.5  4.5]
          [10.5 12.5]]]
    """
    return _adaptive("adaptive_avg_pool2d_ext", 2, input, output_size, False)


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """3D adaptive average pooling, as MindSpore's ``ops.adaptive_avg_pool3d``.

    Args:
        input (Tensor): (N, C, D, H, W) or (C, D, H, W), float.
        output_size (Union[int, tuple]): int (all three sizes) or (D_out, H_out, W_out); None in the tuple
            keeps that input size.

    Returns:
        (..., D_out, H_out, W_out): window i covers floor(i * L / out) to ceil((i + 1) * L / out) on each
        axis.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.arange(16).reshape(1, 1, 2, 2, 4), ms.float32)
        >>> print(ops.adaptive_avg_pool3d(x, (1, 1, 2)))
        [[[[[6.5 8.5]]]]]
    """
    return _adaptive("adaptive_avg_pool3d", 3, input, output_size, False)


def adaptive_max_pool3d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """3D adaptive max pooling, as MindSpore's ``ops.adaptive_max_pool3d``.

    Args:
        input (Tensor): (N, C, D, H, W) or (C, D, H, W), float.
        output_size (Union[int, tuple]): int or (D_out, H_out, W_out).
        return_indices (bool): also return the argmax, int32 flat indices into each input (D, H, W) volume
            (MindSpore's AdaptiveMaxPool3D gives int32). Default: False.

    Returns:
        The pooled tensor, or (pooled, argmax).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.arange(16).reshape(1, 1, 2, 2, 4), ms.float32)
        >>> print(ops.adaptive_max_pool3d(x, (1, 1, 2)))
        [[[[[13. 15.]]]]]
    """
    from cellonnx.ops.prims.math import cast
    out = _adaptive("adaptive_max_pool3d", 3, input, output_size, True, True)
    return (out[0], cast(out[1], np.int32)) if return_indices else out[0]


__all__ = ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool2d_ext", "adaptive_avg_pool3d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d"]
