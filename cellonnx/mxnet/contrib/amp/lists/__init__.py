"""MXNet 1.9.1's AMP operator lists, per low-precision type (``symbol_fp16``, ``symbol_bf16``)."""
from __future__ import annotations

from cellonnx.mxnet.contrib.amp.lists import symbol_bf16, symbol_fp16

__all__ = ["symbol_bf16", "symbol_fp16"]
