"""MXNet 1.x operators of spatial-transformer, patch and sequence-labelling code: ``GridGenerator``,
``BilinearSampler``, ``SpatialTransformer``, ``im2col`` / ``col2im`` and ``CTCLoss`` (``ctc_loss``),
written with cellonnx ops so they differentiate."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.graph.trace import require_static
from cellonnx.mxnet._op._util import int_tuple
from cellonnx.tensor import Tensor

__all__ = ["SPATIAL"]


def _base(h: int, w: int) -> np.ndarray:
    """(3, H*W): the target grid's normalized x, y (from -1 to 1, corners included) and ones."""
    ys, xs = np.meshgrid(np.linspace(-1, 1, h, dtype=np.float32), np.linspace(-1, 1, w, dtype=np.float32),
                         indexing="ij")
    return np.stack([xs.reshape(-1), ys.reshape(-1), np.ones(h * w, np.float32)])


def grid_generator(data: Tensor, transform_type: str = "affine", target_shape: Any = (0, 0),
                   **_: Any) -> Tensor:
    """(N, 2, H, W) sampling grid (x then y, normalized to [-1, 1]): ``affine`` from (N, 6) matrices over
    ``target_shape``; ``warp`` from a (N, 2, H, W) pixel flow added to each pixel's position."""
    if transform_type == "affine":
        h, w = int_tuple(target_shape, 2, "target_shape", "GridGenerator")
        theta = ops.reshape(data, (-1, 2, 3))
        grid = ops.matmul(theta, Tensor(_base(h, w)))  # (N, 2, H*W)
        return ops.reshape(grid, (-1, 2, h, w))
    if transform_type == "warp":
        for d in data.shape[2:]:
            require_static(d, "GridGenerator (warp) lays out its pixel positions over each size and")
        h, w = int(data.shape[2]), int(data.shape[3])
        ys, xs = np.meshgrid(np.arange(h, dtype=np.float32), np.arange(w, dtype=np.float32), indexing="ij")
        pos = data + Tensor(np.stack([xs, ys])[None])
        scale = Tensor(np.array([(w - 1) / 2.0, (h - 1) / 2.0], np.float32).reshape(1, 2, 1, 1))
        return pos / scale - 1.0
    raise ValueError(f"GridGenerator: transform_type must be 'affine' or 'warp', got {transform_type!r}")


def bilinear_sampler(data: Tensor, grid: Tensor, cudnn_off: Any = None, **_: Any) -> Tensor:
    """``data`` (N, C, H, W) sampled bilinearly at ``grid`` (N, 2, H', W'; x, y in [-1, 1] spanning the
    corner pixels' centres); points outside read zeros."""
    return ops.grid_sample(data, ops.transpose(grid, (0, 2, 3, 1)), "bilinear", "zeros", True)


def spatial_transformer(data: Tensor, loc: Tensor, target_shape: Any = (0, 0), transform_type: str = "affine",
                        sampler_type: str = "bilinear", cudnn_off: Any = None, **_: Any) -> Tensor:
    """``BilinearSampler(data, GridGenerator(loc, 'affine', target_shape))``."""
    return bilinear_sampler(data, grid_generator(loc, "affine", target_shape))


def _patch_args(data_nd: int, kernel: Any, stride: Any, dilate: Any, pad: Any, op: str) -> tuple:
    n = len(tuple(kernel)) if not isinstance(kernel, int) else data_nd
    return (int_tuple(kernel, n, "kernel", op), int_tuple(dilate or 1, n, "dilate", op),
            int_tuple(pad or 0, n, "pad", op), int_tuple(stride or 1, n, "stride", op))


def im2col(data: Tensor, kernel: Any, stride: Any = (), dilate: Any = (), pad: Any = (), **_: Any) -> Tensor:
    """(N, C * prod(kernel), L): the sliding patches of ``data`` (N, C, H, W) as columns."""
    k, d, p, s = _patch_args(data.ndim - 2, kernel, stride, dilate, pad, "im2col")
    return ops.unfold(data, k, d, p, s)


def col2im(data: Tensor, output_size: Any, kernel: Any, stride: Any = (), dilate: Any = (), pad: Any = (),
           **_: Any) -> Tensor:
    """The inverse arrangement of ``im2col``: columns summed back into (N, C, H, W) of ``output_size``."""
    k, d, p, s = _patch_args(2, kernel, stride, dilate, pad, "col2im")
    return ops.fold(data, int_tuple(output_size, 2, "output_size", "col2im"), k, d, p, s)


def ctc_loss(data: Tensor, label: Tensor, data_lengths: Tensor | None = None,
             label_lengths: Tensor | None = None, use_data_lengths: bool = False,
             use_label_lengths: bool = False, blank_label: str = "first", **_: Any) -> Tensor:
    """(N,) negative log-likelihoods of ``label`` (N, L) under the unnormalized activations ``data``
    (T, N, C). blank_label 'first': the blank is class 0 and labels pad with 0; 'last': the blank is C-1 and
    labels pad with -1. Without ``use_label_lengths`` a label ends at its first padding value."""
    t, n, c = (int(s) for s in data.shape)
    blank = 0 if blank_label == "first" else c - 1
    pad = 0 if blank_label == "first" else -1
    labels = np.asarray(label._data).astype(np.int64)
    if use_label_lengths and label_lengths is not None:
        lengths = np.asarray(label_lengths._data).astype(np.int64).reshape(-1)
    else:
        is_pad = labels == pad
        lengths = np.where(is_pad.any(1), is_pad.argmax(1), labels.shape[1])
    if use_data_lengths and data_lengths is not None:
        in_lengths = np.asarray(data_lengths._data).astype(np.int64).reshape(-1)
    else:
        in_lengths = np.full(n, t, np.int64)
    targets = np.where(np.arange(labels.shape[1])[None] < lengths[:, None], labels, blank if blank else 1)
    loss, _ = ops.ctc_loss(ops.log_softmax(data, -1), Tensor(targets), Tensor(in_lengths), Tensor(lengths),
                           blank=blank, reduction="none")
    return loss


SPATIAL: dict[str, Callable[..., Any]] = {
    "GridGenerator": grid_generator, "BilinearSampler": bilinear_sampler,
    "SpatialTransformer": spatial_transformer, "im2col": im2col, "col2im": col2im,
    "CTCLoss": ctc_loss, "ctc_loss": ctc_loss,
}
