"""Wrapper cells: loss, gradients, training steps, loss scaling."""
from __future__ import annotations

from cellonnx.nn.wrap.cell_wrapper import (
                                           ForwardValueAndGrad,
                                           ParameterUpdate,
                                           TrainOneStepCell,
                                           WithEvalCell,
                                           WithGradCell,
                                           WithLossCell,
)
from cellonnx.nn.wrap.grad_reducer import DistributedGradReducer
from cellonnx.nn.wrap.loss_scale import (
                                           DynamicLossScaleUpdateCell,
                                           FixedLossScaleUpdateCell,
                                           TrainOneStepWithLossScaleCell,
)
from cellonnx.nn.wrap.micro_batch import GradAccumulationCell, MicroBatchInterleaved

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "ForwardValueAndGrad", "ParameterUpdate",
           "TrainOneStepCell", "TrainOneStepWithLossScaleCell", "WithEvalCell", "WithGradCell", "WithLossCell"]
__all__ += ["GradAccumulationCell", "MicroBatchInterleaved"]
__all__ += ["DistributedGradReducer"]
