"""Evenly spaced values and stacking over primitives: linspace, logspace, atleast_1d / 2d / 3d, vstack
(row_stack), dstack and rot90."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as _ops
from cellonnx.ops.prims._util import is_float_dtype, norm_axis, to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _endpoint(v: Any, dtype: Any) -> Tensor:
    t = v if isinstance(v, Tensor) else Tensor(np.asarray(v, dtypes.to_numpy(dtype)))
    if t._data.size != 1:
        raise ValueError(f"start and end must be scalars, got shape {tuple(t.shape)}")
    return F.reshape(t, ())


def linspace(start: Any, end: Any, steps: int) -> Tensor:
    """``steps`` values evenly spaced from ``start`` to ``end`` (both included), float32 unless a tensor
    endpoint says otherwise.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.linspace(0.0, 1.0, 5))
        [0.   0.25 0.5  0.75 1.  ]
    """
    steps = int(steps._data) if isinstance(steps, Tensor) else int(steps)
    if steps < 1:
        raise ValueError(f"linspace: steps must be positive, got {steps}")
    a = _endpoint(start, dtypes.float32)
    b = _endpoint(end, dtypes.float32)
    if not is_float_dtype(a._data.dtype):
        a = F.cast(a, np.float32)
    b = F.cast(b, a._data.dtype)
    if steps == 1:
        return F.reshape(a, (1,))
    frac = Tensor(np.arange(steps, dtype=a._data.dtype) / np.asarray(steps - 1, a._data.dtype))
    out = F.add(a, F.mul(F.sub(b, a), frac))
    # the last value is end itself (the product can miss it by a rounding)
    mask = Tensor(np.arange(steps) == steps - 1)
    return F.where(mask, F.broadcast_to(b, (steps,)), out)


def logspace(start: Any, end: Any, steps: int, base: int = 10, *, dtype: Any = dtypes.float32) -> Tensor:
    """``base ** linspace(start, end, steps)`` in ``dtype`` (a float type).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> start = Tensor(0.0, ms.float32)
        >>> end = Tensor(2.0, ms.float32)
        >>> print(ops.logspace(start, end, 3))
        [  1.  10. 100.]
    """
    dt = dtypes.to_numpy(dtype)
    if not is_float_dtype(dt):
        raise TypeError(f"logspace: dtype must be a float type, got {dtypes.dtype(dt)}")
    exps = F.cast(linspace(start, end, steps), np.float64)
    return F.cast(F.pow(F.full_like(exps, float(base)), exps), dt)


def _atleast(inputs: Any, n: int, op: str) -> Any:
    def one(t: Any) -> Tensor:
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}: expected a Tensor or a list of Tensors, got {type(t).__name__}")
        if t.ndim >= n:
            return t
        if n == 3 and t.ndim == 1:
            return F.reshape(t, (1, -1, 1))
        if n == 3 and t.ndim == 2:
            return F.expand_dims(t, -1)
        return F.reshape(t, (1,) * (n - t.ndim) + tuple(t.shape))

    if isinstance(inputs, Tensor):
        return one(inputs)
    return tuple(one(t) for t in inputs)


def atleast_1d(inputs: Any) -> Any:
    """A tensor (or tuple of tensors) with at least one dimension.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(3.0, ms.float32)
        >>> ops.atleast_1d(x).shape
        (1,)
    """
    return _atleast(inputs, 1, "atleast_1d")


def atleast_2d(inputs: Any) -> Any:
    """A tensor (or tuple of tensors) with at least two dimensions (1-D ``(N,)`` becomes ``(1, N)``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> ops.atleast_2d(x).shape
        (1, 2)
    """
    return _atleast(inputs, 2, "atleast_2d")


def atleast_3d(inputs: Any) -> Any:
    """A tensor (or tuple of tensors) with at least three dimensions (``(N,)`` becomes ``(1, N, 1)``,
    ``(M, N)`` becomes ``(M, N, 1)``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> ops.atleast_3d(x).shape
        (1, 2, 1)
    """
    return _atleast(inputs, 3, "atleast_3d")


def vstack(inputs: Any) -> Tensor:
    """Stack tensors by rows (1-D ones become rows first).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1, 2]), ms.int32)
        >>> b = Tensor(np.array([3, 4]), ms.int32)
        >>> print(ops.vstack([a, b]))
        [[1 2]
         [3 4]]
    """
    return F.concat(list(atleast_2d(tuple(inputs))), 0)


def row_stack(tensors: Any) -> Tensor:
    """Alias of :func:`vstack`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1, 2]), ms.int32)
        >>> b = Tensor(np.array([3, 4]), ms.int32)
        >>> print(ops.row_stack([a, b]))
        [[1 2]
         [3 4]]
    """
    return vstack(tensors)


def dstack(tensors: Any) -> Tensor:
    """Stack tensors along the third axis (after making them at least 3-D).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1, 2]), ms.int32)
        >>> b = Tensor(np.array([3, 4]), ms.int32)
        >>> ops.dstack([a, b]).shape
        (1, 2, 2)
    """
    return F.concat(list(atleast_3d(tuple(tensors))), 2)


def rot90(input: Tensor, k: int, dims: Any) -> Tensor:
    """Rotate by 90 degrees ``k`` times in the plane of ``dims``, from the first axis toward the second.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
        >>> print(ops.rot90(x, 1, (0, 1)))
        [[2 4]
         [1 3]]
    """
    x = to_tensor(input)
    if not isinstance(dims, (list, tuple)) or len(dims) != 2:
        raise ValueError(f"rot90: dims must be a pair of axes, got {dims!r}")
    d0, d1 = (norm_axis(int(d), x.ndim, "rot90") for d in dims)
    if d0 == d1:
        raise ValueError(f"rot90: dims must be different, got {tuple(dims)}")
    k = int(k) % 4
    if k == 0:
        return x
    if k == 2:
        return F.flip(x, (d0, d1))
    perm = list(range(x.ndim))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    if k == 1:
        return F.transpose(F.flip(x, (d1,)), tuple(perm))
    return F.flip(F.transpose(x, tuple(perm)), (d1,))


__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "dstack", "linspace", "logspace", "rot90", "row_stack",
           "vstack"]
