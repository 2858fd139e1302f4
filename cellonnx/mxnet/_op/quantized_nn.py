"""MXNet 1.9.1's quantized layers as its CPU (oneDNN) build runs them: quantized_conv,
quantized_fully_connected, quantized_pooling, quantized_act, quantized_flatten, quantized_concat,
quantized_elemwise_add, quantized_elemwise_mul, quantized_batch_norm and quantized_embedding.

Each takes int8 / uint8 data with its float32 range (min, max) and returns data with the range of the
result: int32 accumulations carry ``max(|min_a|, |max_a|) / 127 * max(|min_b|, |max_b|) / 127 * 2^31``,
rescaling steps round half to even and saturate as oneDNN's reorders do. Integer arithmetic is done exactly
(int64 / float64) and converted the way MXNet converts it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.mxnet._op._util import int_tuple
from cellonnx.mxnet._op.nn import NN
from cellonnx.mxnet._op.quantize import (
    INT8_RANGE,
    UINT8_RANGE,
    array,
    eager_only,
    listed,
    max_abs,
    ranges,
    saturate,
    scalar,
    scaled,
)
from cellonnx.tensor import Tensor

__all__ = ["QUANTIZED_NN"]


def _levels(dtype: np.dtype) -> np.float32:
    return INT8_RANGE if dtype == np.int8 else UINT8_RANGE


def multiplication_range(min_a: Any, max_a: Any, min_b: Any, max_b: Any, levels_a: float = 127.0,
                         levels_b: float = 127.0) -> tuple[Tensor, Tensor]:
    """The int32 range of a product of quantized operands (MXNet's QuantizationRangeForMultiplication)."""
    a = max_abs(scalar(min_a), scalar(max_a)) / np.float32(levels_a)
    b = max_abs(scalar(min_b), scalar(max_b)) / np.float32(levels_b)
    high = np.float32(np.float32(a * b) * np.float32(2147483648.0))
    return ranges(-high, high)


def _int8_inputs(op: str, **arrays: Any) -> None:
    for name, value in arrays.items():
        if array(value).dtype not in (np.int8, np.uint8):
            raise TypeError(f"{op}: {name} must be int8 or uint8, got {array(value).dtype}")


def _pair_saturated(products: np.ndarray) -> np.ndarray:
    """Sum over the last axis as oneDNN's AVX2 / AVX-512 u8 x s8 kernels do (vpmaddubsw): neighbouring
    products are added in pairs that saturate to int16, the pair sums then add exactly in int32."""
    k = products.shape[-1]
    if k % 2:
        products = np.concatenate([products, np.zeros((*products.shape[:-1], 1), products.dtype)], axis=-1)
    pairs = products.reshape(*products.shape[:-1], -1, 2).sum(-1)
    return np.clip(pairs, -32768, 32767).sum(-1)


def _conv_windows(x: np.ndarray, kernel: tuple[int, int], stride: tuple[int, int], pad: tuple[int, int],
                  dilate: tuple[int, int]) -> np.ndarray:
    """The int64 input windows of an NCHW convolution, as a view of shape N C OH OW KH KW."""
    x = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (pad[0], pad[0]), (pad[1], pad[1])))
    span = (dilate[0] * (kernel[0] - 1) + 1, dilate[1] * (kernel[1] - 1) + 1)
    windows = np.lib.stride_tricks.sliding_window_view(x, span, axis=(2, 3))
    return windows[:, :, ::stride[0], ::stride[1], ::dilate[0], ::dilate[1]]


def _u8s8_conv2d(x: np.ndarray, w: np.ndarray, stride: tuple[int, int], pad: tuple[int, int],
                 dilate: tuple[int, int]) -> np.ndarray:
    """uint8 NCHW data convolved with int8 OIHW weight, input channels paired (int64 result)."""
    windows = _conv_windows(x, w.shape[2:], stride, pad, dilate)
    patches = windows.transpose(0, 2, 3, 4, 5, 1)  # N OH OW KH KW C: oneDNN pairs neighbouring channels
    weight = w.astype(np.int64).transpose(0, 2, 3, 1)  # O KH KW C
    products = patches[:, :, :, None] * weight[None, None, None]  # N OH OW O KH KW C
    return _pair_saturated(products.reshape(*products.shape[:4], -1)).transpose(0, 3, 1, 2)


def quantized_conv(data: Tensor, weight: Tensor, bias: Tensor | None = None, *ranges_: Tensor,
                   kernel: Any = None, stride: Any = (), dilate: Any = (), pad: Any = (), num_filter: int = 0,
                   num_group: int = 1, no_bias: bool = False, layout: Any = None,
                   **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """2-d convolution of uint8 ``data`` (NCHW) with int8 ``weight``: int32 sums plus the int8 ``bias``
    as it is; inputs after the arrays are min_data, max_data, min_weight, max_weight(, min_bias,
    max_bias)."""
    eager_only("quantized_conv")
    if no_bias and bias is not None:
        ranges_ = (bias, *ranges_)
        bias = None
    if len(ranges_) < 4:
        raise TypeError(f"quantized_conv: expects min/max of data and weight, got {len(ranges_)} ranges")
    x, w = array(data), array(weight)
    if x.dtype != np.uint8:
        raise TypeError(f"quantized_conv: the CPU operator supports only uint8 data, got {x.dtype}")
    if w.dtype != np.int8:
        raise TypeError(f"quantized_conv: weight must be int8, got {w.dtype}")
    if int(num_group) != 1:
        raise ValueError(f"quantized_conv: only num_group=1 is supported, got {num_group}")
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"quantized_conv: supports 2-d NCHW data and OIHW weight, got {x.shape} and "
                         f"{w.shape}")
    if x.shape[1] % 4 or w.shape[0] % 4:
        raise ValueError(f"quantized_conv: input channels ({x.shape[1]}) and num_filter ({w.shape[0]}) "
                         "must be multiples of 4")
    out = _u8s8_conv2d(x, w, int_tuple(stride or 1, 2, "stride", "quantized_conv"),
                       int_tuple(pad or 0, 2, "pad", "quantized_conv"),
                       int_tuple(dilate or 1, 2, "dilate", "quantized_conv"))
    if bias is not None:
        out = out + array(bias).astype(np.int64).reshape(1, -1, *([1] * (out.ndim - 2)))
    return (Tensor(out.astype(np.int32)), *multiplication_range(*ranges_[:4]))


def quantized_fully_connected(data: Tensor, weight: Tensor, bias: Tensor | None = None, *ranges_: Tensor,
                              num_hidden: int = 0, no_bias: bool = False, flatten: bool = True,
                              **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """int8 / uint8 ``data`` times int8 ``weight`` transposed, into int32, plus the int8 ``bias`` rescaled
    to the product's scale (truncated to int32); inputs after the arrays are min/max of data, weight(,
    bias). The sums saturate as oneDNN's u8 x s8 kernels make them (int8 data is shifted into uint8)."""
    eager_only("quantized_fully_connected")
    if no_bias and bias is not None:
        ranges_ = (bias, *ranges_)
        bias = None
    x, w = array(data), array(weight)
    _int8_inputs("quantized_fully_connected", data=x, weight=w)
    min_d, max_d, min_w, max_w = (scalar(r) for r in ranges_[:4])
    rows = x.reshape(x.shape[0], -1) if flatten else x
    w64 = w.astype(np.int64)
    if x.dtype == np.uint8:
        out = _pair_saturated(rows.astype(np.int64)[..., None, :] * w64)
    else:  # oneDNN shifts int8 data by 128 into uint8 and takes the shift back out of the sums
        out = _pair_saturated((rows.astype(np.int64) + 128)[..., None, :] * w64) - 128 * w64.sum(1)
    if bias is not None:
        data_scale = _levels(x.dtype) / max_abs(min_d, max_d)
        weight_scale = INT8_RANGE / max_abs(min_w, max_w)
        rescale = np.float32(np.float32(data_scale * weight_scale) * max_abs(scalar(ranges_[4]),
                                                                           scalar(ranges_[5]))) / INT8_RANGE
        out = out + np.trunc(array(bias).astype(np.float32) * np.float32(rescale)).astype(np.int64)
    # uint8 data takes MXNet's S8U8 rule, which divides the weight's range by 255
    levels_weight = 127.0 if x.dtype == np.int8 else 255.0
    return (Tensor(out.astype(np.int32)),
            *multiplication_range(min_d, max_d, min_w, max_w, 127.0, levels_weight))


def quantized_pooling(data: Tensor, min_data: Tensor, max_data: Tensor, kernel: Any = (),
                      pool_type: str = "max", global_pool: bool = False, pooling_convention: str = "valid",
                      stride: Any = (), pad: Any = (), count_include_pad: Any = None, layout: Any = None,
                      **kwargs: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Max or average pooling of int8 / uint8 NCHW ``data`` (averages rounded half to even); the range
    passes through."""
    eager_only("quantized_pooling")
    x = array(data)
    _int8_inputs("quantized_pooling", data=x)
    if pool_type not in ("max", "avg"):
        raise ValueError(f"quantized_pooling: pool_type must be 'max' or 'avg', got {pool_type!r}")
    out = NN["Pooling"](Tensor(x.astype(np.float64)), kernel=kernel, pool_type=pool_type,
                        global_pool=global_pool, pooling_convention=pooling_convention, stride=stride,
                        pad=pad, count_include_pad=True if count_include_pad is None else count_include_pad)
    return (Tensor(saturate(out._data, x.dtype.name)), *ranges(scalar(min_data), scalar(max_data)))


def quantized_act(data: Tensor, min_data: Tensor, max_data: Tensor, act_type: str = "relu",
                  **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """ReLU of int8 data (the only activation MXNet quantizes); the result is typed int8 and the range
    passes through (uint8 data keeps its bytes, as MXNet's CPU build does)."""
    eager_only("quantized_act")
    if act_type != "relu":
        raise ValueError(f"quantized_act: only act_type 'relu' is supported, got {act_type!r}")
    x = array(data)
    _int8_inputs("quantized_act", data=x)
    out = np.maximum(x, 0) if x.dtype == np.int8 else x.view(np.int8).copy()
    return (Tensor(out), *ranges(scalar(min_data), scalar(max_data)))


def quantized_flatten(data: Tensor, min_data: Tensor, max_data: Tensor,
                      **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """``data`` reshaped to (N, -1); the range passes through."""
    eager_only("quantized_flatten")
    x = array(data)
    return (Tensor(x.reshape(x.shape[0], -1).copy()), *ranges(scalar(min_data), scalar(max_data)))


def quantized_concat(*data: Tensor, num_args: int | None = None, dim: int = 1,
                     **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Concatenate quantized arrays (``num_args`` arrays, then their min/max pairs): the range spans all
    ranges (and 0); an input with another scale is rescaled into it."""
    eager_only("quantized_concat")
    n = len(data) // 3 if num_args is None else int(num_args)
    if len(data) != 3 * n:
        raise TypeError(f"quantized_concat: expects {n} arrays and {2 * n} ranges, got {len(data)} inputs")
    arrays = [array(a) for a in data[:n]]
    mins = [scalar(r) for r in data[n::2]]
    maxs = [scalar(r) for r in data[n + 1::2]]
    low, high = min([np.float32(0.0), *mins]), max([np.float32(0.0), *maxs])
    kind = "int8" if any(a.dtype == np.int8 for a in arrays) else "uint8"
    out_scale = _levels(np.dtype(kind)) / max_abs(low, high)
    parts = []
    for a, lo, hi in zip(arrays, mins, maxs):
        scale = _levels(a.dtype) / max_abs(lo, hi)
        parts.append(a.astype(kind) if scale == out_scale else scaled(a, out_scale / scale, kind))
    return (Tensor(np.concatenate(parts, axis=int(dim))), *ranges(low, high))


def quantized_elemwise_add(lhs: Tensor, rhs: Tensor, lhs_min: Tensor, lhs_max: Tensor, rhs_min: Tensor,
                           rhs_max: Tensor, min_calib_range: float | None = None,
                           max_calib_range: float | None = None, **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Sum of two quantized arrays: int32 over the range ``+-(|a| + |b|)``, or int8 / uint8 in the
    calibrated range."""
    eager_only("quantized_elemwise_add")
    a, b = array(lhs), array(rhs)
    _int8_inputs("quantized_elemwise_add", lhs=a, rhs=b)
    a_abs, b_abs = max_abs(scalar(lhs_min), scalar(lhs_max)), max_abs(scalar(rhs_min), scalar(rhs_max))
    a_scale, b_scale = _levels(a.dtype) / a_abs, _levels(b.dtype) / b_abs
    calibrated = min_calib_range is not None and max_calib_range is not None
    kind = "int32"
    if calibrated:
        kind = a.dtype.name if a.dtype == b.dtype else "int8"
    out_levels = {"int8": INT8_RANGE, "uint8": UINT8_RANGE, "int32": np.float32(2147483647.0)}[kind]
    if calibrated:
        low, high = np.float32(min_calib_range), np.float32(max_calib_range)
        out_scale = out_levels / max_abs(low, high)
        scales = [out_scale / a_scale, out_scale / b_scale]
    else:
        high = np.float32(a_abs + b_abs)
        low = -high
        scales = [a_abs * out_levels / (high * _levels(a.dtype)),
                  b_abs * out_levels / (high * _levels(b.dtype))]
    if a.dtype != b.dtype:  # the uint8 operand is first reordered to int8 at its scale, then added as is
        u8 = 0 if a.dtype == np.uint8 else 1
        operands = [a, b]
        operands[u8] = scaled(operands[u8], scales[u8], "int8")
        scales[u8] = np.float32(1.0)
        a, b = operands
    total = a.astype(np.float32) * np.float32(scales[0]) + b.astype(np.float32) * np.float32(scales[1])
    return (Tensor(saturate(total, kind)), *ranges(low, high))


def quantized_elemwise_mul(lhs: Tensor, rhs: Tensor, lhs_min: Tensor, lhs_max: Tensor, rhs_min: Tensor,
                           rhs_max: Tensor, min_calib_range: float | None = None,
                           max_calib_range: float | None = None, enable_float_output: bool = False,
                           **_: Any) -> Any:
    """Product of two int8 arrays: int32 (the product's range), int8 in the calibrated range (the scaled
    product truncated, wrapping past int8 as MXNet's C cast does), or float32 with
    ``enable_float_output``."""
    eager_only("quantized_elemwise_mul")
    a, b = array(lhs), array(rhs)
    if a.dtype != np.int8 or b.dtype != np.int8:
        raise TypeError(f"quantized_elemwise_mul: lhs and rhs must be int8, got {a.dtype} and {b.dtype}")
    product = (a.astype(np.int32) * b.astype(np.int32)).astype(np.float32)
    a_scale = INT8_RANGE / max_abs(scalar(lhs_min), scalar(lhs_max))
    b_scale = INT8_RANGE / max_abs(scalar(rhs_min), scalar(rhs_max))
    if enable_float_output:
        scale = np.float32(1.0 / np.float64(a_scale) / np.float64(b_scale))  # a double in MXNet
        return Tensor(product * scale)
    if min_calib_range is not None and max_calib_range is not None:
        low, high = np.float32(min_calib_range), np.float32(max_calib_range)
        scale = np.float32(np.float32(INT8_RANGE / max_abs(low, high) / a_scale) / b_scale)
        out = np.trunc(product * scale).astype(np.int64).astype(np.int8)
        return (Tensor(out), *ranges(low, high))
    out = np.trunc(product).astype(np.int32)
    return (Tensor(out), *multiplication_range(lhs_min, lhs_max, rhs_min, rhs_max))


def quantized_batch_norm(data: Tensor, gamma: Tensor, beta: Tensor, moving_mean: Tensor, moving_var: Tensor,
                         min_data: Tensor, max_data: Tensor, eps: float = 1e-3, momentum: float = 0.9,
                         fix_gamma: bool = True, use_global_stats: bool = False,
                         output_mean_var: bool = False,
                         axis: int = 1, cudnn_off: bool = False, min_calib_range: float | None = None,
                         max_calib_range: float | None = None, **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Inference batch norm of int8 data into int8 in the calibrated range (required): per channel
    ``x * gamma / sqrt(var + eps) * |data| / |out| + (beta - mean * gamma / sqrt(var + eps)) * 127.5 /
    |out|``, rounded half to even."""
    eager_only("quantized_batch_norm")
    if min_calib_range is None or max_calib_range is None:
        raise ValueError("quantized_batch_norm: min_calib_range and max_calib_range are required (MXNet "
                         "does not support calib_mode=None for it)")
    x = array(data)
    _int8_inputs("quantized_batch_norm", data=x)
    if x.dtype == np.uint8:
        x = scaled(x, INT8_RANGE / UINT8_RANGE, "int8")
    low, high = np.float32(min_calib_range), np.float32(max_calib_range)
    data_abs, out_abs = max_abs(scalar(min_data), scalar(max_data)), max_abs(low, high)
    g, bt = array(gamma).astype(np.float32), array(beta).astype(np.float32)
    mean, var = array(moving_mean).astype(np.float32), array(moving_var).astype(np.float32)
    invstd = (1.0 / np.sqrt(var + np.float32(eps))).astype(np.float32)
    weight = g * invstd * data_abs / out_abs
    shift = (bt - mean * g * invstd) * INT8_RANGE / out_abs
    shape = [1] * x.ndim
    shape[int(axis) % x.ndim] = -1
    # oneDNN normalizes with the rescaled statistics (mean 0, variance 1) and the same eps
    norm = np.float32(1.0) / np.sqrt(np.float32(1.0) + np.float32(eps))
    out = x.astype(np.float32) * norm * weight.reshape(shape) + shift.reshape(shape)
    return (Tensor(saturate(out, "int8")), *ranges(low, high))


def quantized_embedding(data: Tensor, weight: Tensor, min_weight: Tensor, max_weight: Tensor,
                        input_dim: int | None = None, output_dim: int | None = None,
                        dtype: Any = "float32",
                        sparse_grad: bool = False, **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Rows of the int8 ``weight`` picked by ``data`` (indices clipped into range); the weight's range
    passes through."""
    eager_only("quantized_embedding")
    w = array(weight)
    if w.dtype != np.int8:
        raise TypeError(f"quantized_embedding: weight must be int8, got {w.dtype}")
    index = np.clip(array(data).astype(np.int64), 0, w.shape[0] - 1)
    return (Tensor(w[index]), *ranges(scalar(min_weight), scalar(max_weight)))


QUANTIZED_NN: dict[str, Callable[..., Any]] = {name: listed(fn) for name, fn in {
    "quantized_conv": quantized_conv, "quantized_fully_connected": quantized_fully_connected,
    "quantized_pooling": quantized_pooling, "quantized_act": quantized_act,
    "quantized_flatten": quantized_flatten, "quantized_concat": quantized_concat,
    "quantized_elemwise_add": quantized_elemwise_add, "quantized_elemwise_mul": quantized_elemwise_mul,
    "quantized_batch_norm": quantized_batch_norm, "quantized_embedding": quantized_embedding,
}.items()}
