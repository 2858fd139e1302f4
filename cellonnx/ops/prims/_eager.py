"""Lowerings for ops ONNX cannot express: they raise, naming the op and why, when a graph holding one is
exported; the op still runs eagerly."""
from __future__ import annotations

from typing import Any

ONNX_HAS_NONE = "ONNX has no operator for it and no exact formula of ONNX operators"
COMPLEX = ("its result is complex and ONNX runtimes compute on complex tensors with almost no operator "
           "(keep it outside the exported function, or export the real and imaginary parts computed eagerly)")


class NotExportable(NotImplementedError):
    """An op that runs eagerly only was met while exporting a graph."""


def not_exportable(name: str, why: str = ONNX_HAS_NONE) -> Any:
    """A ``lower`` method that raises NotExportable for the functional op ``name``."""

    def lower(self: Any, g: Any, *xs: str, **attrs: Any) -> str:
        raise NotExportable(f"ops.{name} cannot be exported to ONNX: {why}; it runs eagerly only")

    return lower
