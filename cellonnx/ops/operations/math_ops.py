"""MindSpore's math operator classes (``ops.Add``, ``ops.ReduceMean``, ``ops.MatMul`` ...): table rows over
the functional ops (see table.py), with the few adapters where MindSpore's attributes mean more than an
argument."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.ops.operations._util import axes
from cellonnx.ops.operations.table import Row, build
from cellonnx.ops.prims._util import promote
from cellonnx.ops.prims.math import abs, add, cast, div, equal, isfinite, logical_not, mul, sub
from cellonnx.ops.prims.reduce import sum
from cellonnx.ops.prims.shape import reshape, swapaxes
from cellonnx.tensor import Tensor


def _t(x: Tensor, flag: bool) -> Tensor:
    """``x`` with its last two axes swapped when ``flag``."""
    return swapaxes(x, -1, -2) if flag else x


def _reduce_sum(x: Tensor, axis: Any, keep_dims: bool, skip_mode: bool) -> Tensor:
    ax = axes(axis)
    if ax is None and skip_mode:
        return x
    return sum(x, ax, keep_dims)


def _round(x: Tensor, decimals: int) -> Tensor:
    from cellonnx.ops import round as round_
    if not decimals:
        return round_(x)
    scale = 10.0 ** decimals
    return div(round_(mul(x, scale)), scale)


def _add_n(inputs: Any) -> Tensor:
    if not isinstance(inputs, (tuple, list)) or not inputs:
        raise TypeError(f"For 'AddN', the input must be a non-empty tuple or list of Tensors, but got "
                        f"{inputs!r}")
    out = inputs[0]
    for t in inputs[1:]:
        out = add(out, t)
    return out if isinstance(out, Tensor) else Tensor(out)


def _div_no_nan(x: Tensor, y: Tensor) -> Tensor:
    from cellonnx.ops import where
    x, y = promote(x, y)
    zero = equal(y, 0)
    return where(zero, 0, div(x, where(zero, 1, y)))


def _mul_no_nan(x: Tensor, y: Tensor) -> Tensor:
    from cellonnx.ops import where
    x, y = promote(x, y)
    return where(equal(y, 0), 0, mul(x, y))


def _equal_count(x: Tensor, y: Tensor) -> Tensor:
    x, y = promote(x, y)
    return reshape(cast(sum(cast(equal(x, y), np.int32)), x._data.dtype), (1,))


def _float_status(x: Tensor) -> Tensor:
    """``[1.]`` when ``x`` holds a NaN or an infinity, else ``[0.]`` (float32, shape (1,))."""
    from cellonnx.ops import amin
    finite = amin(cast(isfinite(x), np.int32))
    return reshape(cast(logical_not(cast(finite, np.bool_)), np.float32), (1,))


def _approximate_equal(x: Any, y: Any, tolerance: float) -> Tensor:
    from cellonnx.ops import less
    x, y = promote(x, y)
    return less(abs(sub(x, y)), tolerance)


def _arg(fn: Any, x: Tensor, axis: int, output_type: Any, op: str) -> Tensor:
    if dtypes.dtype(output_type) not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"For '{op}', the 'output_type' must be int32 or int64, but got {output_type}.")
    return cast(fn(x, axis), output_type)


def _arg_with_value(fn: Any, x: Tensor, axis: int, keep_dims: bool) -> tuple[Tensor, Tensor]:
    """MindSpore's (index, value) pair of ArgMaxWithValue / ArgMinWithValue."""
    values, index = fn(x, axis, keep_dims, return_indices=True)
    return index, values


def _cumsum(x: Tensor, axis: Any, exclusive: bool, reverse: bool) -> Tensor:
    """MindSpore's CumSum: ``reverse`` sums from the end, ``exclusive`` leaves each element out of its own
    sum."""
    from cellonnx.ops import cat, cumsum, flip, narrow, zeros_like
    from cellonnx.ops.prims._util import norm_axis
    a = norm_axis(int(axis.asnumpy().item()) if isinstance(axis, Tensor) else axis, x.ndim, "CumSum")
    y = flip(x, (a,)) if reverse else x
    y = cumsum(y, a)
    n = y.shape[a]
    if exclusive and n:
        y = cat((zeros_like(narrow(y, a, 0, 1)), narrow(y, a, 0, n - 1)), a)
    return flip(y, (a,)) if reverse else y


def _reduce_bool(fn: Any, x: Tensor, axis: Any, keep_dims: bool) -> Tensor:
    """ReduceAll / ReduceAny: the minimum / maximum of the truth values."""
    return cast(fn(cast(cast(x, np.bool_), np.int32), axes(axis), keep_dims), np.bool_)


def _lp_norm(x: Tensor, axis: Any, p: int, keep_dims: bool, epsilon: float) -> Tensor:
    from cellonnx.ops import amax, maximum, pow
    ax = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    if p == 0:
        return sum(cast(cast(x, np.bool_), x._data.dtype), ax, keep_dims)
    if p == float("inf"):
        return amax(abs(x), ax, keep_dims)
    norm = pow(sum(pow(abs(x), p), ax, keep_dims), 1.0 / p)
    return maximum(norm, epsilon) if epsilon else norm


def _ragged_range(starts: Any, limits: Any, deltas: Any, tsplits: Any) -> tuple[Any, Any]:
    """ops.RaggedRange: the ranges ``starts[i], starts[i] + deltas[i], ...`` (up to, not including,
    ``limits[i]``) concatenated, with their row splits (in ``Tsplits``); values in the inputs' dtype."""
    from cellonnx.tensor import Tensor

    s, lim, d = (np.atleast_1d(t.asnumpy() if isinstance(t, Tensor) else np.asarray(t))
                 for t in (starts, limits, deltas))
    s, lim, d = np.broadcast_arrays(s, lim, d)
    if np.any(d == 0):
        raise ValueError(f"For 'RaggedRange', deltas must not be 0, but got {d.tolist()}")
    dt = s.dtype
    if dt.kind in "iu":
        span, step = np.abs(lim.astype(np.int64) - s), np.abs(d.astype(np.int64))
        counts = np.where((lim > s) == (d > 0), (span + step - 1) // step, 0)
    else:
        counts = np.maximum(np.ceil((lim - s) / d), 0).astype(np.int64)
    splits = np.concatenate([[0], np.cumsum(counts)]).astype(dtypes.to_numpy(tsplits))
    # each value is the previous plus delta, in the inputs' dtype (MindSpore's rounding for floats)
    values = [np.cumsum(np.concatenate([[s[i]], np.full(counts[i] - 1, d[i])]).astype(dt), dtype=dt)
              if counts[i] else np.zeros(0, dt) for i in range(s.size)]
    values = np.concatenate(values).astype(dt) if values else np.zeros(0, dt)
    return Tensor(splits), Tensor(values)


ROWS = [
    Row("RaggedRange", "Tsplits", "starts, limits, deltas", "_ragged_range(starts, limits, deltas, Tsplits)",
        summary="The ranges ``range(starts[i], limits[i], deltas[i])`` concatenated, and their row splits.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> starts = Tensor(np.array([2, 5, 8]), ms.int32)
        >>> limits = Tensor(np.array([3, 5, 12]), ms.int32)
        >>> deltas = Tensor(np.array([1, 1, 1]), ms.int32)
        >>> nested_splits, dense_values = ops.RaggedRange(Tsplits=ms.int64)(starts, limits, deltas)
        >>> print(nested_splits)
        [0 1 1 5]
        >>> print(dense_values)
        [ 2  8  9 10 11]
        """),
    # ---- elementwise, one input
    Row("Abs", "", "input", "abs(input)",
        summary="Absolute value, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.5, 0.0, 2.0]), ms.float32)
        >>> print(ops.Abs()(x))
        [1.5 0.  2. ]
        """),
    Row("Ceil", "", "input", "ceil(input)",
        summary="Rounds each element up to an integer value.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.1, 2.5, -1.5]), ms.float32)
        >>> print(ops.Ceil()(x))
        [ 2.  3. -1.]
        """),
    Row("Cos", "", "input", "cos(input)",
        summary="Cosine, elementwise (radians).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, np.pi / 3, np.pi]), ms.float32)
        >>> print(ops.Cos()(x).asnumpy().round(4))
        [ 1.   0.5 -1. ]
        """),
    Row("Erf", "", "input", "erf(input)",
        summary="The Gauss error function, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-1.0, 0.0, 0.5]), ms.float32)
        >>> print(ops.Erf()(x).asnumpy().round(4))
        [-0.8427  0.      0.5205]
        """),
    Row("Exp", "", "input", "exp(input)",
        summary="Exponential, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0, 2.0]), ms.float32)
        >>> print(ops.Exp()(x).asnumpy().round(4))
        [1.     2.7183 7.3891]
        """),
    Row("Floor", "", "input", "floor(input)",
        summary="Rounds each element down to an integer value.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.1, 2.5, -1.5]), ms.float32)
        >>> print(ops.Floor()(x))
        [ 1.  2. -2.]
        """),
    Row("Inv", "", "x", "reciprocal(x)",
        summary="``1 / x``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.Inv()(x))
        [1.   0.5  0.25]
        """),
    Row("IsFinite", "", "input", "isfinite(input)",
        summary="Whether each element is finite (neither infinite nor NaN).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, -np.inf]), ms.float32)
        >>> print(ops.IsFinite()(x))
        [ True False False]
        """),
    Row("IsInf", "", "input", "isinf(input)",
        summary="Whether each element is positive or negative infinity.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, -np.inf]), ms.float32)
        >>> print(ops.IsInf()(x))
        [False False  True]
        """),
    Row("IsNan", "", "x", "isnan(x)",
        summary="Whether each element is NaN.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, np.nan, np.inf]), ms.float32)
        >>> print(ops.IsNan()(x))
        [False  True False]
        """),
    Row("Log", "", "input", "log(input)",
        summary="Natural logarithm, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.Log()(x).asnumpy().round(4))
        [0.     0.6931 1.3863]
        """),
    Row("LogicalNot", "", "input", "logical_not(input)",
        summary="Logical NOT, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([True, False]), ms.bool_)
        >>> print(ops.LogicalNot()(x))
        [False  True]
        """),
    Row("Neg", "", "input", "neg(input)",
        summary="``-input``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, -2.0, 0.0]), ms.float32)
        >>> print(ops.Neg()(x))
        [-1.  2. -0.]
        """),
    Row("Reciprocal", "", "input", "reciprocal(input)",
        summary="``1 / input``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.Reciprocal()(x))
        [1.   0.5  0.25]
        """),
    Row("Rint", "", "x", "round(x)",
        summary="Rounds each element to the nearest integer, halves to even.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.5, 2.6]), ms.float32)
        >>> print(ops.Rint()(x))
        [0. 2. 3.]
        """),
    Row("Round", "", "input, decimals=0", "_round(input, decimals)",
        summary="Rounds each element to the nearest integer, halves to even.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.5, 2.4, -2.6]), ms.float32)
        >>> print(ops.Round()(x))
        [ 0.  2.  2. -3.]
        """),
    Row("Rsqrt", "", "input", "rsqrt(input)",
        summary="``1 / sqrt(input)``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 4.0, 16.0]), ms.float32)
        >>> print(ops.Rsqrt()(x))
        [1.   0.5  0.25]
        """),
    Row("Sign", "", "input", "sign(input)",
        summary="The sign of each element: -1, 0 or 1.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, 0.0, 2.5]), ms.float32)
        >>> print(ops.Sign()(x))
        [-1.  0.  1.]
        """),
    Row("Sin", "", "input", "sin(input)",
        summary="Sine, elementwise (radians).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, np.pi / 6, np.pi / 2]), ms.float32)
        >>> print(ops.Sin()(x).asnumpy().round(4))
        [0.  0.5 1. ]
        """),
    Row("Sqrt", "", "x", "sqrt(x)",
        summary="Square root, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 4.0, 9.0]), ms.float32)
        >>> print(ops.Sqrt()(x))
        [1. 2. 3.]
        """),
    Row("Square", "", "input", "square(input)",
        summary="The square of each element.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-2.0, 3.0]), ms.float32)
        >>> print(ops.Square()(x))
        [4. 9.]
        """),
    Row("FloatStatus", "", "x", "_float_status(x)",
        summary="A 1-element tensor holding 1.0 when ``x`` contains an Inf or NaN, else 0.0.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.FloatStatus()(Tensor(np.array([1.0, 2.0]), ms.float32)))
        [0.]
        >>> print(ops.FloatStatus()(Tensor(np.array([1.0, np.inf]), ms.float32)))
        [1.]
        """),
    # ---- elementwise, two inputs
    Row("Add", "", "input, other", "add(input, other)",
        summary="Adds two tensors elementwise, with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> add = ops.Add()
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 5.0, 6.0]), ms.float32)
        >>> print(add(x, y))
        [5. 7. 9.]
        >>> print(add(x, 1.0))
        [2. 3. 4.]
        """),
    Row("TensorAdd", "", "x, y", "add(x, y)",
        summary="``x + y``, elementwise with broadcasting (MindSpore's older name of ``ops.Add``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 5.0, 6.0]), ms.float32)
        >>> print(ops.TensorAdd()(x, y))
        [5. 7. 9.]
        """),
    Row("Sub", "", "x, y", "sub(x, y)",
        summary="Subtracts ``y`` from ``x`` elementwise, with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 5.0, 6.0]), ms.float32)
        >>> print(ops.Sub()(x, y))
        [-3. -3. -3.]
        """),
    Row("Mul", "", "input, other", "mul(input, other)",
        summary="Multiplies two tensors elementwise, with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> y = Tensor(np.array([10.0, 100.0]), ms.float32)
        >>> print(ops.Mul()(x, y))
        [[ 10. 200.]
         [ 30. 400.]]
        """),
    Row("Div", "", "input, other", "div(input, other)",
        summary="Divides ``input`` by ``other`` elementwise, with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, -3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 5.0, 2.0]), ms.float32)
        >>> print(ops.Div()(x, y))
        [ 0.25  0.4  -1.5 ]
        """),
    Row("RealDiv", "", "x, y", "div(x, y)",
        summary="Divides ``x`` by ``y`` elementwise (floating point), with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.RealDiv()(x, Tensor(np.array([2.0]), ms.float32)))
        [0.5 1.  1.5]
        """),
    Row("FloorDiv", "", "input, other", "floor_div(input, other)",
        summary="``input / other`` rounded down, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([7.0, -7.0]), ms.float32)
        >>> print(ops.FloorDiv()(x, 2.0))
        [ 3. -4.]
        """),
    Row("FloorMod", "", "x, y", "floor_mod(x, y)",
        summary="The remainder of the floor division, with the divisor's sign, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, -1.0, 4.0]), ms.float32)
        >>> print(ops.FloorMod()(x, 3.0))
        [0. 2. 1.]
        """),
    Row("Mod", "", "x, y", "fmod(x, y)",
        summary="The remainder of the truncated division, with the dividend's sign, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, -1.0, 4.0]), ms.float32)
        >>> y = Tensor(np.array([3.0, 3.0, 3.0]), ms.float32)
        >>> print(ops.Mod()(x, y))
        [-0. -1.  1.]
        """),
    Row("TruncateMod", "", "x, y", "truncate_mod(x, y)",
        summary="The remainder of ``x / y`` rounded towards zero (the sign of ``x``), elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([7, -7, 9]), ms.int32)
        >>> y = Tensor(np.array([2, 2, -4]), ms.int32)
        >>> print(ops.TruncateMod()(x, y))
        [ 1 -1  1]
        """),
    Row("TruncateDiv", "", "x, y", "truncate_div(x, y)",
        summary="``x / y`` rounded towards zero, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([7, -7, 9]), ms.int32)
        >>> y = Tensor(np.array([2, 2, -4]), ms.int32)
        >>> print(ops.TruncateDiv()(x, y))
        [ 3 -3 -2]
        """),
    Row("DivNoNan", "", "x1, x2", "_div_no_nan(x1, x2)",
        summary="``x1 / x2`` elementwise, 0 where ``x2`` is 0.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([2.0, 0.0, 4.0]), ms.float32)
        >>> print(ops.DivNoNan()(x, y))
        [0.5  0.   0.75]
        """),
    Row("MulNoNan", "", "x, y", "_mul_no_nan(x, y)",
        summary="``x * y`` elementwise, 0 where ``y`` is 0 (even when ``x`` is inf or NaN).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([np.inf, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([0.0, 1.0, 2.0]), ms.float32)
        >>> print(ops.MulNoNan()(x, y))
        [0. 2. 6.]
        """),
    Row("Xdivy", "", "x, y", "xdivy(x, y)",
        summary="``x / y``, elementwise, 0 where ``x`` is 0.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([0.0, 4.0, 2.0]), ms.float32)
        >>> print(ops.Xdivy()(x, y))
        [0.  0.5 1.5]
        """),
    Row("Pow", "", "input, exponent", "pow(input, exponent)",
        summary="``input ** exponent``, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 4.0]), ms.float32)
        >>> print(ops.Pow()(x, 3.0))
        [ 1.  8. 64.]
        """),
    Row("Maximum", "", "input, other", "maximum(input, other)",
        summary="The larger of two tensors, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 5.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 2.0, 6.0]), ms.float32)
        >>> print(ops.Maximum()(x, y))
        [4. 5. 6.]
        """),
    Row("Minimum", "", "input, other", "minimum(input, other)",
        summary="The smaller of two tensors, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 5.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 2.0, 6.0]), ms.float32)
        >>> print(ops.Minimum()(x, y))
        [1. 2. 3.]
        """),
    Row("SquaredDifference", "", "x, y", "square(sub(*promote(x, y)))",
        summary="``(x - y) ** 2``, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([2.0, 4.0, 6.0]), ms.float32)
        >>> print(ops.SquaredDifference()(x, y))
        [1. 4. 9.]
        """),
    Row("Equal", "", "input, other", "equal(input, other)",
        summary="Whether ``input == other``, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.Equal()(x, 2))
        [False  True False]
        """),
    Row("NotEqual", "", "input, other", "not_equal(input, other)",
        summary="Whether ``input != other``, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.NotEqual()(x, 2))
        [ True False  True]
        """),
    Row("Greater", "", "input, other", "greater(input, other)",
        summary="Whether ``input > other``, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> y = Tensor(np.array([1, 1, 4]), ms.int32)
        >>> print(ops.Greater()(x, y))
        [False  True False]
        """),
    Row("GreaterEqual", "", "input, other", "greater_equal(input, other)",
        summary="Whether ``input >= other``, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> y = Tensor(np.array([1, 1, 4]), ms.int32)
        >>> print(ops.GreaterEqual()(x, y))
        [ True  True False]
        """),
    Row("Less", "", "input, other", "less(input, other)",
        summary="Whether ``input < other``, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> y = Tensor(np.array([1, 1, 4]), ms.int32)
        >>> print(ops.Less()(x, y))
        [False False  True]
        """),
    Row("LessEqual", "", "input, other", "less_equal(input, other)",
        summary="Whether ``input <= other``, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> y = Tensor(np.array([1, 1, 4]), ms.int32)
        >>> print(ops.LessEqual()(x, y))
        [ True False  True]
        """),
    Row("LogicalAnd", "", "x, y", "logical_and(x, y)",
        summary="Logical AND, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([True, False, True]), ms.bool_)
        >>> y = Tensor(np.array([True, True, False]), ms.bool_)
        >>> print(ops.LogicalAnd()(x, y))
        [ True False False]
        """),
    Row("LogicalOr", "", "x, y", "logical_or(x, y)",
        summary="Logical OR, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([True, False, False]), ms.bool_)
        >>> y = Tensor(np.array([False, False, True]), ms.bool_)
        >>> print(ops.LogicalOr()(x, y))
        [ True False  True]
        """),
    Row("LogicalXor", "", "input, other", "logical_xor(input, other)",
        summary="Logical XOR, elementwise with broadcasting.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([True, False, True]), ms.bool_)
        >>> y = Tensor(np.array([True, True, False]), ms.bool_)
        >>> print(ops.LogicalXor()(x, y))
        [False  True  True]
        """),
    Row("ApproximateEqual", "tolerance=1e-05", "x, y", "_approximate_equal(x, y, tolerance)",
        summary="Whether ``|x - y| < tolerance``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> y = Tensor(np.array([1.0, 2.1]), ms.float32)
        >>> print(ops.ApproximateEqual(tolerance=0.05)(x, y))
        [ True False]
        """),
    Row("EqualCount", "", "x, y", "_equal_count(x, y)",
        summary="The number of positions where ``x`` and ``y`` hold equal values, as a 1-element tensor.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> y = Tensor(np.array([1, 2, 4]), ms.int32)
        >>> print(ops.EqualCount()(x, y))
        [2]
        """),
    Row("Lerp", "", "input, end, weight", "lerp(input, end, weight)",
        summary="Linear interpolation ``input + weight * (end - input)``, elementwise.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> start = Tensor(np.array([0.0, 10.0]), ms.float32)
        >>> end = Tensor(np.array([10.0, 20.0]), ms.float32)
        >>> print(ops.Lerp()(start, end, 0.25))
        [ 2.5 12.5]
        """),
    Row("AddN", "", "inputs", "_add_n(inputs)",
        summary="The elementwise sum of a list of tensors of one shape.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 5.0, 6.0]), ms.float32)
        >>> print(ops.AddN()([x, y, x]))
        [ 6.  9. 12.]
        """),
    Row("AccumulateNV2", "", "inputs", "_add_n(inputs)",
        summary="The elementwise sum of a list of tensors of the same shape.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([4.0, 5.0, 6.0]), ms.float32)
        >>> print(ops.AccumulateNV2()([x, y, x]))
        [ 6.  9. 12.]
        """),
    # ---- reductions (axis () means every axis)
    Row("ReduceSum", "keep_dims=False, skip_mode=False", "x, axis=()",
        "_reduce_sum(x, axis, keep_dims, skip_mode)",
        summary="Sums over the given axes (all of them when ``axis`` is ``()``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.ReduceSum()(x))
        21.0
        >>> print(ops.ReduceSum(keep_dims=True)(x, 1))
        [[ 6.]
         [15.]]
        """),
    Row("ReduceMean", "keep_dims=False", "x, axis=()", "mean(x, axes(axis), keep_dims)",
        summary="The mean over the given axes (all of them when ``axis`` is ``()``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.ReduceMean()(x))
        3.5
        >>> print(ops.ReduceMean(keep_dims=False)(x, 0))
        [2.5 3.5 4.5]
        """),
    Row("ReduceMax", "keep_dims=False", "x, axis=()", "amax(x, axes(axis), keep_dims)",
        summary="The maximum over the given axes (all of them when ``axis`` is ``()``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.ReduceMax()(x, 1))
        [7. 9.]
        """),
    Row("ReduceMin", "keep_dims=False", "x, axis=()", "amin(x, axes(axis), keep_dims)",
        summary="The minimum over the given axes (all of them when ``axis`` is ``()``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.ReduceMin()(x, 1))
        [1. 5.]
        """),
    Row("ReduceProd", "keep_dims=False", "x, axis=()", "prod(x, axes(axis), keep_dims)",
        summary="The product over the given axes (all of them when ``axis`` is ``()``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.ReduceProd()(x, 0))
        [ 4. 10. 18.]
        """),
    Row("ReduceAll", "keep_dims=False", "input, axis=None", "_reduce_bool(amin, input, axis, keep_dims)",
        summary="Logical AND over the given axes (all of them when ``axis`` is None).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[True, False], [True, True]]), ms.bool_)
        >>> print(ops.ReduceAll()(x, 1))
        [False  True]
        """),
    Row("ReduceAny", "keep_dims=False", "x, axis=()", "_reduce_bool(amax, x, axis, keep_dims)",
        summary="Logical OR over the given axes (all of them when ``axis`` is ``()``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[True, False], [False, False]]), ms.bool_)
        >>> print(ops.ReduceAny()(x, 1))
        [ True False]
        """),
    Row("CumSum", "exclusive=False, reverse=False", "input, axis",
        "_cumsum(input, axis, exclusive, reverse)",
        summary="The cumulative sum along ``axis`` (optionally exclusive, or from the end).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> print(ops.CumSum()(x, 0))
        [ 1.  3.  6. 10.]
        >>> print(ops.CumSum(exclusive=True, reverse=True)(x, 0))
        [9. 7. 4. 0.]
        """),
    Row("ReduceStd", "axis=[], unbiased=True, keep_dims=False", "x",
        "std_mean(x, axes(axis), int(unbiased), keep_dims)",
        summary="The standard deviation and the mean over the given axes.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 3.0], [2.0, 6.0]]), ms.float32)
        >>> std, mean = ops.ReduceStd(axis=1, unbiased=False)(x)
        >>> print(std)
        [1. 2.]
        >>> print(mean)
        [2. 4.]
        """),
    Row("SquareSumAll", "", "x, y", "(sum(square(x)), sum(square(y)))",
        summary="The sums of the squares of all the elements of ``x`` and of ``y``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 1.0, 2.0]), ms.float32)
        >>> y = Tensor(np.array([3.0, 4.0, 0.0]), ms.float32)
        >>> print(ops.SquareSumAll()(x, y))
        (Tensor(shape=[], dtype=Float32, value= 5), Tensor(shape=[], dtype=Float32, value= 25))
        """),
    Row("LpNorm", "axis, p=2, keep_dims=False, epsilon=1e-12", "input",
        "_lp_norm(input, axis, p, keep_dims, epsilon)",
        summary="The ``p``-norm of ``input`` over ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]), ms.float32)
        >>> print(ops.LpNorm(axis=[0, 1], p=2)(x).asnumpy().round(4))
        [ 9.1652 10.9545]
        """),
    Row("Argmax", "axis=-1, output_type=mstype.int32", "input_x",
        "_arg(argmax, input_x, axis, output_type, 'Argmax')",
        summary="The index of the largest element along ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.Argmax(axis=-1)(x))
        [1 0]
        """),
    Row("Argmin", "axis=-1, output_type=mstype.int32", "x", "_arg(argmin, x, axis, output_type, 'Argmin')",
        summary="The index of the smallest element along ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> print(ops.Argmin(axis=-1)(x))
        [0 1]
        """),
    Row("ArgMaxWithValue", "axis=0, keep_dims=False", "input",
        "_arg_with_value(max, input, axis, keep_dims)",
        summary="The index and the value of the largest element along ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> index, value = ops.ArgMaxWithValue(axis=1)(x)
        >>> print(index)
        [1 0]
        >>> print(value)
        [7. 9.]
        """),
    Row("ArgMinWithValue", "axis=0, keep_dims=False", "input",
        "_arg_with_value(min, input, axis, keep_dims)",
        summary="The index and the value of the smallest element along ``axis``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]]), ms.float32)
        >>> index, value = ops.ArgMinWithValue(axis=1)(x)
        >>> print(index)
        [0 1]
        >>> print(value)
        [1. 5.]
        """),
    # ---- linear algebra
    Row("MatMul", "transpose_a=False, transpose_b=False", "input, mat2",
        "matmul(_t(input, transpose_a), _t(mat2, transpose_b))",
        summary="Matrix product of two 2-D tensors, either of them transposed first.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.arange(6).reshape(2, 3), ms.float32)
        >>> b = Tensor(np.ones((4, 3)), ms.float32)
        >>> matmul = ops.MatMul(transpose_b=True)
        >>> print(matmul(a, b))
        [[ 3.  3.  3.  3.]
         [12. 12. 12. 12.]]
        """),
    Row("BatchMatMul", "transpose_a=False, transpose_b=False", "x, y",
        "matmul(_t(x, transpose_a), _t(y, transpose_b))",
        summary="Matrix products of batches of matrices, either side transposed first.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> y = Tensor(np.ones((2, 4, 5)), ms.float32)
        >>> output = ops.BatchMatMul()(x, y)
        >>> output.shape
        (2, 3, 5)
        >>> print(output[0, 0])
        [4. 4. 4. 4. 4.]
        """),
    Row("Trace", "", "input", "trace(input)",
        summary="The sum of the main diagonal of a 2-D tensor.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[10.0, 11.0, 12.0], [13.0, 14.0, 15.0], [16.0, 17.0, 18.0]]), ms.float32)
        >>> print(ops.Trace()(x))
        42.0
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
