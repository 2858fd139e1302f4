"""Clipping over primitives: clip_by_value, clip_by_norm, clip_by_global_norm, and the in-place updates of
MindSpore's math_func (inplace_add / inplace_sub / inplace_update / inplace_index_add, tanh_,
inplace_sigmoid, erfinv_, clamp_).

An in-place op rebinds its tensor to the new value, as ``x[index] = v`` does (cellonnx.ops.prims.getitem):
gradients flow through the new value and a compiled graph reads it. A Parameter is updated as state (its
new value has no history), as MindSpore's in-place ops update parameters."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.autograd.tape import _mode
from cellonnx.ops.prims._util import to_tensor
from cellonnx.tensor import Parameter, Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


# ---------------------------------------------------------------- clipping
def clip_by_value(x: Any, clip_value_min: Any = None, clip_value_max: Any = None) -> Any:
    """Clamp a tensor (or each tensor of a list / tuple) to [clip_value_min, clip_value_max]; either bound
    may be None (not both). Bounds are cast to each tensor's dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([-3.0, 0.5, 7.0]), ms.float32)
        >>> print(ops.clip_by_value(x, 0.0, 1.0))
        [0.  0.5 1. ]
    """
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("clip_by_value: give at least one of clip_value_min and clip_value_max")

    def one(t: Tensor) -> Tensor:
        t = to_tensor(t)
        out = t
        if clip_value_min is not None:
            out = F.maximum(out, F.cast(to_tensor(clip_value_min), t._data.dtype))
        if clip_value_max is not None:
            out = F.minimum(out, F.cast(to_tensor(clip_value_max), t._data.dtype))
        return out

    if isinstance(x, (list, tuple)):
        return type(x)(one(t) for t in x)
    return one(x)


def _total_norm(tensors: list[Tensor], norm_type: float) -> Tensor:
    def wide(t: Tensor) -> Tensor:  # half types are summed in float32
        return t if t._data.dtype in (np.float32, np.float64) else F.cast(t, np.float32)

    norms = [F.vector_norm(wide(t), norm_type) for t in tensors]
    if len({n._data.dtype for n in norms}) > 1:
        norms = [F.cast(n, np.float64) for n in norms]
    stacked = F.stack(norms)
    if norm_type == float("inf"):
        return F.amax(stacked)
    if norm_type == float("-inf"):
        return F.amin(stacked)
    return F.vector_norm(stacked, norm_type)


def clip_by_norm(x: Any, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False) -> Any:
    """Scale a tensor (or all tensors of a list / tuple together) so that their total ``norm_type``-norm
    is at most ``max_norm``: multiplied by ``max_norm / (total + 1e-6)`` when that is below 1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0]]), ms.float32)
        >>> print(ops.clip_by_norm(x, 1.0))
        [[0.5999999  0.79999983]]
    """
    single = isinstance(x, Tensor)
    tensors = [x] if single else [to_tensor(t) for t in x]
    total = _total_norm(tensors, float(norm_type))
    if error_if_nonfinite and not bool(np.isfinite(total._data)):
        raise RuntimeError(f"clip_by_norm: the total norm of order {norm_type} of the input is non-finite")
    coef = F.minimum(F.div(float(max_norm), F.add(total, 1e-6)), 1.0)
    out = [F.mul(t, F.cast(coef, t._data.dtype)) for t in tensors]
    return out[0] if single else type(x)(out)


def clip_by_global_norm(x: Any, clip_norm: float = 1.0, use_norm: Any = None) -> tuple[Tensor, ...]:
    """Scale a tuple of tensors by ``clip_norm / max(global_norm, clip_norm)``, the global norm being the
    2-norm of all their elements together (``use_norm`` gives it instead).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([3.0]), ms.float32)
        >>> b = Tensor(np.array([4.0]), ms.float32)
        >>> clipped = ops.clip_by_global_norm((a, b), clip_norm=1.0)
        >>> print(clipped[0], clipped[1])
        [0.6] [0.8]
    """
    tensors = [to_tensor(t) for t in (x if isinstance(x, (list, tuple)) else (x,))]
    total = _total_norm(tensors, 2.0) if use_norm is None else to_tensor(use_norm)
    scale = F.div(float(clip_norm), F.maximum(total, float(clip_norm)))
    return tuple(F.mul(t, F.cast(scale, t._data.dtype)) for t in tensors)


# ---------------------------------------------------------------- in-place updates
def _inplace(x: Tensor, fn: Callable[[Tensor], Tensor], op: str) -> Tensor:
    """Rebind ``x`` to ``fn(x)`` (see the module docstring)."""
    from cellonnx.autograd.tape import no_grad
    from cellonnx.ops.prims.getitem import _alias, _rebind_in_trace
    x = to_tensor(x)
    if isinstance(x, Parameter):  # a state update, as MindSpore's in-place ops on a Parameter
        with no_grad():
            new = fn(Tensor._make(x._data))
        out = F.cast(new, x._data.dtype)
        x._assign_array(out._data)
        _rebind_in_trace(new, x)
        return out  # a Tensor of the new values, not the Parameter itself, as MindSpore returns
    if _mode.enabled and x.requires_grad and x._node is None:
        raise RuntimeError(f"{op}: a leaf tensor that requires grad (an input being differentiated) cannot "
                           "be changed in place while gradients are recorded; do it under no_grad, or use "
                           "the out-of-place op")
    old = _alias(x)
    new = fn(old)
    if new._data.dtype != x._data.dtype:
        new = F.cast(new, x._data.dtype)
    x._data = new._data
    if new._node is not None:
        x._node, x._out_index, x.requires_grad = new._node, new._out_index, True
    _rebind_in_trace(new, x)
    return x


def _row_indices(indices: Any, n: int, op: str) -> Tensor:
    if isinstance(indices, Tensor):
        idx = indices._data.reshape(-1)
    else:
        idx = np.asarray([indices] if isinstance(indices, int) else list(indices)).reshape(-1)
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexError(f"{op}: indices {idx.tolist()} are out of range for {n} rows")
    return Tensor(np.where(idx < 0, idx + n, idx).astype(np.int64))


def _rows(x: Tensor, v: Tensor, idx: Tensor, op: str) -> Tensor:
    v = to_tensor(v)
    want = (int(idx._data.shape[0]),) + tuple(x._data.shape[1:])
    if tuple(v._data.shape) != want:
        raise ValueError(f"{op}: v has shape {tuple(v.shape)}, expected {want} (one row per index)")
    return F.cast(v, x._data.dtype)


def inplace_add(x: Tensor, v: Tensor, indices: Any) -> Tensor:
    """``x[indices[i]] += v[i]`` for the rows of ``x`` (in place).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> v = Tensor(np.array([[0.5, 0.5]]), ms.float32)
        >>> print(ops.inplace_add(x, v, (1,)))
        [[1.  2. ]
         [3.5 4.5]]
    """
    x = to_tensor(x)
    idx = _row_indices(indices, int(x._data.shape[0]), "inplace_add")
    rows = _rows(x, v, idx, "inplace_add")
    return _inplace(x, lambda t: F.index_add(t, idx, rows, 0), "inplace_add")


def inplace_sub(x: Tensor, v: Tensor, indices: Any) -> Tensor:
    """``x[indices[i]] -= v[i]`` for the rows of ``x`` (in place).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> v = Tensor(np.array([[0.5, 0.5]]), ms.float32)
        >>> print(ops.inplace_sub(x, v, (0,)))
        [[0.5 1.5]
         [3.  4. ]]
    """
    x = to_tensor(x)
    idx = _row_indices(indices, int(x._data.shape[0]), "inplace_sub")
    rows = _rows(x, v, idx, "inplace_sub")
    return _inplace(x, lambda t: F.index_add(t, idx, F.neg(rows), 0), "inplace_sub")


def inplace_update(x: Tensor, v: Tensor, indices: Any) -> Tensor:
    """``x[indices[i]] = v[i]`` for the rows of ``x`` (in place).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> v = Tensor(np.array([[9.0, 9.0]]), ms.float32)
        >>> indices = Tensor(np.array([1]), ms.int32)
        >>> print(ops.inplace_update(x, v, indices))
        [[1. 2.]
         [9. 9.]]
    """
    from cellonnx.ops.prims.scatter import ScatterNDSet
    x = to_tensor(x)
    idx = _row_indices(indices, int(x._data.shape[0]), "inplace_update")
    rows = _rows(x, v, idx, "inplace_update")
    return _inplace(x, lambda t: ScatterNDSet.apply(t, F.expand_dims(idx, -1), rows), "inplace_update")


def inplace_index_add(var: Tensor, indices: Tensor, updates: Tensor, axis: int) -> Tensor:
    """``var`` with the slices of ``updates`` added along ``axis`` at ``indices`` (in place).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, Parameter
        >>> var = Parameter(Tensor(np.zeros((3, 2)), ms.float32), name='var')
        >>> indices = Tensor(np.array([0, 2]), ms.int32)
        >>> updates = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.inplace_index_add(var, indices, updates, 0))
        [[1. 2.]
         [0. 0.]
         [3. 4.]]
    """
    return _inplace(var, lambda t: F.index_add(t, indices, updates, axis), "inplace_index_add")


def tanh_(input: Tensor) -> Tensor:
    """``input = tanh(input)`` in place.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> out = ops.tanh_(x)
        >>> print(x.asnumpy().round(4))
        [0.     0.7616]
    """
    return _inplace(input, F.tanh, "tanh_")


def inplace_sigmoid(input: Tensor) -> Tensor:
    """``input = sigmoid(input)`` in place.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.0, 2.0]), ms.float32)
        >>> out = ops.inplace_sigmoid(x)
        >>> print(x.asnumpy().round(4))
        [0.5    0.8808]
    """
    return _inplace(input, F.sigmoid, "inplace_sigmoid")


def erfinv_(input: Tensor) -> Tensor:
    """``input = erfinv(input)`` in place.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([0.0, 0.5]), ms.float32)
        >>> out = ops.erfinv_(x)
        >>> print(x.asnumpy().round(4))
        [0.     0.4769]
    """
    return _inplace(input, F.erfinv, "erfinv_")


def clamp_(input: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """``input = clamp(input, min, max)`` in place.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([-1.0, 0.5, 2.0]), ms.float32)
        >>> out = ops.clamp_(x, 0.0, 1.0)
        >>> print(x)
        [0.  0.5 1. ]
    """
    return _inplace(input, lambda t: F.clamp(t, min, max), "clamp_")


__all__ = ["clamp_", "clip_by_global_norm", "clip_by_norm", "clip_by_value", "erfinv_", "inplace_add",
           "inplace_index_add", "inplace_sigmoid", "inplace_sub", "inplace_update", "tanh_"]
