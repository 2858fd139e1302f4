"""``mx.contrib.symbol`` (``mx.contrib.sym``): MXNet's contrib operators as graph nodes under their short
names, the very functions of mx.sym.contrib (``mx.contrib.sym.box_nms is mx.sym.contrib.box_nms``)."""
from __future__ import annotations

from cellonnx.mxnet.contrib import _operators

__all__: list[str] = []

__getattr__, __dir__ = _operators.namespace("cellonnx.mxnet.symbol.contrib", "mxnet.contrib.symbol")
