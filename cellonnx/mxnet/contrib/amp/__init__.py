"""``mx.contrib.amp``: automatic mixed precision (float16 / bfloat16) as MXNet 1.9.1 has it: ``init``,
``init_trainer``, ``scale_loss``, ``unscale``, the ``convert_*`` functions, the operator lists and the dynamic
``LossScaler``."""
from __future__ import annotations

from cellonnx.mxnet.contrib.amp import lists
from cellonnx.mxnet.contrib.amp.amp import *
from cellonnx.mxnet.contrib.amp.amp import __all__ as _amp
from cellonnx.mxnet.contrib.amp.loss_scaler import LossScaler

__all__ = [*_amp, "LossScaler", "lists"]
