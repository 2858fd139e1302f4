"""mx.nd.contrib's element and indexing operators: index_copy, index_array, boolean_mask, allclose,
quadratic, the straight-through round_ste / sign_ste (MXNet's round: a tie away from 0),
gradientmultiplier, and isinf / isfinite / isnan (0/1 in the input's dtype, as MXNet's Python definitions
give them)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.mxnet._op.elemwise import LEGACY_COMPARE, UNARY
from cellonnx.tensor import Tensor

__all__ = ["CONTRIB_EXTRA"]


def index_copy(old_tensor: Tensor, index_vector: Tensor, new_tensor: Tensor) -> Tensor:
    """A copy of ``old_tensor`` whose rows ``index_vector[i]`` are ``new_tensor[i]`` (a repeated index takes
    the last row); the gradient reaches ``old_tensor``'s untouched rows and every row of ``new_tensor``."""
    old_shape, new_shape = tuple(int(d) for d in old_tensor.shape), tuple(int(d) for d in new_tensor.shape)
    n = int(index_vector.shape[0]) if index_vector.ndim == 1 else -1
    if n < 0 or new_shape[0] != n or new_shape[1:] != old_shape[1:]:
        raise ValueError(f"index_copy: new_tensor {new_shape} must be (len(index_vector), "
                         f"*old_tensor.shape[1:]) with old_tensor {old_shape} and a 1-d index_vector "
                         f"{tuple(index_vector.shape)}")
    index = ops.reshape(ops.cast(index_vector, "int64"), (-1, 1))
    return ops.tensor_scatter_update(old_tensor, index, ops.cast(new_tensor, old_tensor.dtype))


def index_array(data: Tensor, axes: Any = None) -> Tensor:
    """int64 indices of every element of ``data``: shape ``data.shape + (len(axes),)``, the last axis holding
    the element's index along each of ``axes`` (every axis by default)."""
    shape = tuple(data.shape)  # a dynamic dim stays a graph value
    picked = range(len(shape)) if axes is None else [int(a) % len(shape) for a in
                                                      ((axes,) if isinstance(axes, int) else axes)]
    if not picked:
        return Tensor(np.zeros((*(int(d) for d in shape), 0), np.int64))
    grids = []
    for a in picked:
        along = [1] * len(shape)
        along[a] = -1
        grid = ops.reshape(ops.cast(ops.arange(0, shape[a], 1), np.int64), tuple(along))
        grids.append(ops.expand_dims(ops.broadcast_to(grid, shape), -1))
    return grids[0] if len(grids) == 1 else ops.concat(grids, -1)


def boolean_mask(data: Tensor, index: Tensor, axis: int = 0) -> Tensor:
    """The slices of ``data`` along axis 0 where ``index`` is nonzero (MXNet 1.9.1 supports axis 0 only)."""
    if int(axis) != 0:
        raise ValueError(f"boolean_mask: axis must be 0 (MXNet supports no other), got {axis}")
    if index.ndim != 1 or int(index.shape[0]) != int(data.shape[0]):
        raise ValueError(f"boolean_mask: index {tuple(index.shape)} must be 1-d with data's first dim "
                         f"{int(data.shape[0])}")
    keep = ops.reshape(ops.nonzero(ops.stop_gradient(index)), (-1,))  # how many: read at run time
    return ops.gather(data, keep, 0)


def allclose(a: Tensor, b: Tensor, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = True) -> Tensor:
    """1 (uint8, shape ()) when every ``|a - b| <= atol + rtol * |b|`` (NaNs equal when equal_nan)."""
    a, b = ops.stop_gradient(a), ops.stop_gradient(b)
    near = ops.less_equal(ops.abs(ops.sub(a, b)), ops.add(ops.mul(ops.abs(b), float(rtol)), float(atol)))
    close = ops.logical_or(near, ops.equal(a, b))  # infinities of one sign are close
    if equal_nan:
        close = ops.logical_or(close, ops.logical_and(ops.isnan(a), ops.isnan(b)))
    return ops.cast(ops.all(close), np.uint8)


def quadratic(data: Tensor, a: float = 0.0, b: float = 0.0, c: float = 0.0) -> Tensor:
    """``a * data**2 + b * data + c``."""
    return ops.add(ops.mul(ops.add(ops.mul(data, float(a)), float(b)), data), float(c))


def _straight_through(data: Tensor, forward: Callable[[Tensor], Tensor]) -> Tensor:
    """``forward(data)``, with the gradient of the identity."""
    return ops.add(data, ops.stop_gradient(ops.sub(forward(data), data)))


def gradientmultiplier(data: Tensor, scalar: float = 1.0, is_int: bool = True) -> Tensor:
    """The identity, its gradient multiplied by ``scalar``."""
    scaled = ops.mul(data, float(scalar))
    return ops.add(ops.stop_gradient(data), ops.sub(scaled, ops.stop_gradient(scaled)))


def isinf(data: Tensor) -> Tensor:
    """1 where ``data`` is +-inf, else 0 (in data's dtype)."""
    return LEGACY_COMPARE["equal"](ops.abs(data), float("inf"))


def isnan(data: Tensor) -> Tensor:
    """1 where ``data`` is NaN, else 0 (in data's dtype)."""
    return LEGACY_COMPARE["not_equal"](data, data)


def isfinite(data: Tensor) -> Tensor:
    """1 where ``data`` is neither +-inf nor NaN, else 0 (in data's dtype)."""
    finite = LEGACY_COMPARE["not_equal"](ops.abs(data), float("inf"))
    return LEGACY_COMPARE["logical_and"](finite, LEGACY_COMPARE["equal"](data, data))


CONTRIB_EXTRA: dict[str, Callable[..., Any]] = {
    "index_copy": index_copy, "index_array": index_array, "boolean_mask": boolean_mask,
    "allclose": allclose, "quadratic": quadratic,
    "round_ste": lambda data, **_: _straight_through(data, UNARY["round"]),
    "sign_ste": lambda data, **_: _straight_through(data, UNARY["sign"]),
    "gradientmultiplier": gradientmultiplier, "isinf": isinf, "isnan": isnan, "isfinite": isfinite,
}
