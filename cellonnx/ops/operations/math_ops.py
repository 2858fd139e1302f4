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
    Row("RaggedRange", "Tsplits", "starts, limits, deltas", "_ragged_range(starts, limits, deltas, Tsplits)"),
    # ---- elementwise, one input
    Row("Abs", "", "input", "abs(input)"),
    Row("Ceil", "", "input", "ceil(input)"),
    Row("Cos", "", "input", "cos(input)"),
    Row("Erf", "", "input", "erf(input)"),
    Row("Exp", "", "input", "exp(input)"),
    Row("Floor", "", "input", "floor(input)"),
    Row("Inv", "", "x", "reciprocal(x)"),
    Row("IsFinite", "", "input", "isfinite(input)"),
    Row("IsInf", "", "input", "isinf(input)"),
    Row("IsNan", "", "x", "isnan(x)"),
    Row("Log", "", "input", "log(input)"),
    Row("LogicalNot", "", "input", "logical_not(input)"),
    Row("Neg", "", "input", "neg(input)"),
    Row("Reciprocal", "", "input", "reciprocal(input)"),
    Row("Rint", "", "x", "round(x)"),
    Row("Round", "", "input, decimals=0", "_round(input, decimals)"),
    Row("Rsqrt", "", "input", "rsqrt(input)"),
    Row("Sign", "", "input", "sign(input)"),
    Row("Sin", "", "input", "sin(input)"),
    Row("Sqrt", "", "x", "sqrt(x)"),
    Row("Square", "", "input", "square(input)"),
    Row("FloatStatus", "", "x", "_float_status(x)"),
    # ---- elementwise, two inputs
    Row("Add", "", "input, other", "add(input, other)"),
    Row("TensorAdd", "", "x, y", "add(x, y)"),
    Row("Sub", "", "x, y", "sub(x, y)"),
    Row("Mul", "", "input, other", "mul(input, other)"),
    Row("Div", "", "input, other", "div(input, other)"),
    Row("RealDiv", "", "x, y", "div(x, y)"),
    Row("FloorDiv", "", "input, other", "floor_div(input, other)"),
    Row("FloorMod", "", "x, y", "floor_mod(x, y)"),
    Row("Mod", "", "x, y", "fmod(x, y)"),
    Row("TruncateMod", "", "x, y", "truncate_mod(x, y)"),
    Row("TruncateDiv", "", "x, y", "truncate_div(x, y)"),
    Row("DivNoNan", "", "x1, x2", "_div_no_nan(x1, x2)"),
    Row("MulNoNan", "", "x, y", "_mul_no_nan(x, y)"),
    Row("Xdivy", "", "x, y", "xdivy(x, y)"),
    Row("Pow", "", "input, exponent", "pow(input, exponent)"),
    Row("Maximum", "", "input, other", "maximum(input, other)"),
    Row("Minimum", "", "input, other", "minimum(input, other)"),
    Row("SquaredDifference", "", "x, y", "square(sub(*promote(x, y)))"),
    Row("Equal", "", "input, other", "equal(input, other)"),
    Row("NotEqual", "", "input, other", "not_equal(input, other)"),
    Row("Greater", "", "input, other", "greater(input, other)"),
    Row("GreaterEqual", "", "input, other", "greater_equal(input, other)"),
    Row("Less", "", "input, other", "less(input, other)"),
    Row("LessEqual", "", "input, other", "less_equal(input, other)"),
    Row("LogicalAnd", "", "x, y", "logical_and(x, y)"),
    Row("LogicalOr", "", "x, y", "logical_or(x, y)"),
    Row("LogicalXor", "", "input, other", "logical_xor(input, other)"),
    Row("ApproximateEqual", "tolerance=1e-05", "x, y", "_approximate_equal(x, y, tolerance)"),
    Row("EqualCount", "", "x, y", "_equal_count(x, y)"),
    Row("Lerp", "", "input, end, weight", "lerp(input, end, weight)"),
    Row("AddN", "", "inputs", "_add_n(inputs)"),
    Row("AccumulateNV2", "", "inputs", "_add_n(inputs)"),
    # ---- reductions (axis () means every axis)
    Row("ReduceSum", "keep_dims=False, skip_mode=False", "x, axis=()",
        "_reduce_sum(x, axis, keep_dims, skip_mode)"),
    Row("ReduceMean", "keep_dims=False", "x, axis=()", "mean(x, axes(axis), keep_dims)"),
    Row("ReduceMax", "keep_dims=False", "x, axis=()", "amax(x, axes(axis), keep_dims)"),
    Row("ReduceMin", "keep_dims=False", "x, axis=()", "amin(x, axes(axis), keep_dims)"),
    Row("ReduceProd", "keep_dims=False", "x, axis=()", "prod(x, axes(axis), keep_dims)"),
    Row("ReduceAll", "keep_dims=False", "input, axis=None", "_reduce_bool(amin, input, axis, keep_dims)"),
    Row("ReduceAny", "keep_dims=False", "x, axis=()", "_reduce_bool(amax, x, axis, keep_dims)"),
    Row("CumSum", "exclusive=False, reverse=False", "input, axis",
        "_cumsum(input, axis, exclusive, reverse)"),
    Row("ReduceStd", "axis=[], unbiased=True, keep_dims=False", "x",
        "std_mean(x, axes(axis), int(unbiased), keep_dims)"),
    Row("SquareSumAll", "", "x, y", "(sum(square(x)), sum(square(y)))"),
    Row("LpNorm", "axis, p=2, keep_dims=False, epsilon=1e-12", "input",
        "_lp_norm(input, axis, p, keep_dims, epsilon)"),
    Row("Argmax", "axis=-1, output_type=mstype.int32", "input_x",
        "_arg(argmax, input_x, axis, output_type, 'Argmax')"),
    Row("Argmin", "axis=-1, output_type=mstype.int32", "x", "_arg(argmin, x, axis, output_type, 'Argmin')"),
    Row("ArgMaxWithValue", "axis=0, keep_dims=False", "input",
        "_arg_with_value(max, input, axis, keep_dims)"),
    Row("ArgMinWithValue", "axis=0, keep_dims=False", "input",
        "_arg_with_value(min, input, axis, keep_dims)"),
    # ---- linear algebra
    Row("MatMul", "transpose_a=False, transpose_b=False", "input, mat2",
        "matmul(_t(input, transpose_a), _t(mat2, transpose_b))"),
    Row("BatchMatMul", "transpose_a=False, transpose_b=False", "x, y",
        "matmul(_t(x, transpose_a), _t(y, transpose_b))"),
    Row("Trace", "", "input", "trace(input)"),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
