"""Rows for the integer and rounding primitives (cellonnx/ops/prims/elementwise.py, bitwise.py) and the
cumulative ops (cumulative.py)."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand

I8 = np.array([5, -6, 127, -128, 3, -1], dtype=np.int8)
S8 = np.array([1, 2, 1, 1, 9, 3], dtype=np.int8)
I32 = np.array([[5, -5, 1, -9], [7, 100, -2147483647, 3]], dtype=np.int32)
S32 = np.array([[1, 1, 31, 2], [40, -1, 3, 0]], dtype=np.int32)
I64 = np.array([[12, -18, 0, 7], [8, 27, 0, -5]], dtype=np.int64)
J64 = np.array([[8, 12, 5, 0], [-6, 9, 0, 10]], dtype=np.int64)
U8 = np.array([[0, 200, 17, 255]], dtype=np.uint8)
X = rand(3, 4, seed=31) * 5
Y = rand(3, 4, seed=32) * 2 + np.where(rand(3, 4, seed=33) > 0, 2.5, -2.5)
NAN_ROW = np.array([[1.0, 3.0, np.nan, 2.0, 5.0], [0.0, -1.0, -1.0, 4.0, 4.0]])
EAGER = "no ONNX operator: eager only"


def _shift_ref(x, s, left):
    bits = 64 if x.dtype.itemsize == 8 else 32
    work = np.dtype(f"uint{bits}") if x.dtype.kind == "u" else np.dtype(f"int{bits}")
    amount = (s.astype(np.int64) & (bits - 1)).astype(work)
    out = np.left_shift(x.astype(work), amount) if left else np.right_shift(x.astype(work), amount)
    return out.astype(x.dtype)


def _cum_extreme_ref(x, axis, largest, index_dtype):
    """Running extreme with ties taking the later index and NaN propagating (MindSpore's kernels)."""
    x = np.moveaxis(x, axis, -1)
    vals, idx = np.empty_like(x), np.empty(x.shape, np.int64)
    for row in np.ndindex(x.shape[:-1]):
        best, bi = x[row][0], 0
        for i, v in enumerate(x[row]):
            better = (v >= best if largest else v <= best)
            if not np.isnan(best) and (better or np.isnan(v)):
                best, bi = v, i
            vals[row][i], idx[row][i] = best, bi
    return np.moveaxis(vals, -1, axis), np.moveaxis(idx, -1, axis).astype(index_dtype)


def _logcumsumexp_ref(x, axis):
    return np.logaddexp.accumulate(x, axis=axis)


CASES = [
    OpCase("trunc", lambda x: ops.trunc(x), [X], np.trunc),
    OpCase("trunc_int_identity", lambda x: ops.trunc(x), [I64], lambda x: x),
    OpCase("fmod", lambda x, y: ops.fmod(x, y), [X, Y], np.fmod, note="the sign of the dividend"),
    OpCase("fmod_int", lambda x, y: ops.fmod(x, y), [I64, np.where(J64 == 0, 3, J64)], np.fmod),
    OpCase("truncate_div_int", lambda x, y: ops.truncate_div(x, y), [I64, np.where(J64 == 0, 3, J64)],
           lambda a, b: np.trunc(a / b).astype(np.int64)),
    OpCase("truncate_div_float", lambda x, y: ops.truncate_div(x, y), [X, Y], lambda a, b: np.trunc(a / b)),
    OpCase("truncate_mod", lambda x, y: ops.truncate_mod(x, y), [X, Y], np.fmod),
    OpCase("div_trunc_int", lambda x, y: ops.div(x, y, rounding_mode="trunc"), [I64,
                                                                                np.where(J64 == 0, 3, J64)],
           lambda a, b: np.trunc(a / b).astype(np.int64)),
    OpCase("copysign_negative_zero", lambda x, y: ops.copysign(x, y), [X, np.array([-0.0, 0.0, -1.0, 2.0])],
           lambda a, b: np.where(b < 0, -np.abs(a), np.abs(a)), grad=(0,),
           note="-0.0 is not negative, as in MindSpore's CPU kernel (other < 0)"),
    OpCase("gcd", lambda x, y: ops.gcd(x, y), [I64, J64], np.gcd, lower=False, note=EAGER),
    OpCase("lcm", lambda x, y: ops.lcm(x, y), [I64, J64], np.lcm, lower=False, note=EAGER),
    OpCase("nextafter", lambda x, y: ops.nextafter(x, y), [X, Y], lambda a, b: np.nextafter(
        a.astype(np.float32), b.astype(np.float32)), rtol=0, atol=0, lower=False, grad=(),
        note=f"compared in float32, where the step is one float32 ulp; {EAGER}"),
    OpCase("bitwise_and", lambda x, y: ops.bitwise_and(x, y), [I64, J64], np.bitwise_and, opsets=(18, 21)),
    OpCase("bitwise_or", lambda x, y: ops.bitwise_or(x, y), [I64, J64], np.bitwise_or, opsets=(18, 21)),
    OpCase("bitwise_xor", lambda x, y: ops.bitwise_xor(x, y), [I64, J64], np.bitwise_xor, opsets=(18, 21)),
    OpCase("bitwise_xor_bool", lambda x, y: ops.bitwise_xor(x > 0, y > 0), [X, Y], lambda a,
           b: (a > 0) ^ (b > 0),
           note="bool inputs lower to Xor at every opset"),
    OpCase("bitwise_and_scalar", lambda x: ops.bitwise_and(x, 6), [I64], lambda a: a & 6, opsets=(18, 21)),
    OpCase("invert_int8", lambda x: ops.invert(x), [I8], np.invert, opsets=(18, 21)),
    OpCase("invert_uint8", lambda x: ops.invert(x), [U8], np.invert, opsets=(18, 21)),
    OpCase("left_shift_int8", lambda x, s: ops.bitwise_left_shift(x, s), [I8, S8],
           lambda x, s: _shift_ref(x, s, True), note="int8 shifts in a 32-bit register, then wraps"),
    OpCase("right_shift_int8", lambda x, s: ops.bitwise_right_shift(x, s), [I8, S8],
           lambda x, s: _shift_ref(x, s, False), note="arithmetic shift of negative values"),
    OpCase("left_shift_int32_past_width", lambda x, s: ops.bitwise_left_shift(x, s), [I32, S32],
           lambda x, s: _shift_ref(x, s, True), note="the amount modulo 32, as MindSpore's x86 kernel"),
    OpCase("right_shift_int32", lambda x, s: ops.bitwise_right_shift(x, s), [I32, S32],
           lambda x, s: _shift_ref(x, s, False)),
    OpCase("right_shift_uint8", lambda x: ops.bitwise_right_shift(x, 3), [U8], lambda x: x >> 3),
    OpCase("left_shift_int64", lambda x, s: ops.bitwise_left_shift(x, s), [I64, np.abs(J64) % 7],
           lambda x, s: _shift_ref(x, s, True)),
    OpCase("cumprod", lambda x: ops.cumprod(x, 1), [rand(3, 5, seed=34) * 2], lambda x: np.cumprod(x, 1),
           second_order=True),
    OpCase("cumprod_axis0_int", lambda x: ops.cumprod(x, 0), [I64], lambda x: np.cumprod(x, 0),
           note="integers accumulate in int64"),
    OpCase("cummax", lambda x: ops.cummax(x, 1), [rand(2, 5, seed=35)],
           lambda x: _cum_extreme_ref(x, 1, True, np.int64)),
    OpCase("cummax_ties_and_nan", lambda x: ops.cummax(x, -1), [NAN_ROW],
           lambda x: _cum_extreme_ref(x, -1, True, np.int64), grad=(), note="ties move the index forward"),
    OpCase("cummin_ties_and_nan", lambda x: ops.cummin(x, 1), [NAN_ROW],
           lambda x: _cum_extreme_ref(x, 1, False, np.int32), grad=(), note="int32 indices, as MindSpore"),
    OpCase("cummin_axis0", lambda x: ops.cummin(x, 0), [rand(4, 3, seed=36)],
           lambda x: _cum_extreme_ref(x, 0, False, np.int32)),
    OpCase("cummax_int", lambda x: ops.cummax(x, 1), [I64], lambda x: _cum_extreme_ref(x, 1, True, np.int64)),
    OpCase("logcumsumexp", lambda x: ops.logcumsumexp(x, 1), [X], lambda x: _logcumsumexp_ref(x, 1),
           second_order=True),
    OpCase("logcumsumexp_wide_range", lambda x: ops.logcumsumexp(x, 0), [np.array([[-200.0, 3.0],
                                                                                   [50.0, -np.inf],
                                                                                  [0.0, 1.0]])],
           lambda x: _logcumsumexp_ref(x, 0), grad=(), note="no underflow for terms far below the maximum"),
]
