"""MXNet 1.x operators of training and data code outside the main families: ``moments``, ``khatri_rao``,
``batch_take``, ``fill_element_0index``, ``scatter_nd``, ``ravel_multi_index`` / ``unravel_index`` and the
``linalg_*`` operators (the batched BLAS/LAPACK family over the last two axes), written with cellonnx ops so
they differentiate."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.graph.trace import require_static
from cellonnx.mxnet._op._util import axes_of
from cellonnx.tensor import Tensor

__all__ = ["MISC"]


def moments(data: Tensor, axes: Any = None, keepdims: bool = False, **_: Any) -> tuple[Tensor, Tensor]:
    """The mean and the (population) variance of ``data`` over ``axes`` (every axis when None)."""
    ax = axes_of(axes, data.ndim)
    mean = ops.mean(data, ax, True)
    var = ops.mean(ops.square(data - mean), ax, bool(keepdims))
    return (mean if keepdims else ops.mean(data, ax, False)), var


def khatri_rao(*args: Tensor, **_: Any) -> Tensor:
    """The column-wise Kronecker product of matrices (I_k, R): (prod I_k, R)."""
    out = args[0]
    for m in args[1:]:
        r = out.shape[1]
        out = ops.reshape(ops.expand_dims(out, 1) * ops.expand_dims(m, 0), (-1, r))
    return out


def _index(x: Tensor, high: int) -> Tensor:
    last = ops.cast(Tensor(high - 1), np.int64)  # a dynamic size: read at run time
    return ops.minimum(ops.maximum(ops.cast(ops.stop_gradient(x), np.int64), 0), last)


def batch_take(a: Tensor, indices: Tensor, **_: Any) -> Tensor:
    """``a[i, indices[i]]`` for each row i of the matrix ``a`` (indices clipped to the row)."""
    idx = ops.reshape(_index(indices, a.shape[1]), (-1, 1))
    return ops.reshape(ops.gather_elements(a, 1, idx), (-1,))


def fill_element_0index(lhs: Tensor, mhs: Tensor, rhs: Tensor, **_: Any) -> Tensor:
    """``lhs`` with ``lhs[i, rhs[i]]`` replaced by ``mhs[i]``."""
    idx = ops.reshape(_index(rhs, lhs.shape[1]), (-1, 1))
    return ops.tensor_scatter_elements(lhs, idx, ops.reshape(mhs, (-1, 1)), 1)


def scatter_nd(data: Tensor, indices: Tensor, shape: Any, **_: Any) -> Tensor:
    """Zeros of ``shape`` with ``out[indices[:, i]] = data[i]`` (``indices`` is (M, N...): M leading axes)."""
    idx = ops.cast(ops.stop_gradient(indices), np.int64)
    idx = ops.moveaxis(idx, 0, -1)
    return ops.scatter_nd(idx, data, tuple(int(s) for s in shape))


def ravel_multi_index(data: Tensor, shape: Any, **_: Any) -> Tensor:
    """Flat indices (float32) of the (ndim, N) coordinates ``data`` in an array of ``shape``."""
    coords = ops.cast(ops.stop_gradient(data), np.int64)
    strides = np.cumprod((list(shape)[1:] + [1])[::-1])[::-1].astype(np.int64)
    flat = ops.sum(coords * Tensor(strides.reshape((-1,) + (1,) * (coords.ndim - 1))), 0)
    return ops.cast(flat, data._data.dtype)


def unravel_index(data: Tensor, shape: Any, **_: Any) -> Tensor:
    """The (ndim, N) coordinates of the flat indices ``data`` in an array of ``shape``."""
    flat = ops.cast(ops.stop_gradient(data), np.int64)
    dims = [int(s) for s in shape]
    out = []
    for d in dims[::-1]:
        out.append(ops.floor_mod(flat, d))
        flat = ops.floor_divide(flat, d)
    return ops.cast(ops.stack(out[::-1], 0), data._data.dtype)


def _t(x: Tensor, flag: bool) -> Tensor:
    return ops.swapaxes(x, -1, -2) if flag else x


def linalg_gemm(A: Tensor, B: Tensor, C: Tensor, transpose_a: bool = False, transpose_b: bool = False,
                alpha: float = 1.0, beta: float = 1.0, axis: int = -2, **_: Any) -> Tensor:
    """``alpha * op(A) @ op(B) + beta * C``."""
    return ops.matmul(_t(A, transpose_a), _t(B, transpose_b)) * float(alpha) + C * float(beta)


def linalg_syrk(A: Tensor, transpose: bool = False, alpha: float = 1.0, **_: Any) -> Tensor:
    """``alpha * A @ A^T`` (``A^T @ A`` with ``transpose``)."""
    return ops.matmul(_t(A, transpose), _t(A, not transpose)) * float(alpha)


def _tri(A: Tensor, lower: bool) -> Tensor:
    return ops.tril(A) if lower else ops.triu(A)


def linalg_trmm(A: Tensor, B: Tensor, transpose: bool = False, rightside: bool = False, lower: bool = True,
                alpha: float = 1.0, **_: Any) -> Tensor:
    """``alpha * op(A) @ B`` (``B @ op(A)`` with ``rightside``), A triangular."""
    a = _t(_tri(A, lower), transpose)
    return (ops.matmul(B, a) if rightside else ops.matmul(a, B)) * float(alpha)


def linalg_trsm(A: Tensor, B: Tensor, transpose: bool = False, rightside: bool = False, lower: bool = True,
                alpha: float = 1.0, **_: Any) -> Tensor:
    """X solving ``op(A) @ X = alpha * B`` (``X @ op(A) = alpha * B`` with ``rightside``), A triangular."""
    inv = ops.inverse(_t(_tri(A, lower), transpose))
    return (ops.matmul(B, inv) if rightside else ops.matmul(inv, B)) * float(alpha)


def linalg_potrf(A: Tensor, lower: bool = True, **_: Any) -> Tensor:
    """The Cholesky factor of the symmetric positive-definite A (lower, or upper with ``lower=False``)."""
    return ops.cholesky(A, upper=not lower)


def linalg_potri(A: Tensor, lower: bool = True, **_: Any) -> Tensor:
    """The inverse of ``L @ L^T`` from its Cholesky factor ``A`` (``U^T @ U`` with ``lower=False``)."""
    t = _tri(A, lower)
    full = ops.matmul(t, _t(t, True)) if lower else ops.matmul(_t(t, True), t)
    return ops.inverse(full)


def _no_0d(out: Tensor) -> Tensor:
    """A one-matrix result as shape (1,): MXNet 1.x has no 0-d arrays."""
    return ops.reshape(out, (1,)) if out.ndim == 0 else out


def linalg_sumlogdiag(A: Tensor, **_: Any) -> Tensor:
    """The sum of the logarithms of A's diagonal."""
    return _no_0d(ops.sum(ops.log(ops.diagonal(A, 0, -2, -1)), -1))


def linalg_extractdiag(A: Tensor, offset: int = 0, **_: Any) -> Tensor:
    """The diagonal ``offset`` of A (above the main one when positive)."""
    return ops.diagonal(A, int(offset), -2, -1)


def linalg_makediag(A: Tensor, offset: int = 0, **_: Any) -> Tensor:
    """Square matrices with A's last axis on diagonal ``offset``."""
    return ops.diag_embed(A, int(offset), -2, -1)


def linalg_gelqf(A: Tensor, **_: Any) -> tuple[Tensor, Tensor]:
    """The LQ factorization A = L @ Q of (a batch of) m x n matrices, m <= n: (Q with orthonormal rows
    (m x n), L lower triangular (m x m)), LAPACK's Householder signs (those of the QR factorization of A^T,
    which LAPACK computes with the same reflections)."""
    m, n = int(A.shape[-2]), int(A.shape[-1])
    if m > n:
        raise ValueError(f"linalg_gelqf: the matrices must not have more rows than columns, got {m} x {n}")
    q, r = ops.qr(ops.swapaxes(A, -1, -2))
    return ops.swapaxes(q, -1, -2), ops.swapaxes(r, -1, -2)


def _trian(n: int, offset: int, lower: bool) -> np.ndarray:
    """(m, n * n) 0/1: row i picks the i-th element of the triangle ``offset`` / ``lower`` selects
    (offset < 0: below that diagonal, > 0: above it, 0: the lower or upper triangle): a lower triangle row
    by row, an upper one column by column (MXNet's order)."""
    lower = offset < 0 or (offset == 0 and lower)
    rows, cols = np.tril_indices(n, offset)
    if not lower:
        cols, rows = np.tril_indices(n, -offset)
    pick = np.zeros((rows.size, n * n), np.float32)
    pick[np.arange(rows.size), rows * n + cols] = 1.0
    return pick


def linalg_extracttrian(A: Tensor, offset: int = 0, lower: bool = True, **_: Any) -> Tensor:
    """A's triangle (see ``offset`` / ``lower``) packed row by row into the last axis."""
    require_static(A.shape[-1], "linalg_extracttrian picks the triangle's elements by the matrix size and")
    n = int(A.shape[-1])
    pick = Tensor(_trian(n, int(offset), bool(lower)).T.copy())
    flat = ops.reshape(A, tuple(A.shape[:-2]) + (n * n,))
    return ops.matmul(flat, pick)


def linalg_maketrian(A: Tensor, offset: int = 0, lower: bool = True, **_: Any) -> Tensor:
    """Square matrices holding the packed triangle A (the inverse of ``linalg_extracttrian``), zeros
    elsewhere."""
    require_static(A.shape[-1], "linalg_maketrian places the triangle's elements by their count and")
    m = int(A.shape[-1])
    k = round(float(np.sqrt(8 * m + 1) - 1) / 2)
    n = k + abs(int(offset))
    pick = Tensor(_trian(n, int(offset), bool(lower)))
    return ops.reshape(ops.matmul(A, pick), tuple(A.shape[:-1]) + (n, n))


MISC: dict[str, Callable[..., Any]] = {
    "linalg_extracttrian": linalg_extracttrian, "linalg_maketrian": linalg_maketrian,
    "moments": moments, "khatri_rao": khatri_rao, "batch_take": batch_take,
    "fill_element_0index": fill_element_0index, "scatter_nd": scatter_nd,
    "ravel_multi_index": ravel_multi_index, "unravel_index": unravel_index,
    "linalg_gemm": linalg_gemm, "linalg_syrk": linalg_syrk, "linalg_trmm": linalg_trmm,
    "linalg_trsm": linalg_trsm, "linalg_potrf": linalg_potrf, "linalg_potri": linalg_potri,
    "linalg_sumlogdiag": linalg_sumlogdiag, "linalg_extractdiag": linalg_extractdiag,
    "linalg_makediag": linalg_makediag, "linalg_gelqf": linalg_gelqf,
    "linalg_det": lambda A, **_: _no_0d(ops.det(A)),
    "linalg_inverse": lambda A, **_: ops.inverse(A),
    "linalg_slogdet": lambda A, **_: tuple(_no_0d(o) for o in ops.slogdet(A)),
}
