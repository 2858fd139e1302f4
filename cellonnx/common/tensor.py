"""``mindspore.common.tensor``: Tensor and the functions making or exchanging tensors (``tensor``,
``from_numpy``, ``frombuffer``, ``swap_tensors``, ``is_tensor``)."""
from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.tensor import Parameter, Tensor, is_tensor, tensor

__all__ = ["Tensor", "from_numpy", "frombuffer", "is_tensor", "swap_tensors", "tensor"]


def from_numpy(array: np.ndarray) -> Tensor:
    """A Tensor sharing ``array``'s memory (writes to one show in the other).

    Raises:
        TypeError: ``array`` is not a NumPy array, or of a dtype cellonnx has no tensors of.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> array = np.array([1, 2, 3], np.int32)
        >>> x = ms.from_numpy(array)
        >>> print(x)
        [1 2 3]
        >>> array[0] = 10
        >>> print(x)
        [10  2  3]
    """
    if not isinstance(array, np.ndarray):
        raise TypeError("Expected a NumPy array.")
    dtypes.dtype(array.dtype)
    t = Tensor._make(array)
    t.__dict__["_numpy_repr"] = True  # printed as MindSpore prints NumPy-held data
    return t


def frombuffer(buffer: Any, dtype: Any, count: int = -1, offset: int = 0) -> Tensor:
    """A 1-D Tensor over an object exposing the buffer protocol (bytes, bytearray, memoryview, array ...),
    sharing its memory (a read-only buffer gives a read-only tensor).

    Args:
        buffer: the buffer.
        dtype: the element type.
        count: how many elements to read; -1 reads to the end.
        offset: where to start, in bytes.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> x = ms.frombuffer(bytearray(np.array([1.0, 2.0], np.float32).tobytes()), ms.float32)
        >>> print(x)
        [1. 2.]
    """
    return Tensor._make(np.frombuffer(buffer, dtype=dtypes.to_numpy(dtype), count=count, offset=offset))


def _slots(t: Any) -> list[str]:
    names: list[str] = []
    for cls in type(t).__mro__:
        for name in cls.__dict__.get("__slots__", ()):
            if name not in ("__dict__", "__weakref__") and name not in names:
                names.append(name)
    return names


def swap_tensors(t1: Tensor, t2: Tensor) -> None:
    """Exchange the whole content of two tensors in place (class, data, flags, attributes): afterwards ``t1``
    is what ``t2`` was and the other way round; their identities (``id``) stay.

    Raises:
        TypeError: either is not a Tensor.
        RuntimeError: either has weak references (a compiled graph's cache, say), or the two have different
            layouts (a Parameter and a plain Tensor: Parameter carries more slots).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor
        >>> a = Tensor(np.array([1.0]), ms.float32)
        >>> b = Tensor(np.array([2.0, 3.0]), ms.float32)
        >>> ms.swap_tensors(a, b)
        >>> print(a, b)
        [2. 3.] [1.]
    """
    for name, t in (("t1", t1), ("t2", t2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"swap_tensors: {name} must be a Tensor, got {type(t).__name__}")
        if weakref.getweakrefcount(t):
            raise RuntimeError(f"Cannot swap {name}: it has weak references")
    slots = _slots(t1)
    if slots != _slots(t2):
        raise RuntimeError(f"Cannot swap a {type(t1).__name__} and a {type(t2).__name__}: their slots differ")
    t1.__class__, t2.__class__ = t2.__class__, t1.__class__
    t1.__dict__, t2.__dict__ = t2.__dict__, t1.__dict__
    for name in slots:
        missing = object()
        a, b = getattr(t1, name, missing), getattr(t2, name, missing)
        for t, v in ((t1, b), (t2, a)):
            if v is missing:
                if hasattr(t, name):
                    delattr(t, name)
            else:
                object.__setattr__(t, name, v)
    for t in (t1, t2):
        if isinstance(t, Parameter):
            t._version += 1  # compiled graphs read the new value
