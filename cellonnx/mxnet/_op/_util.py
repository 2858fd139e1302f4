"""Helpers of the MXNet operator implementations: argument normalization shared by every table module."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.tensor import Tensor, _caller_location

__all__ = ["as_tensor", "axes_of", "dtype_of", "eager_only", "int_tuple", "mx_float"]


def as_tensor(x: Any, like: Tensor | None = None) -> Tensor:
    """``x`` as a Tensor: Tensors as they are, numbers in ``like``'s dtype (float32 without one), arrays as
    they are (float64 data becomes float32, as MXNet stores it)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (bool, int, float, np.generic)) and like is not None:
        return Tensor(np.asarray(x, dtype=like._data.dtype))
    arr = np.asarray(x)
    if arr.dtype == np.float64 or (arr.dtype.kind in "iub" and not isinstance(x, np.ndarray)):
        arr = arr.astype(np.float32)
    return Tensor(arr)


def _traced(tracer: Any, value: Any) -> bool:
    if isinstance(value, Tensor):
        return tracer.is_traced(value)
    if isinstance(value, (list, tuple)):
        return any(_traced(tracer, v) for v in value)
    if isinstance(value, dict):
        return any(_traced(tracer, v) for v in value.values())
    return False


def eager_only(name: str, *values: Any) -> None:
    """Raise NotExportable while a graph is traced and ``values`` hold a traced tensor: ``name`` computes
    with NumPy on the arrays' values (as MXNet does), so the graph would hold the example's result as a
    constant, whatever the inputs at run time.

    Examples:
        >>> import numpy as np
        >>> from cellonnx.mxnet._op._util import eager_only
        >>> from cellonnx.tensor import Tensor
        >>> eager_only("sgd_update", Tensor(np.zeros(2)))  # eagerly nothing is traced: it returns
    """
    from cellonnx.graph import trace
    from cellonnx.ops.prims._eager import NotExportable

    tracer = trace.current()
    if tracer is not None and _traced(tracer, values):
        raise NotExportable(f"{_caller_location()}: mx {name} runs NumPy on the arrays' values, eagerly only "
                            "(as MXNet does); a graph would hold the example's result as a constant. Call it "
                            "outside the traced code (a hybridized block's forward), or write it with "
                            "operators that have a graph")


def mx_float(x: Any) -> Tensor:
    """MXNet 1.x's ``nd.array``: a list or number becomes float32; arrays keep their dtype (float64 too)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, np.ndarray):
        return Tensor(x)
    return Tensor(np.asarray(x, dtype=np.float32))


def int_tuple(value: Any, n: int, name: str, op: str) -> tuple[int, ...]:
    """``value`` (an int or a sequence of n ints) as a tuple of n ints."""
    if isinstance(value, (int, np.integer)):
        return (int(value),) * n
    out = tuple(int(v) for v in value)
    if len(out) == 1 and n > 1:
        out = out * n
    if len(out) != n:
        raise ValueError(f"{op}: {name} must have {n} values for a {n}-d operation, got {value!r}")
    return out


def axes_of(axis: Any, ndim: int, exclude: bool = False) -> tuple[int, ...] | None:
    """MXNet's reduction axes: None or () for every axis, an int or a tuple; with ``exclude`` the axes NOT
    listed. Returns None for every axis."""
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return None if not exclude else ()
    listed = (int(axis),) if isinstance(axis, (int, np.integer)) else tuple(int(a) for a in axis)
    listed = tuple(a % ndim for a in listed)
    if exclude:
        return tuple(a for a in range(ndim) if a not in listed)
    return listed


def dtype_of(value: Any) -> dtypes.DType:
    """A cellonnx dtype from MXNet's spellings ('float32', np.float32, None -> float32)."""
    return dtypes.float32 if value is None else dtypes.dtype(value)


def cast_like(x: Tensor, like: Tensor) -> Tensor:
    return x if x._data.dtype == like._data.dtype else ops.cast(x, like.dtype)
