"""A function and its vector-Jacobian product as two ONNX graphs: a forward graph that also returns what the
backward needs (residuals), and a backward graph that takes the output gradients and those residuals.

This is the compiled form of one tape entry (MXNet's CachedOp under ``autograd.record()``): the caller runs
the forward graph at call time and the backward graph when the tape reaches it. Both come from one trace of
``fn`` followed by the cellonnx gradients of its outputs (as a training step traces), split where the
backward starts: every node a forward output (a result or an updated Parameter, such as a batch norm's
moving statistics) depends on runs in the forward graph; the rest runs in the backward graph, and each value
crossing from one to the other becomes a residual output of the forward graph. Random ops (dropout's mask)
therefore run once, in the forward graph, and the backward sees the same draw.

graph/ never imports nn/ or gluon/: ``fn`` is any function of Tensors that reads Parameters.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
from onnx import helper, shape_inference

import cellonnx
from cellonnx import context
from cellonnx.autograd.tape import run_backward, set_grad_enabled
from cellonnx.graph import long_sums
from cellonnx.graph.builder import DEFAULT_OPSET, GraphBuilder, targets_gpu
from cellonnx.graph.optimize import optimize
from cellonnx.graph.step_trace import _structure, _tensor_outputs, data_specs, state_updates
from cellonnx.graph.symint import is_symbolic
from cellonnx.graph.trace import TraceError, Tracer, tracing
from cellonnx.tensor import Parameter, Tensor

__all__ = ["VJPGraphs", "trace_vjp"]


@dataclass
class VJPGraphs:
    """The two graphs of a traced function and their interface.

    Attributes:
        forward: inputs ``data_inputs`` + ``state`` names; outputs ``outputs`` + ``updates`` + ``residuals``.
        backward: inputs ``grad_inputs`` + ``residuals`` + whichever data / state inputs it reads; outputs
            ``grads`` (None where a target gets no gradient). None when nothing is differentiated.
        data_inputs: (graph input name, argument position) of every Tensor argument.
        state: (graph input name, Parameter) of every Parameter read.
        outputs: names of the function's Tensor results, flattened.
        updates: (output name, Parameter) of every Parameter the function assigns.
        residuals: forward values the backward graph reads.
        grad_inputs: (input name, index into ``outputs``) of the output gradients.
        targets: what the gradients are for: ("arg", position) or ("param", Parameter).
        grads: backward output name per target (None: no gradient).
        structure: how to rebuild the function's result from ``outputs`` (step_trace.rebuild).
        observed: (forward output name, callback) of every value the function asked to see at run time
            (trace.observe): the caller hands each callback its value after every forward run.
    """

    forward: onnx.ModelProto
    backward: onnx.ModelProto | None
    data_inputs: list[tuple[str, int]]
    state: list[tuple[str, Parameter]]
    outputs: list[str]
    updates: list[tuple[str, Parameter]]
    residuals: list[str]
    grad_inputs: list[tuple[str, int]]
    targets: list[tuple[str, Any]]
    grads: list[str | None]
    structure: Any = None
    observed: list[tuple[str, Callable[[np.ndarray], None]]] = field(default_factory=list)


def trace_vjp(fn: Callable[..., Any], args: Sequence[Any], wrt_args: Sequence[int] = (),
              dynamic_batch: bool = True, name: str = "vjp", opset: int | None = None,
              shapes: Sequence[Sequence[int | None] | None] | None = None) -> VJPGraphs:
    """Trace ``fn(*args)`` and its gradient into a forward and a backward graph.

    Args:
        fn: a function of Tensors; it may read and assign Parameters.
        args: example arguments; Tensors become graph inputs (batch dim dynamic with ``dynamic_batch``).
        wrt_args: positions of the Tensor arguments whose gradient the backward returns; it also returns
            the gradient of every Parameter read that requires grad.
        dynamic_batch: leave axis 0 of the arguments dynamic.
        shapes: the declared shape of each argument (None dims dynamic; None for a non-Tensor), in place of
            ``dynamic_batch``'s axis 0: a recurrent layer's batch is axis 1 of its time-major input and of
            its states.

    Raises:
        TraceError: ``fn`` does what a static graph cannot express, or returns no Tensor.
    """
    opset = opset or context.get_context("opset") or DEFAULT_OPSET
    g = GraphBuilder(opset, name)
    specs = data_specs(args, dynamic_batch)
    if shapes is not None:
        specs = [(pos, example, list(shapes[pos])) for pos, example, _ in specs]
    dynamic = dynamic_batch if shapes is None else any(d is None for _, _, shape in specs for d in shape)
    tracer = Tracer(g, dynamic=dynamic, stateful=True)
    call = list(args)
    data_inputs: list[tuple[str, int]] = []
    for pos, example, shape in specs:
        t = Tensor._make(example._data)
        if pos in wrt_args:
            t.requires_grad = True
        iname = f"input_{pos}"
        tracer.bind(t, g.add_input(iname, example.dtype, shape))
        call[pos] = t
        data_inputs.append((iname, pos))
    try:
        with tracing(tracer), np.errstate(all="ignore"):
            with set_grad_enabled(True):
                result = fn(*call)
            structure = _structure(result, {}, [0])
            flat = _tensor_outputs(result)
            if not flat:
                raise TraceError(f"{name}: the traced function returned no Tensor")
            outputs = []
            with g.adding_outputs():   # the nodes rewritten once for all the outputs' names
                for i, t in enumerate(flat):
                    shape = [None] * t._data.ndim if tracer.is_traced(t) else list(t._data.shape)
                    outputs.append(g.add_output(tracer.name_of(t), f"output_{i}", t.dtype, shape))
                updates = state_updates(g, tracer)
                observed = [(g.add_output(tracer.name_of(t), f"observed_{k}", t.dtype, [None] * t._data.ndim),
                             cb) for k, (t, cb) in enumerate(tracer.observed)]
            targets: list[tuple[str, Any]] = [("arg", pos) for pos in wrt_args]
            targets += [("param", p) for _, p in list(tracer.state_inputs.values()) if p.requires_grad]
            heads = [(i, t) for i, t in enumerate(flat) if t.requires_grad]
            grad_inputs: list[tuple[str, int]] = []
            grads: list[str | None] = []
            if heads and targets:
                seeds = []
                for i, t in heads:
                    seed = Tensor._make(np.ones_like(t._data))
                    # the output's own dims: dynamic where its are, so the seed's shape equals the output's;
                    # one inference could not follow (a Loop's output) is open, not a dynamic dim of the seed
                    shape = [int(d) if not is_symbolic(d) else None if d.declared else
                             f"grad_output_{i}_open{k}" for k, d in enumerate(t.shape)]
                    tracer.open_dims.update(d for d in shape if isinstance(d, str))
                    tracer.bind(seed, g.add_input(f"grad_output_{i}", t.dtype, shape))
                    seeds.append(seed)
                    grad_inputs.append((f"grad_output_{i}", i))
                wrt = [call[k] if kind == "arg" else k for kind, k in targets]
                values = run_backward([t for _, t in heads], seeds, wrt=wrt)
                with g.adding_outputs():
                    for j, (v, w) in enumerate(zip(values, wrt)):
                        if v is None or not tracer.is_traced(v):
                            grads.append(None)
                            continue
                        grads.append(g.add_output(tracer.name_of(v), f"grad_{j}", w.dtype,
                                                  [None] * v._data.ndim))
    finally:
        tracer.restore_state()
    state = [(n, p) for n, p in tracer.state_inputs.values()]
    model = optimize(g.model(producer_version=cellonnx.__version__))
    if not targets_gpu():
        long_sums.split_long_reductions(model)
    fwd_outs = outputs + [o for o, _ in updates] + [o for o, _ in observed]
    forward, backward, residuals, renamed = split(model, fwd_outs, [n for n in grads if n is not None])
    new_names = iter(renamed)
    grads = [None if n is None else next(new_names) for n in grads]
    kept = {i.name for i in forward.graph.input}
    return VJPGraphs(forward, backward if grad_inputs else None, [d for d in data_inputs if d[0] in kept],
                     [s for s in state if s[0] in kept], outputs, updates, residuals, grad_inputs,
                     targets, grads, structure, observed)


def _ancestors(nodes: Sequence[onnx.NodeProto], wanted: Sequence[str], producer: dict[str, int]) -> set[int]:
    seen: set[int] = set()
    stack = [producer[n] for n in wanted if n in producer]
    while stack:
        k = stack.pop()
        if k in seen:
            continue
        seen.add(k)
        stack.extend(producer[n] for n in _reads(nodes[k]) if n in producer)
    return seen


def _reads(node: onnx.NodeProto) -> list[str]:
    """The values a node reads, those its subgraphs read from the outer scope included."""
    names = [n for n in node.input if n]
    for attr in node.attribute:
        for sub in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
            inner = {o for nd in sub.node for o in nd.output} | {i.name for i in sub.input} | \
                {t.name for t in sub.initializer}
            names += [n for nd in sub.node for n in _reads(nd) if n not in inner]
    return names


def split(model: onnx.ModelProto, fwd_outputs: Sequence[str], bwd_outputs: Sequence[str]
          ) -> tuple[onnx.ModelProto, onnx.ModelProto, list[str], list[str]]:
    """Split ``model`` into the nodes ``fwd_outputs`` need and the rest of what ``bwd_outputs`` need.

    Returns:
        (forward model, backward model, residual names, backward output names): the forward model's outputs
        are ``fwd_outputs`` followed by the residuals; the backward model's inputs are the residuals followed
        by the original inputs it reads; its outputs are ``bwd_outputs`` (renamed where one is also an
        input).
    """
    graph = model.graph
    nodes = list(graph.node)
    producer = {o: k for k, nd in enumerate(nodes) for o in nd.output if o}
    fwd = _ancestors(nodes, fwd_outputs, producer)
    bwd = _ancestors(nodes, bwd_outputs, producer) - fwd
    inits = {t.name: t for t in graph.initializer}
    inputs = {i.name: i for i in graph.input}
    residuals: list[str] = []
    bwd_reads: list[str] = []
    for k in sorted(bwd):
        bwd_reads += _reads(nodes[k])
    for n in [*bwd_reads, *bwd_outputs]:
        if n in producer and producer[n] in fwd and n not in residuals:
            residuals.append(n)
    inferred = shape_inference.infer_shapes(model)
    types = {v.name: v.type.tensor_type.elem_type
             for v in (*inferred.graph.value_info, *inferred.graph.output)}
    outs = {o.name: o for o in graph.output}

    def value_info(n: str) -> onnx.ValueInfoProto:
        if n in outs:
            return outs[n]
        if n not in types:
            raise TraceError(f"splitting the gradient graph: the type of {n!r} is unknown")
        return helper.make_tensor_value_info(n, types[n], None)

    def sub_model(kept: set[int], ins: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto],
                  extra: list[onnx.NodeProto], name: str) -> onnx.ModelProto:
        chosen = [nodes[k] for k in sorted(kept)] + extra
        used = {n for nd in chosen for n in _reads(nd)} | {o.name for o in outputs}  # (a constant output)
        g = helper.make_graph(chosen, name, ins, outputs, [t for n, t in inits.items() if n in used])
        m = helper.make_model(g, opset_imports=list(model.opset_import), ir_version=model.ir_version,
                              producer_name=model.producer_name, producer_version=model.producer_version)
        return m

    fwd_reads = {n for k in fwd for n in _reads(nodes[k])} | set(fwd_outputs)
    fwd_model = sub_model(fwd, [i for n, i in inputs.items() if n in fwd_reads],
                          [value_info(n) for n in fwd_outputs] + [value_info(n) for n in residuals
                                                                  if n not in fwd_outputs],
                          [], graph.name + "_forward")
    # a residual that is also a forward output is returned once; the backward reads it under its name
    residuals = [*[n for n in residuals if n in fwd_outputs], *[n for n in residuals if n not in fwd_outputs]]
    bwd_in = [value_info(n) for n in residuals]
    for n, i in inputs.items():
        if n in set(bwd_reads) | set(bwd_outputs) and n not in residuals:
            bwd_in.append(i)
    fed = {v.name for v in bwd_in}
    extra, bwd_outs = [], []
    for n in bwd_outputs:
        vi = value_info(n)
        if n in fed:  # a gradient that is an input of the backward graph (or one of its residuals)
            alias = n + "/grad"
            extra.append(helper.make_node("Identity", [n], [alias]))
            vi = onnx.ValueInfoProto()
            vi.CopyFrom(value_info(n))
            vi.name = alias
        bwd_outs.append(vi)
    bwd_model = sub_model(bwd, bwd_in, bwd_outs, extra, graph.name + "_backward")
    return fwd_model, bwd_model, residuals, [o.name for o in bwd_outs]
