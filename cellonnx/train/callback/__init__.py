"""Training callbacks with MindSpore's names (``mindspore.train.callback``)."""
from __future__ import annotations

from cellonnx.train.callback._backup import BackupAndRestore, OnRequestExit
from cellonnx.train.callback._callback import Callback, CallbackManager, InternalCallbackParam, RunContext
from cellonnx.train.callback._checkpoint import CheckpointConfig, ModelCheckpoint
from cellonnx.train.callback._flops import FlopsUtilizationCollector
from cellonnx.train.callback._landscape import SummaryLandscape
from cellonnx.train.callback._lr_callbacks import LearningRateScheduler, ReduceLROnPlateau
from cellonnx.train.callback._monitors import LossMonitor, ProgressBar, TimeMonitor
from cellonnx.train.callback._others import EarlyStopping, History, LambdaCallback
from cellonnx.train.callback._summary_collector import SummaryCollector

__all__ = ["Callback", "CallbackManager", "CheckpointConfig", "EarlyStopping", "History", "InternalCallbackParam",
           "LambdaCallback", "LossMonitor", "ModelCheckpoint", "ProgressBar", "RunContext", "TimeMonitor"]
__all__ += ["BackupAndRestore", "FlopsUtilizationCollector", "LearningRateScheduler", "OnRequestExit",
            "ReduceLROnPlateau"]
__all__ += ["SummaryCollector"]
__all__ += ["SummaryLandscape"]
