"""Checks after a compiled step: the errors eager code raises on a value (THOR's damped factors that are not
positive definite) where a graph cannot raise.

While a training step is traced, :func:`after_step` makes a value a graph output and pairs it with a host
function; each run of the compiled step keeps its updated state, then calls the function with the value as a
NumPy array, and the function raises the eager error when the value says so. The graph itself must leave the
state as eager code leaves it when it raises (the step gates those updates on the same value), so the state
after the error is eager's. Outside a traced step the function is called at once on the eager value.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cellonnx.graph.trace import TraceError, current
from cellonnx.tensor import Tensor


@dataclass
class StepCheck:
    """A value of the step (a graph output name once the trace is done) and the host function it goes to."""

    value: Any
    check: Callable[[np.ndarray], None]


def after_step(value: Tensor, check: Callable[[np.ndarray], None]) -> None:
    """Call ``check(value)`` once the step has run: after each run of a compiled step, at once eagerly.

    Raises:
        TraceError: inside a control-flow body (ops.cond / while_loop) of a compiled step.
        Whatever ``check`` raises.
    """
    tracer = current()
    if tracer is None or not tracer.root().stateful:
        check(np.asarray(value.asnumpy()))
        return
    if tracer.parent is not None:
        raise TraceError("a check after the step inside a control-flow body (ops.cond / while_loop) of a "
                         "compiled training step; make it outside the loop or branch")
    check(np.asarray(value._data))   # the traced value: the eager error at trace time
    checks(tracer).append(StepCheck(value, check))


def checks(tracer: Any) -> list[StepCheck]:
    """The checks recorded by a (root) tracer so far."""
    return tracer.__dict__.setdefault("step_checks", [])


def expose(g: Any, tracer: Any) -> list[tuple[str, Callable[[np.ndarray], None]]]:
    """Make every check's value a graph output; returns (output name, function) pairs."""
    out = []
    for i, c in enumerate(checks(tracer)):
        t = c.value
        name = g.add_output(tracer.name_of(t), f"step_check_{i}", t.dtype, list(t._data.shape))
        out.append((name, c.check))
    return out
