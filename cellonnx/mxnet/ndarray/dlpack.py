"""DLPack exchange of NDArrays (``mx.nd.to_dlpack_for_read`` / ``to_dlpack_for_write`` / ``from_dlpack``):
a PyCapsule named "dltensor" over the array's host memory, readable by PyTorch, NumPy, CuPy ...; an
NDArray made from one reads the producer's memory. cellonnx arrays are copy-on-write: a consumer writing
into a ``to_dlpack_for_write`` capsule (a PyTorch tensor made from it) changes the NDArray, while writing
into an NDArray (``x[...] = v``) gives it new memory of its own."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.mxnet import _op
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.tensor import Tensor

__all__ = ["from_dlpack", "to_dlpack_for_read", "to_dlpack_for_write"]


class _Capsule:
    """A DLPack producer around a bare capsule (NumPy's from_dlpack takes producers, not capsules)."""

    def __init__(self, capsule: Any) -> None:
        self.capsule = capsule

    def __dlpack__(self, **_: Any) -> Any:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)  # kDLCPU


def to_dlpack_for_read(data: Tensor) -> Any:
    """A DLPack capsule of ``data`` for reading (its memory, no copy).

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> x = mx.nd.array([1, 2, 3])
        >>> y = mx.nd.from_dlpack(mx.nd.to_dlpack_for_read(x))
        >>> print(y.asnumpy())
        [1. 2. 3.]
    """
    return np.ascontiguousarray(data._data).__dlpack__()


def to_dlpack_for_write(data: Tensor) -> Any:
    """A DLPack capsule of ``data`` for writing: what the consumer writes into it, ``data`` holds (its memory
    is made contiguous and writable first).

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> x = mx.nd.array([[1, 2], [3, 4]])
        >>> capsule = mx.nd.to_dlpack_for_write(x)
        >>> print(mx.nd.from_dlpack(capsule).asnumpy())
        [[1. 2.]
         [3. 4.]]
    """
    arr = data._data
    if not arr.flags.c_contiguous or not arr.flags.writeable:
        data._data = arr = np.ascontiguousarray(arr).copy()
    return arr.__dlpack__()


def from_dlpack(dlpack: Any) -> NDArray:
    """An NDArray over the memory of a DLPack capsule (or of an object with ``__dlpack__``, such as a
    PyTorch tensor): no copy; the producer's later writes show in it.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> import numpy as np
        >>> source = np.arange(4, dtype=np.float32)
        >>> x = mx.nd.from_dlpack(source.__dlpack__())
        >>> source[0] = 7
        >>> print(x.asnumpy())
        [7. 1. 2. 3.]
    """
    producer = dlpack if hasattr(dlpack, "__dlpack__") else _Capsule(dlpack)
    arr = np.from_dlpack(producer)
    return _op.retype(Tensor._make(arr), NDArray)  # type: ignore[no-any-return]
