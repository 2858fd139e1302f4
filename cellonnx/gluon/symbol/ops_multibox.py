"""SSD's contrib operators: ``_contrib_MultiBoxPrior`` (the anchor boxes of a feature map: a constant of its
shape, so it exports as one) and ``_contrib_MultiBoxDetection`` (class scores and box offsets to sorted,
suppressed detections; runs eagerly, without gradient, as MXNet gives it none)."""

from __future__ import annotations

from typing import Any

import numpy as np

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


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    w = max(min(a[2], b[2]) - max(a[0], b[0]), 0.0)
    h = max(min(a[3], b[3]) - max(a[1], b[1]), 0.0)
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def multibox_detection(cls_prob: Tensor, loc_pred: Tensor, anchor: Tensor, clip: bool = True,
                       threshold: float = 0.01, background_id: int = 0, nms_threshold: float = 0.5,
                       force_suppress: bool = False, variances: Any = (0.1, 0.1, 0.2, 0.2),
                       nms_topk: int = -1, **_: Any) -> Tensor:
    """(B, N, 6) detections (class id, score, x1, y1, x2, y2): per anchor the best non-background class
    with its score (when at least ``threshold``) and the anchor moved by the offsets; sorted by score, then
    suppressed greedily (IoU above ``nms_threshold`` with a kept box of the class, or any class with
    ``force_suppress``) among the ``nms_topk`` best: a suppressed detection keeps its row with class -1,
    as do the detections past the ``nms_topk`` best (in anchor order, as MXNet leaves them); rows past the
    detections are -1."""
    from cellonnx.ops import registry

    if registry.TRACE_HOOK is not None:
        raise NotImplementedError(
            "_contrib_MultiBoxDetection: not exported to ONNX yet (it runs eagerly); export the network "
            "without its detection head and decode the boxes after it"
        )
    probs = cls_prob.asnumpy().astype(np.float32)
    loc = loc_pred.asnumpy().astype(np.float32)
    anchors = anchor.asnumpy().reshape(-1, 4).astype(np.float32)
    b, ncls, n = probs.shape
    v = np.asarray(_floats(variances), np.float32)
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    ax, ay = (anchors[:, 0] + anchors[:, 2]) / 2, (anchors[:, 1] + anchors[:, 3]) / 2
    out = np.full((b, n, 6), -1.0, np.float32)
    for k in range(b):
        p = loc[k].reshape(n, 4)
        ox, oy = p[:, 0] * v[0] * aw + ax, p[:, 1] * v[1] * ah + ay
        ow, oh = np.exp(p[:, 2] * v[2]) * aw / 2, np.exp(p[:, 3] * v[3]) * ah / 2
        boxes = np.stack([ox - ow, oy - oh, ox + ow, oy + oh], -1)
        if clip:
            boxes = np.clip(boxes, 0.0, 1.0)
        rows = []
        for i in range(n):
            score, cid = -1.0, 0
            for j in range(ncls):
                if j != int(background_id) and probs[k, j, i] > score:
                    score, cid = float(probs[k, j, i]), j
            if cid > 0 and score < float(threshold):
                cid = 0
            if cid > 0:
                rows.append([cid - 1, score, *boxes[i]])
        if not rows:
            continue
        found = np.asarray(rows, np.float32)
        # as MXNet writes it: the detections in anchor order, then the best ``keep`` over their first rows;
        # the rows past those keep the anchor-order detections, with class -1
        out[k, : len(found)] = found
        out[k, : len(found), 0] = -1
        dets = found[np.argsort(-found[:, 1], kind="stable")]
        keep = len(dets) if int(nms_topk) <= 0 else min(int(nms_topk), len(dets))
        dets = dets[:keep]
        for i in range(keep):
            if dets[i, 0] < 0:
                continue
            for j in range(i + 1, keep):
                if dets[j, 0] < 0:
                    continue
                if (force_suppress or dets[i, 0] == dets[j, 0]) and \
                        _iou(dets[i, 2:], dets[j, 2:]) > float(nms_threshold):
                    dets[j, 0] = -1
        out[k, :keep] = dets
    return Tensor(out)


MULTIBOX_OPS = {"_contrib_MultiBoxPrior": multibox_prior, "_contrib_MultiBoxDetection": multibox_detection}
