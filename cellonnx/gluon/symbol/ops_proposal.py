"""Faster R-CNN's region proposal operators, ``_contrib_Proposal`` (one image) and ``_contrib_MultiProposal``
(a batch): anchors of every feature-map cell moved by the predicted deltas, clipped to the image, too small
ones demoted, the best ``rpn_pre_nms_top_n`` kept, non-maximum suppression, ``rpn_post_nms_top_n`` rows out
(the kept ones repeated to fill). As MXNet's CPU kernels, in float32; they read their inputs' values, so they
run eagerly, and their inputs get zero gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["PROPOSAL_OPS"]

_F = np.float32


def _np(x: Any) -> np.ndarray:
    if isinstance(x, Tensor):
        return np.asarray(x._data, np.float32)
    return np.asarray(x.asnumpy() if hasattr(x, "asnumpy") else x, np.float32)


def _floats(value: Any) -> list[float]:
    if isinstance(value, str):
        value = value.strip("()[] ").split(",")
    return [float(v) for v in (value if isinstance(value, (list, tuple)) else (value,))]


def _anchors(stride: int, ratios: list[float], scales: list[float]) -> np.ndarray:
    """(ratios * scales, 4) base anchors around the first cell, ratio-major."""
    w = h = _F(stride)
    x_ctr = y_ctr = _F(0.5 * (w - 1.0))
    size = w * h
    out = []
    for ratio in ratios:
        for scale in scales:
            size_ratios = np.floor(_F(size / _F(ratio)))
            new_w = _F(np.floor(np.sqrt(size_ratios) + _F(0.5)) * _F(scale))
            new_h = _F(np.floor(new_w / _F(scale) * _F(ratio) + _F(0.5)) * _F(scale))
            out.append([x_ctr - _F(0.5) * (new_w - 1), y_ctr - _F(0.5) * (new_h - 1),
                        x_ctr + _F(0.5) * (new_w - 1), y_ctr + _F(0.5) * (new_h - 1)])
    return np.asarray(out, np.float32)


def _nms(dets: np.ndarray, thresh: float, top_n: int) -> list[int]:
    area = (dets[:, 2] - dets[:, 0] + 1) * (dets[:, 3] - dets[:, 1] + 1)
    suppressed = np.zeros(len(dets), bool)
    keep: list[int] = []
    for i in range(len(dets)):
        if len(keep) >= top_n:
            break
        if suppressed[i]:
            continue
        keep.append(i)
        rest = np.arange(i + 1, len(dets))
        rest = rest[~suppressed[rest]]
        x1, y1 = np.maximum(dets[i, 0], dets[rest, 0]), np.maximum(dets[i, 1], dets[rest, 1])
        x2, y2 = np.minimum(dets[i, 2], dets[rest, 2]), np.minimum(dets[i, 3], dets[rest, 3])
        w, h = np.maximum(_F(0), x2 - x1 + 1), np.maximum(_F(0), y2 - y1 + 1)
        inter = (w * h).astype(np.float32)
        ovr = inter / (area[i] + area[rest] - inter)
        suppressed[rest[ovr > thresh]] = True
    return keep


def _one_image(scores: np.ndarray, deltas: np.ndarray, info: np.ndarray, base: np.ndarray, stride: int,
               pre_n: int, post_n: int, threshold: float, min_size: float, iou_loss: bool) -> np.ndarray:
    """(post_n, 5) rows of x1, y1, x2, y2, score for one image: scores (A, H, W), deltas (4A, H, W)."""
    a, h, w = scores.shape
    count = a * h * w
    shift_x = np.arange(w, dtype=np.float32) * stride
    shift_y = np.arange(h, dtype=np.float32) * stride
    boxes = np.empty((h, w, a, 5), np.float32)  # index = (y * W + x) * A + a, as MXNet lays them out
    boxes[..., 0] = base[None, None, :, 0] + shift_x[None, :, None]
    boxes[..., 1] = base[None, None, :, 1] + shift_y[:, None, None]
    boxes[..., 2] = base[None, None, :, 2] + shift_x[None, :, None]
    boxes[..., 3] = base[None, None, :, 3] + shift_y[:, None, None]
    boxes[..., 4] = scores.transpose(1, 2, 0)
    d = deltas.reshape(a, 4, h, w).transpose(2, 3, 0, 1)  # (H, W, A, 4)
    im_h, im_w = _F(info[0]), _F(info[1])
    if iou_loss:
        pred = boxes[..., :4] + d
    else:
        bw = boxes[..., 2] - boxes[..., 0] + _F(1)
        bh = boxes[..., 3] - boxes[..., 1] + _F(1)
        cx = (boxes[..., 0] + 0.5 * (bw.astype(np.float64) - 1.0)).astype(np.float32)
        cy = (boxes[..., 1] + 0.5 * (bh.astype(np.float64) - 1.0)).astype(np.float32)
        px, py = d[..., 0] * bw + cx, d[..., 1] * bh + cy
        pw, ph = np.exp(d[..., 2]) * bw, np.exp(d[..., 3]) * bh
        half_w = (0.5 * (pw.astype(np.float64) - 1.0))
        half_h = (0.5 * (ph.astype(np.float64) - 1.0))
        pred = np.stack([(px - half_w), (py - half_h), (px + half_w), (py + half_h)], -1).astype(np.float32)
    pred[..., 0] = np.clip(pred[..., 0], 0, im_w - 1)
    pred[..., 1] = np.clip(pred[..., 1], 0, im_h - 1)
    pred[..., 2] = np.clip(pred[..., 2], 0, im_w - 1)
    pred[..., 3] = np.clip(pred[..., 3], 0, im_h - 1)
    boxes[..., :4] = pred
    real_h, real_w = int(info[0] / stride), int(info[1] / stride)
    outside = (np.arange(h)[:, None] >= real_h) | (np.arange(w)[None, :] >= real_w)
    boxes[outside, :, 4] = -1.0
    dets = boxes.reshape(count, 5)
    bw, bh = dets[:, 2] - dets[:, 0] + _F(1), dets[:, 3] - dets[:, 1] + _F(1)
    small = (bw < min_size) | (bh < min_size)
    half = _F(min_size / 2)
    dets[small, 0] -= half
    dets[small, 1] -= half
    dets[small, 2] += half
    dets[small, 3] += half
    dets[small, 4] = -1.0
    order = np.argsort(-dets[:, 4], kind="stable")[:pre_n]
    ordered = dets[order]
    keep = _nms(ordered, threshold, min(post_n, pre_n))
    rows = [ordered[keep[i] if i < len(keep) else keep[i % len(keep)]] for i in range(post_n)]
    return np.asarray(rows, np.float32)


def _proposals(cls_prob: Any, bbox_pred: Any, im_info: Any, rpn_pre_nms_top_n: int, rpn_post_nms_top_n: int,
               threshold: float, rpn_min_size: int, scales: Any, ratios: Any, feature_stride: int,
               output_score: bool, iou_loss: bool, op: str) -> Any:
    from cellonnx.ops import registry

    if registry.TRACE_HOOK is not None:
        raise NotImplementedError(f"{op} reads its inputs' values and runs eagerly only; call it outside a "
                                  "hybridized block or an exported graph")
    probs, deltas, info = _np(cls_prob), _np(bbox_pred), _np(im_info)
    batch, two_a, h, w = probs.shape
    a = two_a // 2
    rs, ss = _floats(ratios), _floats(scales)
    if a != len(rs) * len(ss):
        raise ValueError(f"{op}: cls_prob has {a} anchors per cell, ratios x scales give {len(rs) * len(ss)}")
    count = a * h * w
    pre_n = min(int(rpn_pre_nms_top_n) if int(rpn_pre_nms_top_n) > 0 else count, count)
    post_n = int(rpn_post_nms_top_n)
    base = _anchors(int(feature_stride), rs, ss)
    rois, scores = [], []
    for b in range(batch):
        rows = _one_image(probs[b, a:], deltas[b], info[b], base, int(feature_stride), pre_n, post_n,
                          float(threshold), float(rpn_min_size) * float(info[b, 2]), bool(iou_loss))
        rois.append(np.concatenate([np.full((post_n, 1), b, np.float32), rows[:, :4]], 1))
        scores.append(rows[:, 4:5])
    out, score = Tensor(np.concatenate(rois)), Tensor(np.concatenate(scores))
    return (out, score) if output_score else out


def proposal(cls_prob: Any, bbox_pred: Any, im_info: Any, rpn_pre_nms_top_n: int = 6000,
             rpn_post_nms_top_n: int = 300, threshold: float = 0.7, rpn_min_size: int = 16,
             scales: Any = (4.0, 8.0, 16.0, 32.0), ratios: Any = (0.5, 1.0, 2.0), feature_stride: int = 16,
             output_score: bool = False, iou_loss: bool = False, **_: Any) -> Any:
    """Region proposals of one image: cls_prob (1, 2A, H, W) (background then foreground), bbox_pred
    (1, 4A, H, W), im_info (1, 3) of height, width, scale -> rois (rpn_post_nms_top_n, 5) of batch index 0
    and corners (and their scores (rpn_post_nms_top_n, 1) with ``output_score``)."""
    if _np(cls_prob).shape[0] != 1:
        raise ValueError("Proposal: multiple images each device is not implemented (use MultiProposal)")
    return _proposals(cls_prob, bbox_pred, im_info, rpn_pre_nms_top_n, rpn_post_nms_top_n, threshold,
                      rpn_min_size, scales, ratios, feature_stride, output_score, iou_loss, "Proposal")


def multi_proposal(cls_prob: Any, bbox_pred: Any, im_info: Any, rpn_pre_nms_top_n: int = 6000,
                   rpn_post_nms_top_n: int = 300, threshold: float = 0.7, rpn_min_size: int = 16,
                   scales: Any = (4.0, 8.0, 16.0, 32.0), ratios: Any = (0.5, 1.0, 2.0),
                   feature_stride: int = 16, output_score: bool = False, iou_loss: bool = False,
                   **_: Any) -> Any:
    """Proposal for a batch: rois (B * rpn_post_nms_top_n, 5), each image's rows after the previous one's,
    with its batch index first."""
    return _proposals(cls_prob, bbox_pred, im_info, rpn_pre_nms_top_n, rpn_post_nms_top_n, threshold,
                      rpn_min_size, scales, ratios, feature_stride, output_score, iou_loss, "MultiProposal")


PROPOSAL_OPS = {"_contrib_Proposal": proposal, "_contrib_MultiProposal": multi_proposal}
