"""MindSpore's ``ops.TridiagonalMatMul`` and ``ops.ConfusionMatrix``: table rows over compositions of
cellonnx ops (see table.py), so both are traceable and TridiagonalMatMul is differentiable."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def tridiagonal_matmul(superdiag: Tensor, maindiag: Tensor, subdiag: Tensor, rhs: Tensor) -> Tensor:
    """``A @ rhs`` for the tridiagonal A with ``maindiag`` on its diagonal, ``superdiag[i]`` at (i, i + 1)
    (its last element unused) and ``subdiag[i]`` at (i, i - 1) (its first unused); the diagonals are
    (..., 1, M), ``rhs`` (..., M, N)."""
    from cellonnx.ops import cat, mul, swapaxes, zeros_like
    op = "TridiagonalMatMul"
    shapes = [tuple(t.shape) for t in (superdiag, maindiag, subdiag)]
    if len(set(shapes)) != 1 or len(shapes[0]) < 2 or shapes[0][-2] != 1 or rhs.ndim != len(shapes[0]) \
            or int(rhs.shape[-2]) != shapes[0][-1] or tuple(rhs.shape[:-2]) != shapes[0][:-2]:
        raise ValueError(f"For '{op}', the diagonals must share one shape (..., 1, M) and rhs be "
                         f"(..., M, N), but got {shapes} and {tuple(rhs.shape)}.")
    up, main, low = (swapaxes(t, -1, -2) for t in (superdiag, maindiag, subdiag))  # (..., M, 1)
    zero = zeros_like(rhs[..., :1, :])
    below = cat((rhs[..., 1:, :], zero), -2)  # row i holds rhs[i + 1]
    above = cat((zero, rhs[..., :-1, :]), -2)  # row i holds rhs[i - 1]
    return mul(main, rhs) + mul(up, below) + mul(low, above)


def confusion_matrix(labels: Tensor, predictions: Tensor, weights: Any, num_classes: int,
                     dtype: str) -> Tensor:
    """(num_classes, num_classes) counts (or summed ``weights``) of each (label, prediction) pair."""
    from cellonnx.ops import cast, matmul, mul, one_hot, swapaxes
    op = "ConfusionMatrix"
    if labels.ndim != 1 or tuple(labels.shape) != tuple(predictions.shape):
        raise ValueError(f"For '{op}', labels and predictions must be 1-D of one shape, but got "
                         f"{tuple(labels.shape)} and {tuple(predictions.shape)}.")
    rows = one_hot(labels, num_classes, 1.0, 0.0)
    cols = one_hot(predictions, num_classes, 1.0, 0.0)
    if weights is not None:
        if tuple(weights.shape) != tuple(labels.shape):
            raise ValueError(f"For '{op}', weights must have the labels' shape {tuple(labels.shape)}, but "
                             f"got {tuple(weights.shape)}.")
        rows = mul(rows, cast(weights, rows.dtype).reshape((-1, 1)))
    return cast(matmul(swapaxes(rows, 0, 1), cols), dtypes.dtype(dtype))


def _setup_confusion(prim: Any) -> None:
    if not isinstance(prim.num_classes, int) or isinstance(prim.num_classes, bool) or prim.num_classes < 1:
        raise ValueError(f"For 'ConfusionMatrix', the 'num_classes' must be a positive int, but got "
                         f"{prim.num_classes!r}.")
    if not isinstance(prim.dtype, str):
        raise TypeError(f"For 'ConfusionMatrix', the 'dtype' must be a str, but got {prim.dtype!r}.")


def _matrix_logarithm(x: Tensor) -> Tensor:
    """ops.MatrixLogarithm: the principal logarithm of each complex square matrix of ``x`` (..., n, n), by
    its eigendecomposition ``V diag(log w) V^-1`` (diagonalisable matrices), in complex128."""
    import numpy as np

    a = x.asnumpy()
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or a.dtype.kind != "c":
        raise ValueError("For 'MatrixLogarithm', x must be complex square matrices (..., n, n), but got "
                         f"shape {a.shape} and dtype {a.dtype}")
    w, v = np.linalg.eig(a.astype(np.complex128))
    out = (v * np.log(w)[..., None, :]) @ np.linalg.inv(v)
    return Tensor(out.astype(a.dtype))


ROWS = [
    Row("MatrixLogarithm", "", "x", "_matrix_logarithm(x)",
        summary="The principal matrix logarithm of complex square matrices.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[np.e, 0.0], [0.0, 1.0]]), ms.complex64)
        >>> print(ops.MatrixLogarithm()(x).asnumpy().round(4))
        [[1.+0.j 0.+0.j]
         [0.+0.j 0.+0.j]]
        """),
    Row("TridiagonalMatMul", "", "superdiag, maindiag, subdiag, rhs",
        "tridiagonal_matmul(superdiag, maindiag, subdiag, rhs)",
        summary="The product of tridiagonal matrices (given by their three diagonals) and ``rhs``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> superdiag = Tensor(np.array([[1.0, 2.0, 0.0]]), ms.float32)
        >>> maindiag = Tensor(np.array([[1.0, 2.0, 3.0]]), ms.float32)
        >>> subdiag = Tensor(np.array([[0.0, 1.0, 2.0]]), ms.float32)
        >>> rhs = Tensor(np.ones((3, 2)), ms.float32)
        >>> print(ops.TridiagonalMatMul()(superdiag, maindiag, subdiag, rhs))
        [[2. 2.]
         [5. 5.]
         [5. 5.]]
        """),
    Row("ConfusionMatrix", "num_classes, dtype='int32'", "labels, predictions, weights=None",
        "confusion_matrix(labels, predictions, weights, num_classes, dtype)", _setup_confusion,
        summary="The ``num_classes``-square confusion matrix of ``labels`` (rows) and ``predictions``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> labels = Tensor(np.array([0, 1, 1, 3]), ms.int32)
        >>> predictions = Tensor(np.array([1, 2, 1, 3]), ms.int32)
        >>> print(ops.ConfusionMatrix(4)(labels, predictions))
        [[0 1 0 0]
         [0 1 1 0]
         [0 0 0 0]
         [0 0 0 1]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
