"""SSD's contrib operators: ``_contrib_MultiBoxPrior`` (the anchor boxes of a feature map: a constant of its
shape, so it exports as one) and ``_contrib_MultiBoxDetection`` (class scores and box offsets to sorted,
suppressed detections, written with ops: it runs eagerly and exports, without gradient, as MXNet gives it
none)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.tensor import Tensor

__all__ = ["MULTIBOX_OPS"]


def _floats(value: Any) -> list[float]:
    return [float(v) for v in (value if isinstance(value, (list, tuple)) else (value,))]


def multibox_prior(data: Tensor, sizes: Any = (1.0,), ratios: Any = (1.0,), clip: bool = False,
                   steps: Any = (-1.0, -1.0), offsets: Any = (0.5, 0.5), **_: Any) -> Tensor:
    """(1, H * W * (len(sizes) + len(ratios) - 1), 4) anchors (x1, y1, x2, y2) in [0, 1] image units for
    the (N, C, H, W) map ``data``: at each cell, every size with the first ratio, then the first size with
    every other ratio; width size * H / W * sqrt(ratio), height size / sqrt(ratio)."""
    height, width = int(data.shape[2]), int(data.shape[3])
    sizes_, ratios_ = _floats(sizes), _floats(ratios)
    st, off = _floats(steps), _floats(offsets)
    step_y = st[0] if st[0] > 0 else 1.0 / height
    step_x = st[1] if st[1] > 0 else 1.0 / width
    shapes = [(s, ratios_[0]) for s in sizes_] + [(sizes_[0], r) for r in ratios_[1:]]
    out = []
    for r in range(height):
        cy = (r + off[0]) * step_y
        for c in range(width):
            cx = (c + off[1]) * step_x
            for size, ratio in shapes:
                root = np.sqrt(np.float32(ratio))
                w = np.float32(size) * height / width * root / 2
                h = np.float32(size) / root / 2
                out.append((cx - w, cy - h, cx + w, cy + h))
    boxes = np.asarray(out, np.float32).reshape(1, -1, 4)
    if clip:
        boxes = np.clip(boxes, 0.0, 1.0)
    return Tensor(boxes)


def _take_rows(x: Tensor, order: Tensor) -> Tensor:
    """``x`` (B, N, K) with its rows reordered by ``order`` (B, N) per batch."""
    idx = ops.broadcast_to(ops.expand_dims(order, -1), tuple(order.shape) + (int(x.shape[2]),))
    return ops.gather_elements(x, 1, idx)


def multibox_detection(cls_prob: Tensor, loc_pred: Tensor, anchor: Tensor, clip: bool = True,
                       threshold: float = 0.01, background_id: int = 0, nms_threshold: float = 0.5,
                       force_suppress: bool = False, variances: Any = (0.1, 0.1, 0.2, 0.2),
                       nms_topk: int = -1, **_: Any) -> Tensor:
    """(B, N, 6) detections (class id, score, x1, y1, x2, y2): per anchor the best class after class 0 (the
    background: MXNet's kernel does not read ``background_id``) with its score (when at least
    ``threshold``) and the anchor moved by the offsets; sorted by score, then suppressed greedily (IoU at
    least ``nms_threshold`` with a kept box of the class, or any class with ``force_suppress``; no sorting
    or suppression when ``nms_threshold`` is not in (0, 1]) among the ``nms_topk`` best: a suppressed
    detection keeps its row with class -1, as do the detections past the ``nms_topk`` best (in anchor
    order, as MXNet leaves them); rows past the detections are -1. Written with ops (one NonMaxSuppression
    per class, or one with ``force_suppress``), so it exports; no gradient, as MXNet gives it none."""
    from cellonnx.ops.prims.boxes import NmsKeep

    probs = ops.stop_gradient(ops.cast(cls_prob, np.float32))
    ncls, n = int(probs.shape[1]), int(probs.shape[2])
    loc = ops.reshape(ops.stop_gradient(ops.cast(loc_pred, np.float32)), (-1, n, 4))
    anchors = ops.reshape(ops.stop_gradient(ops.cast(anchor, np.float32)), (1, n, 4))
    v = _floats(variances)
    a0, a1, a2, a3 = (anchors[:, :, i : i + 1] for i in range(4))
    aw, ah = a2 - a0, a3 - a1
    ax, ay = (a0 + a2) / 2, (a1 + a3) / 2
    p0, p1, p2, p3 = (loc[:, :, i : i + 1] for i in range(4))
    ox, oy = p0 * v[0] * aw + ax, p1 * v[1] * ah + ay
    ow, oh = ops.exp(p2 * v[2]) * aw / 2, ops.exp(p3 * v[3]) * ah / 2
    boxes = ops.concat([ox - ow, oy - oh, ox + ow, oy + oh], axis=-1)
    if clip:
        boxes = ops.clip_by_value(boxes, 0.0, 1.0)
    # the best class after class 0, the background whatever ``background_id`` says (MXNet's kernel reads
    # classes 1.. only); the first of equal scores
    is_bg = Tensor((np.arange(ncls) == 0).reshape(1, ncls, 1))
    masked = ops.where(is_bg, ops.full_like(probs, -np.inf), probs)
    score = ops.amax(masked, 1)
    cid = ops.cast(ops.argmax(masked, 1), np.float32)
    valid = ops.logical_and(ops.greater(cid, 0.0), ops.greater_equal(score, float(threshold)))
    det = ops.concat([ops.expand_dims(cid - 1, -1), ops.expand_dims(score, -1), boxes], axis=-1)
    rank = ops.cast(ops.arange(0, n, 1), np.float32)
    zero = ops.zeros_like(score)
    # the detections in anchor order, and sorted by score (ties in anchor order)
    by_anchor = _take_rows(det, ops.topk(ops.where(valid, float(n) - rank, zero), n, dim=1)[1])
    count = ops.sum(ops.cast(valid, np.float32), 1, True)
    if not 0 < float(nms_threshold) <= 1:  # MXNet then neither sorts nor suppresses
        found = ops.expand_dims(ops.less(rank, count), -1)
        return ops.where(found, by_anchor, ops.full_like(by_anchor, -1.0))
    # MXNet suppresses at IoU >= nms_threshold; NonMaxSuppression at IoU > its threshold: the float32 below
    iou = float(np.nextafter(np.float32(nms_threshold), np.float32(0)))
    by_score = _take_rows(det, ops.topk(ops.where(valid, score, ops.full_like(score, -np.inf)), n, dim=1)[1])
    keep = ops.minimum(count, float(nms_topk)) if int(nms_topk) > 0 else count
    within = ops.less(rank, keep)
    visit = ops.where(within, float(n) - rank, zero)  # > 0, in score order
    corners, cls = by_score[:, :, 2:6], by_score[:, :, 0]
    if force_suppress:
        kept = NmsKeep.apply(corners, visit, iou_threshold=iou)
    else:
        kept = None
        for c in range(ncls - 1):
            one = NmsKeep.apply(corners, ops.where(ops.equal(cls, float(c)), visit, zero),
                                iou_threshold=iou)
            kept = one if kept is None else ops.logical_or(kept, one)
    minus = ops.full_like(cls, -1.0)
    ranked = ops.concat([ops.expand_dims(ops.where(kept, cls, minus), -1), by_score[:, :, 1:]], axis=-1)
    rest = ops.concat([ops.expand_dims(minus, -1), by_anchor[:, :, 1:]], axis=-1)
    out = ops.where(ops.expand_dims(within, -1), ranked,
                    ops.where(ops.expand_dims(ops.less(rank, count), -1), rest, ops.full_like(rest, -1.0)))
    return out


MULTIBOX_OPS = {"_contrib_MultiBoxPrior": multibox_prior, "_contrib_MultiBoxDetection": multibox_detection}
