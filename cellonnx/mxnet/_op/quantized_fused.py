"""The int8 arithmetic of MXNet 1.9.1's oneDNN fused layers (``_sg_mkldnn_conv`` and
``_sg_mkldnn_fully_connected`` with ``quantized``), as its CPU build computes them.

Convolution: batch norm folds into the float weight and bias (``alpha = gamma / sqrt(var + eps)`` in double,
the rest in float32), the weight is quantized per output channel (calibrated output) or per tensor
(``127.5 / max|w|``; a channel's scale is capped so that its int32 bias stays under 2^30), the bias becomes
int32 at ``weight scale * data scale``; the int32 sums (u8 x s8 channel pairs that saturate to int16, as
oneDNN's AVX2 kernels add them) plus the bias are scaled in float32 to the calibrated output range, the
summand (``with_sum``) added at ``output scale / summand scale``, relu applied, and the result rounded half
to even and saturated to uint8 (after a fused relu) or int8. Without a calibrated range the output is the
int32 sum with the range of the product.

Fully connected: the weight and bias come quantized offline (tensor-wise; the int8 bias is rescaled to int32
with round half away from zero) or in float (channel-wise, quantized here as the convolution's); the
output is float32 (``enable_float_output``), int8 in the calibrated range, or int32.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.mxnet._op.quantize import INT8_RANGE, UINT8_RANGE, array, max_abs, ranges, saturate, scalar
from cellonnx.mxnet._op.quantized_nn import _conv_windows, _pair_saturated, _u8s8_conv2d, multiplication_range
from cellonnx.tensor import Tensor

__all__ = ["fold_batch_norm", "quantized_sg_conv", "quantized_sg_fc"]

_F = np.float32
_HALF_INT32 = _F(_F(2147483648.0) / _F(2))


def _levels(dtype: np.dtype) -> np.float32:
    return UINT8_RANGE if dtype == np.uint8 else INT8_RANGE


def fold_batch_norm(weight: np.ndarray, bias: np.ndarray | None, gamma: np.ndarray, beta: np.ndarray,
                    mean: np.ndarray, var: np.ndarray, eps: float, fix_gamma: bool) -> tuple[np.ndarray,
                                                                                              np.ndarray]:
    """Weight and bias with the inference batch norm after them folded in (MXNet's UpdateConvWeightBias)."""
    g = np.ones_like(gamma, dtype=np.float64) if fix_gamma else gamma.astype(np.float64)
    alpha = (g / np.sqrt(var.astype(np.float64) + float(eps))).astype(_F)
    if bias is None:
        new_bias = (beta.astype(_F) - alpha * mean.astype(_F)).astype(_F)
    else:
        new_bias = (beta.astype(_F) + alpha * (bias.astype(_F) - mean.astype(_F))).astype(_F)
    shape = (-1,) + (1,) * (weight.ndim - 1)
    return (weight.astype(_F) * alpha.reshape(shape)).astype(_F), new_bias


def _weight_scales(weight: np.ndarray, bias: np.ndarray | None, data_scale: np.float32,
                   channel_wise: bool) -> np.ndarray:
    """MXNet's GetWeightScales: per output channel (capped so the int32 bias stays within 2^30) or one
    scale for the tensor."""
    flat = weight.reshape(weight.shape[0], -1)
    if not channel_wise:
        return np.array([INT8_RANGE / max_abs(flat.min(), flat.max())], _F)
    with np.errstate(divide="ignore"):
        scales = (INT8_RANGE / np.maximum(np.abs(flat.min(1)), np.abs(flat.max(1)))).astype(_F)
        if bias is not None:
            for c, b in enumerate(bias.astype(_F)):
                if b != 0:
                    bound = _F(_F(_F(_HALF_INT32 if b > 0 else -_HALF_INT32) / b) / data_scale)
                    scales[c] = min(scales[c], bound)
    return scales


def _quantize_weight(weight: np.ndarray, bias: np.ndarray | None, scales: np.ndarray,
                     data_scale: np.float32, adjust: float = 1.0) -> tuple[np.ndarray, np.ndarray | None]:
    """The int8 weight and int32 bias oneDNN's scaled reorders make (round half to even, saturate); the
    weight's scales times ``adjust`` (oneDNN halves them for int8 data on CPUs without VNNI)."""
    shape = (-1,) + (1,) * (weight.ndim - 1)
    wscales = (scales * _F(adjust)).astype(_F)
    per = wscales.reshape(shape) if scales.size > 1 else wscales[0]
    wq = saturate((weight.astype(_F) * per).astype(_F), "int8")
    if bias is None:
        return wq, None
    bias_scales = (scales * data_scale).astype(_F)
    bq = saturate((bias.astype(_F) * (bias_scales if scales.size > 1 else bias_scales[0])).astype(_F),
                  "int32")
    return wq, bq


def _conv_sums(x: np.ndarray, wq: np.ndarray, conv: dict[str, Any]) -> np.ndarray:
    stride, pad, dilate = conv["stride"], conv["pad"], conv["dilate"]
    if x.dtype == np.uint8:  # u8 x s8 channel pairs saturate to int16 (vpmaddubsw)
        return _u8s8_conv2d(x, wq, stride, pad, dilate)
    # int8 data: the weight is halved, so the shifted u8 x s8 pairs cannot saturate: the sums are exact
    return _exact_conv2d(x, wq, stride, pad, dilate)


def _exact_conv2d(x: np.ndarray, w: np.ndarray, stride: tuple[int, int], pad: tuple[int, int],
                  dilate: tuple[int, int]) -> np.ndarray:
    windows = _conv_windows(x, w.shape[2:], stride, pad, dilate)
    return np.einsum("ncyxhw,ochw->noyx", windows, w.astype(np.int64))


def quantized_sg_conv(data: Tensor, weight: np.ndarray, bias: np.ndarray | None, summand: Tensor | None,
                      data_range: tuple[Any, Any], sum_range: tuple[Any, Any] | None, conv: dict[str, Any],
                      relu: bool, postsum_relu: bool, calib: tuple[float, float] | None
                      ) -> tuple[Tensor, Tensor, Tensor]:
    """The quantized fused convolution on (folded) float ``weight`` / ``bias``: (output, min, max)."""
    x = array(data)
    if x.dtype not in (np.uint8, np.int8):
        raise TypeError(f"_sg_mkldnn_conv: quantized data must be int8 or uint8, got {x.dtype}")
    dmin, dmax = scalar(data_range[0]), scalar(data_range[1])
    if dmin < 0 and x.dtype != np.int8:
        raise TypeError("_sg_mkldnn_conv: Expect int8 when data_min < 0.0, consider quantize model with "
                        "int8.")
    adjust = 0.5 if x.dtype == np.int8 else 1.0
    data_scale = _F(_levels(x.dtype) / max_abs(dmin, dmax))
    scales = _weight_scales(weight, bias, data_scale, calib is not None)
    wq, bq = _quantize_weight(weight, bias, scales, data_scale, adjust)
    acc = _conv_sums(x, wq, conv)
    if calib is None:  # int32 output at the product's scale, the range of the product
        out_scale = _F(data_scale * scales[0])
        low, high = multiplication_range(weight.min(), weight.max(), dmin, dmax, 127.0,
                                         255.0 if x.dtype == np.uint8 else 127.0)
        requant, out_dtype = np.ones(1, _F), "int32"
    else:
        out_uint8 = (relu and summand is None) or postsum_relu
        out_dtype = "uint8" if out_uint8 else "int8"
        out_scale = _F(_levels(np.dtype(out_dtype)) / max_abs(*calib))
        low, high = ranges(_F(calib[0]), _F(calib[1]))
        requant = (out_scale / data_scale / scales).astype(_F)
    value = acc.astype(_F)
    if bq is not None:
        value = (value + (bq.astype(_F) * _F(adjust)).reshape(1, -1, 1, 1)).astype(_F)
    value = (value * (requant * _F(1.0 / adjust)).astype(_F).reshape(1, -1, 1, 1)).astype(_F)
    if relu and summand is None:
        value = np.maximum(value, _F(0))
    if summand is not None:
        s = array(summand)
        sum_in_scale = _F(_levels(s.dtype) / max_abs(scalar(sum_range[0]), scalar(sum_range[1])))
        sum_scale = _F(out_scale / sum_in_scale)
        value = (value.astype(np.float64) + np.float64(sum_scale) * s.astype(np.float64)).astype(_F)  # fma
        if postsum_relu:
            value = np.maximum(value, _F(0))
    return Tensor(saturate(value, out_dtype)), low, high


def quantized_sg_fc(data: Tensor, weight: np.ndarray, bias: np.ndarray | None, data_range: tuple[Any, Any],
                    weight_range: tuple[Any, Any] | None, bias_range: tuple[Any, Any] | None, flatten: bool,
                    eltwise_relu: bool, float_output: bool, calib: tuple[float, float] | None
                    ) -> Tensor | tuple[Tensor, Tensor, Tensor]:
    """The quantized fused fully-connected layer: int8 ``weight`` / ``bias`` with their ranges
    (tensor-wise) or float ones (``weight_range`` None: channel-wise)."""
    x = array(data)
    if x.dtype not in (np.uint8, np.int8):
        raise TypeError(f"_sg_mkldnn_fully_connected: quantized data must be int8 or uint8, got {x.dtype}")
    dmin, dmax = scalar(data_range[0]), scalar(data_range[1])
    data_scale = _F(_levels(x.dtype) / max_abs(dmin, dmax))
    rows = x.reshape(x.shape[0], -1) if flatten else x.reshape(-1, x.shape[-1])
    if weight_range is None:  # channel-wise: float weight and bias quantized here
        scales = _weight_scales(weight, bias, data_scale, True)
        wq, bq = _quantize_weight(weight, bias, scales, data_scale)
    else:
        wq = weight.astype(np.int8)
        scales = np.array([INT8_RANGE / max_abs(scalar(weight_range[0]), scalar(weight_range[1]))], _F)
        bq = None
        if bias is not None:  # a zero bias range gives an infinite scale, as in MXNet
            bmin, bmax = scalar(bias_range[0]), scalar(bias_range[1])
            with np.errstate(divide="ignore", invalid="ignore"):
                bias_scale = _F(INT8_RANGE / max_abs(bmin, bmax))
                rescale = _F(_F(data_scale * scales[0]) / bias_scale)
                bound = _F(_F(_HALF_INT32 / max_abs(bmin, bmax)) / bias_scale)
            if rescale > bound:
                weight_rescale = _F(_F(_F(bound * bias_scale) / data_scale) / scales[0])
                wq = np.round(wq.astype(_F) * weight_rescale).astype(np.int8)
                scales = (scales * weight_rescale).astype(_F)
                rescale = bound
            bq = np.round(bias.astype(np.int8).astype(_F) * rescale).astype(np.int32)  # half away from 0
    w64 = wq.astype(np.int64)
    if x.dtype == np.uint8:
        acc = _pair_saturated(rows.astype(np.int64)[..., None, :] * w64)
    else:
        acc = _pair_saturated((rows.astype(np.int64) + 128)[..., None, :] * w64) - 128 * w64.sum(1)
    if not float_output and calib is None:
        out = acc + (0 if bq is None else bq.astype(np.int64))
        low, high = multiplication_range(dmin, dmax, scalar(weight_range[0]), scalar(weight_range[1]), 127.0,
                                         127.0 if x.dtype == np.int8 else 255.0)
        return Tensor(np.clip(out, -2**31, 2**31 - 1).astype(np.int32)), low, high
    if float_output:
        base = _F(1.0 / np.float64(data_scale))
    else:
        base = _F(_F(INT8_RANGE / max_abs(*calib)) / data_scale)
    out_scales = (base / scales).astype(_F)
    value = acc.astype(_F)
    if bq is not None:
        value = (value + bq.astype(_F)).astype(_F)
    value = (value * (out_scales if out_scales.size > 1 else out_scales[0])).astype(_F)
    if eltwise_relu:
        value = np.maximum(value, _F(0))
    if float_output:
        return Tensor(value)
    return Tensor(saturate(value, "int8")), *ranges(_F(calib[0]), _F(calib[1]))
