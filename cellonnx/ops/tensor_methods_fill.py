"""MindSpore 2.10's indexed-update, random-fill and storage-view Tensor methods: ``index_add_``,
``scatter_``, ``masked_scatter``, ``fill_diagonal``, ``kthvalue``, ``select``, the random fills
(``normal_``, ``uniform_``, ``bernoulli_`` ...), and the storage queries a NumPy-held tensor answers
(``stride``, ``is_contiguous``). In-place forms write their result into the tensor and return it."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as F
from cellonnx.tensor import Tensor


def _dim(self: Tensor, dim: int) -> int:
    return dim + self.ndim if dim < 0 else dim


def _along(index: Any, self: Tensor, dim: int) -> tuple:
    """A full index whose ``dim`` entry is ``index`` (NumPy integer array)."""
    key: list[Any] = [slice(None)] * self.ndim
    key[_dim(self, dim)] = np.asarray(index.asnumpy() if isinstance(index, Tensor) else index, np.int64)
    return tuple(key)


def _index_add(self: Tensor, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Tensor:
    src = source if alpha == 1 else F.mul(source, alpha)
    return F.index_add(self, F.cast(Tensor(np.asarray(_along(index, self, dim)[_dim(self, dim)])),
                                    dtypes.int32), F.cast(src, self.dtype), _dim(self, dim))


def _index_copy(self: Tensor, dim: int, index: Any, tensor: Any) -> Tensor:
    out = self.asnumpy().copy()
    out[_along(index, self, dim)] = np.asarray(tensor.asnumpy() if isinstance(tensor, Tensor) else tensor)
    return Tensor(out)


def _index_fill(self: Tensor, dim: int, index: Any, value: Any) -> Tensor:
    return F.index_fill(self, _dim(self, dim), index, value)


def _index_put(self: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    key = tuple(np.asarray(i.asnumpy() if isinstance(i, Tensor) else i, np.int64) for i in indices)
    out = self.asnumpy().copy()
    vals = np.asarray(values.asnumpy() if isinstance(values, Tensor) else values, out.dtype)
    if accumulate:
        np.add.at(out, key, vals)
    else:
        out[key] = vals
    return Tensor(out)


def _scatter(self: Tensor, dim: int, index: Any, src: Any) -> Tensor:
    if not isinstance(src, Tensor):
        src = F.full(tuple(index.shape), src, dtype=self.dtype)
    return F.scatter(self, dim, index, F.cast(src, self.dtype))


def _scatter_add(self: Tensor, dim: int, index: Any, src: Any) -> Tensor:
    idx = np.asarray(index.asnumpy(), np.int64)
    grid = list(np.indices(idx.shape, sparse=False))
    grid[_dim(self, dim)] = idx
    nd = Tensor(np.stack(grid, -1).astype(np.int64))
    part = src if tuple(src.shape) == idx.shape else src[tuple(slice(0, n) for n in idx.shape)]
    return F.tensor_scatter_add(self, nd, F.cast(part, self.dtype))


def _scatter_sub(self: Tensor, indices: Any, updates: Any) -> Tensor:
    return F.tensor_scatter_sub(self, indices, updates)


def _masked_scatter(self: Tensor, mask: Any, source: Any) -> Tensor:
    out = self.asnumpy().copy()
    m = np.broadcast_to(np.asarray(mask.asnumpy() if isinstance(mask, Tensor) else mask, bool), out.shape)
    out[m] = np.asarray(source.asnumpy()).reshape(-1)[: int(m.sum())].astype(out.dtype)
    return Tensor(out)


def _fill_diagonal(self: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    out = self.asnumpy().copy()
    if out.ndim == 2 or not wrap:
        np.fill_diagonal(out, fill_value, wrap=wrap)
    else:
        np.fill_diagonal(out, fill_value)
    return Tensor(out)


def _kthvalue(self: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    values, indices = F.sort(self, dim)
    d = _dim(self, dim)
    pick = Tensor(np.array([k - 1], np.int64))
    v, i = F.index_select(values, d, pick), F.index_select(indices, d, pick)
    if not keepdim:
        v, i = F.squeeze(v, d), F.squeeze(i, d)
    return v, F.cast(i, dtypes.int64)


def _select(self: Tensor, dim: int, index: int) -> Tensor:
    return F.squeeze(F.narrow(self, _dim(self, dim), index % self.shape[_dim(self, dim)], 1), _dim(self, dim))


def _choose(self: Tensor, choices: Any, mode: str = "clip") -> Tensor:
    """``numpy.choose``; as MindSpore's, the choices pass through int32 (fractions are cut toward zero)
    and the result has their dtype."""
    arrays = choices.asnumpy() if isinstance(choices, Tensor) else \
        [c.asnumpy() if isinstance(c, Tensor) else np.asarray(c) for c in choices]
    dtype = np.result_type(*arrays) if isinstance(arrays, list) else arrays.dtype
    picked = np.choose(self.asnumpy(), [np.asarray(a).astype(np.int32) for a in arrays], mode=mode)
    return Tensor(picked.astype(dtype))


def _resize(self: Tensor, *new_shape: Any) -> Tensor:
    """A tensor of ``new_shape`` filled with this tensor's elements in order, then zeros (as
    ``numpy.ndarray.resize``)."""
    shape = tuple(new_shape[0]) if len(new_shape) == 1 and isinstance(new_shape[0], (tuple, list)) \
        else tuple(new_shape)
    flat = self.asnumpy().reshape(-1)
    out = np.zeros(int(np.prod(shape, dtype=np.int64)), flat.dtype)
    n = min(flat.size, out.size)
    out[:n] = flat[:n]
    return Tensor(out.reshape(shape))


def _itemset(self: Tensor, *args: Any) -> Tensor:
    """A copy with the element at the flat or multi-dimensional index set (MindSpore's returns the copy
    and leaves the tensor as it was)."""
    out = self.asnumpy().copy()
    if len(args) == 1:
        out.reshape(-1)[0] = args[0]
    elif isinstance(args[0], tuple):
        out[args[0]] = args[1]
    else:
        out.reshape(-1)[args[0]] = args[1]
    return Tensor(out)


def _triangular_solve(self: Tensor, A: Any, upper: bool = True, transpose: bool = False,
                      unitriangular: bool = False) -> tuple[Tensor, Tensor]:
    """``(X, A)`` with ``op(A) X = self`` for the triangle of A (``op`` transposes with ``transpose``)."""
    a = A.asnumpy().astype(np.float64)
    tri = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        eye = np.eye(a.shape[-1], dtype=bool)
        tri = np.where(eye, 1.0, tri)
    if transpose:
        tri = np.swapaxes(tri, -1, -2)
    x = np.linalg.solve(tri, self.asnumpy().astype(np.float64))
    return Tensor(x.astype(self.asnumpy().dtype)), Tensor(A.asnumpy().copy())


def _random_like(self: Tensor, sample: Any) -> Tensor:
    """``sample(u)`` of uniform draws in [0, 1) shaped as the tensor (cellonnx's seeded generator)."""
    u = F.uniform(tuple(self.shape), Tensor(0.0, dtypes.float32), Tensor(1.0, dtypes.float32)).asnumpy()
    return Tensor(np.asarray(sample(u.astype(np.float64))).astype(self.asnumpy().dtype))


def _uniform(self: Tensor, from_: float = 0.0, to: float = 1.0, generator: Any = None) -> Tensor:
    return _random_like(self, lambda u: from_ + (to - from_) * u)


def _uniform_(self: Tensor, from_: float = 0, to: float = 1, *, generator: Any = None) -> Tensor:
    return _uniform(self, from_, to)


def _normal_(self: Tensor, mean: float = 0, std: float = 1, *, generator: Any = None) -> Tensor:
    z = F.standard_normal(tuple(self.shape)).asnumpy()
    return Tensor((mean + std * z).astype(self.asnumpy().dtype))


def _log_normal(self: Tensor, mean: float = 1.0, std: float = 2.0) -> Tensor:
    z = F.standard_normal(tuple(self.shape)).asnumpy().astype(np.float64)
    return Tensor(np.exp(mean + std * z).astype(self.asnumpy().dtype))


def _exponential_(self: Tensor, lambd: float = 1, *, generator: Any = None) -> Tensor:
    return _random_like(self, lambda u: -np.log1p(-u) / lambd)


def _cauchy(self: Tensor, median: float = 0.0, sigma: float = 1.0) -> Tensor:
    return _random_like(self, lambda u: median + sigma * np.tan(math.pi * (u - 0.5)))


def _random_(self: Tensor, from_: int = 0, to: int | None = None, *, generator: Any = None) -> Tensor:
    if to is None:
        from_, to = 0, from_ if from_ else _random_top(self)
    return _random_like(self, lambda u: np.floor(from_ + (to - from_) * u))


def _random_top(self: Tensor) -> int:
    dt = np.dtype(self.asnumpy().dtype)
    if dt.kind == "f":
        return 2 ** np.finfo(dt).nmant + 1
    return 2 if dt == np.bool_ else int(np.iinfo(dt).max)


def _bernoulli(self: Tensor, *, generator: Any = None) -> Tensor:
    """Draws of 1 with probability given by each element of the tensor."""
    p = self.asnumpy()
    return _random_like(self, lambda u: (u < p).astype(np.float64))


def _bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    prob = p.asnumpy() if isinstance(p, Tensor) else p
    return _random_like(self, lambda u: (u < prob).astype(np.float64))


def _stride(self: Tensor, dim: int | None = None) -> Any:
    """Element strides of the row-major storage (NumPy's byte strides over the item size)."""
    arr = np.ascontiguousarray(self.asnumpy())
    strides = tuple(s // arr.itemsize for s in arr.strides) if arr.ndim else ()
    return strides if dim is None else strides[_dim(self, dim)]


def _strides(self: Tensor) -> tuple:
    return np.ascontiguousarray(self.asnumpy()).strides


def _from_numpy(array: np.ndarray) -> Tensor:
    return Tensor(np.asarray(array))


def _convert_bytes_to_tensor(bytes_data: bytes, shape: Any, dtype: Any) -> Tensor:
    return Tensor(np.frombuffer(bytes_data, dtypes.dtype(dtype).np_dtype).reshape(tuple(shape)).copy())


def _from_dlpack(dlpack: Any) -> Tensor:
    return Tensor(np.from_dlpack(dlpack).copy())


def _set_const_arg(self: Tensor, const_arg: bool = True) -> Tensor:
    self.__dict__["_const_arg"] = bool(const_arg)
    return self


def _const_arg(self: Tensor) -> bool:
    return bool(getattr(self, "__dict__", {}).get("_const_arg", False))


def _addmm(self: Tensor, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    return F.addmm(self, mat1, mat2, beta=beta, alpha=alpha)


def _trace(self: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
    """The sum along the diagonal ``offset`` of the planes ``(axis1, axis2)`` (MindSpore's method form;
    ``ops.trace`` takes a matrix only)."""
    if dtype is None and np.dtype(self.dtype.np_dtype).kind in "biu":
        dtype = dtypes.int64   # as MindSpore's: integer traces are int64
    return F.sum(F.diagonal(self, offset, axis1, axis2), -1, dtype=dtype)


def _inplace_update(self: Tensor, v: Any, indices: Any) -> Tensor:
    """The tensor with rows ``indices`` set to ``v``; as MindSpore 2.10's method (measured on its CPU
    build), the tensor itself is left as it was (``ops.inplace_update`` writes into its input)."""
    from cellonnx.ops.tensor_methods_ms import _clone
    return F.inplace_update(_clone(self), v, indices)


def _hooks(self: Tensor) -> list:
    """The gradient hooks registered on the tensor, in order (``register_hook``)."""
    return list(self._hooks or [])


def _remove_hook(self: Tensor, handle_id: Any) -> None:
    """Remove the hook of ``handle_id`` (the handle ``register_hook`` returned, or its ``id``)."""
    handle = self.__dict__.get("_hook_handles", {}).pop(getattr(handle_id, "id", handle_id), None)
    if handle is not None:
        handle.remove()


def _sparse(self: Tensor, csr: bool) -> Any:
    """The non-zero elements of a 2-D tensor as a COOTensor / CSRTensor with int32 indices (MindSpore's)."""
    from cellonnx.sparse.tensor import COOTensor, CSRTensor
    dense = self.asnumpy()
    if dense.ndim != 2:
        raise ValueError(f"Tensor.to_{'csr' if csr else 'coo'}: only a 2-D tensor converts, "
                         f"got {dense.ndim}-D")
    rows, cols = np.nonzero(dense)
    values = Tensor(dense[rows, cols])
    if csr:
        indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=dense.shape[0]))])
        return CSRTensor(Tensor(indptr.astype(np.int32)), Tensor(cols.astype(np.int32)), values, dense.shape)
    return COOTensor(Tensor(np.stack([rows, cols], 1).astype(np.int32)), values, dense.shape)


def _self(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    return self


# where MindSpore's method differs from the ops function already attached under its name
OVERRIDES = {"trace": _trace}

INPLACE = {
    "addmm_": _addmm, "index_add_": _index_add, "index_copy_": _index_copy, "index_fill_": _index_fill,
    "index_put_": _index_put, "scatter_": _scatter, "scatter_add_": _scatter_add,
    "masked_scatter_": _masked_scatter, "fill_diagonal_": _fill_diagonal, "uniform_": _uniform_,
    "normal_": _normal_, "exponential_": _exponential_, "random_": _random_, "bernoulli_": _bernoulli_,
    "assign_value": lambda self, value: F.broadcast_to(F.cast(value, self.dtype), self.shape),
}

TENSOR_METHODS: dict[str, Any] = {
    "index_put": _index_put, "scatter_sub": _scatter_sub, "masked_scatter": _masked_scatter,
    "fill_diagonal": _fill_diagonal, "kthvalue": _kthvalue, "select": _select, "choose": _choose,
    "resize": _resize, "itemset": _itemset, "triangular_solve": _triangular_solve, "uniform": _uniform,
    "log_normal": _log_normal, "cauchy": _cauchy, "bernoulli": _bernoulli,
    "positive": lambda self: F.positive(self), "fill": lambda self, value: F.full_like(self, value),
    "fills": lambda self, value: F.full_like(self, value),
    "inplace_update": _inplace_update,
    "col2im": lambda self, output_size, kernel_size, dilation, padding_value, stride:
        F.col2im(self, output_size, kernel_size, dilation, padding_value, stride),
    "hooks": _hooks, "remove_hook": _remove_hook, "to_coo": lambda self: _sparse(self, False),
    "to_csr": lambda self: _sparse(self, True),
    "value": _self, "contiguous": _self, "to_": _self, "data_sync": _self,
    "is_contiguous": lambda self: True, "storage_offset": lambda self: 0, "stride": _stride,
    "is_pinned": lambda self: False, "is_shared": lambda self: False,
    "get_bytes": lambda self: self.asnumpy().tobytes(), "to_dlpack": lambda self: self.asnumpy().__dlpack__(),
    "set_const_arg": _set_const_arg, "const_arg": property(_const_arg), "strides": property(_strides),
    "is_meta": property(lambda self: False), "device": property(lambda self: "CPU"),
    "data": property(lambda self: Tensor(self._data)),
    "from_numpy": staticmethod(_from_numpy), "from_dlpack": staticmethod(_from_dlpack),
    "convert_bytes_to_tensor": staticmethod(_convert_bytes_to_tensor),
}
