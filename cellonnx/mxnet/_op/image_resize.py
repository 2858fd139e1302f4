"""image.resize in a traced graph: with the image's size known, OpenCV's interpolation as constant taps and
weights (uint8 bilinear in OpenCV's 11-bit fixed point, bit for bit; the others as weight matrices, uint8
results rounded); with a dynamic size, ONNX's Resize (half-pixel), which OpenCV's uint8 rounding may differ
from by a level."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from cellonnx.graph.symint import SymInt
from cellonnx.tensor import Tensor

__all__ = ["traced_resize"]

_MODES = {0: "nearest", 1: "bilinear", 2: "bicubic", 3: "area"}


def _bilinear_u8(x: Tensor, nh: int, nw: int) -> Tensor:
    from cellonnx.mxnet.image import _linear_fixed

    h, w = int(x.shape[-3]), int(x.shape[-2])
    x0, x1, a0, a1 = _linear_fixed(w, nw, True)
    y0, y1, b0, b1 = _linear_fixed(h, nh, False)
    img = ops.cast(x, np.int32)
    col = (nw, 1)

    def taps(idx: np.ndarray) -> Tensor:
        return Tensor(idx.astype(np.int64))

    rows = (ops.gather(img, taps(x0), x.ndim - 2) * Tensor(a0.astype(np.int32).reshape(col))
            + ops.gather(img, taps(x1), x.ndim - 2) * Tensor(a1.astype(np.int32).reshape(col)))
    top = ops.gather(rows, taps(y0), x.ndim - 3) // 16
    bottom = ops.gather(rows, taps(y1), x.ndim - 3) // 16
    out = ((Tensor(b0.astype(np.int32).reshape(nh, 1, 1)) * top) // 65536
           + (Tensor(b1.astype(np.int32).reshape(nh, 1, 1)) * bottom) // 65536 + 2) // 4
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
    if any(isinstance(d, SymInt) for d in x.shape[-3:-1]):
        return _onnx_resize(x, nh, nw, interp)
    if interp == 1 and x._data.dtype == np.uint8:
        return _bilinear_u8(x, nh, nw)
    return _matrices(x, nh, nw, interp)
