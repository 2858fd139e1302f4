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


def _roi_align(features: Tensor, rois: Tensor, pooled_height: int, pooled_width: int, spatial_scale: float,
               sample_num: int, roi_end_mode: int) -> Tensor:
    """ops.ROIAlign: rois are (R, 5) rows ``(batch_index, x1, y1, x2, y2)``. ``roi_end_mode`` 1 adds one pixel
    to the end corner before scaling and keeps regions as they are; 0 (legacy) clamps each region to at
    least one cell. ``sample_num`` <= 0 takes ceil(region size / pooled size) samples per bin, per region."""
    import numpy as np

    import cellonnx.mxnet  # noqa: F401 (loads the packages ops_roi belongs to, in their order)
    from cellonnx import ops
    from cellonnx.gluon.symbol.ops_roi import roi_align

    if roi_end_mode not in (0, 1):
        raise ValueError(f"For 'ROIAlign', the 'roi_end_mode' must be 0 or 1, but got {roi_end_mode}")
    if features.ndim != 4 or rois.ndim != 2 or rois.shape[1] != 5:
        raise ValueError(f"For 'ROIAlign', features must be 4-D (N, C, H, W) and rois (R, 5), but got "
                         f"{tuple(features.shape)} and {tuple(rois.shape)}")
    scale = float(spatial_scale)
    aligned = roi_end_mode == 1
    if aligned:  # the helper's aligned mode shifts by half a cell: cancel it, then add the end pixel
        half = 0.5 / scale
        rois = rois + Tensor(np.array([0, half, half, 1 + half, 1 + half], rois.dtype.np_dtype))
    pooled = (int(pooled_height), int(pooled_width))
    if sample_num > 0:
        return roi_align(features, rois, pooled, scale, int(sample_num), aligned=aligned)
    box = ops.stop_gradient(rois).asnumpy().astype(np.float64) * scale
    outs = []
    for r in range(rois.shape[0]):
        size_h, size_w = box[r, 4] - box[r, 2], box[r, 3] - box[r, 1]
        if not aligned:
            size_h, size_w = max(size_h, 1.0), max(size_w, 1.0)
        grid_h, grid_w = max(int(np.ceil(size_h / pooled[0])), 1), max(int(np.ceil(size_w / pooled[1])), 1)
        if grid_h != grid_w:
            raise NotImplementedError("For 'ROIAlign', sample_num <= 0 with a region whose adaptive sample "
                                      f"counts differ along height and width ({grid_h} and {grid_w}) is not "
                                      "supported; give a positive sample_num")
        outs.append(roi_align(features, rois[r:r + 1], pooled, scale, grid_h, aligned=aligned))
    return ops.concat(outs, 0)


ROWS = [
    # ---- boxes
    Row("BoundingBoxEncode", "means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)",
        "anchor_box, groundtruth_box", "bounding_box_encode(anchor_box, groundtruth_box, means, stds)",
        summary="The deltas (dx, dy, dw, dh) that turn anchor boxes into ground-truth boxes.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> anchor_box = Tensor(np.array([[2.0, 2.0, 2.0, 3.0], [2.0, 2.0, 2.0, 3.0]]), ms.float32)
        >>> groundtruth_box = Tensor(np.array([[1.0, 2.0, 1.0, 4.0], [1.0, 2.0, 1.0, 4.0]]), ms.float32)
        >>> print(ops.BoundingBoxEncode()(anchor_box, groundtruth_box).asnumpy().round(4))
        [[-1.      0.25    0.      0.4055]
         [-1.      0.25    0.      0.4055]]
        """),
    Row("BoundingBoxDecode", "max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0), "
        "wh_ratio_clip=0.016", "anchor_box, deltas",
        "bounding_box_decode(anchor_box, deltas, max_shape, means, stds, wh_ratio_clip)",
        summary="Boxes from anchor boxes and encoded deltas (undoes BoundingBoxEncode), clipped.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> anchor_box = Tensor(np.array([[4.0, 1.0, 2.0, 1.0], [2.0, 2.0, 2.0, 3.0]]), ms.float32)
        >>> deltas = Tensor(np.array([[3.0, 1.0, 2.0, 2.0], [1.0, 2.0, 1.0, 4.0]]), ms.float32)
        >>> decode = ops.BoundingBoxDecode(max_shape=(768, 1280), wh_ratio_clip=0.016)
        >>> print(decode(anchor_box, deltas).asnumpy().round(4))
        [[ 4.1945  0.      0.      5.1945]
         [ 2.1409  0.      3.8591 60.5982]]
        """),
    Row("ROIAlign", "pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1",
        "features, rois",
        "_roi_align(features, rois, pooled_height, pooled_width, spatial_scale, sample_num, roi_end_mode)",
        summary="Region-of-interest pooling by bilinear sampling of each box of ``rois``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> features = Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]]), ms.float32)
        >>> rois = Tensor(np.array([[0, 0.2, 0.3, 0.2, 0.3]]), ms.float32)
        >>> print(ops.ROIAlign(2, 2, 0.5, 2)(features, rois).asnumpy().round(4))
        [[[[1.775 2.025]
           [2.275 2.525]]]]
        """),
    Row("IOU", "mode='iou'", "anchor_boxes, gt_boxes", "iou(anchor_boxes, gt_boxes, mode)",
        summary="The intersection over union (or over foreground, ``mode='iof'``) of every pair of boxes.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> anchor_boxes = Tensor(np.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 3.0]]), ms.float32)
        >>> gt_boxes = Tensor(np.array([[0.0, 0.0, 2.0, 2.0]]), ms.float32)
        >>> print(ops.IOU()(anchor_boxes, gt_boxes).asnumpy().round(4))
        [[1.     0.2857]]
        """),
    Row("CheckValid", "", "bboxes, img_metas", "check_valid(bboxes, img_metas)",
        summary="Whether each box ``(x1, y1, x2, y2)`` lies in the image of ``img_metas``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> bboxes = Tensor(np.array([[0.0, 0.0, 4.0, 4.0], [2.0, 2.0, 12.0, 6.0]]), ms.float32)
        >>> img_metas = Tensor(np.array([8.0, 10.0, 1.0]), ms.float32)
        >>> print(ops.CheckValid()(bboxes, img_metas))
        [ True False]
        """),
    # ---- images
    Row("CropAndResize", "method='bilinear', extrapolation_value=0.0", "x, boxes, box_index, crop_size",
        "crop_and_resize(x, boxes, box_index, ints(crop_size), method, extrapolation_value)",
        summary="Crops the normalized ``boxes`` (y1, x1, y2, x2) from images, resized to ``crop_size``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 4, 4, 1), ms.float32)
        >>> boxes = Tensor(np.array([[0.0, 0.0, 1.0, 1.0]]), ms.float32)
        >>> box_index = Tensor(np.array([0]), ms.int32)
        >>> y = ops.CropAndResize()(x, boxes, box_index, (2, 2))
        >>> print(y.asnumpy().ravel())
        [ 0.  3. 12. 15.]
        """),
    Row("AffineGrid", "align_corners=False", "theta, output_size",
        "affine_grid(theta, ints(output_size), align_corners)",
        summary="The sampling grid of the affine transforms ``theta`` for an output of size ``output_size``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> theta = Tensor(np.array([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), ms.float32)
        >>> print(ops.AffineGrid(align_corners=True)(theta, (1, 1, 2, 3)))
        [[[[-1. -1.]
           [ 0. -1.]
           [ 1. -1.]]
        <BLANKLINE>
          [[-1.  1.]
           [ 0.  1.]
           [ 1.  1.]]]]
        """),
    Row("Col2Im", "kernel_size, dilation=1, padding=0, stride=1", "x, output_size",
        "col2im(x, ints(output_size), kernel_size, dilation, padding, stride)",
        summary="Sums columns of sliding windows back into an image (the inverse layout of Im2Col).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((1, 1, 4, 4)), ms.float32)
        >>> output_size = Tensor(np.array([3, 3]), ms.int32)
        >>> print(ops.Col2Im(kernel_size=[2, 2])(x, output_size))
        [[[[1. 2. 1.]
           [2. 4. 2.]
           [1. 2. 1.]]]]
        """),
    # ---- windows, ranges and the short-time Fourier transform
    Row("BartlettWindow", "periodic=True, dtype=mstype.float32", "window_length",
        "bartlett_window(_length(window_length), periodic, dtype=dtype)",
        summary="The Bartlett (triangular) window of ``window_length`` points.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.BartlettWindow()(Tensor(5, ms.int32)).asnumpy().round(4))
        [0.  0.4 0.8 0.8 0.4]
        >>> print(ops.BartlettWindow(periodic=False)(Tensor(5, ms.int32)).asnumpy().round(4))
        [0.  0.5 1.  0.5 0. ]
        """),
    Row("BlackmanWindow", "periodic=True, dtype=mstype.float32", "window_length",
        "blackman_window(_length(window_length), periodic, dtype=dtype)",
        summary="The Blackman window of ``window_length`` points.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.BlackmanWindow()(Tensor(5, ms.int32)).asnumpy().round(4))
        [-0.      0.2008  0.8492  0.8492  0.2008]
        >>> print(ops.BlackmanWindow(periodic=False)(Tensor(5, ms.int32)).asnumpy().round(4))
        [-0.    0.34  1.    0.34 -0.  ]
        """),
    Row("HammingWindow", "periodic=True, alpha=0.54, beta=0.46, dtype=mstype.float32", "length",
        "hamming_window(_length(length), periodic, alpha, beta, dtype=dtype)",
        summary="The generalized Hamming window ``alpha - beta * cos(2 pi n / N)`` of ``length`` points.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.HammingWindow()(Tensor(np.array([5]), ms.int64)).asnumpy().round(4))
        [0.08   0.3979 0.9121 0.9121 0.3979]
        """),
    Row("LinSpace", "", "start, stop, num", "linspace(start, stop, num)",
        summary="``num`` evenly spaced values from ``start`` to ``stop``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> start = Tensor(1.0, ms.float32)
        >>> stop = Tensor(2.0, ms.float32)
        >>> print(ops.LinSpace()(start, stop, 5))
        [1.   1.25 1.5  1.75 2.  ]
        """),
    Row("LogSpace", "steps=10, base=10, dtype=mstype.float32", "start, end",
        "logspace(start, end, steps, base, dtype=dtype)",
        summary="``steps`` values spaced evenly on a log scale, from ``base ** start`` to ``base ** end``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> start = Tensor(0.0, ms.float32)
        >>> end = Tensor(2.0, ms.float32)
        >>> print(ops.LogSpace(steps=3)(start, end))
        [  1.  10. 100.]
        """),
    Row("STFT", "n_fft, hop_length, win_length, normalized, onesided, return_complex", "x, window",
        "stft(x, n_fft, hop_length, win_length, window, False, 'REFLECT', normalized, onesided, "
        "return_complex)",
        summary="The short-time Fourier transform of 1-D signals (or a batch) with ``window``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16), ms.float32)
        >>> window = Tensor(np.ones(8), ms.float32)
        >>> y = ops.STFT(8, 4, 8, False, True, True)(x, window)
        >>> print(y.shape, y.dtype)
        (5, 3) Complex64
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
