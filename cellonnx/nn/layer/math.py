"""Math layers (MindSpore's nn.layer.math): ReduceLogSumExp, Range, LGamma, DiGamma, IGamma, LBeta, MatMul,
Moments, MatInverse and MatDet, written with ops as MindSpore writes them (the Lanczos approximations of
log-gamma
and digamma, the series / continued fraction of the incomplete gamma function, the Cholesky factor of a
positive-definite matrix), so the numbers are MindSpore's and gradients come from the ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.graph.trace import require_static
from cellonnx.nn.cell import Cell
from cellonnx.ops.prims._util import norm_axes
from cellonnx.tensor import Tensor

__all__ = ["DiGamma", "IGamma", "LBeta", "LGamma", "MatDet", "MatInverse", "MatMul", "Moments", "Range",
           "ReduceLogSumExp"]

_BASE_LANCZOS_COEFF = 0.9999999999998099
_LANCZOS_COEFFICIENTS = [676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406,
                         12.507343278686905, -0.13857109526572012, 9.984369578019572e-06,
                         1.5056327351493116e-07]
_LANCZOS_GAMMA = 7
_F32_EPS = float(np.finfo(np.float32).eps)


def _check_float(owner: str, name: str, x: Any, allowed: tuple = (dtypes.float16, dtypes.float32,
                                                                  dtypes.float64)
                 ) -> None:
    if not isinstance(x, Tensor) or x.dtype not in allowed:
        raise TypeError(f"For '{owner}', the '{name}' must be a Tensor of {', '.join(map(str, allowed))}, "
                        f"but got {getattr(x, 'dtype', type(x).__name__)}.")


class ReduceLogSumExp(Cell):
    """log(sum(exp(x), axis)), computed stably as MindSpore does (shifted by the maximum of the whole input).

    Args:
        axis (Union[int, tuple[int], list[int]]): the axes to reduce; () reduces all.
        keep_dims (bool): keep the reduced axes as size 1. Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[0.0, 0.0], [1.0, 2.0]]), ms.float32)
        >>> print(nn.ReduceLogSumExp(1)(x).asnumpy().round(4))
        [0.6931 2.3133]
    """

    def __init__(self, axis: Any, keep_dims: bool = False) -> None:
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, (int, list, tuple)):
            raise TypeError(f"For '{self.cls_name}', the 'axis' must be int, list or tuple, but got "
                            f"{type(axis).__name__}.")
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For '{self.cls_name}', the 'keep_dims' must be bool, but got "
                            f"{type(keep_dims).__name__}.")
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x: Tensor) -> Tensor:
        x_max = ops.stop_gradient(ops.amax(x))
        axes = norm_axes(tuple(self.axis) if isinstance(self.axis, list) else self.axis, x.ndim,
                         self.cls_name)
        return ops.log(ops.sum(ops.exp(x - x_max), axes, keepdim=self.keep_dims)) + x_max


class Range(Cell):
    """The constant sequence ``np.arange(start, limit, delta)`` (float32 for float arguments, else int32).

    Args:
        start (Union[int, float]); limit (Union[int, float], optional); delta (Union[int, float]): not 0.

    Examples:
        >>> from cellonnx import nn
        >>> print(nn.Range(1, 8, 2)())
        [1 3 5 7]
    """

    def __init__(self, start: Any, limit: Any = None, delta: Any = 1) -> None:
        super().__init__()
        if delta == 0:
            raise ValueError(f"For '{self.cls_name}', the 'delta' can not be zero.")
        data = np.arange(start, limit, delta)
        self.ms_dtype = dtypes.float32 if data.dtype == np.float64 else dtypes.int32
        self.result_tensor = Tensor(data, dtype=self.ms_dtype)

    def construct(self) -> Tensor:
        return self.result_tensor


def _lgamma(x: Tensor) -> Tensor:
    """MindSpore's LGamma: the Lanczos approximation, reflected below 0.5."""
    half = _LANCZOS_GAMMA + 0.5
    log_half = float(np.log(half))
    inf = ops.full_like(x, float("inf"))
    reflect = ops.less(x, 0.5)
    z = ops.where(reflect, -x, x - 1)
    series = _BASE_LANCZOS_COEFF
    for i, c in enumerate(_LANCZOS_COEFFICIENTS):
        series = c / (z + (i + 1)) + series
    t = z + half
    log_t = ops.log(1 + z / half) + log_half
    log_y = ops.log(series) + (z + 0.5 - t / log_t) * log_t + float((np.log(2) + np.log(np.pi)) / 2)
    abs_x = ops.abs(x)
    frac = abs_x - ops.floor(abs_x)
    x = ops.where(ops.less_equal(x, 0.0), ops.where(ops.equal(frac, 0.0), inf, x), x)
    reduced = ops.where(ops.greater(frac, 0.5), 1 - frac, frac)
    denom = ops.log(ops.sin(float(np.pi) * reduced))
    reflection = ops.where(ops.isfinite(denom), -denom - log_y + float(np.log(np.pi)), -denom)
    result = ops.where(reflect, reflection, log_y)
    return ops.where(ops.isfinite(x), result, inf)


class LGamma(Cell):
    """The log of the absolute value of the gamma function, elementwise (MindSpore's Lanczos approximation;
    +inf at the non-positive integers).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> print(nn.LGamma()(Tensor(np.array([1.0, 3.0, 5.0]), ms.float32)).asnumpy().round(4))
        [0.     0.6931 3.1781]
    """

    def construct(self, x: Tensor) -> Tensor:
        _check_float(self.cls_name, "x", x)
        return _lgamma(x)


class DiGamma(Cell):
    """The digamma function (derivative of log-gamma), elementwise (MindSpore's Lanczos approximation; NaN at
    the non-positive integers).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> print(nn.DiGamma()(Tensor(np.array([1.0, 2.0]), ms.float32)).asnumpy().round(4))
        [-0.5772  0.4228]
    """

    def construct(self, x: Tensor) -> Tensor:
        _check_float(self.cls_name, "x", x)
        half = _LANCZOS_GAMMA + 0.5
        reflect = ops.less(x, 0.5)
        z = ops.where(reflect, -x, x - 1)
        num: Any = 0
        denom: Any = _BASE_LANCZOS_COEFF
        for i, c in enumerate(_LANCZOS_COEFFICIENTS):
            j = z + (i + 1)
            num = num - c / (j * j)
            denom = denom + c / j
        t = z + half
        log_t = ops.log(1 + z / half) + float(np.log(half))
        y = log_t + num / denom - _LANCZOS_GAMMA / t
        reduced = x + ops.abs(ops.floor(x + 0.5))
        reflection = y - float(np.pi) * ops.cos(float(np.pi) * reduced) / ops.sin(float(np.pi) * reduced)
        result = ops.where(reflect, reflection, y)
        nan = ops.full_like(x, float("nan"))
        return ops.where(ops.logical_and(ops.less(x, 0), ops.equal(x, ops.floor(x))), nan, result)


def _until_done(cond: Any, body: Any, vals: tuple) -> tuple:
    while bool(cond(vals).asnumpy().any()):
        vals = body(vals)
    return vals


def _igamma_series(ax: Tensor, x: Tensor, a: Tensor, enabled: Tensor) -> Tensor:
    def body(vals: tuple) -> tuple:
        on, r, c, ans, xx = vals
        r = r + 1
        c = c * (xx / r)
        ans = ans + c
        keep = ops.logical_and(on, ops.greater(c / ans, _F32_EPS))
        return keep, ops.where(on, r, vals[1]), ops.where(on, c, vals[2]), ops.where(on, ans, vals[3]), xx

    ones = ops.ones_like(a)
    vals = _until_done(lambda v: v[0], body, (enabled, a, ones, ones, x))
    return vals[3] * ax / a


def _igammac_continued_fraction(ax: Tensor, x: Tensor, a: Tensor, enabled: Tensor) -> Tensor:
    def body(vals: tuple) -> tuple:
        on, ans, t, y, z, c, pkm1, qkm1, pkm2, qkm2 = vals
        c = c + 1
        y = y + 1
        z = z + 2
        yc = y * c
        pk = pkm1 * z - pkm2 * yc
        qk = qkm1 * z - qkm2 * yc
        nonzero = ops.not_equal(qk, 0)
        r = pk / ops.where(nonzero, qk, ops.ones_like(qk))
        t = ops.where(nonzero, ops.abs((ans - r) / r), ops.ones_like(t))
        ans = ops.where(nonzero, r, ans)
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        rescale = ops.greater(ops.abs(pk), 1 / _F32_EPS)
        pkm2 = ops.where(rescale, pkm2 * _F32_EPS, pkm2)
        pkm1 = ops.where(rescale, pkm1 * _F32_EPS, pkm1)
        qkm2 = ops.where(rescale, qkm2 * _F32_EPS, qkm2)
        qkm1 = ops.where(rescale, qkm1 * _F32_EPS, qkm1)
        keep = ops.logical_and(on, ops.greater(t, _F32_EPS))
        old = vals
        return (keep, ops.where(on, ans, old[1]), ops.where(on, t, old[2]), ops.where(on, y, old[3]),
                ops.where(on, z, old[4]), c, ops.where(on, pkm1, old[6]), ops.where(on, qkm1, old[7]),
                ops.where(on, pkm2, old[8]), ops.where(on, qkm2, old[9]))

    y = 1 - a
    z = x + y + 1
    pkm1, qkm1 = x + 1, z * x
    vals = (enabled, pkm1 / qkm1, ops.ones_like(x), y, z, ops.zeros_like(x), pkm1, qkm1, ops.ones_like(x), x)
    vals = _until_done(lambda v: ops.logical_and(ops.less(v[5], 2000), v[0]), body, vals)
    return vals[1] * ax


class IGamma(Cell):
    """The regularized lower incomplete gamma function P(a, x), elementwise (MindSpore's series for x below
    max(1, a), its continued fraction above; NaN for negative a or x).

    The iterations run until every element has converged, a count read from the values: the layer runs eagerly
    and cannot be exported to ONNX.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> a = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> print(nn.IGamma()(a, x).asnumpy().round(4))
        [0.6321 0.2642]
    """

    def construct(self, a: Tensor, x: Tensor) -> Tensor:
        _check_float(self.cls_name, "a", a, (dtypes.float32, dtypes.float64))
        if x.dtype != a.dtype:
            raise TypeError(f"For '{self.cls_name}', 'x' must have the dtype of 'a' {a.dtype}, but got "
                            f"{x.dtype}.")
        domain_error = ops.logical_or(ops.less(x, 0), ops.less(a, 0))
        use_igammac = ops.logical_and(ops.greater(x, 1), ops.greater(x, a))
        safe_x = ops.where(ops.greater(x, 0), x, ops.ones_like(x))
        ax = a * ops.log(safe_x) - x - _lgamma(a)
        shape = tuple(ax.shape)
        x, a = ops.broadcast_to(x, shape), ops.broadcast_to(a, shape)
        domain_error, use_igammac = ops.broadcast_to(domain_error,
                                                     shape), ops.broadcast_to(use_igammac, shape)
        x_is_zero = ops.equal(x, 0)
        underflow = ops.less(ax, -float(np.log(np.finfo(np.float32).max)))
        ax = ops.exp(ax)
        enabled = ops.logical_not(ops.logical_or(ops.logical_or(x_is_zero, domain_error), underflow))
        cf = 1 - _igammac_continued_fraction(ax, x, a, ops.logical_and(enabled, use_igammac))
        series = _igamma_series(ax, x, a, ops.logical_and(enabled, ops.logical_not(use_igammac)))
        out = ops.where(use_igammac, cf, series)
        out = ops.where(x_is_zero, ops.zeros_like(out), out)
        return ops.where(domain_error, ops.full_like(out, float("nan")), out)


class LBeta(Cell):
    """log(|Beta(x, y)|) = lgamma(x) + lgamma(y) - lgamma(x + y), elementwise, with MindSpore's asymptotic
    corrections when either argument is 8 or more.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> y = Tensor(np.array([1.0, 3.0]), ms.float32)
        >>> print(nn.LBeta()(x, y).asnumpy().round(4))
        [ 0.     -2.4849]
    """

    _coeff = (-0.00165322962780713, 0.000837308034031215, -0.00059520293135187, 0.00079365066682539,
              -0.00277777777760991, 0.0833333333333333)

    def _correction(self, x: Tensor) -> Tensor:
        inv = 1.0 / x
        inv2 = inv * inv
        acc: Any = self._coeff[0]
        for c in self._coeff[1:]:
            acc = acc * inv2 + c
        return acc * inv

    def construct(self, x: Tensor, y: Tensor) -> Tensor:
        _check_float(self.cls_name, "x", x)
        if y.dtype != x.dtype:
            raise TypeError(f"For '{self.cls_name}', 'y' must have the dtype of 'x' {x.dtype}, but got "
                            f"{y.dtype}.")
        x_plus_y = x + y
        shape = tuple(x_plus_y.shape)
        x, y = ops.broadcast_to(x, shape), ops.broadcast_to(y, shape)
        less = ops.less(x, y)
        x_min, y_max = ops.where(less, x, y), ops.where(less, y, x)
        cx, cy, cxy = self._correction(x_min), self._correction(y_max), self._correction(x_plus_y)
        log1p_ratio = ops.log(1 + x_min / y_max)
        two_large = (0.5 * float(np.log(2 * np.pi)) - 0.5 * ops.log(y_max) + cx + cy - cxy +
                     (x_min - 0.5) * ops.log(x_min / (x_min + y_max)) - y_max * log1p_ratio)
        cancelled = -1 * (x_min + y_max - 0.5) * log1p_ratio - x_min * ops.log(y_max) + x_min
        one_large = _lgamma(x_min) + (cy - cxy + cancelled)
        small = _lgamma(x_min) + _lgamma(y_max) - _lgamma(x_min + y_max)
        return ops.where(ops.less(x_min, 8), ops.where(ops.less(y_max, 8), small, one_large), two_large)


class MatMul(Cell):
    """Matrix product with broadcasting of the batch dims and 1-D operands (a 1-D x1 is a row, a 1-D x2 a
    column, both 1-D: the dot product).

    Args:
        transpose_x1, transpose_x2 (bool): transpose the last two dims of the operand first. Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> a = Tensor(np.ones((2, 3)), ms.float32)
        >>> b = Tensor(np.ones((4, 3)), ms.float32)
        >>> print(nn.MatMul(transpose_x2=True)(a, b))
        [[3. 3. 3. 3.]
         [3. 3. 3. 3.]]
    """

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False) -> None:
        super().__init__()
        for name, v in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(v, bool):
                raise TypeError(f"For '{self.cls_name}', the '{name}' must be bool, but got "
                                f"{type(v).__name__}.")
        self.transpose_x1 = transpose_x1
        self.transpose_x2 = transpose_x2

    def construct(self, x1: Tensor, x2: Tensor) -> Tensor:
        if x1.ndim == 1 and x2.ndim == 1:
            return ops.sum(x1 * x2, -1)
        a = ops.swapaxes(x1, -1, -2) if self.transpose_x1 and x1.ndim > 1 else x1
        b = ops.swapaxes(x2, -1, -2) if self.transpose_x2 and x2.ndim > 1 else x2
        cols = a.shape[-1]
        rows = b.shape[0] if b.ndim == 1 else b.shape[-2]
        if cols != rows:
            raise ValueError(f"For '{self.cls_name}', the column of matrix dimensions of 'x1' must be equal "
                             f"to the row of matrix dimensions of 'x2', but got 'x1_col' {cols} and "
                             f"'x2_row' {rows}.")
        return ops.matmul(a, b)


class Moments(Cell):
    """Mean and (biased) variance over ``axis``.

    Args:
        axis (Union[int, tuple[int]], optional): Default: None (all axes).
        keep_dims (bool, optional): keep the reduced axes as size 1. Default: None (False).

    Outputs:
        (mean, variance).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ms.float32)
        >>> mean, variance = nn.Moments(axis=1, keep_dims=False)(x)
        >>> print(mean)
        [2. 5.]
        >>> print(variance.asnumpy().round(4))
        [0.6667 0.6667]
    """

    def __init__(self, axis: Any = None, keep_dims: bool | None = None) -> None:
        super().__init__()
        axis = () if axis is None else axis
        if isinstance(axis, bool) or not isinstance(axis, (int, tuple)) or (
                isinstance(axis, tuple) and not all(isinstance(a, int) for a in axis)):
            raise TypeError(f"For '{self.cls_name}', the 'axis' must be int or a tuple of ints, but got "
                            f"{axis!r}.")
        keep_dims = False if keep_dims is None else keep_dims
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For '{self.cls_name}', the 'keep_dims' must be bool, but got "
                            f"{type(keep_dims).__name__}.")
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x: Tensor) -> tuple[Tensor, Tensor]:
        _check_float(self.cls_name, "input x", x)
        dtype = x.dtype
        if dtype == dtypes.float16:
            x = ops.cast(x, dtypes.float32)
        axes = norm_axes(self.axis, x.ndim, self.cls_name)
        mean = ops.mean(x, axes, keep_dims=True)
        variance = ops.mean(ops.square(x - ops.stop_gradient(mean)), axes, keep_dims=True)
        if not self.keep_dims:
            mean = ops.squeeze(mean, axes) if axes is not None else ops.reshape(mean, ())
            variance = ops.squeeze(variance, axes) if axes is not None else ops.reshape(variance, ())
        if dtype == dtypes.float16:
            mean, variance = ops.cast(mean, dtype), ops.cast(variance, dtype)
        return mean, variance


def _cholesky(a: Tensor) -> tuple[Tensor, list[Tensor]]:
    """The lower Cholesky factor of positive-definite (..., n, n) matrices, column by column, and its
    diagonal entries."""
    require_static(a.shape[-1], "the Cholesky factorization loops over the matrix size and")
    n = int(a.shape[-1])
    cols: list[Tensor] = []
    diag: list[Tensor] = []
    below = [Tensor(np.arange(n) >= j, a.dtype) for j in range(n)]
    for j in range(n):
        v = a[..., :, j]
        if cols:
            prev = ops.stack(cols, -1)  # (..., n, j)
            v = v - ops.sum(prev * ops.expand_dims(prev[..., j, :], -2), -1)
        d = ops.sqrt(v[..., j])
        diag.append(d)
        cols.append(v / ops.expand_dims(d, -1) * below[j])
    return ops.stack(cols, -1), diag


class MatInverse(Cell):
    """The inverse of positive-definite (..., n, n) matrices, through their Cholesky factor L (as MindSpore's
    CholeskyTrsm): A^-1 = L^-T L^-1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[4.0, 0.0], [0.0, 2.0]]), ms.float32)
        >>> print(nn.MatInverse()(x))
        [[0.25       0.        ]
         [0.         0.49999997]]
    """

    def construct(self, a: Tensor) -> Tensor:
        _check_float(self.cls_name, "input_a", a)
        low, diag = _cholesky(a)
        n = int(a.shape[-1])
        rows: list[Tensor] = []  # rows of L^-1, by forward substitution
        for i in range(n):
            e = Tensor(np.eye(n)[i], a.dtype)
            r = e if not rows else e - ops.sum(ops.expand_dims(low[..., i, :i], -1) * ops.stack(rows, -2), -2)
            rows.append(r / ops.expand_dims(diag[i], -1))
        inv_low = ops.stack(rows, -2)
        return ops.matmul(ops.swapaxes(inv_low, -1, -2), inv_low)


class MatDet(Cell):
    """The determinant of positive-definite (..., n, n) matrices: the squared product of their Cholesky
    factor's diagonal.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[2.0, 1.0], [1.0, 3.0]]), ms.float32)
        >>> print(nn.MatDet()(x).asnumpy().round(4))
        5.0
    """

    def construct(self, a: Tensor) -> Tensor:
        _check_float(self.cls_name, "input_a", a)
        _, diag = _cholesky(a)
        det = diag[0]
        for d in diag[1:]:
            det = det * d
        return ops.square(det)
