"""Sparse tensors as MindSpore has them: COOTensor, CSRTensor, RowTensor (and the deprecated SparseTensor).

Each is a small container of Tensors (integer positions and the values) plus the dense shape. Everything is
computed on ``values`` with cellonnx ops, so results are differentiable with respect to the values (the
positions carry no gradient, as MindSpore stops it) and a function that ends in ``to_dense()`` exports to
ONNX as a scatter into zeros. The functions behind the methods are in cellonnx/ops/composite/sparse.py.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

_INDEX_DTYPES = (np.int16, np.int32, np.int64)


def _shape_tuple(shape: Any, what: str) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = shape._data.tolist()
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise TypeError(f"{what}: shape must be a tuple of non-negative ints, got {shape!r}")
    return tuple(int(d) for d in shape)


def _index_tensor(t: Any, what: str, name: str) -> Tensor:
    if not isinstance(t, Tensor):
        raise TypeError(f"{what}: {name} must be a Tensor, got {type(t).__name__}")
    if t._data.dtype not in _INDEX_DTYPES:
        raise TypeError(f"{what}: {name} must be int16, int32 or int64, got {t.dtype}")
    if not t.requires_grad and t._node is None:
        return t
    from cellonnx.ops import stop_gradient
    return stop_gradient(t)  # positions carry no gradient (MindSpore stops it too)


def _values_tensor(t: Any, what: str) -> Tensor:
    if not isinstance(t, Tensor):
        raise TypeError(f"{what}: values must be a Tensor, got {type(t).__name__}")
    return t


class _Sparse:
    """What COOTensor and CSRTensor share: positions, values and the dense shape; element-wise maps of the
    values keep the positions (``_with_values``)."""

    _indices: Tensor
    _values: Tensor
    _shape: tuple[int, ...]

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def dtype(self) -> Any:
        return self._values.dtype

    @property
    def size(self) -> int:
        """The number of stored values."""
        return int(self._values._data.size)

    @property
    def itemsize(self) -> int:
        return int(self._values._data.itemsize)

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def _with_values(self, values: Tensor) -> Any:
        raise NotImplementedError

    def astype(self, dtype: Any) -> Any:
        from cellonnx.ops import cast
        return self._with_values(cast(self._values, dtype))

    def abs(self) -> Any:
        from cellonnx.ops import abs as _abs
        return self._with_values(_abs(self._values))

    def __neg__(self) -> Any:
        from cellonnx.ops import neg
        return self._with_values(neg(self._values))


class COOTensor(_Sparse):
    """A sparse tensor of coordinates and values: ``dense[indices[i]] = values[i]``.

    Args:
        indices (Tensor): int16 / int32 / int64 of shape (N, ndims), the positions of the values.
        values (Tensor): 1-D of shape (N,), the values.
        shape (tuple[int]): the dense shape, ndims ints.
        coo_tensor (COOTensor): build from another COOTensor instead.

    Repeated coordinates are kept (``coalesce()`` sums them); ``to_dense()`` adds them up.

    Examples:
        >>> from cellonnx import COOTensor
        >>> x = COOTensor(Tensor(np.array([[0, 1], [1, 2]], np.int32)), Tensor([1.0, 2.0]), (3, 4))
        >>> x.to_dense().shape
        (3, 4)
    """


    def __init__(self, indices: Any = None, values: Any = None, shape: Any = None,
                 coo_tensor: Any = None) -> None:
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise TypeError(f"COOTensor: coo_tensor must be a COOTensor, got {type(coo_tensor).__name__}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("COOTensor: give either coo_tensor or indices, values and shape, not both")
            indices, values, shape = coo_tensor._indices, coo_tensor._values, coo_tensor._shape
        indices = _index_tensor(indices, "COOTensor", "indices")
        values = _values_tensor(values, "COOTensor")
        shape = _shape_tuple(shape, "COOTensor")
        if indices.ndim != 2 or values.ndim != 1 or indices._data.shape[0] != values._data.shape[0] or \
                indices._data.shape[1] != len(shape):
            raise ValueError(f"COOTensor: indices {tuple(indices.shape)}, values {tuple(values.shape)} and "
                             f"shape {shape} must be (N, ndims), (N,) and ndims ints")
        self._indices, self._values, self._shape = indices, values, shape

    def _with_values(self, values: Tensor) -> COOTensor:
        return COOTensor(self._indices, values, self._shape)

    def to_tuple(self) -> tuple[Tensor, Tensor, tuple[int, ...]]:
        return self._indices, self._values, self._shape

    def __repr__(self) -> str:
        return f"COOTensor(shape={list(self._shape)}, dtype={self.dtype}, indices={self._indices!r}, " \
               f"values={self._values!r})"

    # ---- conversions ----
    def to_dense(self) -> Tensor:
        """The dense tensor (repeated coordinates add up)."""
        from cellonnx.ops.composite.sparse import coo_to_dense
        return coo_to_dense(self)

    def to_csr(self) -> CSRTensor:
        """The CSRTensor of this 2-D tensor (entries ordered by row, the order within a row kept)."""
        from cellonnx.ops.composite.sparse import coo_to_csr
        return coo_to_csr(self)

    def coalesce(self) -> COOTensor:
        """A copy with repeated coordinates summed and coordinates in row-major order (int64 indices)."""
        from cellonnx.ops.composite.sparse import coo_coalesce
        return coo_coalesce(self)


    def add(self, other: COOTensor, thresh: Any) -> COOTensor:
        """``coo_add(self, other, thresh)``."""
        from cellonnx.ops.composite.sparse import coo_add
        return coo_add(self, other, thresh)

    # ---- arithmetic ----
    def _same_shape(self, other: Any, op: str) -> None:
        if tuple(other.shape) != self._shape:
            raise ValueError(f"COOTensor {op}: shapes {self._shape} and {tuple(other.shape)} must be equal")

    def __add__(self, other: Any) -> Any:
        from cellonnx.ops.composite.sparse import coo_add
        from cellonnx.ops.prims.scatter import tensor_scatter_add
        self._same_shape(other, "+")
        if isinstance(other, COOTensor):
            return coo_add(self, other, Tensor(np.zeros((), self._values._data.dtype)))
        if isinstance(other, Tensor):
            return tensor_scatter_add(other, self._indices, self._values)
        raise TypeError(f"COOTensor + {type(other).__name__} is not supported (COOTensor or Tensor expected)")

    def __sub__(self, other: Any) -> Any:
        from cellonnx.ops import neg
        if isinstance(other, Tensor):
            self._same_shape(other, "-")
            from cellonnx.ops.prims.scatter import tensor_scatter_add
            return tensor_scatter_add(neg(other), self._indices, self._values)
        if isinstance(other, COOTensor):
            return self + (-other)
        raise TypeError(f"COOTensor - {type(other).__name__} is not supported (COOTensor or Tensor expected)")

    def __mul__(self, other: Any) -> COOTensor:
        from cellonnx.ops import gather_nd, mul
        self._same_shape(other, "*")
        if not isinstance(other, Tensor):
            raise TypeError(f"COOTensor * {type(other).__name__} is not supported (a Tensor of its shape "
                            "expected)")
        return COOTensor(self._indices, mul(self._values, gather_nd(other, self._indices)), self._shape)

    def __truediv__(self, other: Any) -> COOTensor:
        from cellonnx.ops import div, gather_nd
        self._same_shape(other, "/")
        if not isinstance(other, Tensor):
            raise TypeError(f"COOTensor / {type(other).__name__} is not supported (a Tensor of its shape "
                            "expected)")
        return COOTensor(self._indices, div(self._values, gather_nd(other, self._indices)), self._shape)


class CSRTensor(_Sparse):
    """A compressed sparse row matrix: the values of row i are ``values[indptr[i]:indptr[i + 1]]``, in the
    columns ``indices[indptr[i]:indptr[i + 1]]``.

    Args:
        indptr (Tensor): int16 / int32 / int64 of shape (rows + 1,), non-decreasing from 0 to N.
        indices (Tensor): the column of each value, shape (N,), same dtype family.
        values (Tensor): shape (N,) (or (N, ...) with trailing dense dims ``shape[2:]``).
        shape (tuple[int]): the dense shape (rows, columns, ...).
        csr_tensor (CSRTensor): build from another CSRTensor instead.

    Examples:
        >>> from cellonnx import CSRTensor
        >>> x = CSRTensor(Tensor(np.array([0, 1, 2], np.int32)), Tensor(np.array([0, 1], np.int32)),
        ...               Tensor([1.0, 2.0]), (2, 4))
        >>> x.to_dense().shape
        (2, 4)
    """

    _indptr: Tensor

    def __init__(self, indptr: Any = None, indices: Any = None, values: Any = None, shape: Any = None,
                 csr_tensor: Any = None) -> None:
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"CSRTensor: csr_tensor must be a CSRTensor, got {type(csr_tensor).__name__}")
            if not (indptr is None and indices is None and values is None and shape is None):
                raise TypeError("CSRTensor: give either csr_tensor or indptr, indices, values and shape, not "
                                "both")
            indptr, indices = csr_tensor._indptr, csr_tensor._indices
            values, shape = csr_tensor._values, csr_tensor._shape
        indptr = _index_tensor(indptr, "CSRTensor", "indptr")
        indices = _index_tensor(indices, "CSRTensor", "indices")
        values = _values_tensor(values, "CSRTensor")
        shape = _shape_tuple(shape, "CSRTensor")
        if len(shape) < 2 or indptr.ndim != 1 or indices.ndim != 1 or values.ndim < 1 or \
                indptr._data.shape[0] != shape[0] + 1 or indices._data.shape[0] != values._data.shape[0] or \
                tuple(values._data.shape[1:]) != shape[2:]:
            raise ValueError(f"CSRTensor: indptr {tuple(indptr.shape)}, indices {tuple(indices.shape)}, "
                             f"values {tuple(values.shape)} and shape {shape} must be (rows + 1,), (N,), "
                             "(N,) + shape[2:] and a shape of rank >= 2")
        self._indptr, self._indices, self._values, self._shape = indptr, indices, values, shape

    @property
    def indptr(self) -> Tensor:
        return self._indptr

    def _with_values(self, values: Tensor) -> CSRTensor:
        return CSRTensor(self._indptr, self._indices, values, self._shape)

    def to_tuple(self) -> tuple[Tensor, Tensor, Tensor, tuple[int, ...]]:
        return self._indptr, self._indices, self._values, self._shape

    def __repr__(self) -> str:
        return f"CSRTensor(shape={list(self._shape)}, dtype={self.dtype}, indptr={self._indptr!r}, " \
               f"indices={self._indices!r}, values={self._values!r})"

    # ---- conversions and products ----
    def to_dense(self) -> Tensor:
        from cellonnx.ops.composite.sparse import csr_to_dense
        return csr_to_dense(self)

    def to_coo(self) -> COOTensor:
        from cellonnx.ops.composite.sparse import csr_to_coo
        return csr_to_coo(self)

    def mv(self, dense_vector: Tensor) -> Tensor:
        """The product with a dense (columns, 1) tensor: a dense (rows, 1) tensor."""
        from cellonnx.ops.composite.sparse import csr_mv
        return csr_mv(self, dense_vector)

    def mm(self, matrix: Any) -> Any:
        """The product with a dense (columns, K) tensor (dense result) or a CSRTensor (CSRTensor result)."""
        from cellonnx.ops.composite.sparse import csr_mm, csr_mm_dense
        return csr_mm(self, matrix) if isinstance(matrix, CSRTensor) else csr_mm_dense(self, matrix)

    def sum(self, axis: int) -> Tensor:
        from cellonnx.ops.composite.sparse import csr_reduce_sum
        return csr_reduce_sum(self, axis)

    def add(self, b: CSRTensor, alpha: Any, beta: Any) -> CSRTensor:
        """``alpha * self + beta * b``."""
        from cellonnx.ops.composite.sparse import csr_add
        return csr_add(self, b, alpha, beta)

    # ---- arithmetic ----
    def _pair(self, other: Any, op: str) -> None:
        if not isinstance(other, CSRTensor):
            raise TypeError(f"CSRTensor {op} {type(other).__name__} is not supported (CSRTensor expected)")
        if other.shape != self._shape:
            raise ValueError(f"CSRTensor {op}: shapes {self._shape} and {other.shape} must be equal")

    def __add__(self, other: Any) -> CSRTensor:
        from cellonnx.ops.composite.sparse import csr_add
        self._pair(other, "+")
        one = Tensor(np.ones((), self._values._data.dtype))
        return csr_add(self, other, one, one)

    def __sub__(self, other: Any) -> CSRTensor:
        from cellonnx.ops.composite.sparse import csr_add
        self._pair(other, "-")
        one = np.ones((), self._values._data.dtype)
        return csr_add(self, other, Tensor(one), Tensor(-one))

    def __mul__(self, other: Any) -> Any:
        from cellonnx.ops.composite.sparse import csr_mul
        return csr_mul(self, other)

    def __truediv__(self, other: Any) -> Any:
        from cellonnx.ops.composite.sparse import csr_div
        return csr_div(self, other)


class RowTensor:
    """A set of slices of a dense tensor along its first axis: ``dense[indices[i], ...] = values[i, ...]``
    (deprecated in MindSpore; it carries sparse gradients of embedding tables).

    Args:
        indices (Tensor): 1-D integer row numbers, shape (d0,).
        values (Tensor): the rows, shape (d0, d1, ..., dn).
        shape (tuple[int]): the dense shape (l0, d1, ..., dn).
        row_tensor (RowTensor): build from another RowTensor instead.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, RowTensor
        >>> indices = Tensor(np.array([0, 2]), ms.int32)
        >>> values = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> x = ms.RowTensor(indices, values, (3, 2))
        >>> print(x.indices, x.dense_shape)
        [0 2] (3, 2)
    """

    _indices: Tensor
    _values: Tensor
    _dense_shape: tuple[int, ...]

    def __init__(self, indices: Any = None, values: Any = None, shape: Any = None,
                 row_tensor: Any = None) -> None:
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensor):
                raise TypeError(f"RowTensor: row_tensor must be a RowTensor, got {type(row_tensor).__name__}")
            indices, values, shape = row_tensor._indices, row_tensor._values, row_tensor._dense_shape
        indices = _index_tensor(indices, "RowTensor", "indices")
        values = _values_tensor(values, "RowTensor")
        shape = _shape_tuple(shape, "RowTensor")
        if indices.ndim != 1 or values.ndim < 1 or values._data.shape[0] != indices._data.shape[0] or \
                tuple(values._data.shape[1:]) != shape[1:]:
            raise ValueError(f"RowTensor: indices {tuple(indices.shape)}, values {tuple(values.shape)} and "
                             f"shape {shape} must be (d0,), (d0, ...) and (l0, ...) with matching trailing "
                             "dims")
        self._indices, self._values, self._dense_shape = indices, values, shape

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def dense_shape(self) -> tuple[int, ...]:
        return self._dense_shape

    def to_dense(self) -> Tensor:
        """The dense tensor (rows given twice add up)."""
        from cellonnx.ops.prims.scatter_reduce import scatter_nd
        from cellonnx.ops.prims.shape import expand_dims
        return scatter_nd(expand_dims(self._indices, -1), self._values, self._dense_shape)

    def __repr__(self) -> str:
        return f"RowTensor(dense_shape={list(self._dense_shape)}, indices={self._indices!r}, " \
               f"values={self._values!r})"


class SparseTensor(COOTensor):
    """The deprecated name of :class:`COOTensor` (MindSpore 1.x): ``SparseTensor(indices, values, shape)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor
        >>> indices = Tensor(np.array([[0, 1], [1, 0]]), ms.int64)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = ms.SparseTensor(indices, values, (2, 2))
        >>> print(x.values)
        [1. 2.]
    """

    def __init__(self, indices: Any, values: Any, shape: Any) -> None:
        if not isinstance(shape, tuple):
            raise TypeError(f"SparseTensor: shape must be a tuple, got {type(shape).__name__}")
        super().__init__(indices, values, shape)


__all__ = ["COOTensor", "CSRTensor", "RowTensor", "SparseTensor"]
