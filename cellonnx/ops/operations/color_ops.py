"""MindSpore's colour-space operator classes (``ops.RGBToHSV``, ``ops.HSVToRGB``, ``ops.AdjustHue``,
``ops.AdjustSaturation``): table rows over compositions of cellonnx ops (see table.py), so they are
differentiable and export to ONNX as plain elementwise graphs.

Images carry the three channels on the last axis, values in [0, 1]; hue is in [0, 1) (a fraction of the
colour wheel), as in TensorFlow's conversion that MindSpore's kernels follow:
``v = max(r, g, b)``, ``s = (v - min) / v``, and the hue from whichever channel is the largest.
"""
from __future__ import annotations

from typing import Any

from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _channels(x: Tensor, op: str) -> tuple[Tensor, Tensor, Tensor]:
    from cellonnx.ops import split, squeeze
    from cellonnx.ops.prims._util import is_float_dtype
    if not isinstance(x, Tensor) or x.ndim < 1 or int(x.shape[-1]) != 3:
        shape = tuple(x.shape) if isinstance(x, Tensor) else type(x).__name__
        raise ValueError(f"For '{op}', the input must be a Tensor whose last dim is 3, but got {shape}.")
    if not is_float_dtype(x._data.dtype):
        raise TypeError(f"For '{op}', the input must be a float Tensor, but got {x.dtype}.")
    return tuple(squeeze(t, -1) for t in split(x, 1, -1))  # type: ignore[return-value]


def _stack(a: Tensor, b: Tensor, c: Tensor) -> Tensor:
    from cellonnx.ops import stack
    return stack((a, b, c), -1)


def _hsv(r: Tensor, g: Tensor, b: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    from cellonnx.ops import div, equal, greater, maximum, minimum, mul, sub, where, zeros_like
    v = maximum(maximum(r, g), b)
    spread = sub(v, minimum(minimum(r, g), b))
    zero = zeros_like(v)
    positive = greater(spread, zero)
    s = where(greater(v, zero), div(spread, where(greater(v, zero), v, 1.0)), zero)
    safe = where(positive, spread, 1.0)
    sixth = div(1.0, mul(safe, 6.0))
    h = where(equal(v, r), mul(sub(g, b), sixth),
              where(equal(v, g), mul(sub(b, r), sixth) + 2.0 / 6.0, mul(sub(r, g), sixth) + 4.0 / 6.0))
    h = where(positive, h, zero)
    h = where(h < 0.0, h + 1.0, h)
    return h, s, v


def _rgb(h: Tensor, s: Tensor, v: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    from cellonnx.ops import abs, clamp, mul, sub

    def channel(offset: float, rising: bool) -> Tensor:
        d = abs(sub(mul(h, 6.0), offset))
        part = clamp(sub(d, 1.0) if rising else sub(2.0, d), 0.0, 1.0)
        return mul(sub(1.0, s) + mul(s, part), v)

    return channel(3.0, True), channel(2.0, False), channel(4.0, False)


def rgb_to_hsv(images: Tensor) -> Tensor:
    """(..., 3) RGB in [0, 1] to (..., 3) HSV, hue in [0, 1)."""
    return _stack(*_hsv(*_channels(images, "RGBToHSV")))


def hsv_to_rgb(images: Tensor) -> Tensor:
    """(..., 3) HSV, hue in [0, 1), to (..., 3) RGB."""
    return _stack(*_rgb(*_channels(images, "HSVToRGB")))


def _scalar(value: Any, what: str, op: str) -> Any:
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"For '{op}', the '{what}' must be a scalar, but got shape "
                             f"{tuple(value.shape)}.")
        return value.reshape(())
    return float(value)


def adjust_hue(image: Tensor, delta: Any) -> Tensor:
    """Rotate the hue of (..., 3) RGB images by ``delta`` (a fraction of the colour wheel, in [-1, 1])."""
    from cellonnx.ops import floor, sub
    h, s, v = _hsv(*_channels(image, "AdjustHue"))
    h = h + _scalar(delta, "delta", "AdjustHue")
    h = sub(h, floor(h))
    return _stack(*_rgb(h, s, v))


def adjust_saturation(image: Tensor, scale: Any) -> Tensor:
    """Scale the saturation of (..., 3) RGB images by ``scale`` (clipped to [0, 1])."""
    from cellonnx.ops import clamp, mul
    h, s, v = _hsv(*_channels(image, "AdjustSaturation"))
    s = clamp(mul(s, _scalar(scale, "scale", "AdjustSaturation")), 0.0, 1.0)
    return _stack(*_rgb(h, s, v))


ROWS = [
    Row("RGBToHSV", "", "images", "rgb_to_hsv(images)",
        summary="Converts RGB images (last axis of size 3, values in [0, 1]) to HSV.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[[1.0, 0.0, 0.0], [0.4, 0.8, 0.8]]]]), ms.float32)
        >>> print(ops.RGBToHSV()(x).asnumpy().round(4))
        [[[[0.  1.  1. ]
           [0.5 0.5 0.8]]]]
        """),
    Row("HSVToRGB", "", "x", "hsv_to_rgb(x)",
        summary="Converts HSV images (last axis of size 3, values in [0, 1]) to RGB.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[[0.0, 1.0, 1.0], [0.5, 0.5, 0.8]]]]), ms.float32)
        >>> print(ops.HSVToRGB()(x).asnumpy().round(4))
        [[[[1.  0.  0. ]
           [0.4 0.8 0.8]]]]
        """),
    Row("AdjustHue", "", "image, delta", "adjust_hue(image, delta)",
        summary="Rotates the hue of RGB images (last axis of size 3) by ``delta`` turns of the hue circle.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> image = Tensor(np.array([[[0.9, 0.1, 0.1], [0.2, 0.6, 0.3]]]), ms.float32)
        >>> print(ops.AdjustHue()(image, Tensor(0.2, ms.float32)).asnumpy().round(4))
        [[[0.74 0.9  0.1 ]
          [0.2  0.42 0.6 ]]]
        """),
    Row("AdjustSaturation", "", "image, scale", "adjust_saturation(image, scale)",
        summary="Scales the saturation of RGB images (last axis of size 3) by ``scale``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> image = Tensor(np.array([[[0.9, 0.1, 0.1], [0.2, 0.6, 0.3]]]), ms.float32)
        >>> print(ops.AdjustSaturation()(image, Tensor(0.5, ms.float32)).asnumpy().round(4))
        [[[0.9  0.5  0.5 ]
          [0.4  0.6  0.45]]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
