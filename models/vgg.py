"""VGG-16 with batch normalization, laid out as MindSpore's model zoo (``official/cv/VGG/vgg16/src/vgg.py``):
``layers`` (Conv2d, BatchNorm2d, ReLU per convolution; MaxPool2d at 'M'), ``flatten`` and ``classifier``
(Dense, ReLU, Dropout, Dense, ReLU, Dropout, Dense). Convolutions start from Kaiming normal (fan_out, relu),
Dense layers from N(0, 0.01), biases from zero, as the model zoo's KaimingNormal mode does.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cellonnx import nn
from cellonnx.common.initializer import HeNormal, Normal
from cellonnx.tensor import Tensor

__all__ = ["CFG", "Vgg", "vgg16", "vgg16_bn"]

CFG: dict[str, list[Any]] = {
    "11": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "13": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "16": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "19": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M",
           512, 512, 512, 512, "M"],
}


def _make_layer(base: Sequence[Any], batch_norm: bool, pad_mode: str, has_bias: bool, width_mult: float,
                in_channels: int) -> tuple[nn.SequentialCell, int]:
    layers: list[nn.Cell] = []
    padding = 0 if pad_mode == "same" else 1
    for v in base:
        if v == "M":
            layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
            continue
        out = max(1, round(v * width_mult))
        conv = nn.Conv2d(in_channels, out, kernel_size=3, padding=padding, pad_mode=pad_mode,
                         has_bias=has_bias, weight_init=HeNormal(mode="fan_out", nonlinearity="relu"),
                         bias_init="zeros")
        layers += [conv, nn.BatchNorm2d(out), nn.ReLU()] if batch_norm else [conv, nn.ReLU()]
        in_channels = out
    return nn.SequentialCell(layers), in_channels


class Vgg(nn.Cell):
    """VGG: convolution stages then three Dense layers.

    Args:
        base: the stage configuration (channel counts and 'M' for max pooling), e.g. ``CFG["16"]``.
        num_classes: outputs. Default: 1000.
        batch_norm: BatchNorm2d after every convolution. Default: True.
        image_size: (H, W) of the input; sizes the first Dense layer. Default: (224, 224).
        width_mult: scales every convolution and the two hidden Dense widths (4096). Default: 1.0.
        has_dropout: Dropout(0.5) in the classifier in training. Default: True.
        pad_mode: 'same' or 'pad' (padding 1). Default: 'same'.
        has_bias: convolution biases (redundant before BatchNorm). Default: False.
        include_top: flatten and the classifier. Default: True.
        image_channels: input channels. Default: 3.

    Shape:
        (N, image_channels, H, W) -> (N, num_classes).

    Raises:
        ValueError: ``width_mult`` not positive, or ``image_size`` under 32x32.

    Examples:
        >>> from cellonnx.models import Vgg
        >>> net = Vgg([8, "M", 16, "M", 16, "M", 32, "M", 32, "M"], num_classes=4, image_size=(32, 32),
        ...           width_mult=0.01)
        >>> net(ops.ones((2, 3, 32, 32))).shape
        (2, 4)
    """

    def __init__(self, base: Sequence[Any], num_classes: int = 1000, batch_norm: bool = True,
                 image_size: Sequence[int] = (224, 224), width_mult: float = 1.0, has_dropout: bool = True,
                 pad_mode: str = "same", has_bias: bool = False, include_top: bool = True,
                 image_channels: int = 3) -> None:
        super().__init__()
        if width_mult <= 0:
            raise ValueError(f"Vgg: width_mult must be positive, got {width_mult}")
        h, w = int(image_size[0]), int(image_size[1])
        if h < 32 or w < 32:
            raise ValueError(f"Vgg: image_size must be at least 32x32 (five 2x poolings), got {h}x{w}")
        self.layers, channels = _make_layer(base, batch_norm, pad_mode, has_bias, width_mult, image_channels)
        self.include_top = include_top
        self.flatten = nn.Flatten()
        hidden = max(1, round(4096 * width_mult))
        p = 0.5 if has_dropout else 0.0
        dense = {"weight_init": Normal(0.01), "bias_init": "zeros"}
        self.classifier = nn.SequentialCell([
            nn.Dense(channels * (h // 32) * (w // 32), hidden, **dense), nn.ReLU(), nn.Dropout(p=p),
            nn.Dense(hidden, hidden, **dense), nn.ReLU(), nn.Dropout(p=p),
            nn.Dense(hidden, num_classes, **dense)])

    def construct(self, x: Tensor) -> Tensor:
        x = self.layers(x)
        if self.include_top:
            x = self.classifier(self.flatten(x))
        return x


def vgg16_bn(num_classes: int = 1000, image_size: Sequence[int] = (224, 224), width_mult: float = 1.0,
             has_dropout: bool = True, image_channels: int = 3) -> Vgg:
    """VGG-16 with batch normalization.

    Examples:
        >>> from cellonnx.models import vgg16_bn
        >>> net = vgg16_bn(10, image_size=(32, 32), width_mult=0.125)
        >>> net(ops.ones((2, 3, 32, 32))).shape
        (2, 10)
    """
    return Vgg(CFG["16"], num_classes, True, image_size, width_mult, has_dropout,
               image_channels=image_channels)


def vgg16(num_classes: int = 1000, image_size: Sequence[int] = (224, 224), width_mult: float = 1.0,
          has_dropout: bool = True, batch_norm: bool = True, image_channels: int = 3) -> Vgg:
    """VGG-16 (with batch normalization unless ``batch_norm=False``).

    Args:
        num_classes: outputs. Default: 1000.
        image_size: (H, W) of the input. Default: (224, 224).
        width_mult: scales the convolutions and the hidden Dense widths. Default: 1.0.
        has_dropout: Dropout(0.5) in the classifier in training. Default: True.
        batch_norm: BatchNorm2d after every convolution. Default: True.
        image_channels: input channels. Default: 3.

    Returns:
        Vgg.

    Examples:
        >>> from cellonnx.models import vgg16
        >>> net = vgg16(10, image_size=(32, 32), width_mult=0.125, batch_norm=False)
        >>> net(ops.ones((2, 3, 32, 32))).shape
        (2, 10)
    """
    return Vgg(CFG["16"], num_classes, batch_norm, image_size, width_mult, has_dropout,
               image_channels=image_channels)
