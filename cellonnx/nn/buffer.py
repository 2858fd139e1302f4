"""nn.Buffer: a tensor that is a cell's state but not a parameter, registered by assignment.

MindSpore's ``mindspore.nn.Cell`` reference documents ``nn.Buffer`` (``self.buffer_a = nn.Buffer(t)``);
MindSpore 2.10 keeps the class private (``mindspore.common.parameter._Buffer``), so that its pages' examples
no longer run there. cellonnx keeps the documented name.
"""
from __future__ import annotations

from typing import Any

from cellonnx.tensor import Tensor

__all__ = ["Buffer"]


class _BufferMeta(type):
    # a buffer is a plain Tensor carrying a flag: isinstance(t, Buffer) reads the flag
    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, Tensor) and bool(getattr(instance, "_is_buffer", False))


class Buffer(metaclass=_BufferMeta):
    """A Tensor that is part of a Cell's state without being a parameter (a running statistic, a mask).

    Assigned as a Cell attribute, it is registered as a buffer: listed by ``buffers()`` / ``named_buffers()``,
    reachable by ``get_buffer`` and, when ``persistent``, saved in ``state_dict``. Assigning a plain Tensor
    has no such effect; ``Cell.register_buffer`` registers one explicitly.

    Args:
        data (Tensor): the buffer's value (a copy cut from the gradient history).

    Keyword Args:
        persistent (bool, optional): whether the buffer is part of the Cell's ``state_dict``.
            Default ``True``.

    Returns:
        Tensor, flagged as a buffer.

    Raises:
        ValueError: If `data` is None.
        TypeError: If `data` is not a Tensor.

    Examples:
        >>> import cellonnx
        >>> class Net(cellonnx.nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.buffer_a = cellonnx.nn.Buffer(cellonnx.tensor([4, 5, 6]))
        >>> [name for name, _ in Net().named_buffers()]
        ['buffer_a']
    """

    def __new__(cls, data: Tensor, *, persistent: bool = True) -> Tensor:  # type: ignore[misc]
        if data is None:
            raise ValueError("For create Buffer, input data should not be None")
        if not isinstance(data, Tensor):
            raise TypeError(f"For create Buffer, type of input data should be Tensor, but got {type(data)}")
        t = data.detach()
        t._is_buffer = True
        t.persistent = persistent
        return t
