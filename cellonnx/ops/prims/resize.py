"""Resizing: the Resize primitive (nearest, nearest-exact, linear over 1 to 3 spatial dims, bicubic) with the
functional interpolate / upsample, following MindSpore 2.10's kernels:

- nearest: source index floor(dst * in / out) (floor(dst / scale_factor) when a scale factor is given);
  nearest-exact: floor((dst + 0.5) * in / out);
- linear / bilinear / trilinear: half-pixel centres, source (dst + 0.5) * in / out - 0.5 clamped at 0, or
  align_corners dst * (in - 1) / (out - 1);
- the TensorFlow-style operator classes (ResizeBilinearV2, ResizeBicubic, ResizeNearestNeighbor) also reach
  the asymmetric mapping dst * in / out ('linear-asymmetric', 'cubic-asymmetric': cubic taps clamped with
  a = -0.75, as with align_corners) and nearest with align_corners: round(dst * (in - 1) / (out - 1));
- bicubic (TensorFlow's kernel): half-pixel centres with a = -0.5 and the taps outside the input left out
  (the rest renormalized), or align_corners with a = -0.75 and clamped taps; the tap weights come from a
  1024-entry table, so the fractional offset is rounded to a multiple of 1/1024.

Every mode is separable: NumPy applies one (out, in) weight matrix per spatial axis (an index take for the
nearest modes), the gradient applies the transposed matrices (matmuls with constants). ONNX: one Resize node,
except bicubic, whose quantized weights ONNX's cubic mode does not reproduce: one MatMul per axis with the
same matrices.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.ops.prims.conv import compute_dtype, require_static
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def _source(mode: str, n_in: int, n_out: int, align_corners: bool, scale: float | None) -> np.ndarray:
    """Source coordinate of every output position along one axis (``scale``: in / out, or 1 /
    scale_factor)."""
    dst = np.arange(n_out, dtype=np.float64)
    if mode.endswith("-asymmetric"):
        return dst * (n_in / n_out if scale is None else scale)
    if align_corners:
        return dst * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    s = n_in / n_out if scale is None else scale
    if mode == "nearest":
        return dst * s
    if mode == "nearest-exact":
        return (dst + 0.5) * s
    return (dst + 0.5) * s - 0.5


def nearest_index(mode: str, n_in: int, n_out: int, scale: float | None,
                  align_corners: bool = False) -> np.ndarray:
    if align_corners:  # round half up of dst * (in - 1) / (out - 1)
        return np.minimum(np.floor(_source(mode, n_in, n_out, True, scale) + 0.5), n_in - 1).astype(np.int64)
    return np.minimum(np.floor(_source(mode, n_in, n_out, False, scale)), n_in - 1).astype(np.int64)


def _cubic_weight(t: np.ndarray, a: float) -> np.ndarray:
    t = np.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return np.where(t <= 1, near, np.where(t < 2, far, 0.0))


def axis_matrix(mode: str, n_in: int, n_out: int, align_corners: bool, scale: float | None) -> np.ndarray:
    """(n_out, n_in) float64 interpolation weights of one axis."""
    m = np.zeros((n_out, n_in))
    rows = np.arange(n_out)
    if mode in ("nearest", "nearest-exact"):
        m[rows, nearest_index(mode, n_in, n_out, scale, align_corners)] = 1.0
        return m
    src = _source(mode, n_in, n_out, align_corners, scale)
    if mode in ("linear", "linear-asymmetric"):
        src = np.maximum(src, 0.0)
        i0 = np.minimum(np.floor(src), n_in - 1).astype(np.int64)
        lam = src - i0
        np.add.at(m, (rows, i0), 1.0 - lam)
        np.add.at(m, (rows, np.minimum(i0 + 1, n_in - 1)), lam)
        return m
    base = np.floor(src)
    t = np.round((src - base) * 1024) / 1024  # the kernel's 1024-entry weight table
    taps = base[:, None].astype(np.int64) + np.arange(-1, 3)[None, :]
    clamped = align_corners or mode == "cubic-asymmetric"
    a = -0.75 if clamped else -0.5
    w = _cubic_weight(t[:, None] - np.arange(-1, 3)[None, :], a)
    if clamped:
        np.add.at(m, (np.repeat(rows, 4), np.clip(taps, 0, n_in - 1).reshape(-1)), w.reshape(-1))
    else:
        inside = (taps >= 0) & (taps < n_in)
        w = np.where(inside, w, 0.0)
        w = w / w.sum(1, keepdims=True)
        np.add.at(m, (np.repeat(rows, 4)[inside.reshape(-1)], taps[inside]), w[inside])
    return m


def _matrices(in_sizes: tuple, mode: str, sizes: tuple, align_corners: bool, scales: tuple | None,
              dtype: Any) -> list[np.ndarray]:
    return [axis_matrix(mode, int(in_sizes[i]), sizes[i], align_corners, None if scales is None else
                        1.0 / scales[i]).astype(dtype) for i in range(len(sizes))]


def _along(x: np.ndarray, mats: list[np.ndarray]) -> np.ndarray:
    nd = len(mats)
    for i, m in enumerate(mats):
        ax = x.ndim - nd + i
        x = np.moveaxis(np.matmul(np.moveaxis(x, ax, -1), m.T), -1, ax)
    return np.ascontiguousarray(x)


class Resize(Op):
    """Resize the last len(sizes) dims of an (N, C, ...) input to ``sizes`` (see the module docstring).
    ``scales``: the scale factors a caller gave (they set the coordinate mapping), or None."""

    def forward(self, x, *, mode, sizes, align_corners, scales):
        nd = len(sizes)
        if mode in ("nearest", "nearest-exact"):
            for i in range(nd):
                n_in = x.shape[x.ndim - nd + i]
                idx = nearest_index(mode, n_in, sizes[i], None if scales is None else 1.0 / scales[i],
                                    align_corners)
                x = np.take(x, idx, axis=x.ndim - nd + i)
            return np.ascontiguousarray(x)
        ct = compute_dtype(x.dtype)
        y = _along(x.astype(ct, copy=False), _matrices(x.shape[-nd:], mode, sizes, align_corners, scales, ct))
        return y if ct == x.dtype else y.astype(x.dtype)

    def backward(self, ctx, g, *, mode, sizes, align_corners, scales):
        from cellonnx.ops.prims.linalg import matmul
        from cellonnx.ops.prims.shape import transpose
        nd = len(sizes)
        mats = _matrices(ctx.inputs[0]._data.shape[-nd:], mode, sizes, align_corners, scales, g._data.dtype)
        rank = g.ndim
        for i, m in enumerate(mats):  # y = x @ M^T along each axis, so gx = g @ M
            ax = rank - nd + i
            perm = tuple(a for a in range(rank) if a != ax) + (ax,)
            back = tuple(perm.index(a) for a in range(rank))
            g = transpose(matmul(transpose(g, perm), Tensor._make(np.ascontiguousarray(m))), back)
        return (g,)

    def lower(self, g, x, *, mode, sizes, align_corners, scales):
        xt = g.in_tensors[0]
        nd = len(sizes)
        if mode.startswith("cubic"):
            require_static(xt, "bicubic interpolation")
            dt = xt._data.dtype
            rank = len(xt._data.shape)
            y = x
            for i, m in enumerate(_matrices(xt._data.shape[-nd:], mode, sizes, align_corners, scales, dt)):
                ax = rank - nd + i
                perm = [a for a in range(rank) if a != ax] + [ax]
                back = [perm.index(a) for a in range(rank)]
                y = g.op("Transpose", g.op("MatMul", g.op("Transpose", y, perm=perm),
                                           g.const(np.ascontiguousarray(m.T))), perm=back)
            return y
        attrs: dict[str, Any] = {"mode": "nearest" if mode.startswith("nearest") else "linear"}
        if mode == "nearest" and align_corners:
            attrs.update(coordinate_transformation_mode="align_corners", nearest_mode="round_prefer_ceil")
        elif mode == "nearest":
            attrs.update(coordinate_transformation_mode="asymmetric", nearest_mode="floor")
        elif mode == "linear-asymmetric":
            attrs["coordinate_transformation_mode"] = "asymmetric"
        elif mode == "nearest-exact":  # floor((dst + 0.5) * scale) = round-half-up of the half-pixel source
            attrs.update(coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_ceil")
        else:
            attrs["coordinate_transformation_mode"] = "align_corners" if align_corners else "half_pixel"
        if scales is not None:
            full = np.asarray([1.0, 1.0] + [float(s) for s in scales], np.float32)
            return g.op("Resize", x, "", g.const(full), **attrs)
        lead = g.op("Slice", g.op("Shape", x), g.i64([0]), g.i64([2]), g.i64([0]))
        out = g.op("Concat", lead, g.i64(list(sizes)), axis=0)
        return g.op("Resize", x, "", "", out, **attrs)


_SUPPORTED = {"nearest": {3: (), 4: (), 5: ("scale_factor",)}, "linear": {3: ("align_corners",)},
              "bilinear": {4: ("align_corners",)}, "bicubic": {4: ("align_corners",)},
              "area": {3: ("scale_factor",), 4: ("scale_factor",), 5: ("scale_factor",)},
              "nearest-exact": {3: (), 4: ()}, "trilinear": {5: ("align_corners", "scale_factor")}}


def _positive_ints(v: Any, rank: int) -> tuple[int, ...]:
    vals = tuple(v) if isinstance(v, (tuple, list)) else (v,) * (rank - 2)
    if not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s > 0 for s in vals):
        raise ValueError("For 'interpolate', 'size' must be a positive int or a tuple of positive ints, "
                         f"got {v!r}")
    if len(vals) != rank - 2:
        raise ValueError("For 'interpolate', 'input' and 'size' must have the same spatial dimensions, but "
                         f"got 'input' is {rank - 2}D, 'size' is {len(vals)}D")
    return tuple(int(s) for s in vals)


def _positive_floats(v: Any, rank: int) -> tuple[float, ...]:
    vals = tuple(v) if isinstance(v, (tuple, list)) else (v,) * (rank - 2)
    if not all(isinstance(s, (int, float)) and not isinstance(s, bool) and s > 0 for s in vals):
        raise ValueError("For 'interpolate', 'scale_factor' must be a positive float or a tuple of them, "
                         f"got {v!r}")
    if len(vals) != rank - 2:
        raise ValueError("For 'interpolate', 'input' and 'scale_factor' must have the same spatial "
                         f"dimensions, but got 'input' is {rank - 2}D, 'scale_factor' is {len(vals)}D")
    return tuple(float(s) for s in vals)


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> Tensor:
    """Resize the spatial dims of an (N, C, ...) input, as MindSpore's ``ops.interpolate``.

    Args:
        input (Tensor): (N, C, L), (N, C, H, W) or (N, C, D, H, W).
        size (Union[int, tuple[int]], optional): the output spatial size.
        scale_factor (Union[float, tuple[float]], optional): output = floor(input size * scale_factor); as in
            MindSpore only with 'area', 5-D 'nearest' and 'trilinear', or with recompute_scale_factor.
        mode (str): 'nearest' (3-5D), 'nearest-exact' (3-4D), 'linear' (3D), 'bilinear' (4D), 'bicubic' (4D),
            'trilinear' (5D) or 'area' (adaptive average pooling). Default: 'nearest'.
        align_corners (bool, optional): for the linear and cubic modes, map the corner pixels onto each other
            instead of the half-pixel centres. Default: None (False).
        recompute_scale_factor (bool, optional): turn ``scale_factor`` into a size and map coordinates by
            size. Default: None.

    Returns:
        Tensor of input's dtype with the new spatial size.

    Examples:
        >>> ops.interpolate(ops.ones((1, 1, 2, 3)), size=(4, 6), mode="bilinear").shape
        (1, 1, 4, 6)
    """
    from cellonnx.ops.prims.pool_adaptive import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'interpolate', 'input' must be a tensor, but got {type(input)}")
    rank = input.ndim
    if size is not None and scale_factor is not None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set simultaneously")
    if size is None and scale_factor is None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both empty")
    sizes = _positive_ints(size, rank) if size is not None else None
    factors = _positive_floats(scale_factor, rank) if scale_factor is not None else None
    if isinstance(mode, list) or mode not in _SUPPORTED:
        raise ValueError(f"For 'interpolate', 'mode' must be in '{list(_SUPPORTED)}', but got {mode}")
    if rank not in _SUPPORTED[mode]:
        raise ValueError(f"For 'interpolate', {mode} only support '{list(_SUPPORTED[mode])}'D, but got "
                         f"{rank}D")
    if mode == "area" and sizes is None:
        recompute_scale_factor = True
    if factors is not None:  # the output size floor(in * factor) is a float of each input size
        from cellonnx.graph.trace import require_static
        for d in input.shape[2:]:
            require_static(d, "interpolate with scale_factor computes the output size from a float of the "
                           "input size, which", float_read=True)
    spatial = [int(s) for s in input._data.shape[2:]]
    if recompute_scale_factor:
        if sizes is not None:
            raise ValueError("For 'interpolate', it is incorrect to set 'recompute_scale_factor' to True "
                             "after specifying an explicit 'size'.")
        assert factors is not None
        sizes = tuple(math.floor(spatial[i] * factors[i]) for i in range(rank - 2))
        factors = None
    elif factors is not None and "scale_factor" not in _SUPPORTED[mode][rank]:
        raise ValueError("For 'interpolate', 'scale_factor' option cannot currently be set with the mode = "
                         f"{mode} and dim = {rank}D.")
    if align_corners is not None:
        if not isinstance(align_corners, bool):
            raise TypeError(f"For 'interpolate', 'align_corners' must be a bool, got {align_corners!r}")
        if "align_corners" not in _SUPPORTED[mode][rank]:
            raise ValueError("For 'interpolate', 'align_corners' option cannot currently be set with the "
                             f"mode = {mode}, and dim = {rank}D")
    if factors is not None:  # the size MindSpore computes: floor(in * float32(factor))
        sizes = tuple(int(np.floor(np.float64(spatial[i]) * np.float32(factors[i]))) for i in range(rank - 2))
    assert sizes is not None
    if any(s < 1 for s in sizes):
        raise ValueError(f"For 'interpolate', the output size {sizes} must be positive (input "
                         f"{tuple(input.shape)})")
    if mode == "area":
        pool = (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[rank - 3]
        return pool(input, sizes[0] if rank == 3 else sizes)
    kind = {"bilinear": "linear", "trilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    if kind != "nearest" and not is_float_dtype(input._data.dtype):
        raise TypeError(f"For 'interpolate', mode {mode} needs a float input, got {input.dtype}")
    return Resize.apply(input, mode=kind, sizes=sizes, align_corners=bool(align_corners),
                        scales=factors)


def upsample(input: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
             align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> Tensor:
    """The same as :func:`interpolate` (MindSpore's ``ops.upsample``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[[1.0, 2.0]]]), ms.float32)
        >>> print(ops.upsample(x, size=4, mode='nearest'))
        [[[1. 1. 2. 2.]]]
    """
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


__all__ = ["interpolate", "upsample"]
