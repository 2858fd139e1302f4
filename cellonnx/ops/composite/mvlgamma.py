"""The multivariate log-gamma function, a sum of shifted ``ops.lgamma`` terms."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.tensor import Tensor


def mvlgamma(input: Tensor, p: int) -> Tensor:
    """``log(pi) * p (p - 1) / 4 + sum_{i=1..p} lgamma(input - (i - 1) / 2)``, element-wise.

    Args:
        input (Tensor): float input; every element must exceed (p - 1) / 2.
        p (int): the dimension, at least 1.

    Examples:
        >>> ops.mvlgamma(Tensor([[3.0, 4.0], [2.0, 6.0]]), 3).shape
        (2, 2)
    """
    from cellonnx import ops
    lgamma = getattr(ops, "lgamma", None)
    if lgamma is None:
        raise NotImplementedError("mvlgamma: needs ops.lgamma, which this build of cellonnx does not have")
    x = to_tensor(input)
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 1:
        raise ValueError(f"mvlgamma: p must be an int >= 1, got {p!r}")
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"mvlgamma: input must be a float tensor, got {x.dtype}")
    if x._data.size and float(x._data.min()) <= (p - 1) / 2:
        raise ValueError(f"mvlgamma: every element of input must be greater than (p - 1) / 2 = "
                         f"{(p - 1) / 2}, got {float(x._data.min())}")
    total: Any = None
    for i in range(int(p)):
        term = lgamma(ops.sub(x, i / 2.0) if i else x)
        total = term if total is None else ops.add(total, term)
    return ops.add(total, math.log(math.pi) * p * (p - 1) / 4.0)


__all__ = ["mvlgamma"]
