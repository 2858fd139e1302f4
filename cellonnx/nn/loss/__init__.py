"""Loss cells."""
from __future__ import annotations

from cellonnx.nn.loss import classification, loss, margin, regression
from cellonnx.nn.loss.classification import *
from cellonnx.nn.loss.loss import *
from cellonnx.nn.loss.margin import *
from cellonnx.nn.loss.regression import *

__all__: list[str] = []
__all__ += loss.__all__
__all__ += margin.__all__
__all__ += regression.__all__
__all__ += classification.__all__
