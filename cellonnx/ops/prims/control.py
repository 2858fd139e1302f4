"""Control flow: cond, while_loop, fori_loop, scan (and MindSpore's WhileLoop / ForiLoop / Scan classes).

Eagerly they are Python control flow over ops, so gradients flow through the iterations actually taken.
While tracing they lower to ONNX If / Loop / Scan: each branch or body is traced once into a subgraph
(which reads outer values by name), and the eager result is computed alongside so tracing can go on.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cellonnx.ops import registry
from cellonnx.tensor import Tensor


def _flatten(value: Any) -> tuple[list[Tensor], Any]:
    """Tensors of a (nested) tuple/list, and the structure to rebuild it."""
    if isinstance(value, Tensor):
        return [value], None
    if isinstance(value, (tuple, list)):
        flat: list[Tensor] = []
        parts = []
        for v in value:
            f, s = _flatten(v)
            flat.extend(f)
            parts.append((len(f), s))
        return flat, (type(value), parts)
    if isinstance(value, (int, float, bool, np.number)):
        return [Tensor(value)], None
    raise TypeError(f"control flow values must be Tensors or tuples of them, got {type(value).__name__}")


def _unflatten(flat: Sequence[Tensor], structure: Any) -> Any:
    if structure is None:
        return flat[0]
    kind, parts = structure
    out, i = [], 0
    for n, s in parts:
        out.append(_unflatten(flat[i:i + n], s))
        i += n
    return kind(out)


def _bool_scalar(pred: Any) -> Tensor:
    from cellonnx.ops.prims.math import cast
    from cellonnx.ops.prims.shape import reshape
    p = pred if isinstance(pred, Tensor) else Tensor(bool(pred))
    if p._data.dtype != np.bool_:
        p = cast(p, np.bool_)
    return reshape(p, ()) if p.ndim else p


def _fresh_like(values: Sequence[Tensor]) -> list[Tensor]:
    return [Tensor._make(v._data) for v in values]


def keep_carried_shapes(tracer: Any, inits: Sequence[Tensor], body_outs: Sequence[Tensor],
                         results: Sequence[Tensor]) -> None:
    """Tie each loop result whose body keeps its value's shape (MindSpore's loops require it) to its
    initial value's dims. ONNX shape inference cannot see through a Loop / Scan body, so a result's batch
    would be an unknown dim, which a later op would take as the example's (a split of it into that many
    pieces fails at another batch); ``Reshape(result, Shape(init))`` gives it the init's dims, dynamic ones
    included, and checks the invariant at run time. Results of all-static dims, or whose shape the body
    changes, are left as they are."""
    for init, out, result in zip(inits, body_outs, results):
        if init._data.shape != out._data.shape or not init.ndim:
            continue
        if not any(hasattr(d, "onnx_name") for d in tracer.shape_of(init)):
            continue
        g = tracer.g
        tracer.bind(result, g.op("Reshape", tracer.name_of(result), g.op("Shape", tracer.name_of(init))))


def _check_same(kind: str, a: Sequence[Tensor], b: Sequence[Tensor], what: str) -> None:
    if len(a) != len(b) or any(x._data.dtype != y._data.dtype for x, y in zip(a, b)):
        raise TypeError(f"{kind}: {what} must give the same number of values with the same dtypes; got "
                        f"{[str(x.dtype) for x in a]} and {[str(y.dtype) for y in b]}")


def cond(A: Any, p: Any = None, *args: Any) -> Any:
    """Two functions under one name, told apart by their arguments:

    - ``cond(A, p=None)``: MindSpore 2.10's ``ops.cond``, the condition number of (a batch of) matrices in
      the ``p``-norm (see ``cellonnx.ops.composite.linalg_ext.condition_number``);
    - ``cond(pred, true_fn, false_fn, *operands)``: control flow, ``true_fn(*operands) if pred else
      false_fn(*operands)``; traced, both branches become an ONNX If.

    A callable second argument means control flow.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([[1.0, 0.0], [0.0, 2.0]]), ms.float32)
        >>> print(ops.cond(a))
        2.0
    """
    if callable(p) or args:
        if len(args) < 1 or not callable(p) or not callable(args[0]):
            raise TypeError("cond: control flow takes (pred, true_fn, false_fn, *operands) with two callables")
        return _branch(A, p, args[0], *args[1:])
    from cellonnx.ops.composite.linalg_ext import condition_number
    return condition_number(A, p)


def _branch(pred: Any, true_fn: Callable[..., Any], false_fn: Callable[..., Any], *operands: Any) -> Any:
    """``true_fn(*operands) if pred else false_fn(*operands)``; traced, both branches become an ONNX If."""
    tracer = registry.ACTIVE_TRACER
    if tracer is None or not isinstance(pred, Tensor) or not tracer.is_traced(pred):
        return true_fn(*operands) if bool(pred._data if isinstance(pred, Tensor) else pred) else false_fn(*operands)
    p = _bool_scalar(pred)
    then_g, then_out = tracer.subgraph(lambda: true_fn(*operands), [], "then_branch")
    else_g, else_out = tracer.subgraph(lambda: false_fn(*operands), [], "else_branch")
    _check_same("cond", then_out, else_out, "both branches")
    results = _fresh_like(then_out if bool(p._data) else else_out)
    tracer.emit("If", [p], results, then_branch=then_g, else_branch=else_g)
    return results[0] if len(results) == 1 else tuple(results)


def while_loop(cond_fn: Callable[[Any], Any], body_fn: Callable[[Any], Any], init_val: Any) -> Any:
    """``val = init_val; while cond_fn(val): val = body_fn(val)``; traced, an ONNX Loop with no trip count.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.while_loop(lambda v: v < 10, lambda v: v * 2, 1))
        16
    """
    tracer = registry.ACTIVE_TRACER
    flat, structure = _flatten(init_val)
    if tracer is None:
        val = init_val
        while bool(_bool_scalar(cond_fn(val))._data):
            val = body_fn(val)
        return val
    with tracer.suspended():
        val = init_val
        while bool(_bool_scalar(cond_fn(val))._data):
            val = body_fn(val)
        final, _ = _flatten(val)
    _check_same("while_loop", flat, final, "body_fn")
    cond0 = _bool_scalar(cond_fn(init_val))

    def body(_iter: Tensor, _cond: Tensor, *carried: Tensor) -> list[Tensor]:
        new, _ = _flatten(body_fn(_unflatten(list(carried), structure)))
        return [_bool_scalar(cond_fn(_unflatten(new, structure)))] + new

    graph, outs = tracer.subgraph(body, [Tensor(np.int64(0)), Tensor(True)] + flat, "loop_body")
    results = _fresh_like(final)
    tracer.emit("Loop", [None, cond0] + flat, results, body=graph)
    keep_carried_shapes(tracer, flat, outs[1:], results)
    return _unflatten(results, structure)


def fori_loop(lower: Any, upper: Any, body_fn: Callable[[Any, Any], Any], init_val: Any,
              unroll: bool = False) -> Any:
    """``for i in range(lower, upper): val = body_fn(i, val)`` with ``i`` an int64 Tensor; traced, an ONNX
    Loop whose trip count is ``upper - lower`` (dynamic when the bounds are).

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.fori_loop(0, 4, lambda i, v: v + i, 0))
        6
    """
    from cellonnx.ops.prims.math import add, cast, sub
    tracer = registry.ACTIVE_TRACER
    flat, structure = _flatten(init_val)
    lo, hi = int(lower._data if isinstance(lower, Tensor) else lower), int(upper._data if isinstance(upper, Tensor) else upper)
    if tracer is None or unroll:
        val = init_val
        for i in range(lo, hi):
            val = body_fn(Tensor(np.int64(i)), val)
        return val
    with tracer.suspended():
        val = init_val
        for i in range(lo, hi):
            val = body_fn(Tensor(np.int64(i)), val)
        final, _ = _flatten(val)
    _check_same("fori_loop", flat, final, "body_fn")
    lower_t = cast(lower if isinstance(lower, Tensor) else tracer.tensor_of(lower), np.int64)
    upper_t = cast(upper if isinstance(upper, Tensor) else tracer.tensor_of(upper), np.int64)
    trips = sub(upper_t, lower_t)

    def body(it: Tensor, cond_in: Tensor, *carried: Tensor) -> list[Tensor]:
        new, _ = _flatten(body_fn(add(it, lower_t), _unflatten(list(carried), structure)))
        from cellonnx.ops.prims.shape import reshape
        return [reshape(cond_in, ())] + new

    graph, outs = tracer.subgraph(body, [Tensor(np.int64(0)), Tensor(True)] + flat, "loop_body")
    results = _fresh_like(final)
    tracer.emit("Loop", [trips, Tensor(True)] + flat, results, body=graph)
    keep_carried_shapes(tracer, flat, outs[1:], results)
    return _unflatten(results, structure)


def scan(fn: Callable[[Any, Any], tuple[Any, Any]], init: Any, xs: Any = None, length: int | None = None,
         reverse: bool = False, unroll: bool = False) -> tuple[Any, Any]:
    """``carry, y = fn(carry, x)`` over the leading axis of ``xs``; returns (final carry, stacked ys).
    Traced, an ONNX Scan.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> def step(carry, x):
        ...     return carry + x, carry * x
        >>> xs = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> carry, ys = ops.scan(step, Tensor(0.0, ms.float32), xs)
        >>> print(carry, ys)
        6.0 [0. 2. 9.]
    """
    from cellonnx.ops.prims.index import stack
    tracer = registry.ACTIVE_TRACER
    carry_flat, carry_struct = _flatten(init)
    xs_flat, xs_struct = _flatten(xs) if xs is not None else ([], None)
    n = length if xs is None else int(xs_flat[0]._data.shape[0])
    if n is None:
        raise ValueError("scan: give xs or length")

    def run() -> tuple[Any, list[Tensor], Any]:
        carry = init
        ys: list[list[Tensor]] = []
        y_struct = None
        order = range(n - 1, -1, -1) if reverse else range(n)
        for t in order:
            x_t = _unflatten([x[t] for x in xs_flat], xs_struct) if xs is not None else None
            carry, y = fn(carry, x_t)
            y_flat, y_struct = _flatten(y)
            ys.append(y_flat)
        if reverse:
            ys.reverse()
        stacked = [stack([step[k] for step in ys]) for k in range(len(ys[0]))] if ys else []
        return carry, stacked, y_struct

    if tracer is None or unroll or xs is None:
        carry, stacked, y_struct = run()
        return carry, (_unflatten(stacked, y_struct) if stacked else None)
    with tracer.suspended():
        carry, stacked, y_struct = run()
        final, _ = _flatten(carry)

    def body(*vals: Tensor) -> list[Tensor]:
        c = _unflatten(list(vals[:len(carry_flat)]), carry_struct)
        x_t = _unflatten(list(vals[len(carry_flat):]), xs_struct)
        new_c, y = fn(c, x_t)
        return _flatten(new_c)[0] + _flatten(y)[0]

    elems = [Tensor._make(x._data[0]) for x in xs_flat]
    graph, outs = tracer.subgraph(body, carry_flat + elems, "scan_body")
    results = _fresh_like(final + stacked)
    direction = [1 if reverse else 0]
    tracer.emit("Scan", carry_flat + xs_flat, results, body=graph, num_scan_inputs=len(xs_flat),
                scan_input_directions=direction * len(xs_flat), scan_output_directions=direction * len(stacked))
    keep_carried_shapes(tracer, carry_flat, outs, results[:len(final)])
    return _unflatten(results[:len(final)], carry_struct), _unflatten(results[len(final):], y_struct)


class WhileLoop:
    """A while loop as an operator: ``val = loop_func(val)`` while ``cond_func(val)`` holds.

    MindSpore's ``ops.WhileLoop()(cond_func, loop_func, init_val)``; see ``ops.while_loop``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> def cond_func(val):
        ...     return val[0] < 10
        >>> def loop_func(val):
        ...     return (val[0] + 1, val[1] * 2)
        >>> out = ops.WhileLoop()(cond_func, loop_func, (Tensor(0), Tensor(np.array([1.0]), ms.float32)))
        >>> print(out[0], out[1])
        10 [1024.]
    """

    def __call__(self, cond_func: Callable, loop_func: Callable, init_val: Any) -> Any:
        return while_loop(cond_func, loop_func, init_val)


class ForiLoop:
    """A counted loop as an operator: ``val = loop_func(i, val)`` for ``i`` from ``lower`` to ``upper - 1``.

    MindSpore's ``ops.ForiLoop()(lower, upper, loop_func, init_val, unroll=True)``; see ``ops.fori_loop``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> def loop_func(i, val):
        ...     return val + i
        >>> print(ops.ForiLoop()(0, 5, loop_func, Tensor(np.array([0.0, 100.0]), ms.float32)))
        [ 10. 110.]
    """

    def __call__(self, lower: Any, upper: Any, loop_func: Callable, init_val: Any, unroll: bool = True) -> Any:
        return fori_loop(lower, upper, loop_func, init_val, unroll=unroll)


class Scan:
    """A scan as an operator: ``carry, y = loop_func(carry, x)`` for each element ``x`` of the list or tuple
    ``xs`` (or ``length`` times with ``x = None``); returns the last carry and the list of the ``y``.

    MindSpore's ``ops.Scan()(loop_func, init, xs, length=None, unroll=True)``: unlike ``ops.scan`` (over the
    leading axis of tensors, ``ys`` stacked), it steps through a Python sequence and returns ``ys`` as a list.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> def cumsum(carry, x):
        ...     carry = carry + x
        ...     return carry, carry
        >>> xs = [Tensor(1.0, ms.float32), Tensor(2.0, ms.float32), Tensor(3.0, ms.float32)]
        >>> carry, ys = ops.Scan()(cumsum, Tensor(0.0, ms.float32), xs)
        >>> print(carry, [float(y) for y in ys])
        6.0 [1.0, 3.0, 6.0]
    """

    def __call__(self, loop_func: Callable, init: Any, xs: Any, length: int | None = None,
                 unroll: bool = True) -> Any:
        if xs is None:
            if not isinstance(length, int) or isinstance(length, bool):
                raise TypeError(f"For 'Scan', length must be an int when xs is None, but got {length!r}")
            xs = [None] * length
        elif not isinstance(xs, (list, tuple)):
            raise TypeError(f"For 'Scan', xs must be a tuple, a list or None, but got {type(xs).__name__}")
        carry, ys = init, []
        for x in xs:
            out = loop_func(carry, x)
            if not isinstance(out, tuple) or len(out) != 2:
                raise ValueError("For 'Scan', loop_func must return a tuple of two elements (carry, y), but "
                                 f"got {type(out).__name__}")
            carry, y = out
            ys.append(y)
        return carry, ys


__all__ = ["ForiLoop", "Scan", "WhileLoop", "cond", "fori_loop", "scan", "while_loop"]
