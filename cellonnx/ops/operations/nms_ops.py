"""MindSpore's non-maximum suppression operator classes (``ops.NMSWithMask``, ``ops.NonMaxSuppressionV3``,
``ops.NonMaxSuppressionWithOverlaps``): table rows over greedy suppression computed in NumPy (see table.py).

The selection depends on the values (how many boxes survive), so these run eagerly only: inside a traced
(exported) function they raise, naming the op; select the boxes before or after the exported part.
The greedy rule is TensorFlow's, which MindSpore follows: boxes in descending order of score (ties keep
their input order), a box is dropped when its overlap with a kept one is greater than the threshold.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops import registry
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _eager(op: str) -> None:
    if registry.TRACE_HOOK is not None:
        raise NotImplementedError(f"ops.{op} cannot be exported to ONNX: which boxes it keeps depends on "
                                  "their values; it runs eagerly only (select the boxes outside the "
                                  "exported function)")


def _array(value: Any) -> np.ndarray:
    return value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)


def _iou(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """IoU of one (x1, y1, x2, y2) box with each of ``others`` (corners in either order), in float64."""
    lo, hi = np.minimum(box[:2], box[2:]), np.maximum(box[:2], box[2:])
    olo, ohi = np.minimum(others[:, :2], others[:, 2:]), np.maximum(others[:, :2], others[:, 2:])
    inter = np.prod(np.clip(np.minimum(hi, ohi) - np.maximum(lo, olo), 0, None), axis=1)
    union = np.prod(hi - lo) + np.prod(ohi - olo, axis=1) - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(union > 0, inter / np.where(union > 0, union, 1.0), 0.0)


def _greedy(order: np.ndarray, overlap: Any, threshold: float, limit: int) -> list[int]:
    """The kept indices, in ``order``: each box is dropped when ``overlap(kept, box) > threshold`` for one
    of the kept (``kept`` an index array; NonMaxSuppressionWithOverlaps reads ``overlaps[box, kept]``)."""
    kept: list[int] = []
    for i in order:
        if len(kept) >= limit:
            break
        if not kept or not np.any(overlap(np.asarray(kept), i) > threshold):
            kept.append(int(i))
    return kept


def _nms_with_mask(bboxes: Tensor, iou_threshold: float) -> tuple[Tensor, Tensor, Tensor]:
    """(boxes sorted by descending score, the indices of that sorted list (0 .. N - 1, int32, as MindSpore's
    CPU and GPU kernels give), the mask of the kept ones)."""
    _eager("NMSWithMask")
    boxes = _array(bboxes)
    if boxes.ndim != 2 or boxes.shape[1] != 5:
        raise ValueError(f"For 'NMSWithMask', the bboxes must be (N, 5) (x1, y1, x2, y2, score), but got "
                         f"shape {boxes.shape}.")
    order = np.argsort(-boxes[:, 4].astype(np.float64), kind="stable")
    ordered = boxes[order].astype(np.float64)
    kept = _greedy(np.arange(len(order)), lambda k, i: _iou(ordered[i, :4], ordered[k, :4]),
                   float(iou_threshold), len(order))
    mask = np.zeros(len(order), bool)
    mask[kept] = True
    return Tensor(boxes[order]), Tensor(np.arange(len(order), dtype=np.int32)), Tensor(mask)


def _select(scores: Any, max_output_size: Any, score_threshold: Any, op: str) -> tuple[np.ndarray, int]:
    s = _array(scores).astype(np.float64)
    if s.ndim != 1:
        raise ValueError(f"For '{op}', the scores must be 1-D, but got shape {s.shape}.")
    limit = int(_array(max_output_size).reshape(-1)[0])
    if limit < 0:
        raise ValueError(f"For '{op}', the max_output_size must be non-negative, but got {limit}.")
    order = np.argsort(-s, kind="stable")
    order = order[s[order] > float(_array(score_threshold).reshape(-1)[0])]
    return order, limit


def _nms_v3(boxes: Tensor, scores: Tensor, max_output_size: Any, iou_threshold: Any,
            score_threshold: Any) -> Tensor:
    _eager("NonMaxSuppressionV3")
    b = _array(boxes).astype(np.float64)
    if b.ndim != 2 or b.shape[1] != 4 or b.shape[0] != _array(scores).shape[0]:
        raise ValueError(f"For 'NonMaxSuppressionV3', the boxes must be (N, 4) with one score each, but got "
                         f"shapes {b.shape} and {_array(scores).shape}.")
    order, limit = _select(scores, max_output_size, score_threshold, "NonMaxSuppressionV3")
    kept = _greedy(order, lambda k, i: _iou(b[i], b[k]), float(_array(iou_threshold).reshape(-1)[0]), limit)
    return Tensor(np.asarray(kept, np.int32))


def _nms_overlaps(overlaps: Tensor, scores: Tensor, max_output_size: Any, overlap_threshold: Any,
                  score_threshold: Any) -> Tensor:
    _eager("NonMaxSuppressionWithOverlaps")
    o = _array(overlaps).astype(np.float64)
    n = _array(scores).shape[0]
    if o.shape != (n, n):
        raise ValueError(f"For 'NonMaxSuppressionWithOverlaps', the overlaps must be (N, N) for N = {n} "
                         f"scores, but got shape {o.shape}.")
    order, limit = _select(scores, max_output_size, score_threshold, "NonMaxSuppressionWithOverlaps")
    kept = _greedy(order, lambda k, i: o[i, k], float(_array(overlap_threshold).reshape(-1)[0]), limit)
    return Tensor(np.asarray(kept, np.int32))


def _scalar(value: Any) -> Any:
    return _array(value).reshape(-1)[0]


def _combined_nms(boxes: Tensor, scores: Tensor, max_output_size_per_class: Any, max_total_size: Any,
                  iou_threshold: Any, score_threshold: Any, pad_per_class: bool,
                  clip_boxes: bool) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Per image and class, greedy suppression of the boxes scoring above ``score_threshold`` (at most
    ``max_output_size_per_class`` each); then all images' picks by descending score, the first
    ``max_total_size`` (fewer with ``pad_per_class``: per class times classes when smaller), zero-padded."""
    _eager("CombinedNonMaxSuppression")
    b, s = _array(boxes), _array(scores)
    if b.ndim != 4 or b.shape[-1] != 4 or s.ndim != 3 or b.shape[:2] != s.shape[:2] \
            or b.shape[2] not in (1, s.shape[2]):
        raise ValueError("For 'CombinedNonMaxSuppression', boxes must be (batch, num_boxes, q, 4) and scores "
                         "(batch, num_boxes, num_classes) with q 1 or num_classes, but got "
                         f"{b.shape} and {s.shape}.")
    per_class, total = int(_scalar(max_output_size_per_class)), int(_scalar(max_total_size))
    iou, thr = float(_scalar(iou_threshold)), float(_scalar(score_threshold))
    if per_class < 0 or total < 0:
        raise ValueError("For 'CombinedNonMaxSuppression', max_output_size_per_class and max_total_size "
                         f"must be >= 0, but got {per_class} and {total}.")
    if not 0.0 <= iou <= 1.0:
        raise ValueError(f"For 'CombinedNonMaxSuppression', iou_threshold must be in [0, 1], but got {iou}.")
    batch, _, q, _ = b.shape
    n_cls = s.shape[2]
    n_det = min(total, per_class * n_cls) if pad_per_class else total
    out_b = np.zeros((batch, n_det, 4), np.float32)
    out_s = np.zeros((batch, n_det), np.float32)
    out_c = np.zeros((batch, n_det), np.float32)
    valid = np.zeros(batch, np.int32)
    for i in range(batch):
        picks: list[tuple[float, int, np.ndarray]] = []
        for c in range(n_cls):
            cb = b[i, :, 0 if q == 1 else c].astype(np.float64)
            cs = s[i, :, c]
            cand = np.nonzero(cs > thr)[0]
            order = cand[np.argsort(-cs[cand], kind="stable")]
            kept = _greedy(order, lambda k, j, cb=cb: _iou(cb[j], cb[k]), iou, per_class)
            picks += [(float(cs[j]), c, b[i, j, 0 if q == 1 else c]) for j in kept]
        picks.sort(key=lambda p: -p[0])
        picks = picks[:n_det]
        valid[i] = len(picks)
        for k, (score, c, box) in enumerate(picks):
            out_b[i, k] = np.clip(box, 0.0, 1.0) if clip_boxes else box
            out_s[i, k], out_c[i, k] = score, c
    return Tensor(out_b), Tensor(out_s), Tensor(out_c), Tensor(valid)


def _setup_nms(prim: Any) -> None:
    if not isinstance(prim.iou_threshold, float):
        raise TypeError(f"For 'NMSWithMask', the 'iou_threshold' must be a float, but got "
                        f"{type(prim.iou_threshold).__name__}.")


ROWS = [
    Row("CombinedNonMaxSuppression", "pad_per_class=False, clip_boxes=True",
        "boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold",
        "_combined_nms(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, "
        "score_threshold, pad_per_class, clip_boxes)",
        summary="Per-class non-maximum suppression over a batch, then the best ``max_total_size`` boxes.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> boxes = Tensor(np.array([[[[0, 0, 1, 1]], [[0, 0, 1, 0.9]], [[2, 2, 3, 3]]]]), ms.float32)
        >>> scores = Tensor(np.array([[[0.9, 0.1], [0.8, 0.2], [0.7, 0.6]]]), ms.float32)
        >>> out = ops.CombinedNonMaxSuppression()(boxes, scores, Tensor(2, ms.int32), Tensor(3, ms.int32),
        ...                                    Tensor(0.5, ms.float32), Tensor(0.0, ms.float32))
        >>> nmsed_boxes, nmsed_scores, nmsed_classes, valid_detections = out
        >>> print(nmsed_scores, nmsed_classes, valid_detections)
        [[0.9 0.7 0.6]] [[0. 0. 1.]] [3]
        """),
    Row("NMSWithMask", "iou_threshold=0.5", "bboxes", "_nms_with_mask(bboxes, iou_threshold)", _setup_nms,
        summary="Greedy non-maximum suppression of boxes ``(x1, y1, x2, y2, score)``, with a keep mask.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> bbox = Tensor(np.array([[0, 0, 2, 2, 0.9], [0, 0, 2, 1.9, 0.8], [3, 3, 4, 4, 0.7]]), ms.float32)
        >>> output_boxes, indices, mask = ops.NMSWithMask(0.5)(bbox)
        >>> print(indices.asnumpy()[mask.asnumpy()])
        [0 2]
        """),
    Row("NonMaxSuppressionV3", "", "boxes, scores, max_output_size, iou_threshold, score_threshold",
        "_nms_v3(boxes, scores, max_output_size, iou_threshold, score_threshold)",
        summary="The indices of the boxes kept by greedy non-maximum suppression, best score first.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> boxes = Tensor(np.array([[1, 2, 3, 4], [1, 3, 3, 4], [1, 3, 4, 4], [1, 1, 4, 4], [1, 1, 3, 4]]),
        ...                ms.float32)
        >>> scores = Tensor(np.array([0.4, 0.5, 0.72, 0.9, 0.45]), ms.float32)
        >>> max_output_size, iou_threshold = Tensor(5, ms.int32), Tensor(0.5, ms.float32)
        >>> score_threshold = Tensor(0.0, ms.float32)
        >>> print(ops.NonMaxSuppressionV3()(boxes, scores, max_output_size, iou_threshold, score_threshold))
        [3 2 0]
        """),
    Row("NonMaxSuppressionWithOverlaps", "", "overlaps, scores, max_output_size, overlap_threshold, "
        "score_threshold",
        "_nms_overlaps(overlaps, scores, max_output_size, overlap_threshold, score_threshold)",
        summary="Greedy non-maximum suppression driven by a given overlap matrix instead of boxes.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> overlaps = Tensor(np.array([[1.0, 0.7, 0.1], [0.7, 1.0, 0.2], [0.1, 0.2, 1.0]]), ms.float32)
        >>> scores = Tensor(np.array([0.9, 0.8, 0.3]), ms.float32)
        >>> max_output_size, threshold = Tensor(3, ms.int32), Tensor(0.5, ms.float32)
        >>> score_threshold = Tensor(0.0, ms.float32)
        >>> op = ops.NonMaxSuppressionWithOverlaps()
        >>> print(op(overlaps, scores, max_output_size, threshold, score_threshold))
        [0 2]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
