"""Tracing a training step: a function that reads and assigns Parameters (forward, value_and_grad, optimizer
update, moving statistics) becomes one ONNX graph whose state is explicit.

Every Parameter the step reads is a graph input named after it; every Parameter it assigns (``assign``,
``Parameter.set_data``, ``x[i] = v``, a batch norm's moving statistics) gets a graph output holding its new
value, and the model's metadata pairs the two (``cellonnx.state_updates``: output name -> input name). The
batch dim (axis 0) of every Tensor argument is dynamic, so one graph serves every batch size, except in graphs
traced for CUDA: there every dim is static (a new batch size traces again, as MindSpore's static graphs
compile again), since the shape arithmetic of a dynamic batch runs on the host and each of its results
stalls the GPU stream on its way back. Tracing leaves the parameters as they were.
"""
from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx

import cellonnx
from cellonnx import context
from cellonnx.graph import (
    bn_train,
    channel_affine,
    fuse_update,
    long_sums,
    nchwc_convs,
    product_orient,
    row_narrow,
    step_checks,
)
from cellonnx.graph.boundary import boundaries, expose
from cellonnx.graph.builder import DEFAULT_OPSET, GraphBuilder, targets_gpu
from cellonnx.graph.optimize import _inferred, optimize
from cellonnx.graph.state import dtype_of
from cellonnx.graph.trace import TraceError, Tracer, tracing
from cellonnx.tensor import Parameter, Tensor

UPDATES_KEY = "cellonnx.state_updates"
INPUTS_KEY = "cellonnx.step_inputs"
OUTPUTS_KEY = "cellonnx.step_outputs"


@dataclass
class StepGraph:
    """A traced training step.

    Attributes:
        model: the ONNX model (plain ONNX: what is split, exported and inspected).
        runnable: the model onnxruntime runs where it differs from ``model`` (machine-specific kernels:
            cellonnx/graph/nchwc_convs.py), else None.
        data_inputs: graph input names of the step's Tensor arguments, with their positions.
        state: (graph input name, Parameter) for every Parameter read.
        updates: (graph output name, Parameter) for every Parameter assigned.
        outputs: the graph output names of the step's own results.
        structure: how to rebuild the step's result from those outputs (Parameters returned as themselves).
    """

    model: onnx.ModelProto
    data_inputs: list[tuple[str, int]]
    state: list[tuple[str, Parameter]]
    updates: list[tuple[str, Parameter]]
    outputs: list[str]
    structure: Any
    returned_params: dict[int, Parameter] = field(default_factory=dict)
    # the cells the step called, weakly: a graph cached for a cell's gradient function must not keep it alive
    cells: list[weakref.ref] = field(default_factory=list)
    boundaries: list[Any] = field(default_factory=list)   # host work (collectives): graph/boundary.py
    checks: list[tuple[str, Any]] = field(default_factory=list)   # (output, host check): graph/step_checks.py
    runnable: onnx.ModelProto | None = None
    example_batch: int | None = None   # the leading dim of the traced example's first data argument

    @property
    def session_model(self) -> onnx.ModelProto:
        """The model to hand to onnxruntime."""
        return self.model if self.runnable is None else self.runnable

    def guard(self) -> tuple:
        """What the graph assumed of Python state it does not read: the training flag of every cell the
        step called, the requires_grad and dtype (``set_dtype``) of every parameter it holds, and the
        attributes each cell's graph is specialised on (:func:`graph_attrs`)."""
        cells = [ref() for ref in self.cells]
        params = [p for _, p in self.state]
        return (tuple([bool(getattr(c, "training", False)) for c in cells]),
                tuple([bool(p.requires_grad) for p in params]),
                tuple([dtype_of(p) for p in params]),
                tuple([graph_attrs(c) for c in cells]))


def graph_attrs(cell: Any) -> tuple:
    """The Python attributes a cell's traced step depends on besides ``training``, with their current values:
    its flags (``add_flags``, as ModelThor's ``thor``) and the names its class lists in ``_graph_attrs``
    (THOR's ``thor``: a THOR step or one that reuses the kept inverses). A change compiles another graph,
    as MindSpore compiles one per phase."""
    get_flags = getattr(cell, "get_flags", None)
    names = set(get_flags()) if callable(get_flags) else set()
    names.update(getattr(type(cell), "_graph_attrs", ()))
    names.discard("training")
    return tuple((n, getattr(cell, n, None)) for n in sorted(names))


def _structure(out: Any, params: dict[int, Parameter], counter: list[int]) -> Any:
    if isinstance(out, Tensor):
        i = counter[0]
        counter[0] += 1
        if isinstance(out, Parameter):
            params[i] = out
        return i
    if isinstance(out, (tuple, list)):
        return type(out), [_structure(o, params, counter) for o in out]
    if out is None or isinstance(out, (bool, int, float, str)):  # (str: the names of return_ids)
        return ("const", out)
    raise TraceError(f"a compiled training step returned {type(out).__name__}; expected Tensors, numbers or "
                     "tuples of them")


def _tensor_outputs(out: Any) -> list[Tensor]:
    if isinstance(out, Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _tensor_outputs(o)]
    return []


def batch_is_dynamic() -> bool:
    """Whether step graphs traced now leave the batch dim dynamic: everywhere but on CUDA."""
    return not targets_gpu()


def data_specs(args: Sequence[Any], dynamic_batch: bool = True) -> list[tuple[int, Tensor, list]]:
    """(position, example, shape; its batch dim None where dynamic) of every Tensor argument."""
    specs = []
    for i, a in enumerate(args):
        if isinstance(a, Tensor) and not isinstance(a, Parameter):
            shape: list = list(a._data.shape)
            if shape and dynamic_batch:
                shape[0] = None
            specs.append((i, a, shape))
    return specs


def trace_step(fn: Callable[..., Any], args: Sequence[Any], name: str = "train_step",
               opset: int | None = None, arg_names: Sequence[str] | None = None,
               dynamic_batch: bool | None = None, cpu_forms: bool | None = None) -> StepGraph:
    """Trace ``fn(*args)`` (a training step) into a StepGraph.

    Args:
        fn: the step; it may assign Parameters and return Tensors (or tuples of them).
        args: example arguments; Tensors become graph inputs with a dynamic batch dim.
        arg_names: graph input names per position (default ``input_<i>``).
        dynamic_batch: leave the batch dim dynamic (default: :func:`batch_is_dynamic`).
        cpu_forms: rewrite per-channel scales and shifts and transposed products for onnxruntime's CPU
            kernels (cellonnx/graph/channel_affine.py, product_orient.py; default: when the context does not
            target a GPU).

    Raises:
        TraceError: the step reads a state value into Python, branches on a tensor's value or returns
            something that is not a Tensor.
    """
    opset = opset or context.get_context("opset") or DEFAULT_OPSET
    g = GraphBuilder(opset, name)
    dynamic = batch_is_dynamic() if dynamic_batch is None else dynamic_batch
    tracer = Tracer(g, dynamic=dynamic, stateful=True)
    specs = data_specs(args, dynamic)
    call = list(args)
    data_inputs = []
    for pos, example, shape in specs:
        iname = arg_names[pos] if arg_names and pos < len(arg_names) else f"input_{pos}"
        t = Tensor._make(example._data)
        tracer.bind(t, g.add_input(iname, example.dtype, shape))
        call[pos] = t
        data_inputs.append((iname, pos))
    returned: dict[int, Parameter] = {}
    try:
        with tracing(tracer), np.errstate(all="ignore"):  # the trace's eager values do not count
            result = fn(*call)
            structure = _structure(result, returned, [0])
            flat = _tensor_outputs(result)
            outputs = []
            with g.adding_outputs():
                for i, t in enumerate(flat):
                    oname = "output" if len(flat) == 1 else f"output_{i}"
                    dynamic = tracer.is_traced(t) and not isinstance(t, Parameter)
                    shape = [None] * t._data.ndim if dynamic else list(t._data.shape)
                    outputs.append(g.add_output(tracer.name_of(t), oname, t.dtype, shape))
                updates = state_updates(g, tracer)
                host_checks = step_checks.expose(g, tracer)
                found = boundaries(tracer)
                expose(g, found)
    finally:
        tracer.restore_state()
    state = list(tracer.state_inputs.values())
    pairs = {o: tracer.state_inputs[id(p)][0] for o, p in updates if id(p) in tracer.state_inputs}
    meta = {UPDATES_KEY: json.dumps(pairs), INPUTS_KEY: json.dumps([n for n, _ in data_inputs]),
            OUTPUTS_KEY: json.dumps(outputs)}
    model = g.model(producer_version=cellonnx.__version__, metadata=meta)
    model = optimize(model)
    if row_narrow.narrow_rows(model):
        model = optimize(model)
    cpu = not targets_gpu() if cpu_forms is None else cpu_forms
    # one shape inference for the passes below (0.3 s for a ResNet's step): each adds or drops nodes, and
    # the values the others read keep their shapes
    inferred = _inferred(model) if cpu else None
    fuse_update.fuse_sgd_updates(model, inferred)
    if cpu:
        bn_train.batch_norm_statistics(model, inferred)
        long_sums.split_long_reductions(model, inferred)
        channel_affine.fuse_channel_affines(model, inferred)
        # the orientation onnxruntime's CPU GEMM favours
        product_orient.orient_transposed_products(model, inferred[0])
    _check_no_dropped_inputs(model, state)
    batch = int(specs[0][1]._data.shape[0]) if specs and specs[0][1]._data.ndim else None
    runnable = nchwc_convs.blocked_copy(model, inferred, batch) if cpu else None
    return StepGraph(model, data_inputs, state, updates, outputs, structure, returned,
                     [weakref.ref(c) for c in tracer.cells_seen.values()], found, host_checks, runnable,
                     batch)


def state_updates(g: GraphBuilder, tracer: Tracer) -> list[tuple[str, Parameter]]:
    """Each Parameter the traced function assigned, exposed as graph output ``<name>.new`` with the
    Parameter (one whose last value is still its own input is left out)."""
    updates = []
    for p in tracer.written.values():
        value = tracer.name_of(p)
        entry = tracer.state_inputs.get(id(p))
        if entry is not None and entry[0] == value:
            continue
        updates.append((g.add_output(value, f"{p.name}.new", p.dtype, list(p._data.shape)), p))
    return updates


def _check_no_dropped_inputs(model: onnx.ModelProto, state: list[tuple[str, Parameter]]) -> None:
    kept = {i.name for i in model.graph.input}
    missing = [n for n, _ in state if n not in kept]
    if missing:  # the optimizer may drop unused inputs: keep the list of state what the session expects
        state[:] = [(n, p) for n, p in state if n in kept]


def rebuild(structure: Any, flat: list[Any]) -> Any:
    if isinstance(structure, int):
        return flat[structure]
    kind, items = structure
    if kind == "const":
        return items
    return kind(rebuild(s, flat) for s in items)
