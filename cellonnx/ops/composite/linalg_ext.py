"""Linear algebra over primitives: products (dot, inner, mv, vecdot, kron, tensor_dot, batch_dot, the add-
and-scale products), matrix constructions (block_diag, cartesian_prod, combinations, tril / triu indices,
vander, diag_embed), cross, the functional faces of the decompositions (det, slogdet, inverse, solves,
cholesky*, qr, svd, eig, lu_*, pinv, matrix_exp, matrix_power), the norms and the condition number."""
from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as _ops
from cellonnx.graph.symint import sym_broadcast_shapes
from cellonnx.ops.prims import decomp as D
from cellonnx.ops.prims._util import is_float_dtype, norm_axes, norm_axis, to_tensor
from cellonnx.ops.prims.math import _floatify
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _t(x: Tensor) -> Tensor:
    return F.swapaxes(x, -1, -2)


def _square(x: Tensor, op: str) -> Tensor:
    x = to_tensor(x)
    if x.ndim < 2 or int(x._data.shape[-1]) != int(x._data.shape[-2]):
        raise ValueError(f"{op}: expected (a batch of) square matrices, got shape {tuple(x.shape)}")
    return x


def _float_matrix(x: Any, op: str, square: bool = True) -> Tensor:
    x = _square(x, op) if square else to_tensor(x)
    if not square and x.ndim < 2:
        raise ValueError(f"{op}: expected (a batch of) matrices, got shape {tuple(x.shape)}")
    dt = x._data.dtype
    if dt.kind == "c":
        raise TypeError(f"{op}: complex matrices are not supported")
    return x if dt in (np.float32, np.float64) else F.cast(x, np.float32)


# ---------------------------------------------------------------- products
def tensor_dot(x1: Tensor, x2: Tensor, axes: Any) -> Tensor:
    """The sum of products over ``axes``: an int N (the last N axes of ``x1`` with the first N of ``x2``)
    or a pair of axis lists (ints or sequences).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.ones((2, 3)), ms.float32)
        >>> b = Tensor(np.ones((3, 4)), ms.float32)
        >>> print(ops.tensor_dot(a, b, 1))
        [[3. 3. 3. 3.]
         [3. 3. 3. 3.]]
    """
    x1, x2 = to_tensor(x1), to_tensor(x2)
    if isinstance(axes, int):
        a1 = list(range(x1.ndim - axes, x1.ndim))
        a2 = list(range(axes))
    else:
        a1, a2 = axes
        a1 = [a1] if isinstance(a1, int) else list(a1)
        a2 = [a2] if isinstance(a2, int) else list(a2)
    a1 = [norm_axis(a, x1.ndim, "tensor_dot") for a in a1]
    a2 = [norm_axis(a, x2.ndim, "tensor_dot") for a in a2]
    if len(a1) != len(a2) or any(int(x1._data.shape[i]) != int(x2._data.shape[j]) for i, j in zip(a1, a2)):
        raise ValueError(f"tensor_dot: axes {a1} of {tuple(x1.shape)} and {a2} of {tuple(x2.shape)} do not "
                         "match")
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [i for i in range(x2.ndim) if i not in a2]
    k = math.prod(x1.shape[i] for i in a1)  # dims stay graph values where they are dynamic
    left = F.reshape(F.transpose(x1, tuple(free1 + a1)), (-1, k))
    right = F.reshape(F.transpose(x2, tuple(a2 + free2)), (k, -1))
    shape = tuple(x1.shape[i] for i in free1) + tuple(x2.shape[i] for i in free2)
    return F.reshape(F.matmul(left, right), shape)


def dot(input: Tensor, other: Tensor) -> Tensor:
    """The dot product of NumPy's ``dot``: for 2-D the matrix product; for more dimensions the sum over the
    last axis of ``input`` and the second-to-last of ``other``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.ones((2, 3)), ms.float32)
        >>> b = Tensor(np.ones((3, 4)), ms.float32)
        >>> print(ops.dot(a, b))
        [[3. 3. 3. 3.]
         [3. 3. 3. 3.]]
    """
    x, y = to_tensor(input), to_tensor(other)
    if x.ndim <= 2 and y.ndim <= 2:
        return F.matmul(x, y)
    return tensor_dot(x, y, ([-1], [-2 if y.ndim > 1 else -1]))


def inner(input: Tensor, other: Tensor) -> Tensor:
    """The sum of products over the last axis of both inputs (a product for 0-D inputs).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> b = Tensor(np.array([0.0, 1.0, 2.0]), ms.float32)
        >>> print(ops.inner(a, b))
        8.0
    """
    x, y = to_tensor(input), to_tensor(other)
    if x.ndim == 0 or y.ndim == 0:
        return F.mul(x, y)
    if int(x._data.shape[-1]) != int(y._data.shape[-1]):
        raise ValueError(f"inner: the last dimensions of {tuple(x.shape)} and {tuple(y.shape)} differ")
    return tensor_dot(x, y, ([-1], [-1]))


def mv(mat: Tensor, vec: Tensor) -> Tensor:
    """Matrix times vector: (N, M) @ (M,) -> (N,).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> mat = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> vec = Tensor(np.array([1.0, -1.0]), ms.float32)
        >>> print(ops.mv(mat, vec))
        [-1. -1.]
    """
    mat, vec = to_tensor(mat), to_tensor(vec)
    if mat.ndim != 2 or vec.ndim != 1:
        raise ValueError(f"mv: expected a matrix and a vector, got shapes {tuple(mat.shape)} and "
                         f"{tuple(vec.shape)}")
    return F.matmul(mat, vec)


def vecdot(x: Tensor, y: Tensor, *, axis: int = -1) -> Tensor:
    """``sum(conj(x) * y, axis)`` with broadcasting.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> b = Tensor(np.array([[1.0, 1.0], [0.0, 1.0]]), ms.float32)
        >>> print(ops.vecdot(a, b, axis=-1))
        [3. 4.]
    """
    x, y = to_tensor(x), to_tensor(y)
    if x._data.dtype.kind == "c":
        x = F.conj(x)
    return F.sum(F.mul(x, y), axis)


def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product (inputs of different rank are aligned at their last axes).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[1, 2]]), ms.int32)
        >>> b = Tensor(np.array([[1], [10]]), ms.int32)
        >>> print(ops.kron(a, b))
        [[ 1  2]
         [10 20]]
    """
    x, y = to_tensor(input), to_tensor(other)
    if x.ndim == 0 or y.ndim == 0:
        return F.mul(x, y)
    nd = max(x.ndim, y.ndim)
    xs = (1,) * (nd - x.ndim) + tuple(x.shape)  # graph values where dims are dynamic
    ys = (1,) * (nd - y.ndim) + tuple(y.shape)
    xr = F.reshape(x, tuple(v for d in xs for v in (d, 1)))
    yr = F.reshape(y, tuple(v for d in ys for v in (1, d)))
    return F.reshape(F.mul(xr, yr), tuple(a * b for a, b in zip(xs, ys)))


def batch_dot(x1: Tensor, x2: Tensor, axes: Any = None) -> Tensor:
    """A dot product per sample (axis 0 is the batch): the sum over ``axes`` (an int for both inputs, a
    pair, or None: the last axis of ``x1`` with the second-to-last of ``x2``, its last when 2-D).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.ones((2, 3)), ms.float32)
        >>> b = Tensor(np.ones((2, 3)), ms.float32)
        >>> print(ops.batch_dot(a, b, axes=1))
        [[3.]
         [3.]]
    """
    x1, x2 = to_tensor(x1), to_tensor(x2)
    if x1.ndim < 2 or x2.ndim < 2:
        raise ValueError(f"batch_dot: inputs must have at least 2 dimensions, got {tuple(x1.shape)} and "
                         f"{tuple(x2.shape)}")
    if int(x1._data.shape[0]) != int(x2._data.shape[0]):
        raise ValueError(f"batch_dot: batch sizes differ: {tuple(x1.shape)} and {tuple(x2.shape)}")
    if axes is None:
        axes = [x1.ndim - 1, x2.ndim - 1 if x2.ndim == 2 else x2.ndim - 2]
    elif isinstance(axes, int):
        axes = [axes, axes]
    a1, a2 = (int(a) % n for a, n in zip(axes, (x1.ndim, x2.ndim)))
    if a1 == 0 or a2 == 0:
        raise ValueError("batch_dot: axes must not include the batch axis 0")
    d1, d2 = x1.ndim, x2.ndim
    if d1 == 2:
        x1 = F.expand_dims(x1, 1)
        a1 += 1
    if d2 == 2:
        x2 = F.expand_dims(x2, 2)
    b, k = x1.shape[0], x1.shape[a1]  # graph values where they are dynamic
    if int(k) != int(x2._data.shape[a2]):
        raise ValueError(f"batch_dot: axis {a1} of x1 and {a2} of x2 differ in size")
    free1 = [i for i in range(1, x1.ndim) if i != a1]
    free2 = [i for i in range(1, x2.ndim) if i != a2]
    left = F.reshape(F.transpose(x1, tuple([0] + free1 + [a1])), (b, -1, k))
    right = F.reshape(F.transpose(x2, tuple([0, a2] + free2)), (b, k, -1))
    shape = (b,) + tuple(x1.shape[i] for i in free1) + tuple(x2.shape[i] for i in free2)
    out = F.reshape(F.matmul(left, right), shape)
    if d1 == 2:
        out = F.squeeze(out, 1)
    elif d2 == 2:
        out = F.squeeze(out, -1)
    return out


def _scaled(x: Tensor, s: Any) -> Tensor:
    return x if isinstance(s, (int, float)) and s == 1 else F.mul(x, s)


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> mat = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> vec = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> print(ops.addmv(x, mat, vec))
        [4. 8.]
    """
    prod = _scaled(mv(mat, vec), alpha)
    return prod if isinstance(beta, (int, float)) and beta == 0 else F.add(_scaled(to_tensor(input), beta),
                                                                           prod)


def addr(x: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * x + alpha * outer(vec1, vec2)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 2)), ms.float32)
        >>> v1 = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> v2 = Tensor(np.array([3.0, 4.0]), ms.float32)
        >>> print(ops.addr(x, v1, v2))
        [[3. 4.]
         [6. 8.]]
    """
    prod = _scaled(F.outer(vec1, vec2), alpha)
    return prod if isinstance(beta, (int, float)) and beta == 0 else F.add(_scaled(to_tensor(x), beta), prod)


def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 2)), ms.float32)
        >>> a = Tensor(np.ones((3, 2, 4)), ms.float32)
        >>> b = Tensor(np.ones((3, 4, 2)), ms.float32)
        >>> print(ops.addbmm(x, a, b))
        [[12. 12.]
         [12. 12.]]
    """
    prod = _scaled(F.sum(F.bmm(batch1, batch2), 0), alpha)
    return prod if isinstance(beta, (int, float)) and beta == 0 else F.add(_scaled(to_tensor(input), beta),
                                                                           prod)


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)`` per batch.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 2, 2)), ms.float32)
        >>> a = Tensor(np.ones((2, 2, 3)), ms.float32)
        >>> b = Tensor(np.ones((2, 3, 2)), ms.float32)
        >>> print(ops.baddbmm(x, a, b)[0])
        [[3. 3.]
         [3. 3.]]
    """
    prod = _scaled(F.bmm(batch1, batch2), alpha)
    return prod if isinstance(beta, (int, float)) and beta == 0 else F.add(_scaled(to_tensor(input), beta),
                                                                           prod)


def baddbmm_ext(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)`` per batch (as :func:`baddbmm`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((1, 2, 2)), ms.float32)
        >>> b1 = Tensor(np.ones((1, 2, 3)), ms.float32)
        >>> b2 = Tensor(np.ones((1, 3, 2)), ms.float32)
        >>> print(ops.baddbmm_ext(x, b1, b2, beta=0.5, alpha=2))
        [[[6.5 6.5]
          [6.5 6.5]]]
    """
    return baddbmm(input, batch1, batch2, beta, alpha)


# ---------------------------------------------------------------- constructions
def block_diag(*inputs: Tensor) -> Tensor:
    """A block diagonal matrix of the inputs (0-D, 1-D as a row, or 2-D).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[1, 2]]), ms.int32)
        >>> b = Tensor(np.array([[3], [4]]), ms.int32)
        >>> print(ops.block_diag(a, b))
        [[1 2 0]
         [0 0 3]
         [0 0 4]]
    """
    if not inputs:
        raise ValueError("block_diag: give at least one tensor")
    blocks = []
    for t in inputs:
        t = to_tensor(t)
        if t.ndim > 2:
            raise ValueError(f"block_diag: inputs must be 0-D, 1-D or 2-D, got shape {tuple(t.shape)}")
        blocks.append(F.reshape(t, (1, -1)) if t.ndim < 2 else t)
    dt = blocks[0]._data.dtype
    for b in blocks[1:]:
        dt = np.promote_types(dt, b._data.dtype) if not is_float_dtype(dt) else dt
    cols = sum(b.shape[1] for b in blocks)  # widths stay graph values where they are dynamic
    rows, start = [], 0
    for b in blocks:
        n = b.shape[1]
        b = F.cast(b, dt)
        rows.append(F.pad(b, (start, cols - start - n)) if len(blocks) > 1 else b)
        start += n
    return F.concat(rows, 0)


def cartesian_prod(*inputs: Tensor) -> Tensor:
    """All combinations of one element of each 1-D input: shape (N1 * N2 * ..., len(inputs)).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1, 2]), ms.int32)
        >>> b = Tensor(np.array([3, 4]), ms.int32)
        >>> print(ops.cartesian_prod(a, b))
        [[1 3]
         [1 4]
         [2 3]
         [2 4]]
    """
    ts = [to_tensor(t) for t in inputs]
    if len(ts) == 1:
        return ts[0]
    sizes = tuple(t.shape[0] for t in ts)  # graph values where they are dynamic
    grids = []
    for i, t in enumerate(ts):
        shape = [1] * len(ts)
        shape[i] = sizes[i]
        grids.append(F.reshape(F.broadcast_to(F.reshape(t, tuple(shape)), sizes), (-1,)))
    return F.stack(grids, -1)


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """All ``r``-element combinations of a 1-D tensor's elements, in lexicographic order of position:
    shape (count, r).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.combinations(x, r=2))
        [[1 2]
         [1 3]
         [2 3]]
    """
    x = to_tensor(input)
    if x.ndim != 1:
        raise ValueError(f"combinations: input must be 1-D, got shape {tuple(x.shape)}")
    if r < 0:
        raise ValueError(f"combinations: r must be non-negative, got {r}")
    from cellonnx.graph.trace import require_static
    require_static(x.shape[0], "combinations lists its index tuples in Python and")
    n = int(x._data.shape[0])
    make = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = np.asarray(list(make(range(n), r)), np.int64).reshape(-1, r)
    if idx.size == 0:
        return F.reshape(F.gather(x, Tensor(np.zeros(0, np.int64)), 0), (0, r))
    return F.gather(x, Tensor(idx), 0)


def _tri_indices(row: int, col: int, offset: int, dtype: Any, lower: bool) -> Tensor:
    fn = np.tril_indices if lower else np.triu_indices
    rows, cols = fn(int(row), int(offset), int(col))
    return Tensor(np.stack([rows, cols]).astype(dtypes.to_numpy(dtype)))


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = dtypes.int64) -> Tensor:
    """The (2, N) coordinates of the lower triangle (below diagonal ``offset``) of a row x col matrix.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.tril_indices(3, 3))
        [[0 1 1 2 2 2]
         [0 0 1 0 1 2]]
    """
    return _tri_indices(row, col, offset, dtype, True)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = dtypes.int64) -> Tensor:
    """The (2, N) coordinates of the upper triangle (above diagonal ``offset``) of a row x col matrix.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.triu_indices(3, 3))
        [[0 0 0 1 1 2]
         [0 1 2 1 2 2]]
    """
    return _tri_indices(row, col, offset, dtype, False)


def vander(x: Tensor, N: int | None = None) -> Tensor:
    """The Vandermonde matrix of a 1-D ``x``: columns ``x ** (N-1), ..., x, 1``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.vander(x, N=3))
        [[1. 1. 1.]
         [4. 2. 1.]
         [9. 3. 1.]]
    """
    x = to_tensor(x)
    if x.ndim != 1:
        raise ValueError(f"vander: x must be 1-D, got shape {tuple(x.shape)}")
    n = int(x._data.shape[0]) if N is None else int(N)
    if n <= 0:
        raise ValueError(f"vander: N must be positive, got {n}")
    powers = Tensor(np.arange(n - 1, -1, -1, dtype=np.int64 if not is_float_dtype(x._data.dtype) else
                              x._data.dtype))
    if not is_float_dtype(x._data.dtype):
        x = F.cast(x, np.int64)
    return F.pow(F.expand_dims(x, 1), F.expand_dims(powers, 0))


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """A tensor whose diagonals (offset ``offset``) in the planes of ``dim1`` / ``dim2`` hold the last axis of
    ``input``; zero elsewhere.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.diag_embed(x))
        [[1. 0.]
         [0. 2.]]
    """
    x = to_tensor(input)
    nd = x.ndim + 1
    d1, d2 = norm_axis(dim1, nd, "diag_embed"), norm_axis(dim2, nd, "diag_embed")
    if d1 == d2:
        raise ValueError("diag_embed: dim1 and dim2 must differ")
    n = x.shape[-1]  # a graph value where it is dynamic
    k = abs(int(offset))
    m = n + k
    padded = F.pad(x, (0, k)) if k else x                       # (..., m)
    mask = F.eye(m, m, np.float32)
    if offset:
        mask = F.roll(mask, int(offset), 1)  # eye shifted to diagonal offset: the wrapped corner is cut below
        band = F.triu if offset > 0 else F.tril
        keep = band(F.ones_like(mask), int(offset))
        mask = F.mul(mask, keep)
    mask = F.cast(mask, x._data.dtype if x._data.dtype != np.bool_ else np.bool_)
    if offset >= 0:
        out = F.mul(F.expand_dims(padded, -1), mask) if x._data.dtype != np.bool_ else \
            F.logical_and(F.expand_dims(padded, -1), mask)
    else:
        out = F.mul(F.expand_dims(padded, -2), mask) if x._data.dtype != np.bool_ else \
            F.logical_and(F.expand_dims(padded, -2), mask)
    # out: (..., m, m) with the planes last; move them to (d1, d2)
    lead = list(range(nd - 2))
    perm = [0] * nd
    rest = iter(lead)
    lo, hi = (d1, d2)
    for i in range(nd):
        if i == lo:
            perm[i] = nd - 2
        elif i == hi:
            perm[i] = nd - 1
        else:
            perm[i] = next(rest)
    return F.transpose(out, tuple(perm)) if perm != list(range(nd)) else out


def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """The 3-vector cross product along ``dim`` (the first axis of size 3 when None).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[1.0, 0.0, 0.0]]), ms.float32)
        >>> b = Tensor(np.array([[0.0, 1.0, 0.0]]), ms.float32)
        >>> print(ops.cross(a, b, dim=1))
        [[0. 0. 1.]]
    """
    a, b = to_tensor(input), to_tensor(other)
    shape = sym_broadcast_shapes(a.shape, b.shape)  # dynamic dims stay graph values
    a, b = F.broadcast_to(a, shape), F.broadcast_to(b, shape)
    if dim is None:
        found = [i for i, d in enumerate(shape) if d == 3]
        if not found:
            raise ValueError(f"cross: no dimension of size 3 in {tuple(shape)}")
        d = found[0]
    else:
        d = norm_axis(dim, len(shape), "cross")
    if shape[d] != 3:
        raise ValueError(f"cross: dimension {d} has size {shape[d]}, expected 3")
    ax, ay, az = (F.narrow(a, d, i, 1) for i in range(3))
    bx, by, bz = (F.narrow(b, d, i, 1) for i in range(3))
    return F.concat([F.sub(F.mul(ay, bz), F.mul(az, by)), F.sub(F.mul(az, bx), F.mul(ax, bz)),
                     F.sub(F.mul(ax, by), F.mul(ay, bx))], d)


def t(input: Tensor) -> Tensor:
    """The transpose of a 2-D tensor; 0-D and 1-D tensors are returned as they are.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0]]), ms.float32)
        >>> print(ops.t(x))
        [[1.]
         [2.]
         [3.]]
    """
    x = to_tensor(input)
    if x.ndim > 2:
        raise ValueError(f"t: input must have at most 2 dimensions, got shape {tuple(x.shape)}")
    return F.transpose(x, (1, 0)) if x.ndim == 2 else x


def adjoint(x: Tensor) -> Tensor:
    """The conjugate transpose of the last two axes.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1+2j, 3], [4, 5-1j]]), ms.complex64)
        >>> print(ops.adjoint(x))
        [[1.-2.j 4.-0.j]
         [3.-0.j 5.+1.j]]
    """
    x = to_tensor(x)
    out = _t(x)
    return F.conj(out) if x._data.dtype.kind == "c" else out


# ---------------------------------------------------------------- decompositions and matrix functions
def det(input: Tensor) -> Tensor:
    """The determinant of (a batch of) square matrices.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 1.0], [1.0, 3.0]]), ms.float32)
        >>> print(ops.det(x).asnumpy().round(4))
        5.0
    """
    return D.Det.apply(_float_matrix(input, "det"))


def matrix_determinant(input: Tensor) -> Tensor:
    """The determinant (deprecated in MindSpore for :func:`det`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([[2.0, 1.0], [1.0, 3.0]]), ms.float32)
        >>> print(ops.matrix_determinant(a).asnumpy().round(4))
        5.0
    """
    return det(input)


def slogdet(input: Tensor) -> tuple[Tensor, Tensor]:
    """(sign, log |det|) of (a batch of) square matrices.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 0.0], [0.0, -3.0]]), ms.float32)
        >>> sign, logabsdet = ops.slogdet(x)
        >>> print(sign)
        -1.0
        >>> print(logabsdet.asnumpy().round(4))
        1.7918
    """
    return D.SLogDet.apply(_float_matrix(input, "slogdet"))


def log_matrix_determinant(input: Tensor) -> tuple[Tensor, Tensor]:
    """(sign, log |det|) (as :func:`slogdet`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([[2.0, 1.0], [1.0, -3.0]]), ms.float32)
        >>> sign, logdet = ops.log_matrix_determinant(a)
        >>> print(sign, logdet.asnumpy().round(4))
        -1.0 1.9459
    """
    return slogdet(input)


def logdet(input: Tensor) -> Tensor:
    """``log(det(input))``: NaN for a negative determinant, -inf for zero.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 0.0], [0.0, 3.0]]), ms.float32)
        >>> print(ops.logdet(x).asnumpy().round(4))
        1.7918
    """
    sign, logabs = slogdet(input)
    nan = F.full_like(logabs, np.nan)
    return F.where(F.less(sign, 0), nan, F.where(F.equal(sign, 0), F.full_like(logabs, -np.inf), logabs))


def inverse(input: Tensor) -> Tensor:
    """The inverse of (a batch of) square matrices. A triangular matrix (a Cholesky factor) is inverted by
    substitution, as a triangular solve of the identity: an infinite diagonal entry gives a zero row.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 0.0], [0.0, 4.0]]), ms.float32)
        >>> print(ops.inverse(x))
        [[0.5  0.  ]
         [0.   0.25]]
    """
    return D.MatrixInverse.apply(_float_matrix(input, "inverse"))


def matrix_solve(matrix: Tensor, rhs: Tensor, adjoint: bool = False) -> Tensor:
    """X with ``matrix @ X = rhs`` (``matrix^T`` with ``adjoint``); batched.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[2.0, 0.0], [0.0, 4.0]]), ms.float32)
        >>> b = Tensor(np.array([[2.0], [8.0]]), ms.float32)
        >>> print(ops.matrix_solve(a, b))
        [[1.]
         [2.]]
    """
    a = _float_matrix(matrix, "matrix_solve")
    b = F.cast(to_tensor(rhs), a._data.dtype)
    return D.Solve.apply(_t(a) if adjoint else a, b)


def cholesky(input_x: Tensor, upper: bool = False) -> Tensor:
    """The Cholesky factor of symmetric positive-definite matrices: L (A = L L^T) or, with ``upper``,
    U (A = U^T U).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[4.0, 2.0], [2.0, 5.0]]), ms.float32)
        >>> print(ops.cholesky(x))
        [[2. 0.]
         [1. 2.]]
    """
    return D.Cholesky.apply(_float_matrix(input_x, "cholesky"), upper=bool(upper))


def cholesky_inverse(input_x: Tensor, upper: bool = False) -> Tensor:
    """The inverse of A from its Cholesky factor (L, or U with ``upper``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> L = Tensor(np.array([[2.0, 0.0], [1.0, 1.0]]), ms.float32)
        >>> print(ops.cholesky_inverse(L))
        [[ 0.5 -0.5]
         [-0.5  1. ]]
    """
    f = _float_matrix(input_x, "cholesky_inverse")
    a = F.matmul(_t(f), f) if upper else F.matmul(f, _t(f))
    return D.MatrixInverse.apply(a)


def cholesky_solve(input: Tensor, input2: Tensor, upper: bool = False) -> Tensor:
    """X with A X = ``input``, A given by its Cholesky factor ``input2`` (L, or U with ``upper``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> L = Tensor(np.array([[2.0, 0.0], [1.0, 1.0]]), ms.float32)
        >>> b = Tensor(np.array([[4.0], [3.0]]), ms.float32)
        >>> print(ops.cholesky_solve(b, L))
        [[0.5]
         [1. ]]
    """
    f = _float_matrix(input2, "cholesky_solve")
    b = F.cast(to_tensor(input), f._data.dtype)
    low = _t(f) if upper else f
    return D.Solve.apply(_t(low), D.Solve.apply(low, b))


def qr(input: Tensor, mode: str = "reduced") -> tuple[Tensor, Tensor]:
    """(Q, R) with Q orthonormal columns and R upper triangular; ``mode`` 'reduced' or 'complete'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 0.0], [4.0, 5.0]]), ms.float32)
        >>> q, r = ops.qr(x)
        >>> print(np.abs(r.asnumpy()).round(4))
        [[5. 4.]
         [0. 3.]]
    """
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', got {mode!r}")
    return D.QR.apply(_float_matrix(input, "qr", square=False), mode=mode)


def svd(input: Tensor, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    """The singular value decomposition A = U diag(S) V^T.

    Returns:
        (S, U, V) (V, not its transpose), or S alone when ``compute_uv`` is False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 0.0], [0.0, 4.0]]), ms.float32)
        >>> s = ops.svd(x, compute_uv=False)
        >>> print(s)
        [4. 3.]
    """
    a = _float_matrix(input, "svd", square=False)
    if not compute_uv:
        return D.SingularValues.apply(a)
    return D.SVD.apply(a, full_matrices=bool(full_matrices))


def eig(A: Tensor) -> tuple[Tensor, Tensor]:
    """Eigenvalues and eigenvectors (complex) of (a batch of) square matrices.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([[2.0, 0.0], [0.0, 3.0]]), ms.float32)
        >>> values, vectors = ops.eig(a)
        >>> print(values)
        [2.+0.j 3.+0.j]
    """
    return D.Eig.apply(_float_matrix(A, "eig"))


def eigvals(A: Tensor) -> Tensor:
    """Eigenvalues (complex) of (a batch of) square matrices.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 0.0], [0.0, 3.0]]), ms.float32)
        >>> print(ops.eigvals(x))
        [2.+0.j 3.+0.j]
    """
    return D.Eigvals.apply(_float_matrix(A, "eigvals"))


def geqrf(input: Tensor) -> tuple[Tensor, Tensor]:
    """LAPACK's Householder QR: (the reflectors below R, their scales tau).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([[3.0, 1.0], [4.0, 2.0]]), ms.float32)
        >>> y, tau = ops.geqrf(a)
        >>> print(y.asnumpy().round(4))
        [[-5.  -2.2]
         [ 0.5  0.4]]
        >>> print(tau.asnumpy().round(4))
        [1.6 0. ]
    """
    return D.Geqrf.apply(_float_matrix(input, "geqrf", square=False))


def orgqr(input: Tensor, input2: Tensor) -> Tensor:
    """The explicit Q (first N columns) from :func:`geqrf`'s reflectors and scales.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([[3.0, 1.0], [4.0, 2.0]]), ms.float32)
        >>> y, tau = ops.geqrf(a)
        >>> print(ops.orgqr(y, tau).asnumpy().round(4))
        [[-0.6 -0.8]
         [-0.8  0.6]]
    """
    a = _float_matrix(input, "orgqr", square=False)
    return D.Orgqr.apply(a, F.cast(to_tensor(input2), a._data.dtype))


def ormqr(input: Tensor, tau: Tensor, other: Tensor, left: bool = True, transpose: bool = False) -> Tensor:
    """``Q @ other`` (``left``) or ``other @ Q``, Q (transposed with ``transpose``) given by :func:`geqrf`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([[3.0, 1.0], [4.0, 2.0]]), ms.float32)
        >>> y, tau = ops.geqrf(a)
        >>> other = Tensor(np.eye(2), ms.float32)
        >>> print(ops.ormqr(y, tau, other).asnumpy().round(4))
        [[-0.6 -0.8]
         [-0.8  0.6]]
    """
    a = _float_matrix(input, "ormqr", square=False)
    dt = a._data.dtype
    return D.Ormqr.apply(a, F.cast(to_tensor(tau), dt), F.cast(to_tensor(other), dt), left=bool(left),
                         transpose=bool(transpose))


def matrix_exp(input: Tensor) -> Tensor:
    """The matrix exponential of (a batch of) square matrices.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 2)), ms.float32)
        >>> print(ops.matrix_exp(x))
        [[1. 0.]
         [0. 1.]]
    """
    return D.MatrixExp.apply(_float_matrix(input, "matrix_exp"))


def matrix_power(input: Tensor, n: int) -> Tensor:
    """``input`` multiplied by itself ``n`` times (the inverse's power for negative ``n``; identity for 0).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 1.0], [0.0, 1.0]]), ms.float32)
        >>> print(ops.matrix_power(x, 3))
        [[1. 3.]
         [0. 1.]]
    """
    x = _square(input, "matrix_power")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"matrix_power: n must be an int, got {type(n).__name__}")
    size = int(x._data.shape[-1])
    if n == 0:
        return F.broadcast_to(F.cast(F.eye(size, size), x._data.dtype), x.shape)
    if n < 0:
        x, n = inverse(x), -n
    result = None
    base = x
    while n:
        if n & 1:
            result = base if result is None else F.matmul(result, base)
        n >>= 1
        if n:
            base = F.matmul(base, base)
    assert result is not None  # n >= 1 here
    return result


def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True,
              unpack_pivots: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """(P, L, U) from a packed LU factorization and its LAPACK (1-based) row interchanges, so that
    ``A = P @ L @ U``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> lu = Tensor(np.array([[6.0, 3.0], [0.5, 1.5]]), ms.float32)
        >>> pivots = Tensor(np.array([2, 2]), ms.int32)
        >>> p, l, u = ops.lu_unpack(lu, pivots)
        >>> print(p)
        [[0. 1.]
         [1. 0.]]
        >>> print(l.asnumpy().round(4))
        [[1.  0. ]
         [0.5 1. ]]
        >>> print(u.asnumpy().round(4))
        [[6.  3. ]
         [0.  1.5]]
    """
    lu = to_tensor(LU_data)
    piv = to_tensor(LU_pivots)
    m, n = (int(d) for d in lu._data.shape[-2:])
    k = min(m, n)
    dt = lu._data.dtype
    if unpack_data:
        low = F.mul(F.narrow(lu, -1, 0, k), Tensor(np.tril(np.ones((m, k), dt), -1)))
        low = F.add(low, Tensor(np.eye(m, k, dtype=dt)))
        up = F.mul(F.narrow(lu, -2, 0, k), Tensor(np.triu(np.ones((k, n), dt))))
    else:
        low = up = F.zeros((0,), dtype=dt)
    if unpack_pivots:
        p = Tensor(_permutation(np.asarray(piv._data), m).astype(dt))
    else:
        p = F.zeros((0,), dtype=dt)
    return p, low, up


def _permutation(pivots: np.ndarray, m: int) -> np.ndarray:
    """The permutation matrices P (A = P L U) of 1-based LAPACK row interchanges, batched."""
    batch = pivots.shape[:-1]
    flat = pivots.reshape(-1, pivots.shape[-1]).astype(np.int64) - 1
    mats = np.zeros((flat.shape[0], m, m))
    for b, row in enumerate(flat):
        perm = np.arange(m)
        for i, j in enumerate(row):
            perm[i], perm[j] = perm[j], perm[i]
        mats[b][perm, np.arange(m)] = 1.0  # P = the interchanges applied to the identity's columns
    return mats.reshape(batch + (m, m))


def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    """X with A X = ``b``, A given by its packed LU factorization and pivots.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> lu = Tensor(np.array([[2.0, 1.0], [0.5, 1.5]]), ms.float32)
        >>> pivots = Tensor(np.array([1, 2]), ms.int32)
        >>> b = Tensor(np.array([[3.0], [3.0]]), ms.float32)
        >>> print(ops.lu_solve(b, lu, pivots).asnumpy().round(4))
        [[1.]
         [1.]]
    """
    p, low, up = lu_unpack(LU_data, LU_pivots)
    rhs = F.matmul(_t(p), F.cast(to_tensor(b), low._data.dtype))
    return D.Solve.apply(up, D.Solve.apply(low, rhs))


def pinv(x: Tensor, *, atol: Any = None, rtol: Any = None, hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse, from the SVD: singular values at most
    ``max(atol, rtol * largest)`` count as zero (``rtol`` defaults to ``max(M, N) * eps`` when neither is
    given). ``hermitian`` is accepted (the SVD serves symmetric matrices too).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[2.0, 0.0], [0.0, 4.0]]), ms.float32)
        >>> print(ops.pinv(x))
        [[0.5  0.  ]
         [0.   0.25]]
    """
    a = _float_matrix(x, "pinv", square=False)
    m, n = (int(d) for d in a._data.shape[-2:])
    s, u, v = D.SVD.apply(a, full_matrices=False)
    largest = F.amax(s, -1, True)
    if atol is None and rtol is None:
        rtol = max(m, n) * float(np.finfo(a._data.dtype).eps)
    cutoff = F.zeros_like(largest)
    if atol is not None:
        cutoff = F.maximum(cutoff, F.cast(to_tensor(atol), a._data.dtype))
    if rtol is not None:
        cutoff = F.maximum(cutoff, F.mul(largest, F.cast(to_tensor(rtol), a._data.dtype)))
    keep = F.greater(s, cutoff)
    inv_s = F.where(keep, F.div(1.0, F.where(keep, s, F.ones_like(s))), F.zeros_like(s))
    return F.matmul(F.mul(v, F.expand_dims(inv_s, -2)), _t(u))


# ---------------------------------------------------------------- norms and the condition number
def vector_norm(x: Tensor, ord: Any = 2, axis: Any = None, keepdims: bool = False, *,
                dtype: Any = None) -> Tensor:
    """The vector ``ord``-norm over ``axis`` (all axes when None): 2, inf, -inf, 0 (count of non-zeros) or any
    other number p ``(sum |x|^p)^(1/p)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([3.0, 4.0]), ms.float32)
        >>> print(ops.vector_norm(x))
        5.0
        >>> print(ops.vector_norm(x, ord=1))
        7.0
    """
    x = _floatify(x)
    if dtype is not None:
        x = F.cast(x, dtype)
    if isinstance(ord, str):
        raise ValueError(f"vector_norm: ord must be a number, got {ord!r}")
    axes = norm_axes(axis, x.ndim, "vector_norm")
    if x._data.dtype.kind == "c":
        x = F.abs(x)
    if ord == 2:
        return F.sqrt(F.sum(F.mul(x, x), axes, keepdims))
    if ord == math.inf:
        return F.amax(F.abs(x), axes, keepdims)
    if ord == -math.inf:
        return F.amin(F.abs(x), axes, keepdims)
    if ord == 0:
        return F.sum(F.cast(F.not_equal(x, 0), x._data.dtype), axes, keepdims)
    if ord == 1:
        return F.sum(F.abs(x), axes, keepdims)
    p = float(ord)
    return F.pow(F.sum(F.pow(F.abs(x), p), axes, keepdims), 1.0 / p)


def _svd_values(a: Tensor, r: int, c: int) -> Tensor:
    nd = a.ndim
    rest = [i for i in range(nd) if i not in (r, c)]
    return D.SingularValues.apply(F.transpose(a, tuple(rest + [r, c])))


def matrix_norm(A: Tensor, ord: Any = "fro", axis: Any = (-2, -1), keepdims: bool = False, *,
                dtype: Any = None) -> Tensor:
    """The matrix ``ord``-norm over the two ``axis``: 'fro', 'nuc', inf, -inf, 1, -1, 2 (the largest
    singular value) or -2 (the smallest).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 0.0], [0.0, 4.0]]), ms.float32)
        >>> print(ops.matrix_norm(x))
        5.0
    """
    a = _floatify(A)
    if dtype is not None:
        a = F.cast(a, dtype)
    if not isinstance(axis, (tuple, list)) or len(axis) != 2:
        raise ValueError(f"matrix_norm: axis must be a pair of ints, got {axis!r}")
    r, c = (norm_axis(int(d), a.ndim, "matrix_norm") for d in axis)
    if r == c:
        raise ValueError(f"matrix_norm: axis {tuple(axis)} must name two different axes")
    if a._data.dtype.kind == "c":
        a = F.abs(a)
    lo, hi = sorted((r, c))
    if ord == "fro":
        out = F.sqrt(F.sum(F.mul(a, a), (r, c), True))
    elif ord in ("nuc", 2, -2):
        s = _svd_values(a, r, c)
        red = F.sum(s, -1) if ord == "nuc" else (F.amax(s, -1) if ord == 2 else F.amin(s, -1))
        out = F.expand_dims(F.expand_dims(red, lo), hi)
    elif ord in (1, -1, math.inf, -math.inf):
        inner_axis, outer_axis = (r, c) if ord in (1, -1) else (c, r)
        sums = F.sum(F.abs(a), inner_axis, True)
        out = F.amax(sums, outer_axis, True) if ord in (1, math.inf) else F.amin(sums, outer_axis, True)
    else:
        raise ValueError(f"matrix_norm: ord must be 'fro', 'nuc', inf, -inf, 1, -1, 2 or -2, got {ord!r}")
    return out if keepdims else F.squeeze(out, (lo, hi))


def condition_number(A: Tensor, p: Any = None) -> Tensor:
    """The condition number of (a batch of) matrices in the ``p``-norm (None / 2: the ratio of the largest
    to the smallest singular value; -2 its inverse; 'fro', 'nuc', inf, -inf, 1, -1: ``|A| |A^-1|``)."""
    a = _float_matrix(A, "cond", square=p not in (None, 2, -2))
    if p in (None, 2, -2):
        s = D.SingularValues.apply(a)
        big, small = F.amax(s, -1), F.amin(s, -1)
        return F.div(big, small) if p != -2 else F.div(small, big)
    return F.mul(matrix_norm(a, p), matrix_norm(inverse(a), p))


__all__ = ["addbmm", "addmv", "addr", "adjoint", "baddbmm", "baddbmm_ext", "batch_dot", "block_diag",
           "cartesian_prod", "cholesky", "cholesky_inverse", "cholesky_solve", "combinations", "cross", "det",
           "diag_embed", "dot", "eig", "eigvals", "geqrf", "inner", "inverse", "kron",
           "log_matrix_determinant", "logdet", "lu_solve", "lu_unpack", "matrix_determinant", "matrix_exp",
           "matrix_norm", "matrix_power", "matrix_solve", "mv", "orgqr", "ormqr", "pinv", "qr", "slogdet",
           "svd", "t", "tensor_dot", "tril_indices", "triu_indices", "vander", "vecdot", "vector_norm"]
