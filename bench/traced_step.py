"""A training step traced to one ONNX graph and run by onnxruntime, for the benchmarks and the profiler.

``trace_step`` traces ``loss, grads = value_and_grad(loss_fn)(*inputs)`` followed by the SGD update
``p - lr * grad`` of every trainable parameter, so the graph reads the parameters and writes their new
values. ``OrtStep`` runs it with the parameters held as OrtValues bound with IOBinding, each step's outputs
becoming the next step's inputs (no host copy but the loss). Batch-norm moving statistics are not in this
graph (tracing leaves them untouched); the compiled step of cellonnx.graph.train carries them.

    model, names = trace_step(net, loss_fn, [x, y])
    step = OrtStep(model, names, [x, y], threads=2)
    loss = step()
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper

import cellonnx as ms
from cellonnx.graph.optimize import optimize
from cellonnx.graph.trace import trace
from cellonnx.tensor import Tensor


def trace_step(net: ms.nn.Cell, loss_fn: Callable, inputs: Sequence[np.ndarray], lr: float = 0.01,
               optimize_graph: bool = True) -> tuple[onnx.ModelProto, list[str]]:
    """The step graph (inputs ``x0..``, the trainable parameters; outputs ``loss`` and ``<name>.new``) and
    the trainable parameters' names. ``loss_fn(net(*inputs[:-1]), inputs[-1])`` is the loss."""
    params = list(net.parameters_and_names())
    trainable = [(n, p) for n, p in params if p.requires_grad]
    vg = ms.value_and_grad(lambda *a: loss_fn(net(*a[:-1]), a[-1]), None, weights=[p for _, p in trainable])

    def step(*args: Tensor) -> tuple:
        loss, grads = vg(*args)
        return (loss, *[p - lr * g for (_, p), g in zip(trainable, grads)])

    specs = [(f"x{i}", Tensor(a), list(a.shape)) for i, a in enumerate(inputs)]
    names = [n for n, _ in trainable]
    g, _ = trace(step, specs, params, output_names=["loss"] + [f"{n}.new" for n in names])
    model = g.model()
    if optimize_graph:
        model = optimize(model, keep_initializers=[n for n, _ in params])
    return _parameters_as_inputs(model, set(names)), names


def _parameters_as_inputs(model: onnx.ModelProto, names: set[str]) -> onnx.ModelProto:
    g = model.graph
    keep = [t for t in g.initializer if t.name not in names]
    moved = [t for t in g.initializer if t.name in names]
    del g.initializer[:]
    g.initializer.extend(keep)
    g.input.extend(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in moved)
    return model


def session_options(threads: int, profile: str | None = None) -> ort.SessionOptions:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if profile:
        opts.enable_profiling = True
        opts.profile_file_prefix = profile
    return opts


class OrtStep:
    """Run the step graph with the parameters in OrtValues, swapped with the outputs after every step."""

    def __init__(self, model: onnx.ModelProto, names: list[str], inputs: Sequence[np.ndarray],
                 values: dict[str, np.ndarray], threads: int, profile: str | None = None) -> None:
        self.session = ort.InferenceSession(model.SerializeToString(), session_options(threads, profile),
                                            providers=["CPUExecutionProvider"])
        self.names = names
        self.binding = self.session.io_binding()
        self.feeds = [ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(a)) for a in inputs]
        self.params = [ort.OrtValue.ortvalue_from_numpy(np.array(values[n])) for n in names]
        self.spare = [ort.OrtValue.ortvalue_from_numpy(np.empty_like(values[n])) for n in names]
        for i, v in enumerate(self.feeds):
            self.binding.bind_ortvalue_input(f"x{i}", v)

    def __call__(self) -> float:
        b = self.binding
        b.bind_output("loss")
        for n, cur, nxt in zip(self.names, self.params, self.spare):
            b.bind_ortvalue_input(n, cur)
            b.bind_ortvalue_output(f"{n}.new", nxt)
        self.session.run_with_iobinding(b)
        self.params, self.spare = self.spare, self.params
        return float(b.get_outputs()[0].numpy())

    def parameters(self) -> dict[str, np.ndarray]:
        return {n: v.numpy() for n, v in zip(self.names, self.params)}

    def end_profiling(self) -> str:
        return self.session.end_profiling()
