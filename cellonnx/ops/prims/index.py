"""Data movement: slice, concat / split, tile, pad and the functions built on them (stack, chunk, unbind,
narrow, flip, roll, repeat_interleave, masked_fill).

Gathers and scatters live in ``scatter.py``; Tensor indexing (``x[...]``, ``x[...] = v``) and
``strided_slice`` in ``getitem.py``.
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from cellonnx.graph.symint import is_symbolic
from cellonnx.ops.prims._util import as_dim, norm_axis, result_dtype, to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

I64_MAX, I64_MIN = 2 ** 63 - 1, -(2 ** 63)


def _symbolic(v: Any) -> bool:
    return hasattr(v, "onnx_name")


# ---------------------------------------------------------------- primitives
class Slice(Op):
    """``x[start:stop:step]`` on the given axes (a view). ``None`` bounds are open; bounds may be SymInts."""

    def forward(self, x, *, axes, starts, ends, steps):
        index = [builtins.slice(None)] * x.ndim
        for a, b, e, s in zip(axes, starts, ends, steps):
            index[a] = builtins.slice(b, e, s)
        return x[tuple(index)]

    def backward(self, ctx, g, *, axes, starts, ends, steps):
        return (unslice(g, ctx.inputs[0], axes, starts, ends, steps),)

    def lower(self, g, x, *, axes, starts, ends, steps):
        # open bounds become INT64 sentinels, so a slice to the end never bakes a (possibly dynamic) size
        st = [(0 if s > 0 else I64_MAX) if b is None else b for b, s in zip(starts, steps)]
        en = [(I64_MAX if s > 0 else I64_MIN) if e is None else e for e, s in zip(ends, steps)]
        out = g.op("Slice", x, g.shape_value(st), g.shape_value(en), g.i64(list(axes)), g.i64(list(steps)))
        shape = g.in_tensors[0].shape
        unit = _unit_axes(shape, g.out_tensors[0]._data.shape, axes, starts, ends, steps)
        if unit:  # one index of a dynamic axis (x[0:1], x[-1:]): size 1 in the graph's shapes too, so what
            # broadcasts it back over the axis sums its gradient over the axis at every size
            out = g.op("Reshape", out, g.i64([1 if a in unit else 0 for a in range(len(shape))]))
        return out

    def check(self, x, *, axes, starts, ends, steps):
        if any(s == 0 for s in steps):
            return "slice step cannot be zero"
        return None


def _unit_axes(shape: tuple, out_shape: tuple, axes: Any, starts: Any, ends: Any, steps: Any) -> set[int]:
    """The dynamic axes of ``shape`` a slice takes one index of at every size that has that index
    (``[k:k+1]``, ``[-k:-k+1]``, ``[-1:]``)."""
    unit = set()
    for a, b, e, s in zip(axes, starts, ends, steps):
        if s != 1 or not _symbolic(shape[a]) or _symbolic(b) or _symbolic(e) or out_shape[a] != 1:
            continue
        b = 0 if b is None else int(b)
        if (b == -1 and e is None) or (e is not None and int(e) - b == 1 and (b >= 0 or int(e) < 0)):
            unit.add(a)
    return unit


class Pad(Op):
    """Pad (or, with negative amounts in constant mode, crop). ``pads`` is in ONNX order
    ``(begin_0, ..., begin_n, end_0, ..., end_n)``; mode is ``constant``, ``reflect`` or ``edge``."""

    def forward(self, x, *, pads, mode, value):
        nd = x.ndim
        before, after = pads[:nd], pads[nd:]
        if any(p < 0 for p in pads):
            x = x[tuple(builtins.slice(builtins.max(-int(b), 0), n - builtins.max(-int(a), 0))
                        for b, a, n in zip(before, after, x.shape))]
        widths = [(builtins.max(int(b), 0), builtins.max(int(a), 0)) for b, a in zip(before, after)]
        if mode != "constant":
            return np.pad(x, widths, mode=mode)
        out = np.full(tuple(n + b + a for n, (b, a) in zip(x.shape, widths)), value, dtype=x.dtype)
        out[tuple(builtins.slice(b, b + n) for n, (b, _) in zip(x.shape, widths))] = x
        return out

    def backward(self, ctx, g, *, pads, mode, value):
        if mode == "constant":  # crop what was added, put back (as zeros) what was cropped
            return (Pad.apply(g, pads=tuple(-p for p in pads), mode="constant", value=0),)
        x = ctx.inputs[0]
        nd = x.ndim
        for a in range(nd):
            b, e = int(pads[a]), int(pads[nd + a])
            if b or e:
                g = _fold_pad_grad(g, a, b, e, int(x._data.shape[a]), mode)
        return (g,)

    def lower(self, g, x, *, pads, mode, value):
        if mode == "constant":
            cval = g.const(np.asarray(value, dtype=g.in_tensors[0]._data.dtype))
            return g.op("Pad", x, g.shape_value(list(pads)), cval, mode="constant")
        return g.op("Pad", x, g.shape_value(list(pads)), mode=mode)

    def check(self, x, *, pads, mode, value):
        nd = x.ndim
        for a in range(nd):
            b, e = int(pads[a]), int(pads[nd + a])
            if mode != "constant" and (b < 0 or e < 0):
                return f"{mode} padding cannot be negative (axis {a}: {b}, {e})"
            if mode == "reflect" and (b >= x.shape[a] or e >= x.shape[a]):
                return f"reflect padding ({b}, {e}) must be smaller than the size {x.shape[a]} of axis {a}"
            if mode == "edge" and x.shape[a] == 0:
                return f"replicate padding of the empty axis {a}"
        return None


class Concat(Op):
    def forward(self, *xs, axis):
        return np.concatenate(xs, axis=axis)

    def backward(self, ctx, g, *, axis):
        sizes = tuple(t.shape[axis] for t in ctx.inputs)
        return Split.apply(g, axis=axis, sizes=sizes)

    def lower(self, g, *xs, axis):
        return g.op("Concat", *xs, axis=axis)

    def check(self, *xs, axis):
        return f"tensors of shapes {[x.shape for x in xs]} cannot be concatenated along axis {axis} " \
               "(all dims but the axis must match)"


class Split(Op):
    """Split into pieces of the given sizes along an axis; the number of outputs is ``len(sizes)``."""

    n_outputs = 2  # variable: forward always returns a tuple, one array per size

    def forward(self, x, *, axis, sizes):
        cuts = np.cumsum([int(s) for s in sizes])[:-1]
        return tuple(np.split(x, cuts, axis=axis))

    def backward(self, ctx, *grads, axis, sizes):
        return (Concat.apply(*grads, axis=axis),)

    def lower(self, g, x, *, axis, sizes):
        return g.op("Split", x, g.shape_value(list(sizes)), axis=axis, outputs=len(sizes))


class Tile(Op):
    def forward(self, x, *, reps):
        return np.tile(x, reps)

    def backward(self, ctx, g, *, reps):
        from cellonnx.ops.prims.reduce import reduce_sum
        from cellonnx.ops.prims.shape import reshape
        x = ctx.inputs[0]
        shape = x.shape
        split = [d for r, n in zip(reps, shape) for d in (r, n)]
        summed = reduce_sum(reshape(g, tuple(split)), tuple(range(0, 2 * len(reps), 2)))
        return (reshape(summed, shape),)

    def lower(self, g, x, *, reps):
        return g.op("Tile", x, g.shape_value(list(reps)))


# ---------------------------------------------------------------- gradient helpers
def flip_axis(x: Tensor, axis: int) -> Tensor:
    return Slice.apply(x, axes=(axis,), starts=(None,), ends=(None,), steps=(-1,))


def _dilate(x: Tensor, axis: int, step: int) -> Tensor:
    """Insert ``step - 1`` zeros between the elements along ``axis`` (length k -> (k-1)*step + 1)."""
    from cellonnx.ops.prims.shape import expand_dims, reshape
    shape = x.shape
    k = int(x._data.shape[axis])
    t = expand_dims(x, axis + 1)
    pads = [0] * (2 * t.ndim)
    pads[t.ndim + axis + 1] = step - 1
    t = Pad.apply(t, pads=tuple(pads), mode="constant", value=0)
    t = reshape(t, tuple(shape[:axis]) + (k * step,) + tuple(shape[axis + 1:]))
    return Slice.apply(t, axes=(axis,), starts=(0,), ends=((k - 1) * step + 1,), steps=(1,))


def unslice(r: Tensor, x: Tensor, axes: Any, starts: Any, ends: Any, steps: Any) -> Tensor:
    """The inverse placement of a slice: a tensor of ``x``'s shape holding ``r`` (= slice of something of
    that shape) where the slice took it from, zeros elsewhere. Unit-step bounds measured from the end of a
    dynamic axis stay dynamic."""
    from cellonnx.ops.prims.creation import zeros_like
    shape, cshape = x.shape, x._data.shape
    nd = x.ndim
    before: list[Any] = [0] * nd
    after: list[Any] = [0] * nd
    out = r
    for a, b, e, s in zip(axes, starts, ends, steps):
        runtime = _runtime_bounds(shape[a], b, e) if s == 1 else None
        if runtime is not None:
            before[a], after[a] = runtime
            continue
        nc = int(cshape[a])
        bound = builtins.slice(None if b is None else int(b), None if e is None else int(e), int(s))
        lo, hi, st = bound.indices(nc)
        k = len(range(lo, hi, st))
        if k == 0:
            return zeros_like(x)
        if st < 0:  # reverse, then place as the increasing slice starting at the lowest index picked
            out = flip_axis(out, a)
            lo, st = lo + st * (k - 1), -st
        span = (k - 1) * st + 1
        if st > 1:
            out = _dilate(out, a, st)
        pb, pa = lo, nc - lo - span
        n = shape[a]
        if s == 1 and _symbolic(n):
            if b is not None and int(b) < 0 and nc + int(b) >= 0:
                pb = n + int(b)
            if e is None:
                pa = 0
            elif 0 <= int(e) <= nc:
                pa = n - e
            elif int(e) < 0 and nc + int(e) >= lo:
                pa = -int(e)
        if b is not None and _symbolic(b) and s == 1 and 0 <= int(b) <= nc:
            pb = b
        before[a], after[a] = pb, pa
    if any(_symbolic(p) or p != 0 for p in before + after):
        out = Pad.apply(out, pads=tuple(before + after), mode="constant", value=0)
    return out


def _clamped(i: Any, n: Any) -> Any:
    """Where bound ``i`` (a constant, or a non-negative SymInt) of a unit-step slice falls on an axis of
    size ``n`` at run time, clamped to [0, n] as NumPy and ONNX Slice clamp it."""
    from cellonnx.graph.symint import sym_max, sym_min
    return sym_min(i, n) if _symbolic(i) or int(i) >= 0 else sym_max(n + int(i), 0)


def _runtime_bounds(n: Any, b: Any, e: Any) -> tuple[Any, Any] | None:
    """Zeros before and after a unit-step slice ``[b:e]`` of a dynamic axis of size ``n`` to put its
    gradient back, computed from the axis' size at run time: a graph traced at batch 4 that takes ``x[0:2]``
    and runs at batch 1 sliced one row, not two. None where the axis is static or a bound is a SymInt that
    may be negative (placed as traced)."""
    if not _symbolic(n) or any(_symbolic(v) and not v.nonneg for v in (b, e)):
        return None
    lo = 0 if b is None or (not _symbolic(b) and int(b) == 0) else _clamped(b, n)
    if e is None:
        return lo, 0
    from cellonnx.graph.symint import sym_max
    hi = _clamped(e, n)
    return lo, n - (hi if isinstance(lo, int) and not _symbolic(lo) and lo == 0 else sym_max(hi, lo))


def _fold_pad_grad(g: Tensor, axis: int, b: int, e: int, n: int, mode: str) -> Tensor:
    """Gradient of reflect / edge padding along one axis: the padded border's gradient is added back onto
    the elements it copied."""
    from cellonnx.ops.prims.math import add
    from cellonnx.ops.prims.reduce import reduce_sum

    def part(start: int, stop: int) -> Tensor:
        return Slice.apply(g, axes=(axis,), starts=(start,), ends=(stop,), steps=(1,))

    def place(t: Tensor, lo: int, hi: int) -> Tensor:
        pads = [0] * (2 * t.ndim)
        pads[axis], pads[t.ndim + axis] = lo, hi
        return Pad.apply(t, pads=tuple(pads), mode="constant", value=0)

    out = part(b, b + n)
    if mode == "reflect":
        if b:
            out = add(out, place(flip_axis(part(0, b), axis), 1, n - 1 - b))
        if e:
            out = add(out, place(flip_axis(part(b + n, b + n + e), axis), n - 1 - e, 1))
    else:  # edge
        if b:
            out = add(out, place(reduce_sum(part(0, b), (axis,), keep_dims=True), 0, n - 1))
        if e:
            out = add(out, place(reduce_sum(part(b + n, b + n + e), (axis,), keep_dims=True), n - 1, 0))
    return out


# ---------------------------------------------------------------- functional API
def _seq(tensors: Any, op: str) -> list[Tensor]:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (tuple, list)):
        raise TypeError(f"{op}: expected a tuple or list of Tensors, got {type(tensors).__name__}")
    if not tensors:
        raise ValueError(f"{op}: needs at least one tensor")
    ts = [to_tensor(t) for t in tensors]
    target = ts[0]._data.dtype
    for t in ts[1:]:
        target = result_dtype(target, t._data.dtype)
    if any(t._data.dtype != target for t in ts):
        from cellonnx.ops.prims.math import cast
        ts = [cast(t, target) for t in ts]
    return ts


def concat(tensors: Any, axis: int = 0) -> Tensor:
    """Join tensors along an existing axis (dtypes are promoted to a common one).

    Args:
        tensors (tuple[Tensor]): tensors whose shapes agree except along ``axis``.
        axis (int): the axis to join along. Default: 0.

    Examples:
        >>> ops.concat((Tensor([[1.0]]), Tensor([[2.0]])), axis=1).shape
        (1, 2)
    """
    ts = _seq(tensors, "concat")
    nd = ts[0].ndim
    a = norm_axis(axis, nd, "concat")
    if any(t.ndim != nd for t in ts):
        raise ValueError(f"concat: all tensors must have the same rank, got shapes {[tuple(t.shape) for t in ts]}")
    if len(ts) == 1:
        return ts[0]
    return Concat.apply(*ts, axis=a)


cat = concat


def stack(tensors: Any, axis: int = 0) -> Tensor:
    """Join tensors of one shape along a new axis.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1, 2]), ms.int32)
        >>> b = Tensor(np.array([3, 4]), ms.int32)
        >>> print(ops.stack([a, b]))
        [[1 2]
         [3 4]]
        >>> print(ops.stack([a, b], axis=1))
        [[1 3]
         [2 4]]
    """
    from cellonnx.ops.prims.shape import expand_dims
    ts = _seq(tensors, "stack")
    shapes = {tuple(t._data.shape) for t in ts}
    if len(shapes) > 1:
        raise ValueError(f"stack: all tensors must have the same shape, got {sorted(shapes)}")
    a = norm_axis(axis, ts[0].ndim + 1, "stack")
    return concat([expand_dims(t, a) for t in ts], a)


def pieces_of(x: Tensor, axis: int, what: str) -> None:
    """Raise StaticDimRequired where ``axis`` of ``x`` is a dynamic dim of the graph being traced: ``what``
    makes a number of pieces that depends on its size, and a tuple's length cannot follow a graph value (a
    compiled step then traces that axis static). A dim the tracer knows static is a plain int and passes; so
    does one shape inference could not follow to a graph input (a Loop's output): Split's sizes then hold
    the example's, which onnxruntime checks against the axis at every run."""
    __tracebackhide__ = True   # the refusal names the op that called this (graph/trace.py _where)
    dim = x.shape[axis]
    if getattr(dim, "declared", False):
        from cellonnx.graph.trace import require_static
        require_static(dim, f"{what} along axis {axis}", pieces=True)


def split(tensor: Tensor, split_size_or_sections: Any, axis: int = 0) -> tuple[Tensor, ...]:
    """Split into chunks along ``axis``: an int is the size of each chunk (the last may be smaller), a
    tuple/list gives each chunk's size (they must add up to the axis size).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(10), ms.int32)
        >>> parts = ops.split(x, 4)
        >>> [p.shape for p in parts]
        [(4,), (4,), (2,)]
        >>> print(parts[-1])
        [8 9]
        >>> [p.shape for p in ops.split(x, [3, 7])]
        [(3,), (7,)]
    """
    tensor = to_tensor(tensor)
    a = norm_axis(axis, tensor.ndim, "split")
    n = int(tensor._data.shape[a])
    if isinstance(split_size_or_sections, (int, np.integer)) and not isinstance(split_size_or_sections, bool):
        size = int(split_size_or_sections)
        if size <= 0:
            raise ValueError(f"split: split_size_or_sections must be positive, got {size}")
        pieces_of(tensor, a, f"a split into pieces of {size}")
        sizes = [size] * (n // size) + ([n % size] if n % size else [])
    elif isinstance(split_size_or_sections, (tuple, list)):
        sizes = [as_dim(s) for s in split_size_or_sections]  # sizes made of a dynamic dim stay graph values
        if sum(int(s) for s in sizes) != n or any(int(s) < 0 for s in sizes):
            raise ValueError(f"split: sections {tuple(int(s) for s in sizes)} must be non-negative and add "
                             f"up to the size {n} of axis {a}")
    else:
        raise TypeError(f"split: split_size_or_sections must be an int, tuple or list, got "
                        f"{type(split_size_or_sections).__name__}")
    if len(sizes) <= 1:
        return (tensor,)
    return Split.apply(tensor, axis=a, sizes=tuple(sizes))


def chunk(input: Tensor, chunks: int, axis: int = 0) -> tuple[Tensor, ...]:
    """Split into ``chunks`` pieces of ``ceil(size / chunks)`` (fewer when the size runs out).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(6).reshape(2, 3), ms.float32)
        >>> first, second = ops.chunk(x, 2, axis=0)
        >>> print(second)
        [[3. 4. 5.]]
    """
    if chunks <= 0:
        raise ValueError(f"chunk: chunks must be positive, got {chunks}")
    a = norm_axis(axis, input.ndim, "chunk")
    if chunks == 1:
        return (input,)
    # pieces of ceil(n / chunks): how many there are depends on n (5 in 4 chunks gives 3)
    pieces_of(input, a, f"a chunk into {chunks}")
    n = int(input._data.shape[a])
    return split(input, builtins.max(-(-n // chunks), 1), a)


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices along ``dim``, with that dim removed.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(6).reshape(2, 3), ms.int32)
        >>> rows = ops.unbind(x, dim=0)
        >>> print(rows[1])
        [3 4 5]
    """
    from cellonnx.ops.prims.shape import squeeze
    a = norm_axis(dim, input.ndim, "unbind")
    pieces_of(input, a, "unbinding it")
    n = int(input._data.shape[a])
    parts = Split.apply(input, axis=a, sizes=(1,) * n) if n > 1 else (input,)
    return tuple(squeeze(p, a) for p in parts)


def tile(input: Tensor, dims: Any) -> Tensor:
    """Repeat ``input`` ``dims[i]`` times along axis i; shorter ``dims`` are padded with 1s in front,
    a shorter input gets leading size-1 axes (MindSpore 2.3+).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> print(ops.tile(x, (1, 2)))
        [[1 2 1 2]
         [3 4 3 4]]
    """
    from cellonnx.ops.prims.shape import reshape
    input = to_tensor(input)
    reps = tuple(as_dim(d) for d in (dims if isinstance(dims, (tuple, list)) else (dims,)))
    if any(r < 0 for r in reps):
        raise ValueError(f"tile: dims must be non-negative, got {reps}")
    nd = input.ndim
    if len(reps) < nd:
        reps = (1,) * (nd - len(reps)) + reps
    elif len(reps) > nd:
        input = reshape(input, (1,) * (len(reps) - nd) + tuple(input.shape))
    if all(r == 1 for r in reps):
        return input
    return Tile.apply(input, reps=reps)


def repeat_interleave(input: Tensor, repeats: Any, axis: int | None = None) -> Tensor:
    """Repeat each element ``repeats`` times along ``axis`` (over the flattened tensor when None);
    ``repeats`` is an int or one count per element.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> print(ops.repeat_interleave(x, repeats=2, axis=0))
        [[1 2]
         [1 2]
         [3 4]
         [3 4]]
    """
    from cellonnx.ops.prims.shape import broadcast_to, expand_dims, reshape
    input = to_tensor(input)
    if axis is None:
        input, axis = reshape(input, (-1,)), 0
    a = norm_axis(axis, input.ndim, "repeat_interleave")
    if isinstance(repeats, Tensor):
        repeats = repeats._data.tolist()
    if isinstance(repeats, (tuple, list)) and len(repeats) == 1:
        repeats = repeats[0]
    if isinstance(repeats, (tuple, list)):
        n = int(input._data.shape[a])
        if len(repeats) != n:
            raise ValueError(f"repeat_interleave: {len(repeats)} repeat counts for an axis of size {n}")
        from cellonnx.ops.prims.scatter import gather
        index = Tensor._make(np.repeat(np.arange(n, dtype=np.int64), [int(r) for r in repeats]))
        return gather(input, index, a)
    r = as_dim(repeats)
    shape = tuple(input.shape)
    t = broadcast_to(expand_dims(input, a + 1), shape[:a + 1] + (r,) + shape[a + 1:])
    return reshape(t, shape[:a] + (shape[a] * r,) + shape[a + 1:])


def repeat_elements(x: Tensor, rep: int, axis: int = 0) -> Tensor:
    """Each slice of ``x`` along ``axis`` repeated ``rep`` times in place.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> print(ops.repeat_elements(x, rep=2, axis=1))
        [[1 1 2 2]
         [3 3 4 4]]
    """
    return repeat_interleave(x, rep, axis)


def _tensor_repeat(self: Tensor, repeats: Any, axis: int | None = None) -> Tensor:
    """``Tensor.repeat`` as in MindSpore: NumPy's repeat (element-wise), not PyTorch's tile."""
    return repeat_interleave(self, repeats, axis)


def pad(input_x: Tensor, padding: Any, mode: str = "constant", value: Any = None) -> Tensor:
    """Pad the last ``len(padding) // 2`` dims: ``padding`` = (left, right) of the last dim, then (top,
    bottom) of the one before, and so on. Modes: 'constant' (negative amounts crop), 'reflect',
    'replicate', 'circular'. ``value`` (default 0) is only for 'constant'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.pad(x, (1, 1)))
        [[0. 1. 2. 0.]
         [0. 3. 4. 0.]]
        >>> print(ops.pad(x, (0, 0, 1, 0), mode='constant', value=9.0))
        [[9. 9.]
         [1. 2.]
         [3. 4.]]
    """
    input_x = to_tensor(input_x)
    if isinstance(padding, Tensor):
        padding = padding._data.tolist()
    padding = list(padding)
    nd = input_x.ndim
    if len(padding) % 2 or len(padding) // 2 > nd:
        raise ValueError(f"pad: padding {tuple(padding)} must have an even length of at most 2 * {nd} "
                         f"(the rank of the input {tuple(input_x.shape)})")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise ValueError(f"pad: mode must be 'constant', 'reflect', 'replicate' or 'circular', got {mode!r}")
    if mode != "constant" and value is not None:
        raise ValueError(f"pad: value is only used with mode 'constant', got mode {mode!r} and value {value!r}")
    before: list[Any] = [0] * nd
    after: list[Any] = [0] * nd
    for i in range(len(padding) // 2):
        before[nd - 1 - i], after[nd - 1 - i] = padding[2 * i], padding[2 * i + 1]
    if all(not _symbolic(p) and int(p) == 0 for p in before + after):
        return input_x
    if mode == "circular":
        return _circular_pad(input_x, before, after)
    return Pad.apply(input_x, pads=tuple(before + after), mode="edge" if mode == "replicate" else mode,
                     value=0 if value is None else value)


def _circular_pad(x: Tensor, before: list, after: list) -> Tensor:
    for a, (b, e) in enumerate(zip(before, after)):
        b, e = int(b), int(e)
        n = int(x._data.shape[a])
        if b < 0 or e < 0 or b > n or e > n:
            raise ValueError(f"pad: circular padding ({b}, {e}) of axis {a} must be within 0..{n}")
        parts = []
        if b:
            parts.append(Slice.apply(x, axes=(a,), starts=(-b,), ends=(None,), steps=(1,)))  # the last b
        parts.append(x)
        if e:
            parts.append(Slice.apply(x, axes=(a,), starts=(0,), ends=(e,), steps=(1,)))
        x = concat(parts, a) if len(parts) > 1 else x
    return x


def slice(input_x: Tensor, begin: Any, size: Any) -> Tensor:
    """``input_x[begin[i] : begin[i] + size[i]]`` on every axis; a size of -1 takes the rest.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(12).reshape(3, 4), ms.int32)
        >>> print(ops.slice(x, (1, 0), (2, 3)))
        [[ 4  5  6]
         [ 8  9 10]]
    """
    input_x = to_tensor(input_x)
    begin, size = tuple(begin), tuple(size)
    nd = input_x.ndim
    if len(begin) != nd or len(size) != nd:
        raise ValueError(f"slice: begin {begin} and size {size} must both have one entry per axis of the "
                         f"input {tuple(input_x.shape)}")
    axes, starts, ends = [], [], []
    for a, (b, s) in enumerate(zip(begin, size)):
        n = int(input_x._data.shape[a])
        if int(b) < 0 or int(b) > n or (int(s) != -1 and (int(s) < 0 or int(b) + int(s) > n)):
            raise ValueError(f"slice: begin {int(b)} with size {int(s)} is out of range for axis {a} of size {n}")
        # the whole axis: nothing to slice (a size equal to a dynamic dim's example is not the whole axis)
        if int(b) == 0 and (int(s) == -1 or s == input_x.shape[a]):
            continue
        axes.append(a)
        starts.append(b)
        ends.append(None if int(s) == -1 else b + s)
    if not axes:
        return input_x
    return Slice.apply(input_x, axes=tuple(axes), starts=tuple(starts), ends=tuple(ends), steps=(1,) * len(axes))


def narrow(input: Tensor, axis: int, start: int, length: int) -> Tensor:
    """``length`` elements of ``axis`` from ``start``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(9).reshape(3, 3), ms.int32)
        >>> print(ops.narrow(x, 1, 1, 2))
        [[1 2]
         [4 5]
         [7 8]]
    """
    a = norm_axis(axis, input.ndim, "narrow")
    n = int(input._data.shape[a])
    if not 0 <= int(start) <= n or int(length) < 0 or int(start) + int(length) > n:
        raise ValueError(f"narrow: start {int(start)} and length {int(length)} do not fit axis {a} of size {n}")
    return Slice.apply(input, axes=(a,), starts=(start,), ends=(start + length,), steps=(1,))


def flip(input: Tensor, dims: Any) -> Tensor:
    """Reverse the order of elements along ``dims``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(6).reshape(2, 3), ms.int32)
        >>> print(ops.flip(x, (1,)))
        [[2 1 0]
         [5 4 3]]
    """
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    axes = tuple(sorted({norm_axis(d, input.ndim, "flip") for d in dims}))
    if not axes:
        return input
    return Slice.apply(input, axes=axes, starts=(None,) * len(axes), ends=(None,) * len(axes),
                       steps=(-1,) * len(axes))


def roll(input: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    """Rotate elements along ``dims`` by ``shifts`` (over the flattened tensor when ``dims`` is None).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0, 1, 2, 3, 4]), ms.int32)
        >>> print(ops.roll(x, shifts=2, dims=0))
        [3 4 0 1 2]
    """
    from cellonnx.ops.prims.shape import reshape
    if dims is None:
        shape = tuple(input.shape)
        return reshape(roll(reshape(input, (-1,)), shifts, 0), shape)
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(shifts) != len(dims):
        raise ValueError(f"roll: {len(shifts)} shifts for {len(dims)} dims")
    out = input
    for s, d in zip(shifts, dims):
        a = norm_axis(d, input.ndim, "roll")
        n = input.shape[a]  # a dynamic dim stays one: the shift modulo it is computed in the graph
        k = (s if is_symbolic(s) else int(s)) % n if n else 0
        if k or is_symbolic(k):
            tail = Slice.apply(out, axes=(a,), starts=(n - k,), ends=(None,), steps=(1,))
            head = Slice.apply(out, axes=(a,), starts=(0,), ends=(n - k,), steps=(1,))
            out = Concat.apply(tail, head, axis=a)
    return out


def masked_fill(input_x: Tensor, mask: Any, value: Any) -> Tensor:
    """``value`` where ``mask`` is True, ``input_x`` elsewhere (mask broadcasts against the input).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> mask = Tensor(np.array([True, False, True, False]), ms.bool_)
        >>> print(ops.masked_fill(x, mask, 0.0))
        [0. 2. 0. 4.]
    """
    from cellonnx.ops.prims.math import Where, _as_bool, cast
    from cellonnx.ops.prims.shape import broadcast_to
    input_x = to_tensor(input_x)
    v = to_tensor(value, input_x)
    if v._data.dtype != input_x._data.dtype:
        v = cast(v, input_x._data.dtype)
    m = _as_bool(mask)
    if tuple(np.broadcast_shapes(m._data.shape, input_x._data.shape)) != tuple(input_x._data.shape):
        raise ValueError(f"masked_fill: mask of shape {tuple(m.shape)} does not broadcast to the input's shape "
                         f"{tuple(input_x.shape)}")
    if tuple(m._data.shape) != tuple(input_x._data.shape):
        m = broadcast_to(m, input_x.shape)
    return Where.apply(m, v, input_x)


TENSOR_METHODS = {
    "tile": tile, "repeat": _tensor_repeat, "repeat_interleave": repeat_interleave, "split": split,
    "chunk": chunk, "unbind": unbind, "narrow": narrow, "flip": flip, "roll": roll, "masked_fill": masked_fill,
}

__all__ = ["cat", "chunk", "concat", "flip", "masked_fill", "narrow", "pad", "repeat_elements",
           "repeat_interleave", "roll", "slice", "split", "stack", "tile", "unbind"]
