"""Cumulative primitives beyond cumsum: cumprod, cummax / cummin (values and indices) and logcumsumexp.

ONNX has a CumSum node only; the others are lowered as one ONNX Scan along the axis, whose body carries
the running value (and the running index)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from cellonnx import dtypes
from cellonnx.ops.prims._util import is_float_dtype, norm_axis, to_tensor
from cellonnx.ops.prims.math import cast, div, exp, mul, sub
from cellonnx.ops.prims.sort import CumSum
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def scan_lower(g: Any, x: str, axis: int, rank: int, elem: int, states: Sequence[tuple[str, int, int]],
               body: Callable[[Any, list[str], str], tuple[list[str], list[str]]],
               scan_out_types: Sequence[int]) -> tuple[str, ...]:
    """One ONNX Scan over ``x`` along ``axis``.

    Args:
        x: the scanned value (rank ``rank``, ONNX element type ``elem``).
        states: (initial value, element type, rank) of each carried state.
        body: ``body(sub_builder, state_names, slice_name) -> (new states, per-step outputs)``.
        scan_out_types: the element types of the per-step outputs (stacked along ``axis``).
    Returns:
        the final states, then the stacked outputs.
    """
    sub = g.child(g.fresh("scan_body"))
    s_in = [sub.fresh(f"{sub.name}_state{i}") for i in range(len(states))]
    x_in = sub.fresh(f"{sub.name}_slice")
    sub.inputs = [sub.subgraph_io(n, t, r) for n, (_, t, r) in zip(s_in, states)]
    sub.inputs.append(sub.subgraph_io(x_in, elem, rank - 1))
    new_states, outs = body(sub, s_in, x_in)
    out_names = []
    for i, v in enumerate([*new_states, *outs]):
        name = sub.fresh(f"{sub.name}_out{i}")
        sub.nodes.append(helper.make_node("Identity", [v], [name], name=sub.fresh(f"{sub.name}/Identity")))
        out_names.append(name)
    types = [t for _, t, _ in states] + list(scan_out_types)
    ranks = [r for _, _, r in states] + [rank - 1] * len(scan_out_types)
    sub.outputs = [sub.subgraph_io(n, t, r) for n, t, r in zip(out_names, types, ranks)]
    n_out = len(states) + len(scan_out_types)
    result = g.op("Scan", *[s for s, _, _ in states], x, outputs=n_out, body=sub.graph(), num_scan_inputs=1,
                  scan_input_axes=[axis], scan_output_axes=[axis] * len(scan_out_types))
    return (result,) if n_out == 1 else tuple(result)


def _first_slice(g: Any, x: str, axis: int) -> str:
    return g.op("Gather", x, g.const(np.asarray(0, np.int64)), axis=axis)


def _filled_slice(g: Any, x: str, axis: int, value: Any, dtype: Any) -> str:
    """A slice of ``x`` along ``axis`` (its shape) filled with ``value``."""
    return g.op("ConstantOfShape", g.op("Shape", _first_slice(g, x, axis)),
                value=numpy_helper.from_array(np.asarray([value], dtype=dtype)))


def _along(x: np.ndarray, axis: int) -> Any:
    """Index helper: the slice at position i along ``axis``."""
    return lambda i: (slice(None),) * axis + (i,)


class CumProd(Op):
    save_output = True

    def forward(self, x, *, axis):
        return np.cumprod(x, axis=axis, dtype=x.dtype)

    def backward(self, ctx, g, *, axis):
        # d out_j / d x_i = out_j / x_i for j >= i: a reverse cumulative sum of g * out, over x (inputs
        # without zeros, as MindSpore's gradient)
        x = ctx.inputs[0]
        rev = CumSum.apply(mul(g, ctx.out), axis=axis, exclusive=False, reverse=True)
        return (div(rev, x),)

    def lower(self, g, x, *, axis):
        t = g.in_tensors[0]
        elem = dtypes.dtype(t._data.dtype).onnx
        ones = _filled_slice(g, x, axis, 1, t._data.dtype)

        def body(sub: Any, s: list[str], xi: str) -> tuple[list[str], list[str]]:
            p = sub.op("Mul", s[0], xi)
            return [p], [p]

        return scan_lower(g, x, axis, t.ndim, elem, [(ones, elem, t.ndim - 1)], body, [elem])[1]


class CumExtreme(Op):
    """Running maximum (``largest``) or minimum and the index where it was reached: ties move the index
    forward, and a NaN, once met, stays (as MindSpore's kernels do)."""

    n_outputs = 2
    save_output = True  # backward scatters into the positions of the indices output

    def forward(self, x, *, axis, largest, index_dtype):
        at = _along(x, axis)
        values = np.empty_like(x)
        index = np.empty(x.shape, np.int64)
        best = x[at(0)].copy()
        best_i = np.zeros(best.shape, np.int64)
        floats = x.dtype.kind == "f"
        for i in range(x.shape[axis]):
            xi = x[at(i)]
            better = xi >= best if largest else xi <= best
            if floats:
                better = ~np.isnan(best) & (better | np.isnan(xi))
            best = np.where(better, xi, best)
            best_i = np.where(better, i, best_i)
            values[at(i)] = best
            index[at(i)] = best_i
        return values, index.astype(index_dtype)

    def backward(self, ctx, g, gi, *, axis, largest, index_dtype):
        from cellonnx.ops.prims.creation import zeros_like
        from cellonnx.ops.prims.scatter import ScatterElementsAdd
        x = ctx.inputs[0]
        idx = cast(ctx.node.output(1), np.int64)
        return (ScatterElementsAdd.apply(zeros_like(x), idx, g, axis=axis),)

    def lower(self, g, x, *, axis, largest, index_dtype):
        t = g.in_tensors[0]
        elem = dtypes.dtype(t._data.dtype).onnx
        floats = is_float_dtype(t._data.dtype)
        first = _first_slice(g, x, axis)
        zero_i = _filled_slice(g, x, axis, 0, np.int64)
        step0 = g.const(np.asarray(0, np.int64))

        def body(sub: Any, s: list[str], xi: str) -> tuple[list[str], list[str]]:
            best, best_i, step = s
            better = sub.op("GreaterOrEqual" if largest else "LessOrEqual", xi, best)
            if floats:
                better = sub.op("And", sub.op("Not", sub.op("IsNaN", best)),
                                sub.op("Or", better, sub.op("IsNaN", xi)))
            nb = sub.op("Where", better, xi, best)
            ni = sub.op("Where", better, sub.op("Expand", step, sub.op("Shape", best_i)), best_i)
            nstep = sub.op("Add", step, sub.const(np.asarray(1, np.int64)))
            return [nb, ni, nstep], [nb, sub.op("Cast", ni, to=dtypes.dtype(index_dtype).onnx)]

        rank = t.ndim
        out = scan_lower(g, x, axis, rank, elem,
                         [(first, elem, rank - 1), (zero_i, TensorProto.INT64, rank - 1),
                          (step0, TensorProto.INT64, 0)],
                         body, [elem, dtypes.dtype(index_dtype).onnx])
        return out[3], out[4]


class LogCumSumExp(Op):
    save_output = True

    def forward(self, x, *, axis):
        with np.errstate(invalid="ignore"):
            return np.logaddexp.accumulate(x, axis=axis, dtype=x.dtype)

    def backward(self, ctx, g, *, axis):
        # d out_j / d x_i = exp(x_i - out_j) for j >= i: exp(x_i - m) * reverse-cumsum(g_j exp(m - out_j)),
        # shifted by m, the maximum of x along the axis, to keep the exponentials in range
        from cellonnx.autograd.tape import no_grad
        from cellonnx.ops.prims.reduce import ReduceMax
        x = ctx.inputs[0]
        with no_grad():
            m = ReduceMax.apply(x, axes=(axis,), keep_dims=True)
        rev = CumSum.apply(mul(g, exp(sub(m, ctx.out))), axis=axis, exclusive=False, reverse=True)
        return (mul(exp(sub(x, m)), rev),)

    def lower(self, g, x, *, axis):
        t = g.in_tensors[0]
        elem = dtypes.dtype(t._data.dtype).onnx
        neg_inf = _filled_slice(g, x, axis, -np.inf, t._data.dtype)

        def body(sub: Any, s: list[str], xi: str) -> tuple[list[str], list[str]]:
            m = sub.op("Max", s[0], xi)
            low = sub.op("Min", s[0], xi)
            # max + log(1 + exp(min - max)); min - max is NaN only when both are -inf (kept as -inf)
            d = sub.op("Sub", low, m)
            d = sub.op("Where", sub.op("IsNaN", d), sub.const(np.asarray(-np.inf, t._data.dtype)), d)
            one = sub.const(np.asarray(1, t._data.dtype))
            v = sub.op("Add", m, sub.op("Log", sub.op("Add", one, sub.op("Exp", d))))
            return [v], [v]

        return scan_lower(g, x, axis, t.ndim, elem, [(neg_inf, elem, t.ndim - 1)], body, [elem])[1]


# ---------------------------------------------------------------- functional API (MindSpore names)
def cumprod(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """The cumulative product along ``dim``; integer and bool inputs accumulate in int64 (as MindSpore).

    Args:
        input (Tensor): the input.
        dim (int): the axis.
        dtype (mindspore.dtype, optional): cast ``input`` to it first. Default None.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> print(ops.cumprod(x, dim=0))
        [ 1.  2.  6. 24.]
    """
    x = to_tensor(input)
    if dtype is not None:
        x = cast(x, dtype)
    elif x._data.dtype.kind in "iub":
        x = cast(x, np.int64)
    if x.ndim == 0:
        return x
    return CumProd.apply(x, axis=norm_axis(dim, x.ndim, "cumprod"))


def _cum_extreme(input: Tensor, axis: int, largest: bool, index_dtype: Any, op: str) -> tuple[Tensor, Tensor]:
    x = to_tensor(input)
    if x.ndim == 0:
        raise ValueError(f"{op}: input must have at least one dimension")
    return CumExtreme.apply(x, axis=norm_axis(axis, x.ndim, op), largest=largest, index_dtype=index_dtype)


def cummax(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:
    """The running maximum along ``axis`` and the (int64) index where each was reached.

    Returns:
        tuple (values, indices): ties take the later index; a NaN propagates with its own index.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 3.0, 2.0, 5.0]), ms.float32)
        >>> values, indices = ops.cummax(x, axis=0)
        >>> print(values)
        [1. 3. 3. 5.]
        >>> print(indices)
        [0 1 1 3]
    """
    return _cum_extreme(input, axis, True, np.dtype(np.int64), "cummax")


def cummin(input: Tensor, axis: int) -> tuple[Tensor, Tensor]:
    """The running minimum along ``axis`` and the index where each was reached (int32, as MindSpore).

    Returns:
        tuple (values, indices): ties take the later index; a NaN propagates with its own index.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([4.0, 3.0, 5.0, 1.0]), ms.float32)
        >>> values, indices = ops.cummin(x, axis=0)
        >>> print(values)
        [4. 3. 3. 1.]
        >>> print(indices)
        [0 1 1 3]
    """
    return _cum_extreme(input, axis, False, np.dtype(np.int32), "cummin")


def logcumsumexp(input: Tensor, axis: int) -> Tensor:
    """``log(cumsum(exp(input), axis))`` computed without overflow.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.0, 0.0, 0.0]), ms.float32)
        >>> print(ops.logcumsumexp(x, 0).asnumpy().round(4))
        [0.     0.6931 1.0986]
    """
    from cellonnx.ops.prims.math import _floatify
    x = _floatify(input)
    if x.ndim == 0:
        return x
    return LogCumSumExp.apply(x, axis=norm_axis(axis, x.ndim, "logcumsumexp"))


__all__ = ["cummax", "cummin", "cumprod", "logcumsumexp"]
