"""Scatters that combine instead of add: ``x[idx[b]] (op)= upd[b]`` for op in mul, div, max, min, and the
MindSpore functions over them and over the add / set scatters (scatter_nd, tensor_scatter_sub / mul / div /
max / min / update).

Repeated positions combine in order, as MindSpore does (x / u1 / u2 for div; the input itself takes part in
max and min). Lowering: ScatterND with ``reduction='mul'`` from opset 16 and 'max' / 'min' from opset 18;
div is ``x / ScatterND(1, idx, upd, 'mul')``. Below those opsets the updates meet their rows through an
Equal mask (K updates x N rows) reduced with ReduceProd / ReduceMax / ReduceMin, which combines repeats
exactly with static-shape nodes.

Gradients: max / min split the gradient evenly between the input and the updates equal to the result (as
MindSpore's bprop); mul and div are the exact derivatives of the combined product, also when indices repeat
(MindSpore's own gradient there treats every update as if it were alone).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.ops.prims.scatter import (
    GatherND,
    ScatterNDAdd,
    ScatterNDSet,
    _cast_like,
    _index,
    _int64,
    nd_positions,
    nd_rows,
)
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

_AT = {"mul": np.multiply, "max": np.maximum, "min": np.minimum}
_ONNX_SINCE = {"mul": 16, "div": 16, "max": 18, "min": 18}


def _identity(reduction: str, dtype: np.dtype) -> Any:
    """The value that leaves a position unchanged under ``reduction``."""
    if reduction in ("mul", "div"):
        return 1
    if is_float_dtype(dtype):
        return -np.inf if reduction == "max" else np.inf
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    if info is None:  # bool
        return reduction == "min"
    return info.min if reduction == "max" else info.max


class ScatterNDReduce(Op):
    """``x`` with ``upd[b]`` combined into ``x[idx[b, 0], ..., idx[b, k-1]]`` by ``reduction`` (mul, div, max,
    min); repeated positions combine in order."""

    save_output = True

    def forward(self, x, idx, upd, *, reduction):
        flat = nd_positions(x.shape, idx).reshape(-1)
        vals = np.ascontiguousarray(upd, dtype=x.dtype).reshape(-1)
        out = x.copy()
        view = out.reshape(-1)
        if reduction == "div":
            if is_float_dtype(x.dtype):
                np.divide.at(view, flat, vals)
            else:  # integer division truncates; trunc(trunc(a / b) / c) == trunc(a / (b * c))
                prod = np.ones_like(view)
                np.multiply.at(prod, flat, vals)
                q = np.abs(view) // np.abs(prod)
                view[...] = np.where((view < 0) != (prod < 0), -q, q)
        else:
            _AT[reduction].at(view, flat, vals)
        return out

    def backward(self, ctx, g, *, reduction):
        from cellonnx.ops.prims import math as m
        from cellonnx.ops.prims.creation import zeros_like
        x, idx, upd = ctx.inputs
        out = ctx.out
        if reduction in ("max", "min"):
            x_hit = m.cast(m.equal(x, out), g._data.dtype)
            upd_hit = m.cast(m.equal(upd, GatherND.apply(out, idx)), g._data.dtype)
            count = m.add(x_hit, ScatterNDAdd.apply(zeros_like(g), idx, upd_hit))
            share = m.div(g, count)
            return (m.mul(share, x_hit) if ctx.needs_grad(0) else None, None,
                    m.mul(GatherND.apply(share, idx), upd_hit) if ctx.needs_grad(2) else None)
        gx = ScatterNDReduce.apply(g, idx, upd, reduction=reduction) if ctx.needs_grad(0) else None
        if not ctx.needs_grad(2):
            return gx, None, None
        g_out = GatherND.apply(m.mul(g, out), idx)
        if reduction == "div":
            return gx, None, m.neg(m.div(g_out, upd))
        # mul: d out / d u_k = out / u_k; where u_k is 0 take the product of the others directly
        zero = m.equal(upd, 0)
        safe = m.where(zero, 1, upd)
        others = GatherND.apply(m.mul(g, ScatterNDReduce.apply(x, idx, safe, reduction="mul")), idx)
        return gx, None, m.where(zero, others, m.div(g_out, safe))

    def lower(self, g, x, idx, upd, *, reduction):
        dtype = g.in_tensors[0]._data.dtype
        if g.opset >= _ONNX_SINCE[reduction]:
            if reduction == "div":
                ones = g.op("ConstantOfShape", g.op("Shape", x), value=_scalar_attr(1, dtype))
                return g.op("Div", x, g.op("ScatterND", ones, idx, upd, reduction="mul"))
            return g.op("ScatterND", x, idx, upd, reduction=reduction)
        lin, data, rows = nd_rows(g, x, idx, upd)                        # (K,), (N, R), (K, R)
        n = g.op("Gather", g.op("Shape", data), g.i64(0), axis=0)
        hit = g.op("Equal", g.unsqueeze(lin, [1]), g.unsqueeze(g.op("Range", g.i64(0), n, g.i64(1)), [0]))
        ident = g.const(np.asarray(_identity(reduction, dtype), dtype=dtype))
        spread = g.op("Where", g.unsqueeze(hit, [2]), g.unsqueeze(rows, [1]), ident)   # (K, N, R)
        kind = {"mul": "ReduceProd", "div": "ReduceProd", "max": "ReduceMax", "min": "ReduceMin"}[reduction]
        combined = g.axes([0], kind, spread, keepdims=0)
        joined = g.op({"mul": "Mul", "div": "Div", "max": "Max", "min": "Min"}[reduction], data, combined)
        return g.op("Reshape", joined, g.op("Shape", x))

    def check(self, x, idx, upd, *, reduction):
        k = idx.shape[-1] if idx.ndim else 0
        want = idx.shape[:-1] + x.shape[k:]
        if upd.shape != want:
            return f"updates of shape {upd.shape}, expected indices.shape[:-1] + input_x.shape[{k}:] = {want}"
        return f"an index is out of range for the leading dims {x.shape[:k]} of the input"


def _scalar_attr(value: Any, dtype: np.dtype) -> Any:
    from onnx import numpy_helper
    return numpy_helper.from_array(np.asarray([value], dtype=dtype))


# ---------------------------------------------------------------- functional API
def _operands(input_x: Any, indices: Any, updates: Any, op: str) -> tuple[Tensor, Tensor, Tensor]:
    x = to_tensor(input_x)
    idx = _int64(_index(indices, op))
    upd = _cast_like(to_tensor(updates, x), x)
    if idx.ndim < 1:
        raise ValueError(f"{op}: indices must have at least 1 dimension, got a 0-d tensor")
    k = int(idx._data.shape[-1])
    want = tuple(idx._data.shape[:-1]) + tuple(x._data.shape[k:])
    if k > x.ndim or tuple(upd._data.shape) != want:
        raise ValueError(f"{op}: updates of shape {tuple(upd.shape)} do not match indices {tuple(idx.shape)} "
                         f"and input_x {tuple(x.shape)} (expected indices.shape[:-1] + input_x.shape[{k}:] = "
                         f"{want})")
    return x, idx, upd


def tensor_scatter_reduce(input_x: Any, indices: Any, updates: Any, reduction: str, op: str) -> Tensor:
    """The shared body of the tensor_scatter_* functions (not public MindSpore API)."""
    x, idx, upd = _operands(input_x, indices, updates, op)
    if reduction == "add":
        return ScatterNDAdd.apply(x, idx, upd)
    if reduction == "sub":
        from cellonnx.ops.prims.math import neg
        return ScatterNDAdd.apply(x, idx, neg(upd))
    if reduction == "update":
        return ScatterNDSet.apply(x, idx, upd)
    return ScatterNDReduce.apply(x, idx, upd, reduction=reduction)


def scatter_nd(indices: Any, updates: Tensor, shape: Any) -> Tensor:
    """A zero tensor of ``shape`` with ``updates[b]`` added at ``indices[b]`` (the last axis of ``indices``
    addresses the leading dims; repeated indices accumulate).

    Args:
        indices (Tensor): int32 / int64 of shape (..., k), k <= len(shape).
        updates (Tensor): shape ``indices.shape[:-1] + shape[k:]``.
        shape (tuple[int]): the output shape.

    Examples:
        >>> print(ops.scatter_nd(Tensor(np.array([[0], [2], [0]])), Tensor([1.0, 2.0, 3.0]), (4,)))
        [4. 0. 2. 0.]
    """
    from cellonnx.ops.prims.creation import Fill
    upd = to_tensor(updates)
    if isinstance(shape, Tensor):
        shape = tuple(int(v) for v in shape._data.reshape(-1))
    zeros = Fill.apply(shape=tuple(shape), value=0, dtype=upd._data.dtype)
    return tensor_scatter_reduce(zeros, indices, upd, "add", "scatter_nd")


def tensor_scatter_sub(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """``input_x`` with ``updates[b]`` subtracted at ``input_x[indices[b]]`` (repeats accumulate).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> indices = Tensor(np.array([[0], [2]]), ms.int32)
        >>> updates = Tensor(np.array([10.0, 30.0]), ms.float32)
        >>> print(ops.tensor_scatter_sub(x, indices, updates))
        [ -9.   2. -27.]
    """
    return tensor_scatter_reduce(input_x, indices, updates, "sub", "tensor_scatter_sub")


def tensor_scatter_mul(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """``input_x`` with ``input_x[indices[b]]`` multiplied by ``updates[b]`` (repeats multiply).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> indices = Tensor(np.array([[0], [2]]), ms.int32)
        >>> updates = Tensor(np.array([10.0, 30.0]), ms.float32)
        >>> print(ops.tensor_scatter_mul(x, indices, updates))
        [10.  2. 90.]
    """
    return tensor_scatter_reduce(input_x, indices, updates, "mul", "tensor_scatter_mul")


def tensor_scatter_div(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """``input_x`` with ``input_x[indices[b]]`` divided by ``updates[b]`` (repeats divide in turn; integer
    division truncates).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> input_x = Tensor(np.array([[8.0, 6.0], [4.0, 2.0]]), ms.float32)
        >>> indices = Tensor(np.array([[0, 0], [1, 1]]), ms.int32)
        >>> updates = Tensor(np.array([2.0, 4.0]), ms.float32)
        >>> print(ops.tensor_scatter_div(input_x, indices, updates))
        [[4.  6. ]
         [4.  0.5]]
    """
    return tensor_scatter_reduce(input_x, indices, updates, "div", "tensor_scatter_div")


def tensor_scatter_max(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """``input_x`` with ``input_x[indices[b]] = max(input_x[indices[b]], updates[b])``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> indices = Tensor(np.array([[0], [2]]), ms.int32)
        >>> updates = Tensor(np.array([10.0, 0.0]), ms.float32)
        >>> print(ops.tensor_scatter_max(x, indices, updates))
        [10.  2.  3.]
    """
    return tensor_scatter_reduce(input_x, indices, updates, "max", "tensor_scatter_max")


def tensor_scatter_min(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """``input_x`` with ``input_x[indices[b]] = min(input_x[indices[b]], updates[b])``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> input_x = Tensor(np.array([[8.0, 6.0], [4.0, 2.0]]), ms.float32)
        >>> indices = Tensor(np.array([[0, 0], [1, 1]]), ms.int32)
        >>> updates = Tensor(np.array([2.0, 4.0]), ms.float32)
        >>> print(ops.tensor_scatter_min(input_x, indices, updates))
        [[2. 6.]
         [4. 2.]]
    """
    return tensor_scatter_reduce(input_x, indices, updates, "min", "tensor_scatter_min")


def tensor_scatter_update(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """``input_x`` with ``updates[b]`` written at ``input_x[indices[b]]`` (for a repeated index the last
    update wins).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> indices = Tensor(np.array([[0, 0], [1, 2]]), ms.int32)
        >>> updates = Tensor(np.array([5.0, 7.0]), ms.float32)
        >>> print(ops.tensor_scatter_update(x, indices, updates))
        [[5. 0. 0.]
         [0. 0. 7.]]
    """
    return tensor_scatter_reduce(input_x, indices, updates, "update", "tensor_scatter_update")


__all__ = ["scatter_nd", "tensor_scatter_div", "tensor_scatter_max", "tensor_scatter_min",
           "tensor_scatter_mul", "tensor_scatter_sub", "tensor_scatter_update"]
