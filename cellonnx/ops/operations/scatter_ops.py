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
        "scatter_mul(input_x, indices, updates)"),
    Row("ScatterDiv", "use_locking=False", "input_x, indices, updates",
        "scatter_div(input_x, indices, updates)"),
    Row("ScatterMax", "use_locking=False", "input_x, indices, updates",
        "scatter_max(input_x, indices, updates)"),
    Row("ScatterMin", "use_locking=False", "input_x, indices, updates",
        "scatter_min(input_x, indices, updates)"),
    Row("ScatterNdMul", "use_locking=False", "input_x, indices, updates",
        "scatter_nd_mul(input_x, indices, updates)"),
    Row("ScatterNdDiv", "use_locking=False", "input_x, indices, updates",
        "scatter_nd_div(input_x, indices, updates)"),
    Row("ScatterNdMax", "use_locking=False", "input_x, indices, updates",
        "scatter_nd_max(input_x, indices, updates)"),
    Row("ScatterNdMin", "use_locking=False", "input_x, indices, updates",
        "scatter_nd_min(input_x, indices, updates)"),
    # ---- functional scatters
    Row("ScatterNd", "", "indices, updates, shape", "scatter_nd(indices, updates, ints(shape))"),
    Row("TensorScatterMul", "", "input_x, indices, updates", "tensor_scatter_mul(input_x, indices, updates)"),
    Row("TensorScatterDiv", "", "input_x, indices, updates", "tensor_scatter_div(input_x, indices, updates)"),
    Row("TensorScatterMax", "", "input_x, indices, updates", "tensor_scatter_max(input_x, indices, updates)"),
    Row("TensorScatterMin", "", "input_x, indices, updates", "tensor_scatter_min(input_x, indices, updates)"),
    Row("ScatterAddWithAxis", "axis=0", "input_x, indices, updates",
        "tensor_scatter_elements(input_x, indices, updates, axis, 'add')"),
    Row("InplaceUpdate", "indices", "x, v", "inplace_update(x, v, indices)"),
    Row("InplaceUpdateV2", "", "x, indices, v", "inplace_update(x, v, indices)"),
    Row("IndexFill", "", "x, dim, index, value", "index_fill(x, dim, index, value)"),
    # ---- segments
    Row("UnsortedSegmentSum", "", "input_x, segment_ids, num_segments",
        "unsorted_segment_sum(input_x, segment_ids, num_segments)"),
    Row("UnsortedSegmentMax", "", "x, segment_ids, num_segments",
        "unsorted_segment_max(x, segment_ids, num_segments)"),
    Row("UnsortedSegmentMin", "", "x, segment_ids, num_segments",
        "unsorted_segment_min(x, segment_ids, num_segments)"),
    Row("UnsortedSegmentProd", "", "x, segment_ids, num_segments",
        "unsorted_segment_prod(x, segment_ids, num_segments)"),
    # ---- unique values, sorting and sparse coordinates
    Row("Unique", "", "input_x", "unique(input_x)"),
    Row("UniqueConsecutive", "return_inverse=False, return_counts=False, dim=None", "input",
        "_unique_consecutive(input, dim)"),
    Row("UniqueWithPad", "", "x, pad_num", "unique_with_pad(x, pad_num)"),
    Row("SearchSorted", "dtype=mstype.int64, right=False", "sorted_sequence, values, sorter=None",
        "_searchsorted(sorted_sequence, values, sorter, dtype, right)"),
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
    Row("Coalesce", "", "x_indices, x_values, x_shape", "coalesce(x_indices, x_values, x_shape)"),
    # ---- triangles, grids and layouts
    Row("Tril", "diagonal=0", "x", "tril(x, diagonal)"),
    Row("Triu", "diagonal=0", "input", "triu(input, diagonal)"),
    Row("TrilIndices", "row, col, offset=0, dtype=mstype.int32", "",
        "tril_indices(row, col, offset, dtype=dtype)"),
    Row("TriuIndices", "row, col, offset=0, dtype=mstype.int32", "",
        "triu_indices(row, col, offset, dtype=dtype)"),
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
        "reverse_sequence(x, seq_lengths, seq_dim, batch_dim)"),
    Row("SpaceToBatchND", "block_shape, paddings", "input_x",
        "space_to_batch_nd(input_x, block_shape, paddings)"),
    Row("BatchToSpaceND", "block_shape, crops", "input_x", "batch_to_space_nd(input_x, block_shape, crops)"),
    Row("BatchToSpaceNDV2", "", "input_x, block_shape, crops",
        "batch_to_space_nd(input_x, ints(block_shape), ints(crops))"),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
