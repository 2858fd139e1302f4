"""Matrix products: matmul (NumPy broadcasting semantics), bmm, dense."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims._util import promote, sum_to
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

_NATIVE = (np.dtype(np.float32), np.dtype(np.float64))


def _keep_dtype(out: np.ndarray, like: np.ndarray) -> np.ndarray:
    # NumPy hands back float32 for a bfloat16 (ml_dtypes) product; the result keeps its inputs' dtype
    return out.astype(like.dtype) if out.dtype != like.dtype and like.dtype.kind == "V" else out


class MatMul(Op):
    def forward(self, a, b):
        if a.ndim > 2 and b.ndim == 2:  # a stack times one matrix: one GEMM over all rows, not one per item
            out = np.matmul(a.reshape(-1, a.shape[-1]), b).reshape(a.shape[:-1] + b.shape[-1:])
            return _keep_dtype(out, a)
        return _keep_dtype(np.matmul(a, b), a)

    def backward(self, ctx, g):
        from cellonnx.ops.prims.shape import expand_dims, reshape, swapaxes
        a, b = ctx.inputs
        ga = gb = None
        if a.ndim == 1 and b.ndim == 1:  # dot product
            return (mul_(g, b) if a.requires_grad else None, mul_(g, a) if b.requires_grad else None)
        a2 = expand_dims(a, 0) if a.ndim == 1 else a
        b2 = expand_dims(b, -1) if b.ndim == 1 else b
        g2 = g
        if a.ndim == 1:
            g2 = expand_dims(g2, -2)
        if b.ndim == 1:
            g2 = expand_dims(g2, -1)
        if a.requires_grad:
            ga = sum_to(matmul(g2, swapaxes(b2, -1, -2)), a2.shape)
            ga = reshape(ga, a.shape)
        if b.requires_grad and a2.ndim > 2 and b2.ndim == 2:  # one GEMM over all rows, not a stack then a sum
            k, n = b2.shape
            gb = reshape(matmul(swapaxes(reshape(a2, (-1, k)), -1, -2), reshape(g2, (-1, n))), b.shape)
        elif b.requires_grad:
            gb = sum_to(matmul(swapaxes(a2, -1, -2), g2), b2.shape)
            gb = reshape(gb, b.shape)
        return ga, gb

    def lower(self, g, a, b):
        return g.op("MatMul", a, b)

    def check(self, a, b):
        return f"shapes {a.shape} and {b.shape} are not aligned for matmul (last dim of the first must equal " \
               f"the second-to-last of the second)"


class Gemm(Op):
    """x @ w.T + b for 2-D x: the Dense layer's primitive, lowered to one ONNX Gemm."""

    def forward(self, x, w, b):
        out = x @ w.T
        out += b
        return _keep_dtype(out, x)

    def backward(self, ctx, g):
        x, w, b = ctx.inputs
        gw = None
        if w.requires_grad:
            dest = ctx.grad_out(1)
            gd, xd = g._data, x._data
            if dest is not None and dest.dtype == gd.dtype == xd.dtype and dest.dtype in _NATIVE:
                # an unrecorded pass offering the weight's place in an all-reduce bucket: written there
                gw = Tensor._make(np.matmul(gd.T, xd, out=dest))
            else:
                gw = matmul(transpose_(g), x)
        return (matmul(g, w) if x.requires_grad else None, gw,
                sum_to(g, b.shape) if b.requires_grad else None)

    def lower(self, g, x, w, b):
        return g.op("Gemm", x, w, b, transB=1)

    def check(self, x, w, b):
        return f"dense: input {x.shape} does not match weight {w.shape} (expected input[-1] == weight[1]) " \
               f"and bias {b.shape}"


def mul_(a: Tensor, b: Tensor) -> Tensor:
    from cellonnx.ops.prims.math import mul
    return mul(a, b)


def transpose_(x: Tensor) -> Tensor:
    from cellonnx.ops.prims.shape import transpose
    return transpose(x, (1, 0))


def matmul(input: Any, other: Any) -> Tensor:
    """Matrix product of two tensors, broadcasting the batch axes (as ``numpy.matmul``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.arange(6).reshape(2, 3), ms.float32)
        >>> b = Tensor(np.ones((3, 2)), ms.float32)
        >>> print(ops.matmul(a, b))
        [[ 3.  3.]
         [12. 12.]]
        >>> batch = Tensor(np.ones((4, 2, 3)), ms.float32)
        >>> ops.matmul(batch, b).shape
        (4, 2, 2)
    """
    return MatMul.apply(*promote(input, other))


def bmm(input_x: Tensor, mat2: Tensor) -> Tensor:
    """Batched matrix product of two 3-D tensors ``(b, n, m) @ (b, m, p)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> b = Tensor(np.ones((2, 4, 5)), ms.float32)
        >>> output = ops.bmm(a, b)
        >>> output.shape
        (2, 3, 5)
        >>> print(output[0, 0])
        [4. 4. 4. 4. 4.]
    """
    if input_x.ndim < 3 or mat2.ndim < 3:
        raise ValueError(f"bmm: expected batched 3-D+ inputs, got shapes {tuple(input_x.shape)} and "
                         f"{tuple(mat2.shape)}")
    return matmul(input_x, mat2)


def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """The product of an (n, m) and an (m, p) matrix, (n, p) (MindSpore's ``ops.mm``: 2-D inputs only).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> b = Tensor(np.array([[1.0, 0.0], [1.0, 1.0]]), ms.float32)
        >>> print(ops.mm(a, b))
        [[3. 2.]
         [7. 4.]]
    """
    if input.ndim != 2 or mat2.ndim != 2 or input.shape[1] != mat2.shape[0]:
        raise ValueError(f"mm: expected matrices of shapes (n, m) and (m, p), got {tuple(input.shape)} and "
                         f"{tuple(mat2.shape)}")
    return matmul(input, mat2)


def dense(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias`` (weight is (out_channels, in_channels), as in MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 3.0]]), ms.float32)
        >>> weight = Tensor(np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 1.0]]), ms.float32)
        >>> bias = Tensor(np.array([0.5, -6.0]), ms.float32)
        >>> print(ops.dense(x, weight, bias))
        [[1.5 0. ]]
    """
    from cellonnx.ops.prims.math import add
    from cellonnx.ops.prims.shape import transpose
    if input.ndim == 2 and bias is not None and bias.ndim == 1:
        return Gemm.apply(input, weight, bias)
    out = matmul(input, transpose(weight, (1, 0)))
    return add(out, bias) if bias is not None else out

__all__ = ["bmm", "dense", "matmul", "mm"]
