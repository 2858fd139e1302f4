"""mx.np.linalg's inverses, solves and decompositions, as MXNet 1.9.1 gives them: over cellonnx's
differentiable decomposition ops (cellonnx/ops/prims/decomp.py), float results of the input's dtype;
``svd`` returns MXNet's ``(ut, s, v)`` with ``a = ut @ diag(s) @ v``; ``slogdet`` a list; ``eig`` /
``eigvals`` real results (complex eigenvalues are an error, as in MXNet). ``lstsq``, ``matrix_rank`` and
``cond`` run NumPy, as MXNet 1.9.1's do.
"""
from __future__ import annotations

from typing import Any

import numpy as _onp

from cellonnx import ops as _ops
from cellonnx.mxnet.numpy.fallback import fallback
from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.ops.prims.decomp import Eigh
from cellonnx.tensor import Tensor

__all__ = ["cholesky", "cond", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv", "lstsq", "matrix_rank",
           "pinv", "qr", "slogdet", "solve", "svd", "tensorinv", "tensorsolve"]


def _matrix(a: Any, name: str, square: bool = True) -> Tensor:
    x = a if isinstance(a, Tensor) else Tensor(_onp.asarray(a, _onp.float32))
    if x.ndim < 2 or (square and x.shape[-1] != x.shape[-2]):
        raise ValueError(f"np.linalg.{name}: expected (a stack of) {'square ' if square else ''}matrices "
                         f"(..., M, {'M' if square else 'N'}), got shape {tuple(x.shape)}")
    if x._data.dtype.kind != "f":
        raise TypeError(f"np.linalg.{name}: expected a float array, got {x._data.dtype}")
    return x


def inv(a: Any) -> Any:
    """The inverse of (a stack of) square matrices; differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.linalg.inv(np.array([[2.0, 0.0], [0.0, 4.0]])))
        [[0.5  0.  ]
         [0.   0.25]]
    """
    return to_np(_ops.inverse(_matrix(a, "inv")))


def det(a: Any) -> Any:
    """The determinant of (a stack of) square matrices; differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.linalg.det(np.array([[1.0, 2.0], [3.0, 4.0]])))
        -2.0
    """
    return to_np(_ops.det(_matrix(a, "det")))


def slogdet(a: Any) -> list:
    """``[sign, log |det|]`` of (a stack of) square matrices (a list, as MXNet's); differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> sign, logdet = np.linalg.slogdet(np.array([[1.0, 2.0], [3.0, 4.0]]))
        >>> print(sign, logdet)
        -1.0 0.6931472
    """
    return list(to_np(_ops.slogdet(_matrix(a, "slogdet"))))


def solve(a: Any, b: Any) -> Any:
    """x with ``a @ x = b``: ``b`` a (stack of) vector(s) (..., M) or matrices (..., M, K); differentiable
    with respect to both.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.linalg.solve(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.0, 2.0])))
        [0.  0.5]
    """
    x = _matrix(a, "solve")
    y = b if isinstance(b, Tensor) else Tensor(_onp.asarray(b, x._data.dtype))
    if y.ndim == x.ndim - 1:
        return to_np(_ops.squeeze(_ops.matrix_solve(x, _ops.expand_dims(y, -1)), -1))
    return to_np(_ops.matrix_solve(x, y))


def cholesky(a: Any) -> Any:
    """The lower Cholesky factor L of (a stack of) symmetric positive-definite matrices (a = L L^T);
    differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 5.0]])))
        [[2. 0.]
         [1. 2.]]
    """
    return to_np(_ops.cholesky(_matrix(a, "cholesky")))


def qr(a: Any, mode: str = "reduced") -> tuple:
    """``(q, r)`` with ``a = q @ r`` ('reduced' or 'complete'); differentiable for 'reduced'.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> q, r = np.linalg.qr(np.array([[3.0, 0.0], [4.0, 5.0]]))
        >>> print(r)
        [[-5. -4.]
         [ 0.  3.]]
    """
    return tuple(to_np(_ops.qr(_matrix(a, "qr", square=False), mode)))


def svd(a: Any) -> tuple:
    """MXNet's singular value decomposition ``(ut, s, v)`` with ``a = ut @ diag(s) @ v``: for ``a`` of
    shape (..., M, N), M <= N, ``ut`` is (..., M, M), ``s`` (..., M) descending and ``v`` (..., M, N);
    differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> ut, s, v = np.linalg.svd(np.array([[3.0, 0.0, 0.0], [0.0, 4.0, 0.0]]))
        >>> print(s)
        [4. 3.]
    """
    x = _matrix(a, "svd", square=False)
    if x.shape[-2] > x.shape[-1]:
        raise ValueError(f"np.linalg.svd: MXNet's svd takes (..., M, N) with M <= N, got shape "
                         f"{tuple(x.shape)}")
    s, u, v = _ops.svd(x)
    return to_np(u), to_np(s), to_np(_ops.swapaxes(v, -1, -2))


def _uplo(uplo: str, name: str) -> bool:
    if uplo not in ("L", "U"):
        raise ValueError(f"np.linalg.{name}: UPLO must be 'L' or 'U', got {uplo!r}")
    return uplo == "U"


def eigh(a: Any, UPLO: str = "L") -> tuple:
    """``(w, v)`` of (a stack of) real symmetric matrices, read from the ``UPLO`` triangle: eigenvalues
    ascending and the eigenvectors as columns; differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> w, v = np.linalg.eigh(np.array([[2.0, 1.0], [1.0, 2.0]]))
        >>> print(w)
        [1. 3.]
    """
    return tuple(to_np(Eigh.apply(_matrix(a, "eigh"), upper=_uplo(UPLO, "eigh"))))


def eigvalsh(a: Any, UPLO: str = "L") -> Any:
    """The eigenvalues (ascending) of (a stack of) real symmetric matrices, read from the ``UPLO``
    triangle.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.linalg.eigvalsh(np.array([[2.0, 1.0], [1.0, 2.0]])))
        [1. 3.]
    """
    return to_np(Eigh.apply(_matrix(a, "eigvalsh"), upper=_uplo(UPLO, "eigvalsh"))[0])


def _real_eig(a: Any, name: str, vectors: bool) -> Any:
    x = _matrix(a, name)
    w, v = _onp.linalg.eig(x._data)
    if _onp.any(_onp.abs(w.imag) > 1e-15):
        raise ValueError(f"np.linalg.{name}: complex eigenvalues are unsupported (as in MXNet): the "
                         f"matrix has eigenvalues {w}")
    dt = x._data.dtype
    values = to_np(Tensor(_onp.ascontiguousarray(w.real.astype(dt))))
    return (values, to_np(Tensor(_onp.ascontiguousarray(v.real.astype(dt))))) if vectors else values


def eig(a: Any) -> tuple:
    """``(w, v)`` of (a stack of) square matrices with real eigenvalues (the eigenvectors as columns);
    complex eigenvalues are an error, as in MXNet. Not differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> w, v = np.linalg.eig(np.array([[2.0, 0.0], [0.0, 3.0]]))
        >>> print(w)
        [2. 3.]
    """
    return _real_eig(a, "eig", True)


def eigvals(a: Any) -> Any:
    """The (real) eigenvalues of (a stack of) square matrices; complex ones are an error, as in MXNet.
    Not differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.linalg.eigvals(np.array([[2.0, 0.0], [0.0, 3.0]])))
        [2. 3.]
    """
    return _real_eig(a, "eigvals", False)


def pinv(a: Any, rcond: Any = 1e-15, hermitian: bool = False) -> Any:
    """The Moore-Penrose pseudo-inverse of (a stack of) matrices, singular values below ``rcond`` times the
    largest cut off; differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.linalg.pinv(np.array([[2.0, 0.0], [0.0, 0.0]])))
        [[0.5 0. ]
         [0.  0. ]]
    """
    x = _matrix(a, "pinv", square=False)
    rtol = rcond._data if isinstance(rcond, Tensor) else rcond
    return to_np(_ops.pinv(x, rtol=rtol, hermitian=bool(hermitian)))


def tensorinv(a: Any, ind: int = 2) -> Any:
    """The inverse of ``a`` as a tensor operator: for ``a`` of shape ``s[:ind] + s[ind:]`` with equal
    products, the array of shape ``s[ind:] + s[:ind]`` with ``tensordot(tensorinv(a), a, ind)`` the
    identity; differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> a = np.eye(4).reshape(4, 2, 2)
        >>> np.linalg.tensorinv(a, ind=1).shape
        (2, 2, 4)
    """
    x = a if isinstance(a, Tensor) else Tensor(_onp.asarray(a, _onp.float32))
    ind = int(ind)
    if ind <= 0:
        raise ValueError(f"np.linalg.tensorinv: ind must be positive, got {ind}")
    head, tail = tuple(x.shape[:ind]), tuple(x.shape[ind:])
    rows, cols = int(_onp.prod(head)), int(_onp.prod(tail))
    if rows != cols:
        raise ValueError(f"np.linalg.tensorinv: the products of shape {head} and {tail} differ")
    return to_np(_ops.reshape(_ops.inverse(_ops.reshape(x, (rows, cols))), tail + head))


def tensorsolve(a: Any, b: Any, axes: Any = None) -> Any:
    """x with ``tensordot(a, x, x.ndim) = b``: ``a``'s leading axes match ``b``'s shape, the rest are x's
    (``axes`` moves the given axes of ``a`` to the end first); differentiable.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> a = np.eye(6).reshape(6, 2, 3)
        >>> b = np.arange(6.0)
        >>> print(np.linalg.tensorsolve(a, b))
        [[0. 1. 2.]
         [3. 4. 5.]]
    """
    x = a if isinstance(a, Tensor) else Tensor(_onp.asarray(a, _onp.float32))
    y = b if isinstance(b, Tensor) else Tensor(_onp.asarray(b, x._data.dtype))
    if axes is not None:
        order = [i for i in range(x.ndim) if i not in [int(k) % x.ndim for k in axes]]
        order += [int(k) % x.ndim for k in axes]
        x = _ops.transpose(x, tuple(order))
    out_shape = tuple(x.shape[y.ndim:])
    rows, cols = int(_onp.prod(tuple(x.shape[:y.ndim]))), int(_onp.prod(out_shape))
    if rows != cols:
        raise ValueError(f"np.linalg.tensorsolve: a's shape {tuple(x.shape)} does not give a square system "
                         f"for b's shape {tuple(y.shape)}")
    flat = _ops.matrix_solve(_ops.reshape(x, (rows, cols)), _ops.reshape(y, (rows, 1)))
    return to_np(_ops.reshape(flat, out_shape))


def _lstsq_numpy(a: Any, b: Any, rcond: Any = "warn") -> Any:
    # NumPy 1.x's rcond='warn' (MXNet 1.9.1's default) meant the old machine-precision cut-off, rcond=-1
    return _onp.linalg.lstsq(a, b, rcond=-1 if isinstance(rcond, str) and rcond == "warn" else rcond)


class _LinalgNumpy:
    """NumPy's linalg with lstsq taking NumPy 1.x's default."""

    __name__ = "numpy.linalg"
    lstsq = staticmethod(_lstsq_numpy)
    matrix_rank = staticmethod(_onp.linalg.matrix_rank)
    cond = staticmethod(_onp.linalg.cond)


lstsq = fallback("lstsq", _LinalgNumpy)
matrix_rank = fallback("matrix_rank", _LinalgNumpy)
cond = fallback("cond", _LinalgNumpy)
