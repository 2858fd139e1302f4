"""mxnet.device (2.x) / mxnet.context (1.x): device descriptors.

cellonnx computes eagerly on the host and hands compiled graphs to onnxruntime, so a Device only records
what the code asked for: ``cpu()`` and ``gpu(i)`` compare, hash and print as MXNet's do, and ``with
mx.gpu(0):`` sets the current device. Arrays report ``cpu(0)``.
"""
from __future__ import annotations

import threading
from typing import Any, ClassVar

__all__ = ["Context", "Device", "cpu", "cpu_pinned", "current_context", "current_device", "gpu",
           "gpu_memory_info", "num_gpus"]


class Device:
    """A device: ``Device('cpu', 0)``, ``Device('gpu', 1)`` or a copy of another Device.

    Args:
        device_type: 'cpu', 'gpu', 'cpu_pinned' or 'cpu_shared', or a Device.
        device_id: Default: 0.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> ctx = mx.Context('cpu', 0)
        >>> ctx
        cpu(0)
        >>> ctx.device_type, ctx.device_id
        ('cpu', 0)
        >>> ctx == mx.cpu()
        True
        >>> mx.Context(mx.gpu(1))
        gpu(1)
    """

    devtype2str: ClassVar[dict[int, str]] = {1: "cpu", 2: "gpu", 3: "cpu_pinned", 5: "cpu_shared"}
    devstr2type: ClassVar[dict[str, int]] = {v: k for k, v in devtype2str.items()}
    _default = threading.local()

    def __init__(self, device_type: Any, device_id: int = 0) -> None:
        if isinstance(device_type, Device):
            self.device_typeid, self.device_id = device_type.device_typeid, device_type.device_id
            return
        if device_type not in self.devstr2type:
            raise ValueError(f"Device: unknown device type {device_type!r}; expected one of "
                             f"{sorted(self.devstr2type)}")
        self.device_typeid = self.devstr2type[device_type]
        self.device_id = int(device_id)
        self._old: Device | None = None

    @property
    def device_type(self) -> str:
        return self.devtype2str[self.device_typeid]

    def __hash__(self) -> int:
        return hash((self.device_typeid, self.device_id))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and (self.device_typeid, self.device_id) == (other.device_typeid,
                                                                                     other.device_id)

    def __str__(self) -> str:
        return f"{self.device_type}({self.device_id})"

    __repr__ = __str__

    def __enter__(self) -> Device:
        self._old = current_device()
        Device._default.value = self
        return self

    def __exit__(self, *exc: Any) -> None:
        Device._default.value = self._old

    def empty_cache(self) -> None:
        """Nothing to release: arrays live in host memory."""


Context = Device


def cpu(device_id: int = 0) -> Device:
    """The CPU device."""
    return Device("cpu", device_id)


def cpu_pinned(device_id: int = 0) -> Device:
    """Page-locked host memory (the same host memory here).

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> ctx = mx.cpu_pinned()
        >>> ctx
        cpu_pinned(0)
        >>> ctx.device_type
        'cpu_pinned'
    """
    return Device("cpu_pinned", device_id)


def gpu(device_id: int = 0) -> Device:
    """The GPU device ``device_id``: recorded only; eager computation runs on the host, and compiled graphs
    run on the GPU when cellonnx's device_target is 'GPU'."""
    return Device("gpu", device_id)


def num_gpus() -> int:
    """How many GPUs onnxruntime's CUDA provider can use (0 without it)."""
    try:
        import onnxruntime as ort
    except ImportError:  # pragma: no cover - onnxruntime is a dependency
        return 0
    return 1 if "CUDAExecutionProvider" in ort.get_available_providers() else 0


def gpu_memory_info(device_id: int = 0) -> tuple[int, int]:
    """(free, total) bytes of GPU ``device_id``'s memory in MXNet; cellonnx leaves GPU memory to onnxruntime,
    so it raises RuntimeError, as MXNet built without CUDA raises."""
    raise RuntimeError(f"gpu_memory_info({device_id}): cellonnx does not manage GPU memory (onnxruntime "
                       "does)")


def current_device() -> Device:
    """The device set by the innermost ``with device:`` block, ``cpu(0)`` by default."""
    value = getattr(Device._default, "value", None)
    return value if value is not None else cpu(0)


current_context = current_device
