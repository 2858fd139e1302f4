"""gluon.data.vision.transforms: flips and color jitters over the ``image`` operators (HybridBlocks, so they
hybridize and export as MXNet's do)."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon.hybrid import HybridBlock

__all__ = ["RandomBrightness", "RandomColorJitter", "RandomContrast", "RandomFlipLeftRight",
           "RandomFlipTopBottom", "RandomHue", "RandomLighting", "RandomSaturation"]


def _image(F: Any) -> Any:
    from cellonnx.mxnet.util import is_np_array

    return F.npx.image if is_np_array() else F.image


class _ImageOp(HybridBlock):
    """A transform that calls one ``image`` operator (``_op``) with the arguments its constructor keeps."""

    _op = ""

    def __init__(self, *args: Any) -> None:
        super().__init__()
        self._args = args

    def hybrid_forward(self, F: Any, x: Any) -> Any:
        return getattr(_image(F), self._op)(x, *self._args)


def _jitter(amount: float) -> tuple[float, float]:
    """The factor range [max(0, 1 - amount), 1 + amount] of the enhance operators."""
    return max(0, 1 - amount), 1 + amount


class RandomFlipLeftRight(_ImageOp):
    """Flip an (H, W, C) image left to right with probability 0.5.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.RandomFlipLeftRight()(mx.nd.ones((2, 3, 3))).shape
        (2, 3, 3)
    """

    _op = "random_flip_left_right"

    def __init__(self) -> None:
        super().__init__()


class RandomFlipTopBottom(_ImageOp):
    """Flip an (H, W, C) image top to bottom with probability 0.5.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.RandomFlipTopBottom()(mx.nd.ones((2, 3, 3))).shape
        (2, 3, 3)
    """

    _op = "random_flip_top_bottom"

    def __init__(self) -> None:
        super().__init__()


class RandomBrightness(_ImageOp):
    """Scale the brightness by a factor drawn from [max(0, 1 - brightness), 1 + brightness].

    Args:
        brightness (float): the jitter.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.RandomBrightness(0.0)(mx.nd.full((1, 1, 3), 100.0)).asnumpy().tolist()
        [[[100.0, 100.0, 100.0]]]
    """

    _op = "random_brightness"

    def __init__(self, brightness: float) -> None:
        super().__init__(*_jitter(brightness))


class RandomContrast(_ImageOp):
    """Blend with the image's mean gray level by a factor drawn from [max(0, 1 - contrast), 1 + contrast].

    Args:
        contrast (float): the jitter.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.RandomContrast(0.3)(mx.nd.ones((2, 2, 3))).shape
        (2, 2, 3)
    """

    _op = "random_contrast"

    def __init__(self, contrast: float) -> None:
        super().__init__(*_jitter(contrast))


class RandomSaturation(_ImageOp):
    """Blend with the gray image by a factor drawn from [max(0, 1 - saturation), 1 + saturation].

    Args:
        saturation (float): the jitter.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.RandomSaturation(0.3)(mx.nd.ones((2, 2, 3))).shape
        (2, 2, 3)
    """

    _op = "random_saturation"

    def __init__(self, saturation: float) -> None:
        super().__init__(*_jitter(saturation))


class RandomHue(_ImageOp):
    """Turn the hue by ``alpha * 360`` degrees, ``alpha`` drawn from [max(0, 1 - hue), 1 + hue].

    Args:
        hue (float): the jitter.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.RandomHue(0.1)(mx.nd.ones((2, 2, 3))).shape
        (2, 2, 3)
    """

    _op = "random_hue"

    def __init__(self, hue: float) -> None:
        super().__init__(*_jitter(hue))


class RandomColorJitter(_ImageOp):
    """Brightness, contrast, saturation and hue jitters in a random order.

    Args:
        brightness (float): brightness jitter. Default: 0.
        contrast (float): contrast jitter. Default: 0.
        saturation (float): saturation jitter. Default: 0.
        hue (float): hue jitter. Default: 0.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.RandomColorJitter(0.1, 0.1, 0.1, 0.1)(mx.nd.ones((2, 2, 3))).shape
        (2, 2, 3)
    """

    _op = "random_color_jitter"

    def __init__(self, brightness: float = 0, contrast: float = 0, saturation: float = 0,
                 hue: float = 0) -> None:
        super().__init__(brightness, contrast, saturation, hue)


class RandomLighting(_ImageOp):
    """AlexNet-style PCA lighting noise with standard deviation ``alpha``.

    Args:
        alpha (float): the noise's standard deviation.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.RandomLighting(0.1)(mx.nd.ones((2, 2, 3))).shape
        (2, 2, 3)
    """

    _op = "random_lighting"

    def __init__(self, alpha: float) -> None:
        super().__init__(alpha)
