"""mx.nd.contrib.while_loop in a traced graph: one ONNX Loop (trip count ``max_iterations``, its condition
``cond`` of the loop variables) whose body is ``func`` traced once, so the exported graph runs the number of
steps each input asks for. The stacked step outputs are padded with zero rows to ``max_iterations`` after
the Loop (Shape, Slice, Sub, Concat, Pad), as the eager function pads them.

Gradients: a traced graph's backward is written from the eager ops the trace recorded, and ONNX has no
derivative of a Loop; so traces that differentiate (a hybridized block under ``autograd.record()``, a
compiled training step) keep the unrolled loop, and inference traces and exports get the Loop.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.autograd.tape import is_grad_enabled
from cellonnx.ops import registry
from cellonnx.ops.prims.control import keep_carried_shapes
from cellonnx.tensor import Parameter, Tensor

__all__ = ["as_loop", "loop_applies"]


def loop_applies(variables: list[Tensor]) -> bool:
    """Whether the loop should become an ONNX Loop: an inference trace holding some loop variable."""
    from cellonnx.graph.trace import tracing_step

    tracer = registry.ACTIVE_TRACER
    return (tracer is not None and not is_grad_enabled() and not tracing_step()
            and any(isinstance(v, Tensor) and tracer.is_traced(v) for v in variables))


def _flag(value: Any) -> Tensor:
    """A loop condition as the bool scalar ONNX Loop takes."""
    t = value if isinstance(value, Tensor) else Tensor(np.asarray(bool(value)))
    return ops.not_equal(ops.reshape(t, ()), 0) if t._data.dtype != np.bool_ else ops.reshape(t, ())


def _padded(tracer: Any, rows: Tensor, eager: np.ndarray, max_iterations: int) -> Tensor:
    """``rows`` (steps, ...) followed by zero rows up to ``max_iterations``, as graph nodes."""
    i64 = np.int64
    shape = Tensor._make(np.asarray(eager.shape, i64))
    tracer.emit("Shape", [rows], [shape])
    steps = Tensor._make(np.asarray(eager.shape[:1], i64))
    tracer.emit("Slice", [shape, Tensor(np.array([0], i64)), Tensor(np.array([1], i64))], [steps])
    missing = Tensor._make(np.asarray([max_iterations - eager.shape[0]], i64))
    tracer.emit("Sub", [Tensor(np.array([max_iterations], i64)), steps], [missing])
    rank = eager.ndim
    pads = Tensor._make(np.concatenate([np.zeros(rank, i64), missing._data, np.zeros(rank - 1, i64)]))
    tracer.emit("Concat", [Tensor(np.zeros(rank, i64)), missing, Tensor(np.zeros(rank - 1, i64))], [pads],
                axis=0)
    widths = [(0, max_iterations - eager.shape[0])] + [(0, 0)] * (rank - 1)
    out = Tensor._make(np.pad(eager, widths))
    tracer.emit("Pad", [rows, pads], [out])
    return out


def as_loop(cond: Callable[..., Any], func: Callable[..., Any], variables: list[Tensor], max_iterations: int,
            flatten: Callable[[Any, str], tuple[list[Tensor], Any]],
            eager: Callable[[], tuple[list[Tensor], list[Tensor], Any, int]]) -> tuple[list[Tensor], Any,
                                                                                        list[Tensor]]:
    """Emit the Loop; returns (the padded stacked outputs flattened, their layout, the final variables).
    ``eager()`` runs the loop with the tracer suspended: (stacked rows unpadded, final vars, layout,
    steps)."""
    tracer = registry.ACTIVE_TRACER
    with tracer.suspended():
        stacked, final, layout, _ = eager()
    n_vars = len(variables)
    body_layout: list[Any] = [layout]

    def body(_iteration: Tensor, _cond: Tensor, *carried: Tensor) -> list[Tensor]:
        for c, v in zip(carried, variables):  # the loop variables' array class (NDArray's methods)
            if type(v) is not Tensor and isinstance(v, Tensor) and not isinstance(v, Parameter):
                c.__class__ = type(v)
        step_output, new_vars = func(*carried)
        if new_vars is None:
            new_vars = []
        new_vars = [new_vars] if isinstance(new_vars, Tensor) else list(new_vars)
        if len(new_vars) != n_vars:
            raise ValueError("The length of loop_vars should be consistent during the loop")
        flat, body_layout[0] = flatten([] if step_output is None else step_output, "while output")
        return [_flag(cond(*new_vars)), *new_vars, *flat]

    graph, outs = tracer.subgraph(body, [Tensor(np.int64(0)), Tensor(True), *variables], "while_body")
    first = outs[1 + n_vars:]
    rows = [Tensor._make(s._data) if s is not None else Tensor._make(np.zeros((0, *f._data.shape),
                                                                             f._data.dtype))
            for s, f in zip(stacked or [None] * len(first), first)]
    results = [Tensor._make(v._data) for v in final]
    tracer.emit("Loop", [Tensor(np.asarray(max_iterations, np.int64)), _flag(cond(*variables)), *variables],
                results + rows, body=graph)
    keep_carried_shapes(tracer, variables, outs[1:1 + n_vars], results)
    padded = [_padded(tracer, r, r._data, max_iterations) for r in rows]
    return padded, body_layout[0], results
