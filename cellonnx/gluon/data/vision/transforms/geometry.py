"""gluon.data.vision.transforms: resizing, cropping and rotating. Resize and CropResize are HybridBlocks over
the ``image`` operators; the random crops and rotations are Blocks over mx.image's functions, as in MXNet."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.gluon.block import Block
from cellonnx.gluon.data.vision.transforms.color import _image
from cellonnx.gluon.hybrid import HybridBlock

__all__ = ["CenterCrop", "CropResize", "RandomCrop", "RandomResizedCrop", "RandomRotation", "Resize",
           "Rotate"]


def _pair(size: Any) -> Any:
    from cellonnx.mxnet.base import numeric_types

    return (size, size) if isinstance(size, numeric_types) else size


class Resize(HybridBlock):
    """Resize an (H, W, C) or (N, H, W, C) image to ``size``.

    Args:
        size (int or tuple): (width, height), or one side (both sides, or the shorter with ``keep_ratio``).
        keep_ratio (bool): with an int ``size``, resize the shorter side and keep the aspect ratio.
            Default: False.
        interpolation (int): OpenCV's interpolation (0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 Lanczos).
            Default: 1.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.Resize(300, keep_ratio=True)(mx.nd.zeros((480, 640, 3), dtype='uint8')).shape
        (300, 400, 3)
    """

    def __init__(self, size: Any, keep_ratio: bool = False, interpolation: int = 1) -> None:
        super().__init__()
        self._keep = keep_ratio
        self._size = size
        self._interpolation = interpolation

    def hybrid_forward(self, F: Any, x: Any) -> Any:
        return _image(F).resize(x, self._size, self._keep, self._interpolation)


class CropResize(HybridBlock):
    """Crop the ``height`` x ``width`` window at (``x``, ``y``), then resize it to ``size`` if given.

    Args:
        x (int): the window's left column.
        y (int): the window's top row.
        width (int): the window's width.
        height (int): the window's height.
        size (int or tuple): the size to resize to ((width, height) or one side). Default: None.
        interpolation (int): OpenCV's interpolation for the resize; required with ``size`` (MXNet's resize
            rejects None). Default: None.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> t = transforms.CropResize(0, 0, 3, 2, size=(6, 4), interpolation=1)
        >>> t(mx.nd.zeros((5, 5, 3), dtype='uint8')).shape
        (4, 6, 3)
    """

    def __init__(self, x: int, y: int, width: int, height: int, size: Any = None,
                 interpolation: int | None = None) -> None:
        super().__init__()
        self._x = x
        self._y = y
        self._width = width
        self._height = height
        self._size = size
        self._interpolation = interpolation

    def hybrid_forward(self, F: Any, x: Any) -> Any:
        image = _image(F)
        out = image.crop(x, self._x, self._y, self._width, self._height)
        if self._size:
            out = image.resize(out, self._size, False, self._interpolation)
        return out


class CenterCrop(Block):
    """Crop the centre of an (H, W, C) image to ``size`` (resizing first if the image is smaller).

    Args:
        size (int or tuple): (width, height) or one side.
        interpolation (int): OpenCV's interpolation. Default: 1.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.CenterCrop(2)(mx.nd.zeros((4, 5, 3), dtype='uint8')).shape
        (2, 2, 3)
    """

    def __init__(self, size: Any, interpolation: int = 1) -> None:
        super().__init__()
        self._args = (_pair(size), interpolation)

    def forward(self, x: Any) -> Any:
        from cellonnx.mxnet import image

        return image.center_crop(x, *self._args)[0]


class RandomResizedCrop(Block):
    """Crop a random window (area a random fraction in ``scale`` of the image's, aspect ratio in ``ratio``)
    and resize it to ``size``.

    Args:
        size (int or tuple): the output (width, height) or side.
        scale (tuple): the window's area fraction range. Default: (0.08, 1.0).
        ratio (tuple): the window's aspect-ratio range. Default: (3/4, 4/3).
        interpolation (int): OpenCV's interpolation. Default: 1.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.RandomResizedCrop(3)(mx.nd.zeros((8, 8, 3), dtype='uint8')).shape
        (3, 3, 3)
    """

    def __init__(self, size: Any, scale: tuple = (0.08, 1.0), ratio: tuple = (3.0 / 4.0, 4.0 / 3.0),
                 interpolation: int = 1) -> None:
        super().__init__()
        self._args = (_pair(size), scale, ratio, interpolation)

    def forward(self, x: Any) -> Any:
        from cellonnx.mxnet import image

        return image.random_size_crop(x, *self._args)[0]


class RandomCrop(Block):
    """Pad the image (optionally) and crop a random ``size`` window of it (MXNet 2.x).

    Args:
        size (int or tuple): the window's (width, height) or side.
        pad (int or tuple): padding of the height and width sides: one int for all four, or (top, bottom,
            left, right). Default: None.
        pad_value (int): the padding's value. Default: 0.
        interpolation (int): OpenCV's interpolation when the image is smaller than ``size``. Default: 1.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.RandomCrop(4, pad=2)(mx.nd.zeros((3, 3, 3), dtype='uint8')).shape
        (4, 4, 3)
    """

    def __init__(self, size: Any, pad: Any = None, pad_value: int = 0, interpolation: int = 1) -> None:
        super().__init__()
        self._args = (_pair(size), interpolation)
        self._pad_value = pad_value
        if isinstance(pad, int):
            pad = (pad, pad, pad, pad)
        if pad is not None and len(pad) != 4:
            raise ValueError(f"RandomCrop: pad must be an int or 4 values (top, bottom, left, right), "
                             f"got {pad}")
        self._pad = pad

    def forward(self, x: Any) -> Any:
        from cellonnx.mxnet import image

        if self._pad is not None:
            top, bottom, left, right = self._pad
            arr = x.asnumpy()
            width = ((top, bottom), (left, right)) + ((0, 0),) * (arr.ndim - 2)
            x = image._wrap(np.pad(arr, width, constant_values=self._pad_value))
        return image.random_crop(x, *self._args)[0]


class Rotate(Block):
    """Rotate a float32 (C, H, W) or (N, C, H, W) image by ``rotation_degrees`` (mx.image.imrotate).

    Args:
        rotation_degrees (float): the angle, counter-clockwise.
        zoom_in (bool): zoom so that no padding shows. Default: False.
        zoom_out (bool): zoom so that the whole image shows. Default: False.

    Raises:
        TypeError: the image is not float32.
    """

    def __init__(self, rotation_degrees: float, zoom_in: bool = False, zoom_out: bool = False) -> None:
        super().__init__()
        self._args = (rotation_degrees, zoom_in, zoom_out)

    def forward(self, x: Any) -> Any:
        from cellonnx.mxnet import image

        if np.dtype(x.dtype) != np.float32:
            raise TypeError("This transformation only supports float32. Consider calling it after ToTensor")
        return image.imrotate(x, *self._args)


class RandomRotation(Block):
    """Rotate a float32 image by an angle drawn from ``angle_limits``, with probability ``rotate_with_proba``
    (mx.image.random_rotate).

    Args:
        angle_limits (tuple): (lowest, highest) angle.
        zoom_in (bool): zoom so that no padding shows. Default: False.
        zoom_out (bool): zoom so that the whole image shows. Default: False.
        rotate_with_proba (float): the probability of rotating. Default: 1.0.

    Raises:
        ValueError: the limits are not ordered, or the probability is outside [0, 1].
    """

    def __init__(self, angle_limits: tuple, zoom_in: bool = False, zoom_out: bool = False,
                 rotate_with_proba: float = 1.0) -> None:
        super().__init__()
        lower, upper = angle_limits
        if lower >= upper:
            raise ValueError("`angle_limits` must be an ordered tuple")
        if rotate_with_proba < 0 or rotate_with_proba > 1:
            raise ValueError("Probability of rotating the image should be between 0 and 1")
        self._args = (angle_limits, zoom_in, zoom_out)
        self._rotate_with_proba = rotate_with_proba

    def forward(self, x: Any) -> Any:
        from cellonnx.mxnet import image

        if np.random.random() > self._rotate_with_proba:
            return x
        if np.dtype(x.dtype) != np.float32:
            raise TypeError("This transformation only supports float32. Consider calling it after ToTensor")
        return image.random_rotate(x, *self._args)

