"""MindSpore's image, box and signal operator classes (``ops.BoundingBoxEncode``, ``ops.IOU``,
``ops.CropAndResize``, ``ops.AffineGrid``, ``ops.Col2Im``, the window functions, ``ops.STFT``,
``ops.LinSpace`` ...): table rows over the functional ops (see table.py)."""
from __future__ import annotations

from typing import Any

from cellonnx.ops.operations._util import ints  # noqa: F401 (the rows' twins read it)
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _length(value: Any) -> int:
    """A window length given as an int or a Tensor of one element."""
    return int(value.asnumpy().reshape(-1)[0]) if isinstance(value, Tensor) else int(value)


ROWS = [
    # ---- boxes
    Row("BoundingBoxEncode", "means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)",
        "anchor_box, groundtruth_box", "bounding_box_encode(anchor_box, groundtruth_box, means, stds)"),
    Row("BoundingBoxDecode", "max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0), "
        "wh_ratio_clip=0.016", "anchor_box, deltas",
        "bounding_box_decode(anchor_box, deltas, max_shape, means, stds, wh_ratio_clip)"),
    Row("IOU", "mode='iou'", "anchor_boxes, gt_boxes", "iou(anchor_boxes, gt_boxes, mode)"),
    Row("CheckValid", "", "bboxes, img_metas", "check_valid(bboxes, img_metas)"),
    # ---- images
    Row("CropAndResize", "method='bilinear', extrapolation_value=0.0", "x, boxes, box_index, crop_size",
        "crop_and_resize(x, boxes, box_index, ints(crop_size), method, extrapolation_value)"),
    Row("AffineGrid", "align_corners=False", "theta, output_size",
        "affine_grid(theta, ints(output_size), align_corners)"),
    Row("Col2Im", "kernel_size, dilation=1, padding=0, stride=1", "x, output_size",
        "col2im(x, ints(output_size), kernel_size, dilation, padding, stride)"),
    # ---- windows, ranges and the short-time Fourier transform
    Row("BartlettWindow", "periodic=True, dtype=mstype.float32", "window_length",
        "bartlett_window(_length(window_length), periodic, dtype=dtype)"),
    Row("BlackmanWindow", "periodic=True, dtype=mstype.float32", "window_length",
        "blackman_window(_length(window_length), periodic, dtype=dtype)"),
    Row("HammingWindow", "periodic=True, alpha=0.54, beta=0.46, dtype=mstype.float32", "length",
        "hamming_window(_length(length), periodic, alpha, beta, dtype=dtype)"),
    Row("LinSpace", "", "start, stop, num", "linspace(start, stop, num)"),
    Row("LogSpace", "steps=10, base=10, dtype=mstype.float32", "start, end",
        "logspace(start, end, steps, base, dtype=dtype)"),
    Row("STFT", "n_fft, hop_length, win_length, normalized, onesided, return_complex", "x, window",
        "stft(x, n_fft, hop_length, win_length, window, False, 'REFLECT', normalized, onesided, "
        "return_complex)"),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
