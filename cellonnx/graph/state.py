"""Where a compiled training step keeps its state: one onnxruntime OrtValue per Parameter (weights, optimizer
slots, moving statistics, step counters), on the session's device.

After a step the updated outputs replace the held values (no copy: the OrtValues the step wrote are kept)
and each updated Parameter drops its NumPy array; reading it later (``asnumpy``, a checkpoint, an eval call)
copies the value back once (``Tensor.__getattr__`` calls :meth:`StateHolder.fetch`). A Parameter written by
user code (``set_data``, ``load_param_into_net``: its version moves) is uploaded again before the next step.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import onnxruntime as ort

from cellonnx.tensor import Parameter


class StateHolder:
    """The OrtValues of a step's state, keyed by parameter identity.

    Args:
        device: "cpu" or "cuda".
        device_id: the CUDA device.

    Attributes:
        host_reads: how many values were copied back to NumPy (a parameter read by user code).
        uploads: how many values were copied from NumPy into the state (first use, ``set_data``).
    """

    def __init__(self, device: str = "cpu", device_id: int = 0) -> None:
        self.device = device
        self.device_id = device_id
        self._values: dict[int, ort.OrtValue] = {}
        self._seen: dict[int, int] = {}   # the parameter version the held value stands for
        self._shapes: dict[int, tuple] = {}
        self._dtypes: dict[int, str] = {}
        self.host_reads = 0
        self.uploads = 0

    def value(self, p: Parameter) -> ort.OrtValue:
        """The current value of ``p`` as an OrtValue on the device (uploaded when user code changed it)."""
        if self._current(p):
            return self._values[id(p)]
        arr = np.ascontiguousarray(p._data)
        device_id = self.device_id if self.device == "cuda" else 0
        return self._hold(p, ort.OrtValue.ortvalue_from_numpy(arr, self.device, device_id), arr)

    def holds(self, p: Parameter, buffer: ort.OrtValue) -> bool:
        """Whether ``buffer`` holds the current value of ``p``."""
        return self._values.get(id(p)) is buffer and self._current(p)

    def write(self, p: Parameter, buffer: ort.OrtValue) -> None:
        """Copy the value of ``p`` (from the host, or from the step that holds it) into ``buffer``, an
        OrtValue of its shape and dtype on this device, and hold it there."""
        arr = np.ascontiguousarray(p._data)
        buffer.update_inplace(arr)
        self._hold(p, buffer, arr)

    def _current(self, p: Parameter) -> bool:
        if "_device_state" in p.__dict__ and p.__dict__["_device_state"] is not self:
            p._data  # noqa: B018 - another step holds it: bring it to the host first
        key = id(p)
        return key in self._values and ("_device_state" in p.__dict__ or self._seen.get(key) == p._version)

    def _hold(self, p: Parameter, value: ort.OrtValue, arr: np.ndarray) -> ort.OrtValue:
        key = id(p)
        self._values[key] = value
        self._seen[key] = p._version
        self._shapes[key] = arr.shape
        self._dtypes[key] = arr.dtype.str
        self.uploads += 1
        return value

    def held(self, p: Parameter) -> ort.OrtValue | None:
        """The OrtValue held for ``p`` now (None when none is), without uploading anything."""
        return self._values.get(id(p))

    def update(self, pairs: Iterable[tuple[Parameter, ort.OrtValue, tuple]]) -> None:
        """Take the step's outputs (parameter, value, shape) as the new values; the parameters read them
        lazily."""
        values, shapes, seen = self._values, self._shapes, self._seen
        for p, value, shape in pairs:
            key = id(p)
            values[key] = value
            shapes[key] = shape
            p._version += 1
            seen[key] = p._version
            held_here = p.__dict__.get("_device_state") is self   # then the slot is unset: reading it fetches
            if not held_here:
                try:
                    del p._data   # the slot, when set (no read: Tensor.__getattr__ would fetch the value)
                except AttributeError:
                    pass
                p.__dict__["_device_state"] = self

    def dtype_of(self, p: Parameter) -> str:
        """The dtype of ``p``'s held value (a step's output keeps its input's dtype), without a copy."""
        return self._dtypes[id(p)]

    def fetch(self, p: Parameter) -> np.ndarray:
        """Copy ``p``'s held value to the host (called once per read-after-step)."""
        self.host_reads += 1
        # (a 0-d value comes back from IOBinding as shape (1,): the traced shape is the parameter's)
        return np.array(self._values[id(p)].numpy(), copy=True).reshape(self._shapes[id(p)])

    def sync(self, params: Iterable[Parameter]) -> None:
        """Bring every parameter in ``params`` back to the host now."""
        for p in params:
            if p.__dict__.get("_device_state") is self:
                p._data  # noqa: B018 - the read copies it back


def dtype_of(p: Parameter) -> str:
    """``p``'s dtype, read from the step state that holds its value if one does (no copy to the host)."""
    holder = p.__dict__.get("_device_state")
    return holder.dtype_of(p) if holder is not None else p._data.dtype.str


def on_device(value: Any) -> bool:
    return isinstance(value, ort.OrtValue) and value.device_name().lower() != "cpu"
