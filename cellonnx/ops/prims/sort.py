"""Sorting and scans: cumsum, topk, sort, argsort.

Ties keep their original order (the lower index first), as ONNX TopK specifies, so sort is stable in both
directions and eager results match the exported graph index for index. Indices are int64 (MindSpore's
Sort/TopK give int32; int64 is what ONNX produces and what every index op here takes).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops import registry
from cellonnx.ops.prims._util import norm_axis, to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


class CumSum(Op):
    def forward(self, x, *, axis, exclusive, reverse):
        if reverse:
            x = np.flip(x, axis)
        out = np.cumsum(x, axis=axis, dtype=x.dtype)
        if exclusive:
            out = np.roll(out, 1, axis=axis)
            out[(slice(None),) * axis + (0,)] = 0
        return np.flip(out, axis) if reverse else out

    def backward(self, ctx, g, *, axis, exclusive, reverse):
        # the transpose of a (reverse) cumulative sum is the cumulative sum the other way
        return (CumSum.apply(g, axis=axis, exclusive=exclusive, reverse=not reverse),)

    def lower(self, g, x, *, axis, exclusive, reverse):
        return g.op("CumSum", x, g.i64(axis), exclusive=int(exclusive), reverse=int(reverse))


def _stable_order(x: np.ndarray, axis: int, largest: bool) -> np.ndarray:
    """Argsort along ``axis``; ties keep index order in both directions."""
    if not largest:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    rev = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return (n - 1) - np.flip(rev, axis)


def _topk_order(x: np.ndarray, k: int, axis: int, largest: bool) -> np.ndarray:
    """The positions of the top k along ``axis``, in sorted order with ties by index. For k much smaller
    than the axis, an O(n) selection (np.partition) finds the k candidates and only they are sorted."""
    n = x.shape[axis]
    if k * 4 >= n or k == 0 or x.size == 0:
        order = _stable_order(x, axis, largest)
        return order[(slice(None),) * axis + (slice(0, k),)] if k < n else order
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, n)
    pivot = n - k if largest else k - 1
    kth = np.partition(rows, pivot, axis=-1)[:, pivot:pivot + 1]
    beyond = rows > kth if largest else rows < kth
    tied = rows == kth
    # all entries beyond the k-th value, then the lowest-index entries equal to it until there are k
    chosen = beyond | (tied & (np.cumsum(tied, axis=-1) <= k - beyond.sum(axis=-1, keepdims=True)))
    if int(chosen.sum()) != rows.shape[0] * k:  # NaNs defeat the comparisons: sort everything instead
        return _stable_order(x, axis, largest)[(slice(None),) * axis + (slice(0, k),)]
    cols = np.nonzero(chosen)[1].reshape(-1, k)  # increasing index within each row
    order = np.take_along_axis(cols, _stable_order(np.take_along_axis(rows, cols, -1), -1, largest), -1)
    return np.moveaxis(order.reshape(moved.shape[:-1] + (k,)), -1, axis)


class TopK(Op):
    """The k largest (or smallest) entries along ``axis``, sorted, with their int64 indices."""

    n_outputs = 2
    save_output = True  # backward scatters into the positions of the indices output

    def forward(self, x, *, k, axis, largest):
        order = _topk_order(x, int(k), axis, largest)
        return np.take_along_axis(x, order, axis=axis), order.astype(np.int64, copy=False)

    def backward(self, ctx, g_values, g_indices, *, k, axis, largest):
        from cellonnx.ops.prims.creation import zeros_like
        from cellonnx.ops.prims.scatter import ScatterElementsAdd
        x = ctx.inputs[0]
        if registry.TRACE_HOOK is None:
            idx = ctx.node.output(1)  # the saved int64 indices (they carry no history)
        else:  # a saved array would be baked into a traced graph as a constant: recompute it in the graph
            idx = TopK.apply(x, k=k, axis=axis, largest=largest)[1]
        return (ScatterElementsAdd.apply(zeros_like(x), idx, g_values, axis=axis),)

    def lower(self, g, x, *, k, axis, largest):
        return g.op("TopK", x, g.shape_value([k]), axis=axis, largest=int(largest), sorted=1, outputs=2)

    def check(self, x, *, k, axis, largest):
        return f"k={int(k)} must be in [0, {x.shape[axis]}] (the size of axis {axis})"


# ---------------------------------------------------------------- functional API
def cumsum(x: Tensor, axis: int, dtype: Any = None) -> Tensor:
    """Cumulative sum along ``axis`` (computed in ``dtype`` when given; bool counts as int64).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> print(ops.cumsum(x, axis=0))
        [ 1.  3.  6. 10.]
    """
    from cellonnx.ops.prims.math import cast
    x = to_tensor(x)
    if dtype is not None:
        x = cast(x, dtype)
    elif x._data.dtype == np.bool_ or x._data.dtype.kind in "iu" and x._data.dtype.itemsize < 4:
        x = cast(x, np.int64)
    if x.ndim == 0:
        return x
    return CumSum.apply(x, axis=norm_axis(axis, x.ndim, "cumsum"), exclusive=False, reverse=False)


def topk(input: Tensor, k: int, dim: int | None = None, largest: bool = True, sorted: bool = True
         ) -> tuple[Tensor, Tensor]:
    """The ``k`` largest (``largest=False``: smallest) entries along ``dim`` (the last when None) and their
    indices. Results always come sorted (``sorted=False`` allows any order; this one is as good).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 5.0, 3.0, 4.0]), ms.float32)
        >>> values, indices = ops.topk(x, 2)
        >>> print(values)
        [5. 4.]
        >>> print(indices)
        [1 3]
    """
    input = to_tensor(input)
    if input.ndim == 0:
        raise ValueError("topk: the input must have at least one dimension")
    a = norm_axis(-1 if dim is None else dim, input.ndim, "topk")
    if not 0 <= int(k) <= int(input._data.shape[a]):
        raise ValueError(f"topk: k={int(k)} must be in [0, {input._data.shape[a]}] (the size of dim {a} of the "
                         f"input {tuple(input.shape)})")
    return TopK.apply(input, k=k, axis=a, largest=bool(largest))


def sort(input_x: Tensor, axis: int = -1, descending: bool = False) -> tuple[Tensor, Tensor]:
    """Sort along ``axis`` (stable: equal values keep their order); returns (values, indices).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3.0, 1.0, 2.0]), ms.float32)
        >>> values, indices = ops.sort(x)
        >>> print(values)
        [1. 2. 3.]
        >>> print(indices)
        [1 2 0]
        >>> values, indices = ops.sort(x, descending=True)
        >>> print(values)
        [3. 2. 1.]
    """
    input_x = to_tensor(input_x)
    if input_x.ndim == 0:
        return input_x, Tensor._make(np.zeros((), np.int64))
    a = norm_axis(axis, input_x.ndim, "sort")
    return TopK.apply(input_x, k=input_x.shape[a], axis=a, largest=bool(descending))


def argsort(input: Tensor, axis: int = -1, descending: bool = False) -> Tensor:
    """The indices that sort ``input`` along ``axis`` (stable).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3.0, 1.0, 2.0]), ms.float32)
        >>> print(ops.argsort(x))
        [1 2 0]
    """
    return sort(input, axis, descending)[1]


def _tensor_sort(self: Tensor, axis: int = -1, descending: bool = False) -> tuple[Tensor, Tensor]:
    return sort(self, axis, descending)


def _tensor_cumsum(self: Tensor, axis: int | None = None, dtype: Any = None) -> Tensor:
    from cellonnx.ops.prims.shape import reshape
    if axis is None:
        return cumsum(reshape(self, (-1,)), 0, dtype)
    return cumsum(self, axis, dtype)


TENSOR_METHODS = {"sort": _tensor_sort, "argsort": argsort, "topk": topk, "cumsum": _tensor_cumsum}

__all__ = ["argsort", "cumsum", "sort", "topk"]
