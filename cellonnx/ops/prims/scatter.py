"""Gathers and scatters: gather / index_select, gather_elements, gather_nd, one_hot and the add-scatters
that are their gradients (index_add, scatter_add, tensor_scatter_add, tensor_scatter_elements, scatter).

Indices may be negative (counted from the end), as in NumPy and in every ONNX node used here.

Scatter-add lowering: ONNX has ``reduction='add'`` on ScatterND / ScatterElements only from opset 16, and
without it duplicate indices are undefined. For opsets 13-15 the add-scatters are lowered as a one-hot
product instead - ``OneHot(index, depth)^T @ updates`` (or a one-hot multiply and ReduceSum along the axis
for the elementwise form) - which sums duplicates exactly and uses only static-shape nodes.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import onnx

from cellonnx.ops.prims._util import norm_axis, select, to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Parameter, Tensor


def _zeros_like(t: Tensor) -> Tensor:
    from cellonnx.ops.prims.creation import zeros_like
    return zeros_like(t)


def _element_index(idx: np.ndarray, axis: int) -> tuple:
    """The full index tuple addressing ``out[..., idx[...], ...]`` elementwise (idx replaces ``axis``)."""
    grids = list(np.ogrid[tuple(slice(0, n) for n in idx.shape)]) if idx.ndim else []
    grids[axis] = idx
    return tuple(grids)


def _nd_index(idx: np.ndarray) -> tuple:
    return tuple(np.moveaxis(idx, -1, 0))


def _in_range(idx: np.ndarray, n: int) -> np.ndarray:
    """``idx`` with negative entries counted from the end; IndexError for anything outside [-n, n)."""
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        if lo < -n or hi >= n:
            raise IndexError(f"index {lo if lo < -n else hi} is out of bounds for a dimension of size {n}")
        if lo < 0:
            return np.where(idx < 0, idx + n, idx)
    return idx


def _add_at(out: np.ndarray, flat: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``out.flat[flat] += values`` with repeats accumulated: np.add.at on the 1-D view, several times faster
    than np.add.at with a multi-dimensional index. ``out`` must be a fresh C-contiguous array."""
    np.add.at(out.reshape(-1), flat.reshape(-1), np.ascontiguousarray(values, dtype=out.dtype).reshape(-1))
    return out


def nd_positions(shape: tuple, idx: np.ndarray) -> np.ndarray:
    """Flat positions in an array of ``shape`` of the slices ``x[idx[b, 0], ..., idx[b, k-1]]``, laid out as
    idx.shape[:-1] + (size of one slice,)."""
    k = idx.shape[-1]
    coords = tuple(_in_range(c, n) for c, n in zip(_nd_index(idx), shape[:k]))
    lead = np.ravel_multi_index(coords, shape[:k]) if k else np.zeros(idx.shape[:-1], np.int64)
    inner = int(np.prod(shape[k:], dtype=np.int64))
    return np.asarray(lead, dtype=np.int64)[..., None] * inner + np.arange(inner, dtype=np.int64)


def _axis_positions(shape: tuple, idx: np.ndarray, axis: int) -> np.ndarray:
    """Flat positions in an array of ``shape`` of ``[..., idx[k], ...]`` (idx 1-D along ``axis``), laid out as
    shape[:axis] + (len(idx),) + shape[axis + 1:]."""
    n = shape[axis]
    inner = int(np.prod(shape[axis + 1:], dtype=np.int64))
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    return (np.arange(outer, dtype=np.int64)[:, None, None] * (n * inner)
            + _in_range(idx, n).astype(np.int64)[None, :, None] * inner
            + np.arange(inner, dtype=np.int64)[None, None, :])


# ---------------------------------------------------------------- lowering helpers
def _to_front(g: Any, x: str, axis: int, nd: int, inverse: bool = False) -> str:
    if axis == 0:
        return x
    perm = [axis] + [i for i in range(nd) if i != axis]
    if inverse:
        perm = [int(i) for i in np.argsort(perm)]
    return g.op("Transpose", x, perm=perm)


def _dim(g: Any, x: str, axis: int) -> str:
    """A 1-element int64 value: the size of ``axis`` of ``x`` at run time."""
    if g.opset >= 15:
        return g.op("Shape", x, start=axis, end=axis + 1)
    return g.op("Gather", g.op("Shape", x), g.i64([axis]), axis=0)


# the value types onnxruntime's OneHot kernels take with int64 indices and depth
_ONEHOT_VALUE_TYPES = (np.dtype(np.float32), np.dtype(np.int64))


def _onehot01(g: Any, idx: str, depth: str, dtype: np.dtype, axis: int) -> str:
    """OneHot of ``idx`` with values 0 / 1 of ``dtype`` (any: float64 and bool through an int64 OneHot and a
    Cast, exact for 0 and 1)."""
    kind = dtype if dtype in _ONEHOT_VALUE_TYPES else np.dtype(np.int64)
    hot = g.op("OneHot", idx, depth, g.const(np.array([0, 1], dtype=kind)), axis=axis)
    return hot if kind == dtype else g.op("Cast", hot, to=onnx.helper.np_dtype_to_tensor_dtype(dtype))


def _onehot_add(g: Any, data: str, idx: str, upd: str, dtype: np.dtype) -> str:
    """``data[idx[k]] += upd[k]`` along axis 0 (duplicates summed): OneHot(idx)^T @ upd."""
    oh = _onehot01(g, idx, _dim(g, data, 0), dtype, -1)                                           # (K, N)
    flat = g.op("Reshape", upd, g.i64([0, -1]))                                                   # (K, R)
    contrib = g.op("MatMul", g.op("Transpose", oh, perm=[1, 0]), flat)                             # (N, R)
    return g.op("Add", data, g.op("Reshape", contrib, g.op("Shape", data)))


def nd_rows(g: Any, x: str, idx: str, upd: str) -> tuple[str, str, str]:
    """ScatterND operands as rows: the k leading coordinates of ``idx`` linearised (Horner over the run-time
    dims, negatives counted from the end) to a (K,) index, ``x`` as (N, R) and ``upd`` as (K, R), R the size
    of one addressed slice."""
    k = int(g.in_tensors[1]._data.shape[-1])
    shape = g.op("Shape", x)
    lin = None
    for j in range(k):
        ij = g.op("Gather", idx, g.i64(j), axis=-1)
        dj = g.op("Gather", shape, g.i64(j), axis=0)
        ij = g.op("Where", g.op("Less", ij, g.i64(0)), g.op("Add", ij, dj), ij)
        lin = ij if lin is None else g.op("Add", g.op("Mul", lin, dj), ij)
    rest = g.op("Slice", shape, g.i64([k]), g.i64([2 ** 62]))
    minus1 = g.i64([-1])
    rows = g.op("Concat", minus1, g.op("ReduceProd", rest, keepdims=1), axis=0)   # (-1, R); R = 1 if k = rank
    return g.op("Reshape", lin, minus1), g.op("Reshape", x, rows), g.op("Reshape", upd, rows)


# ---------------------------------------------------------------- primitives
class Gather(Op):
    """``np.take(x, idx, axis)``: the index's dims replace ``axis``."""

    def forward(self, x, idx, *, axis):
        return np.take(x, idx, axis=axis)

    def backward(self, ctx, g, *, axis):
        from cellonnx.ops.prims.shape import expand_dims, reshape
        x, idx = ctx.inputs
        if idx.ndim == 0:
            src, flat = expand_dims(g, axis), reshape(idx, (1,))
        else:
            shape = x.shape
            src = reshape(g, tuple(shape[:axis]) + (-1,) + tuple(shape[axis + 1:])) if idx.ndim != 1 else g
            flat = reshape(idx, (-1,))
        return IndexAdd.apply(_zeros_like(x), flat, src, axis=axis), None

    def lower(self, g, x, idx, *, axis):
        return g.op("Gather", x, idx, axis=axis)


class IndexAdd(Op):
    """``x`` with ``src`` added at positions ``idx`` (1-D) along ``axis``; repeated indices accumulate."""

    def forward(self, x, idx, src, *, axis):
        return _add_at(x.copy(), _axis_positions(x.shape, idx, axis), src)

    def backward(self, ctx, g, *, axis):
        idx = ctx.inputs[1]
        return (g if ctx.needs_grad(0) else None, None,
                Gather.apply(g, idx, axis=axis) if ctx.needs_grad(2) else None)

    def lower(self, g, x, idx, src, *, axis):
        nd = g.in_tensors[0].ndim
        xt, st = _to_front(g, x, axis, nd), _to_front(g, src, axis, nd)
        if g.opset >= 16:
            if g.in_tensors[1]._data.dtype != np.int64:  # ScatterND takes int64 indices only
                idx = g.op("Cast", idx, to=onnx.TensorProto.INT64)
            out = g.op("ScatterND", xt, g.unsqueeze(idx, [1]), st, reduction="add")
        else:
            out = _onehot_add(g, xt, idx, st, g.in_tensors[0]._data.dtype)
        return _to_front(g, out, axis, nd, inverse=True)

    def check(self, x, idx, src, *, axis):
        want = x.shape[:axis] + idx.shape + x.shape[axis + 1:]
        if src.shape != want:
            return f"updates of shape {src.shape} do not match the expected {want}"
        return f"an index in {idx.min(initial=0)}..{idx.max(initial=0)} is out of range for axis {axis} " \
               f"of size {x.shape[axis]}"


class GatherElements(Op):
    """``out[i][j] = x[idx[i][j]][j]`` (axis 0) - PyTorch's gather; idx may be smaller than x off the axis."""

    def forward(self, x, idx, *, axis):
        if any(i != n for d, (i, n) in enumerate(zip(idx.shape, x.shape)) if d != axis):
            x = x[tuple(slice(0, i) if d != axis else slice(None) for d, i in enumerate(idx.shape))]
        return np.take_along_axis(x, idx, axis=axis)

    def backward(self, ctx, g, *, axis):
        x, idx = ctx.inputs
        return ScatterElementsAdd.apply(_zeros_like(x), idx, g, axis=axis), None

    def lower(self, g, x, idx, *, axis):
        return g.op("GatherElements", x, idx, axis=axis)

    def check(self, x, idx, *, axis):
        if idx.ndim != x.ndim:
            return f"index of rank {idx.ndim} for an input of rank {x.ndim} (they must be equal)"
        return f"index {idx.shape} must not exceed the input {x.shape} off axis {axis}, and its values " \
               f"must " \
               f"lie in [-{x.shape[axis]}, {x.shape[axis]})"


class ScatterElementsAdd(Op):
    """``x`` with ``upd[i][j]`` added at ``[idx[i][j]][j]`` (axis 0); repeated positions accumulate."""

    def forward(self, x, idx, upd, *, axis):
        index = list(_element_index(idx, axis))
        index[axis] = _in_range(idx, x.shape[axis])
        if any(i > n for i, n in zip(idx.shape, x.shape)):
            raise IndexError(f"index of shape {idx.shape} is larger than the input {x.shape}")
        return _add_at(x.copy(), np.ravel_multi_index(tuple(index), x.shape), upd)

    def backward(self, ctx, g, *, axis):
        idx = ctx.inputs[1]
        return (g if ctx.needs_grad(0) else None, None,
                GatherElements.apply(g, idx, axis=axis) if ctx.needs_grad(2) else None)

    def lower(self, g, x, idx, upd, *, axis):
        if g.opset >= 16:
            return g.op("ScatterElements", x, idx, upd, axis=axis, reduction="add")
        xt_, it_ = g.in_tensors[0], g.in_tensors[1]
        nd = xt_.ndim
        dtype = xt_._data.dtype
        oh = _onehot01(g, idx, _dim(g, x, axis), dtype, -1)                                          # I+(N,)
        prod = g.op("Mul", oh, g.unsqueeze(upd, [nd]))
        summed = g.op("ReduceSum", prod, g.i64([axis]), keepdims=1)   # axis -> 1, trailing N
        perm = list(range(nd + 1))
        perm[axis], perm[nd] = nd, axis
        contrib = g.squeeze(g.op("Transpose", summed, perm=perm), [nd])
        if tuple(it_._data.shape[d] for d in range(nd) if d != axis) != \
                tuple(xt_._data.shape[d] for d in range(nd) if d != axis):
            diff = g.op("Sub", g.op("Shape", x), g.op("Shape", contrib))
            contrib = g.op("Pad", contrib, g.op("Concat", g.i64([0] * nd), diff, axis=0))
        return g.op("Add", x, contrib)


class ScatterElements(Op):
    """``x`` with ``upd[i][j]`` written at ``[idx[i][j]][j]`` (axis 0); for repeated positions one write
    wins."""

    def forward(self, x, idx, upd, *, axis):
        out = x.copy()
        out[_element_index(idx, axis)] = upd
        return out

    def backward(self, ctx, g, *, axis):
        idx, upd = ctx.inputs[1], ctx.inputs[2]
        gx = ScatterElements.apply(g, idx, _zeros_like(upd), axis=axis) if ctx.needs_grad(0) else None
        return (gx, None,
                GatherElements.apply(g, idx, axis=axis) if ctx.needs_grad(2) else None)

    def lower(self, g, x, idx, upd, *, axis):
        return g.op("ScatterElements", x, idx, upd, axis=axis)


class GatherND(Op):
    """``out[b] = x[idx[b, 0], ..., idx[b, k-1]]``: the last dim of idx indexes x's first k dims."""

    def forward(self, x, idx):
        return x[_nd_index(idx)]

    def backward(self, ctx, g):
        x, idx = ctx.inputs
        return ScatterNDAdd.apply(_zeros_like(x), idx, g), None

    def lower(self, g, x, idx):
        return g.op("GatherND", x, idx)


class ScatterNDAdd(Op):
    """``x`` with ``upd[b]`` added at ``x[idx[b, 0], ..., idx[b, k-1]]``; repeated positions accumulate."""

    def forward(self, x, idx, upd):
        return _add_at(x.copy(), nd_positions(x.shape, idx), upd)

    def backward(self, ctx, g):
        idx = ctx.inputs[1]
        return (g if ctx.needs_grad(0) else None, None,
                GatherND.apply(g, idx) if ctx.needs_grad(2) else None)

    def lower(self, g, x, idx, upd):
        if g.opset >= 16:
            return g.op("ScatterND", x, idx, upd, reduction="add")
        lin, data, upd2 = nd_rows(g, x, idx, upd)
        out = _onehot_add(g, data, lin, upd2, g.in_tensors[0]._data.dtype)
        return g.op("Reshape", out, g.op("Shape", x))


class ScatterNDSet(Op):
    """``x`` with ``upd[b]`` written at ``x[idx[b, 0], ..., idx[b, k-1]]`` (the last write wins eagerly)."""

    def forward(self, x, idx, upd):
        out = x.copy()
        out[_nd_index(idx)] = upd
        return out

    def backward(self, ctx, g):
        idx, upd = ctx.inputs[1], ctx.inputs[2]
        return (ScatterNDSet.apply(g, idx, _zeros_like(upd)) if ctx.needs_grad(0) else None, None,
                GatherND.apply(g, idx) if ctx.needs_grad(2) else None)

    def lower(self, g, x, idx, upd):
        return g.op("ScatterND", x, idx, upd)


class OneHot(Op):
    """``on_value`` where ``indices == i`` along a new ``axis`` of size ``depth``, ``off_value`` elsewhere.
    Indices outside [0, depth) give a row of ``off_value`` (as in MindSpore; ONNX would wrap negatives)."""

    def forward(self, indices, on, off, *, depth, axis):
        hot = indices[..., None] == np.arange(int(depth), dtype=indices.dtype)
        out = select(hot, on, off).astype(on.dtype, copy=False)
        return np.moveaxis(out, -1, axis) if axis != out.ndim - 1 else out

    def backward(self, ctx, g, *, depth, axis):
        from cellonnx.ops.prims.math import mul, sub
        from cellonnx.ops.prims.reduce import reduce_sum
        idx = ctx.inputs[0]
        one = Tensor._make(np.ones((), g._data.dtype))
        mask = OneHot.apply(idx, one, Tensor._make(np.zeros((), g._data.dtype)), depth=depth, axis=axis)
        return (None, reduce_sum(mul(g, mask), None) if ctx.needs_grad(1) else None,
                reduce_sum(mul(g, sub(one, mask)), None) if ctx.needs_grad(2) else None)

    def lower(self, g, indices, on, off, *, depth, axis):
        # onnxruntime implements OneHot for int64 indices (not int32): cast first
        itype = np.dtype(np.int64)
        if g.in_tensors[0]._data.dtype != itype:
            indices = g.op("Cast", indices, to=onnx.TensorProto.INT64)
        big = g.const(np.asarray(np.iinfo(itype).max, dtype=itype))
        idx = g.op("Where", g.op("Less", indices, g.const(np.asarray(0, dtype=itype))), big, indices)
        dtype = g.in_tensors[1]._data.dtype
        if dtype in _ONEHOT_VALUE_TYPES:
            values = g.op("Concat", g.op("Reshape", off, g.i64([1])), g.op("Reshape", on, g.i64([1])), axis=0)
            return g.op("OneHot", idx, g.shape_value([depth]), values, axis=axis)
        hot = _onehot01(g, idx, g.shape_value([depth]), np.dtype(np.bool_), axis)
        return g.op("Where", hot, on, off)


# ---------------------------------------------------------------- functional API
def _index(idx: Any, op: str) -> Tensor:
    t = to_tensor(idx) if not isinstance(idx, (list, tuple)) else Tensor(np.asarray(idx, dtype=np.int64))
    if t._data.dtype.kind not in "iu":
        raise TypeError(f"{op}: indices must be an integer tensor, got {t.dtype}")
    return t if t._data.dtype in (np.int32, np.int64) else _int64(t)  # the index types ONNX takes


def _int64(t: Tensor) -> Tensor:
    from cellonnx.ops.prims.math import cast
    return t if t._data.dtype == np.int64 else cast(t, np.int64)


def gather(input_params: Tensor, input_indices: Any, axis: int, batch_dims: int = 0) -> Tensor:
    """Take slices of ``input_params`` along ``axis`` at ``input_indices``.

    The output shape is ``params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]``;
    with ``batch_dims`` b the first b dims of params and indices are batch dims gathered pairwise.

    Examples:
        >>> ops.gather(Tensor([[1, 2], [3, 4]]), Tensor([1, 1, 0]), 0).shape
        (3, 2)
    """
    input_params = to_tensor(input_params)
    idx = _index(input_indices, "gather")
    a = norm_axis(axis, input_params.ndim, "gather")
    if batch_dims == 0:
        return Gather.apply(input_params, idx, axis=a)
    return _batched_gather(input_params, idx, a, batch_dims)


def _batched_gather(x: Tensor, idx: Tensor, axis: int, batch_dims: int) -> Tensor:
    """gather with batch dims: fold the batch into the gathered axis (index + batch * size), then restore."""
    from cellonnx.ops.prims.creation import arange
    from cellonnx.ops.prims.math import add, mul
    from cellonnx.ops.prims.shape import reshape, transpose
    bd = batch_dims + idx.ndim if batch_dims < 0 else batch_dims
    if not 0 <= bd <= idx.ndim or bd > axis or tuple(x._data.shape[:bd]) != tuple(idx._data.shape[:bd]):
        raise ValueError(f"gather: batch_dims {batch_dims} needs batch_dims <= axis ({axis}) and matching "
                         f"leading dims of params {tuple(x.shape)} and indices {tuple(idx.shape)}")
    shape = x.shape
    nd, ni = x.ndim, idx.ndim - bd
    perm = list(range(bd)) + [axis] + [d for d in range(bd, nd) if d != axis]
    xt = transpose(x, perm)
    batch = 1
    for d in shape[:bd]:
        batch = batch * d
    n = shape[axis]
    flat = reshape(xt, (batch * n,) + tuple(shape[d] for d in perm[bd + 1:]))
    offsets = reshape(mul(arange(batch), n), tuple(shape[:bd]) + (1,) * ni)
    out = Gather.apply(flat, add(_int64(idx), offsets), axis=0)       # (b..., i..., m..., t...)
    nm = axis - bd
    order = list(range(bd)) + list(range(bd + ni, bd + ni + nm)) + list(range(bd, bd + ni)) + \
        list(range(bd + ni + nm, out.ndim))
    return transpose(out, order)


def index_select(input: Tensor, axis: int, index: Any) -> Tensor:
    """The entries of ``input`` along ``axis`` at the 1-D ``index``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(6).reshape(2, 3), ms.float32)
        >>> index = Tensor(np.array([2, 0]), ms.int32)
        >>> print(ops.index_select(x, 1, index))
        [[2. 0.]
         [5. 3.]]
    """
    idx = _index(index, "index_select")
    if idx.ndim != 1:
        raise ValueError(f"index_select: index must be 1-D, got shape {tuple(idx.shape)}")
    return Gather.apply(to_tensor(input), idx, axis=norm_axis(axis, input.ndim, "index_select"))


def gather_elements(input: Tensor, dim: int, index: Any) -> Tensor:
    """``out[i][j] = input[index[i][j]][j]`` for dim 0 (and likewise for other dims).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> index = Tensor(np.array([[0, 0], [1, 0]]), ms.int32)
        >>> print(ops.gather_elements(x, 1, index))
        [[1 1]
         [4 3]]
    """
    idx = _index(index, "gather_elements")
    input = to_tensor(input)
    if idx.ndim != input.ndim:
        raise ValueError(f"gather_elements: index of shape {tuple(idx.shape)} must have the rank of the "
                         f"input {tuple(input.shape)}")
    return GatherElements.apply(input, idx, axis=norm_axis(dim, input.ndim, "gather_elements"))


def gather_nd(input_x: Tensor, indices: Any) -> Tensor:
    """``out[b] = input_x[indices[b, 0], ..., indices[b, k-1]]``: the last dim of ``indices`` addresses the
    first k dims of ``input_x``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.int32)
        >>> indices = Tensor(np.array([[0, 2], [1, 0]]), ms.int32)
        >>> print(ops.gather_nd(x, indices))
        [3 4]
    """
    idx = _index(indices, "gather_nd")
    input_x = to_tensor(input_x)
    if idx.ndim < 1 or idx._data.shape[-1] > input_x.ndim:
        raise ValueError(f"gather_nd: indices of shape {tuple(idx.shape)} need a last dim of at most the "
                         f"input rank {input_x.ndim}")
    return GatherND.apply(input_x, _int64(idx))


def index_add(x: Tensor, indices: Any, y: Tensor, axis: int, use_lock: bool = True,
              check_index_bound: bool = True) -> Tensor:
    """``x`` with the slices of ``y`` added along ``axis`` at the 1-D ``indices`` (repeats accumulate).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((3, 2)), ms.float32)
        >>> index = Tensor(np.array([0, 2]), ms.int32)
        >>> source = Tensor(np.ones((2, 2)), ms.float32)
        >>> print(ops.index_add(x, index, source, axis=0))
        [[1. 1.]
         [0. 0.]
         [1. 1.]]
    """
    idx = _index(indices, "index_add")
    x = to_tensor(x)
    y = to_tensor(y, x)
    a = norm_axis(axis, x.ndim, "index_add")
    return IndexAdd.apply(x, idx, _cast_like(y, x), axis=a)


def _cast_like(t: Tensor, like: Tensor) -> Tensor:
    from cellonnx.ops.prims.math import cast
    return t if t._data.dtype == like._data.dtype else cast(t, like._data.dtype)


def scatter_add(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """``input_x[indices[i, ..., j], :] += updates[i, ..., j, :]`` (repeats accumulate); ``updates`` has shape
    ``indices.shape + input_x.shape[1:]``.

    As in MindSpore, a Parameter given as ``input_x`` is updated in place (outside a traced graph) and the
    result is also returned.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.zeros((2, 2)), ms.float32), name='x')
        >>> indices = Tensor(np.array([1, 1]), ms.int32)
        >>> updates = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.scatter_add(input_x, indices, updates))
        [[0. 0.]
         [4. 6.]]
    """
    from cellonnx.ops import registry
    from cellonnx.ops.prims.shape import reshape
    idx = _index(indices, "scatter_add")
    input_x = to_tensor(input_x)
    updates = _cast_like(to_tensor(updates, input_x), input_x)
    want = tuple(idx._data.shape) + tuple(input_x._data.shape[1:])
    if tuple(updates._data.shape) != want:
        raise ValueError(f"scatter_add: updates of shape {tuple(updates.shape)}, expected indices.shape + "
                         f"input_x.shape[1:] = {want}")
    flat_idx = reshape(idx, (-1,)) if idx.ndim != 1 else idx
    flat_upd = reshape(updates, (-1,) + tuple(input_x.shape[1:])) if idx.ndim != 1 else updates
    out = IndexAdd.apply(input_x, flat_idx, flat_upd, axis=0)
    if isinstance(input_x, Parameter) and registry.TRACE_HOOK is None:
        input_x._assign_array(out._data)
    return out


def tensor_scatter_add(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """``input_x`` with ``updates[b]`` added at ``input_x[indices[b]]`` (the last dim of ``indices`` addresses
    the leading dims of ``input_x``; repeats accumulate).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> indices = Tensor(np.array([[0], [2]]), ms.int32)
        >>> updates = Tensor(np.array([10.0, 30.0]), ms.float32)
        >>> print(ops.tensor_scatter_add(x, indices, updates))
        [11.  2. 33.]
    """
    idx = _index(indices, "tensor_scatter_add")
    input_x = to_tensor(input_x)
    return ScatterNDAdd.apply(input_x, _int64(idx), _cast_like(to_tensor(updates, input_x), input_x))


def tensor_scatter_elements(input_x: Tensor, indices: Any, updates: Tensor, axis: int = 0,
                            reduction: str = "none") -> Tensor:
    """Write (``reduction='none'``) or add (``'add'``) ``updates[i][j]`` at ``input_x[indices[i][j]][j]``
    (for axis 0; likewise for other axes).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> indices = Tensor(np.array([[0, 2]]), ms.int32)
        >>> updates = Tensor(np.array([[5.0, 7.0]]), ms.float32)
        >>> print(ops.tensor_scatter_elements(x, indices, updates, axis=1))
        [[5. 0. 7.]
         [0. 0. 0.]]
    """
    idx = _index(indices, "tensor_scatter_elements")
    input_x = to_tensor(input_x)
    upd = _cast_like(to_tensor(updates, input_x), input_x)
    a = norm_axis(axis, input_x.ndim, "tensor_scatter_elements")
    if idx.ndim != input_x.ndim or tuple(upd._data.shape) != tuple(idx._data.shape):
        raise ValueError(f"tensor_scatter_elements: indices {tuple(idx.shape)} and updates "
                         f"{tuple(upd.shape)} must have one shape, of the rank of input_x "
                         f"{tuple(input_x.shape)}")
    if reduction == "add":
        return ScatterElementsAdd.apply(input_x, idx, upd, axis=a)
    if reduction == "none":
        return ScatterElements.apply(input_x, idx, upd, axis=a)
    raise ValueError(f"tensor_scatter_elements: reduction must be 'none' or 'add', got {reduction!r}")


def scatter(input: Tensor, axis: int, index: Any, src: Any) -> Tensor:
    """``tensor_scatter_elements(input, index, src, axis)``; a number ``src`` is broadcast to the index.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> index = Tensor(np.array([[0, 2]]), ms.int64)
        >>> src = Tensor(np.array([[5.0, 7.0]]), ms.float32)
        >>> print(ops.scatter(x, 1, index, src))
        [[5. 0. 7.]
         [0. 0. 0.]]
    """
    from cellonnx.ops.prims.creation import full_like
    idx = _index(index, "scatter")
    if not isinstance(src, Tensor):
        src = full_like(idx, src, dtype=input._data.dtype)
    return tensor_scatter_elements(input, idx, src, axis)


def one_hot(indices: Any, depth: int, on_value: Any = 1, off_value: Any = 0, axis: int = -1) -> Tensor:
    """A one-hot tensor: ``on_value`` at ``indices`` along a new ``axis`` of size ``depth``, ``off_value``
    elsewhere; indices outside [0, depth) give all ``off_value``. The dtype is ``on_value``'s (int64 for
    the default 1, float32 for a Python float).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> indices = Tensor(np.array([0, 2, 1]), ms.int32)
        >>> on_value = Tensor(1.0, ms.float32)
        >>> off_value = Tensor(0.0, ms.float32)
        >>> print(ops.one_hot(indices, 3, on_value, off_value))
        [[1. 0. 0.]
         [0. 0. 1.]
         [0. 1. 0.]]
    """
    idx = _index(indices, "one_hot")
    if int(depth) < 0:
        raise ValueError(f"one_hot: depth must be non-negative, got {depth}")
    on = to_tensor(on_value)
    off = _cast_like(to_tensor(off_value, on), on)
    if on.ndim or off.ndim:
        raise ValueError(f"one_hot: on_value and off_value must be scalars, got shapes {tuple(on.shape)}, "
                         f"{tuple(off.shape)}")
    if not -1 <= axis <= idx.ndim:
        raise ValueError(f"one_hot: axis {axis} must be in [-1, {idx.ndim}] for indices of rank {idx.ndim}")
    a = idx.ndim if axis == -1 else axis
    return OneHot.apply(idx, on, off, depth=depth, axis=a)


def _tensor_gather(self: Tensor, input_indices: Any, axis: int, batch_dims: int = 0) -> Tensor:
    return gather(self, input_indices, axis, batch_dims)


def _tensor_index_select(self: Tensor, axis: int, index: Any) -> Tensor:
    return index_select(self, axis, index)


def _tensor_gather_elements(self: Tensor, dim: int, index: Any) -> Tensor:
    return gather_elements(self, dim, index)


def _tensor_index_add(self: Tensor, indices: Any, y: Tensor, axis: int, **_: Any) -> Tensor:
    return index_add(self, indices, y, axis)


def _tensor_scatter(self: Tensor, axis: int, index: Any, src: Any) -> Tensor:
    return scatter(self, axis, index, src)


TENSOR_METHODS = {
    "gather": _tensor_gather, "index_select": _tensor_index_select,
    "gather_elements": _tensor_gather_elements, "gather_nd": gather_nd, "index_add": _tensor_index_add,
    "scatter_add": scatter_add, "scatter": _tensor_scatter,
}

__all__ = ["gather", "gather_elements", "gather_nd", "index_add", "index_select", "one_hot", "scatter",
           "scatter_add", "tensor_scatter_add", "tensor_scatter_elements"]
