"""Small array primitives, one ONNX node (or a short fixed chain) each: the run-time shape (dyn_shape), a
copy (deepcopy), the bit count (population_count) and least squares (lstsq)."""
from __future__ import annotations

import numpy as np
import onnx

from cellonnx import dtypes
from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class DynShape(Op):
    """The shape of ``x`` as a 1-D int64 tensor, read at run time in a graph (ONNX Shape)."""

    differentiable = False

    def forward(self, x):
        return np.asarray(x.shape, dtype=np.int64)

    def lower(self, g, x):
        return g.op("Shape", x)


class Copy(Op):
    """A new tensor holding the values of ``x`` (gradient passes through)."""

    def forward(self, x):
        return x.copy()

    def backward(self, ctx, g):
        return (g,)

    def lower(self, g, x):
        return g.op("Identity", x)


class PopulationCount(Op):
    """The number of 1 bits of each integer (two's complement for negatives), as uint8."""

    differentiable = False

    def forward(self, x):
        u = x.view(_UNSIGNED[x.dtype.itemsize]) if x.dtype.kind == "i" else x
        as_bytes = np.ascontiguousarray(u).view(np.uint8).reshape(u.shape + (x.dtype.itemsize,))
        return np.unpackbits(as_bytes, axis=-1).sum(axis=-1, dtype=np.uint8)

    def lower(self, g, x):
        dt = g.in_tensors[0]._data.dtype
        bits = 8 * dt.itemsize
        udt = np.dtype(_UNSIGNED[dt.itemsize])
        u = g.op("Cast", x, to=dtypes.dtype(udt).onnx) if dt.kind == "i" else x
        two = g.const(np.asarray(2, udt))
        total = None
        # sum over k of (u >> k) mod 2, added in int32 (Add takes no uint8 before opset 14)
        for k in range(bits):
            shifted = g.op("BitShift", u, g.const(np.asarray(k, udt)), direction="RIGHT") if k else u
            bit = g.op("Cast", g.op("Mod", shifted, two), to=onnx.TensorProto.INT32)
            total = bit if total is None else g.op("Add", total, bit)
        return g.op("Cast", total, to=onnx.TensorProto.UINT8)

    def check(self, x):
        return f"expected an integer tensor, got {x.dtype}"


class Lstsq(Op):
    """The least-squares solution X of ``a @ X = b`` (minimum norm when underdetermined); float64 inside.

    ONNX has no least-squares (nor matrix inverse) node, so this op runs eagerly only; MindSpore defines no
    gradient for it either."""

    differentiable = False

    def forward(self, a, b):
        out = np.linalg.lstsq(a.astype(np.float64), b.astype(np.float64), rcond=None)[0]
        return out.astype(a.dtype)

    def lower(self, g, a, b):
        raise NotImplementedError("ops.lstsq cannot be exported: ONNX has no least-squares or matrix inverse "
                                  "operator; compute it outside the exported graph")

    def check(self, a, b):
        return f"expected a of shape (m, n) and b of shape (m, k), got {a.shape} and {b.shape}"


# ---------------------------------------------------------------- functional API
def dyn_shape(input_x: Tensor) -> Tensor:
    """The shape of ``input_x`` as a 1-D int64 tensor; in an exported graph it is read at run time.

    Examples:
        >>> ops.dyn_shape(ops.zeros((2, 3)))
        Tensor(shape=[2], dtype=Int64, value= [2, 3])
    """
    return DynShape.apply(to_tensor(input_x))


def deepcopy(input_x: Tensor) -> Tensor:
    """A copy of ``input_x`` (new storage; gradients pass through).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.deepcopy(x))
        [1. 2.]
    """
    return Copy.apply(to_tensor(input_x))


def population_count(input_x: Tensor) -> Tensor:
    """The number of 1 bits in each element (negative numbers in two's complement), as uint8.

    Args:
        input_x (Tensor): an integer tensor (int8 ... int64, uint8 ... uint64).

    Examples:
        >>> ops.population_count(Tensor(np.array([0, 1, -1, 7], np.int16)))
        Tensor(shape=[4], dtype=UInt8, value= [ 0,  1, 16,  3])
    """
    x = to_tensor(input_x)
    if x._data.dtype.kind not in "iu":
        raise TypeError(f"population_count: input_x must be an integer tensor, got {x.dtype}")
    return PopulationCount.apply(x)


def lstsq(input: Tensor, A: Tensor) -> Tensor:
    """Least squares: the X minimising ``||input @ X - A||`` (the minimum-norm one when there are many).

    Args:
        input (Tensor): float matrix of shape (m, n).
        A (Tensor): right-hand side of shape (m, k) or (m,).

    Returns:
        Tensor of shape (n, k) (or (n,)), the dtype of ``input``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), ms.float32)
        >>> b = Tensor(np.array([[1.0], [2.0], [3.0]]), ms.float32)
        >>> print(ops.lstsq(a, b).asnumpy().round(4))
        [[1.]
         [2.]]
    """
    a, b = to_tensor(input), to_tensor(A)
    if not is_float_dtype(a._data.dtype) or not is_float_dtype(b._data.dtype):
        raise TypeError(f"lstsq: input and A must be float tensors, got {a.dtype} and {b.dtype}")
    if a.ndim != 2 or b.ndim not in (1, 2) or a._data.shape[0] != b._data.shape[0]:
        raise ValueError(f"lstsq: expected input (m, n) and A (m, k), got {tuple(a.shape)} and "
                         f"{tuple(b.shape)}")
    from cellonnx.ops.prims.math import cast
    return Lstsq.apply(a, cast(b, a._data.dtype))


__all__ = ["deepcopy", "dyn_shape", "lstsq", "population_count"]
