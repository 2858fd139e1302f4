"""Embedding lookup: Gather on axis 0 of the table; its gradient scatter-adds the output gradient into
zeros of the table's shape (ONNX ScatterND with reduction='add' from opset 16, a one-hot MatMul before)."""
from __future__ import annotations

import numpy as np
from onnx import numpy_helper

from cellonnx import dtypes
from cellonnx.ops import registry
from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Parameter, Tensor


def _flat_index(idx: np.ndarray, num: int) -> np.ndarray:
    flat = idx.reshape(-1)
    return flat + num * (flat < 0) if flat.size and flat.min() < 0 else flat


class Embedding(Op):
    """weight[indices] for a (V, D) table; padding_idx / scale_grad_by_freq only shape the gradient."""

    def forward(self, weight, indices, *, padding_idx, scale_grad_by_freq):
        return weight[indices]

    def backward(self, ctx, g, *, padding_idx, scale_grad_by_freq):
        weight, indices = ctx.inputs
        gw = EmbeddingGrad.apply(g, indices, num=int(weight._data.shape[0]), padding_idx=padding_idx,
                                 scale_grad_by_freq=scale_grad_by_freq)
        return gw, None

    def lower(self, g, weight, indices, *, padding_idx, scale_grad_by_freq):
        return g.op("Gather", weight, indices, axis=0)

    def check(self, weight, indices, *, padding_idx, scale_grad_by_freq):
        v = weight.shape[0]
        if indices.size and (indices.min() < -v or indices.max() >= v):
            return f"indices must lie in [0, {v}) for a table of {v} rows, got values in " \
                   f"[{indices.min()}, {indices.max()}]"
        return None


class EmbeddingGrad(Op):
    """Scatter-add of g (indices.shape + (D,)) into zeros (num, D): the embedding's weight gradient. Rows at
    ``padding_idx`` stay zero; with ``scale_grad_by_freq`` each contribution is divided by the number of
    times its index occurs."""

    def forward(self, g, indices, *, num, padding_idx, scale_grad_by_freq):
        idx = _flat_index(indices, num)
        rows = g.reshape(idx.size, -1)
        if scale_grad_by_freq:
            counts = np.bincount(idx, minlength=num).astype(g.dtype)
            rows = rows / counts[idx][:, None]
        out = np.zeros((num, rows.shape[1]), dtype=g.dtype)
        np.add.at(out, idx, rows)
        if padding_idx is not None:
            out[padding_idx] = 0
        return out.reshape((num,) + g.shape[indices.ndim:])

    def backward(self, ctx, gg, *, num, padding_idx, scale_grad_by_freq):
        from cellonnx.ops.prims.math import mul
        from cellonnx.ops.prims.shape import expand_dims
        g, indices = ctx.inputs
        out = Embedding.apply(gg, indices, padding_idx=None, scale_grad_by_freq=False)
        idx = _flat_index(indices._data, num)
        factor = np.ones(idx.size, dtype=g._data.dtype)
        if padding_idx is not None:
            factor[idx == padding_idx] = 0
        if scale_grad_by_freq:
            factor /= np.bincount(idx, minlength=num)[idx]
        if padding_idx is not None or scale_grad_by_freq:
            f = Tensor._make(factor.reshape(indices._data.shape))
            out = mul(out, expand_dims(f, -1)) if out.ndim > f.ndim else mul(out, f)
        return out, None

    def lower(self, g, grad, indices, *, num, padding_idx, scale_grad_by_freq):
        gt = g.in_tensors[0]
        lead = g.in_tensors[1]._data.ndim
        dt = gt._data.dtype
        idx = g.op("Reshape", indices, g.i64([-1]))
        if g.in_tensors[1]._data.dtype != np.int64:
            idx = g.op("Cast", idx, to=dtypes.int64.onnx)
        # the feature dims (the table's width) read from grad, so a graph whose width is dynamic follows it
        rows = g.op("Flatten", grad, axis=lead)  # (lookups, width)
        feat = g.op("Shape", grad, start=lead) if g.opset >= 15 else \
            g.op("Slice", g.op("Shape", grad), g.i64([lead]), g.i64([gt.ndim]))
        if g.opset >= 16:
            def zeros_of(shape: str) -> str:
                return g.op("ConstantOfShape", shape, value=numpy_helper.from_array(np.zeros(1, dt)))
            scatter_idx = g.unsqueeze(idx, [1])
            if scale_grad_by_freq:
                ones = g.op("Expand", g.like(1.0), g.op("Shape", idx))
                counts = g.op("ScatterND", zeros_of(g.i64([num])), scatter_idx, ones, reduction="add")
                rows = g.op("Div", rows, g.unsqueeze(g.op("Gather", counts, idx, axis=0), [1]))
            table = g.op("Concat", g.i64([num]), g.op("Shape", rows, start=1), axis=0)
            out = g.op("ScatterND", zeros_of(table), scatter_idx, rows, reduction="add")
        else:
            onehot = g.op("Cast", g.op("Equal", g.unsqueeze(idx, [1]), g.i64(np.arange(num))),
                          to=dtypes.dtype(dt).onnx)
            if scale_grad_by_freq:
                counts = g.axes([0], "ReduceSum", onehot, keepdims=0)
                rows = g.op("Div", rows, g.unsqueeze(g.op("Gather", counts, idx, axis=0), [1]))
            out = g.op("MatMul", g.op("Transpose", onehot, perm=[1, 0]), rows)
        if padding_idx is not None:
            keep = np.ones((num, 1), dtype=dt)
            keep[padding_idx] = 0
            out = g.op("Mul", out, g.const(keep))
        return g.op("Reshape", out, g.op("Concat", g.i64([num]), feat, axis=0))


def _renorm_rows(weight: Tensor, idx: np.ndarray, max_norm: float, norm_type: float) -> None:
    """Scale the rows of ``weight`` looked up by ``idx`` whose p-norm exceeds max_norm, in place."""
    table = weight._data
    rows = np.unique(_flat_index(idx, table.shape[0]))
    norms = np.linalg.norm(table[rows].reshape(rows.size, -1), ord=norm_type, axis=1)
    big = norms > max_norm
    if not big.any():
        return
    new = table.copy()
    scale = (max_norm / (norms[big] + 1e-7)).astype(table.dtype)
    new[rows[big]] *= scale.reshape((-1,) + (1,) * (table.ndim - 1))
    if isinstance(weight, Parameter):
        weight._assign_array(new)
    else:
        weight._data = new


def _renorm_lookup(out: Tensor, max_norm: float, norm_type: float) -> Tensor:
    """The max_norm rescaling applied to looked-up rows with ops (so a traced graph computes it)."""
    from cellonnx.ops.prims.math import abs as fabs
    from cellonnx.ops.prims.math import add, div, greater, mul, pow, where
    from cellonnx.ops.prims.reduce import sum as rsum
    norm = pow(rsum(pow(fabs(out), float(norm_type)), -1, keepdim=True), 1.0 / norm_type)
    return where(greater(norm, max_norm), mul(out, div(max_norm, add(norm, 1e-7))), out)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False) -> Tensor:
    """Look up the rows of ``weight`` named by the indices in ``input``.

    Args:
        input (Tensor): indices in [0, weight.shape[0]); integer, or float (cast to int64, as MXNet Gluon
            feeds them).
        weight (Union[Parameter, Tensor]): the (V, D) table.
        padding_idx (int, optional): this row gets no gradient. In [-V, V). Default None.
        max_norm (float, optional): rows looked up whose ``norm_type``-norm exceeds ``max_norm`` are scaled
            to ``max_norm / (norm + 1e-7)`` times themselves, in place in ``weight`` (while tracing, the
            scaling is applied to the looked-up rows in the graph instead). Default None.
        norm_type (float): p of that norm. Default 2.0.
        scale_grad_by_freq (bool): divide each gradient contribution by its index's count in ``input``.
            Default False.

    Returns:
        Tensor of shape ``input.shape + (D,)`` and ``weight``'s dtype. ONNX: Gather(axis=0).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> weight = Tensor(np.arange(8).reshape(4, 2), ms.float32)
        >>> ids = Tensor(np.array([[3, 0], [1, 1]]), ms.int32)
        >>> print(ops.embedding(ids, weight))
        [[[6. 7.]
          [0. 1.]]
        <BLANKLINE>
         [[2. 3.]
          [2. 3.]]]
    """
    from cellonnx.ops.prims.math import cast

    idx = to_tensor(input)
    w = to_tensor(weight)
    if w.ndim != 2:
        raise ValueError(f"embedding: weight must be a 2-D (num_embeddings, embedding_dim) table, got shape "
                         f"{tuple(w._data.shape)}")
    if is_float_dtype(idx._data.dtype):
        idx = cast(idx, np.int64)
    elif idx._data.dtype.kind not in "iu":
        raise TypeError(f"embedding: input must hold integer (or float) indices, got {idx.dtype}")
    num = int(w._data.shape[0])
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise ValueError(f"embedding: padding_idx {padding_idx} is out of range [-{num}, {num})")
        padding_idx = int(padding_idx) % num
    tracing = registry.TRACE_HOOK is not None
    if max_norm is not None and not tracing:
        _renorm_rows(w, idx._data, float(max_norm), float(norm_type))
    out = Embedding.apply(w, idx, padding_idx=padding_idx, scale_grad_by_freq=bool(scale_grad_by_freq))
    if max_norm is not None and tracing:
        out = _renorm_lookup(out, float(max_norm), float(norm_type))
    return out


__all__ = ["embedding"]
