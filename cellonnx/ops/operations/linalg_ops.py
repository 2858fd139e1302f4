"""MindSpore's linear-algebra operator classes (``ops.Cholesky``, ``ops.Svd``, ``ops.Qr``,
``ops.MatrixSolve``, ``ops.MatrixDiagV3``, ``ops.Cross``, ``ops.Einsum`` ...): table rows over the functional
ops (see table.py), with adapters where the class returns more than its functional twin."""
from __future__ import annotations

from typing import Any

from cellonnx.ops.operations._util import ints
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _svd(x: Tensor, full_matrices: bool, compute_uv: bool) -> tuple[Tensor, Tensor, Tensor]:
    """MindSpore's Svd always gives (s, u, v); without ``compute_uv``, u and v are one zero each."""
    from cellonnx.ops import svd, zeros
    if compute_uv:
        return svd(x, full_matrices, True)
    placeholder = zeros((1,), dtype=x.dtype)
    return svd(x, full_matrices, False), placeholder, placeholder


def _eig(x: Tensor, compute_v: bool) -> tuple[Tensor, Tensor]:
    """MindSpore's Eig: (eigenvalues, eigenvectors); without ``compute_v`` the eigenvectors are a complex
    0-D zero."""
    from cellonnx.ops import eig, eigvals, zeros
    if compute_v:
        return eig(x)
    values = eigvals(x)
    return values, zeros((), dtype=values.dtype)


def _matrix_inverse(x: Tensor, adjoint: bool) -> Tensor:
    from cellonnx.ops import adjoint as adjoint_
    from cellonnx.ops import inverse
    return inverse(adjoint_(x) if adjoint else x)


def _diag_part(x: Tensor) -> Tensor:
    """The diagonal of a rank-2k tensor of shape ``s + s``: ``out[i] = x[i, i]`` for every index ``i`` of
    ``s`` (MindSpore's DiagPart)."""
    from cellonnx.ops import diagonal, reshape
    if x.ndim % 2 or tuple(x.shape[:x.ndim // 2]) != tuple(x.shape[x.ndim // 2:]):
        raise ValueError(f"For 'DiagPart', the input shape must be s + s for some s, but got "
                         f"{tuple(x.shape)}.")
    half = tuple(x.shape[:x.ndim // 2])
    n = 1
    for d in half:
        n *= int(d)
    return reshape(diagonal(reshape(x, (n, n))), half)


def _conjugate_transpose(x: Tensor, perm: Any) -> Tensor:
    from cellonnx.ops import conj, transpose
    return conj(transpose(x, ints(perm)))


ROWS = [
    # ---- factorizations
    Row("Cholesky", "upper=False", "input_x", "cholesky(input_x, upper)",
        summary="The Cholesky factor of each symmetric positive-definite matrix.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[4.0, 2.0], [2.0, 5.0]]), ms.float32)
        >>> print(ops.Cholesky()(x))
        [[2. 0.]
         [1. 2.]]
        """),
    Row("CholeskyInverse", "upper=False", "input_x", "cholesky_inverse(input_x, upper)",
        summary="The inverse of ``A`` from its Cholesky factor ``input_x`` (lower unless ``upper``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 0.0], [1.0, 1.0]]), ms.float32)
        >>> print(ops.CholeskyInverse()(x).asnumpy().round(4))
        [[ 0.5 -0.5]
         [-0.5  1. ]]
        """),
    Row("CholeskySolve", "upper=False", "x1, x2", "cholesky_solve(x1, x2, upper)",
        summary="The solution of ``A X = B`` given ``B`` and the Cholesky factor of ``A``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> b = Tensor(np.array([[2.0], [3.0]]), ms.float32)
        >>> factor = Tensor(np.array([[2.0, 0.0], [1.0, 1.0]]), ms.float32)
        >>> print(ops.CholeskySolve()(b, factor).asnumpy().round(4))
        [[-0.5]
         [ 2. ]]
        """),
    Row("Svd", "full_matrices=False, compute_uv=True", "input", "_svd(input, full_matrices, compute_uv)",
        summary="The singular values (and with ``compute_uv`` the vectors ``u``, ``v``) of matrices.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 0.0], [0.0, -4.0]]), ms.float32)
        >>> s, u, v = ops.Svd()(x)
        >>> print(s)
        [4. 3.]
        >>> print(ops.Svd(compute_uv=False)(x)[0])
        [4. 3.]
        """),
    Row("Eig", "compute_v=False", "x", "_eig(x, compute_v)",
        summary="The complex eigenvalues (and with ``compute_v`` the eigenvectors) of square matrices.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 0.0], [0.0, 3.0]]), ms.float32)
        >>> values, vectors = ops.Eig(compute_v=True)(x)
        >>> print(values)
        [2.+0.j 3.+0.j]
        >>> print(vectors)
        [[1.+0.j 0.+0.j]
         [0.+0.j 1.+0.j]]
        """),
    Row("Qr", "full_matrices=False", "x", "qr(x, 'complete' if full_matrices else 'reduced')",
        summary="The QR decomposition of matrices: ``Q`` orthonormal, ``R`` upper triangular.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 1.0], [4.0, 2.0]]), ms.float32)
        >>> q, r = ops.Qr()(x)
        >>> print(q.asnumpy().round(4))
        [[-0.6 -0.8]
         [-0.8  0.6]]
        >>> print(r.asnumpy().round(4))
        [[-5.  -2.2]
         [ 0.   0.4]]
        """),
    Row("Geqrf", "", "input", "geqrf(input)",
        summary="The QR decomposition in LAPACK's form: Householder reflectors and their ``tau``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 1.0], [4.0, 2.0]]), ms.float32)
        >>> y, tau = ops.Geqrf()(x)
        >>> print(y.asnumpy().round(4))
        [[-5.  -2.2]
         [ 0.5  0.4]]
        >>> print(tau.asnumpy().round(4))
        [1.6 0. ]
        """),
    Row("Orgqr", "", "x, tau", "orgqr(x, tau)",
        summary="The explicit ``Q`` of a QR decomposition from Geqrf's reflectors and ``tau``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 1.0], [4.0, 2.0]]), ms.float32)
        >>> y, tau = ops.Geqrf()(x)
        >>> print(ops.Orgqr()(y, tau).asnumpy().round(4))
        [[-0.6 -0.8]
         [-0.8  0.6]]
        """),
    Row("Ormqr", "left=True, transpose=False", "x, tau, other", "ormqr(x, tau, other, left, transpose)",
        summary="``other`` multiplied by the ``Q`` of Geqrf's reflectors (left or right, maybe transposed).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 1.0], [4.0, 2.0]]), ms.float32)
        >>> y, tau = ops.Geqrf()(x)
        >>> other = Tensor(np.eye(2), ms.float32)
        >>> print(ops.Ormqr()(y, tau, other).asnumpy().round(4))
        [[-0.6 -0.8]
         [-0.8  0.6]]
        """),
    Row("LuUnpack", "unpack_data=True, unpack_pivots=True", "LU_data, LU_pivots",
        "lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots)",
        summary="The permutation matrix and the L and U factors of a packed LU factorization.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> lu_data = Tensor(np.array([[2.0, 1.0, 1.0], [0.5, 1.0, 1.5], [0.5, 0.0, 2.5]]), ms.float32)
        >>> lu_pivots = Tensor(np.array([2, 2, 3]), ms.int32)
        >>> p, l, u = ops.LuUnpack()(lu_data, lu_pivots)
        >>> print(p)
        [[0. 1. 0.]
         [1. 0. 0.]
         [0. 0. 1.]]
        >>> print(l)
        [[1.  0.  0. ]
         [0.5 1.  0. ]
         [0.5 0.  1. ]]
        >>> print(u)
        [[2.  1.  1. ]
         [0.  1.  1.5]
         [0.  0.  2.5]]
        """),
    # ---- solving and matrix functions
    Row("LuSolve", "", "x, lu_data, lu_pivots", "lu_solve(x, lu_data, lu_pivots)",
        summary="The solution of ``A X = B`` from the LU factors (``lu_data``, ``lu_pivots``) of ``A``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> b = Tensor(np.array([[1.0], [3.0], [3.0]]), ms.float32)
        >>> lu_data = Tensor(np.array([[2.0, 1.0, 1.0], [0.5, 1.0, 1.5], [0.5, 0.0, 2.5]]), ms.float32)
        >>> lu_pivots = Tensor(np.array([2, 2, 3]), ms.int32)
        >>> print(ops.LuSolve()(b, lu_data, lu_pivots).asnumpy().round(4))
        [[ 1.9]
         [-1.4]
         [ 0.6]]
        """),
    Row("Lstsq", "fast=True, l2_regularizer=0.0", "x, a", "lstsq(x, a)",
        summary="The least-squares solution of ``x @ solution = a`` (``x`` is the matrix).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 1.0, 5.0], [3.0, 5.0, 1.0], [1.0, 1.0, 1.0]]), ms.float32)
        >>> a = Tensor(np.array([[10.0, 5.0], [15.0, 8.0], [7.0, 4.0]]), ms.float32)
        >>> print(ops.Lstsq()(x, a).asnumpy().round(3))
        [[17.  11. ]
         [-6.5 -4.5]
         [-3.5 -2.5]]
        """),
    Row("MatrixSolve", "adjoint=False", "matrix, rhs", "matrix_solve(matrix, rhs, adjoint)",
        summary="The solution ``X`` of ``matrix @ X = rhs``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[2.0, 0.0], [0.0, 4.0]]), ms.float32)
        >>> b = Tensor(np.array([[2.0], [8.0]]), ms.float32)
        >>> print(ops.MatrixSolve()(a, b))
        [[1.]
         [2.]]
        """),
    Row("MatrixInverse", "adjoint=False", "x", "_matrix_inverse(x, adjoint)",
        summary="The inverse of each square matrix of ``x``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 0.0], [0.0, 4.0]]), ms.float32)
        >>> print(ops.MatrixInverse()(x))
        [[0.5  0.  ]
         [0.   0.25]]
        """),
    Row("MatrixDeterminant", "", "input", "matrix_determinant(input)",
        summary="The determinant of each square matrix of ``input``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 1.0], [1.0, 3.0]]), ms.float32)
        >>> print(ops.MatrixDeterminant()(x).asnumpy().round(4))
        5.0
        """),
    Row("LogMatrixDeterminant", "", "input", "log_matrix_determinant(input)",
        summary="The sign and the log of the absolute value of the determinants of square matrices.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[-4.5, -1.5], [7.0, 6.0]], [[2.5, 0.5], [3.0, 9.0]]]), ms.float32)
        >>> sign, value = ops.LogMatrixDeterminant()(x)
        >>> print(sign)
        [-1.  1.]
        >>> print(value.asnumpy().round(4))
        [2.8034 3.0445]
        """),
    Row("MatrixExp", "", "input", "matrix_exp(input)",
        summary="The matrix exponential of each square matrix.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 2)), ms.float32)
        >>> print(ops.MatrixExp()(x))
        [[1. 0.]
         [0. 1.]]
        """),
    Row("MatrixPower", "n", "x", "matrix_power(x, n)",
        summary="Each square matrix raised to the integer power ``n``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[1.0, 1.0], [0.0, 1.0]]]), ms.float32)
        >>> print(ops.MatrixPower(3)(x))
        [[[1. 3.]
          [0. 1.]]]
        """),
    # ---- diagonals and bands
    Row("Diag", "", "input", "diag(input)",
        summary="A tensor with ``input`` on its diagonal (shape ``input.shape + input.shape``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.Diag()(x))
        [[1. 0.]
         [0. 2.]]
        """),
    Row("DiagPart", "", "input_x", "_diag_part(input_x)",
        summary="The diagonal of ``input_x`` (the inverse of ``Diag``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.diag([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.DiagPart()(x))
        [1. 2. 3.]
        """),
    Row("MatrixBandPart", "", "x, lower, upper", "matrix_band_part(x, lower, upper)",
        summary=("``x`` with the elements outside the band of ``lower`` sub- and ``upper`` super-diagonals "
                 "zeroed."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((3, 3)), ms.float32)
        >>> print(ops.MatrixBandPart()(x, 0, 1))
        [[1. 1. 0.]
         [0. 1. 1.]
         [0. 0. 1.]]
        """),
    Row("MatrixDiagV3", "align='RIGHT_LEFT'", "x, k, num_rows, num_cols, padding_value",
        "matrix_diag(x, k, num_rows, num_cols, padding_value, align)",
        summary="Matrices whose diagonals ``k`` are given by ``x`` (the rest ``padding_value``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[8, 9, 0], [1, 2, 3], [0, 4, 5]]), ms.float32)
        >>> k = Tensor(np.array([-1, 1]), ms.int32)
        >>> num_rows, num_cols = Tensor(np.array(3), ms.int32), Tensor(np.array(3), ms.int32)
        >>> padding_value = Tensor(np.array(11), ms.float32)
        >>> print(ops.MatrixDiagV3(align="LEFT_RIGHT")(x, k, num_rows, num_cols, padding_value))
        [[ 1.  8. 11.]
         [ 4.  2.  9.]
         [11.  5.  3.]]
        """),
    Row("MatrixDiagPartV3", "align='RIGHT_LEFT'", "x, k, padding_value",
        "matrix_diag_part(x, k, padding_value, align)",
        summary="The diagonals ``k`` (one, or a [low, high] band) of matrices, padded.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 8, 7, 6]]), ms.float32)
        >>> k = Tensor(np.array([1, 3]), ms.int32)
        >>> padding_value = Tensor(np.array(9), ms.float32)
        >>> print(ops.MatrixDiagPartV3(align="RIGHT_LEFT")(x, k, padding_value))
        [[9. 9. 4.]
         [9. 3. 8.]
         [2. 7. 6.]]
        """),
    Row("MatrixSetDiagV3", "align='RIGHT_LEFT'", "x, diagonal, k", "matrix_set_diag(x, diagonal, k, align)",
        summary="A copy of matrices ``x`` with their diagonals ``k`` replaced by ``diagonal``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.full((3, 4), 7.0), ms.float32)
        >>> diagonal = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.MatrixSetDiagV3()(x, diagonal, Tensor(np.array(0), ms.int32)))
        [[1. 7. 7. 7.]
         [7. 2. 7. 7.]
         [7. 7. 3. 7.]]
        """),
    # ---- products
    Row("Ger", "", "x1, x2", "ger(x1, x2)",
        summary="The outer product of two 1-D tensors.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x1 = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> x2 = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.Ger()(x1, x2))
        [[1. 2.]
         [2. 4.]
         [3. 6.]]
        """),
    Row("Cross", "dim=-65530", "input, other", "cross(input, other, None if dim == -65530 else dim)",
        summary="The cross product of 3-vectors along ``dim`` (the first axis of size 3 by default).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[1, 2, 3], [1, 2, 3]]), ms.int8)
        >>> b = Tensor(np.array([[4, 5, 6], [4, 5, 6]]), ms.int8)
        >>> print(ops.Cross(dim=1)(a, b))
        [[-3  6 -3]
         [-3  6 -3]]
        """),
    Row("Einsum", "equation", "x", "einsum(equation, *x)",
        summary="The Einstein summation given by ``equation`` over a tuple of tensors.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> b = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> print(ops.Einsum('ij,j->i')((a, b)))
        [3. 7.]
        """),
    Row("Cdist", "p=2.0", "x1, x2", "cdist(x1, x2, p)",
        summary="The p-norm distances between each row of ``x1`` and each row of ``x2``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[[0.0, 0.0], [1.0, 1.0]]]), ms.float32)
        >>> b = Tensor(np.array([[[3.0, 4.0]]]), ms.float32)
        >>> print(ops.Cdist(p=2.0)(a, b).asnumpy().round(4))
        [[[5.    ]
          [3.6056]]]
        """),
    Row("ConjugateTranspose", "", "x, perm", "_conjugate_transpose(x, perm)",
        summary="``x`` with its axes permuted by ``perm`` and its elements conjugated.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1 + 1j, 2 + 2j], [3 + 3j, 4 + 4j]]), ms.complex64)
        >>> print(ops.ConjugateTranspose()(x, (1, 0)))
        [[1.-1.j 3.-3.j]
         [2.-2.j 4.-4.j]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
