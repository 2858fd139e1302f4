"""mxnet.executor: the Executor a bound symbol runs in (``Symbol.bind`` / ``simple_bind``)."""
from __future__ import annotations

from cellonnx.gluon.symbol.executor import Executor

__all__ = ["Executor"]
