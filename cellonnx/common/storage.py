"""UntypedStorage: the bytes behind a tensor, as ``Tensor.untyped_storage()`` returns them (MindSpore 2.10).

The storage is byte-addressed (``size()`` and ``nbytes()`` count bytes, ``element_size()`` is 1) and shares
memory with its tensor: ``copy_`` writes the tensor's values, ``resize_(0)`` drops the memory and
``resize_(n)`` gives it back zeroed (the offload pattern: free an activation, later restore it with copy_).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.tensor import Tensor


class UntypedStorage:
    """The untyped (byte) storage of a tensor; get it with ``Tensor.untyped_storage()``.

    Raises:
        TypeError: when constructed directly (as in MindSpore, only tensors make storages).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(x.untyped_storage().nbytes())
        8
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("cannot create 'UntypedStorage' instances: use Tensor.untyped_storage()")

    @classmethod
    def _of(cls, tensor: Tensor) -> UntypedStorage:
        st = tensor.__dict__.get("_untyped_storage")
        if st is None:
            st = object.__new__(cls)
            st._tensor = tensor
            st._nbytes = None  # None: exactly the tensor's bytes
            tensor.__dict__["_untyped_storage"] = st
        return st

    def _bytes(self) -> np.ndarray:
        arr = np.ascontiguousarray(self._tensor._data)
        if arr is not self._tensor._data:
            self._tensor._data = arr
        return arr.reshape(-1).view(np.uint8)

    @property
    def device(self) -> str:
        return "CPU"

    @property
    def dtype(self) -> Any:
        return self._tensor.dtype

    def element_size(self) -> int:
        """Bytes per element of an untyped storage: 1."""
        return 1

    def nbytes(self) -> int:
        """The storage's size in bytes."""
        return int(self._tensor._data.nbytes) if self._nbytes is None else self._nbytes

    def size(self) -> int:
        """The storage's size in bytes (elements of one byte)."""
        return self.nbytes()

    def data_ptr(self) -> int:
        """The address of the first byte."""
        return int(self._bytes().__array_interface__["data"][0])

    def is_shared(self) -> bool:
        return False

    def copy_(self, src: UntypedStorage, non_blocking: bool = False) -> UntypedStorage:
        """Copy the bytes of ``src`` into this storage (the sizes in bytes must match)."""
        if not isinstance(src, UntypedStorage):
            raise TypeError("UntypedStorage.copy_: src must be an UntypedStorage, but got "
                            f"{type(src).__name__}")
        if src.nbytes() != self.nbytes():
            raise RuntimeError(f"UntypedStorage.copy_: Size does not match, self was {self.nbytes()} bytes "
                               f"but src was {src.nbytes()} bytes")
        dst, data = self._bytes(), src._bytes()
        n = min(dst.size, data.size)
        dst[:n] = data[:n]
        return self

    def resize_(self, size: int) -> UntypedStorage:
        """Reallocate to ``size`` bytes (zeroed); 0 frees the tensor's memory until it is resized back."""
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size < 0:
            raise ValueError(f"UntypedStorage.resize_: size must be a non-negative int, but got {size!r}")
        t = self._tensor
        need = t._data.size * t._data.dtype.itemsize
        self._nbytes = int(size)
        if size >= need:
            t._data = np.zeros(t._data.shape, t._data.dtype)
            self._nbytes = None if size == need else int(size)
        else:
            t._data = np.zeros(t._data.shape, t._data.dtype)  # unreadable until resized back, as in MindSpore
        return self

    def __repr__(self) -> str:
        return f"<cellonnx.UntypedStorage of {self.nbytes()} bytes>"


def untyped_storage(self: Tensor) -> UntypedStorage:
    """``Tensor.untyped_storage()``: the tensor's byte storage."""
    return UntypedStorage._of(self)


Tensor.untyped_storage = untyped_storage  # type: ignore[attr-defined]
Tensor.storage = untyped_storage  # type: ignore[attr-defined]
