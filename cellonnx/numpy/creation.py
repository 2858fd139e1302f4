"""Array creation: array / asarray, ones / zeros / full / empty and their ``*_like`` forms, arange, linspace,
logspace, geomspace, eye and identity (mindspore.numpy.array_creations).

Python ints give int32 tensors and Python floats float32 ones, as in MindSpore (see ``_utils``).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.dtypes import DType
from cellonnx.numpy._utils import (
    PYTHON_FLOAT,
    PYTHON_INT,
    axis_index,
    broadcast_shape,
    cast,
    check_dtype,
    to_tensor,
)
from cellonnx.tensor import Tensor

_ARRAY_TYPES = (int, float, bool, list, tuple, Tensor, np.ndarray, np.generic)


def _shape(shape: Any, op: str) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = shape._data.tolist()
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (int(shape),)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"{op}: shape must be an int, tuple, list or Tensor, got {type(shape).__name__}")
    out = []
    for s in shape:
        if hasattr(s, "onnx_name"):  # a symbolic dim while tracing
            out.append(s)
            continue
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"{op}: each entry of shape must be an int, got {shape!r}")
        if s < 0:
            raise ValueError(f"{op}: each entry of shape must be non-negative, got {tuple(shape)}")
        out.append(int(s))
    return tuple(out)


def _scalar_dtype(*values: Any) -> DType:
    """The dtype MindSpore gives Python numbers: bool when all are bools, int32 when all are ints, else
    float32 (None entries are ignored)."""
    given = [v for v in values if v is not None]
    if all(isinstance(v, (bool, np.bool_)) for v in given):
        return dtypes.bool_
    if all(isinstance(v, (int, np.integer)) for v in given):
        return PYTHON_INT
    return PYTHON_FLOAT


# ---------------------------------------------------------------- conversion
def asarray(a: Any, dtype: Any = None) -> Tensor:
    """Converts the input to a tensor.

    Args:
        a (Union[int, float, bool, list, tuple, Tensor]): input data; nested lists may hold Tensors.
        dtype (Union[DType, str], optional): the result's dtype. Default: inferred from ``a`` (Python ints
            give int32 and floats float32).

    Returns:
        Tensor. ``a`` itself when it is a Tensor of the requested dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.asarray([1, 2, 3], dtype=mnp.float32)
        >>> print(x)
        [1. 2. 3.]
    """
    if isinstance(a, Tensor):
        return a if dtype is None else cast(a, check_dtype(dtype, "asarray"))
    return to_tensor(a, None if dtype is None else check_dtype(dtype, "asarray"))


def copy_(a: Any) -> Tensor:
    """Returns a tensor copy of the given object.

    Args:
        a (Union[int, float, bool, list, tuple, Tensor]): input data.

    Returns:
        Tensor, a new tensor with the data of ``a`` (gradients flow through it).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([1, 2])
        >>> print(mnp.copy(x))
        [1 2]
    """
    a = asarray(a)
    return F.mul(a, 1) if a._data.dtype != np.bool_ else F.logical_and(a, True)


def array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """Creates a tensor.

    Args:
        obj (Union[int, float, bool, list, tuple, Tensor]): input data.
        dtype (Union[DType, str], optional): the result's dtype. Default: inferred from ``obj``.
        copy (bool): copy a Tensor input (otherwise it may be returned as is). Default: True.
        ndmin (int): minimum number of dimensions; leading size-1 axes are added. Default: 0.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 2], [3, 4]])
        >>> x.shape
        (2, 2)
        >>> print(x.dtype)
        Int32
        >>> print(mnp.array([1.0, 2.0]).dtype)
        Float32
    """
    res = asarray(obj, dtype)
    if ndmin > res.ndim:
        if res.size == 0:
            raise ValueError("array: an empty tensor cannot be expanded beyond its current dimension")
        res = F.reshape(res, (1,) * (ndmin - res.ndim) + tuple(res.shape))
    if copy and isinstance(obj, Tensor) and res is obj:
        res = copy_(res)
    return res


def asfarray(a: Any, dtype: Any = dtypes.float32) -> Tensor:
    """Converts the input to a float tensor.

    Args:
        a (Union[int, float, bool, list, tuple, Tensor]): input data.
        dtype (Union[DType, str]): a float dtype; an integer or bool one means float32. None: ``asarray``.
            Default: float32.

    Returns:
        Tensor of a float dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.asfarray([1, 2, 3])
        >>> print(x, x.dtype)
        [1. 2. 3.] Float32
    """
    if dtype is None:
        return asarray(a)
    d = check_dtype(dtype, "asfarray")
    if not d.is_floating_point:
        d = dtypes.float32
    return asarray(a, d)


# ---------------------------------------------------------------- filled tensors
def ones(shape: Any, dtype: Any = dtypes.float32) -> Tensor:
    """Returns a new tensor of given shape and type, filled with ones.

    Args:
        shape (Union[int, tuple, list]): the shape.
        dtype (Union[DType, str]): the dtype. Default: float32.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.ones((2, 2), mnp.int32))
        [[1 1]
         [1 1]]
    """
    return F.ones(_shape(shape, "ones"), dtype=check_dtype(dtype, "ones"))


def zeros(shape: Any, dtype: Any = dtypes.float32) -> Tensor:
    """Returns a new tensor of given shape and type, filled with zeros.

    Args:
        shape (Union[int, tuple, list]): the shape.
        dtype (Union[DType, str]): the dtype. Default: float32.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.zeros((2, 3)))
        [[0. 0. 0.]
         [0. 0. 0.]]
    """
    return F.zeros(_shape(shape, "zeros"), dtype=check_dtype(dtype, "zeros"))


def empty(shape: Any, dtype: Any = dtypes.float32) -> Tensor:
    """Returns a new tensor of given shape and type (filled with zeros, as MindSpore's).

    Args:
        shape (Union[int, tuple, list]): the shape.
        dtype (Union[DType, str]): the dtype. Default: float32.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.empty((2, 3)).shape
        (2, 3)
    """
    return zeros(shape, dtype)


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """Returns a new tensor of given shape and type, filled with ``fill_value``.

    Args:
        shape (Union[int, tuple, list]): the shape.
        fill_value (Union[int, float, bool, list, tuple, Tensor]): the value (an array is broadcast).
        dtype (Union[DType, str], optional): the dtype. Default: ``fill_value``'s (a Python int gives int32,
            a float float32, a bool bool).

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.full((2, 3), 7))
        [[7 7 7]
         [7 7 7]]
    """
    shape = _shape(shape, "full")
    if not isinstance(fill_value, _ARRAY_TYPES):
        raise TypeError(f"full: fill_value must be a number, list, tuple or Tensor, got "
                        f"{type(fill_value).__name__}")
    d = None if dtype is None else check_dtype(dtype, "full")
    if isinstance(fill_value, (bool, int, float, np.number, np.bool_)):
        d = d or _scalar_dtype(fill_value.item() if isinstance(fill_value, np.generic) else fill_value)
        return F.full(shape, fill_value, dtype=d)
    value = to_tensor(fill_value)
    if d is not None:
        value = cast(value, d)
    return F.broadcast_to(value, shape)


def _like(prototype: Any, dtype: Any, shape: Any, op: str) -> tuple[Tensor, DType, Any]:
    if not isinstance(prototype, _ARRAY_TYPES):
        raise TypeError(f"{op}: the prototype must be a number, list, tuple or Tensor, got "
                        f"{type(prototype).__name__}")
    proto = to_tensor(prototype)
    d = proto.dtype if dtype is None else check_dtype(dtype, op)
    # an empty shape means the prototype's shape (as in MindSpore)
    same = shape is None or (isinstance(shape, (tuple, list)) and not shape)
    return proto, d, None if same else _shape(shape, op)


def empty_like(prototype: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """Returns a new tensor with the same shape and type as a given one (filled with zeros, as MindSpore's).

    Args:
        prototype (Union[Tensor, list, tuple]): gives the shape and dtype.
        dtype (Union[DType, str], optional): overrides the dtype.
        shape (Union[int, tuple, list], optional): overrides the shape.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.empty_like(mnp.ones((2, 3))).shape
        (2, 3)
    """
    return zeros_like(prototype, dtype, shape)


def ones_like(a: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """Returns a tensor of ones with the same shape and type as a given one.

    Args:
        a (Union[Tensor, list, tuple]): gives the shape and dtype.
        dtype (Union[DType, str], optional): overrides the dtype.
        shape (Union[int, tuple, list], optional): overrides the shape.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1.0, 2.0]])
        >>> print(mnp.ones_like(x))
        [[1. 1.]]
    """
    proto, d, s = _like(a, dtype, shape, "ones_like")
    return F.ones_like(proto, dtype=d) if s is None else F.ones(s, dtype=d)


def zeros_like(a: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """Returns a tensor of zeros with the same shape and type as a given one.

    Args:
        a (Union[Tensor, list, tuple]): gives the shape and dtype.
        dtype (Union[DType, str], optional): overrides the dtype.
        shape (Union[int, tuple, list], optional): overrides the shape.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 2], [3, 4]])
        >>> print(mnp.zeros_like(x))
        [[0 0]
         [0 0]]
    """
    proto, d, s = _like(a, dtype, shape, "zeros_like")
    return F.zeros_like(proto, dtype=d) if s is None else F.zeros(s, dtype=d)


def full_like(a: Any, fill_value: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """Returns a full tensor with the same shape and type as a given one.

    Args:
        a (Union[Tensor, list, tuple]): gives the shape and dtype.
        fill_value (Union[int, float, bool, list, tuple, Tensor]): the value (cast to the dtype).
        dtype (Union[DType, str], optional): overrides the dtype.
        shape (Union[int, tuple, list], optional): overrides the shape.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 2], [3, 4]])
        >>> print(mnp.full_like(x, 9))
        [[9 9]
         [9 9]]
    """
    proto, d, s = _like(a, dtype, shape, "full_like")
    if s is None and isinstance(fill_value, (bool, int, float)):
        return F.full_like(proto, fill_value, dtype=d)
    return full(tuple(proto.shape) if s is None else s, fill_value, d)


# ---------------------------------------------------------------- ranges
def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> Tensor:
    """Returns evenly spaced values within a given interval.

    Args:
        start (Union[int, float]): the start, or the end (from 0) when ``stop`` is None.
        stop (Union[int, float], optional): the end (excluded).
        step (Union[int, float], optional): the spacing. Default: 1.
        dtype (Union[DType, str], optional): the dtype. Default: int32 when every argument is an int,
            float32 otherwise.

    Returns:
        Tensor of ``ceil((stop - start) / step)`` values (empty when that is not positive).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.arange(5))
        [0 1 2 3 4]
        >>> print(mnp.arange(1, 2, 0.25))
        [1.   1.25 1.5  1.75]
    """
    d = _scalar_dtype(start, stop, step) if dtype is None else check_dtype(dtype, "arange")
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if step == 0:
        raise ValueError("arange: step must not be 0")
    num = max(math.ceil((stop - start) / step), 0)
    if d == dtypes.bool_:  # all-bool arguments: computed as numbers, then cast (as MindSpore does)
        return cast(F.arange(int(start), int(start) + num * int(step), int(step), dtype=dtypes.int32), d)
    if d.is_floating_point or any(isinstance(v, float) for v in (start, stop, step)):
        # start + i * step, as NumPy computes it, rather than accumulating the step
        out = F.add(F.mul(F.arange(0, num, 1, dtype=dtypes.float64), float(step)), float(start))
        return cast(out, d)
    return F.arange(int(start), int(start) + num * int(step), int(step), dtype=d)


def _bounds(start: Any, stop: Any, op: str) -> tuple[Tensor, Tensor]:
    for name, v in (("start", start), ("stop", stop)):
        if not isinstance(v, _ARRAY_TYPES):
            raise TypeError(f"{op}: {name} must be a number, list, tuple or Tensor, got {type(v).__name__}")
    lo = start if isinstance(start, Tensor) else cast(to_tensor(start), np.float32)
    hi = stop if isinstance(stop, Tensor) else cast(to_tensor(stop), np.float32)
    lo, hi = (F.cast(t, np.float32) if not t.dtype.is_floating_point else t for t in (lo, hi))
    shape = broadcast_shape(tuple(lo.shape), tuple(hi.shape))
    return F.broadcast_to(lo, shape), F.broadcast_to(hi, shape)


def _spaced(start: Tensor, stop: Tensor, num: int, endpoint: bool, axis: int) -> tuple[Tensor, Any]:
    """``num`` values from start to stop (``stop`` included with ``endpoint``) along a new ``axis``, and the
    step (a Tensor, or NaN for a single value with ``endpoint``)."""
    if isinstance(num, bool) or not isinstance(num, (int, np.integer)):
        raise TypeError(f"linspace: num must be an int, got {type(num).__name__}")
    if num < 0:
        raise ValueError(f"linspace: num must be non-negative, got {num}")
    if not isinstance(endpoint, bool):
        raise TypeError(f"linspace: endpoint must be a bool, got {type(endpoint).__name__}")
    ndim = start.ndim
    a = axis_index(axis, ndim + 1, "linspace")
    bounds_shape = tuple(start.shape[:a]) + (1,) + tuple(start.shape[a:])
    lo, hi = F.reshape(start, bounds_shape), F.reshape(stop, bounds_shape)
    span = F.sub(stop, start)
    if num == 0:
        empty_shape = list(bounds_shape)
        empty_shape[a] = 0
        return F.zeros(tuple(empty_shape), dtype=lo.dtype), F.div(span, 1.0)
    if num == 1:
        return lo, (math.nan if endpoint else span)
    div = num - 1 if endpoint else num
    delta = F.div(span, float(div))
    iota_shape = [1] * (ndim + 1)
    iota_shape[a] = num - 1 if endpoint else num
    iota = F.reshape(cast(F.arange(0, iota_shape[a], 1, dtype=dtypes.int32), lo.dtype), tuple(iota_shape))
    out = F.add(lo, F.mul(iota, F.reshape(delta, bounds_shape)))
    if endpoint:  # the last value is exactly ``stop``
        out = F.concat((out, hi), a)
    return out, delta


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, axis: int = 0) -> Any:
    """Returns evenly spaced values within a given interval.

    Args:
        start (Union[int, float, list, tuple, Tensor]): the first value(s).
        stop (Union[int, float, list, tuple, Tensor]): the last value(s), broadcast against ``start``.
        num (int): how many values. Default: 50.
        endpoint (bool): include ``stop``. Default: True.
        retstep (bool): also return the step. Default: False.
        dtype (Union[DType, str], optional): the result's dtype. Default: float32.
        axis (int): where the new axis goes (for array bounds). Default: 0.

    Returns:
        Tensor, or (Tensor, step) with ``retstep``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.linspace(0, 1, 5))
        [0.   0.25 0.5  0.75 1.  ]
    """
    lo, hi = _bounds(start, stop, "linspace")
    d = dtypes.float32 if dtype is None else check_dtype(dtype, "linspace")
    if not isinstance(retstep, bool):
        raise TypeError(f"linspace: retstep must be a bool, got {type(retstep).__name__}")
    out, step = _spaced(lo, hi, num, endpoint, axis)
    out = cast(out, d)
    return (out, step) if retstep else out


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: Any = 10.0, dtype: Any = None,
             axis: int = 0) -> Tensor:
    """Returns numbers spaced evenly on a log scale: ``base ** linspace(start, stop, ...)``.

    Args:
        start (Union[int, float, list, tuple, Tensor]): ``base ** start`` is the first value.
        stop (Union[int, float, list, tuple, Tensor]): ``base ** stop`` is the last value.
        num (int): how many values. Default: 50.
        endpoint (bool): include the last value. Default: True.
        base (Union[int, float]): the base. Default: 10.0.
        dtype (Union[DType, str], optional): the result's dtype. Default: float32.
        axis (int): where the new axis goes. Default: 0.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.logspace(0, 2, 3))
        [  1.  10. 100.]
    """
    if not isinstance(base, (int, float, bool)):
        raise TypeError(f"logspace: base must be a number, got {type(base).__name__}")
    lo, hi = _bounds(start, stop, "logspace")
    d = dtypes.float32 if dtype is None else check_dtype(dtype, "logspace")
    exponents, _ = _spaced(lo, hi, num, endpoint, axis)
    return cast(F.pow(float(base), exponents), d)


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Tensor:
    """Returns numbers spaced evenly on a log scale (a geometric progression).

    Args:
        start (Union[int, float, list, tuple, Tensor]): the first value(s).
        stop (Union[int, float, list, tuple, Tensor]): the last value(s).
        num (int): how many values. Default: 50.
        endpoint (bool): include ``stop``. Default: True.
        dtype (Union[DType, str], optional): the result's dtype. Default: float32.
        axis (int): where the new axis goes. Default: 0.

    Returns:
        Tensor, ``start * (stop / start) ** (i / (num - 1))``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.geomspace(1, 1000, 4).asnumpy().round(2))
        [   1.   10.  100. 1000.]
    """
    lo, hi = _bounds(start, stop, "geomspace")
    root = num - 1 if endpoint else num
    ratio = F.pow(F.div(hi, lo), 1.0 / root) if root > 0 else F.ones_like(lo)
    exponents, _ = _spaced(F.zeros_like(lo), F.full_like(lo, float(root)), num, endpoint, axis)
    if dtype is not None:
        exponents = cast(exponents, check_dtype(dtype, "geomspace"))
    a = axis_index(axis, lo.ndim + 1, "geomspace")
    expanded = tuple(lo.shape[:a]) + (1,) + tuple(lo.shape[a:])
    res = F.mul(F.pow(F.reshape(ratio, expanded), exponents), F.reshape(lo, expanded))
    return res if dtype is None else cast(res, check_dtype(dtype, "geomspace"))


# ---------------------------------------------------------------- identity matrices
def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = dtypes.float32) -> Tensor:
    """Returns a 2-D tensor with ones on the ``k``-th diagonal and zeros elsewhere.

    Args:
        N (int): number of rows.
        M (int, optional): number of columns. Default: N.
        k (int): the diagonal: 0 the main one, positive above it, negative below. Default: 0.
        dtype (Union[DType, str]): the dtype. Default: float32.

    Returns:
        Tensor of shape (N, M).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.eye(3))
        [[1. 0. 0.]
         [0. 1. 0.]
         [0. 0. 1.]]
    """
    d = check_dtype(dtype, "eye")
    M = N if M is None else M
    for name, v in (("N", N), ("M", M), ("k", k)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"eye: {name} must be an int, got {type(v).__name__}")
    if N == 0 or M == 0 or k >= M or k <= -N:
        return F.zeros((N, M), dtype=d)
    if k == 0:
        return F.eye(N, M, d)
    rows = F.arange(0, N, 1, dtype=dtypes.int32)
    cols = F.arange(0, M, 1, dtype=dtypes.int32)
    return cast(F.equal(F.add(F.reshape(rows, (N, 1)), k), F.reshape(cols, (1, M))), d)


def identity(n: int, dtype: Any = dtypes.float32) -> Tensor:
    """Returns the identity tensor (a square matrix with ones on the main diagonal).

    Args:
        n (int): number of rows and columns.
        dtype (Union[DType, str]): the dtype. Default: float32.

    Returns:
        Tensor of shape (n, n).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.identity(2))
        [[1. 0.]
         [0. 1.]]
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"identity: n must be an int, got {type(n).__name__}")
    return eye(n, dtype=dtype)

__all__ = ["arange", "array", "asarray", "asfarray", "copy_", "empty", "empty_like", "eye", "full",
           "full_like", "geomspace", "identity", "linspace", "logspace", "ones", "ones_like", "zeros",
           "zeros_like"]
