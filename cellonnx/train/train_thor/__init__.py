"""THOR's training helpers (``mindspore.train.train_thor``): ConvertNetUtils, ConvertModelUtils, ModelThor."""
from __future__ import annotations

from cellonnx.train.train_thor.convert_utils import ConvertModelUtils, ConvertNetUtils
from cellonnx.train.train_thor.model_thor import ModelThor

__all__ = ["ConvertModelUtils", "ConvertNetUtils", "ModelThor"]
