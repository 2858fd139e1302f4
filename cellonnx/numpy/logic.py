"""Comparisons and logic: equal / less / ..., isfinite / isnan / isinf, isclose, array_equal, the logical_*
functions, in1d / isin, signbit, sometrue, isscalar (mindspore.numpy.logic_ops)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.graph.trace import require_static
from cellonnx.numpy._utils import (
    apply,
    as_float,
    check_dtype,
    is_float,
    reduce_all,
    reduce_any,
    to_tensor,
    to_tensors,
)
from cellonnx.tensor import Tensor


def _compare(fn: Any, x1: Any, x2: Any, dtype: Any) -> Tensor:
    return apply(fn, x1, x2, dtype=dtype)


def equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the truth value of ``x1 == x2`` element-wise.

    Args:
        x1 (Union[Tensor, list, int, float, bool]): input.
        x2 (Union[Tensor, list, int, float, bool]): input, broadcast with ``x1``.
        dtype (Union[DType, str], optional): cast the result to it. Default: bool.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.equal(mnp.array([1, 2, 3]), 2))
        [False  True False]
    """
    return _compare(F.equal, x1, x2, dtype)


def not_equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the truth value of ``x1 != x2`` element-wise (see ``equal``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.not_equal(mnp.array([1, 2, 3]), mnp.array([1, 0, 3])))
        [False  True False]
    """
    return _compare(F.not_equal, x1, x2, dtype)


def less(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the truth value of ``x1 < x2`` element-wise (see ``equal``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.less(mnp.array([1, 2, 3]), 2))
        [ True False False]
    """
    return _compare(F.less, x1, x2, dtype)


def less_equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the truth value of ``x1 <= x2`` element-wise (see ``equal``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.less_equal(mnp.array([1, 2, 3]), mnp.array([2, 2, 2])))
        [ True  True False]
    """
    return _compare(F.less_equal, x1, x2, dtype)


def greater(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the truth value of ``x1 > x2`` element-wise (see ``equal``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.greater(mnp.array([1, 2, 3]), 2))
        [False False  True]
    """
    return _compare(F.greater, x1, x2, dtype)


def greater_equal(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Returns the truth value of ``x1 >= x2`` element-wise (see ``equal``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.greater_equal(mnp.array([1, 2, 3]), mnp.array([2, 2, 2])))
        [False  True  True]
    """
    return _compare(F.greater_equal, x1, x2, dtype)


def _false(x: Tensor) -> Tensor:
    return F.zeros_like(x, dtype=np.bool_)


def _isnan(x: Tensor) -> Tensor:
    return F.isnan(x) if is_float(x) else _false(x)


def _isinf(x: Tensor) -> Tensor:
    return F.isinf(x) if is_float(x) else _false(x)


def isnan(x: Any, dtype: Any = None) -> Tensor:
    """Tests element-wise for NaN.

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it. Default: bool.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.isnan(mnp.array([1.0, float('nan')])))
        [False  True]
    """
    return apply(_isnan, x, dtype=dtype)


def isinf(x: Any, dtype: Any = None) -> Tensor:
    """Tests element-wise for positive or negative infinity (see ``isnan``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.isinf(mnp.array([1.0, float('inf')])))
        [False  True]
    """
    return apply(_isinf, x, dtype=dtype)


def isfinite(x: Any, dtype: Any = None) -> Tensor:
    """Tests element-wise for finiteness: neither infinity nor NaN (see ``isnan``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.isfinite(mnp.array([1.0, float('inf'), float('nan')])))
        [ True False False]
    """
    return apply(lambda t: F.logical_not(F.logical_or(_isnan(t), _isinf(t))), x, dtype=dtype)


def isposinf(x: Any) -> Tensor:
    """Tests element-wise for positive infinity.

    Args:
        x (Tensor): input.

    Returns:
        Tensor of bools.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.isposinf(mnp.array([float('inf'), 1.0])))
        [ True False]
    """
    t = to_tensor(x)
    return F.logical_and(_isinf(t), F.greater(t, 0))


def isneginf(x: Any) -> Tensor:
    """Tests element-wise for negative infinity.

    Args:
        x (Tensor): input.

    Returns:
        Tensor of bools.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.isneginf(mnp.array([-float('inf'), 1.0])))
        [ True False]
    """
    t = to_tensor(x)
    return F.logical_and(_isinf(t), F.less(t, 0))


def isscalar(element: Any) -> bool:
    """Returns True if the type of ``element`` is a scalar type (a Python number, bool or string; Tensors and
    lists are not).

    Args:
        element (Any): input.

    Returns:
        bool.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.isscalar(3.0)
        True
        >>> mnp.isscalar(mnp.array([3.0]))
        False
    """
    return isinstance(element, (int, float, complex, bool, str, np.generic))


def logical_and(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Computes the truth value of ``x1 AND x2`` element-wise (see ``equal``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.logical_and(mnp.array([True, False, True]), mnp.array([True, True, False])))
        [ True False False]
    """
    return apply(F.logical_and, x1, x2, dtype=dtype)


def logical_or(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Computes the truth value of ``x1 OR x2`` element-wise (see ``equal``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.logical_or(mnp.array([True, False, False]), mnp.array([False, False, True])))
        [ True False  True]
    """
    return apply(F.logical_or, x1, x2, dtype=dtype)


def logical_xor(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """Computes the truth value of ``x1 XOR x2`` element-wise (see ``equal``).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.logical_xor(mnp.array([True, False, True]), mnp.array([True, True, False])))
        [False  True  True]
    """
    return apply(F.logical_xor, x1, x2, dtype=dtype)


def logical_not(a: Any, dtype: Any = None) -> Tensor:
    """Computes the truth value of ``NOT a`` element-wise.

    Args:
        a (Tensor): input.
        dtype (Union[DType, str], optional): cast the result to it. Default: bool.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.logical_not(mnp.array([True, False])))
        [False  True]
    """
    return apply(F.logical_not, a, dtype=dtype)


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """Returns where two tensors are element-wise equal within a tolerance:
    ``|a - b| <= atol + rtol * |b|``; infinities are close to themselves only.

    Args:
        a (Tensor): input.
        b (Tensor): input, broadcast with ``a``.
        rtol (float): relative tolerance. Default: 1e-05.
        atol (float): absolute tolerance. Default: 1e-08.
        equal_nan (bool): NaN is close to NaN. Default: False.

    Returns:
        Tensor of bools.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> a = mnp.array([1.0, 2.0, 3.0])
        >>> print(mnp.isclose(a, mnp.array([1.0, 2.001, 3.1]), rtol=1e-3))
        [ True  True False]
    """
    a, b = to_tensors(a, b)
    a, b = as_float(a), as_float(b)
    same = F.equal(a, b)
    finite = F.logical_and(F.isfinite(a), F.isfinite(b))
    with np.errstate(invalid="ignore"):
        near = F.less_equal(F.abs(F.sub(a, b)), F.add(F.mul(F.abs(b), float(rtol)), float(atol)))
    out = F.logical_or(same, F.logical_and(finite, near))
    if equal_nan:
        out = F.logical_or(out, F.logical_and(F.isnan(a), F.isnan(b)))
    return out


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> Tensor:
    """Returns True if the inputs have the same shape and elements.

    Args:
        a1 (Union[Tensor, list, tuple]): input.
        a2 (Union[Tensor, list, tuple]): input.
        equal_nan (bool): NaN equals NaN. Default: False.

    Returns:
        Tensor, a bool scalar.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.array_equal(mnp.array([1, 2]), mnp.array([1, 2]))
        Tensor(shape=[], dtype=Bool, value= True)
    """
    if not isinstance(equal_nan, bool):
        raise TypeError(f"array_equal: equal_nan must be a bool, got {type(equal_nan).__name__}")
    a1, a2 = to_tensors(a1, a2)
    if tuple(a1.shape) != tuple(a2.shape):
        return Tensor(np.asarray(False))
    res = F.equal(a1, a2)
    if equal_nan:
        res = F.logical_or(res, F.logical_and(_isnan(a1), _isnan(a2)))
    return reduce_all(res)


def array_equiv(a1: Any, a2: Any) -> Tensor:
    """Returns True if the inputs are shape consistent (broadcastable) and all elements equal.

    Args:
        a1 (Union[Tensor, list, tuple]): input.
        a2 (Union[Tensor, list, tuple]): input.

    Returns:
        Tensor, a bool scalar.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.array_equiv(mnp.array([1, 2]), mnp.array([[1, 2], [1, 2]]))
        Tensor(shape=[], dtype=Bool, value= True)
    """
    a1, a2 = to_tensors(a1, a2)
    for d in (*a1.shape, *a2.shape):
        require_static(d, "array_equiv decides by the sizes whether the shapes broadcast and")
    try:
        np.broadcast_shapes(tuple(a1.shape), tuple(a2.shape))
    except ValueError:
        return Tensor(np.asarray(False))
    return reduce_all(F.equal(a1, a2))


def signbit(x: Any, dtype: Any = None) -> Tensor:
    """Returns element-wise True where the value is less than zero.

    As in MindSpore this compares with zero, so -0.0 and NaN count as positive (NumPy reads the sign bit).

    Args:
        x (Tensor): input.
        dtype (Union[DType, str], optional): must be bool if given. Default: None.

    Returns:
        Tensor of bools.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.signbit(mnp.array([-1.0, 0.0, 2.0])))
        [ True False False]
    """
    if dtype is not None and check_dtype(dtype, "signbit") != check_dtype("bool"):
        raise TypeError("signbit: casting the result is not allowed (dtype must be bool)")
    return F.less(to_tensor(x), 0)


def sometrue(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Tests whether any element along the given axes is true (non-zero).

    Args:
        a (Tensor): input.
        axis (Union[int, tuple[int]], optional): the axes. Default: all of them.
        keepdims (bool): keep the reduced axes with size 1. Default: False.

    Returns:
        Tensor of bools.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.sometrue(mnp.array([[False, True], [False, False]]), axis=1))
        [ True False]
    """
    if not isinstance(keepdims, (int, bool)):
        raise TypeError(f"sometrue: keepdims must be an int or bool, got {type(keepdims).__name__}")
    return reduce_any(to_tensor(a), axis, bool(keepdims))


def in1d(ar1: Any, ar2: Any, invert: bool = False) -> Tensor:
    """Tests whether each element of a tensor (flattened) is also present in a second one.

    Args:
        ar1 (Tensor): the elements to test, flattened.
        ar2 (Tensor): the values to test against.
        invert (bool): return whether each element is absent instead. Default: False.

    Returns:
        Tensor, 1-D of bools.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.in1d(mnp.array([1, 2, 3]), mnp.array([2, 4])))
        [False  True False]
    """
    ar1, ar2 = to_tensors(ar1, ar2)
    found = F.equal(F.reshape(ar1, (-1, 1)), F.reshape(ar2, (1, -1)))
    res = reduce_any(found, -1) if ar2.size else F.zeros((ar1.size,), dtype=np.bool_)
    return F.logical_not(res) if invert else res


def isin(element: Any, test_elements: Any, invert: bool = False) -> Tensor:
    """Tests each element of ``element`` for presence in ``test_elements`` (the result has its shape).

    Args:
        element (Tensor): the elements to test.
        test_elements (Tensor): the values to test against.
        invert (bool): return absence instead. Default: False.

    Returns:
        Tensor of bools.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.isin(mnp.array([[1, 2], [3, 4]]), mnp.array([2, 3])))
        [[False  True]
         [ True False]]
    """
    element = to_tensor(element)
    return F.reshape(in1d(element, test_elements, invert), tuple(element.shape))

__all__ = ["array_equal", "array_equiv", "equal", "greater", "greater_equal", "in1d", "isclose",
           "isfinite", "isin", "isinf", "isnan", "isneginf", "isposinf", "isscalar", "less", "less_equal",
           "logical_and", "logical_not", "logical_or", "logical_xor", "not_equal", "signbit", "sometrue"]
