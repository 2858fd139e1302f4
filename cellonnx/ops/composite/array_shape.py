"""Shape and layout functions written over the shape / index primitives (gradient and lowering come from
them): ravel, movedim / moveaxis / swapdims, the split family (tensor_split, hsplit, vsplit, dsplit,
unstack), the stacks (hstack, column_stack), expand / expand_as / view_as, reverse, meshgrid and padding."""
from __future__ import annotations

import builtins
import itertools
from typing import Any

import numpy as np

from cellonnx.graph.symint import is_symbolic
from cellonnx.ops.prims._util import norm_axis, to_tensor
from cellonnx.ops.prims.index import Slice, Split, concat, flip, pad, unbind
from cellonnx.ops.prims.shape import broadcast_to, reshape, swapaxes, transpose
from cellonnx.tensor import Tensor


def _tensor(x: Any, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: expected a Tensor, got {type(x).__name__}")
    return x


def ravel(input: Tensor) -> Tensor:
    """The elements of ``input`` as a 1-D tensor (row-major order).

    Args:
        input (Tensor): any tensor; a 0-d tensor gives shape (1,).

    Returns:
        Tensor, 1-D, of ``input``'s dtype.

    Examples:
        >>> ops.ravel(Tensor([[0.0, 1.0], [2.0, 1.0]])).shape
        (4,)
    """
    return reshape(_tensor(input, "ravel"), (-1,))


def _axes_arg(v: Any, ndim: int, op: str, what: str) -> list[int]:
    items = list(v) if isinstance(v, (tuple, list)) else [v]
    for a in items:
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
            raise TypeError(f"{op}: {what} must be an int or a tuple of ints, got {v!r}")
    out = [norm_axis(int(a), ndim, op) for a in items]
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: {what} {v!r} repeats an axis")
    return out


def movedim(x: Tensor, source: Any, destination: Any) -> Tensor:
    """Move the axes ``source`` of ``x`` to the positions ``destination``; the other axes keep their order.

    Args:
        x (Tensor): input.
        source (Union[int, tuple[int]]): axes to move.
        destination (Union[int, tuple[int]]): their new positions, one per source axis.

    Returns:
        Tensor, a transpose of ``x``.

    Examples:
        >>> ops.movedim(ops.zeros((2, 3, 4)), 0, -1).shape
        (3, 4, 2)
    """
    x = _tensor(x, "movedim")
    src = _axes_arg(source, x.ndim, "movedim", "source")
    dst = _axes_arg(destination, x.ndim, "movedim", "destination")
    if len(src) != len(dst):
        raise ValueError(f"movedim: source {source!r} and destination {destination!r} must have the same "
                         "number of axes")
    rest = [a for a in range(x.ndim) if a not in src]
    perm: list[int] = [-1] * x.ndim
    for s, d in zip(src, dst):
        perm[d] = s
    it = iter(rest)
    perm = [p if p >= 0 else next(it) for p in perm]
    return transpose(x, perm)


def moveaxis(x: Tensor, source: Any, destination: Any) -> Tensor:
    """Alias of :func:`movedim`: move axes ``source`` to positions ``destination``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.moveaxis(x, 0, -1).shape
        (3, 4, 2)
    """
    return movedim(x, source, destination)


def swapdims(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """Exchange the axes ``dim0`` and ``dim1`` (as ``ops.swapaxes``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.swapdims(x, 0, 2).shape
        (4, 3, 2)
    """
    return swapaxes(_tensor(input, "swapdims"), dim0, dim1)


def unstack(input_x: Tensor, axis: int = 0) -> tuple[Tensor, ...]:
    """The slices of ``input_x`` along ``axis``, that axis removed (the inverse of ``ops.stack``).

    Examples:
        >>> [t.shape for t in ops.unstack(ops.zeros((2, 3)), 1)]
        [(2,), (2,), (2,)]
    """
    return unbind(_tensor(input_x, "unstack"), axis)


def _int_like(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _pieces(n: int, indices_or_sections: Any, op: str) -> list[tuple[int, int]]:
    """(start, stop) of each piece along an axis of size n, as NumPy's array_split (MindSpore's rule)."""
    if _int_like(indices_or_sections):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError(f"{op}: the number of sections must be positive, got {k}")
        size, extra = divmod(n, k)
        bounds = [0]
        for i in range(k):
            bounds.append(bounds[-1] + size + (1 if i < extra else 0))
        return list(itertools.pairwise(bounds))
    if isinstance(indices_or_sections, (tuple, list)):
        for v in indices_or_sections:
            if not _int_like(v):
                raise TypeError(f"{op}: each split index must be an int, got {v!r}")
        cuts = [0] + [int(v) for v in indices_or_sections] + [n]
        out = []
        for a, b in itertools.pairwise(cuts):
            lo, hi, _ = builtins.slice(a, b).indices(n)
            out.append((lo, builtins.max(lo, hi)))
        return out
    raise TypeError(f"{op}: indices_or_sections must be an int or a tuple / list of ints, got "
                    f"{type(indices_or_sections).__name__}")


def tensor_split(input: Tensor, indices_or_sections: Any, axis: int = 0) -> tuple[Tensor, ...]:
    """Split ``input`` along ``axis`` into sections or at indices (NumPy's ``array_split``).

    Args:
        input (Tensor): the tensor to split.
        indices_or_sections (Union[int, tuple[int], list[int]]): an int n gives n pieces, the first
            ``size % n`` of them one longer; a sequence of indices cuts the axis before each index (indices
            follow Python's slicing rules: negative from the end, out of range clipped, pieces may be empty).
        axis (int): the axis to split. Default: 0.

    Returns:
        tuple[Tensor], the pieces.

    Examples:
        >>> [t.shape for t in ops.tensor_split(ops.arange(7), 3)]
        [(3,), (2,), (2,)]
    """
    input = _tensor(input, "tensor_split")
    if not _int_like(axis):
        raise TypeError(f"tensor_split: axis must be an int, got {axis!r}")
    a = norm_axis(int(axis), input.ndim, "tensor_split")
    n = int(input._data.shape[a])
    pieces = _pieces(n, indices_or_sections, "tensor_split")
    dim = input.shape[a]
    if is_symbolic(dim) and len(pieces) > 1:
        # a dynamic axis: the number of pieces is fixed, their bounds are graph values
        if _int_like(indices_or_sections):
            k = int(indices_or_sections)  # piece i has ceil((n - i) / k) items, as array_split's rule
            return tuple(Split.apply(input, axis=a, sizes=tuple((dim + (k - 1 - i)) // k for i in range(k))))
        cuts = [0, *(int(v) for v in indices_or_sections), None]  # slicing's rules: negative, clipped
        return tuple(Slice.apply(input, axes=(a,), starts=(lo,), ends=(hi,), steps=(1,))
                     for lo, hi in itertools.pairwise(cuts))
    sizes = [hi - lo for lo, hi in pieces]
    contiguous = all(p[1] == q[0] for p, q in itertools.pairwise(pieces)) and pieces[0][0] == 0 \
        and pieces[-1][1] == n
    if contiguous:
        if len(pieces) == 1:
            return (input,)
        return tuple(Split.apply(input, axis=a, sizes=tuple(sizes)))
    return tuple(Slice.apply(input, axes=(a,), starts=(lo,), ends=(hi,), steps=(1,)) for lo, hi in pieces)


def vsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    """``tensor_split`` along axis 0 (the input needs at least 1 dimension).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(8).reshape(4, 2), ms.int32)
        >>> print(ops.vsplit(x, 2)[1])
        [[4 5]
         [6 7]]
    """
    input = _tensor(input, "vsplit")
    if input.ndim < 1:
        raise ValueError("vsplit: the input must have at least 1 dimension, got a 0-d tensor")
    return tensor_split(input, indices_or_sections, 0)


def hsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    """``tensor_split`` along axis 1 (the input needs at least 2 dimensions).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(8).reshape(2, 4), ms.int32)
        >>> print(ops.hsplit(x, 2)[1])
        [[2 3]
         [6 7]]
    """
    input = _tensor(input, "hsplit")
    if input.ndim < 2:
        raise ValueError(f"hsplit: the input must have at least 2 dimensions, got shape {tuple(input.shape)}")
    return tensor_split(input, indices_or_sections, 1)


def dsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    """``tensor_split`` along axis 2 (the input needs at least 3 dimensions).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(8).reshape(1, 2, 4), ms.int32)
        >>> [p.shape for p in ops.dsplit(x, 2)]
        [(1, 2, 2), (1, 2, 2)]
    """
    input = _tensor(input, "dsplit")
    if input.ndim < 3:
        raise ValueError(f"dsplit: the input must have at least 3 dimensions, got shape {tuple(input.shape)}")
    return tensor_split(input, indices_or_sections, 2)


def _tensors(tensors: Any, op: str) -> list[Tensor]:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (tuple, list)):
        raise TypeError(f"{op}: expected a tuple or list of Tensors, got {type(tensors).__name__}")
    if not tensors:
        raise ValueError(f"{op}: needs at least one tensor")
    return [to_tensor(t) for t in tensors]


def hstack(tensors: Any) -> Tensor:
    """Join tensors horizontally: 1-D (and 0-d) tensors end to end, others along axis 1.

    Examples:
        >>> ops.hstack([ops.zeros((2, 1)), ops.ones((2, 2))]).shape
        (2, 3)
    """
    ts = [reshape(t, (1,)) if t.ndim == 0 else t for t in _tensors(tensors, "hstack")]
    return concat(ts, 0 if ts[0].ndim == 1 else 1)


def column_stack(tensors: Any) -> Tensor:
    """Stack tensors as the columns of a matrix: 0-d and 1-D tensors become columns (n, 1), then all are
    joined along axis 1.

    Examples:
        >>> ops.column_stack([ops.zeros(3), ops.ones((3, 2))]).shape
        (3, 3)
    """
    ts = [reshape(t, (-1, 1)) if t.ndim < 2 else t for t in _tensors(tensors, "column_stack")]
    return concat(ts, 1)


def expand(input_x: Tensor, size: Any) -> Tensor:
    """Broadcast ``input_x`` to ``size`` (a tuple or a 1-D Tensor; -1 keeps a dim), as ``broadcast_to``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0], [2.0]]), ms.float32)
        >>> print(ops.expand(x, Tensor(np.array([2, 3]), ms.int32)))
        [[1. 1. 1.]
         [2. 2. 2.]]
    """
    return broadcast_to(_tensor(input_x, "expand"), size)


def expand_as(input: Tensor, other: Tensor) -> Tensor:
    """Broadcast ``input`` to the shape of ``other``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> other = Tensor(np.zeros((3, 2)), ms.float32)
        >>> ops.expand_as(x, other).shape
        (3, 2)
    """
    return broadcast_to(_tensor(input, "expand_as"), _tensor(other, "expand_as").shape)


def view_as(input: Tensor, other: Tensor) -> Tensor:
    """``input`` reshaped to the shape of ``other`` (the element counts must agree).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(6), ms.float32)
        >>> other = Tensor(np.zeros((2, 3)), ms.float32)
        >>> ops.view_as(x, other).shape
        (2, 3)
    """
    return reshape(_tensor(input, "view_as"), _tensor(other, "view_as").shape)


def reverse(x: Tensor, axis: Any) -> Tensor:
    """Reverse ``x`` along the axes ``axis`` (as ``ops.flip``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3]]), ms.int32)
        >>> print(ops.reverse(x, axis=[1]))
        [[3 2 1]]
    """
    return flip(_tensor(x, "reverse"), axis)


def meshgrid(*inputs: Any, indexing: str = "xy") -> tuple[Tensor, ...]:
    """Coordinate grids from 1-D tensors.

    Args:
        inputs (Tensor): N 1-D tensors of one dtype (or one tuple / list of them).
        indexing (str): 'xy' (Cartesian: the first two output axes swapped) or 'ij' (matrix). Default: 'xy'.

    Returns:
        tuple[Tensor], N tensors of shape (len(x1), len(x0), len(x2), ...) for 'xy', (len(x0), len(x1), ...)
        for 'ij'.

    Examples:
        >>> [t.shape for t in ops.meshgrid(ops.arange(2), ops.arange(3))]
        [(3, 2), (3, 2)]
    """
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    ts = [to_tensor(t) for t in inputs]
    if not ts:
        raise ValueError("meshgrid: needs at least one tensor")
    for t in ts:
        if t.ndim != 1:
            raise ValueError(f"meshgrid: every input must be 1-D, got shapes {[tuple(u.shape) for u in ts]}")
    if len({t._data.dtype for t in ts}) > 1:
        raise TypeError(f"meshgrid: all inputs must have one dtype, got {[str(t.dtype) for t in ts]}")
    sizes = [t.shape[0] for t in ts]
    n = len(ts)
    swap = indexing == "xy" and n > 1
    if swap:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(ts):
        pos = (1 - i if i < 2 else i) if swap else i
        shape = [1] * n
        shape[pos] = t.shape[0]
        out.append(broadcast_to(reshape(t, tuple(shape)), tuple(sizes)))
    return tuple(out)


def padding(x: Tensor, pad_dim_size: int = 8) -> Tensor:
    """Extend the last dimension of ``x`` from 1 to ``pad_dim_size`` with zeros (deprecated in MindSpore in
    favour of ``ops.pad``).

    Args:
        x (Tensor): input of rank >= 2 whose last dimension is 1.
        pad_dim_size (int): the new size of the last dimension, positive. Default: 8.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[8.0], [10.0]]), ms.float32)
        >>> print(ops.padding(x, 4))
        [[ 8.  0.  0.  0.]
         [10.  0.  0.  0.]]
    """
    x = _tensor(x, "padding")
    if isinstance(pad_dim_size, bool) or not isinstance(pad_dim_size, (int, np.integer)):
        raise TypeError(f"padding: pad_dim_size must be an int, got {pad_dim_size!r}")
    if pad_dim_size < 1:
        raise ValueError(f"padding: pad_dim_size must be positive, got {pad_dim_size}")
    if x.ndim < 2 or int(x._data.shape[-1]) != 1:
        raise ValueError(f"padding: x must have rank >= 2 and a last dimension of 1, got shape "
                         f"{tuple(x.shape)}")
    return pad(x, (0, int(pad_dim_size) - 1))


def _tensor_expand(self: Tensor, *size: Any) -> Tensor:
    return expand(self, size[0] if len(size) == 1 and isinstance(size[0], (tuple, list, Tensor)) else size)


TENSOR_METHODS = {
    "ravel": ravel, "movedim": movedim, "moveaxis": moveaxis, "swapdims": swapdims,
    "tensor_split": tensor_split, "hsplit": hsplit, "vsplit": vsplit, "dsplit": dsplit, "view_as": view_as,
    "reverse": reverse, "expand": _tensor_expand,
}

__all__ = ["column_stack", "dsplit", "expand", "expand_as", "hsplit", "hstack", "meshgrid", "moveaxis",
           "movedim", "padding", "ravel", "reverse", "swapdims", "tensor_split", "unstack", "view_as",
           "vsplit"]
