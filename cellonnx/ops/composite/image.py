"""MindSpore's image functions, over gathers and elementwise ops: crop_and_resize (TensorFlow's
CropAndResize), bounding_box_encode / bounding_box_decode (box <-> delta with the "+1 pixel" width of
MMDetection's legacy coder) and check_valid."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.ops.prims.index import stack, unbind
from cellonnx.ops.prims.math import (
    add,
    cast,
    ceil,
    clamp,
    div,
    exp,
    floor,
    greater_equal,
    less_equal,
    log,
    logical_and,
    mul,
    sub,
    where,
)
from cellonnx.ops.prims.scatter import Gather
from cellonnx.ops.prims.shape import expand_dims, reshape
from cellonnx.tensor import Tensor


# ---------------------------------------------------------------- crop_and_resize
def _sample_points(lo: Tensor, hi: Tensor, n: int, extent: int) -> Tensor:
    """TensorFlow's sampling positions of n points from lo to hi (normalised box edges, (K,)) in pixels of
    an axis of ``extent``: (K, n)."""
    scale = float(extent - 1)
    if n > 1:
        steps = Tensor._make(np.arange(n, dtype=np.float32) / np.float32(n - 1))
        return add(expand_dims(mul(lo, scale), 1), mul(expand_dims(mul(sub(hi, lo), scale), 1), steps))
    return expand_dims(mul(mul(add(lo, hi), 0.5), scale), 1)


def _v2_points(lo: Tensor, hi: Tensor, n: int, extent: int) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """MindSpore's 'bilinear_v2' positions: the box snapped to whole pixels, sampled at pixel centres.
    Returns (first pixel of the box (K, 1), lower and upper pixel offsets (K, n) and the weight (K, n))."""
    start = cast(cast(mul(lo, float(extent)), np.int32), np.float32)     # truncation, as C's float -> int
    stop = cast(cast(mul(hi, float(extent)), np.int32), np.float32)
    length = clamp(add(sub(stop, start), 1.0), 1.0, None)
    centres = Tensor._make(np.arange(n, dtype=np.float32) + np.float32(0.5))
    point = sub(mul(expand_dims(div(length, float(n)), 1), centres), 0.5)
    top = sub(length, 1.0)
    low = clamp(floor(point), 0.0, None)
    low = where(greater_equal(low, expand_dims(top, 1)), expand_dims(top, 1), low)
    high = clamp(ceil(point), 0.0, None)
    high = where(greater_equal(high, expand_dims(top, 1)), expand_dims(top, 1), high)
    return expand_dims(start, 1), low, high, sub(point, low)


def crop_and_resize(image: Tensor, boxes: Tensor, box_indices: Tensor, crop_size: Any,
                    method: str = "bilinear", extrapolation_value: float = 0.0) -> Tensor:
    """Crop boxes out of a batch of images and resize each crop to ``crop_size`` (TensorFlow's CropAndResize).

    Args:
        image (Tensor): (batch, height, width, depth), any real dtype.
        boxes (Tensor): float32 (num_boxes, 4) of normalised corners [y1, x1, y2, x2]; y1 > y2 flips the
            crop; coordinates outside [0, 1] sample ``extrapolation_value``.
        box_indices (Tensor): int32 (num_boxes,): the image of each box.
        crop_size (tuple[int]): (crop_height, crop_width), positive.
        method (str): 'bilinear', 'nearest' or 'bilinear_v2' (MindSpore's variant: the box snapped to whole
            pixels and sampled at pixel centres, no extrapolation). Default: 'bilinear'.
        extrapolation_value (float): the value of samples outside the image. Default: 0.0.

    Returns:
        float32 Tensor of shape (num_boxes, crop_height, crop_width, depth).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> image = Tensor(np.arange(16).reshape(1, 4, 4, 1), ms.float32)
        >>> boxes = Tensor(np.array([[0.0, 0.0, 1.0, 1.0]]), ms.float32)
        >>> box_indices = Tensor(np.array([0]), ms.int32)
        >>> y = ops.crop_and_resize(image, boxes, box_indices, (2, 2))
        >>> print(y.reshape(2, 2))
        [[ 0.  3.]
         [12. 15.]]
    """
    img, bx, bi = to_tensor(image), to_tensor(boxes), to_tensor(box_indices)
    if method not in ("bilinear", "nearest", "bilinear_v2"):
        raise ValueError(f"crop_and_resize: method must be 'bilinear', 'nearest' or 'bilinear_v2', got "
                         f"{method!r}")
    if not isinstance(crop_size, (tuple, list)) or len(crop_size) != 2 or any(
            isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v <= 0 for v in crop_size):
        raise ValueError(f"crop_and_resize: crop_size must be two positive ints, got {crop_size!r}")
    if img.ndim != 4 or bx.ndim != 2 or bx._data.shape[-1] != 4 or bi.ndim != 1 or \
            bi._data.shape[0] != bx._data.shape[0]:
        raise ValueError(f"crop_and_resize: expected image (B, H, W, C), boxes (K, 4) and box_indices (K,), "
                         f"got {tuple(img.shape)}, {tuple(bx.shape)} and {tuple(bi.shape)}")
    if bi._data.dtype.kind not in "iu":
        raise TypeError(f"crop_and_resize: box_indices must be integers, got {bi.dtype}")
    from cellonnx.graph.trace import require_static
    nb = img.shape[0]  # a graph value where the batch is dynamic
    for d in img.shape[1:3]:
        require_static(d, "crop_and_resize maps box corners with a float of the image size, which",
                       float_read=True)
    h, w, c = (int(v) for v in img._data.shape[1:])
    if bi._data.size and (int(bi._data.min()) < 0 or int(bi._data.max()) >= int(nb)):
        raise ValueError(f"crop_and_resize: box_indices must lie in [0, {int(nb)}), got values in "
                         f"[{int(bi._data.min())}, {int(bi._data.max())}]")
    ch, cw = int(crop_size[0]), int(crop_size[1])
    img = cast(img, np.float32)
    bx = cast(bx, np.float32)
    y1, x1, y2, x2 = unbind(bx, 1)
    flat = reshape(img, (-1, c))
    last = Tensor(nb * h * w - 1, np.int64)  # the last pixel of the batch
    base = mul(reshape(cast(bi, np.int64), (-1, 1, 1)), h * w)        # (K, 1, 1) first pixel of the image

    def pixels(yy: Tensor, xx: Tensor) -> Tensor:
        """The pixels at integer rows (K, ch, 1) and columns (K, 1, cw) of each box's image: (K, ch, cw,
        C)."""
        index = add(add(base, mul(cast(yy, np.int64), w)), cast(xx, np.int64))
        return Gather.apply(flat, clamp(index, 0, last), axis=0)

    if method == "bilinear_v2":
        ys, y_lo, y_hi, y_w = _v2_points(y1, y2, ch, h)
        xs, x_lo, x_hi, x_w = _v2_points(x1, x2, cw, w)
        # pixel indices held inside the image (MindSpore's kernel clamps them there too)
        rows_lo = expand_dims(clamp(add(ys, y_lo), 0.0, float(h - 1)), 2)
        rows_hi = expand_dims(clamp(add(ys, y_hi), 0.0, float(h - 1)), 2)
        cols_lo = expand_dims(clamp(add(xs, x_lo), 0.0, float(w - 1)), 1)
        cols_hi = expand_dims(clamp(add(xs, x_hi), 0.0, float(w - 1)), 1)
        wy, wx = expand_dims(expand_dims(y_w, 2), 3), expand_dims(expand_dims(x_w, 1), 3)
        one_y, one_x = sub(1.0, wy), sub(1.0, wx)
        corners = [(rows_lo, cols_lo, one_y, one_x), (rows_hi, cols_hi, wy, wx),
                   (rows_lo, cols_hi, one_y, wx), (rows_hi, cols_lo, wy, one_x)]
        terms = [mul(mul(pixels(r, c), a), b) for r, c, a, b in corners]
        return add(add(terms[0], terms[1]), add(terms[2], terms[3]))

    ty, tx = _sample_points(y1, y2, ch, h), _sample_points(x1, x2, cw, w)   # (K, ch), (K, cw)
    inside_y = logical_and(greater_equal(ty, 0.0), less_equal(ty, float(h - 1)))
    inside_x = logical_and(greater_equal(tx, 0.0), less_equal(tx, float(w - 1)))
    inside = logical_and(expand_dims(expand_dims(inside_y, 2), 3), expand_dims(expand_dims(inside_x, 1), 3))
    ty, tx = clamp(ty, 0.0, float(h - 1)), clamp(tx, 0.0, float(w - 1))
    if method == "nearest":   # C's roundf: halves away from zero (the positions here are >= 0)
        out = pixels(expand_dims(floor(add(ty, 0.5)), 2), expand_dims(floor(add(tx, 0.5)), 1))
    else:
        top, left = floor(ty), floor(tx)
        bottom, right = ceil(ty), ceil(tx)
        wy = expand_dims(expand_dims(sub(ty, top), 2), 3)
        wx = expand_dims(expand_dims(sub(tx, left), 1), 3)
        top, bottom = expand_dims(top, 2), expand_dims(bottom, 2)
        left, right = expand_dims(left, 1), expand_dims(right, 1)
        upper = add(pixels(top, left), mul(sub(pixels(top, right), pixels(top, left)), wx))
        lower = add(pixels(bottom, left), mul(sub(pixels(bottom, right), pixels(bottom, left)), wx))
        out = add(upper, mul(sub(lower, upper), wy))
    return where(inside, out, float(extrapolation_value))


# ---------------------------------------------------------------- boxes
def _centres(boxes: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """(cx, cy, w, h) of (x1, y1, x2, y2) boxes, widths counted in pixels (x2 - x1 + 1)."""
    x1, y1, x2, y2 = unbind(boxes, 1)
    return mul(add(x1, x2), 0.5), mul(add(y1, y2), 0.5), add(sub(x2, x1), 1.0), add(sub(y2, y1), 1.0)


def _float_boxes(t: Any, op: str, what: str) -> Tensor:
    t = to_tensor(t)
    if t.ndim != 2 or t._data.shape[-1] != 4:
        raise ValueError(f"{op}: {what} must have shape (n, 4), got {tuple(t.shape)}")
    return t if is_float_dtype(t._data.dtype) else cast(t, np.float32)


def _four(v: Any, op: str, what: str) -> tuple[float, ...]:
    if not isinstance(v, (tuple, list)) or len(v) != 4:
        raise TypeError(f"{op}: {what} must be a tuple of 4 floats, got {v!r}")
    return tuple(float(a) for a in v)


def bounding_box_encode(anchor_box: Tensor, groundtruth_box: Tensor, means: Any = (0.0, 0.0, 0.0, 0.0),
                        stds: Any = (1.0, 1.0, 1.0, 1.0)) -> Tensor:
    """The deltas from anchor boxes to ground-truth boxes (both (x1, y1, x2, y2)):
    ``((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh / ph))`` normalised by ``means`` and ``stds``,
    centres and sizes measured with widths x2 - x1 + 1.

    Returns:
        Tensor (n, 4) of ``anchor_box``'s dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> anchor = Tensor(np.array([[0.0, 0.0, 2.0, 2.0]]), ms.float32)
        >>> gt = Tensor(np.array([[0.0, 0.0, 4.0, 4.0]]), ms.float32)
        >>> print(ops.bounding_box_encode(anchor, gt).asnumpy().round(4))
        [[0.3333 0.3333 0.5108 0.5108]]
    """
    a = _float_boxes(anchor_box, "bounding_box_encode", "anchor_box")
    g = cast(_float_boxes(groundtruth_box, "bounding_box_encode", "groundtruth_box"), a._data.dtype)
    m, s = _four(means, "bounding_box_encode", "means"), _four(stds, "bounding_box_encode", "stds")
    px, py, pw, ph = _centres(a)
    gx, gy, gw, gh = _centres(g)
    deltas = [div(sub(gx, px), pw), div(sub(gy, py), ph), log(div(gw, pw)), log(div(gh, ph))]
    return stack([div(sub(d, mi), si) for d, mi, si in zip(deltas, m, s)], 1)


def bounding_box_decode(anchor_box: Tensor, deltas: Tensor, max_shape: Any, means: Any = (0.0, 0.0, 0.0, 0.0),
                        stds: Any = (1.0, 1.0, 1.0, 1.0), wh_ratio_clip: float = 0.016) -> Tensor:
    """Boxes (x1, y1, x2, y2) from anchors and deltas (the inverse of :func:`bounding_box_encode`): the size
    deltas are clipped to ``|log(wh_ratio_clip)|``, the corners to [0, max_shape] (height, width), as
    MindSpore's kernel does.

    Returns:
        Tensor (n, 4) of ``anchor_box``'s dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> anchor = Tensor(np.array([[0.0, 0.0, 2.0, 2.0]]), ms.float32)
        >>> deltas = Tensor(np.array([[0.5, 0.5, 0.0, 0.0]]), ms.float32)
        >>> print(ops.bounding_box_decode(anchor, deltas, (10, 10)))
        [[1.5 1.5 3.5 3.5]]
    """
    a = _float_boxes(anchor_box, "bounding_box_decode", "anchor_box")
    d = cast(_float_boxes(deltas, "bounding_box_decode", "deltas"), a._data.dtype)
    if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
        raise TypeError(f"bounding_box_decode: max_shape must be a tuple (height, width), got {max_shape!r}")
    if not isinstance(wh_ratio_clip, float):
        raise TypeError(f"bounding_box_decode: wh_ratio_clip must be a float, got {wh_ratio_clip!r}")
    m, s = _four(means, "bounding_box_decode", "means"), _four(stds, "bounding_box_decode", "stds")
    dx, dy, dw, dh = (add(mul(t, si), mi) for t, mi, si in zip(unbind(d, 1), m, s))
    limit = abs(math.log(wh_ratio_clip))
    dw, dh = clamp(dw, -limit, limit), clamp(dh, -limit, limit)
    px, py, pw, ph = _centres(a)
    gw, gh = mul(pw, exp(dw)), mul(ph, exp(dh))
    gx, gy = add(px, mul(pw, dx)), add(py, mul(ph, dy))
    hi_y, hi_x = float(max_shape[0]), float(max_shape[1])
    x1 = clamp(add(sub(gx, mul(gw, 0.5)), 0.5), 0.0, hi_x)
    y1 = clamp(add(sub(gy, mul(gh, 0.5)), 0.5), 0.0, hi_y)
    x2 = clamp(sub(add(gx, mul(gw, 0.5)), 0.5), 0.0, hi_x)
    y2 = clamp(sub(add(gy, mul(gh, 0.5)), 0.5), 0.0, hi_y)
    return stack([x1, y1, x2, y2], 1)


def check_valid(bboxes: Tensor, img_metas: Tensor) -> Tensor:
    """Whether each box (x0, y0, x1, y1) lies in the image ``img_metas`` = (height, width, ratio):
    ``x0 >= 0, y0 >= 0, x1 <= width * ratio - 1, y1 <= height * ratio - 1``. Returns a bool (n,) tensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> bboxes = Tensor(np.array([[1.0, 1.0, 3.0, 3.0], [1.0, 1.0, 30.0, 3.0]]), ms.float32)
        >>> img_metas = Tensor(np.array([10.0, 10.0, 1.0]), ms.float32)
        >>> print(ops.check_valid(bboxes, img_metas))
        [ True False]
    """
    b = _float_boxes(bboxes, "check_valid", "bboxes")
    meta = cast(to_tensor(img_metas), b._data.dtype)
    if meta.ndim != 1 or meta._data.shape[0] != 3:
        raise ValueError(f"check_valid: img_metas must be (height, width, ratio), got shape "
                         f"{tuple(meta.shape)}")
    height, width, ratio = unbind(meta, 0)
    x0, y0, x1, y1 = unbind(b, 1)
    ok = logical_and(greater_equal(x0, 0.0), greater_equal(y0, 0.0))
    ok = logical_and(ok, less_equal(x1, sub(mul(width, ratio), 1.0)))
    return logical_and(ok, less_equal(y1, sub(mul(height, ratio), 1.0)))


__all__ = ["bounding_box_decode", "bounding_box_encode", "check_valid", "crop_and_resize"]
