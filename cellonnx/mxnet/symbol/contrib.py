"""mx.sym.contrib: mx.nd.contrib's operators for traced code."""
from __future__ import annotations

import sys

from cellonnx.mxnet import _op
from cellonnx.mxnet.ndarray.ndarray import NDArray

for _name, _impl in _op.CONTRIB.items():
    setattr(sys.modules[__name__], _name, _op.wrap(_name, _impl, NDArray))

from cellonnx.mxnet.ndarray.control_flow import cond, foreach, while_loop  # noqa: E402

__all__ = [*_op.CONTRIB, "cond", "foreach", "while_loop"]
