"""MindSpore's elementwise math operator classes beyond the basic arithmetic of math_ops.py (``ops.ACos``,
``ops.Erfinv``, ``ops.BesselJ0``, ``ops.Xlogy``, ``ops.BitwiseAnd``, ``ops.Cummax``, ``ops.CumProd`` ...):
table rows over the functional ops (see table.py), with adapters where MindSpore's attributes mean more than
an argument (the exclusive / reverse cumulative ops)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.operations._util import axes
from cellonnx.ops.operations.table import Row, build
from cellonnx.ops.prims._util import norm_axis
from cellonnx.tensor import Tensor


def _axis(axis: Any, x: Tensor, op: str) -> int:
    """A cumulative op's axis (an int or a 0-D Tensor), normalised against ``x``'s rank."""
    if isinstance(axis, Tensor):
        axis = int(axis.asnumpy().item())
    return norm_axis(int(axis), x.ndim, op)


def _cumulative(fn: Any, fill: float | None, x: Tensor, axis: Any, exclusive: bool, reverse: bool,
                op: str) -> Tensor:
    """MindSpore's exclusive / reverse cumulative ops over ``fn(x, axis)``: ``reverse`` runs from the end,
    ``exclusive`` leaves each element out of its own result (the first result is ``fill``, the op's
    identity; None for the dtype's lowest finite value, which MindSpore's CumulativeLogsumexp gives)."""
    from cellonnx.ops import cat, flip, full_like, narrow
    a = _axis(axis, x, op)
    y = flip(x, (a,)) if reverse else x
    n = y.shape[a]
    if exclusive and n:
        first = narrow(y, a, 0, 1)
        if fill is None:
            fill = float(np.finfo(first._data.dtype).min)
        y = cat((full_like(first, fill), narrow(y, a, 0, n - 1)), a)
    y = fn(y, a)
    return flip(y, (a,)) if reverse else y


def _cumprod(x: Tensor, axis: Any, exclusive: bool, reverse: bool) -> Tensor:
    from cellonnx.ops import cumprod
    return _cumulative(cumprod, 1.0, x, axis, exclusive, reverse, "CumProd")


def _cum_logsumexp(x: Tensor, axis: Any, exclusive: bool, reverse: bool) -> Tensor:
    from cellonnx.ops import logcumsumexp
    return _cumulative(logcumsumexp, None, x, axis, exclusive, reverse, "CumulativeLogsumexp")


def _count_nonzero(x: Tensor, dims: Any) -> Tensor:
    from cellonnx import dtypes
    from cellonnx.ops import count_nonzero
    return count_nonzero(x, () if dims is None else axes(dims) or (), False, dtypes.int64)


def _euclidean_norm(x: Tensor, axis: Any, keep_dims: bool) -> Tensor:
    from cellonnx.ops import sqrt, square, sum
    return sqrt(sum(square(x), axes(axis), keep_dims))


def _bincount(array: Tensor, size: Any, weights: Tensor) -> Tensor:
    """MindSpore's Bincount: ``size`` bins exactly (values from ``size`` on are not counted), in the dtype of
    ``weights`` (an empty ``weights`` counts ones)."""
    from cellonnx.ops import bincount, cast, narrow, ones_like
    n = int(size.asnumpy().item()) if isinstance(size, Tensor) else int(size)
    if n < 0:
        raise ValueError(f"For 'Bincount', the 'size' must be non-negative, but got {n}.")
    w = weights if weights.size else ones_like(array, dtype=weights.dtype)
    out = bincount(array, cast(w, np.float64), n)
    return cast(narrow(out, 0, 0, n), weights.dtype)


def _median(x: Tensor, global_median: bool, axis: int, keep_dims: bool, ignore_nan: bool) -> tuple:
    from cellonnx import dtypes
    from cellonnx.ops import cast, median, nanmedian, reshape, zeros
    fn = nanmedian if ignore_nan else median
    if global_median:  # MindSpore gives no index for the global median: a 0
        values, _ = fn(reshape(x, (-1,)), 0, False)
        return values, zeros((), dtype=dtypes.int64)
    values, index = fn(x, axis, keep_dims)
    return values, cast(index, dtypes.int64)


ROWS = [
    # ---- trigonometric and hyperbolic
    Row("ACos", "", "input", "acos(input)",
        summary="Arc cosine, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 0.0, -1.0]), ms.float32)
        >>> print(ops.ACos()(x).asnumpy().round(4))
        [0.     1.5708 3.1416]
        """),
    Row("Acosh", "", "input", "acosh(input)",
        summary="Inverse hyperbolic cosine, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.Acosh()(x).asnumpy().round(4))
        [0.    1.317]
        """),
    Row("Asin", "", "input", "asin(input)",
        summary="Arc sine, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 0.0, -0.5]), ms.float32)
        >>> print(ops.Asin()(x).asnumpy().round(4))
        [ 1.5708  0.     -0.5236]
        """),
    Row("Asinh", "", "input", "asinh(input)",
        summary="Inverse hyperbolic sine, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.Asinh()(x).asnumpy().round(4))
        [0.     0.8814]
        """),
    Row("Atan", "", "input", "atan(input)",
        summary="Arc tangent, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 0.0, -1.0]), ms.float32)
        >>> print(ops.Atan()(x).asnumpy().round(4))
        [ 0.7854  0.     -0.7854]
        """),
    Row("Atanh", "", "input", "atanh(input)",
        summary="Inverse hyperbolic tangent, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 0.5]), ms.float32)
        >>> print(ops.Atanh()(x).asnumpy().round(4))
        [0.     0.5493]
        """),
    Row("Atan2", "", "input, other", "atan2(input, other)",
        summary=("The angle of the point ``(other, input)``: arc tangent of ``input / other`` in the right "
                 "quadrant."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> y = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> x = Tensor(np.array([1.0, -1.0]), ms.float32)
        >>> print(ops.Atan2()(y, x).asnumpy().round(4))
        [0.7854 2.3562]
        """),
    Row("Tan", "", "input", "tan(input)",
        summary="Tangent, elementwise (radians).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, np.pi / 4]), ms.float32)
        >>> print(ops.Tan()(x).asnumpy().round(4))
        [-1.5574  0.      1.    ]
        """),
    Row("Cosh", "", "input", "cosh(input)",
        summary="Hyperbolic cosine, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.Cosh()(x).asnumpy().round(4))
        [1.     1.5431]
        """),
    Row("Sinh", "", "input", "sinh(input)",
        summary="Hyperbolic sine, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 2.0]), ms.float32)
        >>> print(ops.Sinh()(x).asnumpy().round(4))
        [-1.1752  0.      3.6269]
        """),
    Row("Sinc", "", "input", "sinc(input)",
        summary="The normalized sinc function ``sin(pi x) / (pi x)`` (1 at 0), elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 0.5, 1.0, 1.5]), ms.float32)
        >>> print(ops.Sinc()(x).asnumpy().round(4))
        [ 1.      0.6366 -0.     -0.2122]
        """),
    Row("Hypot", "", "x1, x2", "hypot(x1, x2)",
        summary="``sqrt(x1 ** 2 + x2 ** 2)``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3.0, 5.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 12.0]), ms.float32)
        >>> print(ops.Hypot()(x, y))
        [ 5. 13.]
        """),
    # ---- exponentials, logarithms and rounding
    Row("Expm1", "", "input", "expm1(input)",
        summary="``exp(x) - 1``, accurate near zero, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.Expm1()(x).asnumpy().round(4))
        [0.     1.7183]
        """),
    Row("Log1p", "", "input", "log1p(input)",
        summary="``log(1 + x)``, accurate near zero, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> print(ops.Log1p()(x).asnumpy().round(4))
        [0.     0.6931]
        """),
    Row("Xlogy", "", "input, other", "xlogy(input, other)",
        summary="``input * log(other)``, elementwise, 0 where ``input`` is 0.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0, 2.0]), ms.float32)
        >>> y = Tensor(np.array([5.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.Xlogy()(x, y).asnumpy().round(4))
        [0.     0.6931 2.1972]
        """),
    Row("Trunc", "", "input", "trunc(input)",
        summary="Rounds each element towards zero.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3.4742, 0.5466, -0.8008, -3.9079]), ms.float32)
        >>> print(ops.Trunc()(x))
        [ 3.  0. -0. -3.]
        """),
    Row("Fmax", "", "x1, x2", "fmax(x1, x2)",
        summary="The larger of two tensors elementwise, ignoring NaN.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, 3.0]), ms.float32)
        >>> y = Tensor(np.array([2.0, 1.0, np.nan]), ms.float32)
        >>> print(ops.Fmax()(x, y))
        [2. 1. 3.]
        """),
    Row("Fmin", "", "x1, x2", "fmin(x1, x2)",
        summary="The elementwise minimum of two tensors, taking the number where one of them is NaN.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x1 = Tensor(np.array([1.0, np.nan, 3.0]), ms.float32)
        >>> x2 = Tensor(np.array([2.0, 5.0, np.nan]), ms.float32)
        >>> print(ops.Fmin()(x1, x2))
        [1. 5. 3.]
        """),
    Row("NextAfter", "", "input, other", "nextafter(input, other)",
        summary="The next representable floating-point value after ``input`` towards ``other``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float64)
        >>> y = Tensor(np.array([1.0, 2.0]), ms.float64)
        >>> print(ops.NextAfter()(x, y).asnumpy() - x.asnumpy())
        [4.94065646e-324 2.22044605e-016]
        """),
    Row("Heaviside", "", "x, values", "heaviside(x, values)",
        summary="The Heaviside step function, ``values`` where the input is 0.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 2.0]), ms.float32)
        >>> values = Tensor(np.array([0.5, 0.5, 0.5]), ms.float32)
        >>> print(ops.Heaviside()(x, values))
        [0.  0.5 1. ]
        """),
    Row("LerpScalar", "", "input, end, weight", "lerp(input, end, weight)",
        summary="Linear interpolation ``input + weight * (end - input)`` with a scalar ``weight``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> start = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> end = Tensor(np.array([3.0, 6.0, 11.0]), ms.float32)
        >>> print(ops.LerpScalar()(start, end, 0.5))
        [2. 4. 7.]
        """),
    Row("Addcdiv", "", "input, tensor1, tensor2, value", "addcdiv(input, tensor1, tensor2, value)",
        summary="``input + value * tensor1 / tensor2``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> t1 = Tensor(np.array([2.0, 3.0]), ms.float32)
        >>> t2 = Tensor(np.array([4.0, 6.0]), ms.float32)
        >>> print(ops.Addcdiv()(x, t1, t2, Tensor(np.array([2.0]), ms.float32)))
        [2. 2.]
        """),
    Row("Addcmul", "", "input, tensor1, tensor2, value", "addcmul(input, tensor1, tensor2, value)",
        summary="``input + value * tensor1 * tensor2``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> t1 = Tensor(np.array([2.0, 3.0]), ms.float32)
        >>> t2 = Tensor(np.array([4.0, 5.0]), ms.float32)
        >>> print(ops.Addcmul()(x, t1, t2, Tensor(np.array([0.5]), ms.float32)))
        [5.  8.5]
        """),
    Row("Eps", "", "x", "eps(x)",
        summary="A tensor like ``x`` filled with the smallest positive normal value of its dtype.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([4.0, 0.5]), ms.float32)
        >>> print(ops.Eps()(x))
        [1.1920929e-07 1.1920929e-07]
        """),
    Row("NanToNum", "nan=None, posinf=None, neginf=None", "input", "nan_to_num(input, nan, posinf, neginf)",
        summary="``input`` with NaN, +inf and -inf replaced by finite numbers.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([np.nan, np.inf, -np.inf, 1.0]), ms.float32)
        >>> print(ops.NanToNum(nan=0.0, posinf=100.0, neginf=-100.0)(x))
        [   0.  100. -100.    1.]
        """),
    Row("Logit", "eps=-1.0", "input", "logit(input, None if eps < 0 else eps)",
        summary="``log(x / (1 - x))``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.25, 0.5, 0.75]), ms.float32)
        >>> print(ops.Logit()(x).asnumpy().round(4))
        [-1.0986  0.      1.0986]
        """),
    # ---- special functions
    Row("Erfc", "", "input", "erfc(input)",
        summary="The complementary error function ``1 - erf(x)``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 1.0]), ms.float32)
        >>> print(ops.Erfc()(x).asnumpy().round(4))
        [1.8427 1.     0.1573]
        """),
    Row("Erfinv", "", "input", "erfinv(input)",
        summary="The inverse error function, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 0.5, -0.9]), ms.float32)
        >>> print(ops.Erfinv()(x).asnumpy().round(4))
        [ 0.      0.4769 -1.1631]
        """),
    Row("Lgamma", "", "x", "lgamma(x)",
        summary="The logarithm of the absolute gamma function, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 3.0, 5.0]), ms.float32)
        >>> print(ops.Lgamma()(x).asnumpy().round(4))
        [0.     0.6931 3.1781]
        """),
    Row("Digamma", "", "x", "digamma(x)",
        summary="The logarithmic derivative of the gamma function, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.Digamma()(x).asnumpy().round(4))
        [-0.5772  0.4228]
        """),
    Row("Polygamma", "", "a, x", "polygamma(a, x)",
        summary="The ``a``-th derivative of the digamma function at ``x``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.Polygamma()(Tensor(1, ms.int64), x).asnumpy().round(4))
        [1.6449 0.6449 0.3949]
        """),
    Row("Mvlgamma", "p", "x", "mvlgamma(x, p)",
        summary="The multivariate log-gamma function of dimension ``p``, elementwise (``x > (p - 1) / 2``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0], [2.5, 5.0]]), ms.float32)
        >>> print(ops.Mvlgamma(p=2)(x).asnumpy().round(4))
        [[1.5502 3.5651]
         [0.857  6.2042]]
        """),
    Row("Igamma", "", "a, x", "igamma(a, x)",
        summary="The regularized lower incomplete gamma function ``P(a, x)``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> x = Tensor(np.array([0.5, 2.0, 1.0]), ms.float32)
        >>> print(ops.Igamma()(a, x).asnumpy().round(4))
        [0.3935 0.594  0.0803]
        """),
    Row("Igammac", "", "a, x", "igammac(a, x)",
        summary="The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> x = Tensor(np.array([0.5, 2.0, 1.0]), ms.float32)
        >>> print(ops.Igammac()(a, x).asnumpy().round(4))
        [0.6065 0.406  0.9197]
        """),
    Row("Zeta", "", "x, q", "zeta(x, q)",
        summary="The Hurwitz zeta function ``sum_k (k + q) ** -x``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([2.0, 3.0, 2.0]), ms.float32)
        >>> q = Tensor(np.array([1.0, 1.0, 2.0]), ms.float32)
        >>> print(ops.Zeta()(x, q).asnumpy().round(4))
        [1.6449 1.2021 0.6449]
        """),
    Row("Betainc", "", "a, b, x", "betainc(a, b, x)",
        summary="The regularized incomplete beta function ``I_x(a, b)``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([0.5, 1.0, 2.0]), ms.float32)
        >>> b = Tensor(np.array([2.0, 1.0, 3.0]), ms.float32)
        >>> x = Tensor(np.array([0.2, 0.5, 0.7]), ms.float32)
        >>> print(ops.Betainc()(a, b, x).asnumpy().round(4))
        [0.6261 0.5    0.9163]
        """),
    Row("BesselI0", "", "x", "bessel_i0(x)",
        summary="The modified Bessel function of the first kind of order 0, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 0.5, 2.0]), ms.float32)
        >>> print(ops.BesselI0()(x).asnumpy().round(4))
        [1.2661 1.     1.0635 2.2796]
        """),
    Row("BesselI0e", "", "x", "bessel_i0e(x)",
        summary="``exp(-|x|) * I0(x)``, the scaled modified Bessel function of order 0, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 0.5, 2.0]), ms.float32)
        >>> print(ops.BesselI0e()(x).asnumpy().round(4))
        [0.4658 1.     0.645  0.3085]
        """),
    Row("BesselI1", "", "x", "bessel_i1(x)",
        summary="The modified Bessel function of the first kind of order 1, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 0.5, 2.0]), ms.float32)
        >>> print(ops.BesselI1()(x).asnumpy().round(4))
        [-0.5652  0.      0.2579  1.5906]
        """),
    Row("BesselI1e", "", "x", "bessel_i1e(x)",
        summary="``exp(-|x|) * I1(x)``, the scaled modified Bessel function of order 1, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 0.5, 2.0]), ms.float32)
        >>> print(ops.BesselI1e()(x).asnumpy().round(4))
        [-0.2079  0.      0.1564  0.2153]
        """),
    Row("BesselJ0", "", "x", "bessel_j0(x)",
        summary="The Bessel function of the first kind of order 0, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.BesselJ0()(x).asnumpy().round(4))
        [ 0.9385  0.7652  0.2239 -0.3971]
        """),
    Row("BesselJ1", "", "x", "bessel_j1(x)",
        summary="The Bessel function of the first kind of order 1, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.BesselJ1()(x).asnumpy().round(4))
        [ 0.2423  0.4401  0.5767 -0.066 ]
        """),
    Row("BesselK0", "", "x", "bessel_k0(x)",
        summary="The modified Bessel function of the second kind of order 0, elementwise (``x > 0``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.BesselK0()(x).asnumpy().round(4))
        [0.9244 0.421  0.1139 0.0112]
        """),
    Row("BesselK0e", "", "x", "bessel_k0e(x)",
        summary="``exp(x) * K0(x)``, the scaled modified Bessel function of the second kind of order 0.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.BesselK0e()(x).asnumpy().round(4))
        [1.5241 1.1445 0.8416 0.6093]
        """),
    Row("BesselK1", "", "x", "bessel_k1(x)",
        summary="The modified Bessel function of the second kind of order 1, elementwise (``x > 0``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.BesselK1()(x).asnumpy().round(4))
        [1.6564 0.6019 0.1399 0.0125]
        """),
    Row("BesselK1e", "", "x", "bessel_k1e(x)",
        summary="``exp(x) * K1(x)``, the scaled modified Bessel function of the second kind of order 1.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.BesselK1e()(x).asnumpy().round(4))
        [2.731  1.6362 1.0335 0.6816]
        """),
    Row("BesselY0", "", "x", "bessel_y0(x)",
        summary="The Bessel function of the second kind of order 0, elementwise (``x > 0``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.BesselY0()(x).asnumpy().round(4))
        [-0.4445  0.0883  0.5104 -0.0169]
        """),
    Row("BesselY1", "", "x", "bessel_y1(x)",
        summary="The Bessel function of the second kind of order 1, elementwise (``x > 0``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.BesselY1()(x).asnumpy().round(4))
        [-1.4715 -0.7812 -0.107   0.3979]
        """),
    # ---- complex numbers
    Row("Real", "", "input", "real(input)",
        summary="The real part of a complex tensor.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1 + 2j, 3 - 1j]), ms.complex64)
        >>> print(ops.Real()(x))
        [1. 3.]
        """),
    Row("Imag", "", "input", "imag(input)",
        summary="The imaginary part of a complex tensor.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1 + 2j, 3 - 1j]), ms.complex64)
        >>> print(ops.Imag()(x))
        [ 2. -1.]
        """),
    Row("Conj", "", "input", "conj(input)",
        summary="The complex conjugate, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1 + 2j, 3 - 1j]), ms.complex64)
        >>> print(ops.Conj()(x))
        [1.-2.j 3.+1.j]
        """),
    Row("Angle", "", "input", "angle(input)",
        summary="The argument (phase angle, in radians) of each element of a complex tensor.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.5 + 7.8j, 3 + 5.75j]), ms.complex64)
        >>> print(ops.Angle()(x).asnumpy().round(4))
        [1.7608 1.0899]
        """),
    Row("ComplexAbs", "", "x", "abs(x)",
        summary="The modulus of each element of a complex tensor.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3 + 4j, 6 - 8j]), ms.complex64)
        >>> print(ops.ComplexAbs()(x))
        [ 5. 10.]
        """),
    Row("Polar", "", "abs, angle", "polar(abs, angle)",
        summary="The complex numbers of magnitude ``abs`` and angle ``angle``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> magnitude = Tensor(np.array([2.0]), ms.float32)
        >>> angle = Tensor(np.array([0.0]), ms.float32)
        >>> print(ops.Polar()(magnitude, angle))
        [2.+0.j]
        """),
    # ---- integers and bits
    Row("Gcd", "", "x1, x2", "gcd(x1, x2)",
        summary="The greatest common divisor, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([12, 18]), ms.int32)
        >>> y = Tensor(np.array([8, 27]), ms.int32)
        >>> print(ops.Gcd()(x, y))
        [4 9]
        """),
    Row("Lcm", "", "x1, x2", "lcm(x1, x2)",
        summary="The least common multiple, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([4, 6]), ms.int32)
        >>> y = Tensor(np.array([6, 10]), ms.int32)
        >>> print(ops.Lcm()(x, y))
        [12 30]
        """),
    Row("BitwiseAnd", "", "x, y", "bitwise_and(x, y)",
        summary="Bitwise AND of integer tensors, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([12, 10]), ms.int32)
        >>> y = Tensor(np.array([10, 6]), ms.int32)
        >>> print(ops.BitwiseAnd()(x, y))
        [8 2]
        """),
    Row("BitwiseOr", "", "x, y", "bitwise_or(x, y)",
        summary="Bitwise OR of integer tensors, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([12, 10]), ms.int32)
        >>> y = Tensor(np.array([10, 6]), ms.int32)
        >>> print(ops.BitwiseOr()(x, y))
        [14 14]
        """),
    Row("BitwiseXor", "", "x, y", "bitwise_xor(x, y)",
        summary="Bitwise XOR of integer tensors, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([12, 10]), ms.int32)
        >>> y = Tensor(np.array([10, 6]), ms.int32)
        >>> print(ops.BitwiseXor()(x, y))
        [ 6 12]
        """),
    Row("Invert", "", "x", "invert(x)",
        summary="Bitwise NOT of an integer tensor, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0, 1, -2]), ms.int32)
        >>> print(ops.Invert()(x))
        [-1 -2  1]
        """),
    Row("LeftShift", "", "x1, x2", "bitwise_left_shift(x1, x2)",
        summary="``x1 << x2``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> y = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.LeftShift()(x, y))
        [ 2  8 24]
        """),
    Row("RightShift", "", "input_x, input_y", "bitwise_right_shift(input_x, input_y)",
        summary="``input_x >> input_y``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([8, 8, 8]), ms.int32)
        >>> y = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.RightShift()(x, y))
        [4 2 1]
        """),
    Row("PopulationCount", "", "input_x", "population_count(input_x)",
        summary="The number of 1 bits in each element of an integer tensor (as uint8).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0, 1, 7, 255, -1]), ms.int16)
        >>> print(ops.PopulationCount()(x))
        [ 0  1  3  8 16]
        """),
    # ---- cumulative ops and counting reductions
    Row("CumProd", "exclusive=False, reverse=False", "x, axis", "_cumprod(x, axis, exclusive, reverse)",
        summary="The cumulative product along ``axis`` (optionally exclusive, or from the end).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> print(ops.CumProd()(x, 0))
        [ 1.  2.  6. 24.]
        """),
    Row("Cummax", "axis", "input", "cummax(input, axis)",
        summary="The running maximum along ``axis`` and where each was found.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 3.0, 2.0, 5.0]), ms.float32)
        >>> values, indices = ops.Cummax(axis=0)(x)
        >>> print(values)
        [1. 3. 3. 5.]
        >>> print(indices)
        [0 1 1 3]
        """),
    Row("Cummin", "axis", "input", "cummin(input, axis)",
        summary="The running minimum along ``axis`` and where each was found.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([4.0, 3.0, 5.0, 1.0]), ms.float32)
        >>> values, indices = ops.Cummin(axis=0)(x)
        >>> print(values)
        [4. 3. 3. 1.]
        >>> print(indices)
        [0 1 1 3]
        """),
    Row("CumulativeLogsumexp", "exclusive=False, reverse=False", "x, axis",
        "_cum_logsumexp(x, axis, exclusive, reverse)",
        summary="The cumulative log-sum-exp of ``x`` along ``axis`` (optionally exclusive or reversed).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.CumulativeLogsumexp()(x, Tensor(0)).asnumpy().round(4))
        [1.     2.3133 3.4076]
        >>> print(ops.CumulativeLogsumexp(reverse=True)(x, Tensor(0)).asnumpy().round(4))
        [3.4076 3.3133 3.    ]
        """),
    Row("CountNonZero", "dims=None", "x", "_count_nonzero(x, dims)",
        summary="The number of non-zero elements along ``dims`` (every axis when None).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0, 1, 2], [0, 0, 3]]), ms.int32)
        >>> print(ops.CountNonZero()(x))
        3
        >>> print(ops.CountNonZero(dims=[1])(x))
        [2 1]
        """),
    Row("EuclideanNorm", "keep_dims=False", "x, axes", "_euclidean_norm(x, axes, keep_dims)",
        summary="The Euclidean norm over the given axes.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0], [6.0, 8.0]]), ms.float32)
        >>> axes = Tensor(np.array([1]), ms.int32)
        >>> print(ops.EuclideanNorm()(x, axes))
        [ 5. 10.]
        """),
    Row("Bincount", "", "array, size, weights", "_bincount(array, size, weights)",
        summary="Counts each value of a non-negative int32 array, weighted by ``weights``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> array = Tensor(np.array([1, 1, 2, 4]), ms.int32)
        >>> size = Tensor(5, ms.int32)
        >>> weights = Tensor(np.array([1.0, 2.0, 0.5, 3.0]), ms.float32)
        >>> print(ops.Bincount()(array, size, weights))
        [0.  3.  0.5 0.  3. ]
        """),
    Row("Histogram", "bins=100, min=0.0, max=0.0", "x", "histc(x, bins, min, max)",
        summary="A histogram of ``x``: ``bins`` equal bins over ``[min, max]`` (the data range if both 0).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 1.0, 4.0]), ms.float32)
        >>> print(ops.Histogram(bins=4, min=0.0, max=4.0)(x))
        [0. 2. 1. 1.]
        """),
    Row("IsClose", "rtol=1e-05, atol=1e-08, equal_nan=False", "input, other",
        "isclose(input, other, rtol, atol, equal_nan)",
        summary="Whether ``|input - other| <= atol + rtol * |other|``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> b = Tensor(np.array([1.0, 2.001, 3.1]), ms.float32)
        >>> print(ops.IsClose(rtol=1e-3)(a, b))
        [ True  True False]
        """),
    Row("Median", "global_median=False, axis=0, keep_dims=False, ignore_nan=False", "input",
        "_median(input, global_median, axis, keep_dims, ignore_nan)",
        summary="The median of ``input`` along ``axis`` (or of all of it) and the index where it lies.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [6.0, 2.0, 5.0]]), ms.float32)
        >>> values, indices = ops.Median(axis=1)(x)
        >>> print(values, indices)
        [3. 5.] [2 2]
        >>> print(ops.Median(global_median=True)(x)[0])
        3.0
        """),
    Row("Quantile", "dim=None, keep_dims=False, ignore_nan=False", "input, q",
        "(nanquantile if ignore_nan else quantile)(input, q, dim, keep_dims)",
        summary="The ``q``-th quantiles of ``input`` along ``dim`` (all of it when None), interpolated.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 4.0, 8.0], [0.0, 3.0, 5.0, 9.0]]), ms.float32)
        >>> q = Tensor(np.array([0.25, 0.5]), ms.float32)
        >>> print(ops.Quantile(dim=1)(x, q))
        [[1.75 2.25]
         [3.   4.  ]]
        """),
    Row("Renorm", "p, dim, maxnorm", "x", "renorm(x, p, dim, maxnorm)",
        summary="``x`` with each slice along ``dim`` rescaled to a p-norm of at most ``maxnorm``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0], [0.3, 0.4]]), ms.float32)
        >>> print(ops.Renorm(p=2, dim=0, maxnorm=1.0)(x))
        [[0.6 0.8]
         [0.3 0.4]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
