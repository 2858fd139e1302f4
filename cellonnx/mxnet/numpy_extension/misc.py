"""mx.npx's small functions: ``cast`` (differentiable), ``nonzero`` (MXNet's (N, ndim) int64 index array),
``constraint_check`` and ``get_cuda_compute_capability``."""
from __future__ import annotations

from typing import Any

import numpy as _onp

from cellonnx import dtypes as _dtypes
from cellonnx import ops as _ops
from cellonnx.mxnet._op._util import eager_only
from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.tensor import Tensor

__all__ = ["cast", "constraint_check", "get_cuda_compute_capability", "nonzero"]


def cast(data: Tensor, dtype: Any = None, out: Any = None, name: Any = None, **kwargs: Any) -> Any:
    """``data`` converted to ``dtype``; differentiable (the gradient is cast back).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(npx.cast(np.array([1.7, -2.2]), dtype='int32'))
        [ 1 -2]
    """
    if dtype is None:
        raise TypeError("npx.cast: dtype is required")
    result = to_np(_ops.cast(data, _dtypes.to_numpy(dtype)))
    if out is not None:
        out[...] = result
        return out
    return result


def nonzero(a: Tensor) -> Any:
    """The int64 indices of ``a``'s non-zero elements as one (N, a.ndim) array, a row per element.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(npx.nonzero(np.array([[1.0, 0.0], [0.0, 2.0]])))
        [[0 0]
         [1 1]]
    """
    eager_only("npx.nonzero", a)  # NumPy's argwhere: a graph would hold the example's indices
    data = a._data if isinstance(a, Tensor) else _onp.asarray(a)
    return to_np(Tensor(_onp.argwhere(data).astype(_onp.int64)))


def constraint_check(x: Tensor, msg: str) -> Any:
    """A 0-d True array when every element of the bool array ``x`` holds; ValueError with ``msg`` when one
    does not.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(npx.constraint_check(np.array([1.0, 2.0]) > 0, 'must be positive'))
        True
    """
    data = x._data if isinstance(x, Tensor) else _onp.asarray(x)
    if data.dtype != _onp.bool_:
        raise TypeError(f"npx.constraint_check: x must be a bool array, got {data.dtype}")
    if not bool(_onp.all(data)):
        raise ValueError(f"Check failed: red_output == true (0 vs. 1) : {msg}")
    return to_np(Tensor(_onp.array(True)))


def get_cuda_compute_capability(ctx: Any) -> int:
    """The CUDA compute capability of the GPU device ``ctx``; a CPU device is a ValueError, and, as MXNet
    built without CUDA, a GPU one is an error too (cellonnx runs on onnxruntime, without CUDA of its own).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> try:
        ...     mx.npx.get_cuda_compute_capability(mx.cpu())
        ... except ValueError as exc:
        ...     print(exc)
        Expecting a gpu context to get cuda compute capability, while received ctx cpu(0)
    """
    if getattr(ctx, "device_type", None) != "gpu":
        raise ValueError(f"Expecting a gpu context to get cuda compute capability, while received ctx {ctx}")
    from cellonnx.mxnet.base import MXNetError
    raise MXNetError("get_cuda_compute_capability: this call is only supported for MXNet built with CUDA "
                     "support (cellonnx has none)")
