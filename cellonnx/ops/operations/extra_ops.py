"""More of MindSpore's operator classes written over the functional ops (see table.py): the sorted-segment
reductions (``ops.SegmentSum`` ...), ``ops.UnravelIndex``, ``ops.GLU``, ``ops.NuclearNorm``,
``ops.MatrixTriangularSolve``, ``ops.ListDiff``, ``ops.FillDiagonal``, ``ops.MaskedScatter``,
``ops.IndexPut``, ``ops.LRN``, ``ops.Complex`` and the random ``ops.LogNormalReverse`` / ``ops.Cauchy``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.ops.operations._util import ints, one_of
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _segment(kind: str, x: Tensor, segment_ids: Tensor) -> Tensor:
    """MindSpore's Segment* over sorted ``segment_ids``: ``segment_ids[-1] + 1`` rows; a segment with no
    element gives 0 (1 for the product)."""
    ids = np.asarray(segment_ids.asnumpy()).reshape(-1)
    if ids.size and np.any(np.diff(ids) < 0):
        raise ValueError(f"For 'Segment{kind.capitalize()}', the segment_ids must be sorted in ascending "
                         f"order, but got {ids.tolist()}.")
    n = int(ids[-1]) + 1 if ids.size else 0
    count = F.unsorted_segment_sum(F.ones((int(ids.size),), dtype=dtypes.float32), segment_ids, n)
    count = F.reshape(count, (n,) + (1,) * (x.ndim - 1))
    if kind == "sum":
        return F.unsorted_segment_sum(x, segment_ids, n)
    if kind == "prod":
        return F.unsorted_segment_prod(x, segment_ids, n)
    if kind == "mean":
        total = F.unsorted_segment_sum(x, segment_ids, n)
        return F.cast(F.div(total, F.maximum(count, 1)), x.dtype)
    fn = F.unsorted_segment_max if kind == "max" else F.unsorted_segment_min
    return F.where(F.greater(count, 0), fn(x, segment_ids, n), F.zeros((), dtype=x.dtype))


def _unravel_index(indices: Tensor, dims: Tensor) -> Tensor:
    """The coordinates of flat ``indices`` in an array of shape ``dims``: (len(dims),) + indices.shape."""
    shape = [int(d) for d in np.asarray(dims.asnumpy()).reshape(-1)]
    strides = [int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape))]
    coords = [F.floor_mod(F.floor_div(indices, s), d) for s, d in zip(strides, shape)]
    return F.stack(coords, 0)


def _glu(x: Tensor, axis: int) -> Tensor:
    a, b = F.tensor_split(x, 2, axis)  # as chunk for the even sizes GLU takes, two pieces at every size
    return F.mul(a, F.sigmoid(b))


def _triangular_solve(matrix: Tensor, rhs: Tensor, lower: bool, adjoint: bool) -> Tensor:
    """Solve with the lower (upper) triangle of ``matrix`` only, as MindSpore's MatrixTriangularSolve."""
    tri = F.tril(matrix) if lower else F.triu(matrix)
    return F.matrix_solve(tri, rhs, adjoint)


def _list_diff(x: Tensor, y: Tensor, out_idx: Any) -> tuple[Tensor, Tensor]:
    """The values of ``x`` that are not in ``y`` (in order) and their positions in ``x``."""
    if dtypes.dtype(out_idx) not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"For 'ListDiff', the 'out_idx' must be int32 or int64, but got {out_idx}.")
    found = F.amax(F.cast(F.equal(F.expand_dims(x, 1), F.expand_dims(y, 0)), dtypes.int32), 1)
    keep = F.equal(found, 0)
    positions = F.arange(0, int(x.shape[0]), dtype=out_idx)
    return F.masked_select(x, keep), F.masked_select(positions, keep)


def _fill_diagonal(x: Tensor, fill_value: float, wrap: bool) -> Tensor:
    mask = np.zeros(tuple(int(d) for d in x.shape), bool)
    np.fill_diagonal(mask, True, wrap=wrap)
    return F.where(Tensor(mask), F.full((), fill_value, dtype=x.dtype), x)


def _masked_scatter(x: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """``x`` with the positions where ``mask`` is True taking ``source``'s elements in order."""
    m = F.broadcast_to(mask, tuple(x.shape))
    flat = F.reshape(F.cast(m, dtypes.int64), (-1,))
    index = F.clamp(F.sub(F.cumsum(flat, 0), 1), 0, None)
    taken = F.reshape(F.gather(F.reshape(source, (-1,)), index, 0), tuple(x.shape))
    return F.where(m, taken, x)


def _index_put(x1: Tensor, x2: Tensor, indices: Any, accumulate: int) -> Tensor:
    """``x1[indices] = x2`` (``+=`` with ``accumulate``) for a tuple of 1-D index tensors."""
    if accumulate not in (0, 1):
        raise ValueError(f"For 'IndexPut', 'accumulate' must be 0 or 1, but got {accumulate}.")
    index = F.stack(_broadcast(list(indices)), -1)
    rest = tuple(x1.shape[len(indices):])
    updates = F.broadcast_to(F.cast(x2, x1.dtype), (int(index.shape[0]),) + rest)
    fn = F.tensor_scatter_add if accumulate else F.tensor_scatter_update
    return fn(x1, index, updates)


def _broadcast(tensors: list[Tensor]) -> list[Tensor]:
    shape = np.broadcast_shapes(*(tuple(t.shape) for t in tensors))
    return [F.broadcast_to(F.cast(t, dtypes.int64), shape) for t in tensors]


def _lrn(x: Tensor, depth_radius: int, bias: float, alpha: float, beta: float) -> Tensor:
    """``x / (bias + alpha * sum of x^2 over the 2 * depth_radius + 1 nearest channels) ** beta``."""
    c = int(x.shape[1])
    sq = F.pad(F.square(x), (0, 0, 0, 0, depth_radius, depth_radius))
    total = F.narrow(sq, 1, 0, c)
    for j in range(1, 2 * depth_radius + 1):
        total = F.add(total, F.narrow(sq, 1, j, c))
    return F.div(x, F.pow(F.add(F.mul(total, alpha), bias), beta))


def _complex(real: Tensor, imag: Tensor) -> Tensor:
    kind = dtypes.complex128 if real.dtype == dtypes.float64 else dtypes.complex64
    unit = Tensor(np.array(1j, kind.np_dtype))
    return F.add(F.cast(real, kind), F.mul(F.cast(imag, kind), unit))


def _log_normal(x: Tensor, mean: float, std: float) -> Tensor:
    return F.cast(F.exp(F.add(F.mul(F.standard_normal(tuple(x.shape)), std), mean)), x.dtype)


def _cauchy(size: Any, median: float, sigma: float) -> Tensor:
    u = F.uniform(ints(size), 0.0, 1.0)
    return F.add(F.mul(F.tan(F.mul(F.sub(u, 0.5), math.pi)), sigma), median)


def _lrn_setup(prim: Any) -> None:
    one_of(prim, "norm_region", ("ACROSS_CHANNELS",), upper=True)


ROWS = [
    Row("SegmentSum", "", "input_x, segment_ids", "_segment('sum', input_x, segment_ids)",
        summary="The sums of the runs of rows of ``input_x`` sharing a (sorted) segment id.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> segment_ids = Tensor(np.array([0, 0, 2]), ms.int64)
        >>> print(ops.SegmentSum()(x, segment_ids))
        [[5. 7. 9.]
         [0. 0. 0.]
         [7. 8. 9.]]
        """),
    Row("SegmentProd", "", "input_x, segment_ids", "_segment('prod', input_x, segment_ids)",
        summary="The products of the runs of rows of ``input_x`` sharing a (sorted) segment id.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> segment_ids = Tensor(np.array([0, 0, 2]), ms.int64)
        >>> print(ops.SegmentProd()(x, segment_ids))
        [[ 4. 10. 18.]
         [ 1.  1.  1.]
         [ 7.  8.  9.]]
        """),
    Row("SegmentMean", "", "input_x, segment_ids", "_segment('mean', input_x, segment_ids)",
        summary="The means of the runs of rows of ``input_x`` sharing a (sorted) segment id.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> segment_ids = Tensor(np.array([0, 0, 2]), ms.int64)
        >>> print(ops.SegmentMean()(x, segment_ids))
        [[2.5 3.5 4.5]
         [0.  0.  0. ]
         [7.  8.  9. ]]
        """),
    Row("SegmentMax", "", "input_x, segment_ids", "_segment('max', input_x, segment_ids)",
        summary="The maxima of the runs of rows of ``input_x`` sharing a (sorted) segment id.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> segment_ids = Tensor(np.array([0, 0, 2]), ms.int64)
        >>> print(ops.SegmentMax()(x, segment_ids))
        [[4. 5. 6.]
         [0. 0. 0.]
         [7. 8. 9.]]
        """),
    Row("SegmentMin", "", "input_x, segment_ids", "_segment('min', input_x, segment_ids)",
        summary="The minima of the runs of rows of ``input_x`` sharing a (sorted) segment id.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> segment_ids = Tensor(np.array([0, 0, 2]), ms.int64)
        >>> print(ops.SegmentMin()(x, segment_ids))
        [[1. 2. 3.]
         [0. 0. 0.]
         [7. 8. 9.]]
        """),
    Row("UnravelIndex", "", "indices, dims", "_unravel_index(indices, dims)",
        summary="The coordinates of flat indices in an array of shape ``dims``, one row per axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        """),
    Row("GLU", "axis=-1", "x", "_glu(x, axis)",
        summary=("Gated linear unit: the first half of ``x`` along ``axis`` times the sigmoid of the second "
                 "half."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 0.0, 0.0]]), ms.float32)
        >>> print(ops.GLU(axis=-1)(x))
        [[0.5 1. ]]
        """),
    Row("NuclearNorm", "dim=None, keepdim=False", "x", "norm(x, 'nuc', dim, keepdim)",
        summary="The nuclear norm (the sum of the singular values) of matrices over the two axes ``dim``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(1, 13).reshape(2, 2, 3), ms.float32)
        >>> print(ops.NuclearNorm(dim=[1, 2])(x).asnumpy().round(4))
        [10.2809 23.952 ]
        """),
    Row("MatrixTriangularSolve", "lower=True, adjoint=False", "matrix, rhs",
        "_triangular_solve(matrix, rhs, lower, adjoint)",
        summary="The solution of ``matrix @ X = rhs`` for triangular ``matrix`` (lower by default).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> matrix = Tensor(np.array([[3.0, 0.0, 0.0], [2.0, 1.0, 0.0], [1.0, 0.0, 1.0]]), ms.float32)
        >>> rhs = Tensor(np.array([[3.0], [4.0], [2.0]]), ms.float32)
        >>> print(ops.MatrixTriangularSolve()(matrix, rhs))
        [[1.]
         [2.]
         [1.]]
        """),
    Row("ListDiff", "out_idx=mstype.int32", "x, y", "_list_diff(x, y, out_idx)",
        summary="The values of ``x`` not in ``y`` (in order) and their positions in ``x``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(1, 7), ms.int32)
        >>> y = Tensor(np.array([1, 3, 5]), ms.int32)
        >>> out, idx = ops.ListDiff()(x, y)
        >>> print(out)
        [2 4 6]
        >>> print(idx)
        [1 3 5]
        """),
    Row("FillDiagonal", "fill_value, wrap=False", "input_x", "_fill_diagonal(input_x, fill_value, wrap)",
        summary="A copy of ``input_x`` with its main diagonal set to ``fill_value``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((5, 3)), ms.float32)
        >>> print(ops.FillDiagonal(fill_value=9.9, wrap=True)(x))
        [[9.9 1.  1. ]
         [1.  9.9 1. ]
         [1.  1.  9.9]
         [1.  1.  1. ]
         [9.9 1.  1. ]]
        """),
    Row("MaskedScatter", "", "input, mask, source", "_masked_scatter(input, mask, source)",
        summary="A copy of ``input`` with the positions where ``mask`` is True taken from ``source``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> mask = Tensor(np.array([True, False, True, False]))
        >>> source = Tensor(np.array([5.0, 6.0, 7.0, 8.0]), ms.float32)
        >>> print(ops.MaskedScatter()(x, mask, source))
        [5. 2. 6. 4.]
        """),
    Row("IndexPut", "accumulate=0", "x1, x2, indices", "_index_put(x1, x2, indices, accumulate)",
        summary="A copy of ``x1`` with ``x2`` written (or added) at the index tensors ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x1 = Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.int32)
        >>> x2 = Tensor(np.array([3]), ms.int32)
        >>> indices = [Tensor(np.array([0, 0]), ms.int32), Tensor(np.array([0, 1]), ms.int32)]
        >>> print(ops.IndexPut(accumulate=1)(x1, x2, indices))
        [[4 5 3]
         [4 5 6]]
        """),
    Row("LRN", "depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS'", "x",
        "_lrn(x, depth_radius, bias, alpha, beta)", _lrn_setup,
        summary="Local response normalization across channels: ``x / (bias + alpha * sum(x ** 2)) ** beta``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[[0.1], [0.2]], [[0.3], [0.4]]]]), ms.float32)
        >>> print(ops.LRN()(x).asnumpy().round(4))
        [[[[0.0953]
           [0.1826]]
        <BLANKLINE>
          [[0.286 ]
           [0.3651]]]]
        """),
    Row("Complex", "", "real, imag", "_complex(real, imag)",
        summary="The complex tensor ``real + 1j * imag``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> real = Tensor(np.array([1.0, 3.0]), ms.float32)
        >>> imag = Tensor(np.array([2.0, -1.0]), ms.float32)
        >>> print(ops.Complex()(real, imag))
        [1.+2.j 3.-1.j]
        """),
    Row("LogNormalReverse", "mean=1.0, std=2.0", "input", "_log_normal(input, mean, std)",
        summary="A tensor like ``input`` of samples of the log-normal distribution (``mean``, ``std``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((3, 4)), ms.float32)
        >>> out = ops.LogNormalReverse(mean=2.0, std=1.0)(x)
        >>> print(out.shape, bool((out.asnumpy() > 0).all()))
        (3, 4) True
        """),
    Row("Cauchy", "size, median=0.0, sigma=1.0", "", "_cauchy(size, median, sigma)",
        summary="Samples of the Cauchy distribution (``median``, ``sigma``) of shape ``size``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> out = ops.Cauchy(size=[2, 3], median=0.0, sigma=1.0)()
        >>> print(out.shape, out.dtype)
        (2, 3) Float32
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
