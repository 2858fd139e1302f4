"""GRAPH_MODE: a top-level call of a gradient function (``value_and_grad``, ``grad``, ``GradOperation``) runs
as one compiled graph, as MindSpore compiles it (its ``_Grad`` / ``GradOperation`` wrap the call in ``jit`` in
GRAPH_MODE): forward and backward traced once per structure by the machinery of ``jit`` steps
(cellonnx/graph/train.py), the batch dim dynamic, the parameters read from the state held in onnxruntime.

A call the graph cannot take (keyword arguments, which MindSpore's compiled gradient function refuses; an
op without lowering; a Python branch on a value) runs eagerly, and says why once per gradient function.
"""
from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable
from typing import Any

from cellonnx.graph.trace import TraceError
from cellonnx.ops.prims._eager import NotExportable

EAGER = object()   # run_grad_call's answer when the call runs eagerly

# gradient function -> the step keys whose trace failed (they run eagerly without tracing again)
_FAILED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_WARNED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def graph_call_wanted() -> bool:
    """Whether a gradient function's call compiles: GRAPH_MODE, at top level (not traced into an enclosing
    graph, not inside a cell or gradient running eagerly)."""
    from cellonnx import context
    if context.mode != context.GRAPH_MODE:
        return False
    from cellonnx.autograd import grad as _grad
    from cellonnx.graph import trace
    from cellonnx.graph.compile import _in_graph_call
    from cellonnx.nn import cell
    return not (trace._current or cell._graph_depth[0] or _grad._nested[0] or _in_graph_call[0])


def _warn_once(owner: Any, what: str, reason: str) -> None:
    seen = _WARNED.setdefault(owner, set())
    if reason in seen:
        return
    seen.add(reason)
    warnings.warn(f"GRAPH_MODE: {what} runs eagerly (PYNATIVE): {reason}", stacklevel=4)


def run_grad_call(owner: Callable, compute: Callable[..., Any], args: tuple, kwargs: dict, what: str) -> Any:
    """Run ``compute(*args)`` (a gradient function's eager body) as one compiled step cached on ``owner``.

    Args:
        owner: the gradient function called (the cache and the warnings are per function).
        compute: its eager body.
        args: the call's positional arguments.
        kwargs: its keyword arguments (a call with any runs eagerly).
        what: how the warnings name the function.

    Returns:
        the call's result, or ``EAGER`` where the call must run eagerly (after a warning, once per reason).
    """
    if kwargs:
        _warn_once(owner, what, f"it is called with {sorted(kwargs)} by keyword; a compiled graph takes "
                                "positional inputs (MindSpore's compiled gradient function refuses "
                                "keywords). Pass them positionally to compile the call")
        return EAGER
    from cellonnx.graph.train import arg_names_of, compiled_step, step_key
    failed = _FAILED.setdefault(owner, set())
    key = step_key(owner, args)
    if key in failed:
        return EAGER
    try:
        compiled = compiled_step(owner, compute, args, getattr(compute, "__name__", "grad"),
                                 arg_names_of(compute, len(args)))
    except (TraceError, NotExportable) as exc:
        failed.add(key)
        _warn_once(owner, what, f"it cannot be compiled: {exc}")
        return EAGER
    return compiled(*args)
