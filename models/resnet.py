"""ResNet-18/34/50 with the structure and parameter names of MindSpore's model zoo
(``official/cv/ResNet/src/resnet.py``): conv1, bn1, layer1..layer4 of ResidualBlockBase (conv1, bn1d, conv2,
bn2d) or ResidualBlock (conv1..conv3, bn1..bn3) with ``down_sample_layer`` (1x1 conv + BN), then the mean over
H and W, flatten and ``end_point``.

As in the model zoo, ResNet-18/34 ("res_base") pad explicitly (7x7 conv padding 3, a zero pad before a 'valid'
3x3 max pool) while ResNet-50 uses 'same' padding; convolutions start from Kaiming normal (fan_out, relu) and
``end_point`` from Kaiming uniform (a = sqrt(5)) with a zero bias. ``width_mult`` scales every channel count
(1.0 is the published network), which keeps tests and quick experiments small.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from cellonnx import nn, ops
from cellonnx.common.initializer import HeNormal, HeUniform
from cellonnx.tensor import Tensor

__all__ = ["ResNet", "ResidualBlock", "ResidualBlockBase", "resnet18", "resnet34", "resnet50"]


def _conv(in_channel: int, out_channel: int, kernel_size: int, stride: int, res_base: bool) -> nn.Conv2d:
    weight = HeNormal(mode="fan_out", nonlinearity="relu")
    if res_base:
        return nn.Conv2d(in_channel, out_channel, kernel_size, stride=stride, padding=kernel_size // 2,
                         pad_mode="pad", weight_init=weight)
    return nn.Conv2d(in_channel, out_channel, kernel_size, stride=stride, pad_mode="same", weight_init=weight)


def _bn(channel: int, res_base: bool = False) -> nn.BatchNorm2d:
    if res_base:
        return nn.BatchNorm2d(channel, eps=1e-5, momentum=0.1)
    return nn.BatchNorm2d(channel, eps=1e-4, momentum=0.9)


def _fc(in_channel: int, out_channel: int) -> nn.Dense:
    return nn.Dense(in_channel, out_channel, has_bias=True, weight_init=HeUniform(math.sqrt(5)),
                    bias_init="zeros")


class ResidualBlock(nn.Cell):
    """The bottleneck block of ResNet-50: 1x1, 3x3 (stride), 1x1 convolutions, the last one 4x wider.

    Args:
        in_channel: input channels. out_channel: output channels (4x the bottleneck width).
        stride: stride of the 3x3 convolution. Default: 1.
    """

    expansion = 4

    def __init__(self, in_channel: int, out_channel: int, stride: int = 1) -> None:
        super().__init__()
        channel = out_channel // self.expansion
        self.conv1 = _conv(in_channel, channel, 1, 1, False)
        self.bn1 = _bn(channel)
        self.conv2 = _conv(channel, channel, 3, stride, False)
        self.bn2 = _bn(channel)
        self.conv3 = _conv(channel, out_channel, 1, 1, False)
        self.bn3 = _bn(out_channel)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        self.down_sample_layer: nn.Cell | None = None
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([_conv(in_channel, out_channel, 1, stride, False),
                                                        _bn(out_channel)])

    def construct(self, x: Tensor) -> Tensor:
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.down_sample_layer is not None:
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class ResidualBlockBase(nn.Cell):
    """The basic block of ResNet-18/34: two 3x3 convolutions (the first with the stride).

    Args:
        in_channel, out_channel: channel counts. stride: stride of the first convolution. Default: 1.
        res_base: explicit padding and the ResNet-18 BN settings in the shortcut. Default: True.
    """

    expansion = 1

    def __init__(self, in_channel: int, out_channel: int, stride: int = 1, res_base: bool = True) -> None:
        super().__init__()
        self.res_base = res_base
        self.conv1 = _conv(in_channel, out_channel, 3, stride, res_base)
        self.bn1d = _bn(out_channel)
        self.conv2 = _conv(out_channel, out_channel, 3, 1, res_base)
        self.bn2d = _bn(out_channel)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        self.down_sample_layer: nn.Cell | None = None
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([_conv(in_channel, out_channel, 1, stride, res_base),
                                                        _bn(out_channel, res_base)])

    def construct(self, x: Tensor) -> Tensor:
        identity = x
        out = self.relu(self.bn1d(self.conv1(x)))
        out = self.bn2d(self.conv2(out))
        if self.down_sample_layer is not None:
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class ResNet(nn.Cell):
    """ResNet: a stem, four stages of residual blocks and a Dense classifier.

    Args:
        block: ResidualBlockBase or ResidualBlock.
        layer_nums: blocks per stage (4 ints).
        in_channels, out_channels: channels entering / leaving each stage (4 ints each).
        strides: stride of each stage's first block (4 ints).
        num_classes: outputs of ``end_point``.
        res_base: the ResNet-18/34 settings (explicit padding, BN eps 1e-5 in the stem). Default: False.
        image_channels: channels of the input image. Default: 3.
        stem_channels: output channels of conv1. Default: 64.

    Shape:
        (N, image_channels, H, W) -> (N, num_classes); H and W at least 32 for five halvings.

    Raises:
        ValueError: ``layer_nums``, ``in_channels``, ``out_channels`` or ``strides`` without 4 entries.

    Examples:
        >>> from cellonnx.models import ResNet
        >>> from cellonnx.models.resnet import ResidualBlockBase
        >>> net = ResNet(ResidualBlockBase, [1, 1, 1, 1], [8, 8, 16, 32], [8, 16, 32, 64], [1, 2, 2, 2],
        ...              num_classes=5, res_base=True, stem_channels=8)
        >>> net(ops.ones((2, 3, 32, 32))).shape
        (2, 5)
    """

    def __init__(self, block: type, layer_nums: Sequence[int], in_channels: Sequence[int],
                 out_channels: Sequence[int], strides: Sequence[int], num_classes: int,
                 res_base: bool = False, image_channels: int = 3, stem_channels: int = 64) -> None:
        super().__init__()
        if not len(layer_nums) == len(in_channels) == len(out_channels) == len(strides) == 4:
            raise ValueError("ResNet: layer_nums, in_channels, out_channels and strides must have 4 entries "
                             f"each, got {len(layer_nums)}, {len(in_channels)}, {len(out_channels)}, "
                             f"{len(strides)}")
        self.res_base = res_base
        self.conv1 = _conv(image_channels, stem_channels, 7, 2, res_base)
        self.bn1 = _bn(stem_channels, res_base)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="valid" if res_base else "same")
        for i in range(4):
            stage = self._make_layer(block, layer_nums[i], in_channels[i], out_channels[i], strides[i],
                                     res_base)
            setattr(self, f"layer{i + 1}", stage)
        self.flatten = nn.Flatten()
        self.end_point = _fc(out_channels[3], num_classes)

    @staticmethod
    def _make_layer(block: type, layer_num: int, in_channel: int, out_channel: int, stride: int,
                    res_base: bool) -> nn.SequentialCell:
        extra = {"res_base": True} if block is ResidualBlockBase and res_base else {}
        layers = [block(in_channel, out_channel, stride=stride, **extra)]
        layers += [block(out_channel, out_channel, stride=1, **extra) for _ in range(1, layer_num)]
        return nn.SequentialCell(layers)

    def construct(self, x: Tensor) -> Tensor:
        x = self.relu(self.bn1(self.conv1(x)))
        if self.res_base:
            x = ops.pad(x, (1, 1, 1, 1))  # the model zoo's nn.Pad((0, 0), (0, 0), (1, 1), (1, 1))
        x = self.maxpool(x)
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.layer3(x)
        x = self.layer4(x)
        x = ops.mean(x, (2, 3), keep_dims=True)
        return self.end_point(self.flatten(x))


def _scaled(channels: Sequence[int], width_mult: float, multiple: int = 1) -> list[int]:
    if width_mult <= 0:
        raise ValueError(f"ResNet: width_mult must be positive, got {width_mult}")
    return [max(multiple, round(c * width_mult / multiple) * multiple) for c in channels]


def resnet18(num_classes: int = 10, width_mult: float = 1.0, image_channels: int = 3) -> ResNet:
    """ResNet-18 (MindSpore model zoo's ``resnet18``; ``width_mult`` scales the channels).

    Examples:
        >>> from cellonnx.models import resnet18
        >>> net = resnet18(10)
        >>> net(ops.ones((1, 3, 32, 32))).shape
        (1, 10)
    """
    stem, a, b, c, d = _scaled([64, 64, 128, 256, 512], width_mult)
    return ResNet(ResidualBlockBase, [2, 2, 2, 2], [stem, a, b, c], [a, b, c, d], [1, 2, 2, 2], num_classes,
                  res_base=True, image_channels=image_channels, stem_channels=stem)


def resnet34(num_classes: int = 10, width_mult: float = 1.0, image_channels: int = 3) -> ResNet:
    """ResNet-34 (MindSpore model zoo's ``resnet34``): basic blocks, 3, 4, 6 and 3 per stage.

    Args:
        num_classes: outputs. Default: 10.
        width_mult: scales every stage's channels. Default: 1.0.
        image_channels: input channels. Default: 3.

    Returns:
        ResNet.

    Examples:
        >>> from cellonnx.models import resnet34
        >>> net = resnet34(10, width_mult=0.125)
        >>> net(ops.ones((1, 3, 32, 32))).shape, len(net.layer3)
        ((1, 10), 6)
    """
    stem, a, b, c, d = _scaled([64, 64, 128, 256, 512], width_mult)
    return ResNet(ResidualBlockBase, [3, 4, 6, 3], [stem, a, b, c], [a, b, c, d], [1, 2, 2, 2], num_classes,
                  res_base=True, image_channels=image_channels, stem_channels=stem)


def resnet50(num_classes: int = 10, width_mult: float = 1.0, image_channels: int = 3) -> ResNet:
    """ResNet-50 (MindSpore model zoo's ``resnet50``, bottleneck blocks).

    Args:
        num_classes: outputs. Default: 10.
        width_mult: scales every stage's channels (kept multiples of the bottleneck's expansion, 4).
            Default: 1.0.
        image_channels: input channels. Default: 3.

    Returns:
        ResNet.

    Examples:
        >>> from cellonnx.models import resnet50
        >>> net = resnet50(10, width_mult=0.125)
        >>> net(ops.ones((1, 3, 32, 32))).shape, net.end_point.in_channels
        ((1, 10), 256)
    """
    (stem,) = _scaled([64], width_mult)
    a, b, c, d = _scaled([256, 512, 1024, 2048], width_mult, multiple=ResidualBlock.expansion)
    return ResNet(ResidualBlock, [3, 4, 6, 3], [stem, a, b, c], [a, b, c, d], [1, 2, 2, 2], num_classes,
                  image_channels=image_channels, stem_channels=stem)
