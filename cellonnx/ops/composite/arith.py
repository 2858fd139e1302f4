"""Elementwise arithmetic over primitives: MindSpore's aliases (multiply, divide, subtract, eq ...), the
add-and-scale forms (addcdiv, addcmul, addn ...), exponents and logarithms in other bases, logaddexp,
xlogy, hypot, copysign, heaviside, fmax / fmin, frac, float_power, ldexp, logit, sinc, nan_to_num, isclose
and the shrink functions. Gradient and lowering come from the primitives they are written with."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.ops.prims._util import is_float_dtype, promote, to_tensor
from cellonnx.ops.prims.math import _floatify
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _float_pair(a: Any, b: Any) -> tuple[Tensor, Tensor]:
    a, b = promote(a, b)
    return _floatify(a), _floatify(b)


# ---------------------------------------------------------------- aliases and scaled sums
def multiply(input: Any, other: Any) -> Tensor:
    """``input * other`` (alias of :func:`mul`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.multiply(x, 2.0))
        [2. 4. 6.]
    """
    return F.mul(input, other)


def divide(input: Any, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    """``input / other`` (alias of :func:`div`): true division, or 'floor' / 'trunc' rounding.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.divide(x, 2.0))
        [0.5 1.  1.5]
    """
    return F.div(input, other, rounding_mode=rounding_mode)


def subtract(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """``input - alpha * other``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.subtract(x, 1.0))
        [0. 1. 2.]
    """
    return F.sub(input, other if alpha == 1 else F.mul(other, alpha))


def eq(input: Any, other: Any) -> Tensor:
    """``input == other`` elementwise (alias of :func:`equal`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.eq(x, 2))
        [False  True False]
    """
    return F.equal(input, other)


def positive(input: Tensor) -> Tensor:
    """``input`` itself.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, -2.0]), ms.float32)
        >>> print(ops.positive(x))
        [ 1. -2.]
    """
    return to_tensor(input)


def numel(input: Tensor) -> int:
    """The number of elements of ``input``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.numel(x)
        24
    """
    return int(to_tensor(input)._data.size)


def addn(x: Any) -> Tensor:
    """The elementwise sum of a list or tuple of tensors of one shape.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> y = Tensor(np.array([3.0, 4.0]), ms.float32)
        >>> print(ops.addn([x, y, x]))
        [5. 8.]
    """
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError(f"addn: x must be a non-empty list or tuple of tensors, got {type(x).__name__}")
    out = x[0]
    for t in x[1:]:
        out = F.add(out, t)
    return to_tensor(out)


def accumulate_n(x: Any) -> Tensor:
    """The elementwise sum of a list or tuple of tensors (as :func:`addn`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> b = Tensor(np.array([3.0, 4.0]), ms.float32)
        >>> print(ops.accumulate_n([a, b, a]))
        [5. 8.]
    """
    return addn(x)


def _value_like(value: Any, like: Tensor) -> Any:
    """MindSpore casts the scale of addcdiv / addcmul to the input's dtype."""
    return F.cast(value, like._data.dtype) if isinstance(value, Tensor) else value


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, value: Any = 1) -> Tensor:
    """``input + value * tensor1 / tensor2``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> t1 = Tensor(np.array([2.0, 3.0]), ms.float32)
        >>> t2 = Tensor(np.array([4.0, 6.0]), ms.float32)
        >>> print(ops.addcdiv(x, t1, t2, value=2.0))
        [2. 2.]
    """
    x = to_tensor(input)
    return F.add(x, F.mul(F.div(tensor1, tensor2), _value_like(value, x)))


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, value: Any = 1) -> Tensor:
    """``input + value * tensor1 * tensor2``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> t1 = Tensor(np.array([2.0, 3.0]), ms.float32)
        >>> t2 = Tensor(np.array([4.0, 5.0]), ms.float32)
        >>> print(ops.addcmul(x, t1, t2, value=0.5))
        [5.  8.5]
    """
    x = to_tensor(input)
    return F.add(x, F.mul(F.mul(tensor1, tensor2), _value_like(value, x)))


def inv(x: Tensor) -> Tensor:
    """``1 / x`` elementwise; integers stay integers (the quotient truncated, as in MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.inv(x))
        [1.   0.5  0.25]
    """
    x = to_tensor(x)
    if is_float_dtype(x._data.dtype):
        return F.reciprocal(x)
    from cellonnx.ops.prims.math import Div
    return Div.apply(F.ones_like(x), x)


# ---------------------------------------------------------------- exponents and logarithms
def exp2(input: Tensor) -> Tensor:
    """``2 ** input``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0, 3.0]), ms.float32)
        >>> print(ops.exp2(x))
        [1. 2. 8.]
    """
    x = _floatify(input)
    return F.pow(F.full_like(x, 2.0), x)


def log2(input: Tensor) -> Tensor:
    """The base-2 logarithm.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 8.0]), ms.float32)
        >>> print(ops.log2(x))
        [0. 1. 3.]
    """
    return F.div(F.log(_floatify(input)), math.log(2.0))


def log10(input: Tensor) -> Tensor:
    """The base-10 logarithm.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 10.0, 1000.0]), ms.float32)
        >>> print(ops.log10(x))
        [0. 1. 3.]
    """
    return F.div(F.log(_floatify(input)), math.log(10.0))


def logaddexp(input: Tensor, other: Tensor) -> Tensor:
    """``log(exp(input) + exp(other))`` without overflow: ``max + log1p(exp(-|input - other|))``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> y = Tensor(np.array([0.0, 2.0]), ms.float32)
        >>> print(ops.logaddexp(x, y).asnumpy().round(4))
        [0.6931 2.3133]
    """
    a, b = _float_pair(input, other)
    return F.add(F.maximum(a, b), F.log1p(F.exp(F.neg(F.abs(F.sub(a, b))))))


def logaddexp2(input: Tensor, other: Tensor) -> Tensor:
    """``log2(2 ** input + 2 ** other)`` without overflow.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> y = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.logaddexp2(x, y))
        [2. 3.]
    """
    a, b = _float_pair(input, other)
    ln2 = math.log(2.0)
    return F.add(F.maximum(a, b), F.div(F.log1p(F.exp(F.mul(F.neg(F.abs(F.sub(a, b))), ln2))), ln2))


def xlogy(input: Any, other: Any) -> Tensor:
    """``input * log(other)`` elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0, 2.0]), ms.float32)
        >>> y = Tensor(np.array([0.0, 1.0, 4.0]), ms.float32)
        >>> print(ops.xlogy(x, y).asnumpy().round(4))
        [   nan 0.     2.7726]
    """
    a, b = _float_pair(input, other)
    return F.mul(a, F.log(b))


def xdivy(x: Any, y: Any) -> Tensor:
    """``x / y``, and 0 where ``x`` is 0 (also for ``y`` = 0).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 2.0]), ms.float32)
        >>> y = Tensor(np.array([0.0, 4.0]), ms.float32)
        >>> print(ops.xdivy(x, y))
        [0.  0.5]
    """
    a, b = _float_pair(x, y)
    both = F.logical_and(F.equal(a, 0), F.equal(b, 0))  # 0 / y = 0 already; only 0 / 0 needs the guard
    return F.div(a, F.where(both, F.ones_like(b), b))


def float_power(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` computed in float64 (the result is float64).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> output = ops.float_power(x, 2)
        >>> output.dtype
        mindspore.float64
        >>> print(output)
        [1. 4. 9.]
    """
    a = to_tensor(input)
    e = exponent if not isinstance(exponent, Tensor) else F.cast(exponent, np.float64)
    return F.pow(F.cast(a, np.float64), e if isinstance(e, Tensor) else float(e))


def float_power_ext(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` in float64 (as :func:`float_power`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> y = ops.float_power_ext(x, 2)
        >>> print(y, y.dtype)
        [1. 4. 9.] Float64
    """
    return float_power(input, exponent)


def ldexp(x: Tensor, other: Tensor) -> Tensor:
    """``x * 2 ** other``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 3.0]), ms.float32)
        >>> other = Tensor(np.array([2, 3]), ms.int32)
        >>> print(ops.ldexp(x, other))
        [ 4. 24.]
    """
    return F.mul(x, F.pow(2.0, to_tensor(other)))


def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """``log(p / (1 - p))``, with ``p`` clamped to [eps, 1 - eps] when ``eps`` is given.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.25, 0.5, 0.75]), ms.float32)
        >>> print(ops.logit(x).asnumpy().round(4))
        [-1.0986  0.      1.0986]
    """
    x = _floatify(input)
    if eps is not None and eps >= 0:
        x = F.clamp(x, float(eps), 1.0 - float(eps))
    return F.log(F.div(x, F.sub(1.0, x)))


# ---------------------------------------------------------------- elementwise functions
def hypot(input: Tensor, other: Tensor) -> Tensor:
    """``sqrt(input**2 + other**2)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3.0, 5.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 12.0]), ms.float32)
        >>> print(ops.hypot(x, y))
        [ 5. 13.]
    """
    a, b = _float_pair(input, other)
    return F.sqrt(F.add(F.mul(a, a), F.mul(b, b)))


def copysign(x: Any, other: Any) -> Tensor:
    """The magnitude of ``x`` with the sign of ``other``; a float result. As MindSpore's CPU kernel, a value
    of ``other`` is negative when it is less than 0: -0.0 and NaN (of either sign) give ``abs(x)``
    (``mindspore.numpy.copysign`` and ``mx.np.copysign`` follow NumPy's sign bit instead).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, -2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([-1.0, 1.0, -2.0]), ms.float32)
        >>> print(ops.copysign(x, y))
        [-1.  2. -3.]
    """
    a = _floatify(x)
    b = to_tensor(other, a)
    mag = F.abs(a)
    return F.where(F.less(b, 0), F.neg(mag), mag)


def heaviside(input: Tensor, values: Tensor) -> Tensor:
    """The step function: 0 where ``input`` < 0, ``values`` where it is 0, 1 where it is > 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 2.0]), ms.float32)
        >>> values = Tensor(np.array([0.5]), ms.float32)
        >>> print(ops.heaviside(x, values))
        [0.  0.5 1. ]
    """
    x, v = promote(input, values)
    step = F.where(F.greater(x, 0), F.ones_like(x), F.zeros_like(x))
    return F.where(F.equal(x, 0), v, step)


def fmax(input: Tensor, other: Tensor) -> Tensor:
    """The elementwise maximum, ignoring NaN (NaN only where both are NaN).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, 3.0]), ms.float32)
        >>> y = Tensor(np.array([2.0, 1.0, np.nan]), ms.float32)
        >>> print(ops.fmax(x, y))
        [2. 1. 3.]
    """
    a, b = promote(input, other)
    if not is_float_dtype(a._data.dtype):
        return F.maximum(a, b)
    return F.where(F.isnan(a), b, F.where(F.isnan(b), a, F.maximum(a, b)))


def fmin(input: Tensor, other: Tensor) -> Tensor:
    """The elementwise minimum, ignoring NaN (NaN only where both are NaN).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, 3.0]), ms.float32)
        >>> y = Tensor(np.array([2.0, 1.0, np.nan]), ms.float32)
        >>> print(ops.fmin(x, y))
        [1. 1. 3.]
    """
    a, b = promote(input, other)
    if not is_float_dtype(a._data.dtype):
        return F.minimum(a, b)
    return F.where(F.isnan(a), b, F.where(F.isnan(b), a, F.minimum(a, b)))


def frac(x: Tensor) -> Tensor:
    """The fractional part ``x - trunc(x)`` (with the sign of ``x``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.5, -2.25]), ms.float32)
        >>> print(ops.frac(x))
        [ 0.5  -0.25]
    """
    x = to_tensor(x)
    if not is_float_dtype(x._data.dtype):
        return F.zeros_like(x)
    return F.sub(x, F.trunc(x))


def sinc(input: Tensor) -> Tensor:
    """The normalized sinc ``sin(pi x) / (pi x)``, 1 at 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 0.5, 1.0]), ms.float32)
        >>> print(ops.sinc(x).asnumpy().round(4))
        [ 1.      0.6366 -0.    ]
    """
    x = _floatify(input)
    zero = F.equal(x, 0)
    px = F.mul(F.where(zero, F.ones_like(x), x), math.pi)
    # at 0 the Taylor series 1 - (pi x)^2 / 6: the value 1 with the right first and second derivatives
    near = F.sub(1.0, F.div(F.square(F.mul(x, math.pi)), 6.0))
    return F.where(zero, near, F.div(F.sin(px), px))


def sgn(input: Tensor) -> Tensor:
    """The sign for real input; ``x / |x|`` (0 at 0) for complex input.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, 0.0, 2.5]), ms.float32)
        >>> print(ops.sgn(x))
        [-1.  0.  1.]
    """
    x = to_tensor(input)
    if x._data.dtype.kind == "c":
        mag = F.abs(x)
        zero = F.equal(mag, 0)
        return F.div(x, F.cast(F.where(zero, F.ones_like(mag), mag), x.dtype))
    return F.sign(x)


def signbit(input: Tensor) -> Tensor:
    """Whether each element is below zero (False for -0.0 and NaN, as in MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, 0.0, 2.5]), ms.float32)
        >>> print(ops.signbit(x))
        [ True False False]
    """
    return F.less(input, 0)


def nan_to_num(input: Tensor, nan: float | None = None, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    """NaN, +inf and -inf replaced by ``nan`` (default 0), ``posinf`` and ``neginf`` (default the dtype's
    largest and lowest finite values).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([np.nan, np.inf, -np.inf, 1.0]), ms.float32)
        >>> print(ops.nan_to_num(x, nan=0.0, posinf=100.0, neginf=-100.0))
        [   0.  100. -100.    1.]
    """
    x = to_tensor(input)
    if not is_float_dtype(x._data.dtype):
        return x
    info = np.finfo(np.float32 if x._data.dtype.kind != "f" else x._data.dtype)
    nan_v = 0.0 if nan is None else float(nan)
    pos = float(info.max) if posinf is None else float(posinf)
    neg = float(info.min) if neginf is None else float(neginf)
    out = F.where(F.isnan(x), F.full_like(x, nan_v), x)
    out = F.where(F.logical_and(F.isinf(x), F.greater(x, 0)), F.full_like(x, pos), out)
    return F.where(F.logical_and(F.isinf(x), F.less(x, 0)), F.full_like(x, neg), out)


def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """``|input - other| <= atol + rtol * |other|`` elementwise; equal infinities are close, NaN is close to
    NaN only with ``equal_nan``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> b = Tensor(np.array([1.0, 2.001, 3.1]), ms.float32)
        >>> print(ops.isclose(a, b, rtol=1e-3))
        [ True  True False]
    """
    a, b = promote(input, other)
    if not is_float_dtype(a._data.dtype):
        a, b = F.cast(a, np.float64), F.cast(b, np.float64)
    with_tol = F.less_equal(F.abs(F.sub(a, b)), F.add(F.mul(F.abs(b), float(rtol)), float(atol)))
    finite = F.logical_and(F.isfinite(a), F.isfinite(b))
    out = F.logical_or(F.equal(a, b), F.logical_and(finite, with_tol))
    if equal_nan:
        out = F.logical_or(out, F.logical_and(F.isnan(a), F.isnan(b)))
    return out


def approximate_equal(x: Tensor, y: Tensor, tolerance: float = 1e-05) -> Tensor:
    """``|x - y| < tolerance`` elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([1.0, 2.5, 3.0]), ms.float32)
        >>> print(ops.approximate_equal(x, y, tolerance=0.1))
        [ True False  True]
    """
    a, b = promote(x, y)
    return F.less(F.abs(F.sub(a, b)), float(tolerance))


def isposinf(input: Tensor) -> Tensor:
    """Whether each element is +inf.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-np.inf, 1.0, np.inf]), ms.float32)
        >>> print(ops.isposinf(x))
        [False False  True]
    """
    x = to_tensor(input)
    if not is_float_dtype(x._data.dtype):
        return F.zeros_like(x, dtype=np.bool_)
    return F.logical_and(F.isinf(x), F.greater(x, 0))


def isneginf(input: Tensor) -> Tensor:
    """Whether each element is -inf.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-np.inf, 1.0, np.inf]), ms.float32)
        >>> print(ops.isneginf(x))
        [ True False False]
    """
    x = to_tensor(input)
    if not is_float_dtype(x._data.dtype):
        return F.zeros_like(x, dtype=np.bool_)
    return F.logical_and(F.isinf(x), F.less(x, 0))


def isnan_ext(tensor: Tensor) -> Tensor:
    """Whether each element is NaN (as :func:`isnan`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([np.nan, 1.0]), ms.float32)
        >>> print(ops.isnan_ext(x))
        [ True False]
    """
    return F.isnan(tensor)


def is_complex(input: Tensor) -> bool:
    """Whether ``input``'s dtype is complex.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1 + 2j]), ms.complex64)
        >>> ops.is_complex(x)
        True
    """
    return to_tensor(input)._data.dtype.kind == "c"


def isreal(input: Tensor) -> Tensor:
    """Whether each element is real: True for real dtypes, a zero imaginary part for complex ones.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1 + 0j, 1 + 2j]), ms.complex64)
        >>> print(ops.isreal(x))
        [ True False]
    """
    x = to_tensor(input)
    if x._data.dtype.kind == "c":
        return F.equal(F.imag(x), 0)
    return F.ones_like(x, dtype=np.bool_)


def eps(x: Tensor) -> Tensor:
    """A tensor of ``x``'s shape and dtype filled with its dtype's machine epsilon.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.eps(x))
        [1.1920929e-07 1.1920929e-07]
    """
    x = to_tensor(x)
    dt = x._data.dtype
    if not is_float_dtype(dt):
        raise TypeError(f"eps: x must be a float tensor, got {x.dtype}")
    return F.full_like(x, float(np.finfo(dt).eps) if dt.kind == "f" else 2.0 ** -7)


# ---------------------------------------------------------------- shrink functions and fast gelu
def tanhshrink(input: Tensor) -> Tensor:
    """``input - tanh(input)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.tanhshrink(x).asnumpy().round(4))
        [-0.2384  0.      0.2384]
    """
    x = _floatify(input)
    return F.sub(x, F.tanh(x))


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, -0.25, 0.25, 1.0]), ms.float32)
        >>> print(ops.softshrink(x, lambd=0.5))
        [-0.5  0.   0.   0.5]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'softshrink', the input must be a Tensor, but got {type(input).__name__}.")
    if isinstance(lambd, bool) or not isinstance(lambd, (int, float, np.integer, np.floating)):
        raise TypeError(f"For 'softshrink', 'lambd' must be an int or a float, but got "
                        f"{type(lambd).__name__}.")
    if lambd < 0:
        raise ValueError(f"For 'softshrink', 'lambd' must be >= 0, but got {lambd}.")
    x = input
    zero = F.zeros_like(x)
    return F.where(F.greater(x, lambd), F.sub(x, lambd), F.where(F.less(x, -lambd), F.add(x, lambd), zero))


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x`` where ``|x| > lambd``, else 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, -0.25, 0.25, 1.0]), ms.float32)
        >>> print(ops.hardshrink(x, lambd=0.5))
        [-1.  0.  0.  1.]
    """
    x = to_tensor(input)
    return F.where(F.greater(F.abs(x), lambd), x, F.zeros_like(x))


def fast_gelu(x: Tensor) -> Tensor:
    """MindSpore's fast GELU: ``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.fast_gelu(x).asnumpy().round(4))
        [-0.1542  0.      0.8458]
    """
    x = _floatify(x)
    ax = F.abs(x)
    return F.mul(F.div(x, F.add(F.exp(F.mul(ax, -1.702)), 1.0)), F.exp(F.mul(F.sub(x, ax), 0.851)))


__all__ = ["accumulate_n", "addcdiv", "addcmul", "addn", "approximate_equal", "copysign", "divide", "eps",
           "eq", "exp2", "fast_gelu", "float_power", "float_power_ext", "fmax", "fmin", "frac", "hardshrink",
           "heaviside", "hypot", "inv", "is_complex", "isclose", "isnan_ext", "isneginf", "isposinf",
           "isreal", "ldexp", "log2", "log10", "logaddexp", "logaddexp2", "logit", "multiply", "nan_to_num",
           "numel", "positive", "sgn", "signbit", "sinc", "softshrink", "subtract", "tanhshrink", "xdivy",
           "xlogy"]
