"""The operators MXNet 1.9.1 runs on sparse storage, on the stored values, with MXNet's output storage types.

``KERNELS`` maps an mx.nd operator name to its sparse form; mx.nd's function of that name calls it when an
argument is sparse, and the kernel answers ``NotImplemented`` where MXNet itself falls back to dense storage
(the function then runs on the dense values and returns a dense array, as MXNet's fallback does):

- zero-preserving element-wise functions (``sqrt``, ``relu``, ``abs``, ``sin``, ``expm1`` ...), ``clip`` with
  a range holding 0, ``zeros_like``, multiplication and division by a scalar: the storage is kept;
- ``elemwise_add`` / ``elemwise_sub`` / ``elemwise_mul`` of two arrays of one storage type, ``elemwise_mul``
  and ``broadcast_mul`` / ``broadcast_div`` of a sparse array by a dense one: sparse results;
- ``dot``: csr x dense is dense, csr^T x dense row-sparse, dense x csr (or csr^T) CSR (``forward_stype``
  overrides);
  computed from the stored values as a gather, a product and a segment sum, so it is differentiable in the
  dense argument (recorded under autograd, the result is the dense array the tape needs);
- ``sum`` / ``mean`` / ``norm`` from the stored values (dense results), ``slice`` and ``concat`` (dim 0) of
  CSR arrays, ``add_n`` of row-sparse arrays, ``retain`` of row-sparse rows.
"""
from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.autograd.tape import is_grad_enabled
from cellonnx.mxnet import _op
from cellonnx.mxnet.ndarray import sparse as _sp
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.tensor import Tensor

KERNELS: dict[str, Callable[..., Any]] = {}

# f(0) == 0: MXNet keeps the storage type of a sparse argument (checked against MXNet 1.9.1)
ZERO_PRESERVING = ("abs", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt", "ceil", "degrees", "expm1",
                   "fix", "floor", "log1p", "negative", "radians", "relu", "rint", "round", "sign", "sin",
                   "sinh", "sqrt", "square", "tan", "tanh", "trunc")


def _is_sparse(x: Any, stype: str | None = None) -> bool:
    return isinstance(x, _sp.BaseSparseNDArray) and (stype is None or x.stype == stype)


def _with_data(x: Any, data: np.ndarray) -> Any:
    """``x``'s sparsity pattern holding ``data``."""
    return _sp.make(x.stype, (data, *x._parts[1:]), x.shape)


def _values(fn: Callable[..., Any], data: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
    """The dense operator ``fn`` applied to the stored values (the same arithmetic as the dense array's)."""
    return fn(_sp._nd(data), *args, **kwargs)._data


def _csr_rows_of(x: Any) -> np.ndarray:
    return np.repeat(np.arange(x.shape[0], dtype=np.int64), np.diff(x._parts[2]))


def _scipy(x: Any) -> Any:
    import scipy.sparse

    data, indices, indptr = x._parts
    if data.dtype == np.float16:  # scipy's kernels have no half precision
        data = data.astype(np.float32)
    return scipy.sparse.csr_matrix((data, indices, indptr), shape=x.shape)


def _from_scipy(m: Any, dtype: np.dtype) -> Any:
    m = m.tocsr()
    return _sp.make("csr", (m.data.astype(dtype, copy=False), m.indices, m.indptr), m.shape)


def _kernel(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in names:
            KERNELS[name] = fn
        return fn
    return register


# ---------------------------------------------------------------- element-wise
def _unary(name: str) -> Callable[..., Any]:
    dense = _op.TABLE[name]

    def kernel(data: Any, *args: Any, **kwargs: Any) -> Any:
        if not _is_sparse(data) or args or kwargs:
            return NotImplemented
        return _with_data(data, _values(dense, data._parts[0]))
    return kernel


for _name in ZERO_PRESERVING:
    KERNELS[_name] = _unary(_name)


@_kernel("clip")
def _clip(data: Any, a_min: Any = None, a_max: Any = None, **_: Any) -> Any:
    low = -np.inf if a_min is None else float(a_min)
    high = np.inf if a_max is None else float(a_max)
    if not _is_sparse(data) or not low <= 0.0 <= high:
        return NotImplemented
    return _with_data(data, np.clip(data._parts[0], low, high).astype(data._parts[0].dtype, copy=False))


@_kernel("zeros_like")
def _zeros_like(data: Any, **_: Any) -> Any:
    if not _is_sparse(data):
        return NotImplemented
    return _sp.zeros(data.stype, data.shape, dtype=data._parts[0].dtype)


def _scalar(x: Any) -> bool:
    return isinstance(x, (int, float, np.number)) and not isinstance(x, bool)


def _dense_at_stored(x: Any, other: Any) -> np.ndarray:
    """The values of dense ``other`` (broadcast to ``x``'s shape) where ``x`` stores values."""
    full = np.broadcast_to(other._data if isinstance(other, Tensor) else np.asarray(other), x.shape)
    if x.stype == "csr":
        return full[_csr_rows_of(x), x._parts[1]]
    return full[x._parts[1]]


@_kernel("elemwise_mul", "broadcast_mul", "multiply", "_mul_scalar")
def _multiply(lhs: Any, rhs: Any, **_: Any) -> Any:
    """Element-wise product; sparse by a scalar, a dense array or a sparse array of its storage is sparse."""
    if not _is_sparse(lhs):
        lhs, rhs = rhs, lhs
    if not _is_sparse(lhs):
        return NotImplemented
    data = lhs._parts[0]
    if _scalar(rhs):
        return _with_data(lhs, (data * np.asarray(rhs, data.dtype)).astype(data.dtype, copy=False))
    if _is_sparse(rhs):
        if rhs.stype != lhs.stype:
            return NotImplemented
        if lhs.stype == "csr":
            return _from_scipy(_scipy(lhs).multiply(_scipy(rhs)), data.dtype)
        common, at_l, at_r = np.intersect1d(lhs._parts[1], rhs._parts[1], return_indices=True)
        return _sp.make("row_sparse", (data[at_l] * rhs._parts[0][at_r], common), lhs.shape)
    if isinstance(rhs, Tensor):
        return _with_data(lhs, (data * _dense_at_stored(lhs, rhs).reshape(data.shape)).astype(data.dtype))
    return NotImplemented


@_kernel("broadcast_div", "_div_scalar", "divide")
def _divide(lhs: Any, rhs: Any, **_: Any) -> Any:
    """Element-wise quotient; a sparse array by a scalar or by a dense array stays sparse."""
    if not _is_sparse(lhs) or _is_sparse(rhs):
        return NotImplemented
    data = lhs._parts[0]
    if _scalar(rhs):
        return _with_data(lhs, (data / np.asarray(rhs, data.dtype)).astype(data.dtype, copy=False))
    if isinstance(rhs, Tensor):
        return _with_data(lhs, (data / _dense_at_stored(lhs, rhs).reshape(data.shape)).astype(data.dtype))
    return NotImplemented


def _same_storage_sum(lhs: Any, rhs: Any, sign: float) -> Any:
    if not (_is_sparse(lhs) and _is_sparse(rhs) and lhs.stype == rhs.stype):
        return NotImplemented
    if tuple(lhs.shape) != tuple(rhs.shape):
        raise ValueError(f"elemwise_add: shapes {lhs.shape} and {rhs.shape} differ")
    dtype = lhs._parts[0].dtype
    if lhs.stype == "csr":
        return _from_scipy(_scipy(lhs) + sign * _scipy(rhs), dtype)
    rows = np.union1d(lhs._parts[1], rhs._parts[1])
    data = np.zeros((rows.size, *lhs.shape[1:]), dtype)
    np.add.at(data, np.searchsorted(rows, lhs._parts[1]), lhs._parts[0])
    np.add.at(data, np.searchsorted(rows, rhs._parts[1]), (sign * rhs._parts[0]).astype(dtype))
    return _sp.make("row_sparse", (data, rows), lhs.shape)


@_kernel("elemwise_add", "add")
def _add(lhs: Any, rhs: Any, **_: Any) -> Any:
    """Element-wise sum; two arrays of one sparse storage type give that storage."""
    return _same_storage_sum(lhs, rhs, 1.0)


@_kernel("elemwise_sub", "subtract")
def _subtract(lhs: Any, rhs: Any, **_: Any) -> Any:
    """Element-wise difference; two arrays of one sparse storage type give that storage."""
    return _same_storage_sum(lhs, rhs, -1.0)


@_kernel("add_n", "ElementWiseSum")
def _add_n(*args: Any, **_: Any) -> Any:
    """The sum of the arrays; row-sparse arrays sum to a row-sparse array."""
    if not args or not all(_is_sparse(a, "row_sparse") for a in args):
        return NotImplemented
    out = args[0]
    for a in args[1:]:
        out = _same_storage_sum(out, a, 1.0)
    return out if len(args) > 1 else out.copy()


# ---------------------------------------------------------------- reductions (dense results)
def _reduction(name: str) -> Callable[..., Any]:
    def kernel(data: Any, axis: Any = None, keepdims: bool = False, exclude: bool = False, **kw: Any) -> Any:
        axis = axis[0] if isinstance(axis, (tuple, list)) and len(axis) == 1 else axis
        if not _is_sparse(data) or exclude or kw or not (axis is None or isinstance(axis, (int, np.integer))):
            return NotImplemented
        values = data._parts[0].astype(np.float64)
        if axis is None:
            total, count = np.asarray([values.sum()]), data.size
        else:
            axis = int(axis) % data.ndim
            count = data.shape[axis]
            if data.stype == "csr":
                total = np.zeros(data.shape[1 - axis])
                np.add.at(total, _csr_rows_of(data) if axis == 1 else data._parts[1], values)
            elif axis == 0:
                total = values.sum(axis=0)
            else:
                return NotImplemented
            if keepdims:
                total = np.expand_dims(total, axis)
        if keepdims and axis is None:
            total = total.reshape((1,) * data.ndim)
        out = total / count if name == "mean" else total
        return _sp._nd(out.astype(data._parts[0].dtype))
    return kernel


KERNELS["sum"], KERNELS["mean"] = _reduction("sum"), _reduction("mean")


@_kernel("norm")
def _norm(data: Any, ord: int = 2, axis: Any = None, keepdims: bool = False, **kw: Any) -> Any:
    if not _is_sparse(data) or axis is not None or ord != 2 or kw:
        return NotImplemented
    value = np.sqrt(np.sum(np.square(data._parts[0].astype(np.float64))))
    return _sp._nd(np.asarray([value] if not keepdims else np.full((1,) * data.ndim, value),
                              data._parts[0].dtype).reshape((1,) if not keepdims else (1,) * data.ndim))


# ---------------------------------------------------------------- structure
def csr_rows(x: Any, key: Any) -> Any:
    """``x[key]`` of a CSR array: an integer or a contiguous row slice, a CSR array of those rows."""
    if isinstance(key, (int, np.integer)):
        row = int(key) % x.shape[0]
        key = builtins.slice(row, row + 1)
    if not isinstance(key, builtins.slice) or key.step not in (None, 1):
        raise ValueError(f"CSRNDArray only supports continuous slicing on axis 0, got [{key!r}]")
    start, stop, _ = key.indices(x.shape[0])
    return _slice(x, begin=(start,), end=(builtins.max(stop, start),))


@_kernel("slice", "crop")
def _slice(data: Any, begin: Any, end: Any, step: Any = None, **_: Any) -> Any:
    if not _is_sparse(data, "csr") or any(s not in (None, 1) for s in (step or ())):
        return NotImplemented
    bounds = [builtins.slice(b, e) for b, e in zip([*begin, None, None][:2], [*end, None, None][:2])]
    return _from_scipy(_scipy(data)[bounds[0], bounds[1]], data._parts[0].dtype)


@_kernel("concat", "Concat")
def _concat(*args: Any, dim: int = 1, **_: Any) -> Any:
    if not args or not all(_is_sparse(a, "csr") for a in args) or dim != 0:
        return NotImplemented
    import scipy.sparse
    return _from_scipy(scipy.sparse.vstack([_scipy(a) for a in args], format="csr"), args[0]._parts[0].dtype)


def retain(data: Any, indices: Any) -> Any:
    """Row-sparse ``data`` storing exactly the rows ``indices`` (in that order): their values where ``data``
    stores them, zeros elsewhere; the other rows dropped."""
    if not _is_sparse(data, "row_sparse"):
        raise ValueError(f"retain: expected a RowSparseNDArray, got {type(data).__name__}")
    wanted = (indices._data if isinstance(indices, Tensor) else np.asarray(indices)).astype(np.int64).ravel()
    values, stored = data._parts
    order = np.argsort(stored, kind="stable")
    out = np.zeros((wanted.size, *values.shape[1:]), values.dtype)
    if stored.size:
        at = np.minimum(np.searchsorted(stored[order], wanted), stored.size - 1)
        found = stored[order][at] == wanted
        out[found] = values[order[at[found]]]
    return _sp.make("row_sparse", (out, wanted), data.shape)


def _dense_arg(x: Any) -> Any:
    return _sp._nd(x._densify()) if _is_sparse(x) else x


# ---------------------------------------------------------------- dot
def _csr_times(x: Any, dense: Tensor, transpose: bool) -> Tensor:
    """``x @ dense`` (``x.T @ dense`` with ``transpose``) from the stored values: a gather of ``dense``'s
    rows, a product with the values and a segment sum, differentiable in ``dense``."""
    data, cols, rows = x._parts[0], x._parts[1], _csr_rows_of(x)
    take, into, n = (rows, cols, x.shape[1]) if transpose else (cols, rows, x.shape[0])
    picked = ops.gather(dense, Tensor(take), 0)
    scale = Tensor(data.reshape(-1, *([1] * (dense.ndim - 1))).astype(dense._data.dtype, copy=False))
    return ops.unsorted_segment_sum(ops.mul(picked, scale), Tensor(into), n)


def _typed(out: Tensor, stype: str, recorded: bool) -> Any:
    if stype == "default" or recorded:
        return _op.retype(out, NDArray)
    return _sp.cast_storage(out._data, stype)


def dot(lhs: Any, rhs: Any, transpose_a: bool = False, transpose_b: bool = False, forward_stype: Any = None,
        **kwargs: Any) -> NDArray:
    """``mx.nd.dot`` with MXNet's output storage: row-sparse for csr^T x dense, CSR for dense x csr, dense
    otherwise or as ``forward_stype`` says. A CSR argument is used through its stored values; the product
    is differentiable in the dense argument (under autograd the result is the dense array the tape
    records)."""
    l_csr, r_csr = _is_sparse(lhs, "csr"), _is_sparse(rhs, "csr")
    dense_lhs = not _is_sparse(lhs) and isinstance(lhs, Tensor)
    dense_rhs = not _is_sparse(rhs) and isinstance(rhs, Tensor)
    if l_csr and dense_rhs:
        operand = ops.transpose(rhs, tuple(reversed(range(rhs.ndim)))) if transpose_b else rhs
        out = _csr_times(lhs, operand, transpose_a)
        stype = forward_stype or ("row_sparse" if transpose_a else "default")
        return _typed(out, stype, is_grad_enabled() and out.requires_grad)
    if r_csr and dense_lhs and lhs.ndim == 2:
        operand = lhs if transpose_a else ops.transpose(lhs, (1, 0))  # (K, M): lhs^T
        # lhs @ csr = (csr^T @ lhs^T)^T; lhs @ csr^T = (csr @ lhs^T)^T
        out = ops.transpose(_csr_times(rhs, operand, not transpose_b), (1, 0))
        stype = forward_stype or "csr"
        return _typed(out, stype, is_grad_enabled() and out.requires_grad)
    result = _op.TABLE["dot"](_dense_arg(lhs), _dense_arg(rhs), transpose_a=transpose_a,
                              transpose_b=transpose_b)
    return _typed(result, forward_stype or "default", is_grad_enabled() and result.requires_grad)


KERNELS["dot"] = dot


# ---------------------------------------------------------------- dispatch
def dispatching(name: str, dense: Callable[..., Any]) -> Callable[..., Any]:
    """mx.nd's function ``name``: the sparse kernel when an argument is sparse and MXNet keeps sparse storage
    for it, else ``dense`` (on the dense values of any sparse argument)."""
    kernel = KERNELS.get(name)
    if kernel is None:
        return dense

    def fn(*args: Any, **kwargs: Any) -> Any:
        if any(_is_sparse(a) for a in args) or any(_is_sparse(v) for v in kwargs.values()):
            out = kernel(*args, **{k: v for k, v in kwargs.items() if k not in ("name", "out")})
            if out is not NotImplemented:
                return out
        return dense(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = dense.__doc__
    return fn
