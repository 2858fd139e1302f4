"""Distances and overlaps over primitives: cdist, dist, cosine_similarity, renorm, bucketize,
sparse_segment_mean and the box overlaps iou and rotated_iou."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import ops as _ops
from cellonnx.ops.prims._util import is_float_dtype, norm_axis, to_tensor
from cellonnx.ops.prims.boxes import RotatedIou
from cellonnx.ops.prims.math import _floatify
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


def _p_norm(d: Tensor, p: float, axis: int, keepdims: bool = False) -> Tensor:
    """The p-norm along ``axis`` of differences ``d`` (p = 0 counts the non-zeros, inf takes the largest);
    the 2-norm has a zero gradient (not NaN) where all differences are zero."""
    if p == 0:
        return F.sum(F.cast(F.not_equal(d, 0), d._data.dtype), axis, keepdims)
    if p == math.inf:
        return F.amax(F.abs(d), axis, keepdims)
    if p == 1:
        return F.sum(F.abs(d), axis, keepdims)
    if p == 2:
        sq = F.sum(F.mul(d, d), axis, keepdims)
        zero = F.equal(sq, 0)
        return F.where(zero, F.zeros_like(sq), F.sqrt(F.where(zero, F.ones_like(sq), sq)))
    s = F.sum(F.pow(F.abs(d), float(p)), axis, keepdims)
    zero = F.equal(s, 0)
    return F.where(zero, F.zeros_like(s), F.pow(F.where(zero, F.ones_like(s), s), 1.0 / float(p)))


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0) -> Tensor:
    """The p-norm distance between every row of ``x1`` (B?, P, M) and every row of ``x2`` (B?, R, M):
    shape (B?, P, R).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[0.0, 0.0], [1.0, 1.0]]), ms.float32)
        >>> b = Tensor(np.array([[3.0, 4.0]]), ms.float32)
        >>> print(ops.cdist(a, b).asnumpy().round(4))
        [[5.    ]
         [3.6056]]
    """
    a, b = _floatify(x1), _floatify(x2)
    if a.ndim < 2 or b.ndim < 2 or int(a._data.shape[-1]) != int(b._data.shape[-1]):
        raise ValueError(f"cdist: inputs must be (batches of) row vectors of one length, got "
                         f"{tuple(a.shape)} and {tuple(b.shape)}")
    if p < 0:
        raise ValueError(f"cdist: p must be non-negative, got {p}")
    d = F.sub(F.expand_dims(a, -2), F.expand_dims(b, -3))   # (..., P, R, M)
    return _p_norm(d, float(p), -1)


def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:
    """The p-norm of ``input - other`` (over all elements; p = 0 counts the non-zero differences).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([0.0, 0.0]), ms.float32)
        >>> b = Tensor(np.array([3.0, 4.0]), ms.float32)
        >>> print(ops.dist(a, b))
        5.0
    """
    d = F.reshape(F.sub(_floatify(input), _floatify(other)), (-1,))
    return _p_norm(d, float(p), 0)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-08) -> Tensor:
    """``sum(x1 * x2, dim) / max(|x1| |x2|, eps)``, the norms over ``dim``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([[1.0, 0.0], [1.0, 1.0]]), ms.float32)
        >>> b = Tensor(np.array([[0.0, 1.0], [2.0, 2.0]]), ms.float32)
        >>> print(ops.cosine_similarity(a, b, dim=1))
        [0.        1.0000001]
    """
    a, b = _floatify(x1), _floatify(x2)
    num = F.sum(F.mul(a, b), dim)
    den = F.maximum(F.mul(_p_norm(a, 2, dim), _p_norm(b, 2, dim)), float(eps))
    return F.div(num, den)


def renorm(input: Tensor, p: int, axis: int, maxnorm: float) -> Tensor:
    """Each sub-tensor along ``axis`` (``input`` indexed at one position of ``axis``) whose p-norm exceeds
    ``maxnorm`` scaled to norm ``maxnorm``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[3.0, 4.0], [0.3, 0.4]]), ms.float32)
        >>> print(ops.renorm(x, p=2, axis=0, maxnorm=1.0))
        [[0.6 0.8]
         [0.3 0.4]]
    """
    x = _floatify(input)
    if p <= 0:
        raise ValueError(f"renorm: p must be positive, got {p}")
    a = norm_axis(axis, x.ndim, "renorm")
    others = tuple(i for i in range(x.ndim) if i != a)
    if p == 2:
        norms = F.sqrt(F.sum(F.mul(x, x), others, True))
    else:
        norms = F.pow(F.sum(F.pow(F.abs(x), float(p)), others, True), 1.0 / float(p))
    big = F.greater(norms, float(maxnorm))
    scale = F.where(big, F.div(float(maxnorm), F.where(big, norms, F.ones_like(norms))), F.ones_like(norms))
    return F.mul(x, scale)


def bucketize(input: Tensor, boundaries: Any, *, right: bool = False) -> Tensor:
    """The bucket of each element among the sorted ``boundaries`` (int32): with ``right`` False the number
    of boundaries below it (``boundaries[i-1] < x <= boundaries[i]``), else the number at or below it.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0.5, 1.5, 2.5]), ms.float32)
        >>> print(ops.bucketize(x, [1.0, 2.0]))
        [0 1 2]
    """
    x = to_tensor(input)
    b = boundaries._data if isinstance(boundaries, Tensor) else np.asarray(boundaries)
    if b.ndim != 1:
        raise ValueError(f"bucketize: boundaries must be 1-D, got shape {b.shape}")
    bt = Tensor(b.astype(x._data.dtype if is_float_dtype(x._data.dtype) else np.float64))
    xs = x if is_float_dtype(x._data.dtype) else F.cast(x, np.float64)
    ex = F.expand_dims(xs, -1)
    hit = F.less_equal(bt, ex) if right else F.less(bt, ex)
    return F.cast(F.sum(F.cast(hit, np.int32), -1), np.int32)


def sparse_segment_mean(x: Tensor, indices: Tensor, segment_ids: Tensor) -> Tensor:
    """The mean of the rows ``x[indices[j]]`` over each segment ``segment_ids[j]`` (sorted ids; a segment
    with no rows gives zeros); as many segments as ``segment_ids[-1] + 1``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), ms.float32)
        >>> indices = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> segment_ids = Tensor(np.array([0, 0, 1]), ms.int32)
        >>> print(ops.sparse_segment_mean(x, indices, segment_ids))
        [[2. 3.]
         [5. 6.]]
    """
    x = to_tensor(x)
    ids = to_tensor(segment_ids)
    if ids.ndim != 1 or int(ids._data.shape[0]) != int(to_tensor(indices)._data.shape[0]):
        raise ValueError(f"sparse_segment_mean: segment_ids {tuple(ids.shape)} must be 1-D like indices "
                         f"{tuple(to_tensor(indices).shape)}")
    if ids._data.size and np.any(np.diff(ids._data) < 0):
        raise ValueError("sparse_segment_mean: segment_ids must be sorted")
    n_seg = int(ids._data[-1]) + 1 if ids._data.size else 0
    rows = F.gather(x, indices, 0)
    seg = F.expand_dims(F.cast(ids, np.int64), 1)
    total = F.tensor_scatter_add(F.zeros((n_seg,) + tuple(x.shape[1:]), dtype=x.dtype), seg, rows)
    count = F.tensor_scatter_add(F.zeros((n_seg,), dtype=x.dtype), seg, F.ones(tuple(ids.shape),
                                                                               dtype=x.dtype))
    count = F.reshape(F.maximum(count, 1.0), (n_seg,) + (1,) * (x.ndim - 1))
    return F.div(total, count)


# ---------------------------------------------------------------- boxes
def iou(anchor_boxes: Tensor, gt_boxes: Tensor, mode: str = "iou") -> Tensor:
    """Intersection over union ('iou') or over the ground-truth box's area ('iof') of every pair of boxes
    (x1, y1, x2, y2), counting pixels inclusively (widths are ``x2 - x1 + 1``, as MindSpore's IOU):
    shape (len(gt_boxes), len(anchor_boxes)).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> anchors = Tensor(np.array([[0.0, 0.0, 2.0, 2.0]]), ms.float32)
        >>> gt = Tensor(np.array([[1.0, 1.0, 3.0, 3.0], [0.0, 0.0, 2.0, 2.0]]), ms.float32)
        >>> print(ops.iou(anchors, gt).asnumpy().round(4))
        [[0.2857]
         [1.    ]]
    """
    if mode not in ("iou", "iof"):
        raise ValueError(f"iou: mode must be 'iou' or 'iof', got {mode!r}")
    a, g = _floatify(anchor_boxes), _floatify(gt_boxes)
    ga = F.expand_dims(g, 1)   # (M, 1, 4)
    aa = F.expand_dims(a, 0)   # (1, N, 4)

    def part(t: Tensor, i: int) -> Tensor:
        return F.squeeze(F.narrow(t, -1, i, 1), -1)

    def overlap(lo: int, hi: int) -> Tensor:
        span = F.sub(F.minimum(part(ga, hi), part(aa, hi)), F.maximum(part(ga, lo), part(aa, lo)))
        return F.maximum(F.add(span, 1.0), 0.0)

    w, h = overlap(0, 2), overlap(1, 3)
    inter = F.mul(w, h)

    def area(t: Tensor) -> Tensor:
        return F.mul(F.add(F.sub(part(t, 2), part(t, 0)), 1.0), F.add(F.sub(part(t, 3), part(t, 1)), 1.0))

    if mode == "iof":
        return F.div(inter, area(ga))
    return F.div(inter, F.sub(F.add(area(ga), area(aa)), inter))


def rotated_iou(boxes: Tensor, query_boxes: Tensor, trans: bool = False, mode: int = 0, is_cross: bool = True,
                v_threshold: float = 0.0, e_threshold: float = 0.0) -> Tensor:
    """Overlaps of rotated rectangles (B, N, 5) with (B, K, 5): 'xywht' (centre, size, angle in degrees)
    or with ``trans`` 'xyxyt'; ``mode`` 0 intersection over union, 1 over the first box's area;
    ``is_cross`` every pair (B, N, K), else pairwise by position (B, N). The thresholds are accepted (the
    clipping here is exact in float64).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> boxes = Tensor(np.array([[[2.0, 2.0, 2.0, 2.0, 0.0]]]), ms.float32)
        >>> print(ops.rotated_iou(boxes, boxes).asnumpy().round(4))
        [[[1.]]]
    """
    a, q = _floatify(boxes), _floatify(query_boxes)
    if a.ndim != 3 or q.ndim != 3 or int(a._data.shape[-1]) != 5 or int(q._data.shape[-1]) != 5:
        raise ValueError(f"rotated_iou: boxes must be (B, N, 5) and (B, K, 5), got {tuple(a.shape)} and "
                         f"{tuple(q.shape)}")
    if int(a._data.shape[0]) != int(q._data.shape[0]):
        raise ValueError(f"rotated_iou: batch sizes differ: {tuple(a.shape)} and {tuple(q.shape)}")
    if not is_cross and int(a._data.shape[1]) != int(q._data.shape[1]):
        raise ValueError("rotated_iou: one-to-one overlaps (is_cross=False) need as many boxes on both sides")
    return RotatedIou.apply(a, q, trans=bool(trans), mode=int(mode), is_cross=bool(is_cross))


__all__ = ["bucketize", "cdist", "cosine_similarity", "dist", "iou", "renorm", "rotated_iou",
           "sparse_segment_mean"]
