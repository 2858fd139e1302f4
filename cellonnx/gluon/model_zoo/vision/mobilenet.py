"""MobileNet (Howard et al., 2017) and MobileNetV2 (Sandler et al., 2018) as MXNet's model zoo builds them."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon import nn
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.model_zoo.vision._common import finish
from cellonnx.tensor import Tensor

__all__ = [
    "RELU6",
    "LinearBottleneck",
    "MobileNet",
    "MobileNetV2",
    "get_mobilenet",
    "get_mobilenet_v2",
    "mobilenet0_5",
    "mobilenet0_25",
    "mobilenet0_75",
    "mobilenet1_0",
    "mobilenet_v2_0_5",
    "mobilenet_v2_0_25",
    "mobilenet_v2_0_75",
    "mobilenet_v2_1_0",
]


class RELU6(HybridBlock):
    """min(max(x, 0), 6)."""

    def forward(self, x: Tensor) -> Tensor:
        return ops.clamp(x, 0.0, 6.0)


def _add_conv(out: nn.HybridSequential, channels: int = 1, kernel: int = 1, stride: int = 1, pad: int = 0,
              num_group: int = 1, active: bool = True, relu6: bool = False) -> None:
    out.add(nn.Conv2D(channels, kernel, stride, pad, groups=num_group, use_bias=False),
            nn.BatchNorm(scale=True))
    if active:
        out.add(RELU6() if relu6 else nn.Activation("relu"))


class LinearBottleneck(HybridBlock):
    """MobileNetV2's inverted residual: 1x1 expansion by ``t``, 3x3 depthwise (``stride``), 1x1 linear
    projection, plus the input when the shapes agree."""

    def __init__(self, in_channels: int, channels: int, t: int, stride: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.use_shortcut = stride == 1 and in_channels == channels
        with self.name_scope():
            self.out = nn.HybridSequential()
            _add_conv(self.out, in_channels * t, relu6=True)
            _add_conv(self.out, in_channels * t, kernel=3, stride=stride, pad=1, num_group=in_channels * t,
                      relu6=True)
            _add_conv(self.out, channels, active=False, relu6=True)

    def forward(self, x: Tensor) -> Tensor:
        out = self.out(x)
        return ops.add(out, x) if self.use_shortcut else out


class MobileNet(HybridBlock):
    """MobileNet with width ``multiplier`` (>= 0.25) and ``classes`` (Default: 1000)."""

    def __init__(self, multiplier: float = 1.0, classes: int = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        dw = [int(c * multiplier) for c in [32, 64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024]]
        pw = [int(c * multiplier) for c in [64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024] * 2]
        strides = [1, 2] * 3 + [1] * 5 + [2, 1]
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            with self.features.name_scope():
                _add_conv(self.features, channels=int(32 * multiplier), kernel=3, pad=1, stride=2)
                for d, p, s in zip(dw, pw, strides):
                    _add_conv(self.features, channels=d, kernel=3, stride=s, pad=1, num_group=d)
                    _add_conv(self.features, channels=p)
                self.features.add(nn.GlobalAvgPool2D(), nn.Flatten())
            self.output = nn.Dense(classes)

    def forward(self, x: Tensor) -> Tensor:
        return self.output(self.features(x))


class MobileNetV2(HybridBlock):
    """MobileNetV2 with width ``multiplier`` and ``classes`` (Default: 1000)."""

    def __init__(self, multiplier: float = 1.0, classes: int = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        widths = [16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3 + [160] * 3
        ins = [int(c * multiplier) for c in [32] + widths]
        outs = [int(c * multiplier) for c in widths + [320]]
        ts = [1] + [6] * 16
        strides = [1, 2] * 2 + [1, 1, 2] + [1] * 6 + [2] + [1] * 3
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="features_")
            with self.features.name_scope():
                _add_conv(self.features, int(32 * multiplier), kernel=3, stride=2, pad=1, relu6=True)
                for i, c, t, s in zip(ins, outs, ts, strides):
                    self.features.add(LinearBottleneck(in_channels=i, channels=c, t=t, stride=s))
                _add_conv(self.features, int(1280 * multiplier) if multiplier > 1.0 else 1280, relu6=True)
                self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.HybridSequential(prefix="output_")
            with self.output.name_scope():
                self.output.add(nn.Conv2D(classes, 1, use_bias=False, prefix="pred_"), nn.Flatten())

    def forward(self, x: Tensor) -> Tensor:
        return self.output(self.features(x))


def _suffix(multiplier: float) -> str:
    text = f"{multiplier:.2f}"
    return text[:-1] if text in ("1.00", "0.50") else text


def get_mobilenet(multiplier: float, pretrained: bool = False, ctx: Any = None, root: Any = None,
                  device: Any = None, **kwargs: Any) -> MobileNet:
    """MobileNet of width ``multiplier``; ``pretrained`` loads MXNet's parameters from ``root`` (no
    download)."""
    return finish(MobileNet(multiplier, **kwargs), f"mobilenet{_suffix(multiplier)}", pretrained, root)


def get_mobilenet_v2(multiplier: float, pretrained: bool = False, ctx: Any = None, root: Any = None,
                     device: Any = None, **kwargs: Any) -> MobileNetV2:
    """MobileNetV2 of width ``multiplier``; ``pretrained`` loads MXNet's parameters from ``root``."""
    return finish(MobileNetV2(multiplier, **kwargs), f"mobilenetv2_{_suffix(multiplier)}", pretrained, root)


def _make(v2: bool, multiplier: float) -> Any:
    def build(**kwargs: Any) -> Any:
        return (get_mobilenet_v2 if v2 else get_mobilenet)(multiplier, **kwargs)
    build.__name__ = ("mobilenet_v2_" if v2 else "mobilenet") + str(multiplier).replace(".", "_")
    build.__doc__ = f"MobileNet{'V2' if v2 else ''} with width multiplier {multiplier}."
    return build


mobilenet1_0, mobilenet0_75, mobilenet0_5, mobilenet0_25 = (_make(False, m) for m in (1.0, 0.75, 0.5, 0.25))
mobilenet_v2_1_0, mobilenet_v2_0_75, mobilenet_v2_0_5, mobilenet_v2_0_25 = (_make(True, m)
                                                                            for m in (1.0, 0.75, 0.5, 0.25))
