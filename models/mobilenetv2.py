"""MobileNetV2 with the structure and parameter names of MindSpore's model zoo
(``official/cv/MobileNet/mobilenetv2/src/mobilenetV2.py``): a backbone of ConvBNReLU / InvertedResidual cells
in ``features`` and a head (global average pooling, ``dense``), combined without a name prefix, so parameters
are ``features.0.features.0.weight`` ... ``dense.weight``. Convolutions start from N(0, 2 / (k * k * out)),
the classifier from N(0, 0.01) with a zero bias.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from cellonnx import nn, ops
from cellonnx.common.initializer import Normal, initializer
from cellonnx.tensor import Tensor

__all__ = ["ConvBNReLU", "InvertedResidual", "MobileNetV2", "MobileNetV2Backbone", "MobileNetV2Head",
           "mobilenet_v2"]

DEFAULT_SETTING = (
    # t (expansion), c (channels), n (repeats), s (stride of the first)
    (1, 16, 1, 1),
    (6, 24, 2, 2),
    (6, 32, 3, 2),
    (6, 64, 4, 2),
    (6, 96, 3, 1),
    (6, 160, 3, 2),
    (6, 320, 1, 1),
)


def _make_divisible(v: float, divisor: int, min_value: int | None = None) -> int:
    min_value = divisor if min_value is None else min_value
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:  # rounding down must not lose more than 10%
        new_v += divisor
    return new_v


class ConvBNReLU(nn.Cell):
    """Convolution (or depthwise convolution when ``groups`` > 1), BatchNorm2d and ReLU6 in ``features``."""

    def __init__(self, in_planes: int, out_planes: int, kernel_size: int = 3, stride: int = 1,
                 groups: int = 1) -> None:
        super().__init__()
        padding = (kernel_size - 1) // 2
        if groups == 1:
            conv = nn.Conv2d(in_planes, out_planes, kernel_size, stride, pad_mode="pad", padding=padding)
        else:
            conv = nn.Conv2d(in_planes, in_planes, kernel_size, stride, pad_mode="pad", padding=padding,
                             group=in_planes)
        self.features = nn.SequentialCell([conv, nn.BatchNorm2d(out_planes), nn.ReLU6()])

    def construct(self, x: Tensor) -> Tensor:
        return self.features(x)


class InvertedResidual(nn.Cell):
    """Expand (1x1), depthwise 3x3 (stride), project (1x1, linear); a residual add when shapes allow."""

    def __init__(self, inp: int, oup: int, stride: int, expand_ratio: int) -> None:
        super().__init__()
        if stride not in (1, 2):
            raise ValueError(f"InvertedResidual: stride must be 1 or 2, got {stride}")
        hidden_dim = round(inp * expand_ratio)
        self.use_res_connect = stride == 1 and inp == oup
        layers: list[nn.Cell] = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1))
        layers += [ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
                   nn.Conv2d(hidden_dim, oup, kernel_size=1, stride=1, has_bias=False),
                   nn.BatchNorm2d(oup)]
        self.conv = nn.SequentialCell(layers)

    def construct(self, x: Tensor) -> Tensor:
        if self.use_res_connect:
            return ops.add(x, self.conv(x))
        return self.conv(x)


class MobileNetV2Backbone(nn.Cell):
    """The feature extractor.

    Args:
        width_mult: channel multiplier (rounded to ``round_nearest``). Default: 1.0.
        inverted_residual_setting: rows (t, c, n, s). Default: the published network.
        round_nearest: channel rounding. Default: 8.
        input_channel: stem width before ``width_mult``. Default: 32.
        last_channel: width of the last 1x1 convolution (times max(1, width_mult)). Default: 1280.
    """

    def __init__(self, width_mult: float = 1.0,
                 inverted_residual_setting: Sequence[Sequence[int]] | None = None, round_nearest: int = 8,
                 input_channel: int = 32, last_channel: int = 1280) -> None:
        super().__init__()
        self.cfgs = [tuple(row) for row in (inverted_residual_setting or DEFAULT_SETTING)]
        input_channel = _make_divisible(input_channel * width_mult, round_nearest)
        self.out_channels = _make_divisible(last_channel * max(1.0, width_mult), round_nearest)
        features: list[nn.Cell] = [ConvBNReLU(3, input_channel, stride=2)]
        for t, c, n, s in self.cfgs:
            output_channel = _make_divisible(c * width_mult, round_nearest)
            for i in range(n):
                stride = s if i == 0 else 1
                features.append(InvertedResidual(input_channel, output_channel, stride, expand_ratio=t))
                input_channel = output_channel
        features.append(ConvBNReLU(input_channel, self.out_channels, kernel_size=1))
        self.features = nn.SequentialCell(features)
        self._initialize_weights()

    def construct(self, x: Tensor) -> Tensor:
        return self.features(x)

    def _initialize_weights(self) -> None:
        for _, m in self.cells_and_names():
            if isinstance(m, nn.Conv2d):
                n = m.kernel_size[0] * m.kernel_size[1] * m.out_channels
                m.weight.set_data(initializer(Normal(math.sqrt(2.0 / n)), m.weight.shape))


class MobileNetV2Head(nn.Cell):
    """Global average pooling (optional dropout) and the ``dense`` classifier.

    Args:
        input_channel: channels of the backbone output. Default: 1280.
        num_classes: outputs. Default: 1000.
        has_dropout: dropout (p = 0.2) before the classifier in training. Default: False.
        activation: 'Sigmoid', 'Softmax' or 'None' (logits). Default: 'None'.
    """

    def __init__(self, input_channel: int = 1280, num_classes: int = 1000, has_dropout: bool = False,
                 activation: str = "None") -> None:
        super().__init__()
        self.has_dropout = has_dropout
        if has_dropout:
            self.dropout = nn.Dropout(p=0.2)
        self.dense = nn.Dense(input_channel, num_classes, has_bias=True, weight_init=Normal(0.01),
                              bias_init="zeros")
        if activation not in ("None", "Sigmoid", "Softmax"):
            raise ValueError(f"MobileNetV2Head: activation must be 'None', 'Sigmoid' or 'Softmax', got "
                             f"{activation!r}")
        self.activation = activation

    def construct(self, x: Tensor) -> Tensor:
        x = ops.mean(x, (2, 3))
        if self.has_dropout:
            x = self.dropout(x)
        x = self.dense(x)
        if self.activation == "Sigmoid":
            return ops.sigmoid(x)
        if self.activation == "Softmax":
            return ops.softmax(x, -1)
        return x


class MobileNetV2(nn.Cell):
    """Backbone and head combined without a name prefix (the model zoo's ``MobileNetV2Combine``).

    Args:
        backbone: a MobileNetV2Backbone. head: a MobileNetV2Head.

    Shape:
        (N, 3, H, W) -> (N, num_classes).

    Examples:
        >>> from cellonnx.models import MobileNetV2
        >>> from cellonnx.models.mobilenetv2 import MobileNetV2Backbone, MobileNetV2Head
        >>> backbone = MobileNetV2Backbone(0.25, last_channel=64)
        >>> net = MobileNetV2(backbone, MobileNetV2Head(backbone.out_channels, 3))
        >>> net(ops.ones((1, 3, 32, 32))).shape
        (1, 3)
    """

    def __init__(self, backbone: MobileNetV2Backbone, head: MobileNetV2Head) -> None:
        super().__init__(auto_prefix=False)
        self.backbone = backbone
        self.head = head

    def construct(self, x: Tensor) -> Tensor:
        return self.head(self.backbone(x))


def mobilenet_v2(num_classes: int = 1000, width_mult: float = 1.0, last_channel: int = 1280,
                 has_dropout: bool = False, inverted_residual_setting: Sequence[Sequence[int]] | None = None
                 ) -> MobileNetV2:
    """MobileNetV2 (backbone + head).

    Examples:
        >>> from cellonnx.models import mobilenet_v2
        >>> net = mobilenet_v2(10, width_mult=0.5)
        >>> net(ops.ones((1, 3, 32, 32))).shape
        (1, 10)
    """
    backbone = MobileNetV2Backbone(width_mult, inverted_residual_setting, last_channel=last_channel)
    head = MobileNetV2Head(backbone.out_channels, num_classes, has_dropout)
    return MobileNetV2(backbone, head)
