"""mxnet.attribute: ``AttrScope``, the attributes given to every symbol created in a ``with`` block."""
from __future__ import annotations

from cellonnx.gluon.symbol.compose import AttrScope

__all__ = ["AttrScope"]
