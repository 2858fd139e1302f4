"""MXNet 1.9.1's int8 conversion operators as its CPU (oneDNN) build runs them: quantize, quantize_v2,
quantize_asym, dequantize and requantize.

oneDNN converts with ``x * scale`` in float32, rounds half to even and saturates to the target type; the
scale rules (127 or 127.5 levels for int8, 255 or 255.5 for uint8, int32 ranges of 2^31) differ from one
operator to the next and are kept as MXNet has them, since a quantized model's numbers depend on them.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.graph import trace as _trace
from cellonnx.tensor import Tensor

__all__ = ["QUANTIZE", "eager_only", "listed", "saturate"]

INT8_RANGE = np.float32(127.5)
UINT8_RANGE = np.float32(255.5)
INT32_RANGE = np.float32(2147483648.0)  # MinAbs(INT32_MIN, INT32_MAX) as a float
_FLOAT32_LOWEST = float(np.finfo(np.float32).min)


def array(x: Any) -> np.ndarray:
    """The NumPy data of a Tensor argument (or of an array-like)."""
    return x._data if isinstance(x, Tensor) else np.asarray(x)


def scalar(x: Any) -> np.float32:
    """A range argument (a 1-element array) as a float32 scalar."""
    return np.float32(array(x).reshape(-1)[0])


def max_abs(a: Any, b: Any) -> np.float32:
    return np.float32(max(abs(np.float32(a)), abs(np.float32(b))))


def levels_per(levels: Any, real: Any) -> np.float32:
    """``levels / real`` in float32 (inf for a zero range, as in MXNet)."""
    with np.errstate(divide="ignore"):
        return np.float32(np.float32(levels) / np.float32(real))


def saturate(values: np.ndarray, dtype: str) -> np.ndarray:
    """float values rounded half to even and clamped to ``dtype``'s range (oneDNN's conversion; a NaN,
    which a zero range makes, becomes int8's largest value and uint8's 0, as MXNet's CPU build gives)."""
    info = np.iinfo(dtype)
    out = np.rint(values).astype(np.float64)
    out[np.isnan(out)] = info.max if info.min < 0 else 0
    return np.clip(out, info.min, info.max).astype(dtype)


def scaled(data: np.ndarray, scale: Any, dtype: str) -> np.ndarray:
    """``data * scale`` computed in float32 and converted to ``dtype`` as a oneDNN reorder does."""
    with np.errstate(invalid="ignore"):
        return saturate(data.astype(np.float32) * np.float32(scale), dtype)


def eager_only(op: str) -> None:
    """Refuse to be traced: the operator computes in NumPy, and a traced graph would keep its result as a
    constant."""
    if _trace.current() is not None:
        raise _trace.LoweringError(f"{op}: has no ONNX lowering; of MXNet's quantization operators only "
                                   "dequantize and quantize_v2 with calibrated ranges trace to a graph")


def _traced_quantize(data: Tensor, scale: np.float32, kind: str) -> Tensor:
    """``data * scale`` rounded half to even, clamped to ``kind``'s range and cast (ONNX Mul, Round, Clip,
    Cast: the same float32 steps as oneDNN's reorder)."""
    info = np.iinfo(kind)
    scaled_ = ops.round(ops.mul(ops.cast(data, "float32"), Tensor(np.asarray(scale, np.float32))))
    return ops.cast(ops.clip_by_value(scaled_, float(info.min), float(info.max)), kind)


def listed(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` returning its several outputs as a list, as MXNet's multi-output operators do."""
    @functools.wraps(fn)
    def op(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        return list(out) if isinstance(out, tuple) else out
    return op


def ranges(low: Any, high: Any) -> tuple[Tensor, Tensor]:
    return Tensor(np.array([low], np.float32)), Tensor(np.array([high], np.float32))


def _out_type(out_type: str, min_calib_range: Any, max_calib_range: Any, op: str) -> str:
    """MXNet's out_type: 'auto' is uint8 for calibrated ranges starting at 0 or above, int8 otherwise."""
    if out_type not in ("auto", "int8", "uint8"):
        raise ValueError(f"{op}: out_type must be 'auto', 'int8' or 'uint8', got {out_type!r}")
    if out_type == "auto":
        calibrated = min_calib_range is not None and max_calib_range is not None
        return "uint8" if calibrated and float(min_calib_range) >= 0.0 else "int8"
    return out_type


def quantize(data: Tensor, min_range: Tensor, max_range: Tensor, out_type: str = "uint8",
             **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Quantize float32 ``data`` given its range: int8 with 127 levels per ``max(|min|, |max|)`` (range
    returned as +-that), uint8 with 255 levels per ``max(|min|, |max|)`` (the given range returned)."""
    eager_only("quantize")
    lo, hi = scalar(min_range), scalar(max_range)
    real = max_abs(lo, hi)
    if out_type == "int8":
        return (Tensor(scaled(array(data), levels_per(127.0, real), "int8")), *ranges(-real, real))
    if out_type == "uint8":
        return (Tensor(scaled(array(data), levels_per(255.0, real), "uint8")), *ranges(lo, hi))
    raise ValueError(f"quantize: out_type must be 'int8' or 'uint8', got {out_type!r}")


def quantize_v2(data: Tensor, out_type: str = "int8", min_calib_range: float | None = None,
                max_calib_range: float | None = None, **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Quantize float32 ``data`` with its own range or the calibrated one: 127.5 (int8) or 255.5 (uint8)
    levels per ``max(|min|, |max|)``. int8 / uint8 data passes through with the calibrated range (or
    +-127.5 / 0..255.5); its bytes are kept even when ``out_type`` names the other 8-bit type, as MXNet's
    CPU build does."""
    kind = _out_type(out_type, min_calib_range, max_calib_range, "quantize_v2")
    calibrated = min_calib_range is not None and max_calib_range is not None
    if _trace.current() is not None and calibrated and data.dtype not in ("int8", "uint8"):
        low, high = np.float32(min_calib_range), np.float32(max_calib_range)
        real = max_abs(low, high)
        out = _traced_quantize(data, levels_per(UINT8_RANGE if kind == "uint8" else INT8_RANGE, real), kind)
        return (out, *(ranges(low, high) if kind == "uint8" else ranges(-real, real)))
    eager_only("quantize_v2")
    x = array(data)
    if x.dtype in (np.int8, np.uint8):
        if calibrated:
            low, high = np.float32(min_calib_range), np.float32(max_calib_range)
        else:
            low, high = (0.0, UINT8_RANGE) if x.dtype == np.uint8 else (-INT8_RANGE, INT8_RANGE)
        return (Tensor(x.view(kind).copy()), *ranges(low, high))
    if calibrated:
        low, high = np.float32(min_calib_range), np.float32(max_calib_range)
    else:
        low, high = np.float32(x.min()), np.float32(x.max())
    real = max_abs(low, high)
    levels = UINT8_RANGE if kind == "uint8" else INT8_RANGE
    out = scaled(x, levels_per(levels, real), kind)
    return (Tensor(out), *(ranges(low, high) if kind == "uint8" else ranges(-real, real)))


def quantize_asym(data: Tensor, min_calib_range: float | None = None, max_calib_range: float | None = None,
                  **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Asymmetric uint8 quantization: ``x * scale + shift`` with ``scale = 255 / (max - min)`` and
    ``shift = 255 - max * scale`` (the calibrated or the data's range); returns (data, scale, shift).
    int8 data is shifted by 128, uint8 data passes through (scale 1, shift 0)."""
    eager_only("quantize_asym")
    x = array(data)
    if x.dtype == np.uint8:
        return (Tensor(x.copy()), *ranges(1.0, 0.0))
    if x.dtype == np.int8:
        return (Tensor((x.astype(np.int16) + 128).astype(np.uint8)), *ranges(1.0, 128.0))
    if min_calib_range is not None and max_calib_range is not None:
        low, high = np.float32(min_calib_range), np.float32(max_calib_range)
    else:
        low, high = np.float32(x.min()), np.float32(x.max())
    scale = np.float32(255.0) / (high - low)
    shift = np.float32(255.0) - high * scale
    out = saturate(x.astype(np.float32) * scale + shift, "uint8")
    return (Tensor(out), *ranges(scale, shift))


def dequantize(data: Tensor, min_range: Tensor, max_range: Tensor, out_type: str = "float32",
               **_: Any) -> Tensor:
    """int8 / uint8 ``data`` back to float32: ``q * max(|min|, |max|) / 127.5`` (255.5 for uint8)."""
    x = array(data)
    if x.dtype not in (np.int8, np.uint8):
        raise TypeError(f"dequantize: the input data type must be uint8 or int8, got {x.dtype}")
    if out_type != "float32":
        raise ValueError(f"dequantize: out_type must be 'float32', got {out_type!r}")
    levels = UINT8_RANGE if x.dtype == np.uint8 else INT8_RANGE
    if _trace.current() is not None:  # ONNX Cast, Abs, Max, Div, Mul
        real = ops.maximum(ops.abs(min_range), ops.abs(max_range))
        scale = ops.div(real, Tensor(np.asarray(levels, np.float32)))
        return ops.mul(ops.cast(data, "float32"), scale)
    scale = max_abs(scalar(min_range), scalar(max_range)) / levels
    return Tensor(x.astype(np.float32) * np.float32(scale))


def requantize(data: Tensor, min_range: Tensor, max_range: Tensor, out_type: str = "int8",
               min_calib_range: float | None = None, max_calib_range: float | None = None,
               **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """int32 ``data`` (range ``min_range..max_range`` over 2^31 levels) to int8 / uint8 in the calibrated
    range, or in the range its largest magnitude reaches."""
    eager_only("requantize")
    x = array(data)
    if x.dtype != np.int32:
        raise TypeError(f"requantize: data must be int32, got {x.dtype}")
    kind = _out_type(out_type, min_calib_range, max_calib_range, "requantize")
    data_scale = max_abs(scalar(min_range), scalar(max_range))
    if min_calib_range is not None and max_calib_range is not None:
        real = max_abs(min_calib_range, max_calib_range)
    else:
        # MXNet keeps the largest magnitude as an int32 before it scales it
        reach = np.int32(max(abs(float(x.min())), abs(float(x.max())))) if x.size else np.int32(0)
        real = np.float32(np.float32(reach) * data_scale) / INT32_RANGE
    first = data_scale / INT32_RANGE
    second = (np.float32(127.0) if kind == "int8" else np.float32(255.0)) / np.float32(real)
    out = scaled(x, np.float32(first * second), kind)
    return (Tensor(out), *(ranges(-real, real) if kind == "int8" else ranges(0.0, real)))


QUANTIZE: dict[str, Callable[..., Any]] = {
    "quantize": listed(quantize), "quantize_v2": listed(quantize_v2), "quantize_asym": listed(quantize_asym),
    "dequantize": dequantize, "requantize": listed(requantize),
}
