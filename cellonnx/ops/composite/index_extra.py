"""Indexing functions over gathers, slices and where: gather_d, take, index_fill, select_scatter,
slice_scatter and reverse_sequence."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from cellonnx.ops.prims._util import norm_axis, to_tensor
from cellonnx.ops.prims.creation import arange, ones_like
from cellonnx.ops.prims.index import unslice
from cellonnx.ops.prims.math import add, cast, equal, greater, less, sub, where
from cellonnx.ops.prims.reduce import reduce_sum
from cellonnx.ops.prims.scatter import Gather, GatherElements, _index, _int64, gather_elements
from cellonnx.ops.prims.shape import broadcast_to, expand_dims, reshape
from cellonnx.tensor import Tensor


def gather_d(x: Tensor, dim: int, index: Any) -> Tensor:
    """``out[i][j] = x[index[i][j]][j]`` for dim 0 (and likewise for other dims): ``ops.gather_elements``.

    Examples:
        >>> ops.gather_d(Tensor([[1, 2], [3, 4]]), 1, Tensor(np.array([[0, 0], [1, 0]])))
        Tensor(shape=[2, 2], dtype=Int64, value= [[1, 1], [4, 3]])
    """
    return gather_elements(x, dim, index)


def take(input: Tensor, index: Any) -> Tensor:
    """The elements of the flattened ``input`` at ``index`` (negative counts from the end); the result has
    ``index``'s shape.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> index = Tensor(np.array([3, 0]), ms.int32)
        >>> print(ops.take(x, index))
        [4 1]
    """
    x = to_tensor(input)
    idx = _index(index, "take")
    return Gather.apply(reshape(x, (-1,)), idx, axis=0)


def _axis_mask(n: int, idx: Tensor, axis: int, ndim: int) -> Tensor:
    """A bool tensor, size n along ``axis`` and 1 elsewhere: True at the (possibly negative) indices."""
    steps = cast(arange(n), idx._data.dtype)  # n a graph value where the axis is dynamic
    idx = reshape(idx, (-1,))
    idx = where(less(idx, 0), add(idx, n), idx)
    hits = reduce_sum(cast(equal(expand_dims(steps, 1), expand_dims(idx, 0)), np.int32), (1,))
    shape = [1] * ndim
    shape[axis] = -1
    return reshape(greater(hits, 0), tuple(shape))


def index_fill(x: Tensor, axis: int, index: Any, value: Any) -> Tensor:
    """``x`` with every element whose position along ``axis`` is in ``index`` set to ``value`` (cast to
    ``x``'s dtype).

    Args:
        x (Tensor): input.
        axis (Union[int, Tensor]): the axis.
        index (Tensor): 1-D (or 0-d) integer positions along ``axis``; negative ones count from the end.
        value (Union[bool, int, float, Tensor]): a number or a 0-d tensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> index = Tensor(np.array([0, 2]), ms.int32)
        >>> print(ops.index_fill(x, 1, index, 5.0))
        [[5. 0. 5.]
         [5. 0. 5.]]
    """
    x = to_tensor(x)
    if x.ndim == 0:
        raise ValueError("index_fill: x must have at least one dimension")
    if isinstance(axis, Tensor):
        axis = int(axis._data.reshape(()))
    a = norm_axis(int(axis), x.ndim, "index_fill")
    idx = _index(index, "index_fill")
    if idx.ndim > 1:
        raise ValueError(f"index_fill: index must be 0-d or 1-D, got shape {tuple(idx.shape)}")
    n = int(x._data.shape[a])
    if idx._data.size and (int(idx._data.min()) < -n or int(idx._data.max()) >= n):
        bad = int(idx._data.min()) if int(idx._data.min()) < -n else int(idx._data.max())
        raise IndexError(f"index_fill: index {bad} is out of range [{-n}, {n}) for axis {a} of x "
                         f"{tuple(x.shape)}")
    v = to_tensor(value, x)
    if v._data.size != 1:
        raise ValueError(f"index_fill: value must be a number or a 0-d tensor, got shape {tuple(v.shape)}")
    v = reshape(cast(v, x._data.dtype), ())
    return where(_axis_mask(x.shape[a], idx, a, x.ndim), v, x)


def slice_scatter(input: Tensor, src: Tensor, axis: int = 0, start: Any = None, end: Any = None,
                  step: int = 1) -> Tensor:
    """``input`` with the slice ``start:end:step`` along ``axis`` replaced by ``src`` (which has that
    slice's shape).

    Examples:
        >>> ops.slice_scatter(ops.zeros((4, 3)), ops.ones((2, 3)), 0, 1, None, 2).asnumpy()[:, 0]
        array([0., 1., 0., 1.], dtype=float32)
    """
    x, s = to_tensor(input), to_tensor(src)
    a = norm_axis(axis, x.ndim, "slice_scatter")
    if isinstance(step, bool) or not isinstance(step, (int, np.integer)) or step <= 0:
        raise ValueError(f"slice_scatter: step must be a positive int, got {step!r}")
    n = int(x._data.shape[a])
    lo, hi, st = builtins.slice(start, end, step).indices(n)
    picked = np.arange(lo, hi, st)
    want = tuple(x._data.shape[:a]) + (len(picked),) + tuple(x._data.shape[a + 1:])
    if tuple(s._data.shape) != want:
        raise ValueError(f"slice_scatter: src of shape {tuple(s.shape)} must have the slice's shape {want}")
    if s._data.dtype != x._data.dtype:
        s = cast(s, x._data.dtype)
    if not len(picked):
        return x
    # the bounds as given (unslice places a unit-step slice of a dynamic axis by its size at run time); the
    # slice's mask is placed the same way, so neither holds the example's size of the axis
    bounds = (a,), (start,), (end,), (step,)
    placed = unslice(s, x, *bounds)
    hit = unslice(ones_like(s, dtype=np.bool_), x, *bounds)
    return where(hit, placed, x)


def select_scatter(input: Tensor, src: Tensor, axis: int, index: int) -> Tensor:
    """``input`` with the slice at ``index`` along ``axis`` replaced by ``src`` (``input``'s shape without
    that axis).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> src = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.select_scatter(x, src, 0, 1))
        [[0. 0. 0.]
         [1. 2. 3.]]
    """
    x, s = to_tensor(input), to_tensor(src)
    a = norm_axis(axis, x.ndim, "select_scatter")
    n = int(x._data.shape[a])
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not -n <= index < n:
        raise IndexError(f"select_scatter: index {index!r} is out of range for axis {a} of size {n}")
    i = int(index)  # negative: counted from the end, also of a dynamic axis
    return slice_scatter(x, expand_dims(s, a), a, i, None if i == -1 else i + 1, 1)


def reverse_sequence(x: Tensor, seq_lengths: Any, seq_dim: int, batch_dim: int = 0) -> Tensor:
    """Reverse the first ``seq_lengths[b]`` elements along ``seq_dim`` of each slice ``b`` along
    ``batch_dim``; the rest stays in place.

    Examples:
        >>> ops.reverse_sequence(Tensor([[1, 2, 3], [4, 5, 6]]), Tensor(np.array([1, 2])), 1)
        Tensor(shape=[2, 3], dtype=Int64, value= [[1, 2, 3], [5, 4, 6]])
    """
    x = to_tensor(x)
    lengths = _int64(_index(seq_lengths, "reverse_sequence"))
    s, b = norm_axis(seq_dim, x.ndim, "reverse_sequence"), norm_axis(batch_dim, x.ndim, "reverse_sequence")
    if s == b:
        raise ValueError(f"reverse_sequence: seq_dim and batch_dim must differ, got {seq_dim} and "
                         f"{batch_dim}")
    if lengths.ndim != 1 or int(lengths._data.shape[0]) != int(x._data.shape[b]):
        raise ValueError(f"reverse_sequence: seq_lengths of shape {tuple(lengths.shape)} must be 1-D with "
                         f"the size {int(x._data.shape[b])} of batch_dim {b}")
    t_len = int(x._data.shape[s])
    if lengths._data.size and int(lengths._data.max()) > t_len:
        raise ValueError(f"reverse_sequence: seq_lengths must not exceed the size {t_len} of seq_dim, got "
                         f"{int(lengths._data.max())}")
    t_shape, l_shape = [1] * x.ndim, [1] * x.ndim
    t_shape[s], l_shape[b] = -1, -1
    # the positions along seq_dim, as long as the axis is at run time
    t = reshape(cast(arange(x.shape[s]), np.int64), tuple(t_shape))
    n = reshape(lengths, tuple(l_shape))
    src = where(less(t, n), sub(sub(n, 1), t), t)
    return GatherElements.apply(x, broadcast_to(src, x.shape), axis=s)


def _tensor_reverse_sequence(self: Tensor, seq_lengths: Any, seq_dim: int = 0, batch_dim: int = 0) -> Tensor:
    return reverse_sequence(self, seq_lengths, seq_dim, batch_dim)


TENSOR_METHODS = {"take": take, "index_fill": index_fill, "select_scatter": select_scatter,
                  "slice_scatter": slice_scatter, "reverse_sequence": _tensor_reverse_sequence}

__all__ = ["gather_d", "index_fill", "reverse_sequence", "select_scatter", "slice_scatter", "take"]
