"""Segment reductions: unsorted_segment_sum / max / min / prod.

``out[s] = reduce(x[i] for i where segment_ids[i] == s)`` over the leading axes that ``segment_ids``
covers. As in MindSpore, a negative id drops its row, and an empty segment holds the reduction's start
value: 0 for sum, 1 for prod, the dtype's lowest finite value for max and its largest for min (not the
infinities). Each is one scatter into a buffer of num_segments + 1 rows started at that value; dropped rows
go to the extra row, which is cut off.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.ops.prims.creation import Fill
from cellonnx.ops.prims.index import narrow
from cellonnx.ops.prims.math import cast, less, where
from cellonnx.ops.prims.scatter import ScatterNDAdd, _index
from cellonnx.ops.prims.scatter_reduce import ScatterNDReduce
from cellonnx.ops.prims.shape import reshape
from cellonnx.tensor import Tensor


def _start(reduction: str, dtype: np.dtype) -> Any:
    if reduction == "add":
        return 0
    if reduction == "mul":
        return 1
    info = np.finfo(dtype) if is_float_dtype(dtype) else np.iinfo(dtype)
    return info.min if reduction == "max" else info.max


def _segment(x: Any, segment_ids: Any, num_segments: Any, reduction: str, op: str) -> Tensor:
    x = to_tensor(x)
    ids = _index(segment_ids, op)
    if isinstance(num_segments, Tensor):
        num_segments = int(num_segments._data.reshape(()))
    if isinstance(num_segments, bool) or not isinstance(num_segments, (int, np.integer)) or num_segments < 0:
        raise ValueError(f"{op}: num_segments must be a non-negative int, got {num_segments!r}")
    n = int(num_segments)
    k = ids.ndim
    if tuple(x._data.shape[:k]) != tuple(ids._data.shape):
        raise ValueError(f"{op}: segment_ids of shape {tuple(ids.shape)} must be a prefix of the shape of x "
                         f"{tuple(x.shape)}")
    if ids._data.size and int(ids._data.max()) >= n:
        raise ValueError(f"{op}: segment id {int(ids._data.max())} is out of range for num_segments {n}")
    rest = tuple(x.shape[k:])
    flat_ids = reshape(ids, (-1, 1))
    flat_x = reshape(x, (-1,) + rest)
    flat_ids = where(less(flat_ids, 0), n, flat_ids)          # dropped rows go to the extra row n
    if flat_ids._data.dtype != np.int64:
        flat_ids = cast(flat_ids, np.int64)
    dt = x._data.dtype
    start = Fill.apply(shape=(n + 1,) + rest, value=_start(reduction, dt), dtype=dt)
    if reduction == "add":
        buf = ScatterNDAdd.apply(start, flat_ids, flat_x)
    else:
        buf = ScatterNDReduce.apply(start, flat_ids, flat_x, reduction=reduction)
    return narrow(buf, 0, 0, n)


def unsorted_segment_sum(input_x: Tensor, segment_ids: Any, num_segments: Any) -> Tensor:
    """Sums over segments: ``out[s] = sum(input_x[i] for segment_ids[i] == s)``.

    Args:
        input_x (Tensor): shape ``segment_ids.shape + rest``.
        segment_ids (Tensor): int32 / int64 segment of each leading element; negative ids are dropped.
        num_segments (Union[int, Tensor]): the number of segments (ids must be below it).

    Returns:
        Tensor of shape ``(num_segments,) + rest``; empty segments are 0.

    Examples:
        >>> print(ops.unsorted_segment_sum(Tensor([1.0, 2.0, 3.0]), Tensor(np.array([0, 0, 2])), 3))
        [3. 0. 3.]
    """
    return _segment(input_x, segment_ids, num_segments, "add", "unsorted_segment_sum")


def unsorted_segment_max(x: Tensor, segment_ids: Any, num_segments: Any) -> Tensor:
    """Maxima over segments; an empty segment holds the dtype's lowest finite value. The gradient is shared
    evenly between tied maxima. See :func:`unsorted_segment_sum`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 5.0, 3.0, 4.0]), ms.float32)
        >>> ids = Tensor(np.array([0, 0, 1, 1]), ms.int32)
        >>> print(ops.unsorted_segment_max(x, ids, 2))
        [5. 4.]
    """
    return _segment(x, segment_ids, num_segments, "max", "unsorted_segment_max")


def unsorted_segment_min(x: Tensor, segment_ids: Any, num_segments: Any) -> Tensor:
    """Minima over segments; an empty segment holds the dtype's largest finite value. See
    :func:`unsorted_segment_sum`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 5.0, 3.0, 4.0]), ms.float32)
        >>> ids = Tensor(np.array([0, 0, 1, 1]), ms.int32)
        >>> print(ops.unsorted_segment_min(x, ids, 2))
        [1. 3.]
    """
    return _segment(x, segment_ids, num_segments, "min", "unsorted_segment_min")


def unsorted_segment_prod(x: Tensor, segment_ids: Any, num_segments: Any) -> Tensor:
    """Products over segments; an empty segment holds 1. See :func:`unsorted_segment_sum`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 5.0, 3.0, 4.0]), ms.float32)
        >>> ids = Tensor(np.array([0, 0, 1, 1]), ms.int32)
        >>> print(ops.unsorted_segment_prod(x, ids, 2))
        [ 5. 12.]
    """
    return _segment(x, segment_ids, num_segments, "mul", "unsorted_segment_prod")


__all__ = ["unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sum"]
