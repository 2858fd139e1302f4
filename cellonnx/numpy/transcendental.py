"""Element-wise exponentials, logarithms, powers and roots, trigonometric and hyperbolic functions
(mindspore.numpy.math_ops)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.numpy._utils import apply, as_float, cast, finish, is_int, to_tensor
from cellonnx.numpy.arithmetic import power
from cellonnx.numpy.dtypes import promote
from cellonnx.ops.prims._util import promote as promote_tensors
from cellonnx.ops.prims.math import Div
from cellonnx.tensor import Tensor

# MindSpore's float type for trigonometric functions of integer and bool inputs
_TRIG_DTYPE = {
    np.dtype(np.int8): np.float16, np.dtype(np.uint8): np.float16, np.dtype(np.bool_): np.float16,
    np.dtype(np.int16): np.float32, np.dtype(np.int32): np.float32, np.dtype(np.int64): np.float32,
    np.dtype(np.uint16): np.float32, np.dtype(np.uint32): np.float32, np.dtype(np.uint64): np.float32,
}


def _trig(x: Any) -> Tensor:
    """``x`` in its float type for trigonometry: float inputs stay, 8-bit integers and bools become float16,
    wider integers float32 (as MindSpore)."""
    t = to_tensor(x)
    target = _TRIG_DTYPE.get(t._data.dtype)
    return t if target is None else cast(t, target)


# ---------------------------------------------------------------- exponentials and logarithms
def exp(x: Any, dtype: Any = None) -> Tensor:
    """Calculates the exponential of all elements.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.exp(mnp.array([0.0, 1.0, 2.0])).asnumpy().round(4))
        [1.     2.7183 7.3891]
    """
    return apply(F.exp, x, dtype=dtype)


def exp2(x: Any, dtype: Any = None) -> Tensor:
    """Calculates ``2 ** x`` for all elements (integer exponents give integers, as in MindSpore).

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.exp2(mnp.array([0.0, 1.0, 3.0])))
        [1. 2. 8.]
    """
    return power(2, x, dtype)


def expm1(x: Any, dtype: Any = None) -> Tensor:
    """Calculates ``exp(x) - 1`` for all elements, accurately for small ``x``.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.expm1(mnp.array([0.0, 1.0])).asnumpy().round(4))
        [0.     1.7183]
    """
    return apply(lambda t: F.expm1(as_float(t)), x, dtype=dtype)


def log(x: Any, dtype: Any = None) -> Tensor:
    """Returns the natural logarithm, element-wise.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.log(mnp.array([1.0, 2.0, 4.0])).asnumpy().round(4))
        [0.     0.6931 1.3863]
    """
    return apply(F.log, x, dtype=dtype)


def log2(x: Any, dtype: Any = None) -> Tensor:
    """Base-2 logarithm, ``log(x) / log(2)``.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.log2(mnp.array([1.0, 2.0, 8.0])))
        [0. 1. 3.]
    """
    return apply(lambda t: F.div(F.log(as_float(t)), math.log(2.0)), x, dtype=dtype)


def log10(x: Any, dtype: Any = None) -> Tensor:
    """Base-10 logarithm, ``log(x) / log(10)``.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.log10(mnp.array([1.0, 10.0, 100.0])))
        [0. 1. 2.]
    """
    return apply(lambda t: F.div(F.log(as_float(t)), math.log(10.0)), x, dtype=dtype)


def log1p(x: Any, dtype: Any = None) -> Tensor:
    """Returns the natural logarithm of one plus the input, accurately for small ``x``.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.log1p(mnp.array([0.0, 1.0])).asnumpy().round(4))
        [0.     0.6931]
    """
    return apply(lambda t: F.log1p(as_float(t)), x, dtype=dtype)


def _logaddexp(a: Tensor, b: Tensor, base_log: float) -> Tensor:
    a, b = promote_tensors(as_float(a), as_float(b))
    m = F.maximum(a, b)
    # where both are the same infinity the difference is NaN: 0 then gives m (+ a finite term)
    d = F.where(F.isinf(m), 0.0, F.sub(a, b))
    tail = F.log1p(F.exp(F.mul(F.neg(F.abs(d)), base_log)))
    return F.add(m, F.div(tail, base_log) if base_log != 1.0 else tail)


def logaddexp(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Logarithm of the sum of exponentiations of the inputs, ``log(exp(x1) + exp(x2))``, computed stably.

    Args:
        x1 (Tensor): input.
        x2 (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.logaddexp(mnp.array([0.0, 1.0]), mnp.array([0.0, 2.0])).asnumpy().round(4))
        [0.6931 2.3133]
    """
    return apply(lambda a, b: _logaddexp(a, b, 1.0), x1, x2, dtype=dtype)


def logaddexp2(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Logarithm in base 2 of the sum of the inputs' powers of 2, ``log2(2**x1 + 2**x2)``, computed stably.

    Args:
        x1 (Tensor): input.
        x2 (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.logaddexp2(mnp.array([1.0, 2.0]), mnp.array([1.0, 3.0])).asnumpy().round(4))
        [2.    3.585]
    """
    return apply(lambda a, b: _logaddexp(a, b, math.log(2.0)), x1, x2, dtype=dtype)


# ---------------------------------------------------------------- powers and roots
def square(x: Any, dtype: Any = None) -> Tensor:
    """Returns the element-wise square of the input.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the input's dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.square(mnp.array([-2.0, 3.0])))
        [4. 9.]
    """
    return apply(F.square, x, dtype=dtype)


def sqrt(x: Any, dtype: Any = None) -> Tensor:
    """Returns the non-negative square root, element-wise.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.sqrt(mnp.array([1.0, 4.0, 9.0])))
        [1. 2. 3.]
    """
    return apply(F.sqrt, x, dtype=dtype)


def cbrt(x: Any, dtype: Any = None) -> Tensor:
    """Returns the cube root, element-wise.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32 (float16 too, as MindSpore promotes with float32).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.cbrt(mnp.array([1.0, 8.0, 27.0])).asnumpy().round(4))
        [1. 2. 3.]
    """
    def _cbrt(t: Tensor) -> Tensor:
        t = cast(t, promote(t.dtype, dtypes.float32))
        return F.mul(F.sign(t), F.pow(F.abs(t), 1.0 / 3.0))
    return apply(_cbrt, x, dtype=dtype)


def reciprocal(x: Any, dtype: Any = None) -> Tensor:
    """Returns the reciprocal ``1 / x``, element-wise.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the input's dtype (integers divide with truncation, as MindSpore: 0 unless x is +-1).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.reciprocal(mnp.array([1.0, 2.0, 4.0])))
        [1.   0.5  0.25]
    """
    def _reciprocal(t: Tensor) -> Tensor:
        if is_int(t):
            return Div.apply(F.ones_like(t), t)
        return F.reciprocal(t)
    return apply(_reciprocal, x, dtype=dtype)


# ---------------------------------------------------------------- trigonometry
def _trig_apply(fn: Any, x: Any, dtype: Any) -> Tensor:
    return finish(fn(_trig(x)), dtype)


def sin(x: Any, dtype: Any = None) -> Tensor:
    """Trigonometric sine, element-wise.

    Args:
        x (Tensor): input in radians.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; int8, uint8 and bool give float16, wider integers float32 (as MindSpore).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.sin(mnp.array([0.0, 1.5707964])).asnumpy().round(4))
        [0. 1.]
    """
    return _trig_apply(F.sin, x, dtype)


def cos(x: Any, dtype: Any = None) -> Tensor:
    """Cosine element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.cos(mnp.array([0.0, 3.1415927])).asnumpy().round(4))
        [ 1. -1.]
    """
    return _trig_apply(F.cos, x, dtype)


def tan(x: Any, dtype: Any = None) -> Tensor:
    """Computes the tangent element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.tan(mnp.array([0.0, 0.7853982])).asnumpy().round(4))
        [0. 1.]
    """
    return _trig_apply(F.tan, x, dtype)


def arcsin(x: Any, dtype: Any = None) -> Tensor:
    """Inverse sine, element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.arcsin(mnp.array([0.0, 1.0])).asnumpy().round(4))
        [0.     1.5708]
    """
    return _trig_apply(F.asin, x, dtype)


def arccos(input: Any, dtype: Any = None) -> Tensor:
    """Trigonometric inverse cosine, element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.arccos(mnp.array([1.0, 0.0])).asnumpy().round(4))
        [0.     1.5708]
    """
    return _trig_apply(F.acos, input, dtype)


def arctan(x: Any, dtype: Any = None) -> Tensor:
    """Trigonometric inverse tangent, element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.arctan(mnp.array([0.0, 1.0])).asnumpy().round(4))
        [0.     0.7854]
    """
    return _trig_apply(F.atan, x, dtype)


def sinh(x: Any, dtype: Any = None) -> Tensor:
    """Hyperbolic sine, element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.sinh(mnp.array([0.0, 1.0])).asnumpy().round(4))
        [0.     1.1752]
    """
    return _trig_apply(F.sinh, x, dtype)


def cosh(x: Any, dtype: Any = None) -> Tensor:
    """Hyperbolic cosine, element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.cosh(mnp.array([0.0, 1.0])).asnumpy().round(4))
        [1.     1.5431]
    """
    return _trig_apply(F.cosh, x, dtype)


def tanh(x: Any, dtype: Any = None) -> Tensor:
    """Computes the hyperbolic tangent element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.tanh(mnp.array([-1.0, 0.0, 1.0])).asnumpy().round(4))
        [-0.7616  0.      0.7616]
    """
    return _trig_apply(F.tanh, x, dtype)


def arcsinh(x: Any, dtype: Any = None) -> Tensor:
    """Inverse hyperbolic sine, element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.arcsinh(mnp.array([0.0, 1.0])).asnumpy().round(4))
        [0.     0.8814]
    """
    return _trig_apply(F.asinh, x, dtype)


def arccosh(x: Any, dtype: Any = None) -> Tensor:
    """Inverse hyperbolic cosine, element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.arccosh(mnp.array([1.0, 2.0])).asnumpy().round(4))
        [0.    1.317]
    """
    return _trig_apply(F.acosh, x, dtype)


def arctanh(x: Any, dtype: Any = None) -> Tensor:
    """Inverse hyperbolic tangent, element-wise (see ``sin`` for the dtypes).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.arctanh(mnp.array([0.0, 0.5])).asnumpy().round(4))
        [0.     0.5493]
    """
    return _trig_apply(F.atanh, x, dtype)


def arctan2(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Element-wise arc tangent of ``x1 / x2``, choosing the quadrant correctly.

    Args:
        x1 (Tensor): the y-coordinates.
        x2 (Tensor): the x-coordinates.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor in radians, in [-pi, pi] (dtypes as ``sin``, then promoted).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.arctan2(mnp.array([1.0, 1.0]), mnp.array([1.0, -1.0])).asnumpy().round(4))
        [0.7854 2.3562]
    """
    return finish(F.atan2(_trig(x1), _trig(x2)), dtype)


def deg2rad(x: Any, dtype: Any = None) -> Tensor:
    """Converts angles from degrees to radians.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.deg2rad(mnp.array([0.0, 90.0, 180.0])).asnumpy().round(4))
        [0.     1.5708 3.1416]
    """
    return apply(lambda t: F.div(F.mul(as_float(t), math.pi), 180.0), x, dtype=dtype)


def radians(x: Any, dtype: Any = None) -> Tensor:
    """Converts angles from degrees to radians (see ``deg2rad``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.radians(mnp.array([0.0, 180.0])).asnumpy().round(4))
        [0.     3.1416]
    """
    return deg2rad(x, dtype)


def rad2deg(x: Any, dtype: Any = None) -> Tensor:
    """Converts angles from radians to degrees.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.rad2deg(mnp.array([0.0, 3.1415927])).asnumpy().round(2))
        [  0. 180.]
    """
    return apply(lambda t: F.div(F.mul(as_float(t), 180.0), math.pi), x, dtype=dtype)

__all__ = [
    "arccos",
    "arccosh",
    "arcsin",
    "arcsinh",
    "arctan",
    "arctan2",
    "arctanh",
    "cbrt",
    "cos",
    "cosh",
    "deg2rad",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "logaddexp",
    "logaddexp2",
    "rad2deg",
    "radians",
    "reciprocal",
    "sin",
    "sinh",
    "sqrt",
    "square",
    "tan",
    "tanh",
]
