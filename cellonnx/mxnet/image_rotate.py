"""mx.image.imrotate and random_rotate: rotating (C, H, W) / (N, C, H, W) float32 images about their centre
with bilinear sampling (zeros outside), optionally zoomed so no border shows (``zoom_in``) or the whole
image stays in view (``zoom_out``). Built from nd operators (``BilinearSampler`` on a rotated grid), as
MXNet's, so the result is differentiable and traceable."""
from __future__ import annotations

from numbers import Number
from typing import Any

import numpy as np

__all__ = ["imrotate", "random_rotate"]


def imrotate(src: Any, rotation_degrees: Any, zoom_in: bool = False, zoom_out: bool = False) -> Any:
    """Rotate ``src`` by ``rotation_degrees`` (counter-clockwise; one angle, or one per image of a batch).

    Args:
        src (NDArray): (C, H, W) or (N, C, H, W), float32.
        rotation_degrees (float or NDArray): the angle(s) in degrees.
        zoom_in (bool): scale up so that no area outside the image shows. Default: False.
        zoom_out (bool): scale down so that the whole image stays in view. Default: False.

    Returns:
        NDArray of ``src``'s shape.

    Raises:
        ValueError: both zooms, a rank other than 3 or 4, or angles not one per image.
        TypeError: ``src`` not float32, or a batch of angles for one image.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> img = mx.nd.array([[[1.0, 2.0], [3.0, 4.0]]])
        >>> mx.image.imrotate(img, 180).asnumpy().round(4).tolist()
        [[[4.0, 3.0], [2.0, 1.0]]]
    """
    from cellonnx.mxnet import ndarray as nd

    if zoom_in and zoom_out:
        raise ValueError("`zoom_in` and `zoom_out` cannot be both True")
    if np.dtype(src.dtype) != np.float32:
        raise TypeError("Only `float32` images are supported by this function")
    expanded = src.ndim == 3
    if expanded:
        src = src.expand_dims(axis=0)
        if not isinstance(rotation_degrees, Number):
            raise TypeError("When a single image is passed the rotation angle is required to be a scalar.")
    elif src.ndim != 4:
        raise ValueError("Only 3D and 4D are supported by this function")
    if isinstance(rotation_degrees, Number):
        rotation_degrees = nd.array([rotation_degrees] * len(src))
    if len(src) != len(rotation_degrees):
        raise ValueError("The number of images must be equal to the number of rotation angles")
    rad = (np.pi * rotation_degrees.astype("float32") / 180).expand_dims(axis=1).expand_dims(axis=2)
    _, _, h, w = src.shape
    hscale, wscale = float(h - 1) / 2, float(w - 1) / 2
    rows = (nd.repeat(nd.arange(h).astype("float32").reshape(h, 1), w, axis=1) - hscale).expand_dims(axis=0)
    cols = (nd.repeat(nd.arange(w).astype("float32").reshape(1, w), h, axis=0) - wscale).expand_dims(axis=0)
    cos, sin = nd.cos(rad), nd.sin(rad)
    grid_x = (cols * cos - rows * sin) / wscale
    grid_y = (cols * sin + rows * cos) / hscale
    scale: Any = 1
    if zoom_in or zoom_out:
        hh, ww = nd.array([h]), nd.array([w])
        rho = nd.sqrt(hh * hh + ww * ww)
        corner = nd.arctan(hh / ww)
        x1, y1 = nd.abs(rho * nd.cos(corner + nd.abs(rad))), nd.abs(rho * nd.sin(corner + nd.abs(rad)))
        x2, y2 = nd.abs(rho * nd.cos(corner - nd.abs(rad))), nd.abs(rho * nd.sin(corner - nd.abs(rad)))
        max_x, max_y = nd.maximum(x1, x2), nd.maximum(y1, y2)
        if zoom_out:
            scale = nd.maximum(max_x / ww, max_y / hh)
        else:
            scale = nd.minimum(ww / max_x, hh / max_y)
        scale = scale.expand_dims(axis=3)
    grid = nd.concat(grid_x.expand_dims(axis=1), grid_y.expand_dims(axis=1), dim=1) * scale
    out = nd.BilinearSampler(src, grid)
    return out[0] if expanded else out


def random_rotate(src: Any, angle_limits: tuple, zoom_in: bool = False, zoom_out: bool = False) -> Any:
    """Rotate by an angle drawn uniformly from ``angle_limits`` (degrees; one per image of a batch, drawn
    with numpy.random as MXNet's) (see ``imrotate``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> mx.image.random_rotate(mx.nd.ones((2, 3, 4, 4)), (-10, 10)).shape
        (2, 3, 4, 4)
    """
    from cellonnx.mxnet import ndarray as nd

    if src.ndim == 3:
        degrees: Any = np.random.uniform(*angle_limits)
    else:
        degrees = nd.array(np.random.uniform(*angle_limits, size=src.shape[0]))
    return imrotate(src, degrees, zoom_in=zoom_in, zoom_out=zoom_out)
