"""ONNX Resize / Upsample over the two spatial axes of an NCHW input: nearest with an integer factor as
MXNet's UpSampling, linear (half-pixel or align-corners coordinates) as contrib.BilinearResize2D. MXNet
1.9.1's onnx2mx translates neither; PyTorch exports F.interpolate as Resize."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.mxnet import symbol as S
from cellonnx.mxnet.contrib.onnx.onnx2mx._node import Node

__all__ = ["TABLE"]

_LINEAR_MODES = {"half_pixel": False, "pytorch_half_pixel": False, "align_corners": True}


def _sizes(n: Node, scales: tuple[float, ...] | None, sizes: tuple[int, ...] | None) -> tuple[int, int]:
    shape = n.graph.shape(n.input_names[0])
    if sizes is not None:
        return int(sizes[-2]), int(sizes[-1])
    if shape is None or shape[2] is None or shape[3] is None:
        raise n.error("scales on an input of unknown height / width: give sizes")
    return int(np.floor(shape[2] * scales[-2])), int(np.floor(shape[3] * scales[-1]))


def _resize(n: Node) -> Any:
    mode = n.attrs.get("mode", "nearest")
    if n.op_type == "Upsample":
        scales = tuple(n.attrs["scales"]) if "scales" in n.attrs else tuple(float(v) for v in n.const(1))
        sizes = None
    else:
        index = 1 if n.opset < 11 else 2
        scales = tuple(float(v) for v in n.const(index)) if n.has(index) and n.const(index).size else None
        sizes = n.ints(3) if n.has(3) else None
    if n.rank(0) != 4 or (scales is not None and tuple(scales[:2]) != (1.0, 1.0)):
        raise n.error("only the two spatial axes of an NCHW input can be resized in MXNet")
    if mode == "nearest":
        factor = scales[-1] if scales is not None else None
        if factor is None or factor != scales[-2] or factor != int(factor):
            raise n.error(f"nearest resizing by {scales or sizes}: MXNet's UpSampling takes one integer "
                          "factor")
        return S.UpSampling(n.inputs[0], scale=int(factor), sample_type="nearest", num_args=1, **n.named())
    if mode in ("linear", "bilinear"):
        default = "half_pixel" if n.opset >= 11 else "asymmetric"
        coords = n.attrs.get("coordinate_transformation_mode", default)
        if coords not in _LINEAR_MODES:
            raise n.error(f"coordinate_transformation_mode={coords!r} has no MXNet counterpart")
        height, width = _sizes(n, scales, sizes)
        return S._contrib_BilinearResize2D(n.inputs[0], height=height, width=width,
                                           align_corners=_LINEAR_MODES[coords], **n.named())
    raise n.error(f"mode={mode!r} has no MXNet counterpart")


TABLE: dict[str, Callable[[Node], Any]] = {"Resize": _resize, "Upsample": _resize}
