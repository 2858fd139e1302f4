"""mxnet.context: MXNet 1.x's name for mxnet.device (``Context`` is ``Device``)."""
from __future__ import annotations

from cellonnx.mxnet.device import (
    Context,
    Device,
    cpu,
    cpu_pinned,
    current_context,
    current_device,
    gpu,
    gpu_memory_info,
    num_gpus,
)

__all__ = ["Context", "Device", "cpu", "cpu_pinned", "current_context", "current_device", "gpu",
           "gpu_memory_info", "num_gpus"]
