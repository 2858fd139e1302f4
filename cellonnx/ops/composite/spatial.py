"""Rearrangements of spatial blocks, written over pad / slice / reshape / transpose (gradient and lowering
come from them): space_to_batch_nd and batch_to_space_nd (TensorFlow's, spatial axes last), unfold (im2col),
fold and col2im (its adjoint: overlapping blocks are summed) and affine_grid."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.ops.prims.creation import zeros
from cellonnx.ops.prims.index import Pad, Slice, stack, unslice
from cellonnx.ops.prims.linalg import matmul
from cellonnx.ops.prims.math import add
from cellonnx.ops.prims.shape import reshape, transpose
from cellonnx.tensor import Tensor


def _ints(v: Any, n: int, op: str, what: str, low: int) -> tuple[int, ...]:
    """An int or a sequence of n ints (a 1-element sequence is repeated), each >= low."""
    if isinstance(v, Tensor):
        v = [int(a) for a in v._data.reshape(-1)]
    items = [v] * n if isinstance(v, (int, np.integer)) and not isinstance(v, bool) else list(v)
    if len(items) == 1:
        items = items * n
    if len(items) != n or any(isinstance(a, bool) or not isinstance(a, (int, np.integer)) for a in items):
        raise ValueError(f"{op}: {what} must be an int or {n} ints, got {v!r}")
    if any(int(a) < low for a in items):
        raise ValueError(f"{op}: {what} must be at least {low}, got {v!r}")
    return tuple(int(a) for a in items)


def _two(v: Any, op: str, what: str, low: int) -> tuple[int, int]:
    a, b = _ints(v, 2, op, what, low)
    return a, b


def _pairs(v: Any, op: str, what: str) -> list[tuple[int, int]]:
    rows = [tuple(int(a) for a in row) for row in v]
    if any(len(r) != 2 or min(r) < 0 for r in rows):
        raise ValueError(f"{op}: {what} must be pairs of non-negative ints, got {v!r}")
    return rows  # type: ignore[return-value]


# ---------------------------------------------------------------- space <-> batch
def space_to_batch_nd(input_x: Tensor, block_size: Any, paddings: Any) -> Tensor:
    """Pad the last M axes of ``input_x`` with zeros, cut them into blocks of ``block_size`` and move the
    position within the block into the batch axis: (n, c..., w_1..w_M) -> (n * prod(block), c...,
    (w_i + pads_i) / block_i ...).

    Args:
        input_x (Tensor): (n, c_1 ... c_k, w_1 ... w_M).
        block_size (Union[int, tuple[int]]): the block along each of the M spatial axes (an int for all).
        paddings (Union[tuple, list]): M pairs (before, after) of zero padding.

    Examples:
        >>> ops.space_to_batch_nd(ops.ones((1, 1, 2, 2)), 2, [[0, 0], [0, 0]]).shape
        (4, 1, 1, 1)
    """
    x = to_tensor(input_x)
    pads = _pairs(paddings, "space_to_batch_nd", "paddings")
    m = len(pads)
    block = _ints(block_size, m, "space_to_batch_nd", "block_size", 1)
    lead = x.ndim - m
    if lead < 1:
        raise ValueError(f"space_to_batch_nd: input of shape {tuple(x.shape)} has no batch axis before its "
                         f"{m} spatial axes")
    widths = [0] * (2 * x.ndim)
    for i, (b, a) in enumerate(pads):
        widths[lead + i], widths[x.ndim + lead + i] = b, a
    if any(widths):
        x = Pad.apply(x, pads=tuple(widths), mode="constant", value=0)
    shape = tuple(x.shape)  # dims stay graph values where they are dynamic
    for i, b in enumerate(block):
        if int(shape[lead + i]) % b:
            raise ValueError(f"space_to_batch_nd: padded spatial size {shape[lead + i]} of axis {lead + i} "
                             f"is not a multiple of the block {b}")
    split = shape[:lead] + tuple(d for i, b in enumerate(block) for d in (shape[lead + i] // b, b))
    x = reshape(x, split)
    # (n, c..., w1/b1, b1, ..., wM/bM, bM) -> (b1, ..., bM, n, c..., w1/b1, ..., wM/bM)
    perm = [lead + 2 * i + 1 for i in range(m)] + list(range(lead)) + [lead + 2 * i for i in range(m)]
    x = transpose(x, perm)
    return reshape(x, (-1,) + shape[1:lead] + tuple(shape[lead + i] // b for i, b in enumerate(block)))


def batch_to_space_nd(input_x: Tensor, block_shape: Any, crops: Any) -> Tensor:
    """The inverse of :func:`space_to_batch_nd`: move blocks of the batch axis back into the last M axes,
    then cut ``crops`` (M pairs (begin, end)) off them.

    Examples:
        >>> ops.batch_to_space_nd(ops.ones((4, 1, 1, 1)), 2, [[0, 0], [0, 0]]).shape
        (1, 1, 2, 2)
    """
    x = to_tensor(input_x)
    cuts = _pairs(crops, "batch_to_space_nd", "crops")
    m = len(cuts)
    block = _ints(block_shape, m, "batch_to_space_nd", "block_shape", 1)
    lead = x.ndim - m
    if lead < 1:
        raise ValueError(f"batch_to_space_nd: input of shape {tuple(x.shape)} has no batch axis before its "
                         f"{m} spatial axes")
    shape = tuple(x.shape)  # dims stay graph values where they are dynamic
    nb = int(np.prod(block))
    if int(shape[0]) % nb:
        raise ValueError(f"batch_to_space_nd: batch {shape[0]} is not a multiple of the block product {nb}")
    x = reshape(x, block + (shape[0] // nb,) + shape[1:])
    # (b1..bM, n, c..., w1..wM) -> (n, c..., w1, b1, ..., wM, bM)
    perm = list(range(m, m + lead)) + [d for i in range(m) for d in (m + lead + i, i)]
    x = transpose(x, perm)
    full = tuple(shape[lead + i] * b for i, b in enumerate(block))
    x = reshape(x, (shape[0] // nb,) + shape[1:lead] + full)
    axes = [lead + i for i, (b, e) in enumerate(cuts) if b or e]
    if not axes:
        return x
    for i, (b, e) in enumerate(cuts):
        if b + e >= full[i]:
            raise ValueError(f"batch_to_space_nd: crops {b} + {e} must be smaller than the size {full[i]}")
    return Slice.apply(x, axes=tuple(axes), starts=tuple(cuts[a - lead][0] for a in axes),
                       ends=tuple(full[a - lead] - cuts[a - lead][1] for a in axes), steps=(1,) * len(axes))


# ---------------------------------------------------------------- im2col and its adjoint
def _blocks(size: Sequence[int], kernel: Sequence[int], dilation: Sequence[int], padding: Sequence[int],
            stride: Sequence[int], op: str) -> tuple[int, int]:
    out = []
    for n, k, d, p, s in zip(size, kernel, dilation, padding, stride):
        span = d * (k - 1) + 1
        if n + 2 * p < span:
            raise ValueError(f"{op}: the kernel (span {span}) does not fit the padded size {n + 2 * p}")
        out.append((n + 2 * p - span) // s + 1)
    return out[0], out[1]


def _window(kh: int, kw: int, dil: tuple[int, int], stride: tuple[int, int], oh: int, ow: int
            ) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """For each kernel offset (row-major): (starts, ends) of the strided slice of the padded input it sees."""
    out = []
    for i in range(kh):
        for j in range(kw):
            st = (i * dil[0], j * dil[1])
            out.append((st, (st[0] + stride[0] * (oh - 1) + 1, st[1] + stride[1] * (ow - 1) + 1)))
    return out


def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
    """Extract sliding blocks (im2col): (N, C, H, W) -> (N, C * kh * kw, L), L the number of block positions;
    column l holds the block at position l, channel-major then kernel row / column.

    Args:
        input (Tensor): 4-D (N, C, H, W).
        kernel_size (Union[int, tuple[int]]): block size (kh, kw).
        dilation, padding, stride (Union[int, tuple[int]]): of the sliding window; padding adds zeros on both
            sides. Defaults: 1, 0, 1.

    Examples:
        >>> ops.unfold(ops.ones((1, 2, 4, 4)), 2, stride=2).shape
        (1, 8, 4)
    """
    x = to_tensor(input)
    if x.ndim != 4:
        raise ValueError(f"unfold: input must be 4-D (N, C, H, W), got shape {tuple(x.shape)}")
    k = _two(kernel_size, "unfold", "kernel_size", 1)
    d = _two(dilation, "unfold", "dilation", 1)
    p = _two(padding, "unfold", "padding", 0)
    s = _two(stride, "unfold", "stride", 1)
    n, c, h, w = x.shape
    oh, ow = _blocks((h, w), k, d, p, s, "unfold")  # graph values where H or W is dynamic
    if any(p):
        x = Pad.apply(x, pads=(0, 0, p[0], p[1], 0, 0, p[0], p[1]), mode="constant", value=0)
    parts = [Slice.apply(x, axes=(2, 3), starts=st, ends=en, steps=s)
             for st, en in _window(k[0], k[1], d, s, oh, ow)]
    cols = stack(parts, 2)                                   # (N, C, kh * kw, oh, ow)
    return reshape(cols, (n, c * k[0] * k[1], oh * ow))


def _fold(cols: Tensor, output_size: Any, kernel: tuple[int, int], dil: tuple[int, int],
          pad: tuple[int, int], stride: tuple[int, int], op: str) -> Tensor:
    """cols (N, C, kh * kw, L) -> (N, C, H, W), summing what overlapping blocks put at one pixel."""
    size = _two(output_size, op, "output_size", 1)
    oh, ow = _blocks(size, kernel, dil, pad, stride, op)
    n, c = cols.shape[:2]  # graph values where they are dynamic
    kk, nl = (int(v) for v in cols._data.shape[2:])
    if kk != kernel[0] * kernel[1] or nl != oh * ow:
        raise ValueError(f"{op}: expected {kernel[0] * kernel[1]} kernel positions and {oh * ow} blocks for "
                         f"output_size {size}, got input of shape {tuple(cols.shape)}")
    hp, wp = size[0] + 2 * pad[0], size[1] + 2 * pad[1]
    canvas = zeros((n, c, hp, wp), cols._data.dtype)
    placed = []
    for i, (st, en) in enumerate(_window(kernel[0], kernel[1], dil, stride, oh, ow)):
        block = reshape(Slice.apply(cols, axes=(2,), starts=(i,), ends=(i + 1,), steps=(1,)), (n, c, oh, ow))
        placed.append(unslice(block, canvas, (2, 3), st, en, stride))
    out = placed[0]
    for p in placed[1:]:
        out = add(out, p)
    if any(pad):
        out = Slice.apply(out, axes=(2, 3), starts=pad, ends=(pad[0] + size[0], pad[1] + size[1]),
                          steps=(1, 1))
    return out


def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
         stride: Any = 1) -> Tensor:
    """Combine sliding blocks into an image (col2im, the adjoint of :func:`unfold`): (N, C * kh * kw, L) ->
    (N, C, H, W), values that blocks put on one pixel summed.

    Args:
        input (Tensor): 3-D (N, C * kh * kw, L).
        output_size (Union[Tensor, tuple[int]]): (H, W).
        kernel_size, dilation, padding, stride: as in :func:`unfold`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((1, 4, 4)), ms.float32)
        >>> print(ops.fold(x, Tensor(np.array([3, 3]), ms.int32), 2))
        [[[[1. 2. 1.]
           [2. 4. 2.]
           [1. 2. 1.]]]]
    """
    x = to_tensor(input)
    if x.ndim != 3:
        raise ValueError(f"fold: input must be 3-D (N, C * kh * kw, L), got shape {tuple(x.shape)}")
    k = _two(kernel_size, "fold", "kernel_size", 1)
    n, ck, nl = x.shape
    if ck % (k[0] * k[1]):
        raise ValueError(f"fold: input.shape[1] = {ck} is not a multiple of the kernel size {k[0] * k[1]}")
    cols = reshape(x, (n, ck // (k[0] * k[1]), k[0] * k[1], nl))
    return _fold(cols, output_size, k, _two(dilation, "fold", "dilation", 1),
                 _two(padding, "fold", "padding", 0), _two(stride, "fold", "stride", 1), "fold")


def col2im(input_x: Tensor, output_size: Any, kernel_size: Any, dilation: Any, padding_value: Any,
           stride: Any) -> Tensor:
    """:func:`fold` for input laid out (N, C, kh * kw, L) (deprecated in MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((1, 1, 4, 4)), ms.float32)
        >>> y = ops.col2im(x, Tensor(np.array([3, 3]), ms.int32), [2, 2], [1, 1], [0, 0], [1, 1])
        >>> print(y)
        [[[[1. 2. 1.]
           [2. 4. 2.]
           [1. 2. 1.]]]]
    """
    x = to_tensor(input_x)
    if x.ndim != 4:
        raise ValueError(f"col2im: input_x must be 4-D (N, C, kh * kw, L), got shape {tuple(x.shape)}")
    return _fold(x, output_size, _two(kernel_size, "col2im", "kernel_size", 1),
                 _two(dilation, "col2im", "dilation", 1), _two(padding_value, "col2im", "padding_value", 0),
                 _two(stride, "col2im", "stride", 1), "col2im")


# ---------------------------------------------------------------- affine_grid
def _coords(n: int, align_corners: bool) -> np.ndarray:
    if align_corners:
        return np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(1)
    return (2.0 * np.arange(n) + 1.0) / n - 1.0


def affine_grid(theta: Tensor, size: Any, align_corners: bool = False) -> Tensor:
    """Sampling grids for ``grid_sample`` from batches of affine matrices.

    Args:
        theta (Tensor): (N, 2, 3) for 2-D or (N, 3, 4) for 3-D, float.
        size (tuple[int]): the output image size (N, C, H, W) or (N, C, D, H, W).
        align_corners (bool): -1 and 1 are the centres of the corner pixels (else their outer edges).
            Default: False.

    Returns:
        Tensor of shape (N, H, W, 2) or (N, D, H, W, 3): the (x, y[, z]) source coordinate of each pixel.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> theta = Tensor(np.array([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), ms.float32)
        >>> print(ops.affine_grid(theta, (1, 1, 2, 2), align_corners=True))
        [[[[-1. -1.]
           [ 1. -1.]]
        <BLANKLINE>
          [[-1.  1.]
           [ 1.  1.]]]]
    """
    t = to_tensor(theta)
    if not is_float_dtype(t._data.dtype):
        raise TypeError(f"affine_grid: theta must be a float tensor, got {t.dtype}")
    size = tuple(int(v) for v in size)
    spatial = size[2:]
    nd = len(spatial)
    if nd not in (2, 3) or t.ndim != 3 or tuple(t._data.shape[1:]) != (nd, nd + 1) or \
            t._data.shape[0] != size[0]:
        raise ValueError(f"affine_grid: theta {tuple(t.shape)} and size {size} must be (N, 2, 3) with "
                         "(N, C, H, W) or (N, 3, 4) with (N, C, D, H, W)")
    axes = [_coords(n, align_corners) for n in spatial]                 # (D,) H, W
    mesh = np.meshgrid(*axes, indexing="ij")
    base = np.stack([m.reshape(-1) for m in mesh[::-1]] + [np.ones(mesh[0].size)], -1)   # (x, y[, z], 1)
    grid = matmul(Tensor._make(base.astype(t._data.dtype)), transpose(t, (0, 2, 1)))        # (N, P, nd)
    return reshape(grid, (size[0],) + spatial + (nd,))


TENSOR_METHODS = {"unfold": unfold, "fold": fold}

__all__ = ["affine_grid", "batch_to_space_nd", "col2im", "fold", "space_to_batch_nd", "unfold"]
