"""mx.npx's detection operators - multibox_prior, multibox_detection, multibox_target, roi_pooling - MXNet's
contrib operators (MultiBoxPrior, MultiBoxDetection, MultiBoxTarget, ROIPooling) under their npx names,
results as mx.np.ndarray."""
from __future__ import annotations

from typing import Any

from cellonnx.mxnet import _op

__all__ = ["multibox_detection", "multibox_prior", "multibox_target", "roi_pooling"]


def _run(op_name: str, *args: Any, **kwargs: Any) -> Any:
    from cellonnx.gluon.symbol.table import row_of
    from cellonnx.mxnet.numpy.multiarray import ndarray

    return _op.wrap(op_name, row_of(op_name).fn, ndarray)(*args, **kwargs)


def multibox_prior(data: Any, sizes: Any = (1.0,), ratios: Any = (1.0,), clip: bool = False,
                   steps: Any = (-1.0, -1.0), offsets: Any = (0.5, 0.5), **kwargs: Any) -> Any:
    """SSD's anchor boxes of an (N, C, H, W) feature map: (1, H * W * (len(sizes) + len(ratios) - 1), 4)
    corners in [0, 1] image units (MXNet's contrib.MultiBoxPrior).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(npx.multibox_prior(np.zeros((1, 3, 2, 2)), sizes=[0.5]))
        [[[0.  0.  0.5 0.5]
          [0.5 0.  1.  0.5]
          [0.  0.5 0.5 1. ]
          [0.5 0.5 1.  1. ]]]
    """
    return _run("_contrib_MultiBoxPrior", data, sizes=sizes, ratios=ratios, clip=clip, steps=steps,
                offsets=offsets, **kwargs)


def multibox_detection(cls_prob: Any, loc_pred: Any, anchor: Any, clip: bool = True, threshold: float = 0.01,
                       background_id: int = 0, nms_threshold: float = 0.5, force_suppress: bool = False,
                       variances: Any = (0.1, 0.1, 0.2, 0.2), nms_topk: int = -1, **kwargs: Any) -> Any:
    """SSD's detections from class probabilities (B, classes, N), box offsets (B, N * 4) and anchors
    (1, N, 4): (B, N, 6) rows of (class, score, x1, y1, x2, y2), suppressed ones -1 (MXNet's
    contrib.MultiBoxDetection).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> anchors = np.array([[[0.1, 0.1, 0.4, 0.4], [0.5, 0.5, 0.9, 0.9]]])
        >>> probs = np.array([[[0.2, 0.9], [0.8, 0.1]]])
        >>> print(npx.multibox_detection(probs, np.zeros((1, 8)), anchors).round(3))
        [[[0.  0.8 0.1 0.1 0.4 0.4]
          [0.  0.1 0.5 0.5 0.9 0.9]]]
    """
    return _run("_contrib_MultiBoxDetection", cls_prob, loc_pred, anchor, clip=clip, threshold=threshold,
                background_id=background_id, nms_threshold=nms_threshold, force_suppress=force_suppress,
                variances=variances, nms_topk=nms_topk, **kwargs)


def multibox_target(anchor: Any, label: Any, cls_pred: Any, overlap_threshold: float = 0.5,
                    ignore_label: float = -1.0, negative_mining_ratio: float = -1.0,
                    negative_mining_thresh: float = 0.5, minimum_negative_samples: int = 0,
                    variances: Any = (0.1, 0.1, 0.2, 0.2), **kwargs: Any) -> Any:
    """SSD's training targets: (loc_target (B, N * 4), loc_mask (B, N * 4), cls_target (B, N)) for anchors
    (1, N, 4), labels (B, M, 5) of (class, x1, y1, x2, y2) and class predictions (B, classes, N) (MXNet's
    contrib.MultiBoxTarget).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> anchors = np.array([[[0.0, 0.0, 0.5, 0.5], [0.5, 0.5, 1.0, 1.0]]])
        >>> labels = np.array([[[1.0, 0.5, 0.5, 1.0, 1.0]]])
        >>> loc, mask, cls = npx.multibox_target(anchors, labels, np.zeros((1, 3, 2)))
        >>> print(cls)
        [[0. 2.]]
        >>> print(mask)
        [[0. 0. 0. 0. 1. 1. 1. 1.]]
    """
    return _run("_contrib_MultiBoxTarget", anchor, label, cls_pred, overlap_threshold=overlap_threshold,
                ignore_label=ignore_label, negative_mining_ratio=negative_mining_ratio,
                negative_mining_thresh=negative_mining_thresh,
                minimum_negative_samples=minimum_negative_samples, variances=variances, **kwargs)


def roi_pooling(data: Any, rois: Any, pooled_size: Any, spatial_scale: float, **kwargs: Any) -> Any:
    """Fast R-CNN's max pooling of each region of interest ((R, 5) rows of batch index, x1, y1, x2, y2 in
    image units, scaled by ``spatial_scale``) into ``pooled_size`` bins (MXNet's ROIPooling).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.arange(16).reshape(1, 1, 4, 4)
        >>> print(npx.roi_pooling(x, np.array([[0, 0, 0, 3, 3]]), pooled_size=(2, 2), spatial_scale=1.0))
        [[[[ 5.  7.]
           [13. 15.]]]]
    """
    return _run("ROIPooling", data, rois, pooled_size=pooled_size, spatial_scale=spatial_scale, **kwargs)
