"""MXNet's shape and indexing operators with its argument names and conventions: Reshape with special codes,
Flatten to two dims, concat along ``dim``, SliceChannel, slice_axis, broadcast_to with 0 as "keep", pick,
take, one_hot, gather_nd with the index axis first, pad with a flat ``pad_width``, sequence masks ..."""
from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.graph.symint import SymInt
from cellonnx.mxnet._op._util import as_tensor, dtype_of
from cellonnx.tensor import Tensor

__all__ = ["SHAPE", "infer_reshape"]


def infer_reshape(in_shape: tuple, shape: tuple, reverse: bool = False) -> tuple:
    """The target of MXNet's Reshape: 0 copies a dim, -1 is inferred, -2 copies the rest, -3 merges two
    dims, -4 splits one dim into the next two values (one may be -1). ``reverse`` applies the codes from
    the right. Dims may be symbolic (a dynamic batch)."""
    src, spec = list(in_shape), [int(s) for s in shape]
    if reverse:
        if -4 in spec:
            raise ValueError("Reshape: reverse=True with a -4 split code is not supported")
        src, spec = src[::-1], spec[::-1]
    out: list[Any] = []
    i = j = 0
    while j < len(spec):
        code = spec[j]
        if code == 0:
            out.append(src[i])
            i += 1
        elif code == -1:
            out.append(-1)
            i += 1
        elif code == -2:
            out.extend(src[i:])
            i = len(src)
        elif code == -3:
            out.append(src[i] * src[i + 1])
            i += 2
        elif code == -4:
            a, b, d = spec[j + 1], spec[j + 2], src[i]
            if a == -1:
                a = d // b
            if b == -1:
                b = d // a
            out.extend([a, b])
            i += 1
            j += 2
        elif code > 0:
            out.append(code)
            i += 1
        else:
            raise ValueError(f"Reshape: invalid shape code {code} in {tuple(shape)}")
        j += 1
    return tuple(out[::-1]) if reverse else tuple(out)


def reshape(data: Tensor, shape: Any = None, reverse: bool = False, target_shape: Any = None,
            keep_highest: bool = False, **_: Any) -> Tensor:
    """Reshape with MXNet's special codes (0, -1, -2, -3, -4)."""
    if shape is None:
        shape = target_shape
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    return ops.reshape(data, infer_reshape(tuple(data.shape), shape, reverse))


def flatten(data: Tensor, **_: Any) -> Tensor:
    """(N, d1, ..., dk) -> (N, d1 * ... * dk)."""
    return ops.reshape(data, (data.shape[0], -1)) if data.ndim != 2 else data


def reshape_like(lhs: Tensor, rhs: Tensor, lhs_begin: int | None = None, lhs_end: int | None = None,
                 rhs_begin: int | None = None, rhs_end: int | None = None, **_: Any) -> Tensor:
    """``lhs`` with its axes [lhs_begin, lhs_end) replaced by ``rhs``'s axes [rhs_begin, rhs_end) (all axes
    by default; negative positions count from the end)."""
    ls, rs = tuple(lhs.shape), tuple(rhs.shape)
    lb, le, _ = slice(lhs_begin, lhs_end).indices(len(ls))
    rb, re, _ = slice(rhs_begin, rhs_end).indices(len(rs))
    shape = ls[:lb] + rs[rb:re] + ls[le:]
    if all(isinstance(d, int) for d in (*ls[lb:le], *rs[rb:re])) and \
            math.prod(ls[lb:le]) != math.prod(rs[rb:re]):
        raise ValueError(f"reshape_like: lhs axes [{lb}, {le}) of {ls} and rhs axes [{rb}, {re}) of {rs} "
                         "do not hold the same number of elements")
    return ops.reshape(lhs, shape)


def transpose(data: Tensor, axes: Any = (), **_: Any) -> Tensor:
    axes = tuple(axes) if axes else tuple(range(data.ndim))[::-1]
    return ops.transpose(data, axes)


def swapaxes(data: Tensor, dim1: int = 0, dim2: int = 0, **_: Any) -> Tensor:
    return ops.swapaxes(data, int(dim1), int(dim2))


def expand_dims(data: Tensor, axis: int, **_: Any) -> Tensor:
    return ops.expand_dims(data, int(axis))


def squeeze(data: Tensor, axis: Any = None, **_: Any) -> Tensor:
    """Remove axes of size 1 (``axis`` None: all of them; in a graph with symbolic dims, those that are 1
    at run time, as MXNet decides it per call)."""
    if axis is None and any(isinstance(d, SymInt) for d in data.shape):
        from cellonnx.ops.prims.shape import Squeeze
        return Squeeze.apply(data, axes=None)
    return ops.squeeze(data, axis if axis is None or isinstance(axis, int) else tuple(axis))


def _list(args: tuple) -> list[Tensor]:
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    return [as_tensor(a) for a in args]


def concat(*data: Any, dim: int = 1, num_args: int | None = None, **_: Any) -> Tensor:
    """Join arrays along ``dim`` (Default: 1)."""
    return ops.concat(_list(data), axis=int(dim))


def stack(*data: Any, axis: int = 0, num_args: int | None = None, **_: Any) -> Tensor:
    return ops.stack(_list(data), axis=int(axis))


def split(data: Tensor, num_outputs: int, axis: int = 1, squeeze_axis: bool = False, **_: Any) -> Any:
    """SliceChannel: ``num_outputs`` equal parts along ``axis`` (one part: the array itself)."""
    k = int(num_outputs)  # k pieces at every size: a dynamic axis' sizes stay graph values
    parts = list(ops.split(data, [data.shape[axis] // k] * k, axis=int(axis)))
    if squeeze_axis:
        parts = [ops.squeeze(p, int(axis)) for p in parts]
    return parts[0] if len(parts) == 1 else parts


def split_v2(data: Tensor, indices_or_sections: Any, axis: int = 0, squeeze_axis: bool = False,
             **_: Any) -> Any:
    """NumPy's split: a number of equal sections, or the indices where parts begin."""
    n = data.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        sizes = [n // int(indices_or_sections)] * int(indices_or_sections)
    else:
        edges = [0, *[int(i) for i in indices_or_sections], n]
        sizes = [b - a for a, b in itertools.pairwise(edges)]
    parts = list(ops.split(data, sizes, axis=int(axis)))
    if squeeze_axis:
        parts = [ops.squeeze(p, int(axis)) for p in parts]
    return parts[0] if len(parts) == 1 else parts


def _slice_entry(b: Any, e: Any, s: Any) -> slice:
    return slice(None if b is None else int(b), None if e is None else int(e), None if s is None else int(s))


def slice_op(data: Tensor, begin: Any, end: Any, step: Any = (), **_: Any) -> Tensor:
    """``data[begin:end:step]`` per leading axis (None entries: the whole axis)."""
    step = tuple(step) if step else (None,) * len(begin)
    index = tuple(_slice_entry(b, e, s) for b, e, s in zip(begin, end, step))
    return data[index]


def slice_axis(data: Tensor, axis: int, begin: int, end: int | None, **_: Any) -> Tensor:
    """``data[..., begin:end, ...]`` on ``axis``."""
    axis = int(axis) % data.ndim
    return data[(slice(None),) * axis + (_slice_entry(begin, end, None),)]


def slice_like(data: Tensor, shape_like: Tensor, axes: Any = (), **_: Any) -> Tensor:
    axes = tuple(a % data.ndim for a in axes) if axes else tuple(range(data.ndim))
    index = tuple(slice(0, shape_like.shape[i]) if i in axes else slice(None) for i in range(data.ndim))
    return data[index]


def tile(data: Tensor, reps: Any, **_: Any) -> Tensor:
    reps = tuple(int(r) for r in reps)
    if len(reps) < data.ndim:
        reps = (1,) * (data.ndim - len(reps)) + reps
    elif len(reps) > data.ndim:
        data = ops.reshape(data, (1,) * (len(reps) - data.ndim) + tuple(data.shape))
    return ops.tile(data, reps)


def repeat(data: Tensor, repeats: int, axis: int | None = None, **_: Any) -> Tensor:
    if axis is None:
        return ops.repeat_elements(ops.reshape(data, (-1,)), int(repeats), 0)
    return ops.repeat_elements(data, int(repeats), int(axis))


def flip(data: Tensor, axis: Any, **_: Any) -> Tensor:
    return ops.flip(data, (int(axis),) if isinstance(axis, (int, np.integer)) else tuple(axis))


def broadcast_to(data: Tensor, shape: Any, **_: Any) -> Tensor:
    """Broadcast to ``shape``; a 0 keeps the input's dim."""
    target = tuple(data.shape[i] if int(s) == 0 else int(s) for i, s in enumerate(shape))
    return ops.broadcast_to(data, target)


def broadcast_like(lhs: Tensor, rhs: Tensor, lhs_axes: Any = None, rhs_axes: Any = None, **_: Any) -> Tensor:
    if lhs_axes is None:
        return ops.broadcast_to(lhs, tuple(rhs.shape))
    target = list(lhs.shape)
    for la, ra in zip(lhs_axes, rhs_axes):
        target[la] = rhs.shape[ra]
    return ops.broadcast_to(lhs, tuple(target))


def broadcast_axis(data: Tensor, axis: Any = (), size: Any = (), **_: Any) -> Tensor:
    axis = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    size = (size,) if isinstance(size, (int, np.integer)) else tuple(size)
    target = list(data.shape)
    for a, s in zip(axis, size):
        target[a] = int(s)
    return ops.broadcast_to(data, tuple(target))


def pad(data: Tensor, mode: str = "constant", pad_width: Any = (), constant_value: float = 0.0,
        **_: Any) -> Tensor:
    """Pad with MXNet's flat ``pad_width`` (before, after per axis, the first two axes 0)."""
    widths = [int(w) for w in pad_width]
    pairs = list(zip(widths[0::2], widths[1::2]))
    if any(pairs[0]) or any(pairs[1]):
        raise ValueError(f"Pad: the batch and channel axes cannot be padded, pad_width={tuple(pad_width)}")
    flat: list[int] = []
    for before, after in reversed(pairs[2:]):
        flat += [before, after]
    modes = {"constant": "constant", "edge": "replicate", "reflect": "reflect"}
    if mode not in modes:
        raise ValueError(f"Pad: mode must be 'constant', 'edge' or 'reflect', got {mode!r}")
    return ops.pad(data, tuple(flat), modes[mode], float(constant_value) if mode == "constant" else None)


def _clip_index(index: Tensor, size: Any, mode: str) -> Tensor:
    idx = ops.cast(index, "int64")
    if mode == "wrap":
        return ops.floor_mod(idx, size)
    return ops.clamp(idx, 0, size - 1)


def take(a: Tensor, indices: Any, axis: int = 0, mode: str = "clip", **_: Any) -> Tensor:
    """Rows of ``a`` along ``axis`` at ``indices`` (float indices are truncated; 'clip' or 'wrap')."""
    axis = int(axis) % a.ndim
    return ops.gather(a, _clip_index(as_tensor(indices), a.shape[axis], mode), axis)


def pick(data: Tensor, index: Any, axis: int = -1, keepdims: bool = False, mode: str = "clip",
         **_: Any) -> Tensor:
    """``data[..., index[...], ...]``: one element along ``axis`` per position of the other axes."""
    axis = int(axis) % data.ndim
    idx = ops.expand_dims(_clip_index(as_tensor(index), data.shape[axis], mode), axis)
    out = ops.gather_elements(data, axis, idx)
    return out if keepdims else ops.squeeze(out, axis)


def one_hot(indices: Any, depth: int, on_value: float = 1.0, off_value: float = 0.0, dtype: Any = "float32",
            **_: Any) -> Tensor:
    """(..., depth): ``on_value`` where the last axis equals the index, ``off_value`` elsewhere."""
    dt = dtype_of(dtype)
    idx = ops.cast(as_tensor(indices), "int64")
    on, off = Tensor(np.asarray(on_value, dt.np_dtype)), Tensor(np.asarray(off_value, dt.np_dtype))
    if dt.np_dtype != np.float32:
        # onnxruntime's OneHot has float32 values only: other dtypes compare with the positions instead
        hit = ops.equal(ops.expand_dims(idx, -1), ops.arange(0, int(depth), 1))
        return ops.where(hit, on, off)
    return ops.one_hot(idx, int(depth), on, off)


def gather_nd(data: Tensor, indices: Any, **_: Any) -> Tensor:
    """MXNet's gather_nd: ``indices`` has the index axis first (M, ...) selecting the first M dims."""
    idx = ops.cast(as_tensor(indices), "int64")
    perm = tuple(range(1, idx.ndim)) + (0,)
    return ops.gather_nd(data, ops.transpose(idx, perm))


def where(condition: Any, x: Any, y: Any, **_: Any) -> Tensor:
    """``x`` where ``condition`` is non-zero, else ``y``; a 1-d condition selects rows."""
    cond = as_tensor(condition)
    x, y = as_tensor(x), as_tensor(y)
    if cond.ndim == 1 and x.ndim > 1:
        cond = ops.reshape(cond, (-1,) + (1,) * (x.ndim - 1))
    mask = cond if cond._data.dtype == np.bool_ else ops.not_equal(cond, 0)
    return ops.where(mask, x, y)


def cast(data: Tensor, dtype: Any, **_: Any) -> Tensor:
    return ops.cast(data, dtype_of(dtype))


def depth_to_space(data: Tensor, block_size: int, **_: Any) -> Tensor:
    b = int(block_size)
    n, c, h, w = data.shape
    x = ops.reshape(data, (n, b, b, c // (b * b), h, w))
    x = ops.transpose(x, (0, 3, 4, 1, 5, 2))
    return ops.reshape(x, (n, c // (b * b), h * b, w * b))


def space_to_depth(data: Tensor, block_size: int, **_: Any) -> Tensor:
    b = int(block_size)
    n, c, h, w = data.shape
    x = ops.reshape(data, (n, c, h // b, b, w // b, b))
    x = ops.transpose(x, (0, 3, 5, 1, 2, 4))
    return ops.reshape(x, (n, c * b * b, h // b, w // b))


def shape_array(data: Tensor, **_: Any) -> Tensor:
    """The shape of ``data`` as an int64 array (read at run time in an exported graph)."""
    return ops.dyn_shape(data)


def size_array(data: Tensor, **_: Any) -> Tensor:
    """The number of elements of ``data`` as an int64 array of shape (1,)."""
    return ops.reshape(ops.prod(ops.dyn_shape(data)), (1,))


def _length_mask(data: Tensor, sequence_length: Tensor, axis: int) -> Tensor:
    """(T, N) (axis 0) or (N, T) (axis 1) boolean mask of the positions before each sequence's length."""
    steps = ops.arange(0, data.shape[axis], 1)
    lengths = ops.cast(as_tensor(sequence_length), "int64")
    if axis == 0:
        return ops.less(ops.reshape(steps, (-1, 1)), ops.reshape(lengths, (1, -1)))
    return ops.less(ops.reshape(steps, (1, -1)), ops.reshape(lengths, (-1, 1)))


def sequence_mask(data: Tensor, sequence_length: Any = None, use_sequence_length: bool = False,
                  value: float = 0.0, axis: int = 0, **_: Any) -> Tensor:
    """Set the steps at or after each sequence's length to ``value`` (time on ``axis`` 0 or 1, batch on
    the other)."""
    if not use_sequence_length or sequence_length is None:
        return data
    mask = _length_mask(data, sequence_length, int(axis))
    mask = ops.reshape(mask, tuple(mask.shape) + (1,) * (data.ndim - 2))
    return ops.where(mask, data, Tensor(np.asarray(value, data._data.dtype)))


def sequence_last(data: Tensor, sequence_length: Any = None, use_sequence_length: bool = False, axis: int = 0,
                  **_: Any) -> Tensor:
    """The last step of each sequence (time on ``axis``)."""
    axis = int(axis)
    if not use_sequence_length or sequence_length is None:
        return data[(slice(None),) * axis + (-1,)]
    last = ops.sub(ops.cast(as_tensor(sequence_length), "int64"), 1)
    moved = data if axis == 0 else ops.swapaxes(data, 0, 1)
    idx = ops.reshape(last, (1, -1) + (1,) * (data.ndim - 2))
    idx = ops.broadcast_to(idx, (1,) + tuple(moved.shape[1:]))
    return ops.squeeze(ops.gather_elements(moved, 0, idx), 0)


def sequence_reverse(data: Tensor, sequence_length: Any = None, use_sequence_length: bool = False,
                     axis: int = 0, **_: Any) -> Tensor:
    """Reverse the first ``sequence_length`` steps of each sequence (time on axis 0)."""
    if not use_sequence_length or sequence_length is None:
        return ops.flip(data, (0,))
    t = data.shape[0]
    steps = ops.reshape(ops.arange(0, t, 1), (-1, 1))
    lengths = ops.reshape(ops.cast(as_tensor(sequence_length), "int64"), (1, -1))
    src = ops.where(ops.less(steps, lengths), ops.sub(ops.sub(lengths, 1), steps), steps)
    idx = ops.reshape(src, tuple(src.shape) + (1,) * (data.ndim - 2))
    return ops.gather_elements(data, 0, ops.broadcast_to(idx, tuple(data.shape)))


def diag(data: Tensor, k: int = 0, axis1: int = 0, axis2: int = 1, **_: Any) -> Tensor:
    if data.ndim == 1:
        n = data.shape[0] + abs(int(k))
        eye = np.eye(n, k=int(k), dtype=data._data.dtype)
        padded = ops.pad(data, (max(0, -int(k)), max(0, int(k))))
        return ops.mul(Tensor(eye), ops.reshape(padded, (1, -1)) if k >= 0 else ops.reshape(padded, (-1, 1)))
    return ops.diagonal(data, int(k), int(axis1), int(axis2))  # traced and differentiable


def clip(data: Tensor, a_min: float, a_max: float, **_: Any) -> Tensor:
    return ops.clamp(data, a_min, a_max)


def moveaxis(data: Tensor, source: int, destination: int, **_: Any) -> Tensor:
    perm = [i for i in range(data.ndim) if i != source % data.ndim]
    perm.insert(destination % data.ndim, source % data.ndim)
    return ops.transpose(data, tuple(perm))


SHAPE = {
    "Reshape": reshape, "reshape": reshape, "Flatten": flatten, "flatten": flatten,
    "reshape_like": reshape_like,
    "transpose": transpose, "SwapAxis": swapaxes, "swapaxes": swapaxes, "expand_dims": expand_dims,
    "squeeze": squeeze, "Concat": concat, "concat": concat, "stack": stack, "SliceChannel": split,
    "split": split, "split_v2": split_v2, "slice": slice_op, "crop": slice_op, "slice_axis": slice_axis,
    "slice_like": slice_like, "tile": tile, "repeat": repeat, "flip": flip, "reverse": flip,
    "broadcast_to": broadcast_to, "broadcast_like": broadcast_like, "broadcast_axis": broadcast_axis,
    "broadcast_axes": broadcast_axis, "Pad": pad, "pad": pad, "take": take, "pick": pick, "one_hot": one_hot,
    "gather_nd": gather_nd, "where": where, "Cast": cast, "cast": cast, "depth_to_space": depth_to_space,
    "space_to_depth": space_to_depth, "shape_array": shape_array, "size_array": size_array,
    "SequenceMask": sequence_mask, "sequence_mask": sequence_mask, "SequenceLast": sequence_last,
    "SequenceReverse": sequence_reverse, "diag": diag, "clip": clip, "moveaxis": moveaxis,
}
