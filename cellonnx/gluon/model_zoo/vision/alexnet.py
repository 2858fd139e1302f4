"""AlexNet (Krizhevsky et al., 2012) as MXNet's model zoo builds it."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon import nn
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.model_zoo.vision._common import finish
from cellonnx.tensor import Tensor

__all__ = ["AlexNet", "alexnet"]

# (channels, kernel, stride, padding, max-pool after)
_CONVS = [(64, 11, 4, 2, True), (192, 5, 1, 2, True), (384, 3, 1, 1, False), (256, 3, 1, 1, False),
          (256, 3, 1, 1, True)]


class AlexNet(HybridBlock):
    """AlexNet: five ReLU convolutions with three max poolings, two 4096-unit dense layers with dropout, and
    the classifier (``classes``, Default: 1000)."""

    def __init__(self, classes: int = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            with self.features.name_scope():
                for channels, kernel, stride, pad, pool in _CONVS:
                    self.features.add(nn.Conv2D(channels, kernel_size=kernel, strides=stride, padding=pad,
                                                activation="relu"))
                    if pool:
                        self.features.add(nn.MaxPool2D(pool_size=3, strides=2))
                self.features.add(nn.Flatten())
                for _ in range(2):
                    self.features.add(nn.Dense(4096, activation="relu"), nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def forward(self, x: Tensor) -> Tensor:
        return self.output(self.features(x))


def alexnet(pretrained: bool = False, ctx: Any = None, root: Any = None, device: Any = None,
            **kwargs: Any) -> AlexNet:
    """AlexNet; ``pretrained`` loads MXNet's parameters from ``root`` (no download)."""
    return finish(AlexNet(**kwargs), "alexnet", pretrained, root)
