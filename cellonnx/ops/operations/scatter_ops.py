"""MindSpore's scatter, segment, unique and index operator classes beyond array_ops.py (``ops.ScatterMul``,
``ops.ScatterNdMax``, ``ops.TensorScatterDiv``, ``ops.UnsortedSegmentMax``, ``ops.Unique``, ``ops.Tril``,
``ops.SearchSorted``, ``ops.SpaceToBatchND`` ...): table rows over the functional ops (see table.py). The
``Scatter*`` classes update their Parameter input in place, as the functional ``scatter_*`` ops do."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes
from cellonnx.ops.operations._util import ints  # noqa: F401 (the rows' twins read it)
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _unique_consecutive(x: Tensor, dim: Any) -> tuple[Tensor, Tensor, Tensor]:
    """MindSpore's UniqueConsecutive gives (output, inverse indices, counts) whatever its flags say."""
    from cellonnx.ops import unique_consecutive
    return unique_consecutive(x, True, True, dim)


def _searchsorted(sorted_sequence: Tensor, values: Tensor, sorter: Any, dtype: Any, right: bool) -> Tensor:
    from cellonnx.ops import searchsorted
    if dtypes.dtype(dtype) not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"For 'SearchSorted', the 'dtype' must be int32 or int64, but got {dtype}.")
    return searchsorted(sorted_sequence, values, out_int32=dtypes.dtype(dtype) == dtypes.int32, right=right,
                        sorter=sorter)


ROWS = [
    # ---- updating scatters (in place on a Parameter)
    Row("ScatterMul", "use_locking=False", "input_x, indices, updates",
        "scatter_mul(input_x, indices, updates)",
        summary="Multiplies the rows ``indices`` of the Parameter ``input_x`` by ``updates``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ms.float32), name="x")
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> updates = Tensor(np.array([[2.0, 2.0, 2.0], [0.5, 1.0, 3.0]]), ms.float32)
        >>> print(ops.ScatterMul()(input_x, indices, updates))
        [[ 2.  4.  6.]
         [ 2.  5. 18.]]
        """),
    Row("ScatterDiv", "use_locking=False", "input_x, indices, updates",
        "scatter_div(input_x, indices, updates)",
        summary="Divides the rows ``indices`` of the Parameter ``input_x`` by ``updates``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([[6.0, 6.0, 6.0], [4.0, 4.0, 4.0]]), ms.float32), name="x")
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> updates = Tensor(np.array([[2.0, 3.0, 6.0], [4.0, 2.0, 1.0]]), ms.float32)
        >>> print(ops.ScatterDiv()(input_x, indices, updates))
        [[3. 2. 1.]
         [1. 2. 4.]]
        """),
    Row("ScatterMax", "use_locking=False", "input_x, indices, updates",
        "scatter_max(input_x, indices, updates)",
        summary="Sets the rows ``indices`` of the Parameter ``input_x`` to their maximum with ``updates``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]]), ms.float32), name="x")
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> updates = Tensor(np.array([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]), ms.float32)
        >>> print(ops.ScatterMax()(input_x, indices, updates))
        [[2. 5. 3.]
         [4. 3. 6.]]
        """),
    Row("ScatterMin", "use_locking=False", "input_x, indices, updates",
        "scatter_min(input_x, indices, updates)",
        summary="Sets the rows ``indices`` of the Parameter ``input_x`` to their minimum with ``updates``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]]), ms.float32), name="x")
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> updates = Tensor(np.array([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]), ms.float32)
        >>> print(ops.ScatterMin()(input_x, indices, updates))
        [[1. 2. 2.]
         [3. 2. 3.]]
        """),
    Row("ScatterNdMul", "use_locking=False", "input_x, indices, updates",
        "scatter_nd_mul(input_x, indices, updates)",
        summary="Multiplies the Parameter ``input_x`` by ``updates`` at the index vectors ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), ms.float32), name="x")
        >>> indices = Tensor(np.array([[2], [4], [1], [7]]), ms.int32)
        >>> updates = Tensor(np.array([6, 7, 8, 9]), ms.float32)
        >>> print(ops.ScatterNdMul()(input_x, indices, updates))
        [ 1. 16. 18.  4. 35.  6.  7. 72.]
        """),
    Row("ScatterNdDiv", "use_locking=False", "input_x, indices, updates",
        "scatter_nd_div(input_x, indices, updates)",
        summary="Divides the Parameter ``input_x`` by ``updates`` at the index vectors ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), ms.float32), name="x")
        >>> indices = Tensor(np.array([[2], [4], [1], [7]]), ms.int32)
        >>> updates = Tensor(np.array([6, 8, 4, 2]), ms.float32)
        >>> print(ops.ScatterNdDiv()(input_x, indices, updates))
        [1.    0.5   0.5   4.    0.625 6.    7.    4.   ]
        """),
    Row("ScatterNdMax", "use_locking=False", "input_x, indices, updates",
        "scatter_nd_max(input_x, indices, updates)",
        summary="Sets the Parameter ``input_x`` to its maximum with ``updates`` at the indices ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), ms.float32), name="x")
        >>> indices = Tensor(np.array([[2], [4], [1], [7]]), ms.int32)
        >>> updates = Tensor(np.array([6, 1, 8, 9]), ms.float32)
        >>> print(ops.ScatterNdMax()(input_x, indices, updates))
        [1. 8. 6. 4. 5. 6. 7. 9.]
        """),
    Row("ScatterNdMin", "use_locking=False", "input_x, indices, updates",
        "scatter_nd_min(input_x, indices, updates)",
        summary="Sets the Parameter ``input_x`` to its minimum with ``updates`` at the indices ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), ms.float32), name="x")
        >>> indices = Tensor(np.array([[2], [4], [1], [7]]), ms.int32)
        >>> updates = Tensor(np.array([6, 1, 8, 9]), ms.float32)
        >>> print(ops.ScatterNdMin()(input_x, indices, updates))
        [1. 2. 3. 4. 1. 6. 7. 8.]
        """),
    # ---- functional scatters
    Row("ScatterNd", "", "indices, updates, shape", "scatter_nd(indices, updates, ints(shape))",
        summary="A zero tensor of ``shape`` with ``updates`` added at the positions ``indices`` name.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> indices = Tensor(np.array([[0, 1], [1, 1], [0, 1]]), ms.int32)
        >>> updates = Tensor(np.array([3.2, 1.1, 1.0]), ms.float32)
        >>> print(ops.ScatterNd()(indices, updates, (2, 3)))
        [[0.  4.2 0. ]
         [0.  1.1 0. ]]
        """),
    Row("TensorScatterMul", "", "input_x, indices, updates", "tensor_scatter_mul(input_x, indices, updates)",
        summary="A copy of ``input_x`` multiplied by ``updates`` at the index vectors of ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> input_x = Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), ms.float32)
        >>> indices = Tensor(np.array([[0, 0], [1, 2]]), ms.int32)
        >>> updates = Tensor(np.array([2.0, 0.5]), ms.float32)
        >>> print(ops.TensorScatterMul()(input_x, indices, updates))
        [[-0.2  0.3  3.6]
         [ 0.4  0.5 -1.6]]
        """),
    Row("TensorScatterDiv", "", "input_x, indices, updates", "tensor_scatter_div(input_x, indices, updates)",
        summary="A copy of ``input_x`` divided by ``updates`` at the index vectors of ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> input_x = Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), ms.float32)
        >>> indices = Tensor(np.array([[0, 0], [1, 2]]), ms.int32)
        >>> updates = Tensor(np.array([2.0, 0.5]), ms.float32)
        >>> print(ops.TensorScatterDiv()(input_x, indices, updates))
        [[-0.05  0.3   3.6 ]
         [ 0.4   0.5  -6.4 ]]
        """),
    Row("TensorScatterMax", "", "input_x, indices, updates", "tensor_scatter_max(input_x, indices, updates)",
        summary="A copy of ``input_x`` holding its maximum with ``updates`` at the indices ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> input_x = Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), ms.float32)
        >>> indices = Tensor(np.array([[0, 0], [1, 2]]), ms.int32)
        >>> updates = Tensor(np.array([1.0, -5.0]), ms.float32)
        >>> print(ops.TensorScatterMax()(input_x, indices, updates))
        [[ 1.   0.3  3.6]
         [ 0.4  0.5 -3.2]]
        """),
    Row("TensorScatterMin", "", "input_x, indices, updates", "tensor_scatter_min(input_x, indices, updates)",
        summary="A copy of ``input_x`` holding its minimum with ``updates`` at the indices ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> input_x = Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), ms.float32)
        >>> indices = Tensor(np.array([[0, 0], [1, 2]]), ms.int32)
        >>> updates = Tensor(np.array([1.0, -5.0]), ms.float32)
        >>> print(ops.TensorScatterMin()(input_x, indices, updates))
        [[-0.1  0.3  3.6]
         [ 0.4  0.5 -5. ]]
        """),
    Row("ScatterAddWithAxis", "axis=0", "input_x, indices, updates",
        "tensor_scatter_elements(input_x, indices, updates, axis, 'add')",
        summary="A copy of ``input_x`` with ``updates`` added at ``indices`` along ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> input_x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> indices = Tensor(np.array([[1, 0, 2], [0, 2, 1]]), ms.int32)
        >>> updates = Tensor(np.ones((2, 3)), ms.float32)
        >>> print(ops.ScatterAddWithAxis(axis=0)(input_x, indices, updates))
        [[ 2.  3.  3.]
         [ 5.  5.  7.]
         [ 7.  9. 10.]]
        """),
    Row("InplaceUpdate", "indices", "x, v", "inplace_update(x, v, indices)",
        summary="``x`` with the rows ``indices`` replaced by those of ``v``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4], [5, 6]]), ms.float32)
        >>> v = Tensor(np.array([[0.5, 1.0], [1.0, 1.5]]), ms.float32)
        >>> print(ops.InplaceUpdate(indices=(0, 1))(x, v))
        [[0.5 1. ]
         [1.  1.5]
         [5.  6. ]]
        """),
    Row("InplaceUpdateV2", "", "x, indices, v", "inplace_update(x, v, indices)",
        summary="``x`` with the rows ``indices`` (a call input) replaced by those of ``v``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4], [5, 6]]), ms.float32)
        >>> v = Tensor(np.array([[0.5, 1.0], [1.0, 1.5]]), ms.float32)
        >>> print(ops.InplaceUpdateV2()(x, (0, 1), v))
        [[0.5 1. ]
         [1.  1.5]
         [5.  6. ]]
        """),
    Row("IndexFill", "", "x, dim, index, value", "index_fill(x, dim, index, value)",
        summary="A copy of ``x`` with ``value`` written at positions ``index`` along axis ``dim``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> index = Tensor(np.array([0, 2]), ms.int32)
        >>> print(ops.IndexFill()(x, 1, index, Tensor(-1.0, ms.float32)))
        [[-1.  2. -1.]
         [-1.  5. -1.]
         [-1.  8. -1.]]
        """),
    # ---- segments
    Row("UnsortedSegmentSum", "", "input_x, segment_ids, num_segments",
        "unsorted_segment_sum(input_x, segment_ids, num_segments)",
        summary="The sums of the slices of ``input_x`` grouped by ``segment_ids`` (``num_segments`` groups).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> segment_ids = Tensor(np.array([0, 1, 0]), ms.int32)
        >>> print(ops.UnsortedSegmentSum()(x, segment_ids, 2))
        [[ 8. 10. 12.]
         [ 4.  5.  6.]]
        """),
    Row("UnsortedSegmentMax", "", "x, segment_ids, num_segments",
        "unsorted_segment_max(x, segment_ids, num_segments)",
        summary="The maxima of the slices of ``x`` grouped by ``segment_ids`` (``num_segments`` groups).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> segment_ids = Tensor(np.array([0, 1, 0]), ms.int32)
        >>> print(ops.UnsortedSegmentMax()(x, segment_ids, 2))
        [[7. 8. 9.]
         [4. 5. 6.]]
        """),
    Row("UnsortedSegmentMin", "", "x, segment_ids, num_segments",
        "unsorted_segment_min(x, segment_ids, num_segments)",
        summary="The minima of the slices of ``x`` grouped by ``segment_ids`` (``num_segments`` groups).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> segment_ids = Tensor(np.array([0, 1, 0]), ms.int32)
        >>> print(ops.UnsortedSegmentMin()(x, segment_ids, 2))
        [[1. 2. 3.]
         [4. 5. 6.]]
        """),
    Row("UnsortedSegmentProd", "", "x, segment_ids, num_segments",
        "unsorted_segment_prod(x, segment_ids, num_segments)",
        summary="The products of the slices of ``x`` grouped by ``segment_ids`` (``num_segments`` groups).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> segment_ids = Tensor(np.array([0, 1, 0]), ms.int32)
        >>> print(ops.UnsortedSegmentProd()(x, segment_ids, 2))
        [[ 7. 16. 27.]
         [ 4.  5.  6.]]
        """),
    # ---- unique values, sorting and sparse coordinates
    Row("Unique", "", "input_x", "unique(input_x)",
        summary="The unique elements of a 1-D tensor and, per element, its index among them.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 5, 2]), ms.int32)
        >>> output, idx = ops.Unique()(x)
        >>> print(output)
        [1 2 5]
        >>> print(idx)
        [0 1 2 1]
        """),
    Row("UniqueConsecutive", "return_inverse=False, return_counts=False, dim=None", "input",
        "_unique_consecutive(input, dim)",
        summary="Collapses runs of equal elements; also each element's run index and the run lengths.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 1, 2, 2, 3, 1, 1, 2]), ms.int32)
        >>> output, idx, counts = ops.UniqueConsecutive(True, True, None)(x)
        >>> print(output)
        [1 2 3 1 2]
        >>> print(idx)
        [0 0 1 1 2 3 3 4]
        >>> print(counts)
        [2 2 1 2 1]
        """),
    Row("UniqueWithPad", "", "x, pad_num", "unique_with_pad(x, pad_num)",
        summary="Unique (the unique elements and each element's index among them), padded to ``x``'s length.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 1, 5, 5, 4, 4, 3, 3, 2, 2]), ms.int32)
        >>> output, idx = ops.UniqueWithPad()(x, -1)
        >>> print(output)
        [ 1  5  4  3  2 -1 -1 -1 -1 -1]
        >>> print(idx)
        [0 0 1 1 2 2 3 3 4 4]
        """),
    Row("SearchSorted", "dtype=mstype.int64, right=False", "sorted_sequence, values, sorter=None",
        "_searchsorted(sorted_sequence, values, sorter, dtype, right)",
        summary="Where ``values`` would be inserted into ``sorted_sequence`` to keep it sorted.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> sorted_sequence = Tensor(np.array([[0, 1, 3, 5, 7], [2, 4, 6, 8, 10]]), ms.float32)
        >>> values = Tensor(np.array([[3, 6, 9], [3, 6, 9]]), ms.float32)
        >>> print(ops.SearchSorted()(sorted_sequence, values))
        [[2 4 5]
         [1 2 4]]
        >>> print(ops.SearchSorted(right=True)(sorted_sequence, values))
        [[3 4 5]
         [1 3 4]]
        """),
    Row("Bucketize", "boundaries", "input", "bucketize(input, boundaries)",
        summary="The index of the bucket of ``boundaries`` each element falls in.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.5, 2.5]), ms.float32)
        >>> print(ops.Bucketize(boundaries=[1.0, 2.0])(x))
        [0 1 2]
        """),
    Row("Coalesce", "", "x_indices, x_values, x_shape", "coalesce(x_indices, x_values, x_shape)",
        summary="Sorts the indices of a sparse COO tensor and sums the values of repeated indices.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x_indices = Tensor(np.array([[0, 0, 1], [1, 1, 2]]), ms.int64)
        >>> x_values = Tensor(np.array([1.0, 5.0, 4.0]), ms.float32)
        >>> x_shape = Tensor(np.array([3, 3]), ms.int64)
        >>> y_indices, y_values, y_shape = ops.Coalesce()(x_indices, x_values, x_shape)
        >>> print(y_indices)
        [[0 1]
         [1 2]]
        >>> print(y_values)
        [6. 4.]
        >>> print(y_shape)
        [3 3]
        """),
    # ---- triangles, grids and layouts
    Row("Tril", "diagonal=0", "x", "tril(x, diagonal)",
        summary="The lower triangle of a matrix (below diagonal ``diagonal``), the other elements zeroed.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> print(ops.Tril()(x))
        [[1. 0. 0.]
         [4. 5. 0.]
         [7. 8. 9.]]
        >>> print(ops.Tril(diagonal=-1)(x))
        [[0. 0. 0.]
         [4. 0. 0.]
         [7. 8. 0.]]
        """),
    Row("Triu", "diagonal=0", "input", "triu(input, diagonal)",
        summary="The upper triangle of a matrix (above diagonal ``diagonal``), the other elements zeroed.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> print(ops.Triu()(x))
        [[1. 2. 3.]
         [0. 5. 6.]
         [0. 0. 9.]]
        >>> print(ops.Triu(diagonal=1)(x))
        [[0. 2. 3.]
         [0. 0. 6.]
         [0. 0. 0.]]
        """),
    Row("TrilIndices", "row, col, offset=0, dtype=mstype.int32", "",
        "tril_indices(row, col, offset, dtype=dtype)",
        summary="The (row, column) coordinates of the lower triangle of a ``row`` x ``col`` matrix.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.TrilIndices(4, 3, -1, ms.int64)())
        [[1 2 2 3 3 3]
         [0 0 1 0 1 2]]
        """),
    Row("TriuIndices", "row, col, offset=0, dtype=mstype.int32", "",
        "triu_indices(row, col, offset, dtype=dtype)",
        summary="The (row, column) coordinates of the upper triangle of a ``row`` x ``col`` matrix.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.TriuIndices(3, 3, 1, ms.int64)())
        [[0 0 1]
         [1 2 2]]
        """),
    Row("Meshgrid", "indexing='xy'", "inputs", "meshgrid(*inputs, indexing=indexing)",
        summary="Coordinate grids from a tuple of 1-D tensors.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> y = Tensor(np.array([4, 5]), ms.int32)
        >>> xx, yy = ops.Meshgrid(indexing='xy')((x, y))
        >>> print(xx)
        [[1 2 3]
         [1 2 3]]
        >>> print(yy)
        [[4 4 4]
         [5 5 5]]
        """),
    Row("ReverseSequence", "seq_dim, batch_dim=0", "x, seq_lengths",
        "reverse_sequence(x, seq_lengths, seq_dim, batch_dim)",
        summary="Reverses the first ``seq_lengths[i]`` elements along ``seq_dim`` of each batch slice ``i``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> seq_lengths = Tensor(np.array([1, 2, 3]))
        >>> print(ops.ReverseSequence(seq_dim=1)(x, seq_lengths))
        [[1. 2. 3.]
         [5. 4. 6.]
         [9. 8. 7.]]
        """),
    Row("SpaceToBatchND", "block_shape, paddings", "input_x",
        "space_to_batch_nd(input_x, block_shape, paddings)",
        summary="Pads the spatial axes, then moves blocks of them into the batch axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(4).reshape(1, 1, 2, 2), ms.float32)
        >>> y = ops.SpaceToBatchND(block_shape=(2, 2), paddings=((0, 0), (0, 0)))(x)
        >>> print(y.shape)
        (4, 1, 1, 1)
        >>> print(y.asnumpy().ravel())
        [0. 1. 2. 3.]
        """),
    Row("BatchToSpaceND", "block_shape, crops", "input_x", "batch_to_space_nd(input_x, block_shape, crops)",
        summary="Moves blocks of the batch axis into the spatial axes and crops them.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(4).reshape(4, 1, 1, 1), ms.float32)
        >>> print(ops.BatchToSpaceND(block_shape=(2, 2), crops=((0, 0), (0, 0)))(x))
        [[[[0. 1.]
           [2. 3.]]]]
        """),
    Row("BatchToSpaceNDV2", "", "input_x, block_shape, crops",
        "batch_to_space_nd(input_x, ints(block_shape), ints(crops))",
        summary="BatchToSpaceND with the block shape and crops given at call time.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(4).reshape(4, 1, 1, 1), ms.float32)
        >>> block_shape = Tensor(np.array([2, 2]), ms.int32)
        >>> crops = [[0, 0], [0, 0]]
        >>> print(ops.BatchToSpaceNDV2()(x, block_shape, crops))
        [[[[0. 1.]
           [2. 3.]]]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
