"""Set operations: unique, intersect1d, setdiff1d (mindspore.numpy.array_ops / logic_ops).

Their results' lengths depend on the data: a traced graph computes them with ONNX Unique and NonZero.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.numpy._utils import at, cast, to_tensor, to_tensors
from cellonnx.numpy.logic import in1d
from cellonnx.numpy.manipulation import concatenate
from cellonnx.tensor import Tensor


def unique(x: Any, return_inverse: bool = False) -> Any:
    """Finds the unique elements of a tensor (flattened).

    As MindSpore's, the values come in the order of their first occurrence (NumPy sorts them).

    Args:
        x (Tensor): input.
        return_inverse (bool): also return, for each input element, the index of its value in the result.
            Default: False.

    Returns:
        Tensor, or (values, int32 inverse indices).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.unique(mnp.array([1, 1, 2, 3, 3])))
        [1 2 3]
    """
    values, inverse = F.unique(F.reshape(to_tensor(x), (-1,)))
    return (values, cast(inverse, np.int32)) if return_inverse else values


def _sorted_unique(t: Tensor) -> tuple[Tensor, Tensor]:
    """The sorted distinct values of ``t`` (flattened) and the index of each one's first occurrence."""
    values, order = F.sort(F.reshape(t, (-1,)))
    if int(values.size) == 0:
        return values, order
    first = F.concat((Tensor(np.ones((1,), np.bool_)), F.not_equal(at(values, slice(1, None)),
                                                                  at(values, slice(None, -1)))), 0)
    return F.masked_select(values, first), F.masked_select(order, first)


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False) -> Any:
    """Finds the sorted unique values present in both tensors.

    Args:
        ar1 (Tensor): input (flattened).
        ar2 (Tensor): input (flattened).
        assume_unique (bool): the inputs have no repeated values (faster). Default: False.
        return_indices (bool): also return where each common value first occurs in ``ar1`` and ``ar2``.
            Default: False.

    Returns:
        Tensor, or (values, int32 indices into ar1, int32 indices into ar2).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.intersect1d(mnp.array([1, 3, 4]), mnp.array([3, 1, 2])))
        [1 3]
    """
    if not isinstance(assume_unique, bool) or not isinstance(return_indices, bool):
        raise TypeError("intersect1d: assume_unique and return_indices must be bools")
    ar1, ar2 = to_tensors(ar1, ar2)
    if assume_unique:
        first1, first2 = F.reshape(ar1, (-1,)), F.reshape(ar2, (-1,))
        idx1: Tensor | None = None
        idx2: Tensor | None = None
    else:
        (first1, idx1), (first2, idx2) = _sorted_unique(ar1), _sorted_unique(ar2)
    both = concatenate((first1, first2))
    values, order = F.sort(both)
    head, tail = slice(None, -1), slice(1, None)
    if int(values.size) < 2:
        empty = at(values, slice(0, 0))
        none = cast(at(order, slice(0, 0)), np.int32)
        return (empty, none, none) if return_indices else empty
    common = F.equal(at(values, tail), at(values, head))
    res = F.masked_select(at(values, tail), common)
    if not return_indices:
        return res
    pos1 = F.masked_select(at(order, head), common)
    pos2 = F.sub(F.masked_select(at(order, tail), common), int(first1.size))
    if idx1 is not None and idx2 is not None:
        pos1, pos2 = F.gather(idx1, pos1, 0), F.gather(idx2, pos2, 0)
    return res, cast(pos1, np.int32), cast(pos2, np.int32)


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Tensor:
    """Finds the values of ``ar1`` that are not in ``ar2``: sorted and unique, unless ``assume_unique``
    (then in ``ar1``'s order).

    Args:
        ar1 (Tensor): input (flattened).
        ar2 (Tensor): input.
        assume_unique (bool): the inputs have no repeated values. Default: False.

    Returns:
        Tensor, 1-D.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.setdiff1d(mnp.array([1, 2, 3, 4]), mnp.array([2, 4])))
        [1 3]
    """
    if not isinstance(assume_unique, bool):
        raise TypeError("setdiff1d: assume_unique must be a bool")
    ar1, ar2 = to_tensors(ar1, ar2)
    if assume_unique:
        ar1 = F.reshape(ar1, (-1,))
    else:
        ar1, ar2 = _sorted_unique(ar1)[0], _sorted_unique(ar2)[0]
    return F.masked_select(ar1, in1d(ar1, ar2, invert=True))

__all__ = ["intersect1d", "setdiff1d", "unique"]
