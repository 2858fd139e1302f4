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


__all__: list[str] = []
