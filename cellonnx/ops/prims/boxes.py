"""Box geometry primitives: the overlaps of rotated rectangles (rotated_iou), by polygon clipping."""
from __future__ import annotations

import numpy as np

from cellonnx.ops.prims._eager import not_exportable
from cellonnx.ops.registry import Op


def _corners(b: np.ndarray, trans: bool) -> np.ndarray:
    """The 4 corners (counter-clockwise) of boxes (..., 5): 'xywht' (centre, size, angle in degrees) or,
    with ``trans``, 'xyxyt' (two corners of the unrotated box, angle)."""
    if trans:
        cx, cy = (b[..., 0] + b[..., 2]) / 2, (b[..., 1] + b[..., 3]) / 2
        w, h = np.abs(b[..., 2] - b[..., 0]), np.abs(b[..., 3] - b[..., 1])
    else:
        cx, cy, w, h = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
    t = np.deg2rad(b[..., 4])
    c, s = np.cos(t), np.sin(t)
    dx = np.stack([-w, w, w, -w], -1) / 2
    dy = np.stack([-h, -h, h, h], -1) / 2
    xs = cx[..., None] + dx * c[..., None] - dy * s[..., None]
    ys = cy[..., None] + dx * s[..., None] + dy * c[..., None]
    return np.stack([xs, ys], -1)


def _clip_polygon(poly: list[tuple[float, float]], a: np.ndarray, b: np.ndarray) -> list[tuple[float, float]]:
    """Sutherland-Hodgman: the part of ``poly`` left of the directed edge a -> b."""
    def side(p: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])

    out: list[tuple[float, float]] = []
    for i, cur in enumerate(poly):
        prev = poly[i - 1]
        sc, sp = side(cur), side(prev)
        if sc >= 0:
            if sp < 0:
                t = sp / (sp - sc)
                out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
            out.append(cur)
        elif sp >= 0:
            t = sp / (sp - sc)
            out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
    return out


def _polygon_area(poly: list[tuple[float, float]]) -> float:
    return 0.5 * abs(sum(poly[i - 1][0] * p[1] - p[0] * poly[i - 1][1] for i, p in enumerate(poly)))


class RotatedIou(Op):
    """Overlaps of rotated rectangles by polygon clipping, in float64."""

    differentiable = False

    def forward(self, boxes, query, *, trans, mode, is_cross):
        cb = _corners(boxes.astype(np.float64), trans)   # (B, N, 4, 2)
        cq = _corners(query.astype(np.float64), trans)   # (B, K, 4, 2)
        bsz, n, k = cb.shape[0], cb.shape[1], cq.shape[1]
        out = np.zeros((bsz, n, k) if is_cross else (bsz, n))
        for b in range(bsz):
            for i in range(n):
                pa = [tuple(p) for p in cb[b, i]]
                area_a = _polygon_area(pa)
                for j in range(k) if is_cross else (i,):
                    pb = cq[b, j]
                    inter = pa
                    for e in range(4):
                        inter = _clip_polygon(inter, pb[e], pb[(e + 1) % 4])
                        if not inter:
                            break
                    ia = _polygon_area(inter) if len(inter) >= 3 else 0.0
                    area_b = _polygon_area([tuple(p) for p in pb])
                    den = area_a if mode == 1 else area_a + area_b - ia
                    val = ia / den if den > 0 else 0.0
                    if is_cross:
                        out[b, i, j] = val
                    else:
                        out[b, i] = val
        return out.astype(boxes.dtype)

    lower = not_exportable("rotated_iou", "the overlap of rotated boxes needs polygon clipping, which has no "
                                          "fixed graph of ONNX operators")


class NmsKeep(Op):
    """Greedy non-maximum suppression: which boxes (B, N, 4) (corners, any order of the two corners) survive,
    visiting them by decreasing ``scores`` (B, N); a box with score <= 0 takes no part; a box is dropped
    when its IoU with a kept box is above ``iou_threshold``. Returns a bool mask (B, N). One ONNX
    NonMaxSuppression (whose selected indices are scattered into the mask)."""

    differentiable = False

    def forward(self, boxes, scores, *, iou_threshold):
        if boxes.ndim != 3 or boxes.shape[-1] != 4 or scores.shape != boxes.shape[:2]:
            raise ValueError("shapes")   # named by check
        b64 = boxes.astype(np.float64)
        lo = np.minimum(b64[..., :2], b64[..., 2:])
        hi = np.maximum(b64[..., :2], b64[..., 2:])
        area = np.prod(hi - lo, axis=-1)
        keep = np.zeros(scores.shape, dtype=bool)
        for b in range(scores.shape[0]):
            kept: list[int] = []
            for i in np.argsort(-scores[b], kind="stable"):
                if scores[b, i] <= 0:
                    break
                ok = True
                for k in kept:
                    wh = np.clip(np.minimum(hi[b, i], hi[b, k]) - np.maximum(lo[b, i], lo[b, k]), 0, None)
                    inter = wh[0] * wh[1]
                    union = area[b, i] + area[b, k] - inter
                    if area[b, i] > 0 and area[b, k] > 0 and inter / union > iou_threshold:
                        ok = False
                        break
                if ok:
                    kept.append(int(i))
            keep[b, kept] = True
        return keep

    def check(self, boxes, scores, *, iou_threshold):
        return (f"boxes of shape {boxes.shape} and scores of shape {scores.shape}: "
                "expected (B, N, 4) and (B, N)")

    def lower(self, g, boxes, scores, *, iou_threshold):
        n = g.op("Shape", scores)
        sel = g.op("NonMaxSuppression", boxes, g.op("Unsqueeze", scores, g.i64([1])),
                   g.op("Slice", n, g.i64([1]), g.i64([2])), g.const(np.array([iou_threshold], np.float32)),
                   g.const(np.array([0.0], np.float32)))
        where = g.op("Gather", sel, g.i64([0, 2]), axis=1)  # (M, 2): batch, box
        count = g.op("Slice", g.op("Shape", sel), g.i64([0]), g.i64([1]))
        ones = g.op("Expand", g.const(np.array(True)), count)
        return g.op("ScatterND", g.op("Expand", g.const(np.array(False)), n), where, ones)


__all__: list[str] = []
