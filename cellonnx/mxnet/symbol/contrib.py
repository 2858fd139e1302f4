"""mx.sym.contrib: mx.nd.contrib's operators for traced code."""
from __future__ import annotations

import sys
from typing import Any

from cellonnx.mxnet import _op
from cellonnx.mxnet.ndarray.ndarray import NDArray

for _name, _impl in _op.CONTRIB.items():
    setattr(sys.modules[__name__], _name, _op.wrap(_name, _impl, NDArray))

from cellonnx.mxnet.ndarray.control_flow import cond, foreach, while_loop  # noqa: E402

__all__ = [*_op.CONTRIB, "cond", "foreach", "while_loop"]


def __getattr__(name: str) -> Any:
    """Every other ``_contrib_*`` operator of MXNet 1.9.1 by its contrib name (a graph node on Symbols)."""
    from cellonnx.mxnet import symbol

    fn = symbol._graph_operator("_contrib_" + name) if not name.startswith("_") else None
    if fn is None:
        raise AttributeError(f"module 'mxnet.symbol.contrib' has no attribute '{name}'")
    setattr(sys.modules[__name__], name, fn)
    return fn

# the quantization operators build graph nodes on Symbols (MXNet's quantized symbol.json); their names
# resolve through __getattr__, which also computes them on arrays
for _name in _op.QUANTIZATION:
    delattr(sys.modules[__name__], _name)
