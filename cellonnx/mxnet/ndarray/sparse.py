"""mx.nd.sparse: MXNet 1.x's compressed sparse row (CSRNDArray) and row-sparse (RowSparseNDArray) arrays.

Both hold only their stored values: a CSR array its ``data``, ``indices`` (columns) and ``indptr`` (row
starts), as given (unsorted columns and explicit zeros kept, as MXNet keeps them); a row-sparse array its
stored rows ``data`` and their ``indices``. The operators MXNet runs on sparse storage run on these values
and keep MXNet's output storage type (cellonnx/mxnet/ndarray/sparse_ops.py: ``dot``, the zero-preserving
element-wise functions, scalar and same-storage arithmetic, ``slice``, ``retain``, ``add_n`` ...). Any other
operator reads the array's dense value, as MXNet's storage fallback does: it is made once, kept read-only
beside the stored values (so nothing can change it behind them) and gives a dense result. Writing the array
(``arr[:] = ...``, ``arr *= 2``) replaces its stored values.
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from cellonnx.mxnet import _op
from cellonnx.mxnet._dtype import mx_dtype
from cellonnx.mxnet._op._util import dtype_of
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.tensor import Tensor

__all__ = ["BaseSparseNDArray", "CSRNDArray", "RowSparseNDArray", "array", "cast_storage", "csr_matrix",
           "empty", "row_sparse_array", "zeros"]

STYPES = ("default", "csr", "row_sparse")
_DENSE = Tensor.__dict__["_data"]  # the slot that holds a Tensor's array: here, the dense value once made
_INDEX = np.int64  # MXNet's index dtype for indices and indptr


class BaseSparseNDArray(NDArray):
    """A sparse NDArray: its stored values in ``__dict__["_parts"]``, its shape in ``__dict__["_dims"]``."""

    __slots__ = ()

    # ---------------------------------------------------------------- the dense value (storage fallback)
    def _dense_value(self) -> np.ndarray:
        dense = _DENSE.__get__(self, Tensor)
        if dense is None:
            dense = self._densify()
            dense.flags.writeable = False  # a snapshot of the stored values: writes go through the setter
            _DENSE.__set__(self, dense)
        return dense

    def _set_dense_value(self, value: Any) -> None:
        self._store(_compress(np.asarray(value), self.stype))

    _data = property(_dense_value, _set_dense_value)  # type: ignore[assignment]

    def _store(self, parts: tuple[np.ndarray, ...]) -> None:
        self.__dict__["_parts"] = parts
        _DENSE.__set__(self, None)

    @property
    def _parts(self) -> tuple[np.ndarray, ...]:
        return self.__dict__["_parts"]

    def _densify(self) -> np.ndarray:
        raise NotImplementedError

    # ---------------------------------------------------------------- metadata without densifying
    @property
    def shape(self) -> tuple:  # type: ignore[override]
        return self.__dict__["_dims"]

    @property
    def dtype(self) -> Any:  # type: ignore[override]
        return mx_dtype(self._parts[0].dtype)

    @property
    def ndim(self) -> int:  # type: ignore[override]
        return len(self.shape)

    @property
    def size(self) -> int:  # type: ignore[override]
        return int(np.prod(self.shape))

    def __len__(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        return f"\n<{type(self).__name__} {'x'.join(str(d) for d in self.shape)} @{self.context}>"

    __str__ = __repr__

    # ---------------------------------------------------------------- conversion and copies
    def asnumpy(self) -> np.ndarray:
        return self._densify()

    numpy = asnumpy

    def tostype(self, stype: str) -> NDArray:
        return cast_storage(self, stype)

    def copy(self) -> NDArray:
        return _new(type(self), tuple(p.copy() for p in self._parts), self.shape)

    def astype(self, dtype: Any, copy: bool = True) -> NDArray:
        want = np.dtype(dtype_of(dtype).np_dtype)
        if not copy and want == self._parts[0].dtype:
            return self
        data, *index = self._parts
        return _new(type(self), (data.astype(want), *(i.copy() for i in index)), self.shape)

    def copyto(self, other: Any) -> NDArray:
        if isinstance(other, BaseSparseNDArray):
            other[:] = self
            return other
        if isinstance(other, Tensor):
            other[...] = self._densify()
            return other  # type: ignore[return-value]
        return self.copy()

    def asscipy(self) -> Any:
        """The array as a scipy.sparse.csr_matrix (its stored values, explicit zeros included)."""
        import scipy.sparse

        if isinstance(self, CSRNDArray):
            return scipy.sparse.csr_matrix(self._parts, shape=self.shape)
        return scipy.sparse.csr_matrix(self._densify().reshape(self.shape[0], -1))

    def __setitem__(self, key: Any, value: Any) -> None:
        if not (isinstance(key, builtins.slice) and key == builtins.slice(None)):
            raise ValueError(f"{type(self).__name__} only supports [:] for assignment, got [{key!r}]")
        if isinstance(value, BaseSparseNDArray):
            if tuple(value.shape) != tuple(self.shape):
                raise ValueError(f"{type(self).__name__}[:] = value: shape {value.shape} does not match "
                                 f"{self.shape}")
            self._store(_compress(value._densify(), self.stype) if value.stype != self.stype
                        else tuple(p.copy() for p in value._parts))
            return
        dense = value._data if isinstance(value, Tensor) else np.asarray(value)
        dense = np.broadcast_to(dense.astype(self._parts[0].dtype, copy=False), self.shape)
        self._store(_compress(dense, self.stype))

    def check_format(self, full_check: bool = True) -> None:
        """Raise ValueError when the stored parts do not describe an array of this shape."""
        problem = _format_problem(self.stype, self._parts, self.shape, full_check)
        if problem:
            raise ValueError(f"{type(self).__name__}.check_format: {problem}")


class CSRNDArray(BaseSparseNDArray):
    """A 2-D array in compressed sparse row storage: ``data`` (the stored values row by row),
    ``indices`` (their columns, int64) and ``indptr`` (where each row starts in them, int64)."""

    __slots__ = ()

    @property
    def stype(self) -> str:
        return "csr"

    @property
    def data(self) -> NDArray:  # type: ignore[override]
        return _nd(self._parts[0])

    @property
    def indices(self) -> NDArray:
        return _nd(self._parts[1])

    @property
    def indptr(self) -> NDArray:
        return _nd(self._parts[2])

    def _densify(self) -> np.ndarray:
        data, indices, indptr = self._parts
        dense = np.zeros(self.shape, data.dtype)
        dense[np.repeat(np.arange(self.shape[0]), np.diff(indptr)), indices] = data
        return dense

    def __getitem__(self, key: Any) -> Any:
        from cellonnx.mxnet.ndarray.sparse_ops import csr_rows
        return csr_rows(self, key)


class RowSparseNDArray(BaseSparseNDArray):
    """An array of which only some rows (first-axis slices) are stored: ``data`` (those rows) and
    ``indices`` (their positions, int64)."""

    __slots__ = ()

    @property
    def stype(self) -> str:
        return "row_sparse"

    @property
    def data(self) -> NDArray:  # type: ignore[override]
        return _nd(self._parts[0])

    @property
    def indices(self) -> NDArray:
        return _nd(self._parts[1])

    def _densify(self) -> np.ndarray:
        data, indices = self._parts
        dense = np.zeros(self.shape, data.dtype)
        dense[indices] = data
        return dense

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, builtins.slice) and key == builtins.slice(None):
            return self
        raise ValueError(f"RowSparseNDArray only supports [:] for __getitem__, got [{key!r}]")


class CallableRowSparse(RowSparseNDArray):
    """A row-sparse gradient, also callable as MXNet's ``param.grad()`` is (Gluon's row-sparse gradients)."""

    __slots__ = ()

    def __call__(self, device: Any = None) -> CallableRowSparse:
        return self


_CLASSES: dict[str, type] = {"csr": CSRNDArray, "row_sparse": RowSparseNDArray}


def _nd(arr: np.ndarray) -> NDArray:
    out = Tensor._make(arr)
    out.__class__ = NDArray
    return out  # type: ignore[return-value]


def _new(cls: type, parts: tuple[np.ndarray, ...], shape: Any) -> Any:
    """A sparse array of class ``cls`` holding ``parts``."""
    out = Tensor._make(np.empty(0, parts[0].dtype))
    out.__class__ = cls
    out.__dict__["_dims"] = tuple(int(d) for d in shape)
    out._store(tuple(parts))
    return out


def make(stype: str, parts: tuple[np.ndarray, ...], shape: Any) -> Any:
    """A sparse array of storage ``stype`` from its parts (CSR: data, indices, indptr; row-sparse: data,
    indices), the index parts cast to int64."""
    data, *index = parts
    return _new(_CLASSES[stype], (np.ascontiguousarray(data),
                                  *(np.ascontiguousarray(i, dtype=_INDEX) for i in index)), shape)


def _compress(dense: np.ndarray, stype: str) -> tuple[np.ndarray, ...]:
    """The stored parts of ``dense`` in storage ``stype``: its nonzero entries (CSR) or rows (row-sparse)."""
    if stype == "csr":
        if dense.ndim != 2:
            raise ValueError(f"csr_matrix: CSR storage is 2-D, got shape {dense.shape}")
        rows, cols = np.nonzero(dense)
        indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=dense.shape[0]))])
        return dense[rows, cols].copy(), cols.astype(_INDEX), indptr.astype(_INDEX)
    if stype == "row_sparse":
        if dense.ndim < 1:
            raise ValueError("row_sparse_array: row-sparse storage needs at least one axis")
        rows = np.nonzero(dense.reshape(dense.shape[0], -1).any(axis=1))[0].astype(_INDEX)
        return np.ascontiguousarray(dense[rows]), rows
    raise ValueError(f"sparse: unknown storage type {stype!r}; expected one of {STYPES}")


def _format_problem(stype: str, parts: tuple[np.ndarray, ...], shape: tuple, full: bool) -> str | None:
    if stype == "row_sparse":
        data, indices = parts
        if data.shape[1:] != tuple(shape[1:]) or data.shape[0] != indices.size:
            return f"{data.shape[0]} rows of shape {data.shape[1:]} for {indices.size} indices in {shape}"
        if full and indices.size and (indices.min() < 0 or indices.max() >= shape[0]
                                      or np.any(np.diff(indices) <= 0)):
            return f"indices must be unique, ascending and in [0, {shape[0]}), got {indices.tolist()}"
        return None
    data, indices, indptr = parts
    if len(shape) != 2 or indptr.size != shape[0] + 1 or indices.size != data.size:
        return f"(data {data.shape}, indices {indices.shape}, indptr {indptr.shape}) for shape {shape}"
    if indptr[0] != 0 or indptr[-1] != data.size or np.any(np.diff(indptr) < 0):
        return f"indptr must rise from 0 to {data.size}, got {indptr.tolist()}"
    if full and indices.size and (indices.min() < 0 or indices.max() >= shape[1]):
        return f"column indices must be in [0, {shape[1]}), got {indices.min()} .. {indices.max()}"
    if full:
        for r in range(shape[0]):
            if np.any(np.diff(indices[indptr[r]:indptr[r + 1]]) <= 0):
                return f"the column indices of row {r} must be unique and ascending"
    return None


def _dense(value: Any) -> np.ndarray:
    if isinstance(value, BaseSparseNDArray):
        return value._densify()
    if isinstance(value, Tensor):
        return value._data
    if hasattr(value, "toarray"):  # scipy.sparse
        return value.toarray()
    return np.asarray(value)


def _dtype(given: Any, source: Any, default: Any = np.float32) -> np.dtype:
    if given is not None:
        return np.dtype(dtype_of(given).np_dtype)
    if isinstance(source, BaseSparseNDArray):
        return source._parts[0].dtype
    if isinstance(source, (Tensor, np.ndarray)) or hasattr(source, "toarray"):
        return np.dtype(_dense(source).dtype)
    return np.dtype(default)


def _shape(shape: Any) -> tuple[int, ...]:
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)


def cast_storage(data: Any, stype: str) -> NDArray:
    """``data`` in storage ``stype`` ('default', 'csr' or 'row_sparse'); the values do not change."""
    if stype not in STYPES:
        raise ValueError(f"cast_storage: unknown storage type {stype!r}; expected one of {STYPES}")
    if isinstance(data, BaseSparseNDArray) and data.stype == stype:
        return data.copy()
    dense = _dense(data)
    if stype == "default":
        return _nd(np.array(dense))
    return make(stype, _compress(dense, stype), dense.shape)


def csr_matrix(arg1: Any, shape: Any = None, ctx: Any = None, dtype: Any = None) -> CSRNDArray:
    """A CSRNDArray from ``(data, indices, indptr)`` (with ``shape``, or the smallest that holds them), a
    dense array, a scipy.sparse matrix, another NDArray, or a shape ``(M, N)`` (all zeros)."""
    if isinstance(arg1, tuple) and len(arg1) == 2 and all(isinstance(v, (int, np.integer)) for v in arg1):
        return zeros("csr", arg1, dtype=dtype)  # type: ignore[return-value]
    if hasattr(arg1, "tocsr"):  # scipy.sparse: its stored values as they are
        sp = arg1.tocsr()
        arg1, shape = (sp.data, sp.indices, sp.indptr), shape if shape is not None else sp.shape
    if isinstance(arg1, tuple) and len(arg1) == 3:
        data, indices, indptr = (_dense(v) for v in arg1)
        indices, indptr = indices.astype(_INDEX).reshape(-1), indptr.astype(_INDEX).reshape(-1)
        rows = len(indptr) - 1
        cols = int(indices.max()) + 1 if indices.size else 0
        m, n = (int(shape[0]), int(shape[1])) if shape is not None else (rows, cols)
        out = make("csr", (data.astype(_dtype(dtype, arg1[0])).reshape(-1), indices, indptr), (m, n))
        problem = _format_problem("csr", out._parts, (m, n), full=False)
        if rows != m or (indices.size and cols > n) or problem:
            raise ValueError(f"csr_matrix: (data {data.shape}, indices up to {cols - 1}, indptr of {rows} "
                             f"rows ending at {indptr[-1] if indptr.size else None}) does not describe a "
                             f"matrix of shape {(m, n)}")
        return out
    dense = _dense(arg1).astype(_dtype(dtype, arg1))
    if shape is not None and tuple(dense.shape) != tuple(shape):
        raise ValueError(f"csr_matrix: the array has shape {dense.shape}, shape says {tuple(shape)}")
    return make("csr", _compress(dense, "csr"), dense.shape)


def row_sparse_array(arg1: Any, shape: Any = None, ctx: Any = None, dtype: Any = None) -> RowSparseNDArray:
    """A RowSparseNDArray from ``(data, indices)`` (rows ``data[i]`` at ``indices[i]``; ``shape`` gives the
    row count, else the largest index + 1), a dense array, another NDArray, or a shape (all zeros)."""
    if isinstance(arg1, tuple) and all(isinstance(v, (int, np.integer)) for v in arg1):
        return zeros("row_sparse", arg1, dtype=dtype)  # type: ignore[return-value]
    if isinstance(arg1, tuple) and len(arg1) == 2:
        data, indices = _dense(arg1[0]), _dense(arg1[1]).astype(_INDEX).reshape(-1)
        rows = int(shape[0]) if shape is not None else (int(indices.max()) + 1 if indices.size else 0)
        if data.shape[0] != indices.size or (indices.size and int(indices.max()) >= rows):
            raise ValueError(f"row_sparse_array: {data.shape[0]} rows of data for {indices.size} indices "
                             f"(up to {int(indices.max()) if indices.size else None}) in {rows} rows")
        return make("row_sparse", (data.astype(_dtype(dtype, arg1[0])), indices), (rows, *data.shape[1:]))
    dense = _dense(arg1).astype(_dtype(dtype, arg1))
    return make("row_sparse", _compress(dense, "row_sparse"), dense.shape)


def zeros(stype: str, shape: Any, ctx: Any = None, dtype: Any = None, **_: Any) -> NDArray:
    """An all-zero array of storage ``stype``: nothing stored, whatever the shape."""
    shape, dt = _shape(shape), _dtype(dtype, None)
    if stype == "default":
        return _nd(np.zeros(shape, dt))
    if stype == "csr":
        if len(shape) != 2:
            raise ValueError(f"zeros: CSR storage is 2-D, got shape {shape}")
        return make("csr", (np.zeros(0, dt), np.zeros(0, _INDEX), np.zeros(shape[0] + 1, _INDEX)), shape)
    if stype == "row_sparse":
        return make("row_sparse", (np.zeros((0, *shape[1:]), dt), np.zeros(0, _INDEX)), shape)
    raise ValueError(f"zeros: unknown storage type {stype!r}; expected one of {STYPES}")


def empty(stype: str, shape: Any, ctx: Any = None, dtype: Any = None) -> NDArray:
    """As ``zeros`` (a sparse array starts with no stored values)."""
    return zeros(stype, shape, ctx, dtype)


def array(source_array: Any, ctx: Any = None, dtype: Any = None) -> NDArray:
    """A sparse array from a scipy.sparse matrix (CSR) or a sparse NDArray (its storage)."""
    if isinstance(source_array, BaseSparseNDArray):
        return source_array.astype(_dtype(dtype, source_array))
    if hasattr(source_array, "tocsr"):
        return csr_matrix(source_array, dtype=dtype)
    raise ValueError(f"sparse.array: expected a scipy.sparse matrix or a sparse NDArray, got "
                     f"{type(source_array).__name__}")


from cellonnx.mxnet.ndarray.sparse_ops import KERNELS, dispatching, dot, retain  # noqa: E402

# mx.nd.sparse's operators: MXNet's sparse kernels where it has them, its dense fallback elsewhere
for _name in sorted(KERNELS):
    if _name in _op.TABLE and not _name.startswith("_") and _name != "dot":
        globals()[_name] = dispatching(_name, _op.wrap(_name, _op.TABLE[_name], NDArray))
        __all__.append(_name)
__all__ += ["dot", "retain"]


def _method(name: str) -> Any:
    fn = dispatching(name, _op.wrap(name, _op.TABLE[name], NDArray))

    def method(self: BaseSparseNDArray, *args: Any, **kwargs: Any) -> Any:
        return fn(self, *args, **kwargs)
    method.__name__ = name
    return method


def _operator(name: str, kernel_name: str, inplace: bool = False) -> Any:
    """The arithmetic operator ``name``: MXNet's sparse result where it has one, else the dense method's."""
    kernel, dense = KERNELS[kernel_name], getattr(NDArray, name)

    def method(self: BaseSparseNDArray, other: Any) -> Any:
        out = kernel(self, other)
        if out is NotImplemented:
            return dense(self, other)
        if inplace and isinstance(out, BaseSparseNDArray) and out.stype == self.stype:
            self._store(out._parts)
            return self
        return out
    method.__name__ = name
    return method


for _name in KERNELS:
    if _name in _op.TABLE and callable(getattr(NDArray, _name, None)):
        setattr(BaseSparseNDArray, _name, _method(_name))
for _name, _kernel_name in {"__mul__": "multiply", "__rmul__": "multiply", "__truediv__": "divide",
                            "__div__": "divide", "__add__": "add", "__sub__": "subtract"}.items():
    setattr(BaseSparseNDArray, _name, _operator(_name, _kernel_name))
for _name, _kernel_name in {"__imul__": "multiply", "__itruediv__": "divide", "__iadd__": "add",
                            "__isub__": "subtract"}.items():
    setattr(BaseSparseNDArray, _name, _operator(_name, _kernel_name, inplace=True))
BaseSparseNDArray.__neg__ = lambda self: KERNELS["negative"](self)  # type: ignore[method-assign]
BaseSparseNDArray.__abs__ = lambda self: KERNELS["abs"](self)  # type: ignore[method-assign]
