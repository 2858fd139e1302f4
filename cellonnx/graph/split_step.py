"""A compiled training step cut around its host boundaries (cellonnx/graph/boundary.py), such as the
gradient all-reduce of data-parallel training: several onnxruntime graphs run in turn, the host work between
them, every value passed from graph to graph as an OrtValue.

How the step is cut: a node's *level* is the number of boundaries it waits for (the highest boundary whose
result it reads, directly or through other nodes, plus one). Level by level, each boundary starting at that
level gets a graph of the not-yet-run nodes its values need, and is started as soon as that graph has run;
the level's remaining nodes follow in one more graph. A boundary is finished (its non-blocking collective
waited for) just before the first graph that reads its results. So the gradient buckets of
:class:`~cellonnx.nn.DistributedGradReducer` are sent one by one while the backward pass computes the next
bucket, and the optimizer update of a bucket runs while later buckets are still in flight.

Every rank traces the same step, so every rank cuts it the same way and runs its collectives in the same
order, as MPI requires.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

from cellonnx.graph import nchwc_convs
from cellonnx.graph.boundary import Boundary
from cellonnx.graph.compile import serialize
from cellonnx.graph.optimize import _inferred, _outer_names
from cellonnx.graph.runtime import Session
from cellonnx.graph.train import CompiledStep


@dataclass
class Part:
    """One graph of a split step: its model, the names it reads and the names it writes."""

    model: onnx.ModelProto
    inputs: list[str]
    outputs: list[str]
    session: Any = None


@dataclass
class Plan:
    """The order of a split step: ``("run", Part)``, ``("start", k)`` and ``("finish", k)`` for boundary k."""

    actions: list[tuple[str, Any]] = field(default_factory=list)
    constants: dict[str, np.ndarray] = field(default_factory=dict)   # initializers read by the host

    @property
    def parts(self) -> list[Part]:
        return [a for kind, a in self.actions if kind == "run"]


def _node_reads(node: onnx.NodeProto) -> list[str]:
    reads = [i for i in node.input if i]
    for a in node.attribute:
        if a.type == onnx.AttributeProto.GRAPH:
            reads.extend(sorted(_outer_names(a.g)))
    return reads


def cut(model: onnx.ModelProto, found: list[Boundary]) -> Plan:
    """Cut ``model`` (a traced step whose boundary values are graph outputs and whose boundary results are
    graph inputs) into the graphs and host calls of a :class:`Plan`."""
    g = model.graph
    nodes = list(g.node)
    producer: dict[str, int] = {o: i for i, n in enumerate(nodes) for o in n.output if o}
    result_of = {name: k for k, b in enumerate(found) for name in b.results}
    reads = [_node_reads(n) for n in nodes]
    level = [0] * len(nodes)
    for i in range(len(nodes)):
        lv = 0
        for v in reads[i]:
            if v in result_of:
                lv = max(lv, result_of[v] + 1)
            elif v in producer:
                lv = max(lv, level[producer[v]])
        level[i] = lv

    def value_level(v: str) -> int:
        if v in producer:
            return level[producer[v]]
        return result_of[v] + 1 if v in result_of else 0

    starts: dict[int, list[int]] = {}
    for k, b in enumerate(found):
        lv = max((value_level(v) for v in b.values), default=0)
        if lv > k:
            raise RuntimeError(f"compiled step: {b.label} (host boundary {k}) reads a value computed after "
                               "a later boundary; call collectives in the order their inputs are made")
        starts.setdefault(lv, []).append(k)

    groups: list[tuple[list[int], int | None]] = []   # (node indices, boundary started after them)
    done = [False] * len(nodes)
    top = max(level, default=0)
    top = max(top, max(starts, default=0))
    for lv in range(top + 1):
        for k in starts.get(lv, []):
            need = _ancestors([producer[v] for v in found[k].values if v in producer], reads, producer)
            members = [i for i in sorted(need) if not done[i] and level[i] == lv]
            for i in members:
                done[i] = True
            groups.append((members, k))
        rest = [i for i in range(len(nodes)) if not done[i] and level[i] == lv]
        for i in rest:
            done[i] = True
        groups.append((rest, None))

    return _build_plan(model, nodes, reads, producer, groups, found)


def _ancestors(roots: list[int], reads: list[list[str]], producer: dict[str, int]) -> set[int]:
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        i = stack.pop()
        if i in seen:
            continue
        seen.add(i)
        stack.extend(producer[v] for v in reads[i] if v in producer)
    return seen


def _build_plan(model: onnx.ModelProto, nodes: list[onnx.NodeProto], reads: list[list[str]],
                producer: dict[str, int], groups: list[tuple[list[int], int | None]],
                found: list[Boundary]) -> Plan:
    g = model.graph
    shapes, types = _inferred(model)
    inits = {t.name: t for t in g.initializer}
    io_types = {v.name: v for v in (*g.input, *g.output)}
    group_of = {i: gi for gi, (members, _) in enumerate(groups) for i in members}
    # where each value is needed: later groups, the host (boundary values), the step's outputs
    wanted_later: dict[str, int] = {}
    for i, vs in enumerate(reads):
        for v in vs:
            wanted_later[v] = max(wanted_later.get(v, -1), group_of[i])
    host_values = {v for b in found for v in b.values}
    step_outputs = {o.name for o in g.output}
    result_of = {name: k for k, b in enumerate(found) for name in b.results}

    plan = Plan()
    finished: set[int] = set()
    for gi, (members, started) in enumerate(groups):
        if members:
            part_nodes = [nodes[i] for i in members]
            needed = {v for i in members for v in reads[i]}
            made = {o for i in members for o in nodes[i].output if o}
            # finish what this graph reads from the host first
            for k in sorted({result_of[v] for v in needed if v in result_of} - finished):
                plan.actions.append(("finish", k))
                finished.add(k)
            inputs = sorted(v for v in needed - made if v not in inits)
            outs = [o for i in members for o in nodes[i].output if o and
                    (o in host_values or o in step_outputs or wanted_later.get(o, -1) > gi)]
            part_inits = [inits[v] for v in sorted(needed - made) if v in inits]
            part = _model(model, part_nodes, inputs, outs, part_inits, shapes, types, io_types, gi)
            plan.actions.append(("run", Part(part, inputs, outs)))
        if started is not None:
            for v in found[started].values:
                if v in inits:
                    plan.constants[v] = numpy_helper.to_array(inits[v])
            plan.actions.append(("start", started))
    for k in range(len(found)):
        if k not in finished:
            plan.actions.append(("finish", k))
    return plan


def _value_info(name: str, shapes: dict, types: dict, io_types: dict) -> onnx.ValueInfoProto:
    if name in io_types:
        return io_types[name]
    if name not in types:
        raise RuntimeError(f"compiled step: the type of {name!r}, passed between the graphs of a split step, "
                           "is unknown to ONNX shape inference")
    dims = shapes.get(name)
    shape = None if dims is None else [d if isinstance(d, int) and d > 0 else None for d in dims]
    return helper.make_tensor_value_info(name, types[name], shape)


def _model(model: onnx.ModelProto, nodes: list, inputs: list[str], outputs: list[str], inits: list,
           shapes: dict, types: dict, io_types: dict, index: int) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, f"{model.graph.name}_part{index}",
                              [_value_info(v, shapes, types, io_types) for v in inputs],
                              [_value_info(v, shapes, types, io_types) for v in outputs], initializer=inits)
    part = helper.make_model(graph, opset_imports=list(model.opset_import), ir_version=model.ir_version,
                             producer_name=model.producer_name, producer_version=model.producer_version)
    return part


class SplitStep(CompiledStep):
    """A StepGraph with host boundaries, run as the graphs and host calls of its :class:`Plan`.

    Args:
        step: the traced step (``step.boundaries`` not empty).
        device_target: "CPU" (the values passed to the host are NumPy arrays).
    """

    def __init__(self, step: Any, device_target: str | None = None, device_id: int | None = None,
                 intra_op_num_threads: int = 0) -> None:
        from cellonnx import context
        from cellonnx.graph.state import StateHolder

        self.step = step
        self.plan = cut(step.model, step.boundaries)
        target = device_target or context.get_context("device_target")
        dev_id = context.get_context("device_id") if device_id is None else device_id
        threads = intra_op_num_threads or context.get_context("intra_op_num_threads") or 0
        for part in self.plan.parts:
            model = nchwc_convs.for_session(part.model, target, step.example_batch)
            part.session = Session(serialize(model), target, dev_id, intra_op_num_threads=threads)
        self.session = None
        self.device = "cpu"
        self.device_id = dev_id
        self.state = StateHolder(self.device, dev_id)
        self._update_shapes = [tuple(p._data.shape) for _, p in step.updates]
        from cellonnx.graph.train import _static_shape
        self._out_shapes = [_static_shape(step.model, name) for name in step.outputs]
        # values the host wants written in place (a bucket's gradients straight into the bucket)
        self._buffers = [(k, b) for k, b in enumerate(step.boundaries) if b.buffers is not None]
        # (not a value the step reads again: the collective works on it in place)
        self._reread = {v for part in self.plan.parts for v in part.inputs} | set(step.outputs) | \
            {name for name, _ in step.updates}
        self._data_pos = dict(step.data_inputs)
        self._state_of = dict(step.state)
        self.steps = 0
        self.guard: tuple = ()

    def _run(self, args: tuple) -> dict[str, Any]:
        env: dict[str, Any] = dict(self.plan.constants)
        handles: dict[int, Any] = {}
        found = self.step.boundaries
        placed: dict[str, np.ndarray] = {}
        for _, b in self._buffers:
            assert b.buffers is not None
            for v, arr in zip(b.values, b.buffers()):
                if arr is not None and v not in self._reread:
                    placed[v] = arr
        for kind, what in self.plan.actions:
            if kind == "run":
                sess = what.session.inner
                binding = sess.io_binding()
                for name in what.inputs:
                    value = env.get(name)
                    if value is None:
                        value = self._feed(name, args)
                    if isinstance(value, ort.OrtValue):
                        binding.bind_ortvalue_input(name, value)
                    else:
                        binding.bind_cpu_input(name, np.ascontiguousarray(value))
                for name in what.outputs:
                    arr = placed.get(name)
                    if arr is None:
                        binding.bind_output(name, "cpu")
                    else:
                        binding.bind_output(name, "cpu", 0, arr.dtype, list(arr.shape), arr.ctypes.data)
                sess.run_with_iobinding(binding)
                env.update(zip(what.outputs, binding.get_outputs()))
                env.update((name, placed[name]) for name in what.outputs if name in placed)
            elif kind == "start":
                b = found[what]
                arrays = [_host(env[v]) if v in env else _host(self._feed(v, args)) for v in b.values]
                handles[what] = b.start(arrays)
            else:
                b = found[what]
                env.update(zip(b.results, b.finish(handles.pop(what))))
        return env

    def _feed(self, name: str, args: tuple) -> Any:
        pos = self._data_pos.get(name)
        if pos is not None:
            return args[pos]._data
        return self.state.value(self._state_of[name])

    def __call__(self, *args: Any) -> Any:
        env = self._run(args)
        return self._finish({n: _ort(env[n] if n in env else self._feed(n, args)) for n in
                             (*self.step.outputs, *(name for name, _ in self.step.updates),
                              *(name for name, _ in self.step.checks))})


def _host(value: Any) -> np.ndarray:
    return value.numpy() if isinstance(value, ort.OrtValue) else np.asarray(value)


def _ort(value: Any) -> ort.OrtValue:
    if isinstance(value, ort.OrtValue):
        return value
    return ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(value))
