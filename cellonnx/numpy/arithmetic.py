"""Element-wise arithmetic: add ... power, division and remainders, maximum / minimum / clip, abs / sign /
copysign, heaviside, hypot, rounding, gcd / lcm and the bitwise operations (mindspore.numpy.math_ops).

Every function takes array-likes (Python numbers are int32 / float32 tensors, as in MindSpore) and an optional
``dtype`` the result is cast to.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.numpy._utils import (
    apply,
    as_float,
    broadcast,
    broadcast_shape,
    cast,
    finish,
    is_float,
    is_int,
    to_tensor,
    to_tensors,
)
from cellonnx.numpy.dtypes import promote
from cellonnx.ops import registry
from cellonnx.ops.prims._util import promote as promote_tensors
from cellonnx.ops.prims.math import Div
from cellonnx.tensor import Tensor

_F16_F32 = (np.dtype(np.float16), np.dtype(np.float32))


# ---------------------------------------------------------------- + - * /
def add(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Adds arguments element-wise.

    Args:
        x1 (Union[Tensor, list, int, float, bool]): input.
        x2 (Union[Tensor, list, int, float, bool]): input, broadcast with ``x1``.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the promoted dtype (Python ints count as int32 and floats as float32).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([1.0, 2.0, 3.0])
        >>> print(mnp.add(x, 10))
        [11. 12. 13.]
    """
    return apply(F.add, x1, x2, dtype=dtype)


def subtract(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Subtracts arguments element-wise (see ``add``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([1.0, 2.0, 3.0])
        >>> print(mnp.subtract(x, mnp.array([3.0, 2.0, 1.0])))
        [-2.  0.  2.]
    """
    return apply(F.sub, x1, x2, dtype=dtype)


def multiply(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Multiplies arguments element-wise (see ``add``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 2], [3, 4]])
        >>> print(mnp.multiply(x, mnp.array([10, 100])))
        [[ 10 200]
         [ 30 400]]
    """
    return apply(F.mul, x1, x2, dtype=dtype)


def divide(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns a true division of the inputs, element-wise.

    Args:
        x1 (Union[Tensor, list, int, float, bool]): the dividend.
        x2 (Union[Tensor, list, int, float, bool]): the divisor.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor. As in MindSpore, unless one operand is float16 or float32 both are divided as float32 (so
        integers, and float64 operands too, give float32).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([1.0, 2.0, 3.0])
        >>> print(mnp.divide(x, 2.0))
        [0.5 1.  1.5]
    """
    a, b = to_tensors(x1, x2)
    if a._data.dtype not in _F16_F32 and b._data.dtype not in _F16_F32:
        a, b = cast(a, np.float32), cast(b, np.float32)
    return finish(F.div(a, b), dtype)


def true_divide(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns a true division of the inputs, element-wise (see ``divide``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([1, 2, 3])
        >>> print(mnp.true_divide(x, 2))
        [0.5 1.  1.5]
    """
    return divide(x1, x2, dtype)


def _int_power(a: Tensor, b: Tensor) -> Tensor:
    """Integer power; a negative exponent gives the truncated real power (0 unless the base is +-1), as in
    MindSpore (NumPy refuses negative integer exponents)."""
    exact = F.pow(a, F.maximum(b, 0))
    if registry.TRACE_HOOK is None and not (b._data < 0).any():
        return exact
    real = F.pow(cast(a, np.float64), cast(b, np.float64))
    return F.where(F.less(b, 0), cast(F.where(F.isfinite(real), real, 0.0), a._data.dtype), exact)


def power(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """First array elements raised to powers from the second, element-wise.

    Args:
        x1 (Union[Tensor, list, int, float]): the bases.
        x2 (Union[Tensor, list, int, float]): the exponents.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the promoted dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([1.0, 2.0, 3.0])
        >>> print(mnp.power(x, 2))
        [1. 4. 9.]
    """
    a, b = promote_tensors(*to_tensors(x1, x2))
    out = _int_power(a, b) if is_int(a) else F.pow(a, b)
    return finish(out, dtype)


def float_power(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """First array elements raised to powers from the second, computed in float32 (MindSpore's float type for
    this function; NumPy uses float64).

    Args:
        x1 (Union[Tensor, list, int, float]): the bases.
        x2 (Union[Tensor, list, int, float]): the exponents.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor, float32 unless ``dtype``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.float_power(mnp.array([1.0, 2.0, 3.0]), 2))
        [1. 4. 9.]
    """
    a, b = to_tensors(x1, x2)
    return finish(F.pow(cast(a, np.float32), cast(b, np.float32)), dtype)


def _trunc(t: Tensor) -> Tensor:
    return F.where(F.less(t, 0), F.ceil(t), F.floor(t))


def floor_divide(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the largest integer smaller or equal to the division of the inputs.

    Args:
        x1 (Union[Tensor, list, int, float]): the dividend.
        x2 (Union[Tensor, list, int, float]): the divisor.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the promoted dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([7, -7])
        >>> print(mnp.floor_divide(x, 2))
        [ 3 -4]
    """
    return apply(F.floor_div, x1, x2, dtype=dtype)


def _remainder(a: Tensor, b: Tensor) -> Tensor:
    a, b = promote_tensors(a, b)
    if is_int(a):  # an integer divided by zero leaves 0 (as MindSpore and NumPy)
        zero = F.equal(b, 0)
        return F.where(zero, 0, F.floor_mod(a, F.where(zero, 1, b)))
    return F.floor_mod(a, b)


def remainder(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the element-wise remainder of division, with the sign of the divisor (Python's ``%``).

    Args:
        x1 (Union[Tensor, list, int, float]): the dividend.
        x2 (Union[Tensor, list, int, float]): the divisor.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the promoted dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([-3, -1, 4])
        >>> print(mnp.mod(x, 3))
        [0 2 1]
    """
    return apply(_remainder, x1, x2, dtype=dtype)


def _fmod(a: Tensor, b: Tensor) -> Tensor:
    a, b = promote_tensors(a, b)
    if is_int(a):
        zero = F.equal(b, 0)
        safe = F.where(zero, 1, b)
        return F.where(zero, 0, F.sub(a, F.mul(safe, Div.apply(a, safe))))  # Div truncates integers
    return F.sub(a, F.mul(b, _trunc(F.div(a, b))))


def fmod(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the element-wise remainder of division, with the sign of the dividend (C's ``fmod``).

    Args:
        x1 (Union[Tensor, list, int, float]): the dividend.
        x2 (Union[Tensor, list, int, float]): the divisor.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the promoted dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([-3, -1, 4])
        >>> print(mnp.fmod(x, 3))
        [ 0 -1  1]
    """
    return apply(_fmod, x1, x2, dtype=dtype)


def divmod_(x1: Any, x2: Any, dtype: Any = None) -> tuple[Tensor, Tensor]:
    """Returns element-wise quotient and remainder simultaneously: ``(floor_divide, remainder)``.

    Args:
        x1 (Union[Tensor, list, int, float]): the dividend.
        x2 (Union[Tensor, list, int, float]): the divisor.
        dtype (Union[DType, str], optional): cast both results to it.

    Returns:
        Tuple of two tensors.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> q, r = mnp.divmod(mnp.array([7, -7]), 3)
        >>> print(q, r)
        [ 2 -3] [1 2]
    """
    a, b = to_tensors(x1, x2)
    return finish(F.floor_div(a, b), dtype), finish(_remainder(a, b), dtype)


# ---------------------------------------------------------------- extrema
def _extremum(fn: Any, x1: Any, x2: Any, dtype: Any) -> Tensor:
    a, b = to_tensors(x1, x2)
    if a.ndim == 0 and b.ndim != 0:  # a scalar operand does not promote the other (MindSpore's rule)
        dtype = b.dtype
    elif b.ndim == 0 and a.ndim != 0:
        dtype = a.dtype
    a, b = promote_tensors(a, b)
    out = fn(a, b)
    if is_float(a):  # NaN in either operand gives NaN
        nan = F.logical_or(F.isnan(a), F.isnan(b))
        if registry.TRACE_HOOK is not None or nan._data.any():
            out = F.where(nan, math.nan, out)
    return finish(out, dtype)


def maximum(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the element-wise maximum of array elements; NaN propagates.

    Args:
        x1 (Union[Tensor, list, int, float, bool]): input.
        x2 (Union[Tensor, list, int, float, bool]): input, broadcast with ``x1``.
        dtype (Union[DType, str], optional): cast the result to it. Against a 0-d operand the result keeps
            the other operand's dtype (MindSpore's rule).

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.maximum(mnp.array([1.0, 5.0]), mnp.array([4.0, 2.0])))
        [4. 5.]
    """
    return _extremum(F.maximum, x1, x2, dtype)


def minimum(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the element-wise minimum of array elements; NaN propagates (see ``maximum``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.minimum(mnp.array([1.0, 5.0]), mnp.array([4.0, 2.0])))
        [1. 2.]
    """
    return _extremum(F.minimum, x1, x2, dtype)


def clip(x: Any, xmin: Any, xmax: Any, dtype: Any = None) -> Tensor:
    """Clips (limits) the values of a tensor to [xmin, xmax].

    Args:
        x (Tensor): input.
        xmin (Union[Tensor, int, float, None]): the lower bound (None: none).
        xmax (Union[Tensor, int, float, None]): the upper bound (None: none).
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor (number bounds keep ``x``'s dtype).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([-3.0, 0.5, 2.0, 7.0])
        >>> print(mnp.clip(x, 0.0, 1.0))
        [0.  0.5 1.  1. ]
    """
    if xmin is None and xmax is None:
        raise ValueError("clip: at least one of xmin and xmax must be given")
    if xmin is not None:
        x = maximum(x, xmin, dtype)
    if xmax is not None:
        x = minimum(x, xmax, dtype)
    return x


# ---------------------------------------------------------------- signs
def absolute(x: Any, dtype: Any = None) -> Tensor:
    """Calculates the absolute value element-wise.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([-1.5, 0.0, 2.0])
        >>> print(mnp.abs(x))
        [1.5 0.  2. ]
    """
    return apply(F.abs, x, dtype=dtype)


def negative(a: Any, dtype: Any = None) -> Tensor:
    """Numerical negative, element-wise.

    Args:
        a (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.negative(mnp.array([1.0, -2.0])))
        [-1.  2.]
    """
    return apply(F.neg, a, dtype=dtype)


def positive(a: Any, dtype: Any = None) -> Tensor:
    """Numerical positive, element-wise (a copy of the input).

    Args:
        a (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.positive(mnp.array([1.0, -2.0])))
        [ 1. -2.]
    """
    return apply(lambda t: F.neg(F.neg(t)), a, dtype=dtype)


def sign(x: Any, dtype: Any = None) -> Tensor:
    """Returns an element-wise indication of the sign of a number: -1, 0 or 1 (NaN for NaN).

    Args:
        x (Union[Tensor, list, int, float]): input (not bool).
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32, as MindSpore computes ``x / |x|``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.sign(mnp.array([-3.0, 0.0, 2.5])))
        [-1.  0.  1.]
    """
    t = to_tensor(x)
    if t._data.dtype == np.bool_:
        raise TypeError("sign: bool input is not supported")
    return finish(F.sign(as_float(t)), dtype)


def copysign(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Changes the sign of ``x1`` to that of ``x2``, element-wise.

    As in MindSpore the sign of ``x2`` is ``x2 < 0``: -0.0 and NaN count as positive (NumPy reads the sign
    bit), and the result keeps ``x1``'s dtype.

    Args:
        x1 (Union[Tensor, list, int, float]): the magnitudes.
        x2 (Union[Tensor, list, int, float]): the signs.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the broadcast shape.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.copysign(mnp.array([1.0, -2.0, 3.0]), mnp.array([-1.0, 1.0, -0.0])))
        [-1.  2.  3.]
    """
    a, b = to_tensors(x1, x2)
    if np.bool_ in (a._data.dtype, b._data.dtype):
        raise TypeError("copysign: bool input is not supported")
    shape = broadcast_shape(tuple(a.shape), tuple(b.shape), op="copysign")
    magnitude = broadcast(F.abs(a), shape)
    return finish(F.where(F.less(b, 0), F.neg(magnitude), magnitude), dtype)


def heaviside(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Computes the Heaviside step function: 0 where ``x1 < 0``, ``x2`` where ``x1 == 0``, 1 where ``x1 > 0``.

    Args:
        x1 (Union[Tensor, list, int, float]): input.
        x2 (Union[Tensor, list, int, float]): the value at zero.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the promoted dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.heaviside(mnp.array([-1.0, 0.0, 2.0]), mnp.array(0.5)))
        [0.  0.5 1. ]
    """
    a, b = to_tensors(x1, x2)
    d = promote(a.dtype, b.dtype)
    a, b = cast(a, d), cast(b, d)
    shape = broadcast_shape(tuple(a.shape), tuple(b.shape), op="heaviside")
    a, b = broadcast(a, shape), broadcast(b, shape)
    return finish(F.where(F.less(a, 0), 0, F.where(F.greater(a, 0), 1, b)), dtype)


def hypot(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Given the legs of a right triangle, returns its hypotenuse ``sqrt(x1**2 + x2**2)``.

    Args:
        x1 (Union[Tensor, list, int, float]): input.
        x2 (Union[Tensor, list, int, float]): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.hypot(mnp.array([3.0, 5.0]), mnp.array([4.0, 12.0])))
        [ 5. 13.]
    """
    a, b = promote_tensors(*to_tensors(x1, x2))
    a, b = as_float(a), as_float(b)
    return finish(F.sqrt(F.add(F.mul(a, a), F.mul(b, b))), dtype)


# ---------------------------------------------------------------- rounding
def floor(x: Any, dtype: Any = None) -> Tensor:
    """Returns the floor of the input, element-wise.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.floor(mnp.array([1.5, -1.5, 2.0])))
        [ 1. -2.  2.]
    """
    return apply(lambda t: F.floor(as_float(t)), x, dtype=dtype)


def ceil(x: Any, dtype: Any = None) -> Tensor:
    """Returns the ceiling of the input, element-wise.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor, float32 whatever the input's dtype (as MindSpore computes it).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.ceil(mnp.array([1.5, -1.5, 2.0])))
        [ 2. -1.  2.]
    """
    return apply(lambda t: F.ceil(cast(t, np.float32)), x, dtype=dtype)


def fix(x: Any) -> Tensor:
    """Rounds to the nearest integer towards zero.

    Args:
        x (Tensor): input.

    Returns:
        Tensor; as in MindSpore anything but float16 and float32 (integers, float64) gives float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.fix(mnp.array([1.7, -1.7])))
        [ 1. -1.]
    """
    t = to_tensor(x)
    return _trunc(t if t._data.dtype in _F16_F32 else cast(t, np.float32))


def trunc(x: Any, dtype: Any = None) -> Tensor:
    """Returns the truncated value of the input, element-wise (see ``fix``).

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.trunc(mnp.array([1.7, -1.7])))
        [ 1. -1.]
    """
    return apply(fix, x, dtype=dtype)


def rint(x: Any, dtype: Any = None) -> Tensor:
    """Rounds the elements to the nearest integer (halves to even).

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor; integers give float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.rint(mnp.array([0.5, 1.5, 2.6])))
        [0. 2. 3.]
    """
    return apply(lambda t: F.round(as_float(t)), x, dtype=dtype)


def around(a: Any, decimals: int = 0) -> Tensor:
    """Evenly rounds to the given number of decimals (halves to even).

    Args:
        a (Tensor): input.
        decimals (int): number of decimal places (negative: to tens, hundreds, ...). Default: 0.

    Returns:
        Tensor of ``a``'s dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.around(mnp.array([1.234, 5.678]), 1))
        [1.2 5.7]
    """
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)):
        raise TypeError(f"around: decimals must be an int, got {type(decimals).__name__}")
    t = to_tensor(a)
    if decimals == 0:
        return F.round(t)
    if is_int(t):
        if decimals > 0:
            return t
        scale = 10.0 ** -int(decimals)
        return cast(F.mul(F.round(F.div(cast(t, np.float64), scale)), scale), t._data.dtype)
    if decimals > 0:
        scale = 10.0 ** int(decimals)
        return F.div(F.round(F.mul(t, scale)), scale)
    scale = 10.0 ** -int(decimals)
    return F.mul(F.round(F.div(t, scale)), scale)


# ---------------------------------------------------------------- integer functions
_EUCLID_STEPS = {1: 12, 2: 23, 4: 46, 8: 92}  # enough Euclid steps for any operands of that integer size


def _gcd(a: Tensor, b: Tensor) -> Tensor:
    a, b = promote_tensors(a, b)
    a, b = F.abs(a), F.abs(b)
    steps = _EUCLID_STEPS.get(a._data.dtype.itemsize, 80) if is_int(a) else 80
    for _ in range(steps):
        if registry.TRACE_HOOK is None and not b._data.any():
            break
        done = F.equal(b, 0)
        a, b = F.where(done, a, b), F.where(done, 0, F.floor_mod(a, F.where(done, 1, b)))
    return a


def gcd(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the greatest common divisor of ``|x1|`` and ``|x2|``.

    Args:
        x1 (Union[Tensor, list, int]): input.
        x2 (Union[Tensor, list, int]): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the promoted dtype (gcd(0, 0) = 0).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.gcd(mnp.array([12, 18]), mnp.array([8, 27])))
        [4 9]
    """
    return apply(_gcd, x1, x2, dtype=dtype)


def lcm(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the lowest common multiple of ``|x1|`` and ``|x2|``.

    Args:
        x1 (Union[Tensor, list, int]): input.
        x2 (Union[Tensor, list, int]): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor of the promoted dtype (0 when either is 0).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.lcm(mnp.array([4, 6]), mnp.array([6, 10])))
        [12 30]
    """
    def _lcm(a: Tensor, b: Tensor) -> Tensor:
        a, b = promote_tensors(a, b)
        g = _gcd(a, b)
        zero = F.equal(g, 0)
        return F.where(zero, 0, F.mul(F.floor_div(F.abs(a), F.where(zero, 1, g)), F.abs(b)))
    return apply(_lcm, x1, x2, dtype=dtype)


def bitwise_and(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Computes the bit-wise AND of two integer or bool tensors element-wise.

    Args:
        x1 (Union[Tensor, list, int, bool]): input.
        x2 (Union[Tensor, list, int, bool]): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.bitwise_and(mnp.array([12, 10]), mnp.array([10, 6])))
        [8 2]
    """
    return apply(F.bitwise_and, x1, x2, dtype=dtype)


def bitwise_or(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Computes the bit-wise OR of two integer or bool tensors element-wise (see ``bitwise_and``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.bitwise_or(mnp.array([12, 10]), mnp.array([10, 6])))
        [14 14]
    """
    return apply(F.bitwise_or, x1, x2, dtype=dtype)


def bitwise_xor(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Computes the bit-wise XOR of two integer or bool tensors element-wise (see ``bitwise_and``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.bitwise_xor(mnp.array([12, 10]), mnp.array([10, 6])))
        [ 6 12]
    """
    return apply(F.bitwise_xor, x1, x2, dtype=dtype)


def _invert(t: Tensor) -> Tensor:
    return F.logical_not(t) if t._data.dtype == np.bool_ else F.invert(t)


def invert(x: Any, dtype: Any = None) -> Tensor:
    """Computes bit-wise inversion (bit-wise NOT) element-wise; for bools the logical NOT.

    Args:
        x (Union[Tensor, list, int, bool]): input.
        dtype (Union[DType, str], optional): cast the result to it.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.bitwise_not(mnp.array([0, 1, 5], dtype=mnp.int32)))
        [-1 -2 -6]
    """
    return apply(_invert, x, dtype=dtype)

__all__ = ["absolute", "add", "around", "bitwise_and", "bitwise_or", "bitwise_xor", "ceil", "clip",
           "copysign", "divide", "divmod_", "fix", "float_power", "floor", "floor_divide", "fmod", "gcd",
           "heaviside", "hypot", "invert", "lcm", "maximum", "minimum", "multiply", "negative", "positive",
           "power", "remainder", "rint", "sign", "subtract", "true_divide", "trunc"]
