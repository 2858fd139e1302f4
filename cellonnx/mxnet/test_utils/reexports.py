"""The names mx.test_utils hands on from elsewhere in MXNet that test code reaches through it
(``mx.test_utils.Context``, ``array``, ``setenv`` ...)."""
from __future__ import annotations

from cellonnx.mxnet.context import Context, current_context
from cellonnx.mxnet.ndarray import array
from cellonnx.mxnet.runtime import Features
from cellonnx.mxnet.symbol import Symbol
from cellonnx.mxnet.util import get_cuda_compute_capability, getenv, setenv, use_np

__all__ = ["Context", "Features", "Symbol", "array", "current_context", "get_cuda_compute_capability",
           "getenv", "setenv", "use_np"]
