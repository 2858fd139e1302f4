"""Distinct values and sorted search: unique, unique_consecutive, unique_with_pad and searchsorted.

unique keeps MindSpore's order (values in order of first appearance, not sorted) and is one ONNX Unique
node (``sorted=0``); its values are gathered from the input, so they carry a gradient. unique_consecutive
is written over NonZero and CumSum. searchsorted counts, per value, the sequence elements below it (or not
above it, for ``right``): one comparison and ReduceSum in a graph.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import onnx

from cellonnx.ops.prims._util import is_float_dtype, norm_axis, to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


class Unique(Op):
    """The distinct values of the flattened input, in order of first appearance (``sorted``: ascending): for
    each, the position of its first occurrence, and for each element, the number of its value (both int64).
    NaNs are all distinct (as in MindSpore)."""

    differentiable = False
    n_outputs = 2

    def forward(self, x, *, sorted):
        flat = x.reshape(-1)
        if not flat.size:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        _, first, inverse = np.unique(flat, return_index=True, return_inverse=True, equal_nan=False)
        if sorted:
            return first.astype(np.int64), inverse.reshape(-1).astype(np.int64)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return first[order].astype(np.int64), rank[inverse.reshape(-1)].astype(np.int64)

    def lower(self, g, x, *, sorted):
        flat = g.op("Reshape", x, g.i64([-1]))
        dt = g.in_tensors[0]._data.dtype
        if dt not in (np.float32, np.float64, np.int64, np.int8):  # the types onnxruntime's Unique takes
            wide = onnx.TensorProto.FLOAT if is_float_dtype(dt) else onnx.TensorProto.INT64
            flat = g.op("Cast", flat, to=wide)     # widening keeps equal values equal and distinct ones apart
        _, first, inverse, _ = g.op("Unique", flat, sorted=int(sorted), outputs=4)
        return first, inverse


class SearchSorted(Op):
    """For each value, the number of elements of its (sorted) row of ``seq`` below it (``right``: not above
    it), i.e. where it would be inserted to keep the row sorted. ``seq`` is 1-D or has the leading dims of
    ``values``; the result is int64."""

    differentiable = False

    def forward(self, seq, values, *, right):
        side = "right" if right else "left"
        if seq.ndim == 1:
            return np.searchsorted(seq, values, side=side).astype(np.int64)
        rows, vals = seq.reshape(-1, seq.shape[-1]), values.reshape(-1, values.shape[-1])
        out = np.stack([np.searchsorted(r, v, side=side) for r, v in zip(rows, vals)]) if len(rows) else \
            np.zeros(vals.shape, np.int64)
        return out.reshape(values.shape).astype(np.int64)

    def lower(self, g, seq, values, *, right):
        nv = g.in_tensors[1].ndim
        ns = g.in_tensors[0].ndim
        s = g.unsqueeze(seq, [ns - 1]) if ns > 1 else seq      # (..., 1, M) against values (..., N, 1)
        v = g.unsqueeze(values, [nv])
        below = g.op("LessOrEqual" if right else "Less", s, v)
        count = g.axes([nv], "ReduceSum", g.op("Cast", below, to=onnx.TensorProto.INT64), keepdims=0)
        return count

    def check(self, seq, values, *, right):
        return f"sorted_sequence {seq.shape} must be 1-D or share all but the last dim with values " \
               f"{values.shape}"


# ---------------------------------------------------------------- functional API
def _index_dtype(x: Tensor) -> np.dtype:
    return np.dtype(np.int64) if x._data.dtype == np.int64 else np.dtype(np.int32)


def unique(input: Tensor) -> tuple[Tensor, Tensor]:
    """The distinct values of ``input`` (flattened) in order of first appearance, and for each element of
    ``input`` the position of its value in that list.

    Returns:
        (output, idx): output is 1-D of ``input``'s dtype; idx has ``input``'s shape, int64 for an int64
        input and int32 otherwise (as MindSpore).

    Examples:
        >>> y, idx = ops.unique(Tensor(np.array([5, 1, 3, 1, 5])))
        >>> y
        Tensor(shape=[3], dtype=Int64, value= [5, 1, 3])
        >>> idx
        Tensor(shape=[5], dtype=Int64, value= [0, 1, 2, 1, 0])
    """
    from cellonnx.ops.prims.math import cast
    from cellonnx.ops.prims.scatter import Gather
    from cellonnx.ops.prims.shape import reshape
    x = to_tensor(input)
    first, inverse = Unique.apply(x, sorted=False)
    values = Gather.apply(reshape(x, (-1,)), first, axis=0)
    return values, cast(reshape(inverse, x.shape), _index_dtype(x))


def unique_with_pad(x: Tensor, pad_num: Any) -> tuple[Tensor, Tensor]:
    """``unique`` of a 1-D ``x`` with the values padded to ``x``'s length with ``pad_num`` (deprecated in
    MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 1, 5, 5, 4, 4]), ms.int32)
        >>> unique, idx = ops.unique_with_pad(x, -1)
        >>> print(unique)
        [ 1  5  4 -1 -1 -1]
        >>> print(idx)
        [0 0 1 1 2 2]
    """
    from cellonnx.ops.prims.creation import full_like
    from cellonnx.ops.prims.index import Slice, concat
    x = to_tensor(x)
    if x.ndim != 1:
        raise ValueError(f"unique_with_pad: x must be 1-D, got shape {tuple(x.shape)}")
    values, idx = unique(x)
    padded = concat([values, full_like(x, pad_num)], 0)
    return Slice.apply(padded, axes=(0,), starts=(0,), ends=(x.shape[0],), steps=(1,)), idx


def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Any:
    """Collapse runs of equal consecutive elements (of the flattened input, or of slices along ``dim``).

    Args:
        input (Tensor): input.
        return_inverse (bool): also return, for each element (slice), the index of its run. Default: False.
        return_counts (bool): also return the length of each run. Default: False.
        dim (int, optional): the axis whose consecutive slices are compared; None flattens. Default: None.

    Returns:
        output alone, or a tuple (output, inverse, counts) holding those asked for (int64 indices).

    Examples:
        >>> ops.unique_consecutive(Tensor(np.array([1, 1, 2, 2, 3, 1, 1])))
        Tensor(shape=[4], dtype=Int64, value= [1, 2, 3, 1])
    """
    from cellonnx.ops.prims.creation import Fill
    from cellonnx.ops.prims.getitem import NonZero
    from cellonnx.ops.prims.index import Slice, concat
    from cellonnx.ops.prims.math import cast, not_equal, sub
    from cellonnx.ops.prims.reduce import ReduceMax
    from cellonnx.ops.prims.scatter import Gather
    from cellonnx.ops.prims.shape import reshape, squeeze
    from cellonnx.ops.prims.sort import CumSum
    x = to_tensor(input)
    if dim is None:
        work, axis = reshape(x, (-1,)), 0
    else:
        work, axis = x, norm_axis(dim, x.ndim, "unique_consecutive")
    n = int(work._data.shape[axis])
    if n == 0:
        empty = Fill.apply(shape=(0,), value=0, dtype=np.dtype(np.int64))
        outs = [work, reshape(empty, x.shape) if dim is None else empty, empty]
    else:
        def part(start: Any, stop: Any) -> Tensor:
            return Slice.apply(work, axes=(axis,), starts=(start,), ends=(stop,), steps=(1,))
        differs = not_equal(part(1, None), part(0, -1))             # slice t+1 against slice t
        if work.ndim > 1:
            others = tuple(a for a in range(work.ndim) if a != axis)
            differs = cast(ReduceMax.apply(cast(differs, np.int32), axes=others, keep_dims=False), np.bool_)
        first = Fill.apply(shape=(1,), value=True, dtype=np.dtype(np.bool_))
        starts_mask = concat([first, differs], 0)                   # (n,) True where a run starts
        starts = squeeze(NonZero.apply(starts_mask, strict=False), 0)
        output = Gather.apply(work, starts, axis=axis)
        run = sub(CumSum.apply(cast(starts_mask, np.int64), axis=0, exclusive=False, reverse=False), 1)
        inverse = reshape(run, x.shape) if dim is None else run
        ends = concat([Slice.apply(starts, axes=(0,), starts=(1,), ends=(None,), steps=(1,)),
                       reshape(cast(Tensor(work.shape[axis]), np.int64), (1,))], 0)  # n, read at run time
        outs = [output, inverse, sub(ends, starts)]
    if not return_inverse and not return_counts:
        return outs[0]
    return tuple(o for o, keep in zip(outs, (True, return_inverse, return_counts)) if keep)


def searchsorted(sorted_sequence: Tensor, values: Tensor, *, out_int32: bool = False, right: bool = False,
                 side: str | None = None, sorter: Any = None) -> Tensor:
    """Where each of ``values`` would be inserted into ``sorted_sequence`` to keep it sorted.

    Args:
        sorted_sequence (Tensor): ascending along the last axis; 1-D, or with the leading dims of ``values``.
        values (Tensor): the values to place.
        out_int32 (bool): int32 indices instead of int64. Default: False.
        right (bool): for values equal to elements, the position after them (else before). Default: False.
        side (str, optional): 'left' or 'right'; overrides ``right`` when given. Default: None.
        sorter (Tensor, optional): the indices that sort an unsorted ``sorted_sequence`` along its last axis.

    Examples:
        >>> ops.searchsorted(Tensor([1.0, 3.0, 5.0]), Tensor([3.0, 6.0]))
        Tensor(shape=[2], dtype=Int64, value= [1, 3])
    """
    from cellonnx.ops.prims.math import cast
    from cellonnx.ops.prims.shape import reshape
    seq, vals = to_tensor(sorted_sequence), to_tensor(values)
    if side is not None:
        if side not in ("left", "right"):
            raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
        if right and side == "left":
            raise ValueError("searchsorted: right=True contradicts side='left'")
        right = side == "right"
    if sorter is not None:
        from cellonnx.ops.prims.scatter import gather_elements
        seq = gather_elements(seq, -1, sorter)
    if seq.ndim == 0:
        raise ValueError("searchsorted: sorted_sequence must have at least 1 dimension")
    scalar = vals.ndim == 0
    if scalar:
        vals = reshape(vals, (1,))
    if seq.ndim > 1 and tuple(seq._data.shape[:-1]) != tuple(vals._data.shape[:-1]):
        raise ValueError(f"searchsorted: sorted_sequence {tuple(seq.shape)} and values {tuple(vals.shape)} "
                         "must have the same leading dims (or sorted_sequence must be 1-D)")
    if seq._data.dtype != vals._data.dtype:
        from cellonnx.ops.prims._util import promote
        seq, vals = promote(seq, vals)
    out = SearchSorted.apply(seq, vals, right=bool(right))
    if scalar:
        out = reshape(out, ())
    return cast(out, np.int32) if out_int32 else out


def _tensor_searchsorted(self: Tensor, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    return searchsorted(self, v, side=side, sorter=sorter)


TENSOR_METHODS = {"unique_consecutive": unique_consecutive, "searchsorted": _tensor_searchsorted}

__all__ = ["searchsorted", "unique", "unique_consecutive", "unique_with_pad"]
