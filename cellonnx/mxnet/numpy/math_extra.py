"""mx.np's element-wise and product functions that MXNet 1.9.1 differentiates (``ldexp``, ``nan_to_num``,
``vdot``; composites over cellonnx ops, so gradients and ONNX lowering come from them), and its printing /
text-loading helpers."""
from __future__ import annotations

from typing import Any

import numpy as _onp

from cellonnx import ops as _ops
from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.tensor import Tensor

__all__ = ["genfromtxt", "ldexp", "nan_to_num", "set_printoptions", "vdot"]


def _t(x: Any, like: Tensor | None = None) -> Tensor:
    if isinstance(x, Tensor):
        return x
    if like is not None and isinstance(x, (int, float)):
        return Tensor(_onp.asarray(x, like._data.dtype if like._data.dtype.kind == "f" else _onp.float32))
    return Tensor(_onp.asarray(x, _onp.float32) if isinstance(x, (float, list)) else _onp.asarray(x))


def ldexp(x1: Any, x2: Any, out: Any = None, **kwargs: Any) -> Any:
    """``x1 * 2 ** x2`` element-wise (broadcast); differentiable with respect to both.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.ldexp(np.array([1.0, 3.0]), np.array([2.0, 3.0])))
        [ 4. 24.]
    """
    a = _t(x1, x2 if isinstance(x2, Tensor) else None)
    b = _t(x2, a)
    if a._data.dtype.kind != "f":
        a = _ops.cast(a, b._data.dtype if b._data.dtype.kind == "f" else _onp.float32)
    if b._data.dtype != a._data.dtype:
        b = _ops.cast(b, a._data.dtype)
    two = Tensor(_onp.asarray(2.0, a._data.dtype))
    result = to_np(_ops.mul(a, _ops.pow(two, b)))
    if out is not None:
        out[...] = result
        return out
    return result


def nan_to_num(x: Any, copy: bool = True, nan: float = 0.0, posinf: Any = None, neginf: Any = None,
               **kwargs: Any) -> Any:
    """``x`` with NaN replaced by ``nan``, +inf by ``posinf`` and -inf by ``neginf`` (by default the
    dtype's largest and lowest finite values); integer arrays come back unchanged. With ``copy=False`` the
    values are replaced in ``x`` itself. Differentiable (gradient 1 where ``x`` is finite, 0 elsewhere).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([np.nan, np.inf, -np.inf, 1.0])
        >>> print(np.nan_to_num(x, posinf=100.0, neginf=-100.0))
        [   0.  100. -100.    1.]
    """
    t = _t(x)
    if t._data.dtype.kind not in "fc":
        return to_np(Tensor(t._data.copy())) if copy else t
    result = _ops.nan_to_num(t, float(nan), None if posinf is None else float(posinf),
                             None if neginf is None else float(neginf))
    if not copy:
        t[...] = result
        return t
    return to_np(result)


def vdot(a: Any, b: Any) -> Any:
    """The dot product of ``a`` and ``b`` flattened (a 0-d array); differentiable with respect to both.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> a = np.array([[1.0, 4.0], [5.0, 6.0]])
        >>> b = np.array([[4.0, 1.0], [2.0, 2.0]])
        >>> print(np.vdot(a, b))
        30.0
    """
    x, y = _t(a), _t(b)
    if x.size != y.size:
        raise ValueError(f"np.vdot: the arrays must have as many elements, got shapes {tuple(x.shape)} and "
                         f"{tuple(y.shape)}")
    return to_np(_ops.sum(_ops.mul(_ops.reshape(x, (-1,)), _ops.reshape(y, (-1,)))))


def set_printoptions(precision: Any = None, threshold: Any = None, **kwarg: Any) -> None:
    """Set how arrays print: ``precision`` (digits after the point) and ``threshold`` (element count past
    which arrays are summarised); MXNet takes no other option.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.set_printoptions(precision=2)
        >>> print(np.array([1.23456, 2.0]))
        [1.23 2.  ]
        >>> np.set_printoptions(precision=8)
    """
    if kwarg:
        raise NotImplementedError("mxnet.numpy.set_printoptions only supports parameters precision and "
                                  "threshold for now.")
    _onp.set_printoptions(precision=precision, threshold=threshold)


def genfromtxt(*args: Any, **kwargs: Any) -> Any:
    """NumPy's ``genfromtxt`` (an array from a text file), as an mx.np.ndarray of NumPy's dtype; takes
    ``ctx=`` / ``device=`` too.

    Examples:
        >>> import io
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.genfromtxt(io.StringIO("1,2\\n3,4"), delimiter=",")
        >>> print(x, x.dtype)
        [[1. 2.]
         [3. 4.]] float64
    """
    kwargs.pop("ctx", None)
    kwargs.pop("device", None)
    return to_np(Tensor(_onp.ascontiguousarray(_onp.genfromtxt(*args, **kwargs))))
