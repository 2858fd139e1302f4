"""GluonCV's box operators that exported detection graphs hold: ``_contrib_box_decode`` (the deltas of
predicted boxes applied to anchors, written with cellonnx ops, so it differentiates and exports),
``_contrib_box_nms`` (eager, with its gradient) and ``_contrib_quadratic``."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.autograd.function import _Function
from cellonnx.tensor import Tensor

__all__ = ["BOX_OPS"]


def _zero_gradient(x: Tensor) -> Tensor:
    """``x``, still connected to the graph but with a zero gradient (MXNet's MakeZeroGradNodes: parameters
    that feed only such an operator get zero gradients, not stale ones)."""
    return ops.stop_gradient(x) + x * 0.0


def box_decode(
    data: Tensor,
    anchors: Tensor,
    std0: float = 1.0,
    std1: float = 1.0,
    std2: float = 1.0,
    std3: float = 1.0,
    clip: float = -1.0,
    format: str = "center",
    **_: Any,
) -> Tensor:
    """Boxes (x1, y1, x2, y2) from deltas (B, N, 4) and anchors (1, N, 4) in ``format`` ('corner' or
    'center': x, y, w, h): centre moved by delta * std * anchor size, size scaled by exp(delta * std), the
    exponent clipped at ``clip`` when it is positive. As in MXNet, no gradient flows through it (MXNet gives
    its inputs zero gradients)."""
    data, anchors = _zero_gradient(data), _zero_gradient(anchors)
    a0, a1, a2, a3 = (anchors[..., i : i + 1] for i in range(4))
    if format == "corner":
        aw, ah = a2 - a0, a3 - a1
        ax, ay = a0 + aw * 0.5, a1 + ah * 0.5
    elif format == "center":
        ax, ay, aw, ah = a0, a1, a2, a3
    else:
        raise ValueError(f"box_decode: format must be 'corner' or 'center', got {format!r}")
    d0, d1, d2, d3 = (data[..., i : i + 1] for i in range(4))
    ox = d0 * float(std0) * aw + ax
    oy = d1 * float(std1) * ah + ay
    dw, dh = d2 * float(std2), d3 * float(std3)
    if clip > 0:
        dw, dh = ops.minimum(dw, float(clip)), ops.minimum(dh, float(clip))
    ow = ops.exp(dw) * aw * 0.5
    oh = ops.exp(dh) * ah * 0.5
    return ops.concat([ox - ow, oy - oh, ox + ow, oy + oh], axis=-1)


def quadratic(data: Tensor, a: float = 0.0, b: float = 0.0, c: float = 0.0, **_: Any) -> Tensor:
    """``a * x^2 + b * x + c``."""
    return data * data * float(a) + data * float(b) + float(c)


def _corners(boxes: Tensor, fmt: str) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    c = [boxes[..., i : i + 1] for i in range(4)]
    if fmt == "corner":
        return c[0], c[1], c[2], c[3]
    if fmt != "center":
        raise ValueError(f"box_iou: format must be 'corner' or 'center', got {fmt!r}")
    x, y, w, h = c
    return x - w * 0.5, y - h * 0.5, x + w * 0.5, y + h * 0.5


def box_iou(lhs: Tensor, rhs: Tensor, format: str = "corner", **_: Any) -> Tensor:
    """Intersection over union of every box of ``lhs`` (..., 4) with every box of ``rhs`` (..., 4): shape
    lhs.shape[:-1] + rhs.shape[:-1]. As in MXNet, its inputs get zero gradients."""
    lhs, rhs = _zero_gradient(lhs), _zero_gradient(rhs)
    lead_l, lead_r = tuple(lhs.shape[:-1]), tuple(rhs.shape[:-1])
    a = _corners(ops.reshape(lhs, (-1, 1, 4)), format)  # (L, 1, 1) each
    b = _corners(ops.reshape(rhs, (1, -1, 4)), format)  # (1, R, 1) each
    iw = ops.relu(ops.minimum(a[2], b[2]) - ops.maximum(a[0], b[0]))
    ih = ops.relu(ops.minimum(a[3], b[3]) - ops.maximum(a[1], b[1]))
    inter = iw * ih
    area_a = ops.relu(a[2] - a[0]) * ops.relu(a[3] - a[1])
    area_b = ops.relu(b[2] - b[0]) * ops.relu(b[3] - b[1])
    union = area_a + area_b - inter
    iou = ops.where(ops.greater(union, 0), inter / ops.maximum(union, 1e-12), ops.zeros_like(inter))
    return ops.reshape(iou, lead_l + lead_r)


BOX_OPS = {"_contrib_box_decode": box_decode, "_contrib_quadratic": quadratic, "_contrib_box_iou": box_iou}


def _corner(boxes: np.ndarray, fmt: str) -> np.ndarray:
    if fmt == "corner":
        return boxes
    x, y, w, h = (boxes[..., i] for i in range(4))
    return np.stack([x - w / 2, y - h / 2, x + w / 2, y + h / 2], axis=-1)


def _center(boxes: np.ndarray) -> np.ndarray:
    x1, y1, x2, y2 = (boxes[..., i] for i in range(4))
    return np.stack([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1], axis=-1)


def _nms_rows(rows: np.ndarray, o: dict) -> list[int]:
    """The rows of one batch MXNet's box_nms keeps, in output order."""
    score = rows[:, o["score_index"]]
    ids = rows[:, o["id_index"]] if o["id_index"] >= 0 else None
    valid = score > o["valid_thresh"]
    if ids is not None and o["background_id"] >= 0:
        valid &= ids != o["background_id"]
    order = [int(i) for i in np.argsort(-score, kind="stable") if valid[i]]
    if o["topk"] > 0:
        order = order[: o["topk"]]
    cs = o["coord_start"]
    boxes = _corner(rows[:, cs : cs + 4].astype(np.float64), o["in_format"])
    area = np.clip(boxes[:, 2] - boxes[:, 0], 0, None) * np.clip(boxes[:, 3] - boxes[:, 1], 0, None)
    kept: list[int] = []
    for i in order:
        ok = True
        for k in kept:
            if ids is not None and not o["force_suppress"] and ids[i] != ids[k]:
                continue
            iw = min(boxes[i, 2], boxes[k, 2]) - max(boxes[i, 0], boxes[k, 0])
            ih = min(boxes[i, 3], boxes[k, 3]) - max(boxes[i, 1], boxes[k, 1])
            inter = max(iw, 0.0) * max(ih, 0.0)
            union = area[i] + area[k] - inter
            if union > 0 and inter / union > o["overlap_thresh"]:
                ok = False
                break
        if ok:
            kept.append(i)
    return kept


class _BoxNMS(_Function):
    @staticmethod
    def forward(ctx: Any, data: Tensor, o: dict) -> Tensor:
        x = data.asnumpy()
        flat = x.reshape(-1, x.shape[-2], x.shape[-1])
        out = np.full_like(flat, -1)
        index = np.full(flat.shape[:2], -1, dtype=np.int64)
        cs = o["coord_start"]
        for b in range(flat.shape[0]):
            kept = _nms_rows(flat[b], o)
            out[b, : len(kept)] = flat[b, kept]
            index[b, : len(kept)] = kept
            if o["in_format"] != o["out_format"] and kept:
                coords = flat[b, kept, cs : cs + 4].astype(np.float64)
                coords = _corner(coords, o["in_format"]) if o["out_format"] == "corner" else _center(coords)
                out[b, : len(kept), cs : cs + 4] = coords
        ctx.index, ctx.shape = index, x.shape
        return Tensor(out.reshape(x.shape))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        g = grad.asnumpy().reshape(ctx.index.shape + (ctx.shape[-1],))
        dx = np.zeros_like(g)
        for b in range(g.shape[0]):
            rows = ctx.index[b]
            mask = rows >= 0
            dx[b, rows[mask]] = g[b, mask]
        return Tensor(dx.reshape(ctx.shape)), None


def box_nms(
    data: Tensor,
    overlap_thresh: float = 0.5,
    valid_thresh: float = 0.0,
    topk: int = -1,
    coord_start: int = 2,
    score_index: int = 1,
    id_index: int = -1,
    background_id: int = -1,
    force_suppress: bool = False,
    in_format: str = "corner",
    out_format: str = "corner",
    **_: Any,
) -> Tensor:
    """Non-maximum suppression of (..., N, K) records: the kept records sorted by score first, the rest -1;
    the gradient flows to the records kept. Runs eagerly (ONNX's NonMaxSuppression returns indices, not
    this layout, so a traced graph with box_nms is not exported)."""
    from cellonnx.ops import registry

    o = {
        "overlap_thresh": float(overlap_thresh),
        "valid_thresh": float(valid_thresh),
        "topk": int(topk),
        "coord_start": int(coord_start),
        "score_index": int(score_index),
        "id_index": int(id_index),
        "background_id": int(background_id),
        "force_suppress": bool(force_suppress),
        "in_format": in_format,
        "out_format": out_format,
    }
    if registry.TRACE_HOOK is not None:
        return _box_nms_graph(data, o)
    return _BoxNMS.apply(data, o)


def _take_rows(x: Tensor, order: Tensor) -> Tensor:
    """``x`` (B, N, ...) with its rows reordered by ``order`` (B, N) per batch."""
    idx = order
    for _ in range(x.ndim - 2):
        idx = ops.expand_dims(idx, -1)
    idx = ops.broadcast_to(idx, tuple(order.shape) + tuple(x.shape[2:])) if x.ndim > 2 else idx
    return ops.gather_elements(x, 1, idx)


def _box_nms_graph(data: Tensor, o: dict) -> Tensor:
    """box_nms written with ops (the traced form): the valid records sorted by score, the top ``topk``
    suppressed greedily (one NonMaxSuppression; classes kept apart by moving each class's boxes out of the
    others' reach unless ``force_suppress``), then the kept records packed first and the rest set to -1."""
    from cellonnx.ops.prims.boxes import NmsKeep

    shape = tuple(data.shape)
    n, k = int(shape[-2]), int(shape[-1])
    x = ops.reshape(data, (-1, n, k))
    score = x[:, :, o["score_index"]]
    valid = ops.greater(score, o["valid_thresh"])
    if o["id_index"] >= 0 and o["background_id"] >= 0:
        valid = ops.logical_and(valid, ops.not_equal(x[:, :, o["id_index"]], float(o["background_id"])))
    masked = ops.where(valid, score, ops.full_like(score, -np.inf))
    order = ops.topk(masked, n, dim=1)[1]
    rows = _take_rows(x, order)
    rank = ops.cast(ops.arange(0, n, 1), np.float32)
    chosen = ops.gather_elements(valid, 1, order)
    if o["topk"] > 0:
        chosen = ops.logical_and(chosen, ops.less(rank, float(o["topk"])))
    cs = o["coord_start"]
    corner = rows[:, :, cs : cs + 4]
    if o["in_format"] == "center":
        cx, cy, w, h = (corner[:, :, i : i + 1] for i in range(4))
        corner = ops.concat([cx - w * 0.5, cy - h * 0.5, cx + w * 0.5, cy + h * 0.5], axis=-1)
    corner = ops.cast(corner, np.float32)
    if o["id_index"] >= 0 and not o["force_suppress"]:
        reach = ops.amax(ops.abs(corner)) * 2.0 + 1.0
        corner = corner + ops.cast(rows[:, :, o["id_index"] : o["id_index"] + 1], np.float32) * reach
    visit = ops.where(chosen, float(n) - rank, ops.zeros_like(score))  # > 0, in score order
    keep = NmsKeep.apply(corner, ops.cast(visit, np.float32), iou_threshold=o["overlap_thresh"])
    pack = ops.topk(ops.where(keep, float(n) - rank, ops.zeros_like(rank)), n, dim=1)[1]
    out = _take_rows(rows, pack)
    kept = ops.expand_dims(ops.gather_elements(keep, 1, pack), -1)
    if o["in_format"] != o["out_format"]:
        c = out[:, :, cs : cs + 4]
        a, b, c2, d = (c[:, :, i : i + 1] for i in range(4))
        if o["out_format"] == "corner":
            coords = [a - c2 * 0.5, b - d * 0.5, a + c2 * 0.5, b + d * 0.5]
        else:
            coords = [(a + c2) * 0.5, (b + d) * 0.5, c2 - a, d - b]
        out = ops.concat([out[:, :, :cs], *coords, out[:, :, cs + 4 :]], axis=-1)
    out = ops.where(kept, out, ops.full_like(out, -1))
    return ops.reshape(out, (-1,) + shape[1:]) if len(shape) > 3 else out


BOX_OPS.update({"_contrib_box_nms": box_nms, "_contrib_box_non_maximum_suppression": box_nms})
