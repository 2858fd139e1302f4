"""MindSpore's operator classes that have no functional op of their own, written over the functional ops
(see table.py): the bound searches (``ops.LowerBound``, ``ops.UpperBound``), ``ops.NthElement``,
``ops.InTopK``, ``ops.HistogramFixedWidth``, ``ops.Pdist``, the layout classes (``ops.ChannelShuffle``,
``ops.BatchToSpace``, ``ops.SpaceToBatch``, ``ops.Im2Col``, ``ops.DataFormatDimMap``,
``ops.DataFormatVecPermute``), ``ops.CompareAndBitpack`` and the sparse-coordinate classes
(``ops.SparseToDense``, ``ops.SparseTensorDenseAdd``, ``ops.SparseTensorDenseMatmul``,
``ops.SparseSlice``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.ops.operations._util import ints, one_of, pair
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _int(value: Any) -> int:
    return int(value.asnumpy().reshape(-1)[0]) if isinstance(value, Tensor) else int(value)


def _bound(sorted_x: Tensor, values: Tensor, out_type: Any, right: bool, op: str) -> Tensor:
    """LowerBound / UpperBound: for each row, where each value would be inserted into the sorted row."""
    if dtypes.dtype(out_type) not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"For '{op}', the 'out_type' must be int32 or int64, but got {out_type}.")
    if sorted_x.ndim != 2 or values.ndim != 2 or sorted_x.shape[0] != values.shape[0]:
        raise ValueError(f"For '{op}', 'sorted_x' and 'values' must be 2-D with the same number of rows, but "
                         f"got shapes {tuple(sorted_x.shape)} and {tuple(values.shape)}.")
    out = F.searchsorted(sorted_x, values, right=right)
    return F.cast(out, out_type)


def _nth_element(x: Tensor, n: Any, reverse: bool) -> Tensor:
    """The n-th smallest (largest with ``reverse``) value along the last axis."""
    k = _int(n)
    if not 0 <= k < int(x.shape[-1]):
        raise ValueError(f"For 'NthElement', n must be in [0, {int(x.shape[-1])}), but got {k}.")
    values, _ = F.sort(x, -1, reverse)
    return F.squeeze(F.narrow(values, -1, k, 1), -1)


def _in_top_k(x1: Tensor, x2: Tensor, k: int) -> Tensor:
    """Whether each target's score is among its row's ``k`` largest (fewer than ``k`` scores are larger)."""
    target = F.gather_elements(x1, 1, F.expand_dims(F.cast(x2, dtypes.int64), 1))
    larger = F.sum(F.cast(F.greater(x1, target), dtypes.int32), 1)
    return F.less(larger, k)


def _histogram_fixed_width(x: Tensor, value_range: Tensor, nbins: int, dtype: str) -> Tensor:
    """``nbins`` equal bins over ``value_range``; values below / above it count in the first / last bin."""
    if dtype != "int32":
        raise ValueError(f"For 'HistogramFixedWidth', the 'dtype' must be 'int32', but got {dtype!r}.")
    lo, hi = (float(v) for v in np.asarray(value_range.asnumpy(), np.float64).reshape(-1)[:2])
    scaled = F.floor(F.mul(F.sub(F.cast(x, np.float64), lo), nbins / (hi - lo)))
    index = F.cast(F.clamp(scaled, 0, nbins - 1), dtypes.int32)
    return F.cast(F.bincount(F.reshape(index, (-1,)), None, nbins), dtypes.int32)


def _pdist(x: Tensor, p: float) -> Tensor:
    """The p-norm distance between each pair of rows i < j of ``x`` (..., N, M), in row-major pair order."""
    n = int(x.shape[-2])
    rows, cols = np.triu_indices(n, 1)
    diff = F.sub(F.gather(x, Tensor(rows.astype(np.int64)), x.ndim - 2),
                 F.gather(x, Tensor(cols.astype(np.int64)), x.ndim - 2))
    if p == float("inf"):
        return F.amax(F.abs(diff), -1)
    if p == 0:
        return F.sum(F.cast(F.not_equal(diff, 0), x.dtype), -1)
    return F.pow(F.sum(F.pow(F.abs(diff), p), -1), 1.0 / p)


def _channel_shuffle(x: Tensor, group: int) -> Tensor:
    c = int(x.shape[-3])
    if group <= 0 or c % group:
        raise ValueError(f"For 'ChannelShuffle', the channels {c} must be divisible by the group {group}.")
    lead = tuple(x.shape[:-3])
    rest = tuple(x.shape[-2:])
    y = F.reshape(x, lead + (group, c // group) + rest)
    y = F.swapaxes(y, -4, -3)
    return F.reshape(y, lead + (c,) + rest)


def _im2col(x: Tensor, ksizes: Any, strides: Any, dilations: Any, pads: Any) -> Tensor:
    """The sliding blocks of ``x`` (N, C, H, W) as (N, C, kh * kw, L), as MindSpore's Im2Col lays them out."""
    k = pair(ksizes, "ksizes", "Im2Col", False)
    pad = pair(pads[0] if isinstance(pads, (tuple, list)) and len(pads) == 1 else pads, "pads", "Im2Col",
               False) if pads not in (0, (0,), [0]) else (0, 0)
    cols = F.unfold(x, k, pair(dilations, "dilations", "Im2Col", False), pad,
                    pair(strides, "strides", "Im2Col", False))
    n, c = int(x.shape[0]), int(x.shape[1])
    return F.reshape(cols, (n, c, k[0] * k[1], -1))


def _formats(prim: Any) -> None:
    for attr in ("src_format", "dst_format"):
        one_of(prim, attr, ("NHWC", "NCHW"), upper=True)


def _dim_map(x: Tensor, src: str, dst: str) -> Tensor:
    """Index ``d`` (in [-4, 4)) maps to where ``dst``'s d-th dimension sits in ``src`` (MindSpore's table)."""
    table = Tensor(np.array([src.index(c) for c in dst], np.int64))
    return F.cast(F.gather(table, F.cast(F.floor_mod(x, 4), dtypes.int64), 0), x.dtype)


def _vec_permute(x: Tensor, src: str, dst: str) -> Tensor:
    if int(x.shape[0]) != 4:
        raise ValueError(f"For 'DataFormatVecPermute', the input must have shape (4,) or (4, 2), but got "
                         f"{tuple(x.shape)}.")
    return F.gather(x, Tensor(np.array([src.index(c) for c in dst], np.int64)), 0)


def _bitpack(x: Tensor, threshold: Any) -> Tensor:
    n = int(x.shape[-1])
    if n % 8:
        raise ValueError(f"For 'CompareAndBitpack', the innermost dimension {n} must be divisible by 8.")
    bits = F.cast(F.greater(x, threshold), dtypes.int32)
    bits = F.reshape(bits, tuple(x.shape[:-1]) + (n // 8, 8))
    weights = Tensor(np.array([128, 64, 32, 16, 8, 4, 2, 1], np.int32))
    return F.cast(F.sum(F.mul(bits, weights), -1), dtypes.uint8)


def _dense(indices: Tensor, values: Tensor, shape: Any) -> Tensor:
    return F.scatter_nd(indices, values, ints(shape))


def _sparse_dense_matmul(indices: Tensor, values: Tensor, shape: Any, dense: Tensor, adjoint_st: bool,
                         adjoint_dt: bool) -> Tensor:
    a = _dense(indices, values, shape)
    b = F.swapaxes(dense, 0, 1) if adjoint_dt else dense
    return F.matmul(F.swapaxes(a, 0, 1) if adjoint_st else a, b)


def _sparse_slice(indices: Any, values: Any, shape: Any, start: Any, size: Any) -> tuple[Tensor, Tensor,
                                                                                         Tensor]:
    """The entries of a COO tensor inside the box ``[start, start + size)``: their indices relative to
    ``start`` (int64), their values (gathered, so they get gradients) and the box clipped to the shape."""
    op = "SparseSlice"
    arrays = []
    for name, t in (("indices", indices), ("values", values), ("shape", shape), ("start", start),
                    ("size", size)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(t).__name__}.")
        arrays.append(t.asnumpy() if name != "values" else None)
    idx, _, dense, begin, extent = arrays
    if idx.ndim != 2 or values.ndim != 1 or idx.shape[0] != int(values.shape[0]):
        raise ValueError(f"For '{op}', indices must be (N, R) and values (N,), but got {idx.shape} and "
                         f"{tuple(values.shape)}.")
    rank = idx.shape[1]
    for name, arr in (("shape", dense), ("start", begin), ("size", extent)):
        if arr.shape != (rank,):
            raise ValueError(f"For '{op}', '{name}' must be ({rank},), but got {arr.shape}.")
        if arr.dtype != np.int64:
            raise TypeError(f"For '{op}', the dtype of '{name}' must be int64, but got {arr.dtype}.")
    if idx.dtype != np.int64:
        raise TypeError(f"For '{op}', the dtype of 'indices' must be int64, but got {idx.dtype}.")
    if np.any(begin < 0) or np.any(extent < 0):
        raise ValueError(f"For '{op}', 'start' and 'size' must be non-negative, but got {begin.tolist()} "
                         f"and {extent.tolist()}.")
    end = np.minimum(begin + extent, dense)
    keep = np.nonzero(np.all((idx >= begin) & (idx < end), axis=1))[0]
    out_shape = np.maximum(end - begin, 0).astype(np.int64)
    return (Tensor((idx[keep] - begin).astype(np.int64)), F.gather(values, Tensor(keep.astype(np.int64)), 0),
            Tensor(out_shape))


ROWS = [
    Row("LowerBound", "out_type=mstype.int32", "sorted_x, values",
        "_bound(sorted_x, values, out_type, False, 'LowerBound')",
        summary="Per row, the first index of ``sorted_x`` whose value is not less than each of ``values``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> sorted_x = Tensor(np.arange(12).reshape(3, 4), ms.int8)
        >>> values = Tensor(np.array([[3], [4], [8]]), ms.int8)
        >>> print(ops.LowerBound()(sorted_x, values))
        [[3]
         [0]
         [0]]
        """),
    Row("UpperBound", "out_type=mstype.int32", "sorted_x, values",
        "_bound(sorted_x, values, out_type, True, 'UpperBound')",
        summary="Per row, the first index of ``sorted_x`` whose value is greater than each of ``values``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> sorted_x = Tensor(np.arange(12).reshape(3, 4), ms.int8)
        >>> values = Tensor(np.array([[3], [6], [9]]), ms.int8)
        >>> print(ops.UpperBound()(sorted_x, values))
        [[4]
         [3]
         [2]]
        """),
    Row("NthElement", "reverse=False", "input, n", "_nth_element(input, n, reverse)",
        summary="The ``n``-th smallest (or with ``reverse`` largest) value along the last axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 7, 3], [9, 5, 6]]), ms.int8)
        >>> print(ops.NthElement()(x, 1))
        [3 6]
        >>> print(ops.NthElement(reverse=True)(x, 0))
        [7 9]
        """),
    Row("InTopK", "k", "x1, x2", "_in_top_k(x1, x2, k)",
        summary="Whether each target class is among the ``k`` largest predictions of its row.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.1, 0.8, 0.1], [0.5, 0.2, 0.3]]), ms.float32)
        >>> targets = Tensor(np.array([1, 2]), ms.int32)
        >>> print(ops.InTopK(1)(x, targets))
        [ True False]
        """),
    Row("HistogramFixedWidth", "nbins, dtype='int32'", "x, range",
        "_histogram_fixed_width(x, range, nbins, dtype)",
        summary="Counts of ``x`` in ``nbins`` equal bins over ``range`` (values outside go to the end bins).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]), ms.float32)
        >>> print(ops.HistogramFixedWidth(5)(x, Tensor(np.array([0.0, 5.0]), ms.float32)))
        [2 1 1 0 2]
        """),
    Row("Pdist", "p=2.0", "x", "_pdist(x, p)",
        summary="The p-norm distances between every pair of rows of ``x``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]]), ms.float32)
        >>> print(ops.Pdist(p=2.0)(x))
        [ 5. 10.  5.]
        """),
    Row("ChannelShuffle", "group", "x", "_channel_shuffle(x, group)",
        summary="Shuffles the channels of an NCHW input between ``group`` groups.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(4).reshape(1, 4, 1, 1), ms.int32)
        >>> print(ops.ChannelShuffle(group=2)(x).reshape(-1))
        [0 2 1 3]
        """),
    Row("BatchToSpace", "block_size, crops", "input_x",
        "batch_to_space_nd(input_x, (block_size, block_size), crops)",
        summary="Moves ``block_size`` x ``block_size`` blocks of the batch axis into H and W, then crops.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(4).reshape(4, 1, 1, 1), ms.float32)
        >>> print(ops.BatchToSpace(block_size=2, crops=[[0, 0], [0, 0]])(x))
        [[[[0. 1.]
           [2. 3.]]]]
        """),
    Row("SpaceToBatch", "block_size, paddings", "input_x",
        "space_to_batch_nd(input_x, (block_size, block_size), paddings)",
        summary="Pads H and W, then moves ``block_size``-square blocks of them into the batch axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(4).reshape(1, 1, 2, 2), ms.float32)
        >>> y = ops.SpaceToBatch(block_size=2, paddings=[[0, 0], [0, 0]])(x)
        >>> print(y.shape)
        (4, 1, 1, 1)
        >>> print(y.asnumpy().ravel())
        [0. 1. 2. 3.]
        """),
    Row("Im2Col", "ksizes, strides=1, dilations=1, pads=0", "x",
        "_im2col(x, ksizes, strides, dilations, pads)",
        summary="The sliding ``ksizes`` windows of NCHW input as columns: ``(N, C, kh * kw, windows)``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> y = ops.Im2Col(ksizes=2, strides=2)(x)
        >>> print(y.shape)
        (1, 1, 4, 4)
        >>> print(y[0, 0])
        [[ 0.  2.  8. 10.]
         [ 1.  3.  9. 11.]
         [ 4.  6. 12. 14.]
         [ 5.  7. 13. 15.]]
        """),
    Row("DataFormatDimMap", "src_format='NHWC', dst_format='NCHW'", "input_x",
        "_dim_map(input_x, src_format, dst_format)", _formats,
        summary="The axis indices of layout ``src_format`` mapped to where they sit in ``dst_format``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.DataFormatDimMap()(Tensor(np.array([0, 1, 2, 3]), ms.int32)))
        [0 3 1 2]
        """),
    Row("DataFormatVecPermute", "src_format='NHWC', dst_format='NCHW'", "input_x",
        "_vec_permute(input_x, src_format, dst_format)", _formats,
        summary="A shape (or per-axis) vector in layout ``src_format`` permuted to layout ``dst_format``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.DataFormatVecPermute()(Tensor(np.array([1, 2, 3, 4]), ms.int32)))
        [1 4 2 3]
        """),
    Row("CompareAndBitpack", "", "x, threshold", "_bitpack(x, threshold)",
        summary="``x > threshold`` packed eight elements to a uint8 along the last axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), ms.float32)
        >>> print(ops.CompareAndBitpack()(x, Tensor(6, ms.float32)))
        [3]
        """),
    Row("SparseToDense", "", "indices, values, sparse_shape", "_dense(indices, values, sparse_shape)",
        summary="The dense tensor of shape ``sparse_shape`` with ``values`` at ``indices``, zeros elsewhere.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> indices = Tensor(np.array([[0, 1], [1, 2]]), ms.int64)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.SparseToDense()(indices, values, (3, 4)))
        [[0. 1. 0. 0.]
         [0. 0. 2. 0.]
         [0. 0. 0. 0.]]
        """),
    Row("SparseSlice", "", "indices, values, shape, start, size",
        "_sparse_slice(indices, values, shape, start, size)",
        summary="The part of a sparse COO tensor in the box ``start`` / ``size``: indices, values, shape.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> indices = Tensor(np.array([[0, 1], [1, 2], [1, 3], [2, 2]]), ms.int64)
        >>> values = Tensor(np.array([1, 2, 3, 4]), ms.int64)
        >>> shape = Tensor(np.array([3, 4]), ms.int64)
        >>> start = Tensor(np.array([0, 1]), ms.int64)
        >>> size = Tensor(np.array([2, 3]), ms.int64)
        >>> y_indices, y_values, y_shape = ops.SparseSlice()(indices, values, shape, start, size)
        >>> print(y_indices)
        [[0 0]
         [1 1]
         [1 2]]
        >>> print(y_values)
        [1 2 3]
        >>> print(y_shape)
        [2 3]
        """),
    Row("SparseTensorDenseAdd", "", "x1_indices, x1_values, x1_shape, x2",
        "add(x2, _dense(x1_indices, x1_values, x1_shape))",
        summary="The dense sum of a sparse COO tensor and a dense tensor.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x1_indices = Tensor(np.array([[0, 0], [0, 1]]), ms.int64)
        >>> x1_values = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> x1_shape = Tensor(np.array([3, 3]), ms.int64)
        >>> x2 = Tensor(np.ones((3, 3)), ms.float32)
        >>> print(ops.SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2))
        [[2. 2. 1.]
         [1. 1. 1.]
         [1. 1. 1.]]
        """),
    Row("SparseTensorDenseMatmul", "adjoint_st=False, adjoint_dt=False",
        "indices, values, sparse_shape, dense",
        "_sparse_dense_matmul(indices, values, sparse_shape, dense, adjoint_st, adjoint_dt)",
        summary="The product of a sparse COO matrix and a dense matrix (either may be adjointed).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> indices = Tensor(np.array([[0, 1], [1, 2]]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> dense = Tensor(np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]]), ms.float32)
        >>> print(ops.SparseTensorDenseMatmul()(indices, values, (3, 4), dense))
        [[2. 2.]
         [6. 6.]
         [0. 0.]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
