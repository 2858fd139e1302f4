"""mx.nd.contrib.foreach / while_loop / cond: MXNet's control flow over NDArrays.

Eagerly they run in Python (autograd records each step). While a hybridized block is traced for inference
or export, foreach is an ONNX Scan (cellonnx.ops.scan) over however many steps the input has, cond an ONNX If
(cellonnx.ops.cond) holding both branches, and while_loop an ONNX Loop (while_loop_graph.py).

A trace that differentiates (a hybridized block called under ``autograd.record()``, a compiled training
step) writes its backward from the ops the trace recorded, and ONNX has no derivative of Scan, If or Loop:
there foreach is unrolled over the traced input's steps (the compiled graph is traced again for another
sequence length), cond runs both branches and selects with Where (its gradient reaches the taken branch
only, as MXNet's), and while_loop is unrolled: a condition computed from the data traces all
``max_iterations`` steps, each step after the condition failed keeping the variables and writing zero rows.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx import ops
from cellonnx.autograd.tape import is_grad_enabled
from cellonnx.mxnet import _op
from cellonnx.mxnet.ndarray.while_loop_graph import as_loop, loop_applies
from cellonnx.ops import registry
from cellonnx.tensor import Tensor

__all__ = ["cond", "foreach", "while_loop"]


def _flatten(value: Any, what: str) -> tuple[list[Tensor], Any]:
    """The arrays of a nested list (or one array) and its layout, for _regroup."""
    if value is None:
        return [], None
    if isinstance(value, Tensor):
        return [value], 0
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} should be an NDArray or a nested list of NDArrays, got "
                         f"{type(value).__name__}")
    flat: list[Tensor] = []
    layout = []
    for item in value:
        arrays, sub = _flatten(item, what)
        flat.extend(arrays)
        layout.append(sub)
    return flat, layout


def _regroup(flat: list[Any], layout: Any) -> tuple[Any, list[Any]]:
    if layout == 0:
        return flat[0], flat[1:]
    out = []
    for sub in layout:
        item, flat = _regroup(flat, sub)
        out.append(item)
    return out, flat


def _as_result(x: Tensor, like: Any) -> Any:
    return _op.retype(x, type(like) if isinstance(like, Tensor) and type(like) is not Tensor else Tensor)


def _retyped(value: Any, like: Any) -> Any:
    """``value``'s plain Tensors (a nested list of them) as ``like``'s array class."""
    if isinstance(value, list):
        return [_retyped(v, like) for v in value]
    if isinstance(value, tuple):
        return tuple(_retyped(v, like) for v in value)
    return _as_result(value, like) if type(value) is Tensor else value


def _traces_gradient() -> bool:
    """Whether a trace is active whose backward is written from its recorded ops."""
    from cellonnx.graph.trace import tracing_step

    return registry.ACTIVE_TRACER is not None and (is_grad_enabled() or tracing_step())


def foreach(body: Callable[..., Any], data: Any, init_states: Any) -> tuple[Any, Any]:
    """Run ``body`` over axis 0 of ``data``: ``out, states = body(data[i], states)`` for each i; returns the
    outputs stacked along a new axis 0 (in the layout ``body`` returns them) and the last states.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> step = lambda x, states: (x + states[0], [states[0] * 2])
        >>> outs, states = mx.nd.contrib.foreach(step, mx.nd.array([[1, 2], [3, 4]]), [mx.nd.ones(2)])
        >>> print(outs.asnumpy())
        [[2. 3.]
         [5. 6.]]
        >>> print(states[0].asnumpy())
        [4. 4.]
    """
    arrays, _ = _flatten(data, "data")
    _flatten(init_states, "init_states")
    if not arrays:
        raise ValueError("foreach: data should be an NDArray or a list of NDArrays, got an empty list")

    def step(states: Any, item: Any) -> tuple[Any, Any]:
        out, new_states = body(_retyped(item, arrays[0]), _retyped(states, arrays[0]))
        return new_states, out

    states, outputs = ops.scan(step, init_states, data, unroll=_traces_gradient())
    return _retyped(outputs, arrays[0]), _retyped(states, arrays[0])


def _scalar(value: Any, what: str) -> bool:
    try:
        return bool(value.asscalar() if hasattr(value, "asscalar") else value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"Cannot convert {what} to python bool") from exc


def while_loop(cond: Callable[..., Any], func: Callable[..., Any], loop_vars: Any,
               max_iterations: int | None = None) -> tuple[Any, Any]:
    """While ``cond(*loop_vars)`` holds (at most ``max_iterations`` times): ``step_output, loop_vars =
    func(*loop_vars)``. Returns the step outputs stacked along axis 0 and padded to ``max_iterations`` rows
    (MXNet leaves the padding undefined; here it is 0), and the final loop variables.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> cond = lambda i, s: i <= 5
        >>> func = lambda i, s: ([i + s], [i + 1, s + i])
        >>> loop_vars = (mx.nd.array([0], dtype='int64'), mx.nd.array([1], dtype='int64'))
        >>> outputs, states = mx.nd.contrib.while_loop(cond, func, loop_vars, max_iterations=8)
        >>> print(outputs[0].asnumpy()[:6, 0], states[0].asnumpy(), states[1].asnumpy())
        [ 1  2  4  7 11 16] [6] [16]
    """
    if max_iterations is None:
        raise ValueError("max_iterations should be specified")
    max_iterations = int(max_iterations)
    single = isinstance(loop_vars, Tensor)
    variables = [loop_vars] if single else list(loop_vars)
    if not variables:
        raise ValueError("loop_vars should contain at least one element")
    if loop_applies(variables):
        like = variables[0]
        stacked, layout, final = as_loop(cond, func, variables, max_iterations, _flatten,
                                         lambda: _run_while(cond, func, variables, max_iterations))
        stacked = [_as_result(x, like) for x in stacked]
        variables = [_as_result(x, v) for x, v in zip(final, variables)]
    else:
        rows, variables, layout, steps = _run_while(cond, func, variables, max_iterations)
        stacked = []
        for x in rows:
            missing = max_iterations - steps
            pad = [ops.zeros((missing, *x.shape[1:]), x.dtype)] if missing else []
            stacked.append(_as_result(ops.concat([x, *pad], 0), x))
    result = _regroup(stacked, layout)[0] if layout is not None and stacked else stacked
    return result, (variables[0] if single else variables)


def _run_while(cond: Callable[..., Any], func: Callable[..., Any], variables: list[Tensor],
               max_iterations: int) -> tuple[list[Tensor], list[Tensor], Any, int]:
    """The loop in Python: (each step output stacked over the steps taken, the final variables, the step
    outputs' layout, the number of steps)."""
    outputs: list[list[Tensor]] = []
    layout: Any = None
    steps = 0
    active: Tensor | None = None  # a traced condition seen so far (all of them held), see _masked
    while steps < max_iterations:
        active, go = _condition(cond(*variables), active)
        if not go:
            break
        step_output, new_vars = func(*variables)
        if new_vars is None:
            new_vars = []
        new_vars = [new_vars] if isinstance(new_vars, Tensor) else list(new_vars)
        if len(new_vars) != len(variables):
            raise ValueError("The length of loop_vars should be consistent during the loop")
        flat, layout = _flatten([] if step_output is None else step_output, "while output")
        if active is not None:
            new_vars = [_masked(active, n, v) for n, v in zip(new_vars, variables)]
            flat = [_masked(active, o, ops.zeros_like(o)) for o in flat]
        if outputs and len(flat) != len(outputs[0]):
            raise ValueError("Number of elements in step_output should be the same in each step")
        outputs.append(flat)
        variables = new_vars
        steps += 1
    stacked = []
    for i, column in enumerate(zip(*outputs), 1):
        shapes = {tuple(x.shape) for x in column}
        if len(shapes) != 1:
            raise ValueError(f"Shapes of {i}-th elements in step_outputs are inconsistent: {sorted(shapes)}")
        stacked.append(_as_result(ops.concat([ops.expand_dims(x, 0) for x in column], 0), column[0]))
    return stacked, variables, layout, steps


def _condition(value: Any, active: Tensor | None) -> tuple[Tensor | None, bool]:
    """One step's condition: (the traced flag that all conditions so far held, or None while they were
    Python values; whether to run the step). A condition computed from traced values (a data-dependent loop
    in a trace that differentiates) cannot stop the trace: every step up to max_iterations is traced, and
    _masked keeps the variables and zeroes the outputs of the steps after the condition failed."""
    tracer = registry.ACTIVE_TRACER
    if tracer is not None and isinstance(value, Tensor) and tracer.is_traced(value):
        flag = ops.not_equal(ops.reshape(value, ()), 0)
        return (flag if active is None else ops.logical_and(active, flag)), True
    return active, _scalar(value, "Return value of cond")


def _masked(active: Tensor, new: Tensor, old: Tensor) -> Tensor:
    return _as_result(ops.where(active, new, old), new)


def cond(pred: Any, then_func: Callable[[], Any], else_func: Callable[[], Any]) -> Any:
    """``then_func()`` if the scalar ``pred`` is nonzero, else ``else_func()``.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> a, b = mx.nd.array([1]), mx.nd.array([2])
        >>> out = mx.nd.contrib.cond(a * b < 5, lambda: (a + 5) * (b + 5), lambda: (a - 5) * (b - 5))
        >>> print(out.asnumpy())
        [42.]
    """
    tracer = registry.ACTIVE_TRACER
    if tracer is not None and isinstance(pred, Tensor) and tracer.is_traced(pred):
        flag = ops.not_equal(ops.reshape(pred, ()), 0)
        if _traces_gradient():
            return _selected(flag, then_func(), else_func())
        return _retyped(ops.cond(flag, then_func, else_func), pred)
    return then_func() if _scalar(pred, "pred") else else_func()


def _selected(flag: Tensor, then_out: Any, else_out: Any) -> Any:
    """Both branches' results merged with Where on the scalar ``flag`` (then's layout and array class)."""
    then_flat, layout = _flatten(then_out, "then_func output")
    else_flat, _ = _flatten(else_out, "else_func output")
    if len(then_flat) != len(else_flat):
        raise ValueError(f"cond: then_func and else_func should return the same number of outputs, got "
                         f"{len(then_flat)} and {len(else_flat)}")
    merged = []
    for i, (t, e) in enumerate(zip(then_flat, else_flat)):
        if tuple(t.shape) != tuple(e.shape) or t.dtype != e.dtype:
            raise ValueError(f"cond: output {i} of then_func and else_func differ: {tuple(t.shape)} "
                             f"{t.dtype} vs {tuple(e.shape)} {e.dtype}")
        merged.append(_as_result(ops.where(flag, t, e), t))
    return _regroup(merged, layout)[0] if layout is not None else merged
