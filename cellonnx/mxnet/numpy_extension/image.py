"""mx.npx.image: the image operators of mx.nd.image, returning mx.np ndarrays."""
from __future__ import annotations

import sys

from cellonnx.mxnet._op import wrap
from cellonnx.mxnet._op.image import IMAGE
from cellonnx.mxnet.numpy.multiarray import ndarray

for _name, _impl in IMAGE.items():
    setattr(sys.modules[__name__], _name, wrap(_name, _impl, ndarray))

__all__ = list(IMAGE)
