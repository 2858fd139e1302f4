"""MindSpore's sparse functions (sparse_func): conversions between dense, COOTensor and CSRTensor, coalesce,
sums, products and softmax, written over cellonnx ops on the values, so they carry gradients to the values
and export (positions that depend on the data become NonZero / Unique nodes).

Orders follow MindSpore: coalesce, coo_add, coo_concat and csr_add give coordinates in row-major order;
conversions from dense list the non-zeros in row-major order. Integer positions are int32 where MindSpore's
are (dense_to_sparse_*, csr_to_coo) and int64 where its are (coalesce, coo_add, coo_concat).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.ops.composite.segment import unsorted_segment_max, unsorted_segment_sum
from cellonnx.ops.prims._util import is_float_dtype, promote, to_tensor
from cellonnx.ops.prims.creation import Fill, zeros_like
from cellonnx.ops.prims.getitem import NonZero
from cellonnx.ops.prims.index import Slice, concat, stack, unbind
from cellonnx.ops.prims.math import (
    abs as _abs,
)
from cellonnx.ops.prims.math import (
    add,
    cast,
    clamp,
    div,
    equal,
    exp,
    floor_div,
    floor_mod,
    greater_equal,
    logical_or,
    mul,
    sub,
)
from cellonnx.ops.prims.reduce import reduce_sum
from cellonnx.ops.prims.scatter import Gather, GatherND, IndexAdd, tensor_scatter_add
from cellonnx.ops.prims.shape import broadcast_to, expand_dims, reshape, squeeze, transpose
from cellonnx.ops.prims.sort import CumSum, TopK
from cellonnx.ops.prims.unique import Unique
from cellonnx.sparse.tensor import COOTensor, CSRTensor, RowTensor
from cellonnx.tensor import Tensor, is_symbolic


# ---------------------------------------------------------------- helpers
def _coo(x: Any, op: str) -> COOTensor:
    if not isinstance(x, COOTensor):
        raise TypeError(f"{op}: expected a COOTensor, got {type(x).__name__}")
    return x


def _csr(x: Any, op: str) -> CSRTensor:
    if not isinstance(x, CSRTensor):
        raise TypeError(f"{op}: expected a CSRTensor, got {type(x).__name__}")
    return x


def _i64(t: Tensor) -> Tensor:
    return cast(t, np.int64)


def _running_count(positions: Tensor, size: Any) -> Tensor:
    """``out[j]`` = how many of ``positions`` (integers in [0, size)) are <= j, for j < size, as int64: a
    histogram (a scatter-add of ones) and its cumulative sum, linear in the sizes."""
    pos = _i64(positions)
    ones = add(cast(zeros_like(pos), np.int64), 1)
    zeros = Fill.apply(shape=(size,), value=0, dtype=np.dtype(np.int64))
    hist = IndexAdd.apply(zeros, pos, ones, axis=0)
    return CumSum.apply(hist, axis=0, exclusive=False, reverse=False)


def _rows(x: CSRTensor) -> Tensor:
    """The row of every stored value of a CSRTensor (int64)."""
    return _i64(csr2coo(x.indptr, x.values.shape[0]))


def _positions(x: CSRTensor) -> Tensor:
    """(nnz, 2) int64 [row, column] of every stored value."""
    return stack([_rows(x), _i64(x.indices)], 1)


def _lin(indices: Tensor, shape: Sequence[int]) -> Tensor:
    """Row-major linear positions of (N, ndim) coordinates."""
    strides = np.cumprod((list(shape[1:]) + [1])[::-1])[::-1].astype(np.int64)
    return reduce_sum(mul(_i64(indices), Tensor._make(strides)), (1,))


def _unlin(lin: Tensor, shape: Sequence[int]) -> Tensor:
    """(N, ndim) int64 coordinates of row-major linear positions."""
    strides = np.cumprod((list(shape[1:]) + [1])[::-1])[::-1].astype(np.int64)
    cols = [floor_mod(floor_div(lin, int(s)), int(n)) for s, n in zip(strides, shape)]
    return stack(cols, 1)


def _merge(indices: Tensor, values: Tensor, shape: Sequence[int]) -> tuple[Tensor, Tensor, Tensor]:
    """Sum the values of repeated coordinates: (unique coordinates in row-major order (Z, ndim) int64, their
    summed values (Z,), how many entries each had (Z,) int64)."""
    lin = _lin(indices, shape)
    first, inverse = Unique.apply(lin, sorted=True)
    merged = IndexAdd.apply(zeros_like(Gather.apply(values, first, axis=0)), inverse, values, axis=0)
    ones = cast(zeros_like(inverse), np.int64)
    counts = IndexAdd.apply(zeros_like(first), inverse, add(ones, 1), axis=0)
    return _unlin(Gather.apply(lin, first, axis=0), shape), merged, counts


def _select(mask: Tensor, *tensors: Tensor) -> list[Tensor]:
    """The entries (along axis 0) of each tensor where the 1-D ``mask`` holds."""
    keep = squeeze(NonZero.apply(mask, strict=False), 0)
    return [Gather.apply(t, keep, axis=0) for t in tensors]


def _sorted_coo(indices: Tensor, values: Tensor, shape: Sequence[int]) -> tuple[Tensor, Tensor]:
    """Coordinates and values reordered row-major (stable for equal coordinates)."""
    lin = _lin(indices, shape)
    if lin._data.shape[0] == 0:
        return indices, values
    order = TopK.apply(lin, k=lin.shape[0], axis=0, largest=False)[1]  # every coordinate, of any count
    return Gather.apply(indices, order, axis=0), Gather.apply(values, order, axis=0)


# ---------------------------------------------------------------- COO
def coo_to_dense(x: COOTensor) -> Tensor:
    """The dense form of a COOTensor (repeated coordinates add up)."""
    x = _coo(x, "coo_to_dense")
    zeros = Fill.apply(shape=x.shape, value=0, dtype=x.values._data.dtype)
    return tensor_scatter_add(zeros, _i64(x.indices), x.values)


def coalesce(x_indices: Tensor, x_values: Tensor, x_shape: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """Sum the values of repeated coordinates and order the coordinates row-major.

    Args:
        x_indices (Tensor): int64 of shape (ndims, N): column i holds the coordinates of value i.
        x_values (Tensor): shape (N,).
        x_shape (Tensor): int64 (ndims,), the dense shape.

    Returns:
        (y_indices (ndims, Z) int64, y_values (Z,), y_shape (ndims,) int64), Z the number of distinct
        coordinates.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x_indices = Tensor(np.array([[0, 0, 1], [1, 1, 0]]), ms.int64)
        >>> x_values = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> x_shape = Tensor(np.array([2, 2]), ms.int64)
        >>> y_indices, y_values, y_shape = ops.coalesce(x_indices, x_values, x_shape)
        >>> print(y_indices)
        [[0 1]
         [1 0]]
        >>> print(y_values)
        [3. 3.]
    """
    idx, vals = to_tensor(x_indices), to_tensor(x_values)
    shape = tuple(int(v) for v in to_tensor(x_shape)._data.reshape(-1))
    if idx.ndim != 2 or vals.ndim != 1 or idx._data.shape[1] != vals._data.shape[0] or \
            idx._data.shape[0] != len(shape):
        raise ValueError(f"coalesce: x_indices {tuple(idx.shape)}, x_values {tuple(vals.shape)} and x_shape "
                         f"{shape} must be (ndims, N), (N,) and ndims ints")
    if idx._data.size and (int(idx._data.min()) < 0 or
                           any(int(idx._data[k].max()) >= n for k, n in enumerate(shape))):
        raise ValueError(f"coalesce: x_indices must lie in [0, x_shape) = [0, {shape})")
    coords, merged, _ = _merge(transpose(idx, (1, 0)), vals, shape)
    return transpose(coords, (1, 0)), merged, Tensor._make(np.asarray(shape, np.int64))


def coo_coalesce(x: COOTensor) -> COOTensor:
    """``COOTensor.coalesce()``: repeated coordinates summed, row-major order, int64 indices."""
    x = _coo(x, "coalesce")
    coords, merged, _ = _merge(x.indices, x.values, x.shape)
    return COOTensor(coords, merged, x.shape)


def coo_to_csr(x: COOTensor) -> CSRTensor:
    """``COOTensor.to_csr()`` for a 2-D tensor: entries ordered by row (stable), indptr of the indices'
    dtype."""
    x = _coo(x, "COOTensor.to_csr")
    if x.ndim != 2:
        raise ValueError(f"COOTensor.to_csr: only 2-D tensors convert to CSR, got shape {x.shape}")
    rows, cols = unbind(x.indices, 1)
    if rows._data.shape[0]:
        order = TopK.apply(rows, k=rows.shape[0], axis=0, largest=False)[1]
        rows, cols = Gather.apply(rows, order, axis=0), Gather.apply(cols, order, axis=0)
        values = Gather.apply(x.values, order, axis=0)
    else:
        values = x.values
    return CSRTensor(coo2csr(rows, x.shape[0]), cols, values, x.shape)


def coo2csr(row_indices: Tensor, height: int) -> Tensor:
    """The indptr (height + 1,) of sorted COO row indices: ``indptr[i]`` = the number of rows below i.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> rows = Tensor(np.array([0, 0, 2]), ms.int32)
        >>> print(ops.coo2csr(rows, 3))
        [0 2 2 3]
    """
    rows = to_tensor(row_indices)
    if rows.ndim != 1 or rows._data.dtype.kind not in "iu":
        raise ValueError(f"coo2csr: row_indices must be 1-D integers, got {tuple(rows.shape)} {rows.dtype}")
    size = height if is_symbolic(height) else int(height)  # a dynamic height (x.shape[0]) stays one
    below = _running_count(rows, size)                      # rows <= i, i.e. rows < i + 1
    zero = Fill.apply(shape=(1,), value=0, dtype=np.dtype(np.int64))
    return cast(concat([zero, below], 0), rows._data.dtype)


def csr2coo(indptr: Tensor, nnz: int) -> Tensor:
    """The row of each of the ``nnz`` stored values of a CSR matrix with this ``indptr``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> indptr = Tensor(np.array([0, 2, 2, 3]), ms.int32)
        >>> print(ops.csr2coo(indptr, 3))
        [0 0 2]
    """
    ptr = to_tensor(indptr)
    if ptr.ndim != 1 or ptr._data.dtype.kind not in "iu":
        raise ValueError(f"csr2coo: indptr must be 1-D integers, got {tuple(ptr.shape)} {ptr.dtype}")
    # the row of value j is the number of row ends (indptr[1:]) at or before j
    ends = clamp(Slice.apply(ptr, axes=(0,), starts=(1,), ends=(None,), steps=(1,)), None, int(nnz))
    counts = _running_count(ends, int(nnz) + 1)
    return cast(Slice.apply(counts, axes=(0,), starts=(0,), ends=(int(nnz),), steps=(1,)), ptr._data.dtype)


def coo_add(x1: COOTensor, x2: COOTensor, thresh: Any) -> COOTensor:
    """The sum of two COOTensors (TensorFlow's SparseAdd): coordinates of both in row-major order; a
    coordinate present in both whose sum has magnitude below ``thresh`` is dropped. Indices are int64.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, COOTensor
        >>> indices = Tensor(np.array([[0, 0], [1, 1]]), ms.int64)
        >>> a = COOTensor(indices, Tensor(np.array([1.0, 2.0]), ms.float32), (2, 2))
        >>> b = COOTensor(indices, Tensor(np.array([3.0, -2.0]), ms.float32), (2, 2))
        >>> y = ops.coo_add(a, b, Tensor(0.5, ms.float32))
        >>> print(y.indices)
        [[0 0]]
        >>> print(y.values)
        [4.]
    """
    x1, x2 = _coo(x1, "coo_add"), _coo(x2, "coo_add")
    if x1.shape != x2.shape:
        raise ValueError(f"coo_add: shapes {x1.shape} and {x2.shape} must be equal")
    v1, v2 = promote(x1.values, x2.values)
    coords, merged, counts = _merge(concat([_i64(x1.indices), _i64(x2.indices)], 0), concat([v1, v2], 0),
                                    x1.shape)
    th = cast(to_tensor(thresh), merged._data.dtype)
    keep = logical_or(equal(counts, 1), greater_equal(_abs(merged), th))
    coords, merged = _select(keep, coords, merged)
    return COOTensor(coords, merged, x1.shape)


def coo_concat(sp_input: Any, concat_dim: int = 0) -> COOTensor:
    """Concatenate COOTensors (or (indices, values, shape) tuples) along ``concat_dim``; the result's
    coordinates are in row-major order, int64.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, COOTensor
        >>> indices = Tensor(np.array([[0, 0], [1, 1]]), ms.int64)
        >>> a = COOTensor(indices, Tensor(np.array([1.0, 2.0]), ms.float32), (2, 2))
        >>> y = ops.coo_concat((a, a), concat_dim=1)
        >>> print(y.to_dense())
        [[1. 0. 1. 0.]
         [0. 2. 0. 2.]]
    """
    if not isinstance(sp_input, (tuple, list)) or len(sp_input) < 2:
        raise ValueError("coo_concat: needs a tuple or list of at least two COOTensors")
    parts = [(p.indices, p.values, p.shape) if isinstance(p, COOTensor) else
             (to_tensor(p[0]), to_tensor(p[1]), tuple(int(d) for d in p[2])) for p in sp_input]
    shape = list(parts[0][2])
    nd = len(shape)
    if not -nd <= concat_dim < nd:
        raise ValueError(f"coo_concat: concat_dim {concat_dim} is out of range for rank {nd}")
    axis = concat_dim % nd
    indices, values = [], []
    offset = 0
    for idx, val, shp in parts:
        if len(shp) != nd or any(a != b for k, (a, b) in enumerate(zip(shp, shape)) if k != axis):
            raise ValueError(f"coo_concat: shapes {[p[2] for p in parts]} must agree off concat_dim {axis}")
        shift = np.zeros(nd, np.int64)
        shift[axis] = offset
        indices.append(add(_i64(idx), Tensor._make(shift)))
        values.append(val)
        offset += shp[axis]
    shape[axis] = offset
    all_idx, all_val = _sorted_coo(concat(indices, 0), concat(values, 0), shape)
    return COOTensor(all_idx, all_val, tuple(shape))


def dense_to_sparse_coo(tensor: Tensor) -> COOTensor:
    """The COOTensor of a 2-D tensor's non-zeros (row-major order, int32 indices).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[0.0, 1.0], [2.0, 0.0]]), ms.float32)
        >>> y = ops.dense_to_sparse_coo(x)
        >>> print(y.indices)
        [[0 1]
         [1 0]]
        >>> print(y.values)
        [1. 2.]
    """
    x = to_tensor(tensor)
    if x.ndim != 2:
        raise ValueError(f"dense_to_sparse_coo: only 2-D tensors are supported, got shape {tuple(x.shape)}")
    idx = transpose(NonZero.apply(x, strict=False), (1, 0))
    return COOTensor(cast(idx, np.int32), GatherND.apply(x, idx), tuple(x.shape))


def dense_to_sparse_csr(tensor: Tensor) -> CSRTensor:
    """The CSRTensor of a 2-D tensor's non-zeros (int32 indptr and indices).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[0.0, 1.0], [2.0, 0.0]]), ms.float32)
        >>> y = ops.dense_to_sparse_csr(x)
        >>> print(y.indptr, y.indices, y.values)
        [0 1 2] [1 0] [1. 2.]
    """
    x = to_tensor(tensor)
    if x.ndim != 2:
        raise ValueError(f"dense_to_sparse_csr: only 2-D tensors are supported, got shape {tuple(x.shape)}")
    idx = transpose(NonZero.apply(x, strict=False), (1, 0))
    rows, cols = unbind(idx, 1)
    return CSRTensor(coo2csr(cast(rows, np.int32), x.shape[0]), cast(cols, np.int32), GatherND.apply(x, idx),
                     tuple(x.shape))


def make_sparse_tensor(indices: Tensor, values: Tensor, dense_shape: Any) -> COOTensor:
    """A COOTensor (MindSpore's deprecated SparseTensor constructor function).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> indices = Tensor(np.array([[0, 0], [1, 1]]), ms.int64)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = ops.make_sparse_tensor(indices, values, (2, 2))
        >>> print(x.to_dense())
        [[1. 0.]
         [0. 2.]]
    """
    return COOTensor(indices, values, dense_shape)


def make_row_tensor(indices: Tensor, values: Tensor, dense_shape: Any) -> RowTensor:
    """A RowTensor (deprecated in MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> indices = Tensor(np.array([1]), ms.int32)
        >>> values = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> x = ops.make_row_tensor(indices, values, (3, 2))
        >>> print(x.dense_shape)
        (3, 2)
    """
    return RowTensor(indices, values, dense_shape)


def row_tensor_add(x: RowTensor, y: Tensor) -> RowTensor:
    """``F.row_tensor_add(x, y)``: a RowTensor plus a dense tensor of its dense shape, kept on ``x``'s rows
    (``values + y[indices]``, ``x``'s indices and dense shape). MindSpore adds with it a ``zeros_like`` to a
    sparse gradient, where the sum is ``x`` itself.

    Args:
        x (RowTensor): the sparse rows.
        y (Tensor): dense, of shape ``x.dense_shape``.

    Returns:
        RowTensor, of ``x``'s dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, RowTensor
        >>> values = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> x = RowTensor(Tensor(np.array([1]), ms.int32), values, (3, 2))
        >>> y = Tensor(np.ones((3, 2)), ms.float32)
        >>> print(ops.row_tensor_add(x, y).values)
        [[2. 3.]]
    """
    if not isinstance(x, RowTensor):
        raise TypeError(f"For 'RowTensorAdd', input[0] should be RowTensor, but got {type(x).__name__}.")
    if not isinstance(y, Tensor) or tuple(y.shape) != tuple(x.dense_shape):
        raise ValueError(f"For 'RowTensorAdd', input[1] must be a Tensor of the dense shape {x.dense_shape}, "
                         f"but got {tuple(y.shape) if isinstance(y, Tensor) else type(y).__name__}.")
    rows = Gather.apply(y, x.indices, axis=0)
    if rows.dtype != x.values.dtype:
        rows = cast(rows, x.values.dtype)
    return RowTensor(x.indices, add(x.values, rows), x.dense_shape)


# ---------------------------------------------------------------- CSR
def csr_to_dense(csr_tensor: CSRTensor) -> Tensor:
    """The dense form of a CSRTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 2))
        >>> print(ops.csr_to_dense(x))
        [[1. 0.]
         [0. 2.]]
    """
    x = _csr(csr_tensor, "csr_to_dense")
    zeros = Fill.apply(shape=x.shape, value=0, dtype=x.values._data.dtype)
    return tensor_scatter_add(zeros, _positions(x), x.values)


def csr_to_coo(tensor: CSRTensor) -> COOTensor:
    """The COOTensor of a 2-D CSRTensor (indices of the CSR indices' dtype).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 2))
        >>> print(ops.csr_to_coo(x).indices)
        [[0 0]
         [1 1]]
    """
    x = _csr(tensor, "csr_to_coo")
    if x.ndim != 2:
        raise ValueError(f"csr_to_coo: only 2-D CSRTensors are supported, got shape {x.shape}")
    rows = csr2coo(x.indptr, x.values.shape[0])
    return COOTensor(stack([cast(rows, x.indices._data.dtype), x.indices], 1), x.values, x.shape)


def csr_gather(indptr: Tensor, indices: Tensor, dense: Tensor, sparse_shape: Any) -> Tensor:
    """The values of ``dense`` at the positions of a CSR pattern (indptr, indices): (nnz,) +
    dense.shape[2:].

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> dense = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.csr_gather(indptr, indices, dense, (2, 2)))
        [1. 4.]
    """
    d = to_tensor(dense)
    rows = _i64(csr2coo(indptr, to_tensor(indices).shape[0]))
    return GatherND.apply(d, stack([rows, _i64(to_tensor(indices))], 1))


def _is_scalar(y: Tensor) -> bool:
    return y._data.size == 1 and y.ndim <= 2


def _dense_at(x: CSRTensor, y: Tensor, op: str) -> Tensor:
    """``y`` broadcast to x's dense shape, read at x's stored positions."""
    try:
        np.broadcast_shapes(tuple(y._data.shape), x.shape)
    except ValueError:
        raise ValueError(f"{op}: a dense tensor of shape {tuple(y.shape)} does not broadcast to the sparse "
                         f"shape {x.shape}") from None
    return GatherND.apply(broadcast_to(y, x.shape), _positions(x))


def csr_mul(x: CSRTensor, y: Any) -> Any:
    """``x * y`` on the stored values (``y`` broadcast to x's shape): a CSRTensor; for a single-number ``y``
    MindSpore returns the product of the values as a plain Tensor, and so does this.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 2))
        >>> print(ops.csr_mul(x, Tensor(np.array([2.0, 4.0]), ms.float32)).values)
        [2. 8.]
    """
    x = _csr(x, "csr_mul")
    vals, y = promote(x.values, y)
    if _is_scalar(y):
        return reshape(mul(vals, reshape(y, ())), x.values.shape)
    return CSRTensor(x.indptr, x.indices, mul(vals, _dense_at(x, y, "csr_mul")), x.shape)


def csr_div(x: CSRTensor, y: Any) -> Any:
    """``x / y`` on the stored values (``y`` broadcast to x's shape); a single-number ``y`` gives the values
    as a plain Tensor (as MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 2))
        >>> print(ops.csr_div(x, Tensor(np.array([2.0, 4.0]), ms.float32)).values)
        [0.5 0.5]
    """
    x = _csr(x, "csr_div")
    vals, y = promote(x.values, y)
    if _is_scalar(y):
        return reshape(div(vals, reshape(y, ())), x.values.shape)
    return CSRTensor(x.indptr, x.indices, div(vals, _dense_at(x, y, "csr_div")), x.shape)


def csr_mm_dense(a: CSRTensor, matrix: Tensor) -> Tensor:
    """The dense product of a (M, N) CSRTensor and a dense (N, K) tensor."""
    a = _csr(a, "CSRTensor.mm")
    m = to_tensor(matrix)
    if a.ndim != 2 or m.ndim != 2 or m._data.shape[0] != a.shape[1]:
        raise ValueError(f"CSRTensor.mm: shapes {a.shape} and {tuple(m.shape)} do not multiply")
    vals, m = promote(a.values, m)
    contrib = mul(expand_dims(vals, 1), Gather.apply(m, _i64(a.indices), axis=0))       # (nnz, K)
    return unsorted_segment_sum(contrib, _rows(a), a.shape[0])


def csr_mv(csr_tensor: CSRTensor, dense: Tensor) -> Tensor:
    """The product of a (M, N) CSRTensor and a dense (N, 1) tensor: a dense (M, 1) tensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 2))
        >>> v = Tensor(np.array([[1.0], [1.0]]), ms.float32)
        >>> print(ops.csr_mv(x, v))
        [[1.]
         [2.]]
    """
    d = to_tensor(dense)
    if d.ndim == 1:
        d = reshape(d, (-1, 1))
    return csr_mm_dense(_csr(csr_tensor, "csr_mv"), d)


def _dense_for_mm(x: CSRTensor, transpose_it: bool) -> tuple[Tensor, Tensor]:
    """(values as dense, 1 at stored positions) of a 2-D CSRTensor, transposed when asked."""
    dense = csr_to_dense(x)
    ones = add(cast(zeros_like(x.values), np.float32), 1.0)
    pattern = csr_to_dense(CSRTensor(x.indptr, x.indices, ones, x.shape))
    if transpose_it:
        dense, pattern = transpose(dense, (1, 0)), transpose(pattern, (1, 0))
    return dense, pattern


def csr_mm(a: CSRTensor, b: CSRTensor, trans_a: bool = False, trans_b: bool = False, adjoint_a: bool = False,
           adjoint_b: bool = False) -> CSRTensor:
    """The product of two 2-D CSRTensors (optionally transposed; for real values the adjoint is the
    transpose), as a CSRTensor whose pattern is every position some stored pair contributes to.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 2))
        >>> y = ops.csr_mm(x, x)
        >>> print(y.to_dense())
        [[1. 0.]
         [0. 4.]]
    """
    from cellonnx.ops.prims.linalg import matmul
    a, b = _csr(a, "csr_mm"), _csr(b, "csr_mm")
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"csr_mm: both CSRTensors must be 2-D, got {a.shape} and {b.shape}")
    da, pa = _dense_for_mm(a, trans_a or adjoint_a)
    db, pb = _dense_for_mm(b, trans_b or adjoint_b)
    if da._data.shape[1] != db._data.shape[0]:
        raise ValueError(f"csr_mm: shapes {tuple(da.shape)} and {tuple(db.shape)} do not multiply")
    da, db = promote(da, db)
    product = matmul(da, db)
    idx = transpose(NonZero.apply(matmul(pa, pb), strict=False), (1, 0))
    rows, cols = unbind(idx, 1)
    dt = a.indptr._data.dtype
    shape = (int(product._data.shape[0]), int(product._data.shape[1]))
    return CSRTensor(coo2csr(cast(rows, dt), shape[0]), cast(cols, dt), GatherND.apply(product, idx), shape)


def csr_reduce_sum(csr_tensor: CSRTensor, axis: int) -> Tensor:
    """The sums of a 2-D CSRTensor's rows (``axis`` 1: shape (M, 1)) or columns (``axis`` 0: (1, N)).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 2))
        >>> print(ops.csr_reduce_sum(x, 1))
        [[1.]
         [2.]]
    """
    x = _csr(csr_tensor, "csr_reduce_sum")
    if axis not in (0, 1, -1, -2) or x.ndim != 2:
        raise ValueError(f"csr_reduce_sum: axis must be 0 or 1 of a 2-D CSRTensor, got axis {axis} and shape "
                         f"{x.shape}")
    if axis % 2 == 1:
        return reshape(unsorted_segment_sum(x.values, _rows(x), x.shape[0]), (x.shape[0], 1))
    return reshape(unsorted_segment_sum(x.values, _i64(x.indices), x.shape[1]), (1, x.shape[1]))


def csr_softmax(logits: CSRTensor, dtype: Any) -> CSRTensor:
    """The softmax of each row's stored values (rows without values stay empty), in ``dtype``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 2]), ms.int32)
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> values = Tensor(np.array([0.0, 0.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (1, 2))
        >>> print(ops.csr_softmax(x, ms.float32).values)
        [0.5 0.5]
    """
    x = _csr(logits, "csr_softmax")
    vals = cast(x.values, dtypes.to_numpy(dtype))
    if not is_float_dtype(vals._data.dtype):
        raise TypeError(f"csr_softmax: dtype must be a float type, got {dtype}")
    rows = _rows(x)
    peak = Gather.apply(unsorted_segment_max(vals, rows, x.shape[0]), rows, axis=0)
    e = exp(sub(vals, peak))
    total = Gather.apply(unsorted_segment_sum(e, rows, x.shape[0]), rows, axis=0)
    return CSRTensor(x.indptr, x.indices, div(e, total), x.shape)


def csr_add(a: CSRTensor, b: CSRTensor, alpha: Any, beta: Any) -> CSRTensor:
    """``alpha * a + beta * b`` for two CSRTensors of one shape (``alpha`` / ``beta`` numbers or tensors that
    broadcast to it); the pattern is the union of theirs, zeros from cancellation kept (as MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 2))
        >>> y = ops.csr_add(x, x, Tensor(1.0, ms.float32), Tensor(2.0, ms.float32))
        >>> print(y.values)
        [3. 6.]
    """
    a, b = _csr(a, "csr_add"), _csr(b, "csr_add")
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError(f"csr_add: the CSRTensors must be 2-D of one shape, got {a.shape} and {b.shape}")
    va, vb = promote(a.values, b.values)
    al, be = cast(to_tensor(alpha), va._data.dtype), cast(to_tensor(beta), va._data.dtype)
    sa = mul(va, reshape(al, ()) if _is_scalar(al) else _dense_at(a, al, "csr_add"))
    sb = mul(vb, reshape(be, ()) if _is_scalar(be) else _dense_at(b, be, "csr_add"))
    coords, merged, _ = _merge(concat([_positions(a), _positions(b)], 0), concat([sa, sb], 0), a.shape)
    rows, cols = unbind(coords, 1)
    dt = a.indptr._data.dtype
    return CSRTensor(coo2csr(cast(rows, dt), a.shape[0]), cast(cols, a.indices._data.dtype), merged, a.shape)


__all__ = ["coalesce", "coo2csr", "coo_add", "coo_concat", "csr2coo", "csr_add", "csr_div", "csr_gather",
           "csr_mm", "csr_mul", "csr_mv", "csr_reduce_sum", "csr_softmax", "csr_to_coo", "csr_to_dense",
           "dense_to_sparse_coo", "dense_to_sparse_csr", "make_row_tensor", "make_sparse_tensor",
           "row_tensor_add"]
