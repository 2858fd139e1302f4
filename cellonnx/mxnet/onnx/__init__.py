"""mxnet.onnx: ``export_model`` writes an MXNet model (a Symbol or symbol.json with its parameters) as ONNX
through cellonnx's symbol interpreter and exporter, with the weights as named initializers;
``get_operator_support`` lists the operators it converts."""
from __future__ import annotations

from cellonnx.mxnet.onnx.mx2onnx import export_model, get_operator_support

__all__ = ["export_model", "get_operator_support"]
