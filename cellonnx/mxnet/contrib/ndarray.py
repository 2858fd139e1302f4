"""``mx.contrib.ndarray`` (``mx.contrib.nd``): MXNet's contrib operators on NDArrays under their short
names, the very functions of mx.nd.contrib (``mx.contrib.nd.box_nms is mx.nd.contrib.box_nms``)."""
from __future__ import annotations

from cellonnx.mxnet.contrib import _operators

__all__: list[str] = []

__getattr__, __dir__ = _operators.namespace("cellonnx.mxnet.ndarray.contrib", "mxnet.contrib.ndarray")
