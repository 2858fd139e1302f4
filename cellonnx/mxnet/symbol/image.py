"""mx.sym.image: mx.nd.image's operators for traced code (``F.image`` in a hybridized block)."""
from __future__ import annotations

import sys

from cellonnx.mxnet._op import wrap
from cellonnx.mxnet._op.image import IMAGE
from cellonnx.mxnet.ndarray.ndarray import NDArray

for _name, _impl in IMAGE.items():
    setattr(sys.modules[__name__], _name, wrap(_name, _impl, NDArray))

__all__ = list(IMAGE)
