"""image.resize in a traced graph: uint8 bilinear (the default) in OpenCV's 11-bit fixed point, bit for bit,
its taps and weights computed from the image's size as the graph has it (so also for a dynamic height or
width); the other interpolations, with the image's size known, as constant weight matrices (uint8 results
rounded), and with a dynamic size as ONNX's Resize (half-pixel), which OpenCV's rounding may differ from by
a level."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from cellonnx.graph.symint import SymInt
from cellonnx.tensor import Tensor

__all__ = ["traced_resize"]

_MODES = {0: "nearest", 1: "bilinear", 2: "bicubic", 3: "area"}


def _linear_fixed(src: int, dst: int, clamp: bool) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """mx.image's _linear_fixed (OpenCV's bilinear taps and 11-bit weights along one axis) in ops, from
    the source size ``src`` as the graph has it: constants where it is static, graph values where it is
    dynamic. The same IEEE operations in the same precisions, so the same taps and weights."""
    last = Tensor(src - 1)  # a dynamic size becomes the graph's value
    scale = ops.cast(Tensor(src), np.float64) / float(dst)
    pos = ops.cast((ops.arange(dst, dtype=np.float64) + 0.5) * scale - 0.5, np.float32)
    base = ops.cast(ops.floor(pos), np.int64)
    frac = pos - ops.cast(base, np.float32)
    if clamp:
        frac = ops.where((base < 0) | (base >= last), ops.zeros_like(frac), frac)
        base = ops.clamp(base, Tensor(0), last)
    w0 = ops.cast(ops.round((1.0 - frac) * 2048.0), np.int32)
    w1 = ops.cast(ops.round(frac * 2048.0), np.int32)
    return ops.clamp(base, Tensor(0), last), ops.clamp(base + 1, Tensor(0), last), w0, w1


def _bilinear_u8(x: Tensor, nh: int, nw: int) -> Tensor:
    x0, x1, a0, a1 = _linear_fixed(x.shape[-2], nw, True)
    y0, y1, b0, b1 = _linear_fixed(x.shape[-3], nh, False)
    img = ops.cast(x, np.int32)
    col = (nw, 1)
    rows = (ops.gather(img, x0, x.ndim - 2) * ops.reshape(a0, col)
            + ops.gather(img, x1, x.ndim - 2) * ops.reshape(a1, col))
    top = ops.gather(rows, y0, x.ndim - 3) // 16
    bottom = ops.gather(rows, y1, x.ndim - 3) // 16
    out = ((ops.reshape(b0, (nh, 1, 1)) * top) // 65536 + (ops.reshape(b1, (nh, 1, 1)) * bottom) // 65536
           + 2) // 4
    return ops.cast(ops.clamp(out, 0, 255), np.uint8)


def _matrices(x: Tensor, nh: int, nw: int, interp: int) -> Tensor:
    from cellonnx.mxnet.image import _weights

    dtype = np.float64 if x._data.dtype == np.float64 else np.float32
    wy = Tensor(_weights(int(x.shape[-3]), nh, interp).astype(dtype))
    wxt = Tensor(_weights(int(x.shape[-2]), nw, interp).T.astype(dtype))
    perm = (2, 0, 1) if x.ndim == 3 else (0, 3, 1, 2)
    chw = ops.transpose(ops.cast(x, dtype) if x._data.dtype != dtype else x, perm)
    out = ops.matmul(ops.matmul(wy, chw), wxt)
    out = ops.transpose(out, (1, 2, 0) if x.ndim == 3 else (0, 2, 3, 1))
    if np.issubdtype(x._data.dtype, np.integer):
        info = np.iinfo(x._data.dtype)
        return ops.cast(ops.clamp(ops.round(out), float(info.min), float(info.max)), x._data.dtype)
    return out if out._data.dtype == x._data.dtype else ops.cast(out, x._data.dtype)


def _onnx_resize(x: Tensor, nh: int, nw: int, interp: int) -> Tensor:
    nchw = ops.transpose(x if x.ndim == 4 else ops.expand_dims(x, 0), (0, 3, 1, 2))
    f = nchw if nchw._data.dtype == np.float32 else ops.cast(nchw, np.float32)
    out = ops.interpolate(f, size=(nh, nw), mode=_MODES.get(interp, "bilinear"))
    if x._data.dtype == np.uint8:
        out = ops.clamp(ops.round(out), 0.0, 255.0)
    out = ops.transpose(ops.cast(out, x._data.dtype), (0, 2, 3, 1))
    return out if x.ndim == 4 else ops.squeeze(out, 0)


def traced_resize(x: Tensor, nh: int, nw: int, interp: int) -> Tensor:
    """(…, H, W, C) resized to (nh, nw) with OpenCV's interpolation ``interp``, in graph ops."""
    from cellonnx.mxnet.image import _interp

    interp = _interp(int(interp))
    if interp == 1 and x._data.dtype == np.uint8:
        return _bilinear_u8(x, nh, nw)
    if any(isinstance(d, SymInt) for d in x.shape[-3:-1]):
        return _onnx_resize(x, nh, nw, interp)
    return _matrices(x, nh, nw, interp)
