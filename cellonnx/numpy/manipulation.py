"""Shape and layout: transpose, axes moves, reshape, joining (concatenate, stack, the *stack family, append),
splitting (split, array_split, hsplit / vsplit / dsplit), tile, repeat, broadcast, flip, roll, rot90
(mindspore.numpy.array_ops)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as F
from cellonnx.graph.symint import is_symbolic
from cellonnx.numpy._utils import (
    axes_tuple,
    axis_index,
    broadcast_shape,
    cast,
    slice_axis,
    to_tensor,
)
from cellonnx.numpy.dtypes import promote
from cellonnx.tensor import Tensor

MAX_NUMPY_DIMS = 32  # an axis this large or larger means None (flatten), as in MindSpore


def transpose(a: Any, axes: Any = None) -> Tensor:
    """Reverses or permutes the axes of a tensor.

    Args:
        a (Tensor): input.
        axes (Union[tuple[int], list[int]], optional): the permutation. Default: the axes reversed.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.ones((2, 3, 4))
        >>> mnp.transpose(x, (2, 0, 1)).shape
        (4, 2, 3)
        >>> mnp.transpose(x).shape
        (4, 3, 2)
    """
    a = to_tensor(a)
    perm = tuple(range(a.ndim))[::-1] if axes is None else axes_tuple(axes, a.ndim, "transpose")
    if len(perm) != a.ndim:
        raise ValueError(f"transpose: axes {tuple(axes)} do not match a tensor of dimension {a.ndim}")
    return F.transpose(a, perm)


def expand_dims(a: Any, axis: Any) -> Tensor:
    """Expands the shape of a tensor: size-1 axes are inserted at ``axis``.

    Args:
        a (Tensor): input.
        axis (Union[int, tuple[int], list[int]]): positions of the new axes in the result.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([1, 2])
        >>> mnp.expand_dims(x, 0).shape
        (1, 2)
    """
    a = to_tensor(a)
    if not isinstance(axis, (int, np.integer, tuple, list)) or isinstance(axis, bool):
        raise TypeError(f"expand_dims: axis must be an int, tuple or list, got {type(axis).__name__}")
    items = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    ndim = a.ndim + len(items)
    for ax in sorted(axes_tuple(items, ndim, "expand_dims")):
        a = F.expand_dims(a, ax)
    return a


def squeeze(a: Any, axis: Any = None) -> Tensor:
    """Removes size-1 axes.

    Args:
        a (Tensor): input.
        axis (Union[int, tuple[int], list[int]], optional): the axes to remove (each must have size 1).
            Default: every size-1 axis.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.ones((1, 3, 1))
        >>> mnp.squeeze(x).shape
        (3,)
    """
    a = to_tensor(a)
    if axis is not None:
        for ax in axes_tuple(axis, a.ndim, "squeeze"):
            if a.shape[ax] != 1:
                raise ValueError(f"squeeze: cannot remove axis {ax} of size {a.shape[ax]} from shape "
                                 f"{tuple(a.shape)}; only size-1 axes can be removed")
    return F.squeeze(a, axis)


def rollaxis(x: Any, axis: int, start: int = 0) -> Tensor:
    """Rolls ``axis`` backwards until it lies before position ``start``.

    Args:
        x (Tensor): input.
        axis (int): the axis to move.
        start (int): the axis is moved until it lies before this position. Default: 0.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.rollaxis(mnp.ones((2, 3, 4)), 2).shape
        (4, 2, 3)
    """
    x = to_tensor(x)
    nd = x.ndim
    for name, v in (("axis", axis), ("start", start)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"rollaxis: {name} must be an int, got {type(v).__name__}")
    a = axis_index(axis, nd, "rollaxis")
    if not -nd <= start <= nd:
        raise ValueError(f"rollaxis: start {start} is out of bounds [{-nd}, {nd}]")
    s = start + nd if start < 0 else start
    if a < s:
        s -= 1
    if a == s:
        return x
    perm = [i for i in range(nd) if i != a]
    perm.insert(s, a)
    return F.transpose(x, perm)


def swapaxes(x: Any, axis1: int, axis2: int) -> Tensor:
    """Interchanges two axes of a tensor.

    Args:
        x (Tensor): input.
        axis1 (int): first axis.
        axis2 (int): second axis.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.ones((2, 3, 4))
        >>> mnp.swapaxes(x, 0, 2).shape
        (4, 3, 2)
    """
    x = to_tensor(x)
    return F.swapaxes(x, axis_index(axis1, x.ndim, "swapaxes"), axis_index(axis2, x.ndim, "swapaxes"))


def moveaxis(a: Any, source: Any, destination: Any) -> Tensor:
    """Moves axes of a tensor to new positions; the others keep their order.

    Args:
        a (Tensor): input.
        source (Union[int, tuple[int], list[int]]): the axes to move.
        destination (Union[int, tuple[int], list[int]]): their new positions.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.ones((2, 3, 4))
        >>> mnp.moveaxis(x, 0, -1).shape
        (3, 4, 2)
    """
    a = to_tensor(a)
    src = axes_tuple(source, a.ndim, "moveaxis")
    dst = axes_tuple(destination, a.ndim, "moveaxis")
    if len(src) != len(dst):
        raise ValueError(f"moveaxis: source {source} and destination {destination} must have the same number "
                         "of elements")
    perm = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return F.transpose(a, perm)


def reshape(x: Any, new_shape: Any) -> Tensor:
    """Reshapes a tensor without changing its data.

    Args:
        x (Tensor): input.
        new_shape (Union[int, tuple[int], list[int]]): the new shape; one entry may be -1.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.arange(6)
        >>> print(mnp.reshape(x, (2, 3)))
        [[0 1 2]
         [3 4 5]]
    """
    return F.reshape(to_tensor(x), new_shape)


def ravel(x: Any) -> Tensor:
    """Returns a flattened (1-D) tensor.

    Args:
        x (Tensor): input.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 2], [3, 4]])
        >>> print(mnp.ravel(x))
        [1 2 3 4]
    """
    return F.reshape(to_tensor(x), (-1,))


def _common(tensors: list[Tensor]) -> list[Tensor]:
    """The tensors cast to one dtype by MindSpore numpy's promotion table."""
    d = tensors[0].dtype
    for t in tensors[1:]:
        d = promote(d, t.dtype)
    return [cast(t, d) for t in tensors]


def _sequence(arrays: Any, op: str) -> list[Tensor]:
    if arrays is None or not isinstance(arrays, (tuple, list)):
        raise TypeError(f"{op}: expected a tuple or list of tensors, got {type(arrays).__name__}")
    if not arrays:
        raise ValueError(f"{op}: needs at least one tensor")
    return _common([to_tensor(t) for t in arrays])


def concatenate(arrays: Any, axis: Any = 0) -> Tensor:
    """Joins a sequence of tensors along an existing axis.

    Args:
        arrays (Union[Tensor, tuple[Tensor], list[Tensor]]): the tensors (dtypes are promoted); a single
            Tensor is treated as the sequence of its slices along axis 0.
        axis (int, optional): the axis; None flattens the tensors first. Default: 0.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> a = mnp.array([[1, 2]])
        >>> b = mnp.array([[3, 4]])
        >>> print(mnp.concatenate((a, b), axis=0))
        [[1 2]
         [3 4]]
    """
    if axis is not None and axis >= MAX_NUMPY_DIMS:
        axis = None
    if isinstance(arrays, Tensor):
        if axis is None:
            return ravel(arrays)
        nd = arrays.ndim
        a = axis_index(axis, nd - 1, "concatenate")
        moved = F.transpose(arrays, list(range(1, a + 1)) + [0] + list(range(a + 1, nd)))
        shape = tuple(arrays.shape)
        return F.reshape(moved, shape[1:a + 1] + (shape[0] * shape[a + 1],) + shape[a + 2:])
    ts = _sequence(arrays, "concatenate")
    if axis is None:
        return F.concat([F.reshape(t, (-1,)) for t in ts], 0)
    nd = ts[0].ndim
    if any(t.ndim != nd for t in ts):
        raise ValueError(f"concatenate: all tensors must have the same number of dimensions, got shapes "
                         f"{[tuple(t.shape) for t in ts]}")
    return F.concat(ts, axis_index(axis, nd, "concatenate"))


def append(arr: Any, values: Any, axis: int | None = None) -> Tensor:
    """Appends values to the end of a tensor.

    Args:
        arr (Tensor): the tensor.
        values (Tensor): what to append; with ``axis`` it needs ``arr``'s shape except along it.
        axis (int, optional): the axis; None flattens both first. Default: None.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.append(mnp.array([1, 2]), mnp.array([3, 4])))
        [1 2 3 4]
    """
    arr, values = to_tensor(arr), to_tensor(values)
    if axis is None:
        return concatenate((ravel(arr), ravel(values)), 0)
    axis_index(axis, arr.ndim, "append")
    if arr.ndim != values.ndim:
        raise ValueError(f"append: all tensors must have the same number of dimensions, got shapes "
                         f"{tuple(arr.shape)} and {tuple(values.shape)}")
    return concatenate((arr, values), axis)


def _stack_parts(tup: Any, op: str, fix: Any, axis_of: Any) -> Tensor:
    if isinstance(tup, Tensor):
        return tup
    if not isinstance(tup, (tuple, list)):
        raise TypeError(f"{op}: expected a Tensor, or a tuple or list of tensors, got {type(tup).__name__}")
    if not tup:
        raise ValueError(f"{op}: needs at least one tensor to concatenate")
    ts = _common([fix(to_tensor(t)) for t in tup])
    return F.concat(ts, axis_of(ts))


def _lead(t: Tensor, ndim: int) -> Tensor:
    """``t`` with leading size-1 axes up to ``ndim`` dimensions."""
    return F.reshape(t, (1,) * (ndim - t.ndim) + tuple(t.shape)) if t.ndim < ndim else t


def column_stack(tup: Any) -> Tensor:
    """Stacks 1-D tensors as columns into a 2-D tensor; 2-D tensors are stacked as they are.

    Args:
        tup (Union[Tensor, tuple[Tensor], list[Tensor]]): the tensors.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.column_stack((mnp.array([1, 2]), mnp.array([3, 4]))))
        [[1 3]
         [2 4]]
    """
    def fix(t: Tensor) -> Tensor:
        return F.reshape(t, (-1, 1)) if t.ndim <= 1 else t
    return _stack_parts(tup, "column_stack", fix, lambda ts: 1)


def vstack(tup: Any) -> Tensor:
    """Stacks tensors in sequence vertically (row-wise); 1-D tensors become rows.

    Args:
        tup (Union[Tensor, tuple[Tensor], list[Tensor]]): the tensors.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.vstack((mnp.array([1, 2]), mnp.array([3, 4]))))
        [[1 2]
         [3 4]]
    """
    return _stack_parts(tup, "vstack", lambda t: _lead(t, 2), lambda ts: 0)


def hstack(tup: Any) -> Tensor:
    """Stacks tensors in sequence horizontally (column-wise): along axis 1, or 0 for 1-D tensors.

    Args:
        tup (Union[Tensor, tuple[Tensor], list[Tensor]]): the tensors.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.hstack((mnp.array([1, 2]), mnp.array([3, 4]))))
        [1 2 3 4]
    """
    return _stack_parts(tup, "hstack", lambda t: _lead(t, 1), lambda ts: 0 if ts[0].ndim == 1 else 1)


def dstack(tup: Any) -> Tensor:
    """Stacks tensors in sequence depth-wise (along the third axis).

    Args:
        tup (Union[Tensor, tuple[Tensor], list[Tensor]]): the tensors; (n,) becomes (1, n, 1) and (m, n)
            becomes (m, n, 1).

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.dstack((mnp.array([1, 2]), mnp.array([3, 4]))).shape
        (1, 2, 2)
    """
    def fix(t: Tensor) -> Tensor:
        t = _lead(t, 2)
        return F.expand_dims(t, 2) if t.ndim == 2 else t
    return _stack_parts(tup, "dstack", fix, lambda ts: 2)


def _atleast(arys: tuple, fix: Any, op: str) -> Any:
    res = [fix(to_tensor(a)) for a in arys]
    return res[0] if len(res) == 1 else res


def atleast_1d(*arys: Any) -> Any:
    """Converts inputs to tensors with at least one dimension.

    Args:
        *arys (Tensor): the inputs.

    Returns:
        Tensor, or a list of tensors for several inputs.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.atleast_1d(mnp.array(3.0)).shape
        (1,)
    """
    return _atleast(arys, lambda t: _lead(t, 1), "atleast_1d")


def atleast_2d(*arys: Any) -> Any:
    """Reshapes inputs as tensors with at least two dimensions (leading size-1 axes are added).

    Args:
        *arys (Tensor): the inputs.

    Returns:
        Tensor, or a list of tensors for several inputs.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.atleast_2d(mnp.array([1, 2])).shape
        (1, 2)
    """
    return _atleast(arys, lambda t: _lead(t, 2), "atleast_2d")


def atleast_3d(*arys: Any) -> Any:
    """Reshapes inputs as tensors with at least three dimensions: () -> (1, 1, 1), (n,) -> (1, n, 1),
    (m, n) -> (m, n, 1).

    Args:
        *arys (Tensor): the inputs.

    Returns:
        Tensor, or a list of tensors for several inputs.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.atleast_3d(mnp.array([1.0, 2.0])).shape
        (1, 2, 1)
    """
    def fix(t: Tensor) -> Tensor:
        if t.ndim == 0:
            return F.reshape(t, (1, 1, 1))
        if t.ndim == 1:
            return F.reshape(t, (1, -1, 1))
        if t.ndim == 2:
            return F.expand_dims(t, 2)
        return t
    return _atleast(arys, fix, "atleast_3d")


def stack(arrays: Any, axis: int = 0) -> Tensor:
    """Joins a sequence of tensors along a new axis.

    Args:
        arrays (Union[Tensor, tuple[Tensor], list[Tensor]]): tensors of one shape; a single Tensor is the
            sequence of its slices along axis 0.
        axis (int): the position of the new axis in the result. Default: 0.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> a = mnp.array([1, 2])
        >>> b = mnp.array([3, 4])
        >>> print(mnp.stack((a, b), axis=1))
        [[1 3]
         [2 4]]
    """
    if isinstance(arrays, Tensor):
        nd = arrays.ndim
        a = axis % nd
        return F.transpose(arrays, list(range(1, a + 1)) + [0] + list(range(a + 1, nd)))
    ts = _sequence(arrays, "stack")
    shapes = {tuple(t.shape) for t in ts}
    if len(shapes) > 1:
        raise ValueError(f"stack: all tensors must have the same shape, got {sorted(shapes)}")
    a = axis % (ts[0].ndim + 1)
    return F.concat([F.expand_dims(t, a) for t in ts], a)


def tile(a: Any, reps: Any) -> Tensor:
    """Constructs a tensor by repeating ``a`` the number of times given by ``reps``.

    Args:
        a (Tensor): input.
        reps (Union[int, tuple[int], list[int]]): repetitions per axis (aligned to the last axes).

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.tile(mnp.array([1, 2]), 3))
        [1 2 1 2 1 2]
    """
    return F.tile(to_tensor(a), reps)


def repeat(a: Any, repeats: Any, axis: int | None = None) -> Tensor:
    """Repeats each element of a tensor.

    Args:
        a (Tensor): input.
        repeats (Union[int, tuple[int], list[int]]): one number, or one per element along ``axis``.
        axis (int, optional): the axis; None repeats the flattened tensor. Default: None.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.repeat(mnp.array([1, 2]), 2))
        [1 1 2 2]
    """
    a = to_tensor(a)
    if isinstance(repeats, Tensor):
        repeats = repeats._data.tolist()
    if isinstance(repeats, (tuple, list)) and len(repeats) == 1:
        repeats = repeats[0]
    if axis is None:
        a, axis = ravel(a), 0
    ax = axis_index(axis, a.ndim, "repeat")
    if isinstance(repeats, (int, np.integer)):
        if repeats < 0:
            raise ValueError(f"repeat: repeats must be non-negative, got {repeats}")
        return F.repeat_interleave(a, int(repeats), ax)
    counts = [int(r) for r in repeats]
    if len(counts) != a.shape[ax] or any(r < 0 for r in counts):
        raise ValueError(f"repeat: repeats {counts} must be {a.shape[ax]} non-negative counts (the size of "
                         f"axis {ax})")
    index = Tensor(np.repeat(np.arange(len(counts)), counts).astype(np.int64))
    return F.gather(a, index, ax)


def broadcast_to(array: Any, shape: Any) -> Tensor:
    """Broadcasts a tensor to a new shape.

    Args:
        array (Tensor): input.
        shape (tuple[int]): the target shape.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.broadcast_to(mnp.array([1, 2, 3]), (2, 3)))
        [[1 2 3]
         [1 2 3]]
    """
    array = to_tensor(array)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if broadcast_shape(tuple(array.shape), shape, op="broadcast_to") != shape:
        raise ValueError(f"broadcast_to: cannot broadcast shape {tuple(array.shape)} to {shape}")
    return F.broadcast_to(array, shape)


def broadcast_arrays(*args: Any) -> list[Tensor]:
    """Broadcasts any number of tensors against each other.

    Args:
        *args (Tensor): the tensors.

    Returns:
        List of tensors of the common shape.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> a, b = mnp.broadcast_arrays(mnp.array([[1], [2]]), mnp.array([10, 20, 30]))
        >>> a.shape
        (2, 3)
        >>> b.shape
        (2, 3)
    """
    ts = [to_tensor(a) for a in args]
    shape = broadcast_shape(*[tuple(t.shape) for t in ts], op="broadcast_arrays")
    return [F.broadcast_to(t, shape) for t in ts]


def _sizes(n: int, indices_or_sections: Any, uneven: bool, op: str) -> list[tuple[int, int]]:
    """(start, stop) of each piece along an axis of size ``n``."""
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(indices_or_sections, bool):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError(f"{op}: the number of sections must be positive, got {k}")
        if not uneven and n % k:
            raise ValueError(f"{op}: the axis of size {n} does not divide into {k} equal sections")
        if k > n and not uneven:
            raise ValueError(f"{op}: {k} sections of an axis of size {n} would be empty")
        long, size = n % k, n // k
        bounds, start = [], 0
        for i in range(k):
            stop = start + size + (1 if i < long else 0)
            bounds.append((start, stop))
            start = stop
        return bounds
    if isinstance(indices_or_sections, (tuple, list)):
        cuts = [int(i) for i in indices_or_sections]
        points = [0] + cuts + [n]
        return [slice(points[i], points[i + 1]).indices(n)[:2] for i in range(len(points) - 1)]
    raise TypeError(f"{op}: indices_or_sections must be an int or a tuple / list of ints, got "
                    f"{type(indices_or_sections).__name__}")


def _split(x: Any, indices_or_sections: Any, axis: int, uneven: bool, op: str) -> Any:
    x = to_tensor(x)
    ax = axis_index(axis, x.ndim, op)
    n = int(x.shape[ax])
    bounds = _sizes(n, indices_or_sections, uneven, op)
    sizes = [max(stop - start, 0) for start, stop in bounds]
    if is_symbolic(x.shape[ax]) and len(bounds) > 1:  # a dynamic axis: the pieces' bounds stay graph values
        ios = indices_or_sections
        ios = ios if isinstance(ios, (int, np.integer)) else [int(i) for i in ios]
        parts = list(F.tensor_split(x, ios, ax))
    elif all(b[0] == (bounds[i - 1][1] if i else 0) for i, b in enumerate(bounds)) and sum(sizes) == n \
            and all(sizes) and len(sizes) > 1:
        parts = list(F.split(x, sizes, ax))
    else:
        parts = [slice_axis(x, ax, start, max(start, stop)) for start, stop in bounds]
    # MindSpore hands back a tuple for a number of sections and a list for split points
    return tuple(parts) if isinstance(indices_or_sections, (int, np.integer)) else parts


def split(x: Any, indices_or_sections: Any, axis: int = 0) -> Any:
    """Splits a tensor into sub-tensors along the given axis.

    Args:
        x (Tensor): input.
        indices_or_sections (Union[int, tuple[int], list[int]]): a number of equal sections, or the points
            (indices along the axis) to split at.
        axis (int): the axis. Default: 0.

    Returns:
        Tuple of tensors for a number of sections, list of tensors for split points.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.arange(6)
        >>> parts = mnp.split(x, 3)
        >>> print(parts[1])
        [2 3]
    """
    return _split(x, indices_or_sections, axis, False, "split")


def array_split(x: Any, indices_or_sections: Any, axis: int = 0) -> Any:
    """Splits a tensor into sub-tensors; unlike ``split``, a number of sections need not divide the axis
    (the first ``size % n`` sections get one more element).

    Args:
        x (Tensor): input.
        indices_or_sections (Union[int, tuple[int], list[int]]): a number of sections or split points.
        axis (int): the axis. Default: 0.

    Returns:
        Tuple or list of tensors.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> parts = mnp.array_split(mnp.arange(5), 2)
        >>> print(parts[0], parts[1])
        [0 1 2] [3 4]
    """
    return _split(x, indices_or_sections, axis, True, "array_split")


def vsplit(x: Any, indices_or_sections: Any) -> Any:
    """Splits a tensor into sub-tensors vertically (along axis 0).

    Args:
        x (Tensor): input.
        indices_or_sections (Union[int, tuple[int], list[int]]): sections or split points.

    Returns:
        Tuple or list of tensors.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> parts = mnp.vsplit(mnp.arange(8).reshape(4, 2), 2)
        >>> print(parts[1])
        [[4 5]
         [6 7]]
    """
    return split(x, indices_or_sections, 0)


def hsplit(x: Any, indices_or_sections: Any) -> Any:
    """Splits a tensor into sub-tensors horizontally (along axis 1, or 0 for a 1-D tensor).

    Args:
        x (Tensor): input.
        indices_or_sections (Union[int, tuple[int], list[int]]): sections or split points.

    Returns:
        Tuple or list of tensors.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> parts = mnp.hsplit(mnp.arange(8).reshape(2, 4), 2)
        >>> print(parts[1])
        [[2 3]
         [6 7]]
    """
    x = to_tensor(x)
    return split(x, indices_or_sections, 0 if x.ndim == 1 else 1)


def dsplit(x: Any, indices_or_sections: Any) -> Any:
    """Splits a tensor into sub-tensors along the third axis (depth).

    Args:
        x (Tensor): input of at least three dimensions.
        indices_or_sections (Union[int, tuple[int], list[int]]): sections or split points.

    Returns:
        Tuple or list of tensors.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.arange(8).reshape(1, 2, 4)
        >>> [p.shape for p in mnp.dsplit(x, 2)]
        [(1, 2, 2), (1, 2, 2)]
    """
    return split(x, indices_or_sections, 2)


def flip(m: Any, axis: Any = None) -> Tensor:
    """Reverses the order of elements along the given axes.

    Args:
        m (Tensor): input.
        axis (Union[int, tuple[int], list[int]], optional): the axes. Default: all of them.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> x = mnp.array([[1, 2], [3, 4]])
        >>> print(mnp.flip(x, 0))
        [[3 4]
         [1 2]]
    """
    m = to_tensor(m)
    if m.ndim == 0 or m.size == 0:
        return m
    return F.flip(m, axes_tuple(axis, m.ndim, "flip"))


def flipud(m: Any) -> Tensor:
    """Flips the entries in each column in the up/down direction (axis 0).

    Args:
        m (Tensor): input.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.flipud(mnp.array([[1, 2], [3, 4]])))
        [[3 4]
         [1 2]]
    """
    return flip(m, 0)


def fliplr(m: Any) -> Tensor:
    """Flips the entries in each row in the left/right direction (axis 1).

    Args:
        m (Tensor): input of at least two dimensions.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.fliplr(mnp.array([[1, 2], [3, 4]])))
        [[2 1]
         [4 3]]
    """
    return flip(m, 1)


def roll(a: Any, shift: Any, axis: Any = None) -> Tensor:
    """Rolls a tensor along the given axes: elements pushed off one end come back at the other.

    Args:
        a (Tensor): input.
        shift (Union[int, tuple[int]]): the shifts; one shift for several axes applies to each, and one axis
            for several shifts takes each in turn.
        axis (Union[int, tuple[int]], optional): the axes. Default: the flattened tensor.

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.roll(mnp.array([0, 1, 2, 3, 4]), 2))
        [3 4 0 1 2]
    """
    a = to_tensor(a)
    if axis is None:
        return F.reshape(roll(ravel(a), shift, 0), tuple(a.shape))
    shifts = (shift,) if isinstance(shift, (int, np.integer)) else tuple(shift)
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    if len(shifts) != len(axes):
        if len(shifts) == 1:
            shifts = shifts * len(axes)
        elif len(axes) == 1:
            axes = axes * len(shifts)
        else:
            raise ValueError(f"roll: shift {shift} and axis {axis} cannot be broadcast to one length")
    out = a
    for s, ax in zip(shifts, axes):
        out = F.roll(out, int(s), axis_index(ax, a.ndim, "roll"))
    return out


def rot90(a: Any, k: int = 1, axes: Any = (0, 1)) -> Tensor:
    """Rotates a tensor by 90 degrees in the plane of ``axes``, from the first axis towards the second.

    Args:
        a (Tensor): input of at least two dimensions.
        k (int): number of rotations. Default: 1.
        axes (Union[tuple[int], list[int]]): the plane. Default: (0, 1).

    Returns:
        Tensor.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.rot90(mnp.array([[1, 2], [3, 4]])))
        [[2 4]
         [1 3]]
    """
    a = to_tensor(a)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"rot90: k must be an int, got {type(k).__name__}")
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        raise ValueError(f"rot90: axes must be a tuple or list of two ints, got {axes!r}")
    a1, a2 = axis_index(axes[0], a.ndim, "rot90"), axis_index(axes[1], a.ndim, "rot90")
    if a1 == a2:
        raise ValueError(f"rot90: the axes must differ, got {tuple(axes)}")
    k %= 4
    if k == 0:
        return a
    if k == 2:
        return F.flip(a, (a1, a2))
    perm = list(range(a.ndim))
    perm[a1], perm[a2] = perm[a2], perm[a1]
    return F.flip(F.transpose(a, perm), (a1,) if k == 1 else (a2,))


def size(a: Any, axis: int | None = None) -> int:
    """Returns the number of elements along a given axis.

    Args:
        a (Union[Tensor, list, tuple]): input.
        axis (int, optional): the axis. Default: every element.

    Returns:
        int.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> mnp.size(mnp.ones((2, 3)))
        6
    """
    a = to_tensor(a)
    if axis is None:  # a product of dims: traced, a dynamic one stays a graph value (an int all the same)
        n = 1
        for d in a.shape:
            n = n * d
        return n
    return a.shape[axis_index(axis, a.ndim, "size")]


def array_str(a: Tensor) -> str:
    """Returns a string representation of the data in a tensor (as NumPy prints it).

    Args:
        a (Tensor): input.

    Returns:
        str.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.array_str(mnp.array([1.5, 2.0])))
        [1.5 2. ]
    """
    if not isinstance(a, Tensor):
        raise TypeError(f"array_str: expected a Tensor, got {type(a).__name__}")
    return np.array_str(a.asnumpy())

__all__ = ["append", "array_split", "array_str", "atleast_1d", "atleast_2d", "atleast_3d",
           "broadcast_arrays", "broadcast_to", "column_stack", "concatenate", "dsplit", "dstack",
           "expand_dims", "flip", "fliplr", "flipud", "hsplit", "hstack", "moveaxis", "ravel", "repeat",
           "reshape", "roll", "rollaxis", "rot90", "size", "split", "squeeze", "stack", "swapaxes", "tile",
           "transpose", "vsplit", "vstack"]
