"""MindSpore's array operator classes (``ops.Reshape``, ``ops.Concat``, ``ops.Split``, ``ops.StridedSlice``,
``ops.Shape``, the scatter classes ...): table rows over the functional ops (see table.py)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.ops.operations._util import assign_to, axes, ints
from cellonnx.ops.operations.table import Row, build
from cellonnx.ops.prims._util import norm_axis, to_tensor
from cellonnx.ops.prims.math import cast, logical_and, mul, neg, sub
from cellonnx.ops.prims.shape import reshape, transpose
from cellonnx.tensor import Tensor


def _split(x: Tensor, axis: int, output_num: int) -> tuple[Tensor, ...]:
    from cellonnx.ops import split
    n = x.shape[norm_axis(axis, x.ndim, "Split")]  # a dynamic dim stays one: the pieces' sizes follow it
    if output_num < 1 or int(n) % output_num:
        raise ValueError(f"For 'Split', the size {int(n)} of axis {axis} must be divisible by output_num "
                         f"{output_num}.")
    return split(x, [n // output_num] * output_num, axis)


def _split_v(x: Tensor, size_splits: Any, split_dim: int, num_split: int) -> tuple[Tensor, ...]:
    from cellonnx.ops import split
    sizes = list(size_splits)
    if len(sizes) != num_split:
        raise ValueError(f"For 'SplitV', the length of size_splits {sizes} must equal num_split {num_split}.")
    if -1 in sizes:
        n = x.shape[norm_axis(split_dim, x.ndim, "SplitV")]
        sizes[sizes.index(-1)] = n - (sum(int(s) for s in sizes) + 1)
    return split(x, sizes, split_dim)


def _unstack(x: Tensor, axis: int, num: int | None) -> tuple[Tensor, ...]:
    from cellonnx.ops import unbind
    out = unbind(x, axis)
    if num is not None and len(out) != num:
        raise ValueError(f"For 'Unstack', num {num} differs from the size {len(out)} of axis {axis}.")
    return out


def _squeeze(x: Tensor, axis: Any) -> Tensor:
    from cellonnx.ops import squeeze
    ax = axes(axis)
    if ax is None:
        return squeeze(x)
    for a in (ax if isinstance(ax, tuple) else (ax,)):
        size = x.shape[norm_axis(a, x.ndim, "Squeeze")]
        if size != 1:
            raise ValueError(f"For 'Squeeze', the size of axis {a} must be 1, but got {size} (input shape "
                             f"{tuple(x.shape)}).")
    return squeeze(x, ax)


def _shape(x: Tensor) -> tuple:
    return tuple(to_tensor(x).shape)


def _tensor_shape(x: Tensor) -> Tensor:
    return Tensor(np.array(to_tensor(x).shape, dtype=np.int64))


def _copy(x: Tensor) -> Tensor:
    """A new tensor with ``x``'s value (an exact identity op, so gradients and tracing see through it)."""
    from cellonnx.ops import add, logical_and
    x = to_tensor(x)
    if x._data.dtype == np.bool_:
        return logical_and(x, True)
    return add(x, Tensor(np.zeros((), x._data.dtype)))


def _identity_n(x: Any) -> tuple[Tensor, ...]:
    if not isinstance(x, (tuple, list)) or not x:
        raise TypeError(f"For 'IdentityN', the input must be a non-empty tuple or list of Tensors, but got "
                        f"{x!r}")
    return tuple(_copy(t) for t in x)


def _range(start: Any, end: Any, step: Any, maxlen: int) -> Tensor:
    from cellonnx.ops import arange
    values = [v.asnumpy().item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if isinstance(start, Tensor):
        dtype = start.dtype if start.dtype.is_floating_point else dtypes.int64
    else:
        dtype = None
    if step == 0 or (isinstance(step, Tensor) and values[2] == 0):
        raise ValueError("For 'Range', the 'delta' can not be zero.")
    count = int(np.ceil((values[1] - values[0]) / values[2]))
    if count > maxlen:
        raise ValueError(f"For 'Range', the number of elements {count} exceeds maxlen {maxlen}.")
    return arange(*values, dtype=dtype)


def _fill(dtype: Any, shape: Any, value: Any) -> Tensor:
    from cellonnx.ops import full
    if isinstance(value, Tensor):
        value = value.asnumpy().item()
    return full(ints(shape), value, dtype=dtype)


def _fill_v2(shape: Any, value: Any) -> Tensor:
    from cellonnx.ops import broadcast_to
    value = to_tensor(value)
    return broadcast_to(reshape(value, ()), ints(shape))


def _fills(x: Tensor, value: Any) -> Tensor:
    from cellonnx.ops import full_like
    if isinstance(value, Tensor):
        value = value.asnumpy().item()
    return full_like(x, value)


def _scalar_to_tensor(x: Any, dtype: Any) -> Tensor:
    if isinstance(x, Tensor):
        return x if dtype is None else cast(x, dtype)
    if dtype is None:
        dtype = dtypes.float32 if isinstance(x, float) else \
            dtypes.bool_ if isinstance(x, bool) else dtypes.int64
    return Tensor(x, dtype)


def _tuple_to_array(x: Any) -> Tensor:
    x = tuple(x)
    if not x:
        raise ValueError("For 'TupleToArray', the input must be a non-empty tuple of numbers.")
    if any(type(v) is not type(x[0]) for v in x):
        raise TypeError("For 'TupleToArray', all elements of 'input_x' must be have same type.")
    return Tensor(np.array(x, np.int32 if isinstance(x[0], int) else np.float32))


def _scalar_cast(x: Any, t: Any) -> Any:
    if isinstance(x, Tensor):
        x = x.asnumpy().item()
    if isinstance(t, dtypes.DType):
        kind = np.dtype(t.np_dtype).kind
        t = bool if kind == "b" else int if kind in "iu" else float
    return t(x)


def _tensor_to_tuple(x: Tensor) -> tuple:
    return tuple(to_tensor(x).asnumpy().tolist())


def _invert_permutation(x: Any) -> tuple[int, ...]:
    perm = ints(x)
    if sorted(perm) != list(range(len(perm))):
        raise ValueError(f"For 'InvertPermutation', the input {perm} must be a permutation of 0 .. "
                         f"{len(perm) - 1}.")
    out = [0] * len(perm)
    for i, p in enumerate(perm):
        out[p] = i
    return tuple(out)


def _check_numerics(x: Tensor) -> Tensor:
    if not np.isfinite(to_tensor(x).asnumpy()).all():
        raise ValueError("For 'CheckNumerics', the input contains NaN or Inf values.")
    return x


def _padding(x: Tensor, pad_dim_size: int) -> Tensor:
    from cellonnx.ops import pad
    if x.ndim < 1 or x.shape[-1] != 1:
        raise ValueError(f"For 'Padding', the last dimension of 'x' must be 1, but got shape "
                         f"{tuple(x.shape)}.")
    return pad(x, (0, pad_dim_size - 1))


def _embedding_lookup(params: Tensor, indices: Any, offset: int) -> Tensor:
    from cellonnx.ops import gather, greater_equal, less, where
    idx = sub(to_tensor(indices), offset)
    valid = logical_and(greater_equal(idx, 0), less(idx, params.shape[0]))
    rows = gather(params, where(valid, idx, 0), 0)
    mask = cast(reshape(valid, tuple(valid.shape) + (1,) * (params.ndim - 1)), params._data.dtype)
    return mul(rows, mask)


def _depth_to_space(x: Tensor, block: int) -> Tensor:
    n, c, h, w = x.shape
    if c % (block * block):
        raise ValueError(f"For 'DepthToSpace', the channels {c} must be divisible by block_size ** 2 = "
                         f"{block * block}.")
    y = reshape(x, (n, block, block, c // (block * block), h, w))
    y = transpose(y, (0, 3, 4, 1, 5, 2))
    return reshape(y, (n, c // (block * block), h * block, w * block))


def _space_to_depth(x: Tensor, block: int) -> Tensor:
    n, c, h, w = x.shape
    if h % block or w % block:
        raise ValueError(f"For 'SpaceToDepth', the height {h} and width {w} must be divisible by block_size "
                         f"{block}.")
    y = reshape(x, (n, c, h // block, block, w // block, block))
    y = transpose(y, (0, 3, 5, 1, 2, 4))
    return reshape(y, (n, c * block * block, h // block, w // block))


def _indices(indices: Any) -> Tensor:
    if isinstance(indices, int):
        indices = (indices,)
    return Tensor(np.asarray(indices, dtype=np.int32)) if not isinstance(indices, Tensor) else indices


def _scatter(fn: Any, x: Tensor, indices: Any, updates: Tensor, op: str) -> Tensor:
    """``fn(x, indices, updates)`` written back into the Parameter ``x``."""
    return assign_to(x, fn(x, indices, updates), op)


def _scatter_add_rows(x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    from cellonnx.ops import index_add
    idx = to_tensor(indices)
    flat = reshape(idx, (-1,))
    upd = reshape(to_tensor(updates, x), (-1,) + tuple(x.shape[1:]))
    return index_add(x, flat, cast(upd, x._data.dtype), 0)


def _neg_updates(fn: Any) -> Any:
    return lambda x, indices, updates: fn(x, indices, neg(to_tensor(updates, x)))


def _index_add(x: Tensor, indices: Any, y: Tensor, axis: int) -> Tensor:
    from cellonnx.ops import index_add
    return assign_to(x, index_add(x, indices, y, axis), "IndexAdd")


def _inplace_add(x: Tensor, indices: Any, v: Tensor, sign: int) -> Tensor:
    from cellonnx.ops import index_add
    idx = _indices(indices)
    v = to_tensor(v, x)
    if v.ndim == x.ndim - 1:
        v = reshape(v, (1,) + tuple(v.shape))
    return index_add(x, idx, v if sign > 0 else neg(v), 0)


def _int32_indices(pair: tuple[Tensor, Tensor]) -> tuple[Tensor, Tensor]:
    """(values, indices) with MindSpore's int32 indices (Sort, TopK)."""
    values, indices = pair
    return values, cast(indices, np.int32)


def _dtype(x: Any) -> dtypes.DType:
    return to_tensor(x).dtype


ROWS = [
    # ---- shapes and layouts
    Row("Reshape", "", "input, shape", "reshape(input, ints(shape))",
        summary="``input`` with a new shape of the same size (one axis may be -1).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(6), ms.float32)
        >>> print(ops.Reshape()(x, (2, 3)))
        [[0. 1. 2.]
         [3. 4. 5.]]
        """),
    Row("Transpose", "", "input, dims", "transpose(input, ints(dims))",
        summary="``input`` with its axes permuted.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.Transpose()(x, (2, 0, 1)).shape
        (4, 2, 3)
        """),
    Row("TransposeView", "", "input, input_perm", "transpose(input, ints(input_perm))",
        summary="``input`` with its axes permuted (MindSpore returns a view; cellonnx a tensor).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(6).reshape(2, 3), ms.float32)
        >>> print(ops.TransposeView()(x, (1, 0)))
        [[0. 3.]
         [1. 4.]
         [2. 5.]]
        """),
    Row("TransposeExtView", "", "input, dim0, dim1", "swapaxes(input, dim0, dim1)",
        summary="``input`` with axes ``dim0`` and ``dim1`` swapped.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(6).reshape(1, 2, 3), ms.float32)
        >>> print(ops.TransposeExtView()(x, 1, 2).shape)
        (1, 3, 2)
        """),
    Row("ExpandDims", "", "input_x, axis", "expand_dims(input_x, axis)",
        summary="``input_x`` with a new axis of size 1 at ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> ops.ExpandDims()(x, 0).shape
        (1, 2, 2)
        """),
    Row("Squeeze", "axis=()", "input", "_squeeze(input, axis)",
        summary="``input`` without its axes of size 1 (those of ``axis``, or all of them).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((1, 3, 1)), ms.float32)
        >>> ops.Squeeze()(x).shape
        (3,)
        >>> ops.Squeeze(axis=0)(x).shape
        (3, 1)
        """),
    Row("Flatten", "", "input_x", "flatten(input_x)",
        summary="Flattens every axis but the first: ``(N, ...)`` to ``(N, -1)``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.Flatten()(x).shape
        (2, 12)
        """),
    Row("BroadcastTo", "shape", "input", "broadcast_to(input, ints(shape))",
        summary="``input`` broadcast to ``shape`` (-1 keeps an axis).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.BroadcastTo((2, 3))(x))
        [[1. 2. 3.]
         [1. 2. 3.]]
        """),
    Row("Expand", "", "x, shape", "broadcast_to(x, ints(shape))",
        summary="``x`` broadcast to ``shape`` (a tensor).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0], [2.0]]), ms.float32)
        >>> print(ops.Expand()(x, Tensor(np.array([2, 3]), ms.int32)))
        [[1. 1. 1.]
         [2. 2. 2.]]
        """),
    Row("Tile", "", "input, dims", "tile(input, ints(dims))",
        summary="``input`` repeated ``dims[i]`` times along each axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> print(ops.Tile()(x, (2, 1)))
        [[1 2]
         [3 4]
         [1 2]
         [3 4]]
        """),
    Row("DepthToSpace", "block_size", "x", "_depth_to_space(x, block_size)",
        summary="Moves blocks of channels of an NCHW input into space.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((1, 4, 2, 2)), ms.float32)
        >>> ops.DepthToSpace(block_size=2)(x).shape
        (1, 1, 4, 4)
        """),
    Row("SpaceToDepth", "block_size", "x", "_space_to_depth(x, block_size)",
        summary="Moves ``block_size`` x ``block_size`` blocks of the spatial axes into the channel axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(8).reshape(1, 2, 2, 2), ms.float32)
        >>> y = ops.SpaceToDepth(2)(x)
        >>> print(y.shape)
        (1, 8, 1, 1)
        >>> print(y.asnumpy().ravel())
        [0. 4. 1. 5. 2. 6. 3. 7.]
        """),
    Row("Padding", "pad_dim_size=8", "x", "_padding(x, pad_dim_size)",
        summary="Pads the last axis (of size 1) of ``x`` with zeros to length ``pad_dim_size``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[8], [10]]), ms.float32)
        >>> print(ops.Padding(pad_dim_size=4)(x))
        [[ 8.  0.  0.  0.]
         [10.  0.  0.  0.]]
        """),
    # ---- joining and splitting
    Row("Concat", "axis=0", "tensors", "cat(tensors, axis)",
        summary="Joins a tuple of tensors along an existing axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[0.0, 1.0], [2.0, 1.0]]), ms.float32)
        >>> b = Tensor(np.array([[5.0, 6.0]]), ms.float32)
        >>> print(ops.Concat(axis=0)((a, b)))
        [[0. 1.]
         [2. 1.]
         [5. 6.]]
        """),
    Row("ParallelConcat", "", "values", "cat(values, 0)",
        summary="Concatenates a list of tensors along the first axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2]]), ms.int32)
        >>> y = Tensor(np.array([[3, 4]]), ms.int32)
        >>> print(ops.ParallelConcat()([x, y]))
        [[1 2]
         [3 4]]
        """),
    Row("Stack", "axis=0", "x", "stack(x, axis)",
        summary="Joins a tuple of tensors of one shape along a new axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1, 2]), ms.int32)
        >>> b = Tensor(np.array([3, 4]), ms.int32)
        >>> print(ops.Stack(axis=1)([a, b]))
        [[1 3]
         [2 4]]
        """),
    Row("Pack", "axis=0", "x", "stack(x, axis)",
        summary="Stacks tensors of one shape along a new axis ``axis`` (``ops.Stack``'s old name).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2]), ms.float32)
        >>> y = Tensor(np.array([3, 4]), ms.float32)
        >>> print(ops.Pack()([x, y]))
        [[1. 2.]
         [3. 4.]]
        >>> print(ops.Pack(axis=1)([x, y]))
        [[1. 3.]
         [2. 4.]]
        """),
    Row("Unstack", "axis=0, num=None", "x", "_unstack(x, axis, num)",
        summary="The tensors along ``axis`` of ``x``, one per index.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.int32)
        >>> rows = ops.Unstack(axis=0)(x)
        >>> len(rows)
        2
        >>> print(rows[1])
        [4 5 6]
        """),
    Row("Unpack", "axis=0", "x", "_unstack(x, axis, None)",
        summary="Splits a tensor along ``axis`` into the tuple of its slices (``ops.Unstack``'s old name).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.int32)
        >>> print(ops.Unpack()(x))
        (Tensor(shape=[3], dtype=Int32, value= [1, 2, 3]), Tensor(shape=[3], dtype=Int32, value= [4, 5, 6]))
        """),
    Row("Split", "axis=0, output_num=1", "input_x", "_split(input_x, axis, output_num)",
        summary="Splits ``input_x`` along ``axis`` into ``output_num`` equal parts.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(8).reshape(2, 4), ms.int32)
        >>> left, right = ops.Split(axis=1, output_num=2)(x)
        >>> print(right)
        [[2 3]
         [6 7]]
        """),
    Row("SplitV", "size_splits, split_dim, num_split", "input_x",
        "_split_v(input_x, size_splits, split_dim, num_split)",
        summary="Splits ``input_x`` along ``split_dim`` in pieces of sizes ``size_splits`` (one may be -1).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.int32)
        >>> first, second = ops.SplitV(size_splits=[1, -1], split_dim=1, num_split=2)(x)
        >>> print(first)
        [[1]
         [4]
         [7]]
        >>> print(second)
        [[2 3]
         [5 6]
         [8 9]]
        """),
    # ---- slicing and gathering
    Row("Slice", "", "input, begin, size", "slice(input, ints(begin), ints(size))",
        summary="The slice of ``input`` that starts at ``begin`` and has shape ``size``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(12).reshape(3, 4), ms.int32)
        >>> print(ops.Slice()(x, (1, 0), (2, 3)))
        [[ 4  5  6]
         [ 8  9 10]]
        """),
    Row("StridedSlice", "begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0",
        "input_x, begin, end, strides",
        "strided_slice(input_x, ints(begin), ints(end), ints(strides), begin_mask, end_mask, ellipsis_mask, "
        "new_axis_mask, shrink_axis_mask)",
        summary="The slice ``input_x[begin:end:strides]`` per axis, with MindSpore's bit masks.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(12).reshape(3, 4), ms.int32)
        >>> print(ops.StridedSlice()(x, (0, 1), (3, 4), (2, 2)))
        [[ 1  3]
         [ 9 11]]
        """),
    Row("Gather", "batch_dims=0", "input_params, input_indices, axis",
        "gather(input_params, input_indices, axis, batch_dims)",
        summary="The slices of ``input_params`` at ``input_indices`` along ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> params = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.int32)
        >>> indices = Tensor(np.array([2, 0]), ms.int32)
        >>> print(ops.Gather()(params, indices, 0))
        [[7 8 9]
         [1 2 3]]
        >>> print(ops.Gather()(params, indices, 1))
        [[3 1]
         [6 4]
         [9 7]]
        """),
    Row("GatherV2", "", "params, indices, axis", "gather(params, indices, axis)",
        summary="The slices of ``params`` at ``indices`` along ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> params = Tensor(np.array([[1, 2, 7, 42], [3, 4, 54, 22], [2, 2, 55, 3]]), ms.float32)
        >>> indices = Tensor(np.array([1, 2]), ms.int32)
        >>> print(ops.GatherV2()(params, indices, 1))
        [[ 2.  7.]
         [ 4. 54.]
         [ 2. 55.]]
        """),
    Row("SparseGatherV2", "", "params, indices, axis", "gather(params, indices, axis)",
        summary="The slices of ``params`` at ``indices`` along ``axis`` (GatherV2 for sparse gradients).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> params = Tensor(np.array([[1, 2, 7, 42], [3, 4, 54, 22], [2, 2, 55, 3]]), ms.float32)
        >>> indices = Tensor(np.array([1, 2]), ms.int32)
        >>> print(ops.SparseGatherV2()(params, indices, 1))
        [[ 2.  7.]
         [ 4. 54.]
         [ 2. 55.]]
        """),
    Row("GatherD", "", "x, dim, index", "gather_elements(x, dim, index)",
        summary="The elements of ``x`` picked along ``dim`` by ``index``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> index = Tensor(np.array([[0, 0], [1, 0]]), ms.int32)
        >>> print(ops.GatherD()(x, 1, index))
        [[1 1]
         [4 3]]
        """),
    Row("GatherNd", "", "input_x, indices", "gather_nd(input_x, indices)",
        summary="Gathers the elements (or slices) of ``input_x`` at the index tuples of ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.int32)
        >>> indices = Tensor(np.array([[0, 2], [1, 0]]), ms.int32)
        >>> print(ops.GatherNd()(x, indices))
        [3 4]
        """),
    Row("EmbeddingLookup", "", "input_params, input_indices, offset",
        "_embedding_lookup(input_params, input_indices, offset)",
        summary="The rows ``input_indices - offset`` of ``input_params``; rows out of range give zeros.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> params = Tensor(np.array([[8, 9], [10, 11], [12, 13], [14, 15]]), ms.float32)
        >>> indices = Tensor(np.array([[5, 2], [8, 5]]), ms.int32)
        >>> print(ops.EmbeddingLookup()(params, indices, 4))
        [[[10. 11.]
          [ 0.  0.]]
        <BLANKLINE>
         [[ 0.  0.]
          [10. 11.]]]
        """),
    Row("Select", "", "condition, input, other", "where(condition, input, other)",
        summary="Elements of ``input`` where ``condition`` holds and of ``other`` elsewhere.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> cond = Tensor(np.array([True, False, True]), ms.bool_)
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([-1.0, -2.0, -3.0]), ms.float32)
        >>> print(ops.Select()(cond, x, y))
        [ 1. -2.  3.]
        """),
    Row("MaskedFill", "", "input_x, mask, value", "masked_fill(input_x, mask, value)",
        summary="``input_x`` with ``value`` where ``mask`` is True.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> mask = Tensor(np.array([True, False, True, False]), ms.bool_)
        >>> print(ops.MaskedFill()(x, mask, Tensor(0.0, ms.float32)))
        [0. 2. 0. 4.]
        """),
    Row("MaskedSelect", "", "input, mask", "masked_select(input, mask)",
        summary="The elements of ``input`` where ``mask`` is True, as a 1-D tensor.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3, 4]), ms.int32)
        >>> mask = Tensor(np.array([True, False, True, False]), ms.bool_)
        >>> print(ops.MaskedSelect()(x, mask))
        [1 3]
        """),
    Row("NonZero", "", "input", "nonzero(input)",
        summary="The indices of the non-zero elements of ``input``, one row each.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0, 1], [2, 0]]), ms.int32)
        >>> print(ops.NonZero()(x))
        [[0 1]
         [1 0]]
        """),
    Row("ReverseV2", "axis", "input", "flip(input, ints(axis))",
        summary="``input`` reversed along the axes of ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.int32)
        >>> print(ops.ReverseV2(axis=[1])(x))
        [[3 2 1]
         [6 5 4]]
        """),
    Row("Roll", "shifts, dims=None", "input", "roll(input, shifts, dims)",
        summary="``input`` rolled by ``shifts`` along ``dims``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0, 1, 2, 3, 4]), ms.int32)
        >>> print(ops.Roll(shifts=2, dims=0)(x))
        [3 4 0 1 2]
        """),
    Row("Sort", "axis=-1, descending=False", "x", "_int32_indices(sort(x, axis, descending))",
        summary="The elements sorted along ``axis`` and their original indices.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]]), ms.float32)
        >>> values, indices = ops.Sort(axis=-1)(x)
        >>> print(values)
        [[1. 2. 3.]
         [0. 4. 5.]]
        >>> print(indices)
        [[1 2 0]
         [0 2 1]]
        """),
    Row("TopK", "sorted=True", "input, k", "_int32_indices(topk(input, k, sorted=sorted))",
        summary="The ``k`` largest elements along the last axis and their indices.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 5.0, 3.0, 4.0]), ms.float32)
        >>> values, indices = ops.TopK(sorted=True)(x, 2)
        >>> print(values)
        [5. 4.]
        >>> print(indices)
        [1 3]
        """),
    Row("InvertPermutation", "", "input_x", "_invert_permutation(input_x)",
        summary="The inverse of a permutation given as a list of indices.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> ops.InvertPermutation()((3, 4, 0, 2, 1))
        (2, 4, 3, 0, 1)
        """),
    # ---- scatter (the Scatter* classes update their Parameter input in place)
    Row("TensorScatterAdd", "", "input_x, indices, updates", "tensor_scatter_add(input_x, indices, updates)",
        summary="A copy of ``input_x`` with ``updates`` added at the index vectors of ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> input_x = Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), ms.float32)
        >>> indices = Tensor(np.array([[0, 0], [0, 0]]), ms.int32)
        >>> updates = Tensor(np.array([1.0, 2.2]), ms.float32)
        >>> print(ops.TensorScatterAdd()(input_x, indices, updates))
        [[ 3.1  0.3  3.6]
         [ 0.4  0.5 -3.2]]
        """),
    Row("TensorScatterSub", "", "input_x, indices, updates", "tensor_scatter_sub(input_x, indices, updates)",
        summary="A copy of ``input_x`` with ``updates`` subtracted at the index vectors of ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> input_x = Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), ms.float32)
        >>> indices = Tensor(np.array([[0, 0], [0, 0]]), ms.int32)
        >>> updates = Tensor(np.array([1.0, 2.2]), ms.float32)
        >>> print(ops.TensorScatterSub()(input_x, indices, updates))
        [[-3.3000002  0.3        3.6      ]
         [ 0.4        0.5       -3.2      ]]
        """),
    Row("TensorScatterElements", "axis=0, reduction='none'", "data, indices, updates",
        "tensor_scatter_elements(data, indices, updates, axis, reduction)",
        summary="A copy of ``data`` with ``updates`` written (or reduced) at ``indices`` along ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> data = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32)
        >>> indices = Tensor(np.array([[1, 0, 2], [0, 2, 1]]), ms.int32)
        >>> updates = Tensor(np.array([[0, 0, 0], [0, 0, 0]]), ms.float32)
        >>> print(ops.TensorScatterElements(axis=0, reduction="none")(data, indices, updates))
        [[0. 0. 3.]
         [0. 5. 0.]
         [7. 0. 0.]]
        >>> print(ops.TensorScatterElements(axis=0, reduction="add")(data, indices, updates + 1))
        [[ 2.  3.  3.]
         [ 5.  5.  7.]
         [ 7.  9. 10.]]
        """),
    Row("ScatterAdd", "use_locking=False", "input_x, indices, updates",
        "_scatter(_scatter_add_rows, input_x, indices, updates, 'ScatterAdd')",
        summary="Adds ``updates`` into the rows of the Parameter ``input_x`` named by ``indices``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.zeros((2, 3)), ms.float32), name="x")
        >>> indices = Tensor(np.array([[0, 1], [1, 1]]), ms.int32)
        >>> updates = Tensor(np.ones((2, 2, 3)), ms.float32)
        >>> print(ops.ScatterAdd()(input_x, indices, updates))
        [[1. 1. 1.]
         [3. 3. 3.]]
        """),
    Row("ScatterSub", "use_locking=False", "input_x, indices, updates",
        "_scatter(_neg_updates(_scatter_add_rows), input_x, indices, updates, 'ScatterSub')",
        summary="Subtracts ``updates`` from the rows ``indices`` of the Parameter ``input_x``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.zeros((2, 3)), ms.float32), name="x")
        >>> indices = Tensor(np.array([[0, 1], [1, 1]]), ms.int32)
        >>> updates = Tensor(np.ones((2, 2, 3)), ms.float32)
        >>> print(ops.ScatterSub()(input_x, indices, updates))
        [[-1. -1. -1.]
         [-3. -3. -3.]]
        """),
    Row("ScatterNdAdd", "use_locking=False", "input_x, indices, updates",
        "scatter_nd_add(input_x, indices, updates)",
        summary="Adds ``updates`` into the Parameter ``input_x`` at the index vectors ``indices``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), ms.float32), name="x")
        >>> indices = Tensor(np.array([[2], [4], [1], [7]]), ms.int32)
        >>> updates = Tensor(np.array([6, 7, 8, 9]), ms.float32)
        >>> print(ops.ScatterNdAdd()(input_x, indices, updates))
        [ 1. 10.  9.  4. 12.  6.  7. 17.]
        """),
    Row("ScatterNdSub", "use_locking=False", "input_x, indices, updates",
        "scatter_nd_sub(input_x, indices, updates)",
        summary="Subtracts ``updates`` from the Parameter ``input_x`` at the index vectors ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), ms.float32), name="x")
        >>> indices = Tensor(np.array([[2], [4], [1], [7]]), ms.int32)
        >>> updates = Tensor(np.array([6, 7, 8, 9]), ms.float32)
        >>> print(ops.ScatterNdSub()(input_x, indices, updates))
        [ 1. -6. -3.  4. -2.  6.  7. -1.]
        """),
    Row("ScatterNonAliasingAdd", "", "input_x, indices, updates",
        "scatter_nd_add(input_x, indices, updates)",
        summary="Adds ``updates`` to the Parameter ``input_x`` at the index vectors ``indices``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([1, 2, 3, 4, 5, 6, 7, 8]), ms.float32), name="x")
        >>> indices = Tensor(np.array([[2], [4], [1], [7]]), ms.int32)
        >>> updates = Tensor(np.array([6, 7, 8, 9]), ms.float32)
        >>> print(ops.ScatterNonAliasingAdd()(input_x, indices, updates))
        [ 1. 10.  9.  4. 12.  6.  7. 17.]
        """),
    Row("TensorScatterUpdate", "", "input_x, indices, updates",
        "tensor_scatter_update(input_x, indices, updates)",
        summary="``input_x`` with the elements at ``indices`` replaced by ``updates``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> indices = Tensor(np.array([[0, 0], [1, 2]]), ms.int32)
        >>> updates = Tensor(np.array([5.0, 7.0]), ms.float32)
        >>> print(ops.TensorScatterUpdate()(x, indices, updates))
        [[5. 0. 0.]
         [0. 0. 7.]]
        """),
    Row("ScatterNdUpdate", "use_locking=True", "input_x, indices, updates",
        "scatter_nd_update(input_x, indices, updates)",
        summary="Writes ``updates`` into the Parameter ``input_x`` at the index vectors ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), ms.float32), name="x")
        >>> indices = Tensor(np.array([[0, 0], [1, 1]]), ms.int32)
        >>> updates = Tensor(np.array([1.0, 2.2]), ms.float32)
        >>> print(ops.ScatterNdUpdate()(input_x, indices, updates))
        [[ 1.   0.3  3.6]
         [ 0.4  2.2 -3.2]]
        """),
    Row("ScatterUpdate", "use_locking=True", "input_x, indices, updates",
        "scatter_update(input_x, indices, updates)",
        summary="Writes ``updates`` into the rows ``indices`` of the Parameter ``input_x``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> input_x = Parameter(Tensor(np.zeros((3, 2)), ms.float32), name="x")
        >>> indices = Tensor(np.array([2, 0]), ms.int32)
        >>> updates = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.ScatterUpdate()(input_x, indices, updates))
        [[3. 4.]
         [0. 0.]
         [1. 2.]]
        """),
    Row("IndexAdd", "axis, use_lock=True, check_index_bound=True", "input_x, indices, y",
        "_index_add(input_x, indices, y, axis)",
        summary="Adds ``y`` to the Parameter ``input_x`` at ``indices`` along ``axis``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> x = Parameter(Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ms.float32), name="x")
        >>> indices = Tensor(np.array([0, 2]), ms.int32)
        >>> y = Tensor(np.array([[0.5, 1.0], [1.0, 1.5], [2.0, 2.5]]), ms.float32)
        >>> print(ops.IndexAdd(axis=1)(x, indices, y))
        [[ 1.5  2.   4. ]
         [ 5.   5.   7.5]
         [ 9.   8.  11.5]]
        """),
    Row("InplaceIndexAdd", "axis", "var, indices, updates", "_index_add(var, indices, updates, axis)",
        summary="Adds ``updates`` to the Parameter ``var`` at ``indices`` along ``axis``, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> var = Parameter(Tensor(np.array([[1, 2], [3, 4], [5, 6]]), ms.float32), name="var")
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> updates = Tensor(np.array([[0.5, 1.0], [1.0, 1.5]]), ms.float32)
        >>> print(ops.InplaceIndexAdd(axis=0)(var, indices, updates))
        [[1.5 3. ]
         [4.  5.5]
         [5.  6. ]]
        """),
    Row("InplaceAdd", "indices", "x, input_v", "_inplace_add(x, indices, input_v, 1)",
        summary="``x`` with the rows of ``input_v`` added to its rows ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4], [5, 6]]), ms.float32)
        >>> v = Tensor(np.array([[0.5, 1.0], [1.0, 1.5]]), ms.float32)
        >>> print(ops.InplaceAdd(indices=(0, 1))(x, v))
        [[1.5 3. ]
         [4.  5.5]
         [5.  6. ]]
        """),
    Row("InplaceSub", "indices", "x, input_v", "_inplace_add(x, indices, input_v, -1)",
        summary="``x`` with the rows of ``input_v`` subtracted from its rows ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4], [5, 6]]), ms.float32)
        >>> v = Tensor(np.array([[0.5, 1.0], [1.0, 1.5]]), ms.float32)
        >>> print(ops.InplaceSub(indices=(0, 1))(x, v))
        [[0.5 1. ]
         [2.  2.5]
         [5.  6. ]]
        """),
    # ---- creation
    Row("Cast", "", "input_x, dtype", "cast(input_x, dtype)",
        summary="``input_x`` converted to ``dtype``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.7, -2.2]), ms.float32)
        >>> y = ops.Cast()(x, ms.int32)
        >>> y.dtype
        mindspore.int32
        >>> print(y)
        [ 1 -2]
        """),
    Row("Ones", "", "shape, dtype=None", "ones(ints(shape), dtype=dtype)",
        summary="A tensor of ones of the given shape and dtype.",
        example="""
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.Ones()((2, 3), ms.int32))
        [[1 1 1]
         [1 1 1]]
        """),
    Row("Zeros", "", "size, dtype=None", "zeros(ints(size), dtype=dtype)",
        summary="A tensor of zeros of the given shape and dtype.",
        example="""
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.Zeros()((2, 2), ms.float32))
        [[0. 0.]
         [0. 0.]]
        """),
    Row("OnesLike", "", "x", "ones_like(x)",
        summary="A tensor of ones of the shape and dtype of ``x``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> print(ops.OnesLike()(x))
        [[1. 1.]]
        """),
    Row("ZerosLike", "", "x", "zeros_like(x)",
        summary="A tensor of zeros of the shape and dtype of ``x``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> print(ops.ZerosLike()(x))
        [[0 0]
         [0 0]]
        """),
    Row("Eye", "", "n, m, dtype", "eye(n, m, dtype)",
        summary="The ``n`` by ``m`` identity matrix of the given dtype.",
        example="""
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.Eye()(2, 3, ms.int32))
        [[1 0 0]
         [0 1 0]]
        """),
    Row("Fill", "", "dtype, dims, x", "_fill(dtype, dims, x)",
        summary="A tensor of the given dtype and shape filled with the value ``x``.",
        example="""
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.Fill()(ms.float32, (2, 2), 5.0))
        [[5. 5.]
         [5. 5.]]
        """),
    Row("FillV2", "", "shape, value", "_fill_v2(shape, value)",
        summary="A tensor of shape ``shape`` filled with the 0-d tensor ``value`` (its dtype).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.FillV2()(Tensor(np.array([2, 3]), ms.int32), Tensor(1.5, ms.float32)))
        [[1.5 1.5 1.5]
         [1.5 1.5 1.5]]
        """),
    Row("Fills", "", "x, value", "_fills(x, value)",
        summary="A tensor of ``x``'s shape and dtype filled with ``value``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 2)), ms.float32)
        >>> print(ops.Fills()(x, 3.0))
        [[3. 3.]
         [3. 3.]]
        """),
    Row("OneHot", "axis=-1", "indices, depth, on_value, off_value",
        "one_hot(indices, depth, on_value, off_value, axis)",
        summary="One-hot vectors of length ``depth`` for integer ``indices``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> indices = Tensor(np.array([0, 2, 1]), ms.int32)
        >>> on_value = Tensor(1.0, ms.float32)
        >>> off_value = Tensor(0.0, ms.float32)
        >>> print(ops.OneHot()(indices, 3, on_value, off_value))
        [[1. 0. 0.]
         [0. 0. 1.]
         [0. 1. 0.]]
        """),
    Row("Range", "maxlen=1000000", "start, end, step", "_range(start, end, step, maxlen)",
        summary="The values from ``start`` up to ``end`` (excluded) by ``step``.",
        example="""
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> start = Tensor(0, ms.int32)
        >>> end = Tensor(10, ms.int32)
        >>> step = Tensor(4, ms.int32)
        >>> print(ops.Range()(start, end, step))
        [0 4 8]
        """),
    Row("Identity", "", "input_x", "_copy(input_x)",
        summary="A copy of ``input_x``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.Identity()(x))
        [1 2 3]
        """),
    Row("IdentityN", "", "x", "_identity_n(x)",
        summary="The list or tuple of tensors ``x``, unchanged.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = [Tensor(np.array([1, 2]), ms.int64), Tensor(np.array([4, 3]), ms.int64)]
        >>> print(ops.IdentityN()(x))
        (Tensor(shape=[2], dtype=Int64, value= [1, 2]), Tensor(shape=[2], dtype=Int64, value= [4, 3]))
        """),
    Row("ScalarToTensor", "", "x, dtype=mstype.float32", "_scalar_to_tensor(x, dtype)",
        summary="A Python number as a 0-d tensor of ``dtype``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.ScalarToTensor()(7, ms.float32))
        7.0
        """),
    Row("ScalarToArray", "", "input_x", "_scalar_to_tensor(input_x, None)",
        summary="A Python number as a 0-d tensor (float32 for a float, int64 for an int).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> y = ops.ScalarToArray()(1.5)
        >>> print(y, y.dtype)
        1.5 Float32
        """),
    Row("TupleToArray", "", "input_x", "_tuple_to_array(input_x)",
        summary="A tuple of numbers as a 1-D tensor (float32 for floats, int64 for ints).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.TupleToArray()((1.0, 2.0, 3.0)))
        [1. 2. 3.]
        >>> print(ops.TupleToArray()((1, 2, 3)).dtype)
        Int32
        """),
    Row("TensorToTuple", "", "input", "_tensor_to_tuple(input)",
        summary="The elements of a 1-D tensor as a tuple of Python numbers.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.TensorToTuple()(Tensor(np.array([1, 2, 3]), ms.int32)))
        (1, 2, 3)
        """),
    Row("ScalarCast", "", "input_x, input_y", "_scalar_cast(input_x, input_y)",
        summary="A Python number converted to the type ``input_y`` names.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.ScalarCast()(255.0, ms.int64))
        255
        """),
    # ---- what a tensor is
    Row("Shape", "", "x", "_shape(x)",
        summary="The shape of ``x`` as a tuple of ints.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((3, 2, 1)), ms.float32)
        >>> ops.Shape()(x)
        (3, 2, 1)
        """),
    Row("TensorShape", "", "input_x", "_tensor_shape(input_x)",
        summary="The shape of ``input_x`` as an int64 tensor.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.TensorShape()(Tensor(np.ones((3, 2, 1)), ms.float32)))
        [3 2 1]
        """),
    Row("DynamicShape", "dtype=9", "tensor", "_tensor_shape(tensor)",
        summary="The shape of ``tensor`` as an int64 tensor (read at run time).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.DynamicShape()(Tensor(np.ones((3, 2, 1)), ms.float32)))
        [3 2 1]
        """),
    Row("Rank", "", "x", "to_tensor(x).ndim",
        summary="The number of axes of ``x``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.Rank()(x)
        3
        """),
    Row("Size", "", "x", "to_tensor(x).size",
        summary="The number of elements of ``x``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.Size()(x)
        24
        """),
    Row("DType", "", "x", "_dtype(x)",
        summary="The dtype of ``x``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 2)), ms.float32)
        >>> ops.DType()(x)
        mindspore.float32
        """),
    Row("CheckNumerics", "", "x", "_check_numerics(x)",
        summary="``x`` itself, checked to hold no Inf or NaN (a RuntimeError names them otherwise).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 3.0], [2.0, 4.0]]), ms.float32)
        >>> print(ops.CheckNumerics()(x))
        [[1. 3.]
         [2. 4.]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
