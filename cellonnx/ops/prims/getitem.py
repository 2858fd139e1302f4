"""Tensor indexing with NumPy's rules: ``x[...]`` and ``x[...] = v``, plus strided_slice, masked_select and
nonzero.

- Basic indices (ints, slices with any step, None, Ellipsis) become one Slice, then Squeeze / Unsqueeze.
- Integer arrays (Tensors, lists, ndarrays; several broadcast together; ints beside them count as arrays,
  as in NumPy) become Gather for one array and GatherND (after moving the indexed axes first) for several;
  the result dims go where NumPy puts them.
- Boolean masks become the positions of their True entries. That shape depends on the data: fine eagerly and
  for constant masks, an error for a mask computed inside a traced graph.
- ``x[index] = v`` computes the new value with ops (a ScatterND over the flattened tensor at the positions
  ``index`` selects, or a Where for a boolean mask with a scalar) and rebinds ``x`` to it, so gradients flow
  as with PyTorch's in-place ops; the old value's history stays reachable through the scatter's input.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.autograd.tape import _mode
from cellonnx.graph.symint import sym_broadcast_shapes
from cellonnx.ops import registry
from cellonnx.ops.prims._util import to_tensor
from cellonnx.ops.prims.creation import arange
from cellonnx.ops.prims.index import Slice, stack, unbind
from cellonnx.ops.prims.math import Where, _as_bool, cast
from cellonnx.ops.prims.scatter import Gather, GatherND, ScatterNDSet
from cellonnx.ops.prims.shape import (
    ExpandDims,
    Squeeze,
    broadcast_to,
    expand_dims,
    reshape,
    squeeze,
    transpose,
)
from cellonnx.ops.registry import Op
from cellonnx.tensor import Parameter, Tensor


class NonZero(Op):
    """The coordinates of the non-zero (True) entries, shape (ndim, count) as ONNX's NonZero.
    With ``strict`` (Tensor indexing), lowering refuses: the count depends on the data."""

    differentiable = False

    def forward(self, x, *, strict):
        return np.stack(np.nonzero(x)).astype(np.int64) if x.ndim else np.zeros((0, int(bool(x))), np.int64)

    def lower(self, g, x, *, strict):
        if strict:
            raise IndexError("Tensor indexing with a boolean mask computed in the traced graph gives a shape that "
                             "depends on the data, which an ONNX graph built from one trace cannot hold; use "
                             "ops.where(mask, x, fill) to keep the shape, or ops.masked_select(x, mask) for a "
                             "1-D result of dynamic length")
        return g.op("NonZero", x)


class IndexRebind(Op):
    """Identity that keeps an assigned-to tensor bound in a traced graph: ``x[i] = v`` rebinds the Python
    object ``x`` to a new value, and the graph must then read the new value where it reads ``x``."""

    deterministic = False  # never folded: a constant being assigned to must still be re-bound

    def forward(self, x):
        return x

    def backward(self, ctx, g):
        return (g,)

    def lower(self, g, x):
        return g.op("Identity", x)


# ---------------------------------------------------------------- index parsing
def _entry(e: Any) -> Any:
    """Normalise one index entry: ints, slices, None, Ellipsis stay; arrays become Tensors."""
    if e is None or e is Ellipsis or isinstance(e, slice):
        return e
    if isinstance(e, (bool, np.bool_)):
        raise IndexError("Tensor indexing with a Python bool is not supported; use a boolean Tensor mask")
    if isinstance(e, (int, np.integer)):
        return e
    if isinstance(e, Tensor):
        t = e
    elif isinstance(e, (list, tuple, np.ndarray)):
        arr = np.asarray(e)
        if arr.dtype.kind not in "iub" and arr.size:
            raise IndexError(f"Tensor indexing: arrays used as indices must be integer or boolean, got {arr.dtype}")
        t = Tensor._make(arr if arr.size else arr.astype(np.int64))
    else:
        raise IndexError(f"Tensor indexing: unsupported index of type {type(e).__name__} (ints, slices, None, "
                         "Ellipsis, integer or boolean Tensors / lists / arrays are supported)")
    if t._data.dtype.kind not in "iub":
        raise IndexError(f"Tensor indexing: tensors used as indices must be integer or boolean, got {t.dtype}")
    return t


def _expand(x: Tensor, index: Any) -> list:
    """The index as a list with Ellipsis replaced by full slices (one entry per dim, plus Nones)."""
    entries = [_entry(e) for e in (index if isinstance(index, tuple) else (index,))]
    used = sum(e._data.ndim if isinstance(e, Tensor) and e._data.dtype == np.bool_ else
               0 if e is None or e is Ellipsis else 1 for e in entries)
    n_ell = sum(1 for e in entries if e is Ellipsis)
    if n_ell > 1:
        raise IndexError("Tensor indexing: an index can only have a single ellipsis ('...')")
    if used > x.ndim:
        raise IndexError(f"Tensor indexing: too many indices for a tensor of rank {x.ndim} "
                         f"(shape {tuple(x.shape)}): {used} were indexed")
    fill = [slice(None)] * (x.ndim - used)
    if n_ell:
        k = next(i for i, e in enumerate(entries) if e is Ellipsis)
        return entries[:k] + fill + entries[k + 1:]
    return entries + fill


def _check_int(i: Any, n: int, axis: int) -> None:
    if not -n <= int(i) < n:
        raise IndexError(f"Tensor indexing: index {int(i)} is out of bounds for axis {axis} with size {n}")


def _is_full(s: slice) -> bool:
    return s.start in (None, 0) and s.stop is None and s.step in (None, 1) and not hasattr(s.start, "onnx_name")


def _basic(x: Tensor, entries: list) -> Tensor:
    axes, starts, ends, steps, squeeze, new = [], [], [], [], [], []
    d = out_d = 0
    for e in entries:
        if e is None:
            new.append(out_d)
            out_d += 1
            continue
        n = int(x._data.shape[d])
        if isinstance(e, slice):
            step = 1 if e.step is None else e.step
            if step == 0:
                raise ValueError("Tensor indexing: slice step cannot be zero")
            if not _is_full(slice(e.start, e.stop, step)):
                axes.append(d)
                starts.append(e.start)
                ends.append(e.stop)
                steps.append(step)
            out_d += 1
        else:
            _check_int(e, n, d)
            axes.append(d)
            starts.append(e)
            ends.append(None if int(e) == -1 else e + 1)
            steps.append(1)
            squeeze.append(d)
        d += 1
    out = x
    if axes:
        out = Slice.apply(out, axes=tuple(axes), starts=tuple(starts), ends=tuple(ends), steps=tuple(steps))
    if squeeze:
        out = Squeeze.apply(out, axes=tuple(squeeze))
    if new:
        out = ExpandDims.apply(out, axes=tuple(new))
    return out


def _mask_positions(mask: Tensor) -> list[Tensor]:
    """One int64 index tensor per dim of ``mask`` (its True positions)."""
    coords = NonZero.apply(mask, strict=True)
    return list(unbind(coords, 0)) if mask.ndim > 1 else [_row(coords)]


def _row(coords: Tensor) -> Tensor:
    return squeeze(coords, 0)


def _advanced(x: Tensor, entries: list) -> Tensor:
    # 1. None -> a new size-1 axis indexed by a full slice
    new = []
    pos = 0
    for i, e in enumerate(entries):
        if e is None:
            new.append(pos)
            entries[i] = slice(None)
        pos += e._data.ndim if isinstance(e, Tensor) and e._data.dtype == np.bool_ else 1
    if new:
        x = ExpandDims.apply(x, axes=tuple(new))
    # 2. masks -> coordinate arrays; ints -> 0-d arrays
    flat: list = []
    for e in entries:
        if isinstance(e, Tensor) and e._data.dtype == np.bool_:
            flat.extend(_mask_positions(e))
        elif isinstance(e, (int, np.integer)):
            flat.append(int(e))
        else:
            flat.append(e)
    for d, e in enumerate(flat):
        if isinstance(e, int):
            _check_int(e, int(x._data.shape[d]), d)
            flat[d] = Tensor._make(np.asarray(e, dtype=np.int64))
    # 3. partial slices first (they commute with the array indices on other axes)
    sl = [e if isinstance(e, slice) else slice(None) for e in flat]
    if any(not _is_full(s) for s in sl):
        x = _basic(x, sl)
    adv = [d for d, e in enumerate(flat) if isinstance(e, Tensor)]
    arrays = [flat[d] for d in adv]
    shape = np.broadcast_shapes(*[tuple(a._data.shape) for a in arrays])
    arrays = [a if tuple(a._data.shape) == shape else broadcast_to(a, shape) for a in arrays]
    if len(adv) == 1:
        return Gather.apply(x, arrays[0], axis=adv[0])
    nd = x.ndim
    rest = [d for d in range(nd) if d not in adv]
    xt = transpose(x, adv + rest)
    idx = stack([a if a._data.dtype == np.int64 else cast(a, np.int64) for a in arrays], -1)
    out = GatherND.apply(xt, idx)                       # broadcast dims first, then the other dims in order
    first = adv[0]
    if adv == list(range(first, first + len(adv))) and first > 0:
        nb = len(shape)
        out = transpose(out, list(range(nb, nb + first)) + list(range(nb)) + list(range(nb + first, out.ndim)))
    return out


def getitem(x: Tensor, index: Any) -> Tensor:
    """``x[index]`` with NumPy's semantics (see the module docstring)."""
    if x._node is not None and _mode.enabled:
        # read through an alias holding x's current history: if x is assigned to later (``y[1:] += y[0]``),
        # this read keeps pointing at the value it saw, not at the assignment's result
        x = _alias(x)
    # fast paths: x[i] and x[int_tensor]
    if type(index) is int and x.ndim:
        _check_int(index, x._data.shape[0], 0)
        out = Slice.apply(x, axes=(0,), starts=(index,), ends=(None if index == -1 else index + 1,), steps=(1,))
        return Squeeze.apply(out, axes=(0,))
    if type(index) is Tensor and index._data.dtype.kind in "iu" and x.ndim:
        return Gather.apply(x, index if index._data.dtype in (np.int32, np.int64) else cast(index, np.int64), axis=0)
    entries = _expand(x, index)
    if any(isinstance(e, Tensor) for e in entries):
        return _advanced(x, entries)
    return _basic(x, entries)


# ---------------------------------------------------------------- assignment
def _rebind_in_trace(src: Tensor, dst: Tensor) -> None:
    """While tracing, make the graph read ``src``'s value wherever it reads ``dst`` from now on."""
    hook = registry.TRACE_HOOK
    if hook is not None:
        hook(IndexRebind._instance, (src,), {}, (dst,))


def _alias(x: Tensor) -> Tensor:
    """A second Python object for x's current value and history (the assignment's input)."""
    old = Tensor._make(x._data)
    old._node, old._out_index, old.requires_grad = x._node, x._out_index, x.requires_grad
    _rebind_in_trace(x, old)
    return old


def setitem(x: Tensor, index: Any, value: Any) -> None:
    """``x[index] = value``: rebinds ``x`` to a new value computed with ops (see the module docstring)."""
    if _mode.enabled and x.requires_grad and x._node is None:
        raise RuntimeError("Tensor.__setitem__: a leaf tensor that requires grad (a parameter or an input being "
                           "differentiated) cannot be assigned to in place while gradients are recorded; assign "
                           "under no_grad, or compute a new tensor (ops.where, ops.masked_fill)")
    v = to_tensor(value, x)
    if v._data.dtype != x._data.dtype:
        v = cast(v, x._data.dtype)
    old = _alias(x)
    entries = index if isinstance(index, tuple) else (index,)
    mask = _entry(entries[0]) if len(entries) == 1 else None
    if isinstance(mask, Tensor) and mask._data.dtype == np.bool_ and v._data.size == 1 and \
            tuple(mask._data.shape) == tuple(x._data.shape[:mask.ndim]):
        m = reshape(_as_bool(mask), tuple(mask.shape) + (1,) * (x.ndim - mask.ndim)) if mask.ndim < x.ndim else mask
        new = Where.apply(m, reshape(v, ()) if v.ndim else v, old)   # static shape: fine in a traced graph
        if new._data.shape != x._data.shape:
            new = broadcast_to(new, x.shape)
    else:
        shape = x.shape
        size = 1
        for d in shape:
            size = size * d
        positions = getitem(reshape(arange(size), shape), index)   # flat positions, in the result's layout
        if tuple(np.broadcast_shapes(v._data.shape, positions._data.shape)) != tuple(positions._data.shape):
            raise ValueError(f"Tensor.__setitem__: a value of shape {tuple(v.shape)} cannot be assigned to the "
                             f"selection of shape {tuple(positions.shape)}")
        if tuple(v._data.shape) != tuple(positions._data.shape):
            v = broadcast_to(v, positions.shape)
        flat = ScatterNDSet.apply(reshape(old, (-1,)), expand_dims(positions, -1), v)
        new = reshape(flat, shape)
    if isinstance(x, Parameter):
        x._assign_array(new._data)  # also marks the parameter as updated (compiled cells re-read it)
    else:
        x._data = new._data
    if new._node is not None:
        x._node, x._out_index, x.requires_grad = new._node, new._out_index, True
    _rebind_in_trace(new, x)


def _setitem_method(self: Tensor, index: Any, value: Any) -> None:
    setitem(self, index, value)


# ---------------------------------------------------------------- functional API
def strided_slice(input_x: Tensor, begin: Any, end: Any, strides: Any, begin_mask: int = 0, end_mask: int = 0,
                  ellipsis_mask: int = 0, new_axis_mask: int = 0, shrink_axis_mask: int = 0) -> Tensor:
    """``input_x[begin:end:strides]`` per axis, with MindSpore's (TensorFlow's) bit masks: bit i of
    ``begin_mask`` / ``end_mask`` ignores begin[i] / end[i] (full range), of ``ellipsis_mask`` makes entry i an
    ellipsis, of ``new_axis_mask`` inserts a size-1 axis, of ``shrink_axis_mask`` takes index begin[i] and
    drops the axis.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(12).reshape(3, 4), ms.int32)
        >>> print(ops.strided_slice(x, (0, 1), (3, 4), (2, 2)))
        [[ 1  3]
         [ 9 11]]
    """
    begin, end, strides = tuple(begin), tuple(end), tuple(strides)
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"strided_slice: begin {begin}, end {end} and strides {strides} must have one length")
    index: list = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            index.append(b)
        else:
            if s == 0:
                raise ValueError(f"strided_slice: strides[{i}] cannot be zero")
            index.append(slice(None if begin_mask & bit else b, None if end_mask & bit else e, s))
    return getitem(to_tensor(input_x), tuple(index))


def masked_select(input: Tensor, mask: Any) -> Tensor:
    """The elements of ``input`` where ``mask`` (broadcast together) is True, as a 1-D tensor. Its length
    depends on the data; a traced graph computes it with NonZero.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3, 4]), ms.int32)
        >>> mask = Tensor(np.array([True, False, True, False]), ms.bool_)
        >>> print(ops.masked_select(x, mask))
        [1 3]
    """
    input, m = to_tensor(input), _as_bool(mask)
    shape = np.broadcast_shapes(tuple(input._data.shape), tuple(m._data.shape))
    target = sym_broadcast_shapes(input.shape, m.shape)  # dynamic dims stay graph values
    if tuple(input._data.shape) != shape:
        input = broadcast_to(input, target)
    if tuple(m._data.shape) != shape:
        m = broadcast_to(m, target)
    if not shape:
        input, m = reshape(input, (1,)), reshape(m, (1,))
    return GatherND.apply(input, transpose(NonZero.apply(m, strict=False), (1, 0)))


def nonzero(input: Tensor, as_tuple: bool = False) -> Any:
    """The coordinates of the non-zero entries: a (count, ndim) int64 tensor, or one 1-D tensor per dim.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0, 1], [2, 0]]), ms.int32)
        >>> print(ops.nonzero(x))
        [[0 1]
         [1 0]]
    """
    coords = NonZero.apply(to_tensor(input), strict=False)
    if as_tuple:
        return unbind(coords, 0)
    return transpose(coords, (1, 0))


TENSOR_METHODS = {"__getitem__": getitem, "__setitem__": _setitem_method, "masked_select": masked_select,
                  "nonzero": nonzero}

__all__ = ["masked_select", "nonzero", "strided_slice"]
