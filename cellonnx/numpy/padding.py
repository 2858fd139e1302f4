"""pad, with NumPy's modes (mindspore.numpy.array_creations).

The modes that copy elements (edge, reflect, symmetric, wrap) gather along each axis at the source positions
NumPy's pad gives an index range; the odd reflections, which are linear in the input, apply NumPy's padding
of an identity matrix; the statistic and ramp modes are computed axis by axis, as NumPy does.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.graph.symint import is_symbolic, sym_max, sym_min
from cellonnx.graph.trace import require_static
from cellonnx.numpy._utils import cast, slice_axis, to_tensor
from cellonnx.numpy.indexing import apply_along_axis
from cellonnx.numpy.manipulation import concatenate, moveaxis
from cellonnx.ops.prims.index import Pad
from cellonnx.tensor import Tensor

_MODES = ("constant", "maximum", "minimum", "mean", "median", "edge", "wrap", "linear_ramp", "symmetric",
          "reflect", "empty")


def _pairs(values: Any, ndim: int, what: str) -> tuple[tuple[Any, Any], ...]:
    """``values`` broadcast to one (before, after) pair per axis."""
    if not isinstance(values, (int, float, list, tuple, Tensor, np.ndarray, np.number)):
        raise TypeError(f"pad: {what} must be an int, list, tuple or Tensor, got {type(values).__name__}")
    arr = np.asarray(values.asnumpy() if isinstance(values, Tensor) else values)
    if arr.shape == ():
        return ((arr.item(), arr.item()),) * ndim
    if arr.shape == (1,):
        return ((arr[0].item(), arr[0].item()),) * ndim
    if arr.shape == (2,):
        return ((arr[0].item(), arr[1].item()),) * ndim
    if arr.shape == (1, 2):
        return ((arr[0, 0].item(), arr[0, 1].item()),) * ndim
    if arr.shape == (ndim, 2):
        return tuple((row[0].item(), row[1].item()) for row in arr)
    raise ValueError(f"pad: {what} of shape {arr.shape} cannot be broadcast to {(ndim, 2)}")


def _one_axis(x: Tensor, axis: int, before: int, after: int, value: Any) -> Tensor:
    pads = [0] * (2 * x.ndim)
    pads[axis], pads[x.ndim + axis] = before, after
    return Pad.apply(x, pads=tuple(pads), mode="constant", value=value)


def _constant(x: Tensor, widths: tuple, values: tuple) -> Tensor:
    flat = {v for pair in values for v in pair}
    if len(flat) == 1:  # one value everywhere: one Pad node
        value = flat.pop()
        pads = tuple(int(b) for b, _ in widths) + tuple(int(a) for _, a in widths)
        return Pad.apply(x, pads=pads, mode="constant", value=np.asarray(value).astype(x._data.dtype).item())
    for axis, ((b, a), (vb, va)) in enumerate(zip(widths, values)):  # axis by axis: later axes fill corners
        dt = x._data.dtype
        if b:
            x = _one_axis(x, axis, int(b), 0, np.asarray(vb).astype(dt).item())
        if a:
            x = _one_axis(x, axis, 0, int(a), np.asarray(va).astype(dt).item())
    return x


def _dynamic_source(n: Any, before: int, after: int, mode: str) -> Tensor:
    """The source index of each element of an axis of dynamic size ``n`` padded by ``before`` / ``after`` in
    ``mode``, computed in the graph: positions -before .. n + after - 1 clamped (edge), taken modulo n (wrap)
    or folded back periodically (reflect: period 2n - 2, symmetric: 2n), as NumPy pads wider than the axis."""
    pos = F.sub(F.cast(F.arange(0, n + before + after, 1), np.int64), before)

    def size(v: Any) -> Tensor:  # a SymInt read at run time, as an int64 scalar
        return F.cast(Tensor(v), np.int64)

    if mode == "edge":
        return F.minimum(F.maximum(pos, 0), size(n - 1))
    if mode == "wrap":
        return F.floor_mod(pos, size(n))
    period = sym_max(2 * n - 2, 1) if mode == "reflect" else 2 * n
    m = F.floor_mod(pos, size(period))
    back = F.sub(size(period), m) if mode == "reflect" else F.sub(size(period - 1), m)
    return F.where(F.greater_equal(m, size(n)), back, m)


def _gathered(x: Tensor, widths: tuple, mode: Any) -> Tensor:
    for axis, (b, a) in enumerate(widths):
        if b or a:
            if is_symbolic(x.shape[axis]) and mode in ("edge", "wrap", "reflect", "symmetric"):
                x = F.gather(x, _dynamic_source(x.shape[axis], int(b), int(a), mode), axis)
                continue
            require_static(x.shape[axis], f"pad (mode {mode!r}) picks each element's source by the size and")
            if int(x.shape[axis]) == 0:
                raise ValueError(f"pad: cannot pad the empty axis {axis} in mode {mode!r}")
            source = np.pad(np.arange(int(x.shape[axis])), (int(b), int(a)), mode=mode)
            x = F.gather(x, Tensor(source.astype(np.int64)), axis)
    return x


def _odd(x: Tensor, widths: tuple, mode: Any) -> Tensor:
    for axis, (b, a) in enumerate(widths):
        if b or a:
            require_static(x.shape[axis], f"pad (mode {mode!r}) weighs each element by the axis' size and")
            n = int(x.shape[axis])
            weights = np.pad(np.eye(n), ((int(b), int(a)), (0, 0)), mode=mode, reflect_type="odd")
            work = x if x.dtype.is_floating_point else cast(x, np.float64)
            moved = moveaxis(work, axis, -1)
            out = F.matmul(moved, Tensor(weights.T.astype(work._data.dtype)))
            x = cast(moveaxis(out, -1, axis), x.dtype)
    return x


def _ramp(x: Tensor, widths: tuple, ends: tuple) -> Tensor:
    dt = x._data.dtype
    work = x if x.dtype.is_floating_point else cast(x, np.float32)
    for axis, ((b, a), (eb, ea)) in enumerate(zip(widths, ends)):
        parts = []
        shape = [1] * work.ndim
        if b:
            shape[axis] = int(b)
            edge = slice_axis(work, axis, 0, 1)
            t = Tensor((np.arange(int(b)) / int(b)).reshape(shape).astype(work._data.dtype))
            parts.append(F.add(F.mul(F.sub(edge, float(eb)), t), float(eb)))  # linspace(end, edge, b, no end)
        parts.append(work)
        if a:
            shape[axis] = int(a)
            edge = slice_axis(work, axis, -1, None)
            t = Tensor((np.arange(1, int(a) + 1) / int(a)).reshape(shape).astype(work._data.dtype))
            parts.append(F.add(F.mul(F.sub(float(ea), edge), t), edge))  # linspace(edge, end, a + 1)[1:]
        work = concatenate(parts, axis) if len(parts) > 1 else work
    return cast(work, dt)


def _statistic(x: Tensor, widths: tuple, stat_length: Any, mode: str) -> Tensor:
    if mode == "median":
        raise NotImplementedError("pad: the median mode is not implemented")
    lengths = _pairs(stat_length, x.ndim, "stat_length") if stat_length is not None else None
    for axis, (b, a) in enumerate(widths):
        n = x.shape[axis]  # a dynamic size stays a graph value
        lb, la = (n, n) if lengths is None else (sym_min(int(lengths[axis][0]), n),
                                                 sym_min(int(lengths[axis][1]), n))
        parts = []
        edges = ((int(b), slice_axis(x, axis, 0, lb)), (None, x), (int(a), slice_axis(x, axis, n - la, n)))
        for count, segment in edges:
            if count is None:
                parts.append(segment)
                continue
            if not count:
                continue
            if mode == "maximum":
                stat = F.amax(segment, axis, True)
            elif mode == "minimum":
                stat = F.amin(segment, axis, True)
            else:
                stat = F.mean(segment if segment.dtype.is_floating_point else cast(segment, np.float64), axis,
                              True)
                stat = cast(stat, x.dtype)
            reps = [1] * x.ndim
            reps[axis] = count
            parts.append(F.tile(stat, tuple(reps)))
        x = concatenate(parts, axis) if len(parts) > 1 else x
    return x


def _function(x: Tensor, widths: tuple, func: Callable[..., Any], kwargs: dict) -> Tensor:
    x = _constant(x, widths, ((0, 0),) * x.ndim)
    for axis in range(x.ndim):
        def row(vector: Tensor, axis: int = axis) -> Tensor:
            result = func(vector, widths[axis], axis, kwargs)
            # NumPy's padding functions fill ``vector`` in place and return None
            return vector if result is None else to_tensor(result)
        x = apply_along_axis(row, axis, x)
    return x


def pad(arr: Any, pad_width: Any, mode: Any = "constant", stat_length: Any = None, constant_values: Any = 0,
        end_values: Any = 0, reflect_type: str = "even", **kwargs: Any) -> Tensor:
    """Pads a tensor.

    Args:
        arr (Tensor): input (a scalar is returned as it is).
        pad_width (Union[int, tuple, list]): (before, after) amounts per axis, one pair for all axes, or one
            number for everything.
        mode (Union[str, Callable]): 'constant', 'edge', 'linear_ramp', 'maximum', 'mean', 'minimum',
            'reflect', 'symmetric', 'wrap', 'empty' (zeros here), or a function
            ``f(vector, iaxis_pad_width, iaxis, kwargs)`` that fills (or returns) each padded 1-D vector.
            Default: 'constant'.
        stat_length (Union[int, tuple, list], optional): how many edge values the statistic modes use.
            Default: the whole axis.
        constant_values (Union[int, float, tuple, list]): the values of 'constant'. Default: 0.
        end_values (Union[int, float, tuple, list]): the ramp ends of 'linear_ramp'. Default: 0.
        reflect_type (str): 'even' (plain reflection) or 'odd' (reflected about the edge value) for 'reflect'
            and 'symmetric'. Default: 'even'.
        **kwargs: passed to a function ``mode``.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 2], [3, 4]])
        >>> print(mnp.pad(x, ((1, 0), (0, 1))))
        [[0 0 0]
         [1 2 0]
         [3 4 0]]
    """
    x = to_tensor(arr)
    if x.ndim == 0:
        return x
    widths = _pairs(pad_width, x.ndim, "pad_width")
    if any(int(b) < 0 or int(a) < 0 for b, a in widths):
        raise ValueError(f"pad: pad widths must be non-negative, got {widths}")
    if callable(mode):
        return _function(x, widths, mode, kwargs)
    if mode not in _MODES:
        raise ValueError(f"pad: mode must be one of {_MODES} or a function, got {mode!r}")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"pad: reflect_type must be 'even' or 'odd', got {reflect_type!r}")
    if mode in ("constant", "empty"):
        values = ((0, 0),) * x.ndim if mode == "empty" else _pairs(constant_values, x.ndim, "constant_values")
        return _constant(x, widths, values)
    if mode in ("maximum", "minimum", "mean", "median"):
        return _statistic(x, widths, stat_length, mode)
    if mode == "linear_ramp":
        return _ramp(x, widths, _pairs(end_values, x.ndim, "end_values"))
    if mode in ("reflect", "symmetric") and reflect_type == "odd":
        return _odd(x, widths, mode)
    return _gathered(x, widths, mode)

__all__ = ["pad"]
