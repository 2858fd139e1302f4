"""ResNet V1 and V2 (He et al., 2015 and 2016) as MXNet's model zoo builds them: the same layers, parameter
names (``features.1.0.body.0.weight``; ``resnetv10_stage1_conv0_weight`` for collect_params) and
pretrained files."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon import nn
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.model_zoo.vision._common import finish
from cellonnx.tensor import Tensor

__all__ = ["BasicBlockV1", "BasicBlockV2", "BottleneckV1", "BottleneckV2", "ResNetV1", "ResNetV2",
           "get_resnet",
           "resnet18_v1", "resnet18_v2", "resnet34_v1", "resnet34_v2", "resnet50_v1", "resnet50_v2",
           "resnet101_v1", "resnet101_v2", "resnet152_v1", "resnet152_v2"]


def _conv3x3(channels: int, stride: int, in_channels: int) -> nn.Conv2D:
    return nn.Conv2D(channels, kernel_size=3, strides=stride, padding=1, use_bias=False,
                     in_channels=in_channels)


def _stack(*blocks: HybridBlock) -> nn.HybridSequential:
    seq = nn.HybridSequential(prefix="")
    seq.add(*blocks)
    return seq


def _shortcut(channels: int, stride: int, in_channels: int) -> nn.HybridSequential:
    return _stack(nn.Conv2D(channels, kernel_size=1, strides=stride, use_bias=False, in_channels=in_channels),
                  nn.BatchNorm())


class BasicBlockV1(HybridBlock):
    """Two 3x3 convolutions with batch norm, added to the (projected) input, then ReLU.

    Args:
        channels: output channels.
        stride: stride of the first convolution.
        downsample: project the input (1x1 convolution and batch norm). Default: False.
        in_channels: input channels; 0 infers them. Default: 0.
    """

    def __init__(self, channels: int, stride: int, downsample: bool = False, in_channels: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.body = _stack(_conv3x3(channels, stride, in_channels), nn.BatchNorm(), nn.Activation("relu"),
                           _conv3x3(channels, 1, channels), nn.BatchNorm())
        self.downsample = _shortcut(channels, stride, in_channels) if downsample else None

    def forward(self, x: Tensor) -> Tensor:
        residual = self.downsample(x) if self.downsample is not None else x
        return ops.relu(ops.add(residual, self.body(x)))


class BottleneckV1(HybridBlock):
    """1x1 (channels / 4, with bias), 3x3, 1x1 (channels, with bias) convolutions with batch norm, added to
    the (projected) input, then ReLU; arguments as BasicBlockV1."""

    def __init__(self, channels: int, stride: int, downsample: bool = False, in_channels: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        mid = channels // 4
        self.body = _stack(nn.Conv2D(mid, kernel_size=1, strides=stride), nn.BatchNorm(),
                           nn.Activation("relu"),
                           _conv3x3(mid, 1, mid), nn.BatchNorm(), nn.Activation("relu"),
                           nn.Conv2D(channels, kernel_size=1, strides=1), nn.BatchNorm())
        self.downsample = _shortcut(channels, stride, in_channels) if downsample else None

    def forward(self, x: Tensor) -> Tensor:
        residual = self.downsample(x) if self.downsample is not None else x
        return ops.relu(ops.add(self.body(x), residual))


class BasicBlockV2(HybridBlock):
    """Pre-activation block: BN, ReLU, 3x3 convolution, twice, added to the (projected) input; arguments as
    BasicBlockV1."""

    def __init__(self, channels: int, stride: int, downsample: bool = False, in_channels: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bn1 = nn.BatchNorm()
        self.conv1 = _conv3x3(channels, stride, in_channels)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(channels, 1, channels)
        self.downsample = nn.Conv2D(channels, 1, stride, use_bias=False, in_channels=in_channels) \
            if downsample else None

    def forward(self, x: Tensor) -> Tensor:
        residual = x
        x = ops.relu(self.bn1(x))
        if self.downsample is not None:
            residual = self.downsample(x)
        x = self.conv1(x)
        x = self.conv2(ops.relu(self.bn2(x)))
        return ops.add(x, residual)


class BottleneckV2(HybridBlock):
    """Pre-activation bottleneck (BN, ReLU, 1x1 / 3x3 / 1x1 convolutions without bias); arguments as
    BasicBlockV1."""

    def __init__(self, channels: int, stride: int, downsample: bool = False, in_channels: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        mid = channels // 4
        self.bn1 = nn.BatchNorm()
        self.conv1 = nn.Conv2D(mid, kernel_size=1, strides=1, use_bias=False)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(mid, stride, mid)
        self.bn3 = nn.BatchNorm()
        self.conv3 = nn.Conv2D(channels, kernel_size=1, strides=1, use_bias=False)
        self.downsample = nn.Conv2D(channels, 1, stride, use_bias=False, in_channels=in_channels) \
            if downsample else None

    def forward(self, x: Tensor) -> Tensor:
        residual = x
        x = ops.relu(self.bn1(x))
        if self.downsample is not None:
            residual = self.downsample(x)
        x = self.conv1(x)
        x = self.conv2(ops.relu(self.bn2(x)))
        x = self.conv3(ops.relu(self.bn3(x)))
        return ops.add(x, residual)


class _ResNet(HybridBlock):
    _v2 = False

    def __init__(self, block: type, layers: list[int], channels: list[int], classes: int = 1000,
                 thumbnail: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if len(layers) != len(channels) - 1:
            raise ValueError(f"{type(self).__name__}: {len(layers)} layers need {len(layers) + 1} "
                             "channels, got "
                             f"{len(channels)}")
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            if self._v2:
                self.features.add(nn.BatchNorm(scale=False, center=False))
            if thumbnail:
                self.features.add(_conv3x3(channels[0], 1, 0))
            else:
                self.features.add(nn.Conv2D(channels[0], 7, 2, 3, use_bias=False), nn.BatchNorm(),
                                  nn.Activation("relu"), nn.MaxPool2D(3, 2, 1))
            in_channels = channels[0]
            for i, count in enumerate(layers):
                self.features.add(self._stage(block, count, channels[i + 1], 1 if i == 0 else 2, i + 1,
                                              in_channels))
                in_channels = channels[i + 1]
            if self._v2:
                self.features.add(nn.BatchNorm(), nn.Activation("relu"))
            self.features.add(nn.GlobalAvgPool2D())
            if self._v2:
                self.features.add(nn.Flatten())
            self.output = nn.Dense(classes, in_units=in_channels)

    @staticmethod
    def _stage(block: type, count: int, channels: int, stride: int, index: int,
               in_channels: int) -> nn.HybridSequential:
        stage = nn.HybridSequential(prefix=f"stage{index}_")
        with stage.name_scope():
            stage.add(block(channels, stride, channels != in_channels, in_channels=in_channels, prefix=""))
            for _ in range(count - 1):
                stage.add(block(channels, 1, False, in_channels=channels, prefix=""))
        return stage

    def forward(self, x: Tensor) -> Tensor:
        return self.output(self.features(x))


class ResNetV1(_ResNet):
    """ResNet V1.

    Args:
        block: BasicBlockV1 or BottleneckV1.
        layers: blocks per stage.
        channels: channels of the stem and of each stage (one more than ``layers``).
        classes: Default: 1000.
        thumbnail: a 3x3 stem for small images (no stride, no max pooling). Default: False.
    """


class ResNetV2(_ResNet):
    """ResNet V2 (pre-activation); arguments as ResNetV1, blocks BasicBlockV2 or BottleneckV2."""

    _v2 = True


_SPEC = {18: ("basic", [2, 2, 2, 2], [64, 64, 128, 256, 512]),
         34: ("basic", [3, 4, 6, 3], [64, 64, 128, 256, 512]),
         50: ("bottleneck", [3, 4, 6, 3], [64, 256, 512, 1024, 2048]),
         101: ("bottleneck", [3, 4, 23, 3], [64, 256, 512, 1024, 2048]),
         152: ("bottleneck", [3, 8, 36, 3], [64, 256, 512, 1024, 2048])}
_BLOCKS = {(1, "basic"): BasicBlockV1, (1, "bottleneck"): BottleneckV1, (2, "basic"): BasicBlockV2,
           (2, "bottleneck"): BottleneckV2}


def get_resnet(version: int, num_layers: int, pretrained: bool = False, ctx: Any = None, root: Any = None,
               device: Any = None, **kwargs: Any) -> _ResNet:
    """ResNet ``version`` (1 or 2) with ``num_layers`` (18, 34, 50, 101, 152) layers.

    Args:
        pretrained: load MXNet's pretrained parameters from ``root`` (no download). Default: False.
        root: the folder of MXNet's model files. Default: ``$MXNET_HOME/models``.
        kwargs: ResNetV1 / ResNetV2 arguments (classes, thumbnail).
    """
    if num_layers not in _SPEC:
        raise ValueError(f"Invalid number of layers: {num_layers}. Options are {sorted(_SPEC)}")
    if version not in (1, 2):
        raise ValueError(f"Invalid resnet version: {version}. Options are 1 and 2.")
    kind, layers, channels = _SPEC[num_layers]
    net = (ResNetV1 if version == 1 else ResNetV2)(_BLOCKS[(version, kind)], layers, channels, **kwargs)
    return finish(net, f"resnet{num_layers}_v{version}", pretrained, root)


def _make(version: int, layers: int) -> Any:
    def build(**kwargs: Any) -> _ResNet:
        return get_resnet(version, layers, **kwargs)
    build.__name__ = f"resnet{layers}_v{version}"
    build.__doc__ = f"ResNet-{layers} V{version} (see get_resnet)."
    return build


resnet18_v1, resnet34_v1, resnet50_v1, resnet101_v1, resnet152_v1 = (
    _make(1, n) for n in (18, 34, 50, 101, 152))
resnet18_v2, resnet34_v2, resnet50_v2, resnet101_v2, resnet152_v2 = (
    _make(2, n) for n in (18, 34, 50, 101, 152))
