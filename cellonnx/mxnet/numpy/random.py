"""mx.np.random: NumPy's samplers (float32 by default) from cellonnx's seeded generator."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.mxnet.numpy.multiarray import ndarray, to_np
from cellonnx.mxnet.random import seed
from cellonnx.ops.prims.random import generator
from cellonnx.tensor import Tensor

__all__ = ["normal", "rand", "randint", "randn", "seed", "shuffle", "uniform"]


def _out(values: Any, dtype: Any = None) -> ndarray:
    return to_np(Tensor(np.asarray(values).astype(dtype or np.float32)))


def uniform(low: float = 0.0, high: float = 1.0, size: Any = None, dtype: Any = None, device: Any = None,
            **_: Any) -> ndarray:
    return _out(generator("uniform").uniform(low, high, size), dtype)


def normal(loc: float = 0.0, scale: float = 1.0, size: Any = None, dtype: Any = None, device: Any = None,
           **_: Any) -> ndarray:
    return _out(generator("normal").normal(loc, scale, size), dtype)


def randint(low: int, high: int | None = None, size: Any = None, dtype: Any = None, device: Any = None,
            **_: Any) -> ndarray:
    return _out(generator("randint").integers(low, high, size), dtype or np.int64)


def rand(*size: int, **_: Any) -> ndarray:
    return uniform(0.0, 1.0, size or None)


def randn(*size: int, **_: Any) -> ndarray:
    return normal(0.0, 1.0, size or None)


def shuffle(x: Tensor) -> None:
    """Shuffle the first axis of ``x`` in place."""
    x._data = x._data[generator("shuffle").permutation(x.shape[0])]


from cellonnx.mxnet.numpy.random_dist import *  # noqa: E402, F403
from cellonnx.mxnet.numpy.random_dist import __all__ as _dist_all  # noqa: E402

__all__ = sorted({*__all__, *_dist_all})
