"""Creation primitives: zeros, ones, full, arange, eye and the *_like forms.

They are ops (with no tensor inputs, or one whose shape they copy) so that a symbolic shape in a traced
graph becomes ConstantOfShape over the runtime shape instead of a baked constant.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from onnx import numpy_helper

from cellonnx import dtypes
from cellonnx.ops.prims._util import to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def _value_attr(value: Any, dtype: np.dtype) -> Any:
    return numpy_helper.from_array(np.asarray([value], dtype=dtype))


class Fill(Op):
    differentiable = False

    def forward(self, *, shape, value, dtype):
        return np.full(tuple(int(d) for d in shape), value, dtype=dtype)

    def lower(self, g, *, shape, value, dtype):
        return g.op("ConstantOfShape", g.shape_value(shape), value=_value_attr(value, dtype))


class FillLike(Op):
    differentiable = False

    def forward(self, x, *, value, dtype):
        return np.full(x.shape, value, dtype=dtype or x.dtype)

    def lower(self, g, x, *, value, dtype):
        dt = dtype or g.in_tensors[0]._data.dtype
        return g.op("ConstantOfShape", g.op("Shape", x), value=_value_attr(value, dt))


class Arange(Op):
    differentiable = False

    def forward(self, *, start, limit, delta, dtype):
        # a dynamic dim's example size (the lowering reads the dim at run time): NumPy's length arithmetic
        # would otherwise make a float of it
        start, limit, delta = (int(v) if hasattr(v, "onnx_name") else v for v in (start, limit, delta))
        return np.arange(start, limit, delta, dtype=dtype)

    def lower(self, g, *, start, limit, delta, dtype):
        def scalar(v: Any) -> str:
            if hasattr(v, "onnx_name"):
                s = g.op("Squeeze", v.onnx_name(g), g.i64([0]))
                return g.op("Cast", s, to=dtypes.dtype(dtype).onnx)
            return g.const(np.asarray(v, dtype=dtype))
        return g.op("Range", scalar(start), scalar(limit), scalar(delta))


class Eye(Op):
    differentiable = False

    def forward(self, *, n, m, dtype):
        return np.eye(n, m, dtype=dtype)

    def lower(self, g, *, n, m, dtype):
        zeros = g.op("ConstantOfShape", g.shape_value([n, m]), value=_value_attr(0, dtype))
        return g.op("EyeLike", zeros, dtype=dtypes.dtype(dtype).onnx)


def _shape_arg(size: Any) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    if len(size) == 1 and isinstance(size[0], Tensor):
        return tuple(int(v) for v in size[0]._data.reshape(-1))
    return tuple(size)


def _size_and_dtype(size: tuple, dtype: Any) -> tuple[tuple, Any]:
    """MindSpore's ``(shape, dtype)`` positional form beside the ``(*size, dtype=...)`` one."""
    if dtype is None and len(size) == 2 and not isinstance(size[1], (int, np.integer, Tensor)):
        return size[:1], size[1]
    return size, dtype


def _np(dtype: Any, default: Any = dtypes.float32) -> np.dtype:
    return dtypes.to_numpy(dtype if dtype is not None else default)


def zeros(*size: Any, dtype: Any = None) -> Tensor:
    """``ops.zeros(shape, dtype=float32)``.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.zeros((2, 2), dtype=ms.int32))
        [[0 0]
         [0 0]]
        >>> print(ops.zeros((2, 3), ms.float16).dtype)
        Float16
    """
    size, dtype = _size_and_dtype(size, dtype)
    return Fill.apply(shape=_shape_arg(size), value=0, dtype=_np(dtype))


def ones(*size: Any, dtype: Any = None) -> Tensor:
    """A tensor of ones of the given shape and dtype.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.ones((2, 3), dtype=ms.float32))
        [[1. 1. 1.]
         [1. 1. 1.]]
        >>> ops.ones(3, ms.int32)
        Tensor(shape=[3], dtype=Int32, value= [1, 1, 1])
    """
    size, dtype = _size_and_dtype(size, dtype)
    return Fill.apply(shape=_shape_arg(size), value=1, dtype=_np(dtype))


def full(size: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """A tensor of the given shape filled with ``fill_value``.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.full((2, 3), 7.0, dtype=ms.float32))
        [[7. 7. 7.]
         [7. 7. 7.]]
    """
    if dtype is None:
        dtype = dtypes.bool_ if isinstance(fill_value, bool) else \
            dtypes.int64 if isinstance(fill_value, int) else dtypes.float32
    return Fill.apply(shape=_shape_arg((size,)), value=fill_value, dtype=_np(dtype))


def zeros_like(input: Tensor, *, dtype: Any = None) -> Tensor:
    """A tensor of zeros of ``input``'s shape and (unless given) dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> print(ops.zeros_like(x))
        [[0. 0.]]
    """
    return FillLike.apply(to_tensor(input), value=0, dtype=None if dtype is None else _np(dtype))


def ones_like(input: Tensor, *, dtype: Any = None) -> Tensor:
    """A tensor of ones of ``input``'s shape and (unless given) dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> print(ops.ones_like(x))
        [[1 1]
         [1 1]]
    """
    return FillLike.apply(to_tensor(input), value=1, dtype=None if dtype is None else _np(dtype))


def full_like(input: Tensor, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """A tensor of ``input``'s shape (and dtype, unless given) filled with ``fill_value``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> print(ops.full_like(x, 9))
        [[9 9]
         [9 9]]
    """
    return FillLike.apply(to_tensor(input), value=fill_value, dtype=None if dtype is None else _np(dtype))


def arange(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None) -> Tensor:
    """MindSpore's ops.arange: int64 for integer arguments, float32 when any is a float.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.arange(5))
        [0 1 2 3 4]
        >>> print(ops.arange(1, 2, 0.25, dtype=ms.float32))
        [1.   1.25 1.5  1.75]
    """
    if end is None:
        start, end = 0, start
    if dtype is None:
        dtype = dtypes.float32 if any(isinstance(v, float) for v in (start, end, step)) else dtypes.int64
    return Arange.apply(start=start, limit=end, delta=step, dtype=_np(dtype))


def eye(n: int, m: int | None = None, dtype: Any = None) -> Tensor:
    """The 2-D identity matrix: ones on the diagonal, zeros elsewhere.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.eye(2, 3, ms.int32))
        [[1 0 0]
         [0 1 0]]
    """
    return Eye.apply(n=n, m=n if m is None else m, dtype=_np(dtype))

__all__ = ["arange", "eye", "full", "full_like", "ones", "ones_like", "zeros", "zeros_like"]
