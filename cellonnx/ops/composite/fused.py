"""MindSpore's fused kernels (Ascend) as compositions of primitives, with the same numbers: rms_norm,
add_rms_norm, swiglu, rotary_position_embedding, ring_attention_update, moe_token_permute /
moe_token_unpermute and multi_scale_deformable_attn_function."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.ops.prims._util import is_float_dtype, norm_axis, to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _float(x: Any, op: str) -> Tensor:
    x = to_tensor(x)
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"{op}: expected a float tensor, got {x.dtype}")
    return x


def rms_norm(x: Tensor, gamma: Tensor, epsilon: float = 1e-06) -> tuple[Tensor, Tensor]:
    """Root-mean-square normalization over the last ``gamma.ndim`` axes: ``x / sqrt(mean(x^2) + eps) *
    gamma``.

    Returns:
        tuple (y, rstd): y of ``x``'s shape and dtype; rstd, the reciprocal root mean square (float32, or
        float64 for a float64 input), of ``x``'s shape with the normalized axes kept as 1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0]]), ms.float32)
        >>> gamma = Tensor(np.ones(2), ms.float32)
        >>> y, rstd = ops.rms_norm(x, gamma)
        >>> print(y.asnumpy().round(4))
        [[0.8485 1.1314]]
    """
    x, g = _float(x, "rms_norm"), _float(gamma, "rms_norm")
    if not 0 < epsilon <= 1:
        raise ValueError(f"rms_norm: epsilon must be in (0, 1], got {epsilon}")
    if g.ndim > x.ndim or tuple(x.shape[x.ndim - g.ndim:]) != tuple(g.shape):
        raise ValueError(f"rms_norm: gamma {tuple(g.shape)} must match the last axes of x {tuple(x.shape)}")
    axes = tuple(range(x.ndim - g.ndim, x.ndim))
    xf = F.cast(x, np.float32) if x._data.dtype not in (np.float32,
                                                        np.float64) else x  # half types in float32
    rstd = F.rsqrt(F.add(F.mean(F.mul(xf, xf), axes, True), float(epsilon)))
    y = F.cast(F.mul(F.mul(xf, rstd), F.cast(g, xf._data.dtype)), x._data.dtype)
    return y, rstd


def add_rms_norm(x1: Tensor, x2: Tensor, gamma: Tensor, epsilon: float = 1e-06) -> tuple[Tensor, Tensor,
                                                                                         Tensor]:
    """:func:`rms_norm` of ``x1 + x2``.

    Returns:
        tuple (y, rstd, x1 + x2).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x1 = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> x2 = Tensor(np.array([[2.0, 0.0]]), ms.float32)
        >>> gamma = Tensor(np.ones(2), ms.float32)
        >>> y, rstd, x = ops.add_rms_norm(x1, x2, gamma)
        >>> print(y.asnumpy().round(4), x)
        [[1.1767 0.7845]] [[3. 2.]]
    """
    a, b = _float(x1, "add_rms_norm"), _float(x2, "add_rms_norm")
    if tuple(a.shape) != tuple(b.shape):
        raise ValueError(f"add_rms_norm: x1 {tuple(a.shape)} and x2 {tuple(b.shape)} must have one shape")
    s = F.add(a, b)
    y, rstd = rms_norm(s, gamma, epsilon)
    return y, rstd, s


def swiglu(input: Tensor, dim: int = -1) -> Tensor:
    """SwiGLU: ``swish(a) * b`` with ``a`` and ``b`` the two halves of ``input`` along ``dim``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0, 0.0, 3.0]]), ms.float32)
        >>> print(ops.swiglu(x, dim=-1).asnumpy().round(4))
        [[0.     5.2848]]
    """
    x = _float(input, "swiglu")
    d = norm_axis(dim, x.ndim, "swiglu")
    n = int(x._data.shape[d])
    if n % 2:
        raise ValueError(f"swiglu: dimension {d} of {tuple(x.shape)} must be even")
    a, b = F.narrow(x, d, 0, n // 2), F.narrow(x, d, n // 2, n // 2)
    return F.mul(F.mul(a, F.sigmoid(a)), b)


def rotary_position_embedding(x: Tensor, cos: Tensor, sin: Tensor, mode: int = 0) -> Tensor:
    """Rotary position embedding ``x * cos + rotate(x) * sin`` over the last axis: ``mode`` 0 rotates
    halves (GPT-NeoX: ``rotate(x) = [-x2, x1]``), 1 rotates interleaved pairs (GPT-J:
    ``[-x1, x0, -x3, x2, ...]``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((1, 1, 1, 2)), ms.float32)
        >>> cos = Tensor(np.zeros((1, 1, 1, 2)), ms.float32)
        >>> sin = Tensor(np.ones((1, 1, 1, 2)), ms.float32)
        >>> print(ops.rotary_position_embedding(x, cos, sin))
        [[[[-1.  1.]]]]
    """
    x = _float(x, "rotary_position_embedding")
    c, s = to_tensor(cos), to_tensor(sin)
    dsize = int(x._data.shape[-1])
    if dsize % 2:
        raise ValueError(f"rotary_position_embedding: the last dimension of x must be even, got {dsize}")
    if mode == 0:
        x1, x2 = F.narrow(x, -1, 0, dsize // 2), F.narrow(x, -1, dsize // 2, dsize // 2)
        rotated = F.concat([F.neg(x2), x1], -1)
    elif mode == 1:
        pairs = F.reshape(x, tuple(x.shape[:-1]) + (dsize // 2, 2))
        even, odd = F.narrow(pairs, -1, 0, 1), F.narrow(pairs, -1, 1, 1)
        rotated = F.reshape(F.concat([F.neg(odd), even], -1), tuple(x.shape))
    else:
        raise ValueError(f"rotary_position_embedding: mode must be 0 or 1, got {mode}")
    return F.add(F.mul(x, F.cast(c, x._data.dtype)), F.mul(rotated, F.cast(s, x._data.dtype)))


def ring_attention_update(prev_attn_out: Tensor, prev_softmax_max: Tensor, prev_softmax_sum: Tensor,
                          cur_attn_out: Tensor, cur_softmax_max: Tensor, cur_softmax_sum: Tensor,
                          actual_seq_qlen: Tensor | None = None,
                          layout: str = "SBH") -> tuple[Tensor, Tensor, Tensor]:
    """Merge two partial attention results by their softmax statistics: with ``m = max(m1, m2)``,
    ``s_i' = exp(m_i - m) s_i`` and ``s = s_1' + s_2'``, the output is ``(s_1' o_1 + s_2' o_2) / s``.

    Layout 'SBH': outputs (S, B, N*D), statistics (B, N, S, 8); 'TND': outputs (T, N, D), statistics
    (T, N, 8) (``actual_seq_qlen``, the cumulative sequence ends, is then required as in MindSpore, though
    the merge itself is per row).

    Returns:
        tuple (attn_out, softmax_max, softmax_sum).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> o1 = ms.Tensor(np.array([[[1.0, 2.0]]], np.float32))
        >>> o2 = ms.Tensor(np.array([[[3.0, 5.0]]], np.float32))
        >>> m1 = ms.Tensor(np.zeros((1, 1, 1, 8), np.float32))
        >>> m2 = ms.Tensor(np.full((1, 1, 1, 8), np.log(3.0), np.float32))
        >>> s = ms.Tensor(np.ones((1, 1, 1, 8), np.float32))
        >>> out, m, total = ops.ring_attention_update(o1, m1, s, o2, m2, s)
        >>> print(out)
        [[[2.5  4.25]]]
        >>> print(m[0, 0, 0, 0], total[0, 0, 0, 0])
        1.0986123 1.3333334
    """
    if layout not in ("SBH", "TND"):
        raise ValueError(f"ring_attention_update: layout must be 'SBH' or 'TND', got {layout!r}")
    if layout == "TND" and actual_seq_qlen is None:
        raise ValueError("ring_attention_update: layout 'TND' needs actual_seq_qlen")
    m1, m2 = to_tensor(prev_softmax_max), to_tensor(cur_softmax_max)
    s1, s2 = to_tensor(prev_softmax_sum), to_tensor(cur_softmax_sum)
    m = F.maximum(m1, m2)
    w1 = F.mul(F.exp(F.sub(m1, m)), s1)
    w2 = F.mul(F.exp(F.sub(m2, m)), s2)
    total = F.add(w1, w2)
    r1 = F.narrow(F.div(w1, total), -1, 0, 1)   # the 8 values along the last axis are equal
    r2 = F.narrow(F.div(w2, total), -1, 0, 1)
    o1, o2 = to_tensor(prev_attn_out), to_tensor(cur_attn_out)
    if layout == "SBH":
        sq, b, h = (int(v) for v in o1._data.shape)
        n = int(m1._data.shape[1])
        # (B, N, S, 1) -> (S, B, N, 1), broadcast over D
        r1 = F.transpose(r1, (2, 0, 1, 3))
        r2 = F.transpose(r2, (2, 0, 1, 3))
        o1r, o2r = F.reshape(o1, (sq, b, n, h // n)), F.reshape(o2, (sq, b, n, h // n))
        out = F.reshape(F.add(F.mul(o1r, F.cast(r1, o1.dtype)), F.mul(o2r, F.cast(r2, o1.dtype))), (sq, b, h))
    else:
        out = F.add(F.mul(o1, F.cast(r1, o1.dtype)), F.mul(o2, F.cast(r2, o1.dtype)))
    return out, m, total


def moe_token_permute(tokens: Tensor, indices: Tensor, num_out_tokens: int | None = None,
                      padded_mode: bool = False) -> tuple[Tensor, Tensor]:
    """Group tokens by expert: the rows of ``tokens`` (num_tokens, hidden) repeated for each of their topk
    expert ``indices`` (num_tokens, topk) and sorted by expert (stably).

    Returns:
        tuple (permuted_tokens, sorted_indices int32): the row where each (token, k) entry went, in the
        order of the flattened ``indices``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> tokens = Tensor(np.array([[1.0], [2.0], [3.0]]), ms.float32)
        >>> indices = Tensor(np.array([[1], [0], [1]]), ms.int32)
        >>> permuted, sorted_indices = ops.moe_token_permute(tokens, indices)
        >>> print(permuted.reshape(-1), sorted_indices)
        [2. 1. 3.] [1 0 2]
    """
    if padded_mode:
        raise ValueError("moe_token_permute: padded_mode must be False")
    t, idx = to_tensor(tokens), to_tensor(indices)
    if t.ndim != 2 or idx.ndim not in (1, 2) or int(idx._data.shape[0]) != int(t._data.shape[0]):
        raise ValueError(f"moe_token_permute: tokens must be (num_tokens, hidden) and indices (num_tokens,) "
                         f"or (num_tokens, topk), got {tuple(t.shape)} and {tuple(idx.shape)}")
    topk = 1 if idx.ndim == 1 else int(idx._data.shape[1])
    flat = F.reshape(idx, (-1,))
    order = F.argsort(flat)                                  # stable: the flattened entries by expert
    sorted_indices = F.argsort(order)                        # the inverse permutation
    rows = F.floor_div(order, topk) if topk > 1 else order
    out = F.gather(t, rows, 0)
    if num_out_tokens is not None:
        out = F.narrow(out, 0, 0, min(int(num_out_tokens), int(out._data.shape[0])))
    return out, F.cast(sorted_indices, np.int32)


def moe_token_unpermute(permuted_tokens: Tensor, sorted_indices: Tensor, probs: Tensor | None = None,
                        padded_mode: bool = False, restore_shape: Any = None) -> Tensor:
    """The inverse of :func:`moe_token_permute`: row ``t`` of the result is the sum over k of
    ``permuted_tokens[sorted_indices[t * topk + k]]``, weighted by ``probs[t, k]`` when given.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> tokens = Tensor(np.array([[1.0], [2.0], [3.0]]), ms.float32)
        >>> indices = Tensor(np.array([[1], [0], [1]]), ms.int32)
        >>> permuted, sorted_indices = ops.moe_token_permute(tokens, indices)
        >>> print(ops.moe_token_unpermute(permuted, sorted_indices).reshape(-1))
        [1. 2. 3.]
    """
    if padded_mode:
        raise ValueError("moe_token_unpermute: padded_mode must be False")
    pt, si = to_tensor(permuted_tokens), to_tensor(sorted_indices)
    total = int(si._data.shape[0])
    p = to_tensor(probs) if probs is not None else None
    topk = int(p._data.shape[1]) if p is not None else 1
    if int(pt._data.shape[0]) < total:  # dropped tokens: the missing rows count as zeros
        pt = F.pad(pt, (0, 0, 0, total - int(pt._data.shape[0])))
    rows = F.reshape(F.gather(pt, F.cast(si, np.int64), 0), (-1, topk, pt.shape[-1]))  # width from the graph
    if p is not None:
        rows = F.mul(rows, F.expand_dims(F.cast(p, pt._data.dtype), -1))
    return F.sum(rows, 1)


def multi_scale_deformable_attn_function(value: Tensor, shape: Tensor, offset: Tensor, locations: Tensor,
                                         weight: Tensor) -> Tensor:
    """Multi-scale deformable attention (Deformable DETR): for every query, head, level and point, the
    level's feature map bilinearly sampled at ``locations`` (x, y in [0, 1], zero outside the map, pixel
    centres at half-integers), weighted by ``weight`` and summed.

    Args:
        value (Tensor): (bs, num_keys, num_heads, embed_dims), the flattened maps of every level.
        shape (Tensor): (num_levels, 2), each level's (H, W).
        offset (Tensor): (num_levels,), where each level starts in ``num_keys``.
        locations (Tensor): (bs, num_queries, num_heads, num_levels, num_points, 2).
        weight (Tensor): (bs, num_queries, num_heads, num_levels, num_points).

    Returns:
        Tensor of shape (bs, num_queries, num_heads * embed_dims).

    Examples:
        >>> value = Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32).reshape(1, 4, 1, 1))
        >>> shape = Tensor(np.array([[2, 2]]), ms.int32)
        >>> offset = Tensor(np.array([0]), ms.int32)
        >>> locations = Tensor(np.array([0.5, 0.5, 0.25, 0.25], np.float32).reshape(1, 1, 1, 1, 2, 2))
        >>> weight = Tensor(np.array([0.5, 0.5], np.float32).reshape(1, 1, 1, 1, 2))
        >>> out = ops.multi_scale_deformable_attn_function(value, shape, offset, locations, weight)
        >>> print(out.shape, out)
        (1, 1, 1) [[[1.75]]]
    """
    v = _float(value, "multi_scale_deformable_attn_function")
    loc, w = to_tensor(locations), to_tensor(weight)
    sizes = np.asarray(to_tensor(shape)._data).reshape(-1, 2).astype(np.int64)
    starts = np.asarray(to_tensor(offset)._data).reshape(-1).astype(np.int64)
    bs, _, nh, d = v.shape  # batch, heads, width and queries stay graph values where they are dynamic
    nq = loc.shape[1]
    nl, npt = (int(loc._data.shape[i]) for i in (3, 4))
    dt = v._data.dtype
    out = None
    for lvl in range(nl):
        h, wd = int(sizes[lvl][0]), int(sizes[lvl][1])
        # the level's map as rows (bs * nh * H * W, d), addressed by one flat index per sample
        vl = F.reshape(F.transpose(F.narrow(v, 1, int(starts[lvl]), h * wd), (0, 2, 1, 3)), (-1, d))
        base = F.reshape(F.mul(F.cast(F.arange(bs * nh), np.int64), h * wd), (bs, nh, 1, 1))
        ll = F.transpose(F.squeeze(F.narrow(loc, 3, lvl, 1), 3), (0, 2, 1, 3,
                                                                  4))          # (bs, nh, nq, P, 2)
        wl = F.transpose(F.squeeze(F.narrow(w, 3, lvl, 1), 3), (0, 2, 1, 3))               # (bs, nh, nq, P)
        x = F.sub(F.mul(F.squeeze(F.narrow(ll, -1, 0, 1), -1), float(wd)), 0.5)
        y = F.sub(F.mul(F.squeeze(F.narrow(ll, -1, 1, 1), -1), float(h)), 0.5)
        x0, y0 = F.floor(x), F.floor(y)
        sampled = None
        for dx in (0, 1):
            for dy in (0, 1):
                xi, yi = F.add(x0, float(dx)), F.add(y0, float(dy))
                wx = F.sub(1.0, F.abs(F.sub(x, xi)))
                wy = F.sub(1.0, F.abs(F.sub(y, yi)))
                inside = F.logical_and(F.logical_and(F.greater_equal(xi, 0.0),
                                                     F.less_equal(xi, float(wd - 1))),
                                       F.logical_and(F.greater_equal(yi, 0.0),
                                                     F.less_equal(yi, float(h - 1))))
                cw = F.mul(F.mul(wx, wy), F.cast(inside, x._data.dtype))
                flat = F.add(F.mul(F.clamp(yi, 0.0, float(h - 1)), float(wd)), F.clamp(xi, 0.0,
                                                                                       float(wd - 1)))
                flat = F.reshape(F.add(F.cast(flat, np.int64), base), (-1,))
                got = F.reshape(F.gather(vl, flat, 0), (bs, nh, nq, npt, d))
                term = F.mul(got, F.expand_dims(F.cast(cw, dt), -1))
                sampled = term if sampled is None else F.add(sampled, term)
        contrib = F.sum(F.mul(sampled, F.expand_dims(F.cast(wl, dt), -1)), 3)             # (bs, nh, nq, d)
        out = contrib if out is None else F.add(out, contrib)
    return F.reshape(F.transpose(out, (0, 2, 1, 3)), (bs, nq, nh * d))


__all__ = ["add_rms_norm", "moe_token_permute", "moe_token_unpermute", "multi_scale_deformable_attn_function",
           "ring_attention_update", "rms_norm", "rotary_position_embedding", "swiglu"]
