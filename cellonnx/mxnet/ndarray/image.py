"""mx.nd.image: MXNet's image operators on NDArrays - to_tensor, normalize, crop, resize, the flips and the
random color / lighting operators (see cellonnx/mxnet/_op/image.py for how each is computed)."""
from __future__ import annotations

import sys

from cellonnx.mxnet._op import wrap
from cellonnx.mxnet._op.image import IMAGE
from cellonnx.mxnet.ndarray.ndarray import NDArray

for _name, _impl in IMAGE.items():
    setattr(sys.modules[__name__], _name, wrap(_name, _impl, NDArray))

__all__ = list(IMAGE)
