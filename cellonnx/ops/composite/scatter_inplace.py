"""MindSpore's updating scatters and assignments: scatter_nd_add / sub / mul / div / max / min / update,
scatter_update / mul / div / max / min, assign / assign_add / assign_sub, zero_ and put_.

Each computes the new value with the functional scatters (so it has their gradient and lowering), writes it
into the input and returns it. A Parameter takes the new array (its version is bumped, so compiled cells
re-read it); a plain Tensor is rebound to the new value and its history, as ``x[i] = v`` is. While a graph
is being traced the input keeps its value and the rest of the graph reads the new one; a Parameter's update
is then what the graph returns, not a side effect of tracing.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.autograd.tape import _mode
from cellonnx.ops import registry
from cellonnx.ops.prims._util import to_tensor
from cellonnx.ops.prims.getitem import _alias, _rebind_in_trace
from cellonnx.ops.prims.math import add, cast, sub
from cellonnx.ops.prims.scatter import ScatterNDAdd, ScatterNDSet, _index, _int64
from cellonnx.ops.prims.scatter_reduce import tensor_scatter_reduce
from cellonnx.ops.prims.shape import broadcast_to, expand_dims, reshape
from cellonnx.tensor import Parameter, Tensor


def current(x: Any) -> Tensor:
    """The value an update reads: for a plain Tensor with history, a second object holding that history,
    so the update's own ops keep pointing at the old value once ``x`` is rebound to the new one."""
    x = to_tensor(x)
    if not isinstance(x, Parameter) and x._node is not None and _mode.enabled:
        return _alias(x)
    return x


def write_back(x: Tensor, new: Tensor, op: str) -> Tensor:
    """Make ``new`` the value of ``x`` (see the module docstring) and return the updated tensor."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: the input to update must be a Tensor or Parameter, got {type(x).__name__}")
    if new._data.dtype != x._data.dtype:
        new = cast(new, x._data.dtype)
    tracing = registry.TRACE_HOOK is not None
    if isinstance(x, Parameter):
        if not tracing:
            x._assign_array(np.ascontiguousarray(new._data))
        _rebind_in_trace(new, x)
        return new
    if _mode.enabled and x.requires_grad and x._node is None:
        raise RuntimeError(f"{op}: a leaf tensor that requires grad cannot be updated in place while "
                           "gradients are recorded; use the functional form (ops.tensor_scatter_*) instead")
    x._data = new._data
    x._node, x._out_index, x.requires_grad = new._node, new._out_index, new.requires_grad
    _rebind_in_trace(new, x)
    return x


def _nd(input_x: Any, indices: Any, updates: Any, reduction: str, op: str) -> Tensor:
    x = to_tensor(input_x)
    return write_back(x, tensor_scatter_reduce(current(x), indices, updates, reduction, op), op)


def scatter_nd_add(input_x: Tensor, indices: Any, updates: Tensor, use_locking: bool = False) -> Tensor:
    """Add ``updates[b]`` to ``input_x[indices[b]]`` in place (repeats accumulate) and return ``input_x``.

    Args:
        input_x (Union[Parameter, Tensor]): the tensor to update.
        indices (Tensor): int32 / int64 of shape (..., k); the last axis addresses the first k dims.
        updates (Tensor): shape ``indices.shape[:-1] + input_x.shape[k:]``.
        use_locking (bool): MindSpore's lock flag; updates here are never concurrent. Default: False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32), name='x')
        >>> indices = Tensor(np.array([[1], [3], [1]]), ms.int32)
        >>> updates = Tensor(np.array([5.0, 6.0, 7.0]), ms.float32)
        >>> print(ops.scatter_nd_add(input_x, indices, updates))
        [ 1. 14.  3. 10.]
    """
    return _nd(input_x, indices, updates, "add", "scatter_nd_add")


def scatter_nd_sub(input_x: Tensor, indices: Any, updates: Tensor, use_locking: bool = False) -> Tensor:
    """Subtract ``updates[b]`` from ``input_x[indices[b]]`` in place; see :func:`scatter_nd_add`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32), name='x')
        >>> indices = Tensor(np.array([[1], [3]]), ms.int32)
        >>> updates = Tensor(np.array([5.0, 6.0]), ms.float32)
        >>> print(ops.scatter_nd_sub(input_x, indices, updates))
        [ 1. -3.  3. -2.]
    """
    return _nd(input_x, indices, updates, "sub", "scatter_nd_sub")


def scatter_nd_mul(input_x: Tensor, indices: Any, updates: Tensor, use_locking: bool = False) -> Tensor:
    """Multiply ``input_x[indices[b]]`` by ``updates[b]`` in place; see :func:`scatter_nd_add`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32), name='x')
        >>> indices = Tensor(np.array([[1], [3]]), ms.int32)
        >>> updates = Tensor(np.array([5.0, 6.0]), ms.float32)
        >>> print(ops.scatter_nd_mul(input_x, indices, updates))
        [ 1. 10.  3. 24.]
    """
    return _nd(input_x, indices, updates, "mul", "scatter_nd_mul")


def scatter_nd_div(input_x: Tensor, indices: Any, updates: Tensor, use_locking: bool = False) -> Tensor:
    """Divide ``input_x[indices[b]]`` by ``updates[b]`` in place; see :func:`scatter_nd_add`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32), name='x')
        >>> indices = Tensor(np.array([[1], [3]]), ms.int32)
        >>> updates = Tensor(np.array([4.0, 8.0]), ms.float32)
        >>> print(ops.scatter_nd_div(input_x, indices, updates))
        [1.  0.5 3.  0.5]
    """
    return _nd(input_x, indices, updates, "div", "scatter_nd_div")


def scatter_nd_max(input_x: Tensor, indices: Any, updates: Tensor, use_locking: bool = False) -> Tensor:
    """``input_x[indices[b]] = max(input_x[indices[b]], updates[b])`` in place; see :func:`scatter_nd_add`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32), name='x')
        >>> indices = Tensor(np.array([[1], [3]]), ms.int32)
        >>> updates = Tensor(np.array([5.0, 0.0]), ms.float32)
        >>> print(ops.scatter_nd_max(input_x, indices, updates))
        [1. 5. 3. 4.]
    """
    return _nd(input_x, indices, updates, "max", "scatter_nd_max")


def scatter_nd_min(input_x: Tensor, indices: Any, updates: Tensor, use_locking: bool = False) -> Tensor:
    """``input_x[indices[b]] = min(input_x[indices[b]], updates[b])`` in place; see :func:`scatter_nd_add`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32), name='x')
        >>> indices = Tensor(np.array([[1], [3]]), ms.int32)
        >>> updates = Tensor(np.array([5.0, 0.0]), ms.float32)
        >>> print(ops.scatter_nd_min(input_x, indices, updates))
        [1. 2. 3. 0.]
    """
    return _nd(input_x, indices, updates, "min", "scatter_nd_min")


def scatter_nd_update(input_x: Tensor, indices: Any, updates: Tensor, use_locking: bool = True) -> Tensor:
    """Write ``updates[b]`` at ``input_x[indices[b]]`` in place (for a repeated index the last update
    wins).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.zeros((2, 2)), ms.float32), name='x')
        >>> indices = Tensor(np.array([[0, 1], [1, 0]]), ms.int32)
        >>> updates = Tensor(np.array([3.0, 4.0]), ms.float32)
        >>> print(ops.scatter_nd_update(input_x, indices, updates))
        [[0. 3.]
         [4. 0.]]
    """
    return _nd(input_x, indices, updates, "update", "scatter_nd_update")


def _rows(input_x: Any, indices: Any, updates: Any, reduction: str, op: str) -> Tensor:
    """The axis-0 scatters: ``indices`` of any shape pick rows of ``input_x``; updates have shape
    ``indices.shape + input_x.shape[1:]``."""
    x = to_tensor(input_x)
    idx = _index(indices, op)
    upd = to_tensor(updates, x)
    want = tuple(idx._data.shape) + tuple(x._data.shape[1:])
    if x.ndim < 1 or tuple(upd._data.shape) != want:
        raise ValueError(f"{op}: updates of shape {tuple(upd.shape)}, expected indices.shape + "
                         f"input_x.shape[1:] = {want}")
    return write_back(x, tensor_scatter_reduce(current(x), expand_dims(idx, -1), upd, reduction, op), op)


def scatter_update(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """Write ``updates[i, ..., j, :]`` into row ``input_x[indices[i, ..., j]]`` in place (the last write to
    a repeated row wins) and return ``input_x``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.zeros((3, 2)), ms.float32), name='x')
        >>> indices = Tensor(np.array([2, 0]), ms.int32)
        >>> updates = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.scatter_update(input_x, indices, updates))
        [[3. 4.]
         [0. 0.]
         [1. 2.]]
    """
    return _rows(input_x, indices, updates, "update", "scatter_update")


def scatter_mul(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """Multiply rows ``input_x[indices[i, ..., j]]`` by ``updates[i, ..., j, :]`` in place.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32), name='x')
        >>> indices = Tensor(np.array([1]), ms.int32)
        >>> updates = Tensor(np.array([[2.0, 3.0]]), ms.float32)
        >>> print(ops.scatter_mul(input_x, indices, updates))
        [[ 1.  2.]
         [ 6. 12.]]
    """
    return _rows(input_x, indices, updates, "mul", "scatter_mul")


def scatter_div(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """Divide rows ``input_x[indices[i, ..., j]]`` by ``updates[i, ..., j, :]`` in place.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.array([[6.0, 6.0], [4.0, 4.0]]), ms.float32), name='x')
        >>> indices = Tensor(np.array([0, 1]), ms.int32)
        >>> updates = Tensor(np.array([[2.0, 3.0], [4.0, 2.0]]), ms.float32)
        >>> print(ops.scatter_div(input_x, indices, updates))
        [[3. 2.]
         [1. 2.]]
    """
    return _rows(input_x, indices, updates, "div", "scatter_div")


def scatter_max(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """Rows ``input_x[indices[i, ..., j]]`` become their maximum with ``updates[i, ..., j, :]``, in place.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.array([[1.0, 5.0], [3.0, 2.0]]), ms.float32), name='x')
        >>> indices = Tensor(np.array([1, 0]), ms.int32)
        >>> updates = Tensor(np.array([[4.0, 1.0], [2.0, 2.0]]), ms.float32)
        >>> print(ops.scatter_max(input_x, indices, updates))
        [[2. 5.]
         [4. 2.]]
    """
    return _rows(input_x, indices, updates, "max", "scatter_max")


def scatter_min(input_x: Tensor, indices: Any, updates: Tensor) -> Tensor:
    """Rows ``input_x[indices[i, ..., j]]`` become their minimum with ``updates[i, ..., j, :]``, in place.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> input_x = Parameter(Tensor(np.array([[1.0, 5.0], [3.0, 2.0]]), ms.float32), name='x')
        >>> indices = Tensor(np.array([1, 0]), ms.int32)
        >>> updates = Tensor(np.array([[4.0, 1.0], [2.0, 2.0]]), ms.float32)
        >>> print(ops.scatter_min(input_x, indices, updates))
        [[1. 2.]
         [3. 1.]]
    """
    return _rows(input_x, indices, updates, "min", "scatter_min")


def _value_like(variable: Tensor, value: Any, op: str) -> Tensor:
    v = to_tensor(value, variable)
    if v._data.dtype != variable._data.dtype:
        v = cast(v, variable._data.dtype)
    try:
        shape = np.broadcast_shapes(tuple(v._data.shape), tuple(variable._data.shape))
    except ValueError:
        shape = None
    if shape != tuple(variable._data.shape):
        raise ValueError(f"{op}: value of shape {tuple(v.shape)} does not broadcast to the variable's shape "
                         f"{tuple(variable.shape)}")
    return v if tuple(v._data.shape) == shape else broadcast_to(v, variable.shape)


def assign(variable: Tensor, value: Any) -> Tensor:
    """Set ``variable`` (a Parameter or Tensor) to ``value`` (cast to its dtype) and return it.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> variable = Parameter(Tensor(np.array([1.0]), ms.float32), name='v')
        >>> value = Tensor(np.array([2.0]), ms.float32)
        >>> out = ops.assign(variable, value)
        >>> print(variable)
        Parameter (name=v, shape=(1,), dtype=Float32, requires_grad=True)
    """
    variable = to_tensor(variable)
    v = _value_like(variable, value, "assign")
    if v is value and isinstance(value, Tensor):
        from cellonnx.ops.prims.array_misc import deepcopy
        v = deepcopy(v)  # the variable must not share storage with the value it was set from
    return write_back(variable, v, "assign")


def assign_add(variable: Tensor, value: Any) -> Tensor:
    """``variable += value`` in place; returns the updated variable.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> variable = Parameter(Tensor(np.array([1.0]), ms.float32), name='v')
        >>> ops.assign_add(variable, Tensor(np.array([2.0]), ms.float32))
        Tensor(shape=[1], dtype=Float32, value= [ 3.00000000e+00])
        >>> print(variable)
        Parameter (name=v, shape=(1,), dtype=Float32, requires_grad=True)
    """
    variable = to_tensor(variable)
    new = add(current(variable), _value_like(variable, value, "assign_add"))
    return write_back(variable, new, "assign_add")


def assign_sub(variable: Tensor, value: Any) -> Tensor:
    """``variable -= value`` in place; returns the updated variable.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> variable = Parameter(Tensor(np.array([1.0]), ms.float32), name='v')
        >>> ops.assign_sub(variable, Tensor(np.array([2.0]), ms.float32))
        Tensor(shape=[1], dtype=Float32, value= [-1.00000000e+00])
        >>> print(variable)
        Parameter (name=v, shape=(1,), dtype=Float32, requires_grad=True)
    """
    variable = to_tensor(variable)
    new = sub(current(variable), _value_like(variable, value, "assign_sub"))
    return write_back(variable, new, "assign_sub")


def zero_(input: Tensor) -> Tensor:
    """Fill ``input`` with zeros in place and return it.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.zero_(x))
        [0. 0.]
    """
    from cellonnx.ops.prims.creation import zeros_like
    input = to_tensor(input)
    return write_back(input, zeros_like(input), "zero_")


def put_(input: Tensor, index: Any, source: Tensor, accumulate: bool = False) -> Tensor:
    """Write (or, with ``accumulate``, add) ``source`` at the positions ``index`` of the flattened ``input``,
    in place; ``index`` and ``source`` hold the same number of elements. Returns ``input``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> index = Tensor(np.array([0, 3]), ms.int64)
        >>> source = Tensor(np.array([9.0, 8.0]), ms.float32)
        >>> print(ops.put_(x, index, source))
        [[9. 2.]
         [3. 8.]]
    """
    x = to_tensor(input)
    idx = _int64(_index(index, "put_"))
    src = to_tensor(source, x)
    if src._data.dtype != x._data.dtype:
        src = cast(src, x._data.dtype)
    if idx._data.size != src._data.size:
        raise ValueError(f"put_: index has {idx._data.size} elements but source has {src._data.size}")
    flat = reshape(current(x), (-1,))
    pos, vals = reshape(idx, (-1, 1)), reshape(src, (-1,))
    new = ScatterNDAdd.apply(flat, pos, vals) if accumulate else ScatterNDSet.apply(flat, pos, vals)
    return write_back(x, reshape(new, x.shape), "put_")


TENSOR_METHODS = {"scatter_div": scatter_div, "scatter_mul": scatter_mul, "scatter_max": scatter_max,
                  "scatter_min": scatter_min, "scatter_update": scatter_update, "zero_": zero_, "put_": put_}

__all__ = ["assign", "assign_add", "assign_sub", "put_", "scatter_div", "scatter_max", "scatter_min",
           "scatter_mul", "scatter_nd_add", "scatter_nd_div", "scatter_nd_max", "scatter_nd_min",
           "scatter_nd_mul", "scatter_nd_sub", "scatter_nd_update", "scatter_update", "zero_"]
