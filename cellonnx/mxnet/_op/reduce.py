"""MXNet's reductions, sorting and products: ``axis`` as an int, a tuple or () for all, ``exclude`` to reduce
over the other axes; argmax / argmin / topk / argsort return float indices in MXNet 1.x (``dtype``), and a
reduction over every axis gives shape (1,) (MXNet 1.x has no 0-d arrays)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.mxnet._op._util import as_tensor, axes_of, dtype_of
from cellonnx.tensor import Tensor

__all__ = ["REDUCE"]


def _reducer(name: str) -> Any:
    def op(data: Tensor, axis: Any = None, keepdims: bool = False, exclude: bool = False, **_: Any) -> Tensor:
        axes = axes_of(axis, data.ndim, exclude)
        if axes == ():
            return data
        x = data
        if name.startswith("nan"):
            x = ops.where(ops.isnan(x), Tensor(np.asarray(0 if name == "nansum" else 1, x._data.dtype)), x)
        fn = {"sum": ops.sum, "nansum": ops.sum, "mean": ops.mean, "prod": ops.prod, "nanprod": ops.prod,
              "max": ops.amax, "min": ops.amin}[name]
        out = ops.sum(x, axes, keepdims) if name in ("sum", "nansum") else fn(x, axes, keepdims)
        return ops.reshape(out, (1,)) if out.ndim == 0 else out  # no 0-d arrays in MXNet 1.x
    op.__name__ = name
    return op


def _arg(fn: Any) -> Any:
    def op(data: Tensor, axis: int | None = None, keepdims: bool = False, **_: Any) -> Tensor:
        if axis is None:
            out = fn(ops.reshape(data, (-1,)), axis=0, keep_dims=False)
            if keepdims:
                out = ops.reshape(out, (1,) * data.ndim)
        else:
            out = fn(data, axis=int(axis), keep_dims=bool(keepdims))
        out = ops.reshape(out, (1,)) if out.ndim == 0 else out
        return ops.cast(out, data.dtype if data._data.dtype.kind == "f" else "float32")
    return op


def argmax_channel(data: Tensor, **_: Any) -> Tensor:
    return _arg(ops.argmax)(data, axis=-1)


def norm(data: Tensor, ord: int = 2, axis: Any = None, out_dtype: Any = None, keepdims: bool = False,
         **_: Any) -> Tensor:
    """L1 or L2 norm over ``axis`` (all axes by default, flattened)."""
    axes = axes_of(axis, data.ndim)
    x = ops.abs(data) if ord == 1 else ops.square(data)
    out = ops.sum(x, axes, keepdims)
    out = out if ord == 1 else ops.sqrt(out)
    if axes is None and not keepdims:
        out = ops.reshape(out, (1,))
    return out if out_dtype is None else ops.cast(out, dtype_of(out_dtype))


def topk(data: Tensor, axis: int | None = -1, k: int = 1, ret_typ: str = "indices", is_ascend: bool = False,
         dtype: Any = "float32", **_: Any) -> Any:
    """The ``k`` largest (smallest with is_ascend) along ``axis``: 'value', 'indices', 'both' or 'mask'."""
    x = data
    if axis is None:
        x, axis = ops.reshape(data, (-1,)), 0
    values, idx = ops.topk(x, int(k), dim=int(axis), largest=not is_ascend)
    if ret_typ == "value":
        return values
    findex = ops.cast(idx, dtype_of(dtype))
    if ret_typ == "indices":
        return findex
    if ret_typ == "both":
        return [values, findex]
    if ret_typ == "mask":
        hot = ops.one_hot(idx, x.shape[int(axis)], Tensor(np.asarray(1, x._data.dtype)),
                          Tensor(np.asarray(0, x._data.dtype)), axis=int(axis) % x.ndim + 1)
        return ops.amax(hot, int(axis) % x.ndim)
    raise ValueError(f"topk: ret_typ must be 'value', 'indices', 'both' or 'mask', got {ret_typ!r}")


def sort(data: Tensor, axis: int | None = -1, is_ascend: bool = True, **_: Any) -> Tensor:
    x = data if axis is not None else ops.reshape(data, (-1,))
    return ops.sort(x, int(axis) if axis is not None else 0, descending=not is_ascend)[0]


def argsort(data: Tensor, axis: int | None = -1, is_ascend: bool = True, dtype: Any = "float32",
            **_: Any) -> Tensor:
    x = data if axis is not None else ops.reshape(data, (-1,))
    idx = ops.argsort(x, int(axis) if axis is not None else 0, descending=not is_ascend)
    return ops.cast(idx, dtype_of(dtype))


def dot(lhs: Any, rhs: Any, transpose_a: bool = False, transpose_b: bool = False, forward_stype: Any = None,
        **_: Any) -> Tensor:
    """NumPy's dot: the last axis of ``lhs`` with the first of ``rhs`` (after the optional transposes, which
    reverse all axes)."""
    a, b = as_tensor(lhs), as_tensor(rhs)
    if transpose_a:
        a = ops.transpose(a, tuple(range(a.ndim))[::-1])
    if transpose_b:
        b = ops.transpose(b, tuple(range(b.ndim))[::-1])
    if a.ndim <= 2 and b.ndim <= 2:
        return ops.matmul(a, b)
    lead, tail = tuple(a.shape[:-1]), tuple(b.shape[1:])
    out = ops.matmul(ops.reshape(a, (-1, a.shape[-1])), ops.reshape(b, (b.shape[0], -1)))
    return ops.reshape(out, lead + tail)


def batch_dot(lhs: Tensor, rhs: Tensor, transpose_a: bool = False, transpose_b: bool = False,
              **_: Any) -> Tensor:
    a = ops.swapaxes(lhs, -1, -2) if transpose_a else lhs
    b = ops.swapaxes(rhs, -1, -2) if transpose_b else rhs
    return ops.matmul(a, b)


def add_n(*args: Any, **_: Any) -> Tensor:
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    out = as_tensor(args[0])
    for a in args[1:]:
        out = ops.add(out, as_tensor(a))
    return out


def cumsum(a: Tensor, axis: int | None = None, dtype: Any = None, **_: Any) -> Tensor:
    x = a if axis is not None else ops.reshape(a, (-1,))
    return ops.cumsum(x, int(axis) if axis is not None else 0, None if dtype is None else dtype_of(dtype))


REDUCE = {name: _reducer(name) for name in ("sum", "mean", "prod", "max", "min", "nansum", "nanprod")}
REDUCE.update({"sum_axis": REDUCE["sum"], "max_axis": REDUCE["max"], "min_axis": REDUCE["min"],
               "argmax": _arg(ops.argmax), "argmin": _arg(ops.argmin), "argmax_channel": argmax_channel,
               "norm": norm, "topk": topk, "sort": sort, "argsort": argsort, "dot": dot,
               "batch_dot": batch_dot,
               "add_n": add_n, "ElementWiseSum": add_n, "cumsum": cumsum})
