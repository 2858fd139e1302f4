"""Diagonals of (batches of) matrices: diag, diagflat, diagonal, diagonal_scatter, matrix_band_part and
MindSpore's TensorFlow-style matrix_diag / matrix_diag_part / matrix_set_diag (several diagonals at once,
with the RIGHT_LEFT ... alignment rules).

A single diagonal moves between a vector and a matrix through the flat layout: in a row-major (a, b) matrix
the diagonal elements are b + 1 apart, so a vector padded to (L, b + 1) with zeros and flattened *is* the
matrix (shifted by the diagonal's start), and the matrix flattened and cut to (L, b + 1) has the diagonal
as its first column. Pad / Slice / Reshape only, so nothing grows with the matrix but the matrix itself.

The TensorFlow family is one Gather with a constant index over the flattened matrix axes, joined (Concat)
with the values to place and a padding slot: the index says, for every output position, which element it
takes. The gradients are those of the ops used (Gather's is a scatter-add).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx.ops.prims._util import norm_axis, to_tensor
from cellonnx.ops.prims.creation import ones_like, zeros_like
from cellonnx.ops.prims.index import Pad, Slice, concat
from cellonnx.ops.prims.math import cast, not_equal, where
from cellonnx.ops.prims.reduce import reduce_sum
from cellonnx.ops.prims.scatter import Gather
from cellonnx.ops.prims.shape import broadcast_to, reshape, squeeze
from cellonnx.tensor import Tensor

_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _movedim(x: Tensor, src: Sequence[int], dst: Sequence[int]) -> Tensor:
    from cellonnx.ops.composite.array_shape import movedim
    return movedim(x, tuple(src), tuple(dst))


def _take(parts: Sequence[Tensor], index: np.ndarray) -> Tensor:
    """Concat ``parts`` along the last axis and take the positions ``index`` (any shape) from it: the result
    has the parts' leading dims followed by ``index.shape``."""
    src = concat(list(parts), -1) if len(parts) > 1 else parts[0]
    lead = tuple(src.shape[:-1])
    flat = index.reshape(-1).astype(np.int64)
    out = Gather.apply(src, Tensor._make(flat), axis=src.ndim - 1)
    return reshape(out, lead + tuple(index.shape))


def _pad_last(x: Tensor, before: int, after: int) -> Tensor:
    """``x`` with zeros added before / after along its last axis (negative amounts cut)."""
    if not before and not after:
        return x
    pads = [0] * (2 * x.ndim)
    pads[x.ndim - 1], pads[-1] = before, after
    return Pad.apply(x, pads=tuple(pads), mode="constant", value=0)


def _flat_last2(x: Tensor) -> Tensor:
    return reshape(x, tuple(x.shape[:-2]) + (-1,))


def _diag_length(a: int, b: int, offset: int) -> int:
    return max(0, min(a, b - offset)) if offset >= 0 else max(0, min(a + offset, b))


def _diag_start(b: int, offset: int) -> int:
    """The flat position of the first element of diagonal ``offset`` in a row-major matrix of b columns."""
    return offset if offset >= 0 else -offset * b


def _embed(v: Tensor, a: int, b: int, offset: int) -> Tensor:
    """(..., L) -> (..., a, b): ``v`` on diagonal ``offset``, zeros elsewhere."""
    lead = tuple(v.shape[:-1])
    (length,) = _static_dims(v, 1, "a diagonal embedding")
    spread = reshape(_pad_last(reshape(v, lead + (length, 1)), 0, b), lead + (length * (b + 1),))
    start = _diag_start(b, offset)
    flat = _pad_last(spread, start, a * b - start - length * (b + 1))
    return reshape(flat, lead + (a, b))


def _static_dims(x: Tensor, k: int, op: str) -> tuple[int, ...]:
    """The last ``k`` dims as ints: the op lays its diagonals out in Python over them, so a dynamic one is
    refused (StaticDimRequired: a compiled step traces it static) rather than held at the example's size."""
    from cellonnx.graph.trace import require_static
    for d in x.shape[-k:]:
        require_static(d, f"{op} lays its diagonals out over each size and")
    return tuple(int(d) for d in x._data.shape[-k:])


def _read_from_graph(dim: Any) -> bool:
    """Whether ``dim`` is a dynamic dim of a traced graph (a SymInt): its size is read at run time."""
    return hasattr(dim, "onnx_name")


def _extract_masked(x: Tensor, offset: int) -> Tensor:
    """Diagonal ``offset`` of matrices whose row count is read from the graph (the column count is fixed):
    the matrices cut to the diagonal's rows and columns, (r, c) with r = min(rows, c), keep their first r
    rows of eye(c) and are summed along the rows. So the diagonal's length, min(rows, columns - offset),
    follows the rows at run time instead of the traced example's."""
    nd = x.ndim
    c = max(0, int(x._data.shape[-1]) - max(0, offset))
    cut = Slice.apply(x, axes=(nd - 2, nd - 1), starts=(max(0, -offset), max(0, offset)), ends=(None, None),
                      steps=(1, 1))
    cut = Slice.apply(cut, axes=(nd - 2,), starts=(0,), ends=(c,), steps=(1,))
    eye = Slice.apply(Tensor._make(np.eye(c, dtype=bool)), axes=(0,), starts=(0,), ends=(cut.shape[-2],),
                      steps=(1,))
    return reduce_sum(where(eye, cut, zeros_like(cut)), -1)


def _extract(x: Tensor, offset: int) -> Tensor:
    """(..., a, b) -> (..., L): diagonal ``offset``."""
    rows, cols = x.shape[-2], x.shape[-1]
    if _read_from_graph(rows) and not _read_from_graph(cols):
        return _extract_masked(x, offset)
    if _read_from_graph(cols) and not _read_from_graph(rows):
        return _extract_masked(_movedim(x, (-2, -1), (-1, -2)), -offset)
    a, b = _static_dims(x, 2, "a diagonal read")
    lead = tuple(x.shape[:-2])
    length = _diag_length(a, b, offset)
    flat = _flat_last2(x)
    if length == 0:
        return Slice.apply(flat, axes=(flat.ndim - 1,), starts=(0,), ends=(0,), steps=(1,))
    start = _diag_start(b, offset)
    rows = _pad_last(flat, -start, start + length * (b + 1) - a * b)      # length * (b + 1) from the start
    first = Slice.apply(reshape(rows, lead + (length, b + 1)), axes=(len(lead) + 1,), starts=(0,), ends=(1,),
                        steps=(1,))
    return squeeze(first, -1)


# ---------------------------------------------------------------- diag, diagflat, diagonal
def diag(input: Tensor) -> Tensor:
    """A tensor with ``input`` on its diagonal: the output has shape ``input.shape + input.shape`` and
    ``out[i..., i...] = input[i...]``, zeros elsewhere (a 1-D input gives a diagonal matrix).

    Examples:
        >>> print(ops.diag(Tensor([1.0, 2.0])))
        [[1. 0.]
         [0. 2.]]
    """
    x = to_tensor(input)
    if x.ndim < 1:
        raise ValueError("diag: the input must have at least 1 dimension, got a 0-d tensor")
    n = x.size
    return reshape(_embed(reshape(x, (-1,)), n, n, 0), tuple(x.shape) + tuple(x.shape))


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """A 2-D tensor with the flattened ``input`` on its ``offset``-th diagonal (above the main one when
    positive), zeros elsewhere; its size is ``input.size + |offset|``.

    Examples:
        >>> ops.diagflat(Tensor([1, 2]), 1).shape
        (3, 3)
    """
    x = to_tensor(input)
    if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)):
        raise TypeError(f"diagflat: offset must be an int, got {offset!r}")
    m = x.size + abs(int(offset))
    return _embed(reshape(x, (-1,)), m, m, int(offset))


def _check_dims(x: Tensor, dim1: int, dim2: int, op: str) -> tuple[int, int]:
    if x.ndim < 2:
        raise ValueError(f"{op}: the input must have at least 2 dimensions, got shape {tuple(x.shape)}")
    d1, d2 = norm_axis(dim1, x.ndim, op), norm_axis(dim2, x.ndim, op)
    if d1 == d2:
        raise ValueError(f"{op}: dim1 and dim2 must be different axes, got {dim1} and {dim2}")
    return d1, d2


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The ``offset``-th diagonal of the matrices spanned by axes ``dim1`` (rows) and ``dim2`` (columns):
    those axes are removed and the diagonal becomes the last axis.

    Examples:
        >>> print(ops.diagonal(Tensor(np.arange(12, dtype=np.float32).reshape(3, 4)), 1))
        [ 1.  6. 11.]
    """
    x = to_tensor(input)
    d1, d2 = _check_dims(x, dim1, dim2, "diagonal")
    return _extract(_movedim(x, (d1, d2), (-2, -1)), int(offset))


def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """``input`` with its ``offset``-th diagonal over axes (``dim1``, ``dim2``) replaced by ``src`` (which has
    the shape ``ops.diagonal(input, offset, dim1, dim2)`` would return).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((3, 3)), ms.float32)
        >>> src = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.diagonal_scatter(x, src))
        [[1. 0. 0.]
         [0. 2. 0.]
         [0. 0. 3.]]
    """
    x, s = to_tensor(input), to_tensor(src)
    d1, d2 = _check_dims(x, dim1, dim2, "diagonal_scatter")
    xm = _movedim(x, (d1, d2), (-2, -1))
    a, b = _static_dims(xm, 2, "diagonal_scatter")
    want = tuple(xm._data.shape[:-2]) + (_diag_length(a, b, int(offset)),)
    if tuple(s._data.shape) != want:
        raise ValueError(f"diagonal_scatter: src of shape {tuple(s.shape)} must have the diagonal's shape "
                         f"{want}")
    if s._data.dtype != x._data.dtype:
        s = cast(s, x._data.dtype)
    on_diagonal = not_equal(_embed(cast(ones_like(s), np.int8), a, b, int(offset)), 0)
    out = where(on_diagonal, _embed(s, a, b, int(offset)), xm)
    return _movedim(out, (-2, -1), (d1, d2))


# ---------------------------------------------------------------- matrix_band_part
def _int_arg(v: Any, op: str, what: str) -> int:
    if isinstance(v, Tensor):
        if v._data.size != 1:
            raise ValueError(f"{op}: {what} must be an int or a one-element tensor, got shape "
                             f"{tuple(v.shape)}")
        return int(v._data.reshape(()))
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{op}: {what} must be an int or an integer tensor, got {v!r}")
    return int(v)


def matrix_band_part(x: Tensor, lower: Any, upper: Any) -> Tensor:
    """Zero everything outside a band of each innermost matrix: keep ``lower`` subdiagonals and ``upper``
    superdiagonals (a negative count keeps the whole triangle).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((3, 3)), ms.float32)
        >>> print(ops.matrix_band_part(x, 0, 1))
        [[1. 1. 0.]
         [0. 1. 1.]
         [0. 0. 1.]]
    """
    x = to_tensor(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_band_part: x must have at least 2 dimensions, got shape {tuple(x.shape)}")
    lo, hi = _int_arg(lower, "matrix_band_part", "lower"), _int_arg(upper, "matrix_band_part", "upper")
    m, n = _static_dims(x, 2, "a matrix diagonal op")
    rows, cols = np.ogrid[0:m, 0:n]
    keep = ((lo < 0) | (rows - cols <= lo)) & ((hi < 0) | (cols - rows <= hi))
    return where(Tensor._make(keep), x, zeros_like(x))


# ---------------------------------------------------------------- matrix_diag family (TensorFlow V3 rules)
def _k_pair(k: Any, op: str) -> tuple[int, int]:
    if isinstance(k, Tensor):
        vals = [int(v) for v in k._data.reshape(-1)]
    elif isinstance(k, (tuple, list)):
        vals = [_int_arg(v, op, "k") for v in k]
    else:
        vals = [_int_arg(k, op, "k")]
    if len(vals) not in (1, 2):
        raise ValueError(f"{op}: k must hold one or two diagonal indices, got {vals}")
    k0, k1 = vals[0], vals[-1]
    if k0 > k1:
        raise ValueError(f"{op}: k[0] ({k0}) must not exceed k[1] ({k1})")
    return k0, k1


def _check_align(align: Any, op: str) -> str:
    if align not in _ALIGNS:
        raise ValueError(f"{op}: align must be one of {_ALIGNS}, got {align!r}")
    return align


def _diag_len(m: int, n: int, d: int) -> int:
    return min(m + min(d, 0), n - max(d, 0))


def _layout(m: int, n: int, k0: int, k1: int, align: str) -> tuple[np.ndarray, np.ndarray, int]:
    """For diagonals d = k1, k1-1, ..., k0 (rows of the packed form) and positions j < max_len: the matrix
    row and column of each packed element, -1 where the packed element is padding."""
    max_len = min(m + min(k1, 0), n - max(k0, 0))
    left_super = align in ("LEFT_LEFT", "LEFT_RIGHT")
    left_sub = align in ("LEFT_LEFT", "RIGHT_LEFT")
    nd = k1 - k0 + 1
    rows = np.full((nd, max(max_len, 0)), -1, np.int64)
    cols = rows.copy()
    for i in range(nd):
        d = k1 - i
        length = _diag_len(m, n, d)
        shift = 0 if (d >= 0 and left_super) or (d <= 0 and left_sub) else max_len - length
        for j in range(max_len):
            t = j - shift
            if 0 <= t < length:
                rows[i, j] = t - min(d, 0)
                cols[i, j] = t + max(d, 0)
    return rows, cols, max_len


def _padding(value: Any, like: Tensor, lead: tuple) -> Tensor:
    pv = to_tensor(value, like)
    if pv._data.size != 1:
        raise ValueError(f"padding_value must be a single number, got shape {tuple(pv.shape)}")
    if pv._data.dtype != like._data.dtype:
        pv = cast(pv, like._data.dtype)
    return broadcast_to(reshape(pv, (1,) * (len(lead) + 1)), lead + (1,))


def matrix_diag_part(x: Tensor, k: Any, padding_value: Any, align: str = "RIGHT_LEFT") -> Tensor:
    """The diagonals ``k[0] .. k[1]`` of the innermost matrices of ``x``, packed as TensorFlow's
    MatrixDiagPartV3: shape (..., k[1] - k[0] + 1, max_len), rows from diagonal k[1] down to k[0] (the
    diagonal axis is dropped for a single k); shorter diagonals are padded with ``padding_value`` on the side
    ``align`` says ('RIGHT_LEFT': superdiagonals aligned right, subdiagonals left).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> k = Tensor(0, ms.int32)
        >>> padding_value = Tensor(0.0, ms.float32)
        >>> print(ops.matrix_diag_part(x, k, padding_value))
        [1. 4.]
    """
    x = to_tensor(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_diag_part: x must have at least 2 dimensions, got shape {tuple(x.shape)}")
    k0, k1 = _k_pair(k, "matrix_diag_part")
    align = _check_align(align, "matrix_diag_part")
    m, n = _static_dims(x, 2, "a matrix diagonal op")
    if not (-m < k0 <= k1 < n) and not (m == 0 or n == 0):
        raise ValueError(f"matrix_diag_part: k ({k0}, {k1}) must lie in ({-m}, {n}) for matrices of shape "
                         f"({m}, {n})")
    rows, cols, _ = _layout(m, n, k0, k1, align)
    index = np.where(rows >= 0, rows * n + cols, m * n)
    lead = tuple(x.shape[:-2])
    out = _take([_flat_last2(x), _padding(padding_value, x, lead)], index)
    return reshape(out, lead + (index.shape[1],)) if k0 == k1 else out


def matrix_diag(x: Tensor, k: Any = 0, num_rows: Any = -1, num_cols: Any = -1, padding_value: Any = 0,
                align: str = "RIGHT_LEFT") -> Tensor:
    """Matrices with the packed diagonals ``x`` placed on diagonals ``k[0] .. k[1]`` and ``padding_value``
    elsewhere (TensorFlow's MatrixDiagV3; the inverse of :func:`matrix_diag_part`).

    Args:
        x (Tensor): (..., max_len) for a single k, (..., k[1] - k[0] + 1, max_len) otherwise.
        k (Union[int, Tensor]): a diagonal index or a pair (low, high). Default: 0.
        num_rows, num_cols (Union[int, Tensor]): the matrix size; -1 derives it from x and k. Default: -1.
        padding_value (Union[number, Tensor]): the value off the diagonals. Default: 0.
        align (str): how shorter diagonals sit in x, see :func:`matrix_diag_part`. Default: 'RIGHT_LEFT'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.matrix_diag(x))
        [[1. 0.]
         [0. 2.]]
    """
    x = to_tensor(x)
    k0, k1 = _k_pair(k, "matrix_diag")
    align = _check_align(align, "matrix_diag")
    if x.ndim < 1 or (k0 != k1 and x.ndim < 2):
        raise ValueError(f"matrix_diag: x of shape {tuple(x.shape)} is too small for k ({k0}, {k1})")
    nd = k1 - k0 + 1
    if k0 != k1 and int(x._data.shape[-2]) != nd:
        raise ValueError(f"matrix_diag: x of shape {tuple(x.shape)} must hold {nd} diagonals (k {k0}..{k1}) "
                         "in its second-to-last axis")
    (length,) = _static_dims(x, 1, "matrix_diag")
    min_rows, min_cols = length - min(k1, 0), length + max(k0, 0)
    rows_n = _int_arg(num_rows, "matrix_diag", "num_rows")
    cols_n = _int_arg(num_cols, "matrix_diag", "num_cols")
    if rows_n == -1 and cols_n == -1:
        rows_n = cols_n = max(min_rows, min_cols)
    elif rows_n == -1:
        rows_n = min_rows
    elif cols_n == -1:
        cols_n = min_cols
    if rows_n < min_rows or cols_n < min_cols or (rows_n != min_rows and cols_n != min_cols):
        raise ValueError(f"matrix_diag: num_rows {rows_n} and num_cols {cols_n} do not fit diagonals of "
                         f"length {length} at k ({k0}, {k1}) (one of them must be {min_rows} rows / "
                         f"{min_cols} columns)")
    rows, cols, _ = _layout(rows_n, cols_n, k0, k1, align)
    index = np.full((rows_n, cols_n), nd * length, np.int64)
    i, j = np.nonzero(rows >= 0)
    index[rows[i, j], cols[i, j]] = i * length + j
    lead = tuple(x.shape[:-1]) if k0 == k1 else tuple(x.shape[:-2])
    flat = reshape(x, lead + (-1,))
    return _take([flat, _padding(padding_value, x, lead)], index)


def matrix_set_diag(x: Tensor, diagonal: Tensor, k: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """``x`` with the diagonals ``k[0] .. k[1]`` of its innermost matrices replaced by the packed
    ``diagonal`` (layout as :func:`matrix_diag_part` returns it; TensorFlow's MatrixSetDiagV3).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.zeros((2, 2)), ms.float32)
        >>> diagonal = Tensor(np.array([5.0, 6.0]), ms.float32)
        >>> print(ops.matrix_set_diag(x, diagonal))
        [[5. 0.]
         [0. 6.]]
    """
    x, dg = to_tensor(x), to_tensor(diagonal)
    if x.ndim < 2:
        raise ValueError(f"matrix_set_diag: x must have at least 2 dimensions, got shape {tuple(x.shape)}")
    k0, k1 = _k_pair(k, "matrix_set_diag")
    align = _check_align(align, "matrix_set_diag")
    m, n = _static_dims(x, 2, "a matrix diagonal op")
    rows, cols, max_len = _layout(m, n, k0, k1, align)
    lead = tuple(x._data.shape[:-2])
    want = lead + ((max_len,) if k0 == k1 else (k1 - k0 + 1, max_len))
    if tuple(dg._data.shape) != want:
        raise ValueError(f"matrix_set_diag: diagonal of shape {tuple(dg.shape)}, expected {want} for x "
                         f"{tuple(x.shape)} and k ({k0}, {k1})")
    if dg._data.dtype != x._data.dtype:
        dg = cast(dg, x._data.dtype)
    index = np.arange(m * n, dtype=np.int64).reshape(m, n)
    i, j = np.nonzero(rows >= 0)
    index[rows[i, j], cols[i, j]] = m * n + i * max_len + j
    return _take([_flat_last2(x), reshape(dg, tuple(x.shape[:-2]) + (-1,))], index)


def _tensor_diagonal(self: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    return diagonal(self, offset, axis1, axis2)


TENSOR_METHODS = {"diag": diag, "diagonal": _tensor_diagonal, "diagonal_scatter": diagonal_scatter}

__all__ = ["diag", "diagflat", "diagonal", "diagonal_scatter", "matrix_band_part", "matrix_diag",
           "matrix_diag_part", "matrix_set_diag"]
