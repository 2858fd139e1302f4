"""Loss cells."""
from __future__ import annotations

from cellonnx.nn.loss import loss
from cellonnx.nn.loss.loss import *

__all__: list[str] = []
__all__ += loss.__all__
