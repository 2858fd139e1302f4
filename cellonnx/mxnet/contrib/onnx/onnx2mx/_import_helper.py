"""The translation table: ONNX operator type -> the function building its MXNet symbol (every operator
MXNet 1.9.1's onnx2mx translates, and the ones PyTorch and cellonnx exports of common layers use)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx.mxnet.contrib.onnx.onnx2mx import (
    _translate_math,
    _translate_nn,
    _translate_resize,
    _translate_shape,
)

__all__ = ["_convert_map"]

_convert_map: dict[str, Callable[[Any], Any]] = {
    **_translate_math.TABLE, **_translate_shape.TABLE, **_translate_nn.TABLE, **_translate_resize.TABLE,
}
