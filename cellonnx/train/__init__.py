"""High-level training (``mindspore.train``): Model, callbacks, metrics, loss-scale managers, amp."""
from __future__ import annotations

from cellonnx.nn.metrics import *
from cellonnx.nn.metrics import __all__ as _metrics_all
from cellonnx.train import amp, callback, serialization, summary
from cellonnx.train.amp import build_train_network
from cellonnx.train.callback import *
from cellonnx.train.callback import __all__ as _callback_all
from cellonnx.train.dataset_helper import DatasetHelper, connect_network_with_dataset, data_sink
from cellonnx.train.loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from cellonnx.train.model import Model
from cellonnx.train.serialization import *
from cellonnx.train.serialization import __all__ as _serialization_all
from cellonnx.train.sliced_checkpoint import load_segmented_checkpoints, merge_sliced_parameter
from cellonnx.train.summary import SummaryRecord
from cellonnx.train.train_thor import ConvertModelUtils, ConvertNetUtils

__all__ = ["DynamicLossScaleManager", "FixedLossScaleManager", "LossScaleManager", "Model", "amp",
           "build_train_network", "callback", "serialization"]
__all__ += list(_callback_all) + list(_metrics_all) + list(_serialization_all)
__all__ += ["DatasetHelper", "connect_network_with_dataset", "data_sink"]
__all__ += ["load_segmented_checkpoints", "merge_sliced_parameter"]
__all__ += ["SummaryRecord", "summary"]
__all__ += ["ConvertModelUtils", "ConvertNetUtils"]

from cellonnx.unsupported import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr(__name__, "mindspore.train")
