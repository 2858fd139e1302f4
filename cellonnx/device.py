"""Devices, as ``mindspore.device_manager`` and ``mindspore.common.device``: ``set_device``,
``get_current_device``, ``DeviceCtx``, ``set_deterministic`` and ``run_check``.

cellonnx computes eagerly on the CPU (NumPy) and runs compiled graphs in onnxruntime: on the CPU, or on a GPU
through onnxruntime's CUDA provider when the device target is "GPU". A target this process cannot run (GPU
without onnxruntime-gpu and a CUDA device, Ascend) is refused when it is set, as MindSpore refuses a device
its build lacks.
"""
from __future__ import annotations

import threading
from typing import Any

from cellonnx import context

__all__ = ["DeviceCtx", "DeviceInfo", "get_current_device", "run_check", "set_deterministic", "set_device"]


class DeviceInfo(tuple):
    """The current device: ``('CPU', 0)``, with ``device_target`` and ``device_id``."""

    def __new__(cls, device_target: str, device_id: int) -> DeviceInfo:
        return super().__new__(cls, (device_target, device_id))

    @property
    def device_target(self) -> str:
        return self[0]

    @property
    def device_id(self) -> int:
        return self[1]


def set_device(device_target: str, device_id: int | None = None) -> None:
    """Set the device target ("CPU", "GPU" or "Ascend") and id for what follows (``set_context``'s
    ``device_target`` and ``device_id``).

    Raises:
        ValueError: an unknown target or a negative id.
        RuntimeError: a target this process cannot run (GPU without onnxruntime's CUDA provider, Ascend).

    Examples:
        >>> import cellonnx as ms
        >>> ms.set_device('CPU')
        >>> print(ms.get_current_device().device_target)
        CPU
    """
    valid = ["CPU", "GPU", "Ascend"]
    if not isinstance(device_target, str):
        raise TypeError(f"The argument 'device_target' must be str, but got {type(device_target)}.")
    if device_target not in valid:
        raise ValueError(f"The argument 'device_target' must be one of {valid}, but got {device_target}.")
    if device_id is None:
        device_id = 0
    if not isinstance(device_id, int) or isinstance(device_id, bool):
        raise TypeError(f"The argument 'device_id' must be int, but got {type(device_id)}.")
    if device_id < 0:
        raise ValueError("The device id must bigger than or equal to 0.")
    context.set_context(device_target=device_target, device_id=device_id)


def get_current_device() -> DeviceInfo:
    """The device target and id in use: ``('CPU', 0)``.

    Examples:
        >>> import cellonnx as ms
        >>> print(ms.get_current_device().device_target)
        CPU
    """
    return DeviceInfo(context.get_context("device_target"), context.get_context("device_id"))


class _Stack(threading.local):
    def __init__(self) -> None:
        self.items: list[DeviceInfo] = []


_STACK = _Stack()


class DeviceCtx:
    """A ``with`` block on another device: the device target and id are set on entry and restored on exit.

    Args:
        name: "CPU", "GPU", "Ascend" or "meta" (MindSpore's data-less device, which cellonnx does not have).
        device_id: the device's id; 0 when None.

    Examples:
        >>> import cellonnx as ms
        >>> with ms.DeviceCtx('CPU'):
        ...     print(ms.get_current_device().device_target)
        CPU
    """

    def __init__(self, name: str, device_id: int | None = None) -> None:
        self.name = name
        self.device_id = device_id

    def __enter__(self) -> DeviceCtx:
        valid = ["CPU", "GPU", "Ascend", "meta"]
        if self.name not in valid:
            raise ValueError(f"For DeviceCtx, the name must be one of {valid}, but got {self.name}.")
        if self.device_id is not None and self.device_id < 0:
            raise ValueError("For DeviceCtx, the device_id must be greater than or equal to 0.")
        if self.name == "meta":
            raise RuntimeError("For DeviceCtx, the 'meta' device (tensors without data) is not available in "
                               "cellonnx: every cellonnx tensor holds its data")
        _STACK.items.append(get_current_device())
        try:
            set_device(self.name, self.device_id)
        except BaseException:
            _STACK.items.pop()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        previous = _STACK.items.pop()
        context.set_context(device_target=previous.device_target, device_id=previous.device_id)


def set_deterministic(deterministic: bool) -> None:
    """Make every computation give the same result for the same input: onnxruntime sessions built from now
    on use its deterministic kernels (``use_deterministic_compute``); eager NumPy execution already is.
    ``get_context("deterministic")`` reads "ON" / "OFF".

    Raises:
        TypeError: ``deterministic`` is not a bool.
        RuntimeError: it was set before (MindSpore allows one setting per process).

    Examples:
        >>> import cellonnx as ms
        >>> ms.set_deterministic(True)
        >>> print(ms.get_context('deterministic'))
        ON
    """
    if not isinstance(deterministic, bool):
        raise TypeError(f"The argument 'deterministic' must be bool, but got {type(deterministic)}.")
    if context._extra.get("_deterministic_set"):
        raise RuntimeError("The 'mindspore.set_deterministic' can not be set repeatedly.")
    context._extra["_deterministic_set"] = True
    context._extra["deterministic"] = "ON" if deterministic else "OFF"


def run_check() -> None:
    """Check the installation: multiply two tensors eagerly and in an onnxruntime graph, and say so.

    Examples:
        >>> import cellonnx as ms
        >>> ms.run_check()
        cellonnx version: ...
        The result of multiplication calculation is correct, cellonnx has been installed on platform [CPU] ...
    """
    import numpy as np

    import cellonnx
    from cellonnx.graph.compile import compile_cell

    try:
        print("cellonnx version: ", cellonnx.__version__)
        x = cellonnx.Tensor(np.array([1.0, 2.0, 3.0]), cellonnx.float32)
        y = cellonnx.Tensor(np.array([4.0, 5.0, 6.0]), cellonnx.float32)
        want = np.array([4.0, 10.0, 18.0], np.float32)
        eager = cellonnx.ops.mul(x, y).asnumpy()

        class _Mul:
            def __call__(self, a: Any, b: Any) -> Any:
                return cellonnx.ops.mul(a, b)

        graph = compile_cell(_Mul(), x, y)(x, y).asnumpy()
        if not (np.array_equal(eager, want) and np.array_equal(graph, want)):
            raise RuntimeError(f"1 2 3 times 4 5 6 gave {eager} eagerly and {graph} in onnxruntime")
        print("The result of multiplication calculation is correct, cellonnx has been installed on platform "
              f"[{context.get_context('device_target')}] successfully!")
    except Exception as exc:  # noqa: BLE001 (reported, as MindSpore's run_check reports it)
        print("cellonnx running check failed.")
        print(str(exc))
