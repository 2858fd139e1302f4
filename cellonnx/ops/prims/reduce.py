"""Reductions: sum, mean, max, min, prod, argmax/argmin (keep_dims as in MindSpore)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims._util import (
    count_of,
    is_float_dtype,
    norm_axes,
    norm_axis,
    row_sums,
    sum_axes,
    to_tensor,
)
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def _keep_shape(shape: tuple, axes: tuple[int, ...] | None) -> tuple:
    return tuple(1 if axes is None or i in axes else d for i, d in enumerate(shape))


def _expand_grad(g: Tensor, x: Tensor, axes: tuple[int, ...] | None, keep_dims: bool) -> Tensor:
    """Bring a reduced gradient back to a shape that broadcasts against x."""
    from cellonnx.ops.prims.shape import reshape

    if keep_dims or x.ndim == 0:
        return g
    return reshape(g, _keep_shape(x.shape, axes))


class ReduceSum(Op):
    saved_inputs = ()  # backward reads only the shape
    def forward(self, x, *, axes, keep_dims):
        return sum_axes(x, axes, keep_dims)

    def backward(self, ctx, g, *, axes, keep_dims):
        from cellonnx.ops.prims.shape import broadcast_to
        x = ctx.inputs[0]
        return (broadcast_to(_expand_grad(g, x, axes, keep_dims), x.shape),)

    def lower(self, g, x, *, axes, keep_dims):
        return g.axes(axes, "ReduceSum", x, keepdims=int(keep_dims))


class ReduceMean(Op):
    saved_inputs = ()  # backward reads only the shape
    def forward(self, x, *, axes, keep_dims):
        total = row_sums(x, axes, keep_dims)
        if total is None:
            return np.mean(x, axis=axes, keepdims=keep_dims, dtype=x.dtype)
        total /= x.dtype.type(x.size // (total.size or 1))
        return total

    def backward(self, ctx, g, *, axes, keep_dims):
        from cellonnx.ops.prims.math import div
        from cellonnx.ops.prims.shape import broadcast_to
        x = ctx.inputs[0]
        divisor = count_of(x.shape, axes, g._data.dtype)  # read at run time when the batch is dynamic
        return (broadcast_to(div(_expand_grad(g, x, axes, keep_dims), divisor), x.shape),)

    def lower(self, g, x, *, axes, keep_dims):
        return g.axes(axes, "ReduceMean", x, keepdims=int(keep_dims))


class _ReduceExtreme(Op, register=False):
    save_output = True
    onnx_type = ""
    np_fn: Any = None

    def forward(self, x, *, axes, keep_dims):
        return type(self).np_fn(x, axis=axes, keepdims=keep_dims)

    def backward(self, ctx, g, *, axes, keep_dims):
        # gradient split evenly between tied extremes, as MindSpore's ReduceMax does
        from cellonnx.ops.prims.math import cast, div, equal, mul
        x = ctx.inputs[0]
        y = _expand_grad(ctx.out, x, axes, keep_dims)
        mask = cast(equal(x, y), g.dtype)
        count = reduce_sum(mask, axes, keep_dims=True)
        return (mul(div(mask, count), _expand_grad(g, x, axes, keep_dims)),)

    def lower(self, g, x, *, axes, keep_dims):
        if axes is None or g.opset < 18:
            return g.op(self.onnx_type, x, axes=list(axes) if axes is not None else None,
                        keepdims=int(keep_dims))
        return g.op(self.onnx_type, x, g.i64(list(axes)), keepdims=int(keep_dims))


class ReduceMax(_ReduceExtreme):
    onnx_type, np_fn = "ReduceMax", np.amax


class ReduceMin(_ReduceExtreme):
    onnx_type, np_fn = "ReduceMin", np.amin


class ReduceProd(Op):
    save_output = True

    def forward(self, x, *, axes, keep_dims):
        return np.prod(x, axis=axes, keepdims=keep_dims, dtype=x.dtype)

    def backward(self, ctx, g, *, axes, keep_dims):
        # d prod / d x_i = prod / x_i (inputs without zeros; the usual framework trade-off)
        from cellonnx.ops.prims.math import div, mul
        x = ctx.inputs[0]
        y = _expand_grad(ctx.out, x, axes, keep_dims)
        return (mul(_expand_grad(g, x, axes, keep_dims), div(y, x)),)

    def lower(self, g, x, *, axes, keep_dims):
        return g.axes(axes, "ReduceProd", x, keepdims=int(keep_dims))


class ArgMax(Op):
    differentiable = False

    def forward(self, x, *, axis, keep_dims):
        return np.argmax(x, axis=axis, keepdims=keep_dims).astype(np.int64)

    def lower(self, g, x, *, axis, keep_dims):
        return g.op("ArgMax", x, axis=axis, keepdims=int(keep_dims), select_last_index=0)


class ArgMin(Op):
    differentiable = False

    def forward(self, x, *, axis, keep_dims):
        return np.argmin(x, axis=axis, keepdims=keep_dims).astype(np.int64)

    def lower(self, g, x, *, axis, keep_dims):
        return g.op("ArgMin", x, axis=axis, keepdims=int(keep_dims), select_last_index=0)


# ---------------------------------------------------------------- functional API
def reduce_sum(x: Tensor, axis: Any = (), keep_dims: bool = False) -> Tensor:
    """Sum over ``axis`` (an int or a tuple; all axes when ``()`` or None), keeping them as size 1 with
    ``keep_dims``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.reduce_sum(x, 1))
        [3. 7.]
    """
    x = to_tensor(x)
    if axis is None or axis == ():
        axes = None
    elif type(axis) is tuple and all(type(a) is int and 0 <= a < x._data.ndim for a in axis):
        axes = axis  # already normalized: the common case inside gradients
    else:
        axes = norm_axes(axis, x.ndim, "reduce_sum")
    return ReduceSum.apply(x, axes=axes, keep_dims=keep_dims)


def sum(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None,
        axis: Any = None, keep_dims: bool | None = None) -> Tensor:
    """Sum over ``dim`` (all axes when None). ``axis`` / ``keep_dims`` are accepted as aliases.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.sum(x))
        21.0
        >>> print(ops.sum(x, dim=0))
        [5. 7. 9.]
        >>> print(ops.sum(x, dim=1, keepdim=True))
        [[ 6.]
         [15.]]
    """
    from cellonnx.ops.prims.math import cast
    input = to_tensor(input)
    if dtype is not None:
        input = cast(input, dtype)
    elif input._data.dtype == np.bool_:
        input = cast(input, np.int64)
    axes = norm_axes(dim if axis is None else axis, input.ndim, "sum")
    return ReduceSum.apply(input, axes=axes, keep_dims=keepdim if keep_dims is None else keep_dims)


def mean(x: Tensor, axis: Any = None, keep_dims: bool = False, *, dim: Any = None,
         keepdim: bool | None = None) -> Tensor:
    """The mean over ``axis`` (all axes when None or ``()``); integers are averaged in float32.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.mean(x))
        3.5
        >>> print(ops.mean(x, axis=1))
        [2. 5.]
    """
    from cellonnx.ops.prims.math import cast
    x = to_tensor(x)
    if not is_float_dtype(x._data.dtype):
        x = cast(x, np.float32)
    axes = norm_axes(axis if dim is None else dim, x.ndim, "mean")
    return ReduceMean.apply(x, axes=axes, keep_dims=keep_dims if keepdim is None else keepdim)


def _extreme(op: type[Op], name: str, input: Tensor, axis: Any, keepdims: bool, initial: Any,
             where: Any) -> Tensor:
    from cellonnx.ops.prims.math import maximum, minimum
    from cellonnx.ops.prims.math import where as select
    input = to_tensor(input)
    if where is not None:
        if initial is None:
            raise ValueError(f"{name}: a where mask needs an initial value (for slices it leaves empty)")
        input = select(where, input, initial)
    out = op.apply(input, axes=norm_axes(axis, input.ndim, name), keep_dims=keepdims)
    if initial is not None:
        out = (maximum if op is ReduceMax else minimum)(out, initial)
    return out


def amax(input: Tensor, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None,
         keep_dims: bool | None = None) -> Tensor:
    """The maximum over ``axis`` (all axes when None); ``initial`` takes part in every maximum, and
    ``where`` (a bool mask, with ``initial``) leaves elements out.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.amax(x, axis=1))
        [7. 9.]
    """
    kd = keepdims if keep_dims is None else keep_dims
    return _extreme(ReduceMax, "amax", input, axis, kd, initial, where)


def amin(input: Tensor, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None,
         keep_dims: bool | None = None) -> Tensor:
    """The minimum over ``axis`` (all axes when None); ``initial`` takes part in every minimum, and
    ``where`` (a bool mask, with ``initial``) leaves elements out.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.amin(x, axis=1))
        [1. 5.]
    """
    kd = keepdims if keep_dims is None else keep_dims
    return _extreme(ReduceMin, "amin", input, axis, kd, initial, where)


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False, *, axis: int | None = None,
           keep_dims: bool | None = None) -> Tensor:
    """Index of the maximum along ``dim`` (over the flattened tensor when None).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.argmax(x, dim=1))
        [1 0]
    """
    from cellonnx.ops.prims.shape import reshape
    d = dim if axis is None else axis
    kd = keepdim if keep_dims is None else keep_dims
    if d is None:
        return ArgMax.apply(reshape(input, (-1,)), axis=0, keep_dims=False)
    return ArgMax.apply(input, axis=norm_axis(d, input.ndim, "argmax"), keep_dims=kd)


def argmin(input: Tensor, axis: int | None = None, keepdims: bool = False, *, dim: int | None = None,
           keepdim: bool | None = None, keep_dims: bool | None = None) -> Tensor:
    """Index (int32) of the minimum along ``axis`` (over the flattened tensor when None); ``dim`` /
    ``keepdim`` / ``keep_dims`` are accepted as aliases.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.argmin(x, axis=1))
        [0 1]
    """
    from cellonnx.ops.prims.math import cast
    from cellonnx.ops.prims.shape import reshape
    d = axis if dim is None else dim
    kd = keepdims if keepdim is None and keep_dims is None else bool(keepdim or keep_dims)
    if d is None:
        out = ArgMin.apply(reshape(input, (-1,)), axis=0, keep_dims=False)
    else:
        out = ArgMin.apply(input, axis=norm_axis(d, input.ndim, "argmin"), keep_dims=kd)
    return cast(out, np.int32)  # MindSpore's argmin gives int32 (argmax int64)


def max(input: Tensor, axis: int | None = None, keepdims: bool = False, *, initial: Any = None,
        where: Any = None, return_indices: bool = False) -> Any:
    """MindSpore's ops.max: with ``axis`` None the maximum over all elements; with an axis, the tuple
    (values, indices) as in MindSpore 2.x.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> values, indices = ops.max(x, axis=1)
        >>> print(values)
        [7. 9.]
        >>> print(indices)
        [1 0]
    """
    if axis is None:
        return ReduceMax.apply(input, axes=None, keep_dims=keepdims)
    a = norm_axis(axis, input.ndim, "max")
    return (ReduceMax.apply(input, axes=(a,), keep_dims=keepdims),
            ArgMax.apply(input, axis=a, keep_dims=keepdims))


def min(input: Tensor, axis: int | None = None, keepdims: bool = False, *, initial: Any = None,
        where: Any = None, return_indices: bool = False) -> Any:
    """The smallest element of ``input``; with ``axis``, the minima along it and their indices.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> values, indices = ops.min(x, axis=0)
        >>> print(values)
        [1. 5. 3.]
        >>> print(indices)
        [0 1 0]
    """
    if axis is None:
        return ReduceMin.apply(input, axes=None, keep_dims=keepdims)
    a = norm_axis(axis, input.ndim, "min")
    return (ReduceMin.apply(input, axes=(a,), keep_dims=keepdims),
            ArgMin.apply(input, axis=a, keep_dims=keepdims))


def prod(input: Tensor, axis: Any = None, keep_dims: bool = False, dtype: Any = None) -> Tensor:
    """The product of the elements along ``axis`` (all of them when None).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.prod(x, axis=1))
        [  6. 120.]
    """
    from cellonnx.ops.prims.math import cast
    if dtype is not None:
        input = cast(input, dtype)
    return ReduceProd.apply(input, axes=norm_axes(axis, input.ndim, "prod"), keep_dims=keep_dims)

__all__ = ["amax", "amin", "argmax", "argmin", "max", "mean", "min", "prod", "reduce_sum", "sum"]
