"""Shape primitives: reshape, transpose, expand_dims, squeeze, broadcast_to."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx.graph.symint import is_symbolic, same_dim
from cellonnx.ops.prims._util import norm_axis, to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


class Reshape(Op):
    saved_inputs = ()  # backward reads only the shapes
    def forward(self, x, *, shape):
        return x.reshape(shape)

    def backward(self, ctx, g, *, shape):
        return (reshape(g, ctx.inputs[0].shape),)

    def lower(self, g, x, *, shape):
        if any(not is_symbolic(d) and int(d) == -1 for d in shape):
            shape = _rest_resolved(g.in_tensors[0].shape, shape)
        return g.op("Reshape", x, g.shape_value(shape))

    def check(self, x, *, shape):
        return f"cannot reshape {x.size} elements into shape {tuple(shape)}"


class Transpose(Op):
    saved_inputs = ()  # backward reads only the shapes
    def forward(self, x, *, perm):
        return np.transpose(x, perm)

    def backward(self, ctx, g, *, perm):
        return (transpose(g, tuple(int(i) for i in np.argsort(perm))),)

    def lower(self, g, x, *, perm):
        return g.op("Transpose", x, perm=list(perm))

    def check(self, x, *, perm):
        return f"perm {tuple(perm)} is not a permutation of the {x.ndim} axes"


class ExpandDims(Op):
    saved_inputs = ()  # backward reads only the shapes
    def forward(self, x, *, axes):
        return np.expand_dims(x, axes)

    def backward(self, ctx, g, *, axes):
        return (reshape(g, ctx.inputs[0].shape),)

    def lower(self, g, x, *, axes):
        return g.unsqueeze(x, axes)


class Squeeze(Op):
    saved_inputs = ()  # backward reads only the shapes
    def forward(self, x, *, axes):
        return np.squeeze(x, axes)

    def backward(self, ctx, g, *, axes):
        return (reshape(g, ctx.inputs[0].shape),)

    def lower(self, g, x, *, axes):
        # axes None: every axis of size 1 at run time (a graph whose dims are symbolic)
        return g.op("Squeeze", x) if axes is None else g.squeeze(x, axes)

    def check(self, x, *, axes):
        return f"cannot squeeze axes {axes} of shape {x.shape}: only size-1 axes can be squeezed"


class BroadcastTo(Op):
    def forward(self, x, *, shape):
        return np.broadcast_to(x, shape)

    def backward(self, ctx, g, *, shape):
        from cellonnx.ops.prims._util import sum_to
        return (sum_to(g, ctx.inputs[0].shape),)

    def lower(self, g, x, *, shape):
        return g.op("Expand", x, g.shape_value(shape))

    def check(self, x, *, shape):
        return f"shape {x.shape} cannot broadcast to {tuple(shape)}"


# ---------------------------------------------------------------- functional API
def _rest_resolved(in_shape: tuple, shape: tuple) -> tuple:
    """``shape`` with its -1 given as the int it is at every size where the dims cancel out (``(batch, -1)``
    of ``(batch, 3, 4)`` is ``(batch, 12)``), or as the one dim left (``(b, -1)`` of ``(b, t)``): ONNX shape
    inference then knows that dim, where a -1 beside a dynamic dim leaves it unknown to the ops after."""
    rest = [k for k, d in enumerate(shape) if not is_symbolic(d) and int(d) == -1]
    if len(rest) != 1 or not is_symbolic(in_shape):
        return shape
    num = [f for d in in_shape for f in _factors(d)]
    den = [f for k, d in enumerate(shape) if k != rest[0] for f in _factors(d)]
    left = []
    for f in num:
        if not is_symbolic(f):
            continue
        match = next((k for k, e in enumerate(den) if is_symbolic(e) and same_dim(f, e)), None)
        if match is None:
            left.append(f)
        else:
            den.pop(match)
    if is_symbolic(den) or len(left) > 1:
        return shape
    whole = math.prod(int(f) for f in num if not is_symbolic(f))
    part = math.prod(int(f) for f in den)
    if part == 0 or whole % part:
        return shape
    size = whole // part
    if left and size != 1:
        return shape
    return (*shape[:rest[0]], left[0] if left else size, *shape[rest[0] + 1:])


def _factors(d: Any) -> tuple:
    return d.factors if is_symbolic(d) else (int(d),)


def _resolve_shape(x: Tensor, shape: Any) -> tuple:
    if isinstance(shape, Tensor):
        shape = tuple(int(v) for v in shape._data.reshape(-1))
    if isinstance(shape, (int, np.integer)):
        return (shape,)
    return tuple(shape)


def reshape(input: Tensor, shape: Any) -> Tensor:
    """Reshape; one dim may be -1. Symbolic dims (from a dynamic trace) stay symbolic.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(6), ms.float32)
        >>> print(ops.reshape(x, (2, 3)))
        [[0. 1. 2.]
         [3. 4. 5.]]
        >>> ops.reshape(x, (3, -1)).shape
        (3, 2)
    """
    input = to_tensor(input)
    shape = _resolve_shape(input, shape)
    if tuple(shape) == tuple(input.shape):
        return input
    return Reshape.apply(input, shape=shape)


def transpose(input: Tensor, dims: Any) -> Tensor:
    """Permute the axes of ``input``: output axis i is input axis ``dims[i]``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.transpose(x, (2, 0, 1)).shape
        (4, 2, 3)
    """
    perm = tuple(norm_axis(int(p), input.ndim, "transpose") for p in dims)
    if perm == tuple(range(input.ndim)):
        return input
    return Transpose.apply(input, perm=perm)


def permute(input: Tensor, axis: Any) -> Tensor:
    """Permute the axes of ``input`` to the order ``axis`` (as :func:`transpose`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.permute(x, (0, 2, 1)).shape
        (2, 4, 3)
    """
    return transpose(input, axis)


def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """``input`` with the two given axes exchanged.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.swapaxes(x, 0, 2).shape
        (4, 3, 2)
    """
    perm = list(range(input.ndim))
    a, b = norm_axis(axis0, input.ndim, "swapaxes"), norm_axis(axis1, input.ndim, "swapaxes")
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(input, perm)


def expand_dims(input_x: Tensor, axis: int) -> Tensor:
    """``input_x`` with a new axis of size 1 at position ``axis``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> ops.expand_dims(x, 0).shape
        (1, 2, 2)
    """
    return ExpandDims.apply(input_x, axes=(norm_axis(axis, input_x.ndim + 1, "expand_dims"),))


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    """``input`` with a new axis of size 1 at position ``dim`` (as :func:`expand_dims`).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> ops.unsqueeze(x, dim=0).shape
        (1, 2)
        >>> ops.unsqueeze(x, dim=1).shape
        (2, 1)
    """
    return expand_dims(input, dim)


def squeeze(input: Tensor, axis: Any = None) -> Tensor:
    """``input`` without the axes of size 1 named by ``axis`` (all of them when None).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((1, 3, 1)), ms.float32)
        >>> ops.squeeze(x).shape
        (3,)
        >>> ops.squeeze(x, 2).shape
        (1, 3)
    """
    if axis is None:
        axes = tuple(i for i, d in enumerate(input.shape) if d == 1)
    elif isinstance(axis, (tuple, list)):
        axes = tuple(sorted(norm_axis(a, input.ndim, "squeeze") for a in axis))
    else:
        axes = (norm_axis(axis, input.ndim, "squeeze"),)
    if not axes:
        return input
    return Squeeze.apply(input, axes=axes)


def broadcast_to(input: Tensor, shape: Any) -> Tensor:
    """Broadcast to ``shape``; -1 keeps the input's size in that position.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> print(ops.broadcast_to(x, (2, 3)))
        [[1. 2. 3.]
         [1. 2. 3.]]
    """
    input = to_tensor(input)
    shape = list(_resolve_shape(input, shape))
    offset = len(shape) - input.ndim
    for i, d in enumerate(shape):
        if d == -1:
            shape[i] = input.shape[i - offset]
    if tuple(shape) == tuple(input.shape):
        return input
    return BroadcastTo.apply(input, shape=tuple(shape))


def flatten(input: Tensor, order: str = "C", *, start_dim: int = 1, end_dim: int = -1) -> Tensor:
    """MindSpore's ops.flatten: keep dims before ``start_dim`` (1 by default) and merge the rest.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.flatten(x).shape
        (2, 12)
        >>> ops.flatten(x, start_dim=0).shape
        (24,)
    """
    nd = input.ndim
    if nd == 0:
        return reshape(input, (1,))
    s, e = norm_axis(start_dim, nd, "flatten"), norm_axis(end_dim, nd, "flatten")
    shape = input.shape
    merged = 1
    symbolic = False
    for d in shape[s:e + 1]:
        symbolic = symbolic or hasattr(d, "onnx_name")
        merged = merged * d
    new = tuple(shape[:s]) + (merged if not symbolic else -1,) + tuple(shape[e + 1:])
    if symbolic and sum(1 for d in new if d == -1) > 1:
        new = tuple(shape[:s]) + (merged,) + tuple(shape[e + 1:])
    return reshape(input, new)

__all__ = ["broadcast_to", "expand_dims", "flatten", "permute", "reshape", "squeeze", "swapaxes", "transpose",
           "unsqueeze"]
