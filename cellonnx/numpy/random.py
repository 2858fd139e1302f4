"""Random tensors: rand, randn, randint (mindspore.numpy.array_creations), drawn from cellonnx's generator
(seeded by ``cellonnx.set_seed``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.numpy._utils import check_dtype
from cellonnx.numpy.creation import _shape
from cellonnx.tensor import Tensor

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)
_INTS = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)


def _shape_of(shape: tuple, op: str) -> tuple[int, ...]:
    """``rand(2, 3)``, ``rand((2, 3))`` and ``rand([2, 3])`` alike; no shape means (1,)."""
    if not shape:
        return (1,)
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return _shape(tuple(shape[0]), op)
    return _shape(shape, op)


def _float(dtype: Any, op: str) -> dtypes.DType:
    d = check_dtype(dtype, op)
    if d not in _FLOATS:
        raise ValueError(f"{op}: dtype must be float16, float32 or float64, got {d}")
    return d


def rand(*shape: Any, dtype: Any = dtypes.float32) -> Tensor:
    """Returns a tensor of the given shape and dtype, filled with random numbers uniform in [0, 1).

    Args:
        *shape (Union[int, tuple, list]): the shape, as ints or one tuple / list. Default: (1,).
        dtype (Union[DType, str]): a float dtype. Default: float32.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.rand(2, 3).shape)
        (2, 3)
    """
    return F.rand(_shape_of(shape, "rand"), dtype=_float(dtype, "rand"))


def randn(*shape: Any, dtype: Any = dtypes.float32) -> Tensor:
    """Returns a tensor of the given shape and dtype, filled with samples of the standard normal distribution.

    Args:
        *shape (Union[int, tuple, list]): the shape, as ints or one tuple / list. Default: (1,).
        dtype (Union[DType, str]): a float dtype. Default: float32.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.randn(2, 3).shape)
        (2, 3)
    """
    return F.randn(_shape_of(shape, "randn"), dtype=_float(dtype, "randn"))


def randint(minval: int, maxval: int | None = None, shape: Any = None, dtype: Any = dtypes.int32) -> Tensor:
    """Returns random integers from ``minval`` (inclusive) to ``maxval`` (exclusive).

    Args:
        minval (int): the lowest value, or the (exclusive) highest one from 0 when ``maxval`` is None.
        maxval (int, optional): the exclusive upper bound.
        shape (Union[int, tuple, list], optional): the shape. Default: (1,).
        dtype (Union[DType, str]): a signed integer dtype. Default: int32.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.randint(0, 5, (2, 3))
        >>> print(x.shape, bool(((x >= 0) & (x < 5)).all()))
        (2, 3) True
    """
    if isinstance(minval, bool) or not isinstance(minval, (int, np.integer)):
        raise TypeError(f"randint: minval must be an int, got {type(minval).__name__}")
    if maxval is None:
        if minval <= 0:
            raise ValueError(f"randint: minval must be positive when maxval is None, got {minval}")
        minval, maxval = 0, minval
    elif isinstance(maxval, bool) or not isinstance(maxval, (int, np.integer)):
        raise TypeError(f"randint: maxval must be an int, got {type(maxval).__name__}")
    elif minval >= maxval:
        raise ValueError(f"randint: minval {minval} must be less than maxval {maxval}")
    d = check_dtype(dtype, "randint")
    if d not in _INTS:
        raise ValueError(f"randint: dtype must be int8, int16, int32 or int64, got {d}")
    size = (1,) if shape is None else _shape(shape, "randint")
    return F.randint(int(minval), int(maxval), size, dtype=d)

__all__ = ["rand", "randint", "randn"]
