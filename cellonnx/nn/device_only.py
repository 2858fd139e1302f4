"""Names of MindSpore's older ``mindspore.nn`` catalogue that only ran on a device: importing one raises an
error that says why (MindSpore 2.x no longer has them; cellonnx/unsupported.py lists MindSpore 2.10's own such
names, whose placeholders import and raise when called)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx.unsupported import DEVICE_QUEUE, UnsupportedError

__all__ = ["DEVICE_ONLY", "module_getattr"]

DEVICE_ONLY = {
    # DataWrapper(network, dataset_types, dataset_shapes, queue_name) fed the network from the device queue
    # queue_name through GetNext
    "DataWrapper": DEVICE_QUEUE,
}


def module_getattr(namespace: str, fallback: Callable[[str], Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that raises for the device-only names and asks ``fallback`` for the others."""

    def __getattr__(name: str) -> Any:
        if name in DEVICE_ONLY:
            raise UnsupportedError(f"{namespace}.{name} is not available in cellonnx: {DEVICE_ONLY[name]}")
        return fallback(name)

    return __getattr__
