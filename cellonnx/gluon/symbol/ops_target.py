"""Detection training-target operators of MXNet 1.9.1's contrib set: ``_contrib_MultiBoxTarget`` (SSD's anchor
matching, with hard negative mining), ``_contrib_bipartite_matching`` (greedy matching of a score matrix) and
``_contrib_box_encode`` (matched boxes as normalized center offsets). They compute training targets, not
predictions: they run eagerly, and their inputs get zero gradients, as MXNet gives them."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["TARGET_OPS"]


def _eager(op: str) -> None:
    """These operators read their inputs' values: a traced graph (hybridize, export) cannot hold them."""
    from cellonnx.ops import registry

    if registry.TRACE_HOOK is not None:
        raise NotImplementedError(f"{op} computes training targets from its inputs' values and runs eagerly "
                                  "only; call it outside a hybridized block or an exported graph")


def _np(x: Any) -> np.ndarray:
    if isinstance(x, Tensor):
        return np.asarray(x._data)
    return np.asarray(x.asnumpy() if hasattr(x, "asnumpy") else x)


def _out(values: np.ndarray, like: Any) -> Tensor:
    dtype = _np(like).dtype if np.issubdtype(_np(like).dtype, np.floating) else np.float32
    return Tensor(np.ascontiguousarray(values.astype(dtype)))


def _floats(value: Any) -> list[float]:
    if isinstance(value, str):
        value = value.strip("()[] ").split(",")
    return [float(v) for v in (value if isinstance(value, (list, tuple)) else (value,))]


def _iou(anchors: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(N, M) IoU of corner boxes, 0 where the union is 0 (MXNet's safe_divide)."""
    a, b = anchors[:, None, :], boxes[None, :, :]
    iw = np.maximum(0.0, np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]))
    ih = np.maximum(0.0, np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]))
    inter = iw * ih
    area_a = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
    union = area_a + (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1]) - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(union != 0, inter / np.where(union != 0, union, 1), 0.0).astype(np.float32)


def _best(overlaps: np.ndarray) -> tuple[float, int]:
    """The largest overlap of one anchor and its first ground truth (-1, -1 without any)."""
    if overlaps.size == 0:
        return -1.0, -1
    k = int(np.argmax(overlaps))
    return (float(overlaps[k]), k) if overlaps[k] > -1.0 else (-1.0, -1)


def _match_batch(anchors: np.ndarray, labels: np.ndarray, cls_pred: np.ndarray, overlap_threshold: float,
                 ratio: float, mining_thresh: float) -> tuple[np.ndarray, np.ndarray]:
    """Per anchor: flag (1 positive, 0 negative, -1 ignored) and matched ground truth."""
    n = anchors.shape[0]
    valid = 0
    while valid < labels.shape[0] and labels[valid, 0] != -1.0:
        valid += 1
    flags = np.full(n, -1, np.int64)
    match_iou, match_gt = np.full(n, -1.0), np.full(n, -1, np.int64)
    if valid == 0:
        return flags, match_gt
    overlaps = _iou(anchors, labels[:valid, 1:5])
    gt_done = np.zeros(valid, bool)
    positives = 0
    while not gt_done.all():  # the best remaining (anchor, ground truth) pair, one ground truth at a time
        masked = np.where(flags[:, None] == 1, -np.inf, overlaps)
        masked = np.where(gt_done[None, :], -np.inf, masked)
        j, k = np.unravel_index(int(np.argmax(masked)), masked.shape)
        if not masked[j, k] > 1e-6:
            break
        match_iou[j], match_gt[j] = masked[j, k], k
        flags[j], gt_done[k] = 1, True
        positives += 1
    if overlap_threshold > 0:
        for j in np.flatnonzero(flags != 1):
            match_iou[j], match_gt[j] = _best(overlaps[j])
            if match_gt[j] != -1 and match_iou[j] > overlap_threshold:
                flags[j] = 1
                positives += 1
    if ratio > 0:
        if not mining_thresh > 0:
            raise ValueError(f"MultiBoxTarget: negative_mining_thresh must be > 0, got {mining_thresh}")
        negatives = min(int(positives * ratio), n - positives)
        if negatives > 0:
            order = []
            for j in np.flatnonzero(flags != 1):
                if match_iou[j] < 0:
                    match_iou[j], match_gt[j] = _best(overlaps[j])
                if match_iou[j] < mining_thresh and flags[j] == -1:
                    scores = cls_pred[:, j].astype(np.float32)
                    e = np.exp(scores - scores.max(), dtype=np.float32)
                    order.append((float(e[0] / e.sum(dtype=np.float32)), int(j)))
            if len(order) < negatives:
                raise ValueError(f"MultiBoxTarget: {len(order)} negative candidates for {negatives} "
                                 "negatives")
            order.sort(key=lambda t: t[0])  # the least background-like first (stable, as MXNet's)
            for _, j in order[:negatives]:
                flags[j] = 0
    else:
        flags[flags != 1] = 0
    return flags, match_gt


def multibox_target(anchor: Any, label: Any, cls_pred: Any, overlap_threshold: float = 0.5,
                    ignore_label: float = -1.0, negative_mining_ratio: float = -1.0,
                    negative_mining_thresh: float = 0.5, minimum_negative_samples: int = 0,
                    variances: Any = (0.1, 0.1, 0.2, 0.2), **_: Any) -> tuple[Tensor, Tensor, Tensor]:
    """SSD's training targets: anchors (1, N, 4) matched to labels (B, M, 5) of (class, x1, y1, x2, y2) rows
    (the first row of class -1 ends them) - each ground truth to its best anchor first, then every anchor
    whose best IoU passes ``overlap_threshold`` - and negatives (all the rest, or with
    ``negative_mining_ratio`` > 0 the ``ratio * positives`` least background-like under ``cls_pred``
    (B, classes, N) among anchors with IoU below ``negative_mining_thresh``). Returns loc_target (B, N * 4)
    (center offsets over ``variances``), loc_mask (B, N * 4) and cls_target (B, N): class + 1, 0 for
    negatives, ``ignore_label`` otherwise. ``minimum_negative_samples`` is accepted and, as in MXNet's CPU
    kernel, unused."""
    _eager("MultiBoxTarget")
    anchors = _np(anchor).reshape(-1, 4).astype(np.float32)
    labels, preds = _np(label).astype(np.float32), _np(cls_pred).astype(np.float32)
    v = _floats(variances)
    if len(v) != 4:
        raise ValueError(f"MultiBoxTarget: variances must hold 4 values, got {variances!r}")
    batch, n = labels.shape[0], anchors.shape[0]
    loc, mask = np.zeros((batch, n, 4), np.float32), np.zeros((batch, n, 4), np.float32)
    cls = np.full((batch, n), float(ignore_label), np.float32)
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    ax, ay = (anchors[:, 0] + anchors[:, 2]) * 0.5, (anchors[:, 1] + anchors[:, 3]) * 0.5
    for b in range(batch):
        flags, gt = _match_batch(anchors, labels[b], preds[b], float(overlap_threshold),
                                 float(negative_mining_ratio), float(negative_mining_thresh))
        pos = flags == 1
        cls[b, flags == 0] = 0.0
        if pos.any():
            g = labels[b, gt[pos]]
            cls[b, pos] = g[:, 0] + 1
            gw, gh = g[:, 3] - g[:, 1], g[:, 4] - g[:, 2]
            gx, gy = (g[:, 1] + g[:, 3]) * 0.5, (g[:, 2] + g[:, 4]) * 0.5
            loc[b, pos] = np.stack([(gx - ax[pos]) / aw[pos] / v[0], (gy - ay[pos]) / ah[pos] / v[1],
                                    np.log(gw / aw[pos]) / v[2], np.log(gh / ah[pos]) / v[3]], -1)
            mask[b, pos] = 1.0
    like = cls_pred
    return _out(loc.reshape(batch, -1), like), _out(mask.reshape(batch, -1), like), _out(cls, like)


def bipartite_matching(data: Any, threshold: float, is_ascend: bool = False, topk: int = -1,
                       **_: Any) -> tuple[Tensor, Tensor]:
    """Greedy bipartite matching of each (N, M) score matrix of ``data`` (..., N, M): pairs taken best score
    first while above ``threshold`` (below it with ``is_ascend``), each row and column once; ``topk`` > 0
    stops after topk + 1 matches (MXNet counts past its limit before it stops). Returns the matched column of
    each row and the matched row of each column, -1 where unmatched."""
    _eager("bipartite_matching")
    scores = _np(data).astype(np.float32)
    rows_n, cols_n = scores.shape[-2], scores.shape[-1]
    flat = scores.reshape(-1, rows_n * cols_n)
    row_marker = np.full((flat.shape[0], rows_n), -1.0, np.float32)
    col_marker = np.full((flat.shape[0], cols_n), -1.0, np.float32)
    thr, k = float(threshold), int(topk)
    for b in range(flat.shape[0]):
        order = np.argsort(flat[b] if is_ascend else -flat[b], kind="stable")
        count = 0
        for idx in order:
            r, c = divmod(int(idx), cols_n)
            if row_marker[b, r] != -1 or col_marker[b, c] != -1:
                continue
            s = flat[b, idx]
            if not ((not is_ascend and s > thr) or (is_ascend and s < thr)):
                break
            row_marker[b, r], col_marker[b, c] = c, r
            count += 1
            if 0 < k < count:
                break
    lead = scores.shape[:-2]
    return _out(row_marker.reshape(*lead, rows_n), data), _out(col_marker.reshape(*lead, cols_n), data)


def box_encode(samples: Any, matches: Any, anchors: Any, refs: Any, means: Any, stds: Any,
               **_: Any) -> tuple[Tensor, Tensor]:
    """Training targets of matched boxes: for each positive sample (``samples`` > 0.5) of (B, N), the
    reference box ``refs[b, matches[b, i]]`` (B, M, 4) against its anchor (B, N, 4) as
    ((dx / w_a, dy / h_a, log(w / w_a), log(h / h_a)) - means) / stds, with a (B, N, 4) mask of the
    positives; zeros elsewhere."""
    _eager("box_encode")
    s, m = _np(samples).astype(np.float32), _np(matches).astype(np.int64)
    a, r = _np(anchors).astype(np.float32), _np(refs).astype(np.float32)
    mean, std = _np(means).astype(np.float32), _np(stds).astype(np.float32)
    ref = np.take_along_axis(r, np.clip(m, 0, r.shape[1] - 1)[..., None], axis=1)
    rw, rh = ref[..., 2] - ref[..., 0], ref[..., 3] - ref[..., 1]
    rx, ry = ref[..., 0] + rw * 0.5, ref[..., 1] + rh * 0.5
    aw, ah = a[..., 2] - a[..., 0], a[..., 3] - a[..., 1]
    axc, ayc = a[..., 0] + aw * 0.5, a[..., 1] + ah * 0.5
    valid = (s > 0.5).astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.stack([((rx - axc) / aw - mean[0]) / std[0], ((ry - ayc) / ah - mean[1]) / std[1],
                      (np.log(rw / aw) - mean[2]) / std[2], (np.log(rh / ah) - mean[3]) / std[3]], -1)
    targets = np.where(valid[..., None] > 0.5, t, 0.0)
    return _out(targets, anchors), _out(np.repeat(valid[..., None], 4, -1), anchors)


TARGET_OPS = {"_contrib_MultiBoxTarget": multibox_target, "_contrib_bipartite_matching": bipartite_matching,
              "_contrib_box_encode": box_encode}
