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
    exponent clipped at ``clip`` when it is positive."""
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


BOX_OPS = {"_contrib_box_decode": box_decode, "_contrib_quadratic": quadratic}


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

    if registry.TRACE_HOOK is not None:
        raise NotImplementedError(
            "_contrib_box_nms: not exported to ONNX (ONNX's NonMaxSuppression returns "
            "indices, not MXNet's sorted, -1-padded records); export the network without "
            "its box_nms head and run the suppression after it"
        )
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
    return _BoxNMS.apply(data, o)


BOX_OPS.update({"_contrib_box_nms": box_nms, "_contrib_box_non_maximum_suppression": box_nms})
