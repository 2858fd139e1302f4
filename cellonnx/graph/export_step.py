"""Export of a training step: the compiled step as an ONNX model any onnxruntime can train with.

The model's inputs are the step's data arguments followed by its state (every parameter, optimizer slot,
step counter and moving statistic it reads, named as the parameters are); each state input carries its
current value as an initializer of the same name (its default, so the first step may leave it out). The
outputs are the step's results followed by the updated state; the metadata ``cellonnx.state_updates`` (JSON)
maps each updated output to the input it replaces on the next step.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import onnx

from cellonnx.graph.builder import to_tensor_proto
from cellonnx.graph.step_trace import trace_step
from cellonnx.graph.train import arg_names_of


def export_step_model(net: Any, *inputs: Any, opset: int | None = None) -> onnx.ModelProto:
    """The training step ``net(*inputs)`` (a TrainOneStepCell or any cell that updates its parameters) as
    an ONNX model with its state as inputs and outputs (see the module docstring).

    Raises:
        ValueError: no example inputs were given, or the step calls collectives (data-parallel training).
    """
    if not inputs:
        raise ValueError("export(training=True): give example inputs of the training step (data and labels)")

    def fn(*xs: Any) -> Any:
        return net.run_construct(xs, {}) if hasattr(net, "run_construct") else net(*xs)

    # a file for any onnxruntime: no forms tuned for one provider's kernels (cuDNN's batch norm clamps the
    # epsilon 0 of graph/channel_affine.py)
    step = trace_step(fn, inputs, type(net).__name__, opset, arg_names_of(net, len(inputs)),
                      dynamic_batch=True, cpu_forms=False)
    if step.boundaries:
        which = ", ".join(sorted({b.label.split(".")[0] for b in step.boundaries}))
        raise ValueError(f"export(training=True): the step of {type(net).__name__} calls collectives across "
                         f"ranks ({which}: data parallel or SyncBatchNorm), which one ONNX graph cannot "
                         "hold; export the step outside data-parallel training")
    model = step.model
    existing = {t.name for t in model.graph.initializer}
    for name, p in step.state:
        if name not in existing:
            model.graph.initializer.append(to_tensor_proto(np.asarray(p.asnumpy()), name))
    return model
