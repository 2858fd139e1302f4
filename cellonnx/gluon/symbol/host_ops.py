"""The operators of a symbol graph that compute only in NumPy: MXNet's int8 quantization operators
(``_contrib_quantized_*``, ``_contrib_requantize``, the quantized oneDNN fused layers, ``_contrib_quantize``
and a ``_contrib_quantize_v2`` without calibrated range). They reproduce the integer arithmetic of MXNet's
CPU kernels exactly, which ONNX's integer operators cannot (oneDNN's int16 pair saturation, its rounding of
scaled sums), so they have no ONNX lowering and a graph holding them runs eagerly."""
from __future__ import annotations

from cellonnx.gluon.symbol.graph import Node, SymbolGraph

__all__ = ["host_only_nodes"]

_HOST_OPS = ("_contrib_requantize", "_contrib_quantize", "_contrib_quantize_asym",
             "_contrib_calibrate_entropy")


def _host_only(node: Node) -> bool:
    if node.op.startswith("_contrib_quantized_") or node.op in _HOST_OPS:
        return True
    if node.op in ("_sg_mkldnn_conv", "_sg_mkldnn_fully_connected"):
        return node.attrs.get("quantized", "false").lower() in ("true", "1")
    if node.op == "_contrib_quantize_v2":
        return "min_calib_range" not in node.attrs or "max_calib_range" not in node.attrs
    return False


def host_only_nodes(graph: SymbolGraph) -> list[str]:
    """The names of the graph's nodes whose operators run only eagerly (``op 'name'``)."""
    return [f"{n.op} '{n.name}'" for n in graph.nodes if not n.is_variable and _host_only(n)]
