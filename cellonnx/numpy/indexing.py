"""Selecting and indexing: where, take, take_along_axis, choose, select, piecewise, argwhere, unravel_index,
ravel_multi_index, apply_along_axis, apply_over_axes (mindspore.numpy.array_ops / math_ops)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.graph.trace import require_static
from cellonnx.numpy._utils import at, axis_index, broadcast, broadcast_shape, cast, is_int, to_tensor
from cellonnx.numpy.dtypes import promote
from cellonnx.numpy.manipulation import moveaxis, stack
from cellonnx.ops import registry
from cellonnx.tensor import Tensor


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """Returns elements chosen from ``x`` or ``y`` depending on ``condition``.

    Args:
        condition (Union[Tensor, list, bool]): where True, take ``x``, otherwise ``y``.
        x (Union[Tensor, list, int, float, bool], optional): values where the condition holds.
        y (Union[Tensor, list, int, float, bool], optional): values elsewhere.

    Returns:
        Tensor of the broadcast shape and the promoted dtype of ``x`` and ``y``; with ``condition`` alone, the
        tuple of the coordinates where it holds (one int64 tensor per axis, as NumPy).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([1.0, -2.0, 3.0])
        >>> print(mnp.where(x > 0, x, 0.0))
        [1. 0. 3.]
    """
    cond = to_tensor(condition)
    if x is None and y is None:
        return tuple(F.nonzero(cond, as_tuple=True))
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither")
    xt, yt = to_tensor(x), to_tensor(y)
    d = promote(xt.dtype, yt.dtype)
    return F.where(cond, cast(xt, d), cast(yt, d))


def _checked_indices(indices: Tensor, n: int, mode: str, allow_negative: bool, op: str) -> Tensor:
    """Indices into an axis of size ``n`` by ``mode``: 'clip' clamps them into range (keeping negative ones
    down to -n when ``allow_negative``, as MindSpore's take does), 'wrap' wraps them around, 'raise' leaves
    them and fails eagerly on one out of bounds."""
    if mode == "clip":
        low = -n if allow_negative else 0
        return F.where(F.less(indices, low), 0, F.minimum(indices, n - 1))
    if mode == "wrap":
        return F.floor_mod(indices, n)
    if mode == "raise":
        if registry.TRACE_HOOK is None and indices.size:
            data = indices._data
            low = -n if allow_negative else 0
            if data.min() < low or data.max() >= n:
                bad = int(data.max() if data.max() >= n else data.min())
                raise IndexError(f"{op}: index {bad} is out of bounds for an axis of size {n}")
        return indices
    raise ValueError(f"{op}: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")


def _int_indices(indices: Any, op: str) -> Tensor:
    t = to_tensor(indices)
    if not is_int(t):
        raise TypeError(f"{op}: indices must be integers, got {t.dtype}")
    return t


def take(a: Any, indices: Any, axis: int | None = None, mode: str = "clip") -> Tensor:
    """Takes elements from a tensor along an axis.

    Args:
        a (Tensor): the source.
        indices (Union[Tensor, list, int]): the indices.
        axis (int, optional): the axis; None takes from the flattened tensor. Default: None.
        mode (str): out-of-bounds indices: 'clip' (MindSpore's default: above the axis clamps to the last
            element, below -size to the first; -size..-1 count from the end), 'wrap' (wrap around) or 'raise'.
            Default: 'clip'.

    Returns:
        Tensor of shape ``a.shape[:axis] + indices.shape + a.shape[axis + 1:]``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([10, 20, 30, 40])
        >>> print(mnp.take(x, mnp.array([3, 0])))
        [40 10]
    """
    a = to_tensor(a)
    idx = _int_indices(indices, "take")
    if axis is None:
        a, axis = F.reshape(a, (-1,)), 0
    ax = axis_index(axis, a.ndim, "take")
    idx = _checked_indices(idx, a.shape[ax], mode, True, "take")
    return F.gather(a, idx, ax)


def take_along_axis(arr: Any, indices: Any, axis: int | None) -> Tensor:
    """Takes values from the input by matching 1-D index and data slices along ``axis``.

    Args:
        arr (Tensor): the source.
        indices (Tensor): integer indices of ``arr``'s number of dimensions (broadcast against ``arr`` on the
            other axes).
        axis (int, optional): the axis; None works on the flattened tensor. Default: None.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[10, 30, 20], [60, 40, 50]])
        >>> idx = mnp.array([[0], [1]])
        >>> print(mnp.take_along_axis(x, idx, axis=1))
        [[10]
         [40]]
    """
    arr, idx = to_tensor(arr), _int_indices(indices, "take_along_axis")
    if axis is None:
        arr, axis = F.reshape(arr, (-1,)), 0
    if arr.ndim != idx.ndim:
        raise ValueError(f"take_along_axis: indices of shape {tuple(idx.shape)} and the input of shape "
                         f"{tuple(arr.shape)} must have the same number of dimensions")
    ax = axis_index(axis, arr.ndim, "take_along_axis")
    a_shape, i_shape = list(arr.shape), list(idx.shape)
    a_shape[ax] = i_shape[ax] = 1
    common = list(broadcast_shape(a_shape, i_shape, op="take_along_axis"))
    idx_shape, arr_shape = list(common), list(common)
    idx_shape[ax], arr_shape[ax] = idx.shape[ax], arr.shape[ax]
    return F.gather_elements(broadcast(arr, arr_shape), ax, broadcast(idx, idx_shape))


def choose(a: Any, choices: Any, mode: str = "clip") -> Tensor:
    """Constructs a tensor from an index tensor and a list of tensors to choose from.

    Args:
        a (Tensor): integer indices into ``choices``.
        choices (Union[Tensor, tuple[Tensor], list[Tensor]]): the candidates, broadcast with ``a``.
        mode (str): out-of-range indices: 'clip' (clamped to [0, n-1]), 'wrap' or 'raise'. Default: 'clip'.

    Returns:
        Tensor, ``choices[a[I]][I]`` at each position I.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> choices = [mnp.array([0, 1, 2]), mnp.array([10, 11, 12])]
        >>> print(mnp.choose(mnp.array([1, 0, 1]), choices))
        [10  1 12]
    """
    a = to_tensor(a)
    if not is_int(a):
        raise ValueError(f"choose: a must be an integer tensor, got {a.dtype}")
    if isinstance(choices, (tuple, list)):
        cs = [to_tensor(c) for c in choices]
        shape = broadcast_shape(tuple(a.shape), *[tuple(c.shape) for c in cs], op="choose")
        stacked = stack([broadcast(c, shape) for c in cs])
    else:
        stacked = to_tensor(choices)
        shape = broadcast_shape(tuple(a.shape), tuple(stacked.shape[1:]), op="choose")
        stacked = broadcast(stacked, (int(stacked.shape[0]),) + shape)
    if a.ndim == 0 or stacked.ndim == 0:
        raise ValueError("choose: the inputs cannot be scalars")
    idx = _checked_indices(broadcast(a, shape), int(stacked.shape[0]), mode, False, "choose")
    return F.squeeze(F.gather_elements(stacked, 0, F.expand_dims(idx, 0)), 0)


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Tensor:
    """Returns a tensor drawn from elements of ``choicelist`` depending on ``condlist``: where several
    conditions hold, the first one's choice is taken.

    Args:
        condlist (Union[list, Tensor]): the conditions (the first axis runs over them).
        choicelist (Union[list, Tensor]): the choices, one per condition.
        default (Union[int, float, Tensor]): the value where no condition holds. Default: 0.

    Returns:
        Tensor of the choices' dtype.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.arange(5)
        >>> print(mnp.select([x < 2, x > 3], [x, x * 10], default=-1))
        [ 0  1 -1 -1 40]
    """
    conds, choices = to_tensor(condlist), to_tensor(choicelist)
    if conds.ndim == 0 or choices.ndim == 0:
        raise ValueError("select: the conditions and choices cannot be scalars")
    n = int(conds.shape[0])
    if int(choices.shape[0]) != n:
        raise ValueError(f"select: {int(choices.shape[0])} choices for {n} conditions; they must match")
    case = broadcast_shape(tuple(conds.shape[1:]), tuple(choices.shape[1:]), op="select")
    d = choices.dtype
    if isinstance(default, Tensor):
        out = broadcast(cast(default, d), case)
    else:
        out = F.full(case, default, dtype=d)
    for i in range(n - 1, -1, -1):
        out = F.where(broadcast(F.cast(at(conds, i), np.bool_), case), broadcast(at(choices, i), case), out)
    return out


def piecewise(x: Any, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Tensor:
    """Evaluates a piecewise-defined function.

    Args:
        x (Tensor): the domain.
        condlist (Union[list, Tensor]): the conditions.
        funclist (list): one function or value per condition, plus optionally a last one for where none
            holds; functions get ``x`` (and ``*args``, ``**kw``) and are evaluated on all of it.

    Returns:
        Tensor (of the values' dtype, as MindSpore: plain Python ints give int32).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([-2.0, 0.5, 3.0])
        >>> print(mnp.piecewise(x, [x < 0, x >= 0], [-1.0, 1.0]))
        [-1.  1.  1.]
    """
    x = to_tensor(x)
    values = funclist
    if isinstance(funclist, (tuple, list)) and funclist and callable(funclist[0]):
        values = [f(x, *args, **kw) for f in funclist]
    conds = _stacked(condlist)
    choices = _stacked(values)
    n1, n2 = int(conds.shape[0]), len(funclist)
    default: Any = 0
    if n1 + 1 == n2:
        default, choices = at(choices, -1), at(choices, slice(None, -1))
    elif n1 != n2:
        raise ValueError(f"piecewise: {n2} functions for {n1} conditions; give {n1} or {n1 + 1}")
    return select(conds, choices, default)


def _stacked(items: Any) -> Tensor:
    if isinstance(items, (tuple, list)):
        return stack([to_tensor(i) for i in items])
    t = to_tensor(items)
    return F.reshape(t, (1,)) if t.ndim == 0 else t


def argwhere(a: Any) -> Tensor:
    """Finds the indices of the non-zero elements, grouped by element.

    Args:
        a (Tensor): input.

    Returns:
        Tensor, int64 of shape (number of non-zero elements, a.ndim).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.argwhere(mnp.array([[0, 1], [2, 0]])))
        [[0 1]
         [1 0]]
    """
    return F.nonzero(to_tensor(a))


def unravel_index(indices: Any, shape: Any, order: str = "C") -> Any:
    """Converts flat indices into a tuple of coordinate tensors.

    Args:
        indices (Union[Tensor, int, list]): flat indices (clamped into [-size, size - 1]; negative ones count
            from the end).
        shape (Union[int, tuple[int]]): the shape the indices address.
        order (str): 'C' (row-major) or 'F' (column-major). Default: 'C'.

    Returns:
        Tuple of tensors, one per dimension of ``shape`` (a 1-element tensor for a scalar index into a 1-D
        shape, as MindSpore).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> rows, cols = mnp.unravel_index(mnp.array([1, 5]), (2, 3))
        >>> print(rows, cols)
        [0 1] [1 2]
    """
    idx = to_tensor(indices)
    if order not in ("C", "F"):
        raise ValueError(f"unravel_index: order must be 'C' or 'F', got {order!r}")
    shape = (shape,) if isinstance(shape, int) else tuple(int(s) for s in shape)
    dims = shape if order == "F" else shape[::-1]
    strides = [1]
    for d in dims:
        strides.append(strides[-1] * d)
    sizes = strides[::-1]  # total, then the stride of each dimension in order
    total = sizes[0]
    idx = F.maximum(F.minimum(idx, total - 1), -total)
    res = [F.floor_div(F.floor_mod(idx, sizes[i]), sizes[i + 1]) for i in range(len(shape))]
    if order == "F":
        res = res[::-1]
    if idx.ndim == 0 and len(res) == 1:
        return F.reshape(res[0], (1,))
    return tuple(res)


def ravel_multi_index(multi_index: Any, dims: Any, mode: str = "clip", order: str = "C") -> Tensor:
    """Converts a tuple of index tensors into flat indices.

    Args:
        multi_index (Union[tuple, list, Tensor]): one integer index tensor per dimension.
        dims (Union[int, tuple[int]]): the shape the indices address.
        mode (str): out-of-bounds indices: 'clip' or 'wrap'. Default: 'clip'.
        order (str): 'C' (row-major) or 'F' (column-major). Default: 'C'.

    Returns:
        Tensor of flat indices, float32 (MindSpore sums them as float32).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.ravel_multi_index((mnp.array([0, 1]), mnp.array([1, 2])), (2, 3)))
        [1. 5.]
    """
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if any(isinstance(d, (bool, float)) for d in dims):
        raise TypeError(f"ravel_multi_index: dims must be integers, got {dims}")
    mi = to_tensor(multi_index)
    if mi._data.dtype.kind == "f":
        raise TypeError(f"ravel_multi_index: only integer indices are permitted, got {mi.dtype}")
    if int(mi.shape[0]) != len(dims):
        raise ValueError(f"ravel_multi_index: multi_index must be a sequence of length {len(dims)}, got "
                         f"{int(mi.shape[0])}")
    if mode not in ("clip", "wrap"):
        raise ValueError(f"ravel_multi_index: mode must be 'clip' or 'wrap', got {mode!r}")
    if order not in ("C", "F"):
        raise ValueError(f"ravel_multi_index: order must be 'C' or 'F', got {order!r}")
    strides = [1] * len(dims)
    if order == "C":
        for i in range(len(dims) - 2, -1, -1):
            strides[i] = strides[i + 1] * dims[i + 1]
    else:
        for i in range(1, len(dims)):
            strides[i] = strides[i - 1] * dims[i - 1]
    total: Any = None
    for i, d in enumerate(dims):
        part = at(mi, i)
        part = F.clamp(part, 0, d - 1) if mode == "clip" else F.floor_mod(part, d)
        term = F.mul(cast(part, np.float32), float(strides[i]))
        total = term if total is None else F.add(total, term)
    return total


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any, **kwargs: Any) -> Tensor:
    """Applies a function to the 1-D slices along the given axis.

    Args:
        func1d (Callable): takes a 1-D tensor (and ``*args``, ``**kwargs``).
        axis (int): the axis the slices run along.
        arr (Tensor): input.

    Returns:
        Tensor; the function's output dimensions replace ``axis``.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(mnp.apply_along_axis(mnp.sum, 1, x))
        [3. 7.]
    """
    arr = to_tensor(arr)
    nd = arr.ndim
    ax = axis_index(axis, nd, "apply_along_axis")
    moved = moveaxis(arr, ax, -1)
    for d in moved.shape[:-1]:
        require_static(d, "apply_along_axis calls the function once per row and")
    rows = F.reshape(moved, (-1, moved.shape[-1]))
    results = [to_tensor(func1d(at(rows, i), *args, **kwargs)) for i in range(int(rows.shape[0]))]
    stacked = stack(results)
    shape = tuple(arr.shape[:ax]) + tuple(arr.shape[ax + 1:]) + tuple(stacked.shape[1:])
    res = F.reshape(stacked, shape)
    extra = res.ndim - nd + 1
    if extra >= 1:
        res = moveaxis(res, tuple(range(nd - 1, res.ndim)), tuple(range(ax, ax + extra)))
    return res


def apply_over_axes(func: Callable[..., Any], a: Any, axes: Any) -> Tensor:
    """Applies a reduction repeatedly over several axes, keeping each reduced axis (as size 1).

    Args:
        func (Callable): called as ``func(a, axis=axis)``.
        a (Tensor): input.
        axes (Union[int, tuple[int], list[int]]): the axes, in order.

    Returns:
        Tensor of ``a``'s number of dimensions.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.arange(6).reshape(2, 3)
        >>> print(mnp.apply_over_axes(mnp.sum, x, [0, 1]))
        [[15]]
    """
    a = to_tensor(a)
    res = a
    for ax in ((axes,) if isinstance(axes, int) else tuple(axes)):
        res = to_tensor(func(res, axis=ax))
        if res.ndim != a.ndim:
            res = F.expand_dims(res, ax)
        if res.ndim != a.ndim:
            raise ValueError("apply_over_axes: the function does not return a tensor of the right shape")
    return res

__all__ = ["apply_along_axis", "apply_over_axes", "argwhere", "choose", "piecewise", "ravel_multi_index",
           "select", "take", "take_along_axis", "unravel_index", "where"]
