"""Matrices and grids: tri / tril / triu, diag / diagflat / diagonal / trace, their index helpers, vander,
meshgrid, mgrid / ogrid, indices and ix_ (mindspore.numpy.array_creations)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.graph.trace import require_static
from cellonnx.numpy._utils import axis_index, cast, check_dtype, scalar_like, to_tensor
from cellonnx.numpy.creation import arange, linspace
from cellonnx.ops.prims.index import Pad
from cellonnx.tensor import Tensor


def _tri_mask(n: int, m: int, k: int) -> Tensor:
    """Bool (n, m): True at and below the ``k``-th diagonal."""
    rows = F.reshape(F.arange(0, n, 1, dtype=dtypes.int32), (n, 1))
    cols = F.reshape(F.arange(0, m, 1, dtype=dtypes.int32), (1, m))
    return F.greater_equal(F.add(rows, int(k)), cols)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = dtypes.float32) -> Tensor:
    """Returns a tensor with ones at and below the given diagonal and zeros elsewhere.

    Args:
        N (int): number of rows.
        M (int, optional): number of columns. Default: N.
        k (int): the diagonal at and below which the tensor is filled (0 the main one, positive above it).
            Default: 0.
        dtype (Union[DType, str]): the dtype. Default: float32.

    Returns:
        Tensor of shape (N, M).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.tri(3, 3, 0))
        [[1. 0. 0.]
         [1. 1. 0.]
         [1. 1. 1.]]
    """
    return cast(_tri_mask(N, N if M is None else M, k), check_dtype(dtype, "tri"))


def _triangle(m: Any, k: int, lower: bool, op: str) -> Tensor:
    m = to_tensor(m)
    if m.ndim < 1:
        raise ValueError(f"{op}: the input must have at least one dimension, got a scalar")
    n_rows, n_cols = (m.shape[0], m.shape[0]) if m.ndim == 1 else tuple(m.shape[-2:])
    zero = scalar_like(0, m)
    if lower:
        return F.where(_tri_mask(n_rows, n_cols, k), m, zero)
    return F.where(_tri_mask(n_rows, n_cols, k - 1), zero, m)


def tril(m: Any, k: int = 0) -> Tensor:
    """Returns a lower triangle of a tensor: the elements above the ``k``-th diagonal are zeroed.

    Args:
        m (Union[Tensor, list, tuple]): input; a 1-D input is broadcast to a square matrix first; for more
            than two dimensions the last two are the matrices.
        k (int): the diagonal above which to zero (0 the main one, positive above it). Default: 0.

    Returns:
        Tensor (a 1-D input gives a square matrix).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.tril(mnp.ones((3, 3))))
        [[1. 0. 0.]
         [1. 1. 0.]
         [1. 1. 1.]]
    """
    return _triangle(m, k, True, "tril")


def triu(m: Any, k: int = 0) -> Tensor:
    """Returns an upper triangle of a tensor: the elements below the ``k``-th diagonal are zeroed.

    Args:
        m (Union[Tensor, list, tuple]): input (see ``tril``).
        k (int): the diagonal below which to zero. Default: 0.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.triu(mnp.ones((3, 3)), 1))
        [[0. 1. 1.]
         [0. 0. 1.]
         [0. 0. 0.]]
    """
    return _triangle(m, k, False, "triu")


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """Returns specified diagonals.

    Args:
        a (Tensor): input of at least two dimensions.
        offset (int): the diagonal (positive above the main one). Default: 0.
        axis1 (int): the axis of the rows. Default: 0.
        axis2 (int): the axis of the columns. Default: 1.

    Returns:
        Tensor, the other axes followed by the diagonal.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.diagonal(mnp.arange(9).reshape(3, 3)))
        [0 4 8]
    """
    a = to_tensor(a)
    nd = a.ndim
    if nd < 2:
        raise ValueError(f"diagonal: the input must have at least two dimensions, got shape {tuple(a.shape)}")
    a1, a2 = axis_index(axis1, nd, "diagonal"), axis_index(axis2, nd, "diagonal")
    if a1 == a2:
        raise ValueError(f"diagonal: axis1 and axis2 must differ, got {axis1} and {axis2}")
    return F.diagonal(a, int(offset), a1, a2)  # follows a dynamic row or column count (or refuses both)


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
    """Returns the sum along diagonals of the tensor.

    Args:
        a (Tensor): input of at least two dimensions.
        offset (int): the diagonal. Default: 0.
        axis1 (int): the axis of the rows. Default: 0.
        axis2 (int): the axis of the columns. Default: 1.
        dtype (Union[DType, str], optional): the dtype to sum in. Default: the input's, with integers and
            bools summed as int64 (uint64 for unsigned ones).

    Returns:
        Tensor, the sums over the other axes.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.trace(mnp.arange(9).reshape(3, 3)))
        12
    """
    d = diagonal(a, offset, axis1, axis2)
    if dtype is not None:
        d = cast(d, check_dtype(dtype, "trace"))
    elif d._data.dtype.kind in "bi":
        d = cast(d, np.int64)
    elif d._data.dtype.kind == "u":
        d = cast(d, np.uint64)
    return F.sum(d, -1)


def diagflat(v: Any, k: int = 0) -> Tensor:
    """Creates a two-dimensional tensor with the flattened input as a diagonal.

    Args:
        v (Tensor): input, flattened.
        k (int): the diagonal to set (positive above the main one). Default: 0.

    Returns:
        Tensor of shape (n + |k|, n + |k|), n the size of ``v``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.diagflat(mnp.array([1, 2])))
        [[1 0]
         [0 2]]
    """
    v = F.reshape(to_tensor(v), (-1,))
    n, kk = v.shape[0], abs(int(k))  # a dynamic size stays a graph value (never equal to 0)
    if n == 0:
        return F.zeros((kk, kk), dtype=v.dtype)
    eye = F.cast(F.eye(n, n, dtypes.float32), np.bool_)  # (a bool EyeLike has no onnxruntime kernel)
    square = F.where(eye, F.reshape(v, (-1, 1)), scalar_like(0, v))
    if k == 0:
        return square
    pads = (0, kk, kk, 0) if k > 0 else (kk, 0, 0, kk)
    return Pad.apply(square, pads=pads, mode="constant", value=0)


def diag(v: Any, k: int = 0) -> Tensor:
    """Extracts a diagonal or constructs a diagonal tensor.

    Args:
        v (Tensor): a 1-D input (put on the diagonal) or a 2-D one (whose diagonal is returned).
        k (int): the diagonal (positive above the main one). Default: 0.

    Returns:
        Tensor, 2-D for a 1-D input, 1-D for a 2-D one.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.diag(mnp.array([1, 2, 3])))
        [[1 0 0]
         [0 2 0]
         [0 0 3]]
    """
    v = to_tensor(v)
    if v.ndim == 1:
        return diagflat(v, k)
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError(f"diag: the input must be 1-D or 2-D, got shape {tuple(v.shape)}")


def diag_indices(n: int, ndim: int = 2) -> tuple[Tensor, ...]:
    """Returns the indices to access the main diagonal of an array.

    Args:
        n (int): the size along each dimension.
        ndim (int): the number of dimensions. Default: 2.

    Returns:
        Tuple of ``ndim`` int32 tensors ``arange(n)``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> rows, cols = mnp.diag_indices(3)
        >>> print(rows, cols)
        [0 1 2] [0 1 2]
    """
    for name, v in (("n", n), ("ndim", ndim)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"diag_indices: {name} must be an int, got {type(v).__name__}")
    idx = arange(0, n)
    return (idx,) * ndim


def _tri_indices(n: Any, k: Any, m: Any, upper: bool, op: str) -> tuple[Tensor, Tensor]:
    for name, v in (("n", n), ("k", k), ("m", m)):
        if v is not None and not isinstance(v, (int, float, bool, np.number)):
            raise TypeError(f"{op}: {name} must be a number, got {type(v).__name__}")
    rows = math.ceil(n)
    cols = rows if m is None else math.ceil(m)
    i, j = (np.triu_indices if upper else np.tril_indices)(rows, k, cols)
    return Tensor(i.astype(np.int32)), Tensor(j.astype(np.int32))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Tensor, Tensor]:
    """Returns the indices for the upper-triangle of an (n, m) array.

    Args:
        n (int): number of rows.
        k (int): the diagonal offset. Default: 0.
        m (int, optional): number of columns. Default: n.

    Returns:
        Tuple of two int32 tensors (row indices, column indices).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> rows, cols = mnp.triu_indices(3)
        >>> print(rows)
        [0 0 0 1 1 2]
        >>> print(cols)
        [0 1 2 1 2 2]
    """
    return _tri_indices(n, k, m, True, "triu_indices")


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Tensor, Tensor]:
    """Returns the indices for the lower-triangle of an (n, m) array.

    Args:
        n (int): number of rows.
        k (int): the diagonal offset. Default: 0.
        m (int, optional): number of columns. Default: n.

    Returns:
        Tuple of two int32 tensors (row indices, column indices).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> rows, cols = mnp.tril_indices(3)
        >>> print(rows)
        [0 1 1 2 2 2]
        >>> print(cols)
        [0 0 1 0 1 2]
    """
    return _tri_indices(n, k, m, False, "tril_indices")


def _from(arr: Any, op: str) -> tuple[int, int]:
    arr = to_tensor(arr)
    if arr.ndim != 2:
        raise ValueError(f"{op}: the input must be 2-D, got shape {tuple(arr.shape)}")
    for d in arr.shape:
        require_static(d, f"{op} lists the indices of each size and")
    return int(arr.shape[0]), int(arr.shape[1])


def triu_indices_from(arr: Any, k: int = 0) -> tuple[Tensor, Tensor]:
    """Returns the indices for the upper-triangle of a 2-D ``arr``.

    Args:
        arr (Tensor): a 2-D tensor.
        k (int): the diagonal offset. Default: 0.

    Returns:
        Tuple of two int32 tensors.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.ones((3, 3))
        >>> rows, cols = mnp.triu_indices_from(x, 1)
        >>> print(rows, cols)
        [0 0 1] [1 2 2]
    """
    n, m = _from(arr, "triu_indices_from")
    return triu_indices(n, k, m)


def tril_indices_from(arr: Any, k: int = 0) -> tuple[Tensor, Tensor]:
    """Returns the indices for the lower-triangle of a 2-D ``arr``.

    Args:
        arr (Tensor): a 2-D tensor.
        k (int): the diagonal offset. Default: 0.

    Returns:
        Tuple of two int32 tensors.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.ones((3, 3))
        >>> rows, cols = mnp.tril_indices_from(x)
        >>> print(rows, cols)
        [0 1 1 2 2 2] [0 0 1 0 1 2]
    """
    n, m = _from(arr, "tril_indices_from")
    return tril_indices(n, k, m)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Tensor:
    """Generates a Vandermonde matrix: the columns are powers of ``x``.

    Args:
        x (Union[Tensor, list, tuple]): a 1-D input.
        N (int, optional): number of columns. Default: the size of ``x``.
        increasing (bool): powers increasing from left to right. Default: False.

    Returns:
        Tensor of shape (len(x), N), ``x``'s dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.vander(mnp.array([1, 2, 3]), 3))
        [[1 1 1]
         [4 2 1]
         [9 3 1]]
    """
    x = to_tensor(x)
    if x.ndim != 1:
        raise ValueError(f"vander: x must be 1-D, got shape {tuple(x.shape)}")
    N = N or x.size
    if isinstance(N, bool) or not isinstance(N, (int, np.integer)):
        raise TypeError(f"vander: N must be an int, got {type(N).__name__}")
    if N <= 0:
        raise ValueError(f"vander: N must be positive, got {N}")
    if not isinstance(increasing, bool):
        raise TypeError(f"vander: increasing must be a bool, got {type(increasing).__name__}")
    powers = np.arange(N) if increasing else np.arange(N - 1, -1, -1)
    exponent = Tensor(powers.astype(x._data.dtype).reshape(1, N))
    return F.pow(F.reshape(x, (-1, 1)), exponent)


def meshgrid(*xi: Any, sparse: bool = False, indexing: str = "xy") -> list[Tensor]:
    """Returns coordinate matrices from coordinate vectors.

    Args:
        *xi (Tensor): 1-D coordinate vectors (others are flattened).
        sparse (bool): return broadcastable grids (size 1 along the other axes). Default: False.
        indexing (str): 'xy' (Cartesian: the first two output axes swapped) or 'ij' (matrix). Default: 'xy'.

    Returns:
        List of tensors.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> xx, yy = mnp.meshgrid(mnp.array([1, 2, 3]), mnp.array([4, 5]))
        >>> print(xx)
        [[1 2 3]
         [1 2 3]]
        >>> print(yy)
        [[4 4 4]
         [5 5 5]]
    """
    if not isinstance(sparse, bool):
        raise TypeError(f"meshgrid: sparse must be a bool, got {type(sparse).__name__}")
    if indexing not in ("xy", "ij"):
        raise TypeError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    grids = [F.reshape(to_tensor(x), (-1,)) for x in xi]
    ndim = len(grids)

    def position(i: int) -> int:  # the output axis of input i
        if indexing == "xy" and ndim >= 2 and i in (0, 1):
            return 1 - i
        return i

    shape_out = [0] * ndim
    for i, g in enumerate(grids):
        shape_out[position(i)] = g.shape[0]
    out = []
    for i, g in enumerate(grids):
        shape = [1] * ndim
        shape[position(i)] = shape_out[position(i)]
        g = F.reshape(g, tuple(shape))
        out.append(g if sparse else F.broadcast_to(g, tuple(shape_out)))
    return out


class NdGrid:
    """``mgrid[...]`` / ``ogrid[...]``: grids from slices; a complex step ``5j`` means 5 points with the end
    included (linspace), a real one a step (arange)."""

    def __init__(self, sparse: bool = False) -> None:
        self.sparse = sparse

    def __getitem__(self, keys: Any) -> Any:
        from cellonnx.numpy.manipulation import concatenate
        if isinstance(keys, slice):
            keys = (keys,)
        vectors = []
        for key in keys:
            if not isinstance(key, slice):
                raise TypeError(f"{type(self).__name__}: expected slices, got {key!r}")
            start = 0 if key.start is None else key.start
            step = 1 if key.step is None else key.step
            if isinstance(step, complex):
                vectors.append(linspace(start, key.stop, int(abs(step))))
            else:
                vectors.append(arange(start, key.stop, step))
        grids = meshgrid(*vectors, sparse=self.sparse, indexing="ij")
        if len(grids) == 1:
            return grids[0]
        if self.sparse:
            return grids
        return concatenate([F.expand_dims(g, 0) for g in grids])


class MGridClass(NdGrid):
    """``mgrid[0:3, 0:2]``: a dense multi-dimensional mesh grid (stacked along a new first axis)."""

    def __init__(self) -> None:
        super().__init__(sparse=False)


class OGridClass(NdGrid):
    """``ogrid[0:3, 0:2]``: an open mesh grid (a list of broadcastable tensors)."""

    def __init__(self) -> None:
        super().__init__(sparse=True)


mgrid = MGridClass()
ogrid = OGridClass()


def indices(dimensions: Any, dtype: Any = dtypes.int32, sparse: bool = False) -> list[Tensor]:
    """Returns tensors representing the indices of a grid.

    Args:
        dimensions (Union[tuple, list]): the shape of the grid.
        dtype (Union[DType, str]): the dtype. Default: int32.
        sparse (bool): broadcastable grids instead of full ones. Default: False.

    Returns:
        List of tensors, one per dimension (as MindSpore; NumPy stacks the dense ones).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> grid = mnp.indices((2, 3))
        >>> len(grid)
        2
        >>> print(grid[1])
        [[0 1 2]
         [0 1 2]]
    """
    if not isinstance(dimensions, (tuple, list)):
        raise TypeError(f"indices: dimensions must be a tuple or list, got {type(dimensions).__name__}")
    d = check_dtype(dtype, "indices")
    return meshgrid(*[arange(0, n, dtype=d) for n in dimensions], sparse=sparse, indexing="ij")


def ix_(*args: Any) -> tuple[Tensor, ...]:
    """Constructs an open mesh from multiple sequences.

    Args:
        *args (Tensor): 1-D integer (or boolean: their True positions) sequences.

    Returns:
        Tuple of tensors, the i-th shaped 1 except along axis i.
    """
    ndim = len(args)
    out = []
    for i, arr in enumerate(args):
        t = to_tensor(arr)
        if t.ndim != 1:
            raise ValueError(f"ix_: each sequence must be 1-D, got shape {tuple(t.shape)} at position {i}")
        if t._data.dtype == np.bool_:
            t = F.reshape(F.nonzero(t), (-1,))
        shape = [1] * ndim
        shape[i] = t.shape[0]
        out.append(F.reshape(t, tuple(shape)))
    return tuple(out)

__all__ = ["diag", "diag_indices", "diagflat", "diagonal", "indices", "ix_", "meshgrid", "mgrid", "ogrid",
           "trace", "tri", "tril", "tril_indices", "tril_indices_from", "triu", "triu_indices",
           "triu_indices_from", "vander"]
