"""mx.npx.random: seeding and the extra samplers of MXNet 2.x."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.mxnet.random import seed
from cellonnx.ops.prims.random import generator
from cellonnx.tensor import Tensor

__all__ = ["bernoulli", "seed"]


def bernoulli(prob: Any = None, logit: Any = None, size: Any = None, dtype: Any = "float32", **_: Any) -> Any:
    """1 with probability ``prob`` (or sigmoid(``logit``)), else 0."""
    p = prob._data if isinstance(prob, Tensor) else prob
    if p is None:
        lg = logit._data if isinstance(logit, Tensor) else np.asarray(logit)
        p = 1.0 / (1.0 + np.exp(-lg))
    shape = size if size is not None else np.shape(p)
    return to_np(Tensor((generator("bernoulli").uniform(size=shape) < p).astype(dtype)))
