"""``mx.contrib.onnx.onnx2mx``: ONNX import (``import_model``, ``import_onnx``, ``import_to_gluon``)."""
from __future__ import annotations

from cellonnx.mxnet.contrib.onnx.onnx2mx import import_model, import_onnx, import_to_gluon

__all__ = ["import_model", "import_onnx", "import_to_gluon"]
