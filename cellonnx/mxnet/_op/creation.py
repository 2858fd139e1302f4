"""MXNet's array constructors (float32 unless a dtype is given; ``ctx`` / ``device`` accepted)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.mxnet._op._util import dtype_of
from cellonnx.tensor import Tensor

__all__ = ["CREATION"]


def _shape(shape: Any) -> tuple[int, ...]:
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)


def zeros(shape: Any, ctx: Any = None, dtype: Any = None, stype: Any = None, **_: Any) -> Tensor:
    return Tensor(np.zeros(_shape(shape), dtype_of(dtype).np_dtype))


def ones(shape: Any, ctx: Any = None, dtype: Any = None, **_: Any) -> Tensor:
    return Tensor(np.ones(_shape(shape), dtype_of(dtype).np_dtype))


def full(shape: Any, val: float, ctx: Any = None, dtype: Any = None, **_: Any) -> Tensor:
    return Tensor(np.full(_shape(shape), val, dtype_of(dtype).np_dtype))


def empty(shape: Any, ctx: Any = None, dtype: Any = None, **_: Any) -> Tensor:
    return zeros(shape, ctx, dtype)


def arange(start: float, stop: float | None = None, step: float = 1.0, repeat: int = 1,
           infer_range: bool = False,
           ctx: Any = None, dtype: Any = None, **_: Any) -> Tensor:
    """[start, stop) by ``step``, each value ``repeat`` times (float32 by default, as MXNet)."""
    if stop is None:
        start, stop = 0, start
    arr = np.arange(start, stop, step, dtype=np.float64)
    if repeat != 1:
        arr = np.repeat(arr, int(repeat))
    return Tensor(arr.astype(dtype_of(dtype).np_dtype))


def linspace(start: float, stop: float, num: int, endpoint: bool = True, ctx: Any = None, dtype: Any = None,
             **_: Any) -> Tensor:
    return Tensor(np.linspace(start, stop, int(num), endpoint=endpoint).astype(dtype_of(dtype).np_dtype))


def eye(N: int, M: int = 0, k: int = 0, ctx: Any = None, dtype: Any = None, **_: Any) -> Tensor:
    return Tensor(np.eye(int(N), int(M) or None, int(k), dtype=dtype_of(dtype).np_dtype))


def _like(fn: Any) -> Any:
    def op(data: Tensor, **_: Any) -> Tensor:
        return fn(data)
    return op


CREATION = {"zeros": zeros, "ones": ones, "full": full, "empty": empty, "arange": arange,
            "linspace": linspace,
            "eye": eye, "_zeros": zeros, "_ones": ones, "_full": full, "_arange": arange,
            "_linspace": linspace,
            "zeros_like": _like(ops.zeros_like), "ones_like": _like(ops.ones_like)}
