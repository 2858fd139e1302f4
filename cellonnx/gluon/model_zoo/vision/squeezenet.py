"""SqueezeNet 1.0 and 1.1 (Iandola et al., 2016) as MXNet's model zoo builds them."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon import nn
from cellonnx.gluon.contrib.nn import HybridConcurrent
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.model_zoo.vision._common import finish
from cellonnx.tensor import Tensor

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1"]

# stem (channels, kernel), then "pool" or a fire module (squeeze, expand 1x1, expand 3x3)
_SPEC: dict[str, list[Any]] = {
    "1.0": [(96, 7), "pool", (16, 64, 64), (16, 64, 64), (32, 128, 128), "pool", (32, 128, 128), (48, 192,
                                                                                                  192),
            (48, 192, 192), (64, 256, 256), "pool", (64, 256, 256)],
    "1.1": [(64, 3), "pool", (16, 64, 64), (16, 64, 64), "pool", (32, 128, 128), (32, 128, 128), "pool",
            (48, 192, 192), (48, 192, 192), (64, 256, 256), (64, 256, 256)],
}


def _conv(channels: int, kernel: int, padding: int = 0) -> nn.HybridSequential:
    out = nn.HybridSequential(prefix="")
    out.add(nn.Conv2D(channels, kernel, padding=padding), nn.Activation("relu"))
    return out


def _fire(squeeze: int, expand1: int, expand3: int) -> nn.HybridSequential:
    out = nn.HybridSequential(prefix="")
    out.add(_conv(squeeze, 1))
    paths = HybridConcurrent(axis=1, prefix="")
    paths.add(_conv(expand1, 1), _conv(expand3, 3, 1))
    out.add(paths)
    return out


class SqueezeNet(HybridBlock):
    """SqueezeNet ``version`` '1.0' or '1.1' (``classes``, Default: 1000)."""

    def __init__(self, version: str, classes: int = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if version not in _SPEC:
            raise ValueError(f"Unsupported SqueezeNet version {version}: 1.0 or 1.1 expected")
        stem, *rest = _SPEC[version]
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(nn.Conv2D(stem[0], kernel_size=stem[1], strides=2), nn.Activation("relu"))
            for item in rest:
                if item == "pool":
                    self.features.add(nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                else:
                    self.features.add(_fire(*item))
            self.features.add(nn.Dropout(0.5))
            self.output = nn.HybridSequential(prefix="")
            self.output.add(nn.Conv2D(classes, kernel_size=1), nn.Activation("relu"), nn.AvgPool2D(13),
                            nn.Flatten())

    def forward(self, x: Tensor) -> Tensor:
        return self.output(self.features(x))


def _make(version: str) -> Any:
    def build(pretrained: bool = False, ctx: Any = None, root: Any = None, device: Any = None,
              **kwargs: Any) -> SqueezeNet:
        return finish(SqueezeNet(version, **kwargs), f"squeezenet{version}", pretrained, root)
    build.__name__ = "squeezenet" + version.replace(".", "_")
    build.__doc__ = f"SqueezeNet {version}; ``pretrained`` loads MXNet's parameters from ``root``."
    return build


squeezenet1_0, squeezenet1_1 = _make("1.0"), _make("1.1")
