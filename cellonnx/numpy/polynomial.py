"""Polynomials given by their coefficients, highest power first: polyadd, polysub, polymul, polyval, polyder,
polyint (mindspore.numpy.math_ops)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.graph.trace import require_static
from cellonnx.numpy._utils import as_float, at, to_tensor
from cellonnx.numpy.arithmetic import add, divide
from cellonnx.numpy.calculus import convolve
from cellonnx.numpy.manipulation import concatenate
from cellonnx.ops.prims._util import promote as promote_tensors
from cellonnx.tensor import Tensor


def _poly(x: Any, op: str) -> Tensor:
    t = to_tensor(x)
    if t.ndim == 0:
        t = F.reshape(t, (1,))
    if t.ndim > 1:
        raise ValueError(f"{op}: the coefficients must be a scalar or a 1-D sequence, got shape "
                         f"{tuple(t.shape)}")
    require_static(t.shape[0], f"{op} works over each coefficient (their count) and")
    return t


def polyadd(a1: Any, a2: Any) -> Tensor:
    """Finds the sum of two polynomials.

    Args:
        a1 (Union[Tensor, list, int, float]): coefficients, highest power first.
        a2 (Union[Tensor, list, int, float]): coefficients, highest power first.

    Returns:
        Tensor, the coefficients of the sum.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.polyadd(mnp.array([1, 2]), mnp.array([1, 0, 1])))
        [1 1 3]
    """
    a1, a2 = _poly(a1, "polyadd"), _poly(a2, "polyadd")
    d = int(a1.size) - int(a2.size)
    if d == 0:
        return add(a1, a2)
    if d > 0:
        return concatenate((a1[:d], add(a1[d:], a2)))
    return concatenate((a2[:-d], add(a1, a2[-d:])))


def polysub(a1: Any, a2: Any) -> Tensor:
    """Difference (subtraction) of two polynomials.

    Args:
        a1 (Union[Tensor, list, int, float]): the minuend's coefficients.
        a2 (Union[Tensor, list, int, float]): the subtrahend's coefficients.

    Returns:
        Tensor, the coefficients of the difference.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.polysub(mnp.array([1, 0, 1]), mnp.array([1, 2])))
        [ 1 -1 -1]
    """
    return polyadd(a1, F.neg(_poly(a2, "polysub")))


def polymul(a1: Any, a2: Any) -> Tensor:
    """Finds the product of two polynomials.

    Args:
        a1 (Union[Tensor, list, int, float]): coefficients.
        a2 (Union[Tensor, list, int, float]): coefficients.

    Returns:
        Tensor, the coefficients of the product.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.polymul(mnp.array([1, 1]), mnp.array([1, -1])))
        [ 1  0 -1]
    """
    return convolve(_poly(a1, "polymul"), _poly(a2, "polymul"))


def polyval(p: Any, x: Any) -> Tensor:
    """Evaluates a polynomial at specific values (Horner's scheme).

    Args:
        p (Union[Tensor, list]): coefficients, highest power first.
        x (Union[Tensor, list, int, float]): where to evaluate.

    Returns:
        Tensor of ``x``'s shape; integers are evaluated in float32.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.polyval(mnp.array([1, 0, -1]), mnp.array([0, 1, 2])))
        [-1.  0.  3.]
    """
    p, x = promote_tensors(as_float(_poly(p, "polyval")), as_float(to_tensor(x)))
    res = F.broadcast_to(p[0], tuple(x.shape))
    for i in range(1, int(p.size)):
        res = F.add(F.mul(res, x), p[i])
    return res


def polyder(p: Any, m: int = 1) -> Tensor:
    """Returns the derivative of the specified order of a polynomial.

    Args:
        p (Union[Tensor, list]): coefficients, highest power first.
        m (int): the order of the derivative. Default: 1.

    Returns:
        Tensor (empty, float32, when ``m`` reaches the number of coefficients).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.polyder(mnp.array([1, 0, -1])))
        [2 0]
    """
    p = _poly(p, "polyder")
    if m < 0:
        raise ValueError(f"polyder: the order of the derivative must be non-negative, got {m}")
    if m >= p.size:
        return Tensor(np.zeros((0,), np.float32))
    for _ in range(m):
        n = int(p.size)
        p = F.mul(p[:-1], Tensor(np.arange(n - 1, 0, -1, dtype=np.int32)))
    return p


def polyint(p: Any, m: int = 1, k: Any = None) -> Tensor:
    """Returns an antiderivative (indefinite integral) of a polynomial.

    Args:
        p (Union[Tensor, list]): coefficients, highest power first.
        m (int): the order of the antiderivative. Default: 1.
        k (Union[int, float, list, Tensor], optional): the integration constants, one per integration (the
            first for the first), or one for all. Default: zeros.

    Returns:
        Tensor of coefficients (integers give float32).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.polyint(mnp.array([3.0, 0.0])))
        [1.5 0.  0. ]
    """
    p = _poly(p, "polyint")
    if m < 0:
        raise ValueError(f"polyint: the order of the antiderivative must be non-negative, got {m}")
    if m == 0:
        return p
    consts = F.zeros((m,), dtype=p.dtype) if k is None else _poly(k, "polyint")
    if int(consts.size) == 1:
        consts = F.tile(consts, (m,))
    if int(consts.size) != m:
        raise ValueError(f"polyint: {int(consts.size)} integration constants for order {m}")
    for i in range(m):
        n = int(p.size)
        p = concatenate((divide(p, Tensor(np.arange(n, 0, -1, dtype=np.int32))), at(consts, slice(i, i + 1))))
    return p

__all__ = ["polyadd", "polyder", "polyint", "polymul", "polysub", "polyval"]
