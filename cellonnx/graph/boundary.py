"""Host boundaries in a traced training step: work that must leave the graph (a collective over MPI) while
the rest of the step stays compiled.

While a step is traced, :func:`host_boundary` sends graph values to the host and gives back Tensors bound to
new graph inputs that will hold the host's results. The traced step is then cut into graphs around its
boundaries (cellonnx/graph/split_step.py): the host ``start`` s a boundary once the graphs computing its
values have run, and ``finish`` es it just before the first graph that reads its results, so a non-blocking
collective (a bucket of gradients) overlaps the graphs run in between.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from onnx import helper

from cellonnx.graph.builder import value_info_of
from cellonnx.graph.trace import TraceError, current
from cellonnx.tensor import Tensor


@dataclass
class Boundary:
    """One trip to the host in a compiled step.

    Attributes:
        label: what it is (``DistributedGradReducer.bucket0``, ``AllReduce``), for names and errors.
        values: the graph values sent to the host (graph output names once the trace is done).
        results: the graph inputs that receive the host's results.
        start: called with the values as NumPy arrays; returns a handle.
        finish: called with the handle; returns the results (arrays of the traced shapes and dtypes).
        specs: (dtype, shape) of each value sent.
        buffers: when given, returns where the graph should write each value (a C-contiguous array of its
            dtype and shape, or None): a bucket's gradients written straight into the bucket.
    """

    label: str
    values: list[str]
    results: list[str]
    start: Callable[[list[np.ndarray]], Any]
    finish: Callable[[Any], list[np.ndarray]]
    specs: list[tuple[Any, tuple]]
    buffers: Callable[[], list[np.ndarray | None]] | None = None


def host_boundary(label: str, tensors: Sequence[Tensor], results: Sequence[np.ndarray],
                  start: Callable[[list[np.ndarray]], Any],
                  finish: Callable[[Any], list[np.ndarray]] = lambda h: h,
                  shapes: Sequence[Sequence[int | None]] | None = None,
                  buffers: Callable[[], list[np.ndarray | None]] | None = None) -> list[Tensor]:
    """Inside a traced training step: hand ``tensors`` to the host and return Tensors holding what
    ``finish(start(arrays))`` returns at run time (``results``: their values in this trace, which fix their
    dtypes, and their shapes unless ``shapes`` gives them, None for a dim that varies from call to call).
    ``buffers`` (see :class:`Boundary`) lets the graph write the values where ``start`` wants them.

    Raises:
        TraceError: not inside a traced training step, or inside a control-flow body.
    """
    tracer = current()
    if tracer is None or not tracer.root().stateful:
        raise TraceError(f"{label}: a host boundary exists only while a training step is traced")
    if tracer.parent is not None:
        raise TraceError(f"{label}: a collective inside a control-flow body (ops.cond / while_loop) of a "
                         "compiled training step; call it outside the loop or branch")
    g = tracer.g
    values = [tracer.name_of(t) for t in tensors]
    names, outs = [], []
    for i, arr in enumerate(results):
        arr = np.asarray(arr)
        name = g.fresh(f"{label}.result{i}")
        shape = list(arr.shape) if shapes is None else list(shapes[i])
        if None in shape:
            g.inputs.append(helper.make_tensor_value_info(name, value_info_of(name, arr).type.tensor_type
                                                          .elem_type, shape))
        else:
            g.inputs.append(value_info_of(name, arr))
            tracer.static_inputs.add(name)
        t = Tensor._make(arr)
        tracer.bind(t, name)
        names.append(name)
        outs.append(t)
    specs = [(t.dtype, tuple(t._data.shape)) for t in tensors]
    boundaries(tracer).append(Boundary(label, values, names, start, finish, specs, buffers))
    return outs


def boundaries(tracer: Any) -> list[Boundary]:
    """The boundaries recorded by a (root) tracer so far."""
    return tracer.__dict__.setdefault("boundaries", [])


def expose(g: Any, found: list[Boundary]) -> None:
    """Make every boundary's values graph outputs (after the step's own outputs and updates), so the
    optimizer keeps them and the split can find them by name."""
    for b in found:
        b.values = [g.add_output(v, g.fresh(f"{b.label}.value{i}"), dtype, list(shape))
                    for i, (v, (dtype, shape)) in enumerate(zip(b.values, b.specs))]
