"""Mirror padding (MindSpore's MirrorPad): 'REFLECT' is one ONNX Pad(mode='reflect'); 'SYMMETRIC' (the edge
value repeated) has no ONNX mode and is the input with reversed slices of itself concatenated on each side."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims._util import to_tensor
from cellonnx.ops.prims.index import Pad, Slice, concat, flip_axis
from cellonnx.tensor import Tensor


def _pairs(paddings: Any, ndim: int, op: str) -> list[tuple[int, int]]:
    """``paddings`` as one (before, after) pair of non-negative ints per axis of the input."""
    if isinstance(paddings, Tensor):
        paddings = paddings._data.tolist()
    rows = np.asarray(paddings, dtype=object)
    if rows.ndim != 2 or rows.shape[1] != 2:
        raise ValueError(f"For '{op}', 'paddings' must have shape (rank, 2), got {np.shape(paddings)}")
    if rows.shape[0] != ndim:
        raise ValueError(f"For '{op}', paddings.shape[0] must equal the input's rank {ndim}, but got "
                         f"{rows.shape[0]}")
    out = [(int(b), int(e)) for b, e in rows]
    if any(b < 0 or e < 0 for b, e in out):
        raise ValueError(f"For '{op}', every value of 'paddings' must be >= 0, got {out}")
    return out


def _symmetric(x: Tensor, pairs: list[tuple[int, int]]) -> Tensor:
    for axis, (b, e) in enumerate(pairs):
        if not (b or e):
            continue
        parts = []
        if b:
            parts.append(flip_axis(Slice.apply(x, axes=(axis,), starts=(0,), ends=(b,), steps=(1,)), axis))
        parts.append(x)
        if e:
            # the last e along the axis, whatever its size
            tail = Slice.apply(x, axes=(axis,), starts=(-e,), ends=(None,), steps=(1,))
            parts.append(flip_axis(tail, axis))
        x = concat(parts, axis)
    return x


def mirror_pad(input_x: Tensor, paddings: Any, mode: str) -> Tensor:
    """Pad every axis by mirroring the input at its edges, as MindSpore's ``ops.mirror_pad`` (MirrorPad).

    Args:
        input_x (Tensor): tensor of any rank.
        paddings (Union[Tensor, tuple, list]): (rank, 2) ints: the (before, after) amount of each axis.
        mode (str): 'REFLECT' (the edge is the mirror: [1, 2, 3] -> [2, 1, 2, 3, 2], amounts below the axis
            size) or 'SYMMETRIC' (the edge is repeated: [1, 2, 3] -> [1, 1, 2, 3, 3], amounts up to the size).

    Returns:
        Tensor of input_x's dtype, each axis grown by before + after.

    Examples:
        >>> print(ops.mirror_pad(Tensor([[1., 2., 3.]]), Tensor([[0, 0], [1, 1]]), "SYMMETRIC"))
        [[1. 1. 2. 3. 3.]]
    """
    x = to_tensor(input_x)
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For 'MirrorPad', the 'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode!r}")
    pairs = _pairs(paddings, x.ndim, "MirrorPad")
    for axis, (b, e) in enumerate(pairs):
        n = int(x._data.shape[axis])
        limit = n - 1 if mode == "REFLECT" else n
        if b > limit or e > limit:
            raise ValueError(f"For 'MirrorPad', the paddings ({b}, {e}) of axis {axis} must be at most "
                             f"{limit} in mode {mode} (the axis has size {n})")
    if not any(b or e for b, e in pairs):
        return x
    if mode == "SYMMETRIC":
        return _symmetric(x, pairs)
    pads = tuple(b for b, _ in pairs) + tuple(e for _, e in pairs)
    return Pad.apply(x, pads=pads, mode="reflect", value=0)


__all__ = ["mirror_pad"]
