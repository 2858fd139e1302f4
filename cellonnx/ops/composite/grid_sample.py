"""grid_sample and deformable_conv2d written over ops (gradients in the input and the grid come from them, and
the graph is Gathers
and arithmetic at every opset): the grid's normalized coordinates are mapped onto the input, adjusted for the
padding mode, and the input is read at the corners around each point (bilinear / trilinear) or at the nearest
one (ties to even), one flat Gather over the whole input per corner."""
from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.tensor import Tensor

F: Any = _ops


def _static_sizes(dims: Any, op: str) -> list[int]:
    """Spatial sizes as ints: the sampling maps coordinates with floats of them, so a dynamic one is refused
    (StaticDimRequired) rather than held at the example's size."""
    from cellonnx.graph.trace import require_static

    for d in dims:
        require_static(d, f"{op} maps coordinates with a float of the input's spatial size, which",
                       float_read=True)
    return [int(d) for d in dims]


def _plane_offsets(lead: tuple, plane: int) -> Tensor:
    """The plane origins into the flattened input, shaped lead + (1,): a graph value where a leading dim (the
    batch) is dynamic."""
    count = math.prod(lead)
    return F.reshape(F.mul(F.arange(count), plane), (*lead, 1))


def _unnormalize(g: Tensor, size: int, align_corners: bool) -> Tensor:
    if align_corners:
        return F.mul(F.add(g, 1.0), (size - 1) / 2.0)
    return F.div(F.sub(F.mul(F.add(g, 1.0), float(size)), 1.0), 2.0)


def _reflect(c: Tensor, twice_low: int, twice_high: int) -> Tensor:
    if twice_low == twice_high:
        return F.zeros_like(c)
    low = twice_low / 2.0
    span = (twice_high - twice_low) / 2.0
    c = F.abs(F.sub(c, low))
    flips = F.floor(F.div(c, span))
    extra = F.sub(c, F.mul(flips, span))
    even = F.equal(F.sub(flips, F.mul(F.floor(F.div(flips, 2.0)), 2.0)), 0.0)
    return F.where(even, F.add(extra, low), F.add(F.sub(span, extra), low))


def _source(g: Tensor, size: int, padding_mode: str, align_corners: bool) -> Tensor:
    c = _unnormalize(g, size, align_corners)
    if padding_mode == "border":
        return F.clamp(c, 0.0, float(size - 1))
    if padding_mode == "reflection":
        c = _reflect(c, 0, 2 * (size - 1)) if align_corners else _reflect(c, -1, 2 * size - 1)
        return F.clamp(c, 0.0, float(size - 1))
    return c


def _round_half_even(c: Tensor) -> Tensor:
    f = F.floor(c)
    d = F.sub(c, f)
    odd = F.not_equal(F.sub(f, F.mul(F.floor(F.div(f, 2.0)), 2.0)), 0.0)
    up = F.logical_or(F.greater(d, 0.5), F.logical_and(F.equal(d, 0.5), odd))
    return F.where(up, F.add(f, 1.0), f)


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> Tensor:
    """Sample ``input`` at the normalized locations of ``grid``, as MindSpore's ``ops.grid_sample``.

    Args:
        input (Tensor): (N, C, H, W) or (N, C, D, H, W), float.
        grid (Tensor): (N, H_out, W_out, 2) or (N, D_out, H_out, W_out, 3): (x, y[, z]) in [-1, 1], x indexing
            the width.
        mode (str): 'bilinear' (trilinear for 5-D inputs) or 'nearest' (ties to even). Default: 'bilinear'.
        padding_mode (str): 'zeros' (0 outside the input), 'border' (the edge value) or 'reflection' (mirrored
            at the edges). Default: 'zeros'.
        align_corners (bool, optional): -1 and 1 are the centres of the corner pixels (True) or their outer
            edges (False). Default: None (False).

    Returns:
        (N, C, H_out, W_out) or (N, C, D_out, H_out, W_out).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.arange(4).reshape(1, 1, 2, 2), ms.float32)
        >>> grid = Tensor(np.array([[[[0.0, 0.0]]]]), ms.float32)
        >>> print(ops.grid_sample(x, grid, align_corners=True))
        [[[[1.5]]]]
    """
    if not isinstance(input, Tensor) or not isinstance(grid, Tensor):
        raise TypeError("For 'grid_sample', 'input' and 'grid' must be Tensors.")
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"For 'grid_sample', 'mode' must be 'bilinear' or 'nearest', but got {mode!r}.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("For 'grid_sample', 'padding_mode' must be 'zeros', 'border' or 'reflection', but "
                         f"got {padding_mode!r}.")
    align = bool(align_corners)
    nd = input.ndim - 2
    if nd not in (2, 3) or grid.ndim != input.ndim or int(grid.shape[-1]) != nd or \
            int(grid.shape[0]) != int(input.shape[0]):
        raise ValueError(f"For 'grid_sample', 'input' must be 4-D or 5-D and 'grid' (N, ..., {nd}) with the "
                         f"same N, but got {tuple(input.shape)} and {tuple(grid.shape)}.")
    if not is_float_dtype(input._data.dtype) or grid.dtype != input.dtype:
        raise TypeError("For 'grid_sample', 'input' and 'grid' must share one float dtype, got "
                        f"{input.dtype} and {grid.dtype}.")
    n, c = input.shape[0], input.shape[1]
    sizes = _static_sizes(input.shape[2:], "grid_sample")  # (D,) H, W
    out_spatial = tuple(grid.shape[1:-1])
    m = math.prod(out_spatial)
    # grid coordinates come last-dim first: x (width), y (height)[, z (depth)]
    coords = [_source(F.reshape(grid[..., nd - 1 - i], (n, m)), sizes[i], padding_mode,
                      align) for i in range(nd)]
    flat_x = F.reshape(input, (-1,))
    plane = int(np.prod(sizes))
    base = _plane_offsets((n, c), plane)
    strides = [int(np.prod(sizes[i + 1:])) for i in range(nd)]

    def read(idx: list[Tensor]) -> Tensor:
        """input at integer coordinates idx (each (N, M) float), 0 outside it: (N, C, M)."""
        inside = None
        flat = None
        for i, v in enumerate(idx):
            ok = F.logical_and(F.greater_equal(v, 0.0), F.less_equal(v, float(sizes[i] - 1)))
            inside = ok if inside is None else F.logical_and(inside, ok)
            term = F.mul(F.cast(F.clamp(v, 0.0, float(sizes[i] - 1)), np.int64), strides[i])
            flat = term if flat is None else F.add(flat, term)
        vals = F.reshape(F.gather(flat_x, F.reshape(F.add(base, F.expand_dims(flat, 1)), (-1,)), 0),
                         (n, c, m))
        return F.mul(vals, F.expand_dims(F.cast(inside, input.dtype), 1))

    if mode == "nearest":
        out = read([_round_half_even(v) for v in coords])
    else:
        lows = [F.floor(v) for v in coords]
        fracs = [F.sub(v, lo) for v, lo in zip(coords, lows)]
        out = None
        for corner in itertools.product((0, 1), repeat=nd):
            w = None
            idx = []
            for i, bit in enumerate(corner):
                idx.append(F.add(lows[i], float(bit)))
                wi = fracs[i] if bit else F.sub(1.0, fracs[i])
                w = wi if w is None else F.mul(w, wi)
            term = F.mul(read(idx), F.expand_dims(w, 1))
            out = term if out is None else F.add(out, term)
    return F.reshape(out, (n, c) + out_spatial)


def _bilinear_planes(x: Tensor, py: Tensor, px: Tensor) -> Tensor:
    """x (N, G, Cg, H, W) read at pixel coordinates py, px (N, G, P), bilinearly, corners outside the input
    reading 0 (the deformable convolution's sampling): (N, G, Cg, P)."""
    n, groups, cg = x.shape[:3]
    h, w = _static_sizes(x.shape[3:], "deformable_conv2d")
    p = py.shape[-1]
    flat_x = F.reshape(x, (-1,))
    base = _plane_offsets((n, groups, cg), h * w)
    y0, x0 = F.floor(py), F.floor(px)
    out = None
    for dy, dx in itertools.product((0, 1), repeat=2):
        yy, xx = F.add(y0, float(dy)), F.add(x0, float(dx))
        wy = F.sub(py, y0) if dy else F.sub(1.0, F.sub(py, y0))
        wx = F.sub(px, x0) if dx else F.sub(1.0, F.sub(px, x0))
        inside = F.logical_and(F.logical_and(F.greater_equal(yy, 0.0), F.less_equal(yy, float(h - 1))),
                               F.logical_and(F.greater_equal(xx, 0.0), F.less_equal(xx, float(w - 1))))
        idx = F.add(F.mul(F.cast(F.clamp(yy, 0.0, float(h - 1)), np.int64), w),
                    F.cast(F.clamp(xx, 0.0, float(w - 1)), np.int64))
        vals = F.reshape(F.gather(flat_x, F.reshape(F.add(base, F.expand_dims(idx, 2)), (-1,)), 0),
                         (n, groups, cg, p))
        weight = F.expand_dims(F.mul(F.mul(wy, wx), F.cast(inside, x.dtype)), 2)
        term = F.mul(vals, weight)
        out = term if out is None else F.add(out, term)
    return out


def deformable_conv2d(x: Tensor, weight: Tensor, offsets: Tensor, kernel_size: Any, strides: Any,
                      padding: Any,
                      bias: Tensor | None = None, dilations: Any = (1, 1, 1, 1), groups: int = 1,
                      deformable_groups: int = 1, modulated: bool = True) -> Tensor:
    """Deformable convolution (v2), as MindSpore's ``ops.deformable_conv2d``: every kernel tap reads the input
    at its regular position shifted by a learned offset (bilinearly, 0 outside the input), scaled by a
    learned mask, then the taps are convolved with ``weight``.

    Args:
        x (Tensor): (N, C_in, H, W).
        weight (Tensor): (C_out, C_in / groups, kH, kW).
        offsets (Tensor): (N, 3 * deformable_groups * kH * kW, H_out, W_out): the x offsets, the y offsets,
        then
            the masks, each deformable_groups * kH * kW channels (group-major, kernel taps row by row).
        kernel_size (tuple[int]): (kH, kW).
        strides (tuple[int]): (1, 1, sH, sW).
        padding (tuple[int]): (top, bottom, left, right).
        bias (Tensor, optional): (C_out,). dilations (tuple[int]): (1, 1, dH, dW). Default: (1, 1, 1, 1).
        groups (int): convolution groups. deformable_groups (int): offset groups (dividing C_in). Default: 1,
        1.
        modulated (bool): must be True (v2, with masks).

    Returns:
        (N, C_out, H_out, W_out), H_out = (H + top + bottom - dH * (kH - 1) - 1) // sH + 1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((1, 1, 2, 2)), ms.float32)
        >>> weight = Tensor(np.ones((1, 1, 1, 1)), ms.float32)
        >>> offsets = Tensor(np.zeros((1, 3, 2, 2)), ms.float32)
        >>> print(ops.deformable_conv2d(x, weight, offsets, (1, 1), (1, 1, 1, 1), (0, 0, 0, 0)))
        [[[[0. 0.]
           [0. 0.]]]]
    """
    if not isinstance(weight, Tensor):
        raise TypeError(f"For 'deformable_conv2d', 'weight' must be a Tensor, got {type(weight).__name__}.")
    fm = deformable_offsets(x, offsets, kernel_size, strides, padding, dilations, deformable_groups,
                            modulated, "deformable_conv2d")
    kh, kw = (int(v) for v in kernel_size)
    return F.conv2d(fm, weight, bias, (kh, kw), "valid", 0, 1, groups)


def deformable_offsets(x: Tensor, offsets: Tensor, kernel_size: Any, strides: Any, padding: Any,
                       dilations: Any = (1, 1, 1, 1), deformable_groups: int = 1, modulated: bool = True,
                       op: str = "DeformableOffsets") -> Tensor:
    """The deformed taps of a deformable convolution, as MindSpore's ``ops.DeformableOffsets``: each kernel
    tap of each output position read bilinearly at its shifted position (0 outside) and scaled by its mask,
    laid out as an (N, C, H_out * kH, W_out * kW) map (a convolution with stride = kernel over it is the
    deformable convolution). Arguments as ``deformable_conv2d``'s."""
    for name, t in (("x", x), ("offsets", offsets)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{op}', '{name}' must be a Tensor, got {type(t).__name__}.")
    if not modulated:
        raise ValueError(f"For '{op}', only the modulated version (modulated=True) is supported.")
    kh, kw = (int(v) for v in kernel_size)
    sh, sw = (int(v) for v in tuple(strides)[-2:])
    dh, dw = (int(v) for v in tuple(dilations)[-2:])
    top, bottom, left, right = (int(v) for v in padding)
    n, c = x.shape[:2]
    h, w = _static_sizes(x.shape[2:], op)
    dg = int(deformable_groups)
    if c % dg:
        raise ValueError(f"For '{op}', 'deformable_groups' {dg} must divide the channels {c}.")
    ho = (h + top + bottom - dh * (kh - 1) - 1) // sh + 1
    wo = (w + left + right - dw * (kw - 1) - 1) // sw + 1
    k = kh * kw
    if tuple(int(v) for v in offsets.shape) != (int(n), 3 * dg * k, ho, wo):
        raise ValueError(f"For '{op}', 'offsets' must have shape {(n, 3 * dg * k, ho, wo)}, "
                         f"got {tuple(offsets.shape)}.")
    p = k * ho * wo
    off = F.reshape(offsets, (n, 3, dg, k, ho, wo))
    ky = np.repeat(np.arange(kh) * dh, kw).reshape(k, 1, 1)
    kx = np.tile(np.arange(kw) * dw, kh).reshape(k, 1, 1)
    base_y = Tensor((ky + (np.arange(ho) * sh - top).reshape(1, ho, 1)).astype(np.float64), x.dtype)
    base_x = Tensor((kx + (np.arange(wo) * sw - left).reshape(1, 1, wo)).astype(np.float64), x.dtype)
    py = F.reshape(F.add(off[:, 1], base_y), (n, dg, p))
    px = F.reshape(F.add(off[:, 0], base_x), (n, dg, p))
    cols = _bilinear_planes(F.reshape(x, (n, dg, c // dg, h, w)), py, px)  # (N, dg, C/dg, K * Ho * Wo)
    cols = F.mul(cols, F.expand_dims(F.reshape(off[:, 2], (n, dg, p)), 2))
    # (N, C, kH, kW, Ho, Wo) -> the (N, C, Ho * kH, Wo * kW) map MindSpore convolves with stride = kernel
    cols = F.reshape(cols, (n, c, kh, kw, ho, wo))
    return F.reshape(F.transpose(cols, (0, 1, 4, 2, 5, 3)), (n, c, ho * kh, wo * kw))


__all__ = ["deformable_conv2d", "grid_sample"]
