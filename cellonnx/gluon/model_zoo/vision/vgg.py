"""VGG (Simonyan and Zisserman, 2014), with and without batch norm, as MXNet's model zoo builds it."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon import nn
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.init import Xavier
from cellonnx.gluon.model_zoo.vision._common import finish
from cellonnx.tensor import Tensor

__all__ = ["VGG", "get_vgg", "vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16", "vgg16_bn", "vgg19",
           "vgg19_bn"]


class VGG(HybridBlock):
    """VGG: stages of 3x3 convolutions (with batch norm) and max pooling, two 4096-unit dense layers with
    dropout, and the classifier.

    Args:
        layers: convolutions per stage.
        filters: channels per stage.
        classes: Default: 1000.
        batch_norm: batch norm after each convolution. Default: False.
    """

    def __init__(self, layers: list[int], filters: list[int], classes: int = 1000, batch_norm: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if len(layers) != len(filters):
            raise ValueError(f"VGG: {len(layers)} stages but {len(filters)} filter counts")
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            for count, channels in zip(layers, filters):
                for _ in range(count):
                    self.features.add(nn.Conv2D(channels, kernel_size=3, padding=1, bias_initializer="zeros",
                                                weight_initializer=Xavier("gaussian", "out", 2)))
                    if batch_norm:
                        self.features.add(nn.BatchNorm())
                    self.features.add(nn.Activation("relu"))
                self.features.add(nn.MaxPool2D(strides=2))
            for _ in range(2):
                self.features.add(nn.Dense(4096, activation="relu", weight_initializer="normal",
                                           bias_initializer="zeros"), nn.Dropout(rate=0.5))
            self.output = nn.Dense(classes, weight_initializer="normal", bias_initializer="zeros")

    def forward(self, x: Tensor) -> Tensor:
        return self.output(self.features(x))


_SPEC = {11: ([1, 1, 2, 2, 2], [64, 128, 256, 512, 512]), 13: ([2, 2, 2, 2, 2], [64, 128, 256, 512, 512]),
         16: ([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]), 19: ([2, 2, 4, 4, 4], [64, 128, 256, 512, 512])}


def get_vgg(num_layers: int, pretrained: bool = False, ctx: Any = None, root: Any = None, device: Any = None,
            **kwargs: Any) -> VGG:
    """VGG with 11, 13, 16 or 19 layers (``batch_norm=True`` for the _bn variants); ``pretrained`` loads
    MXNet's parameters from ``root`` (no download)."""
    if num_layers not in _SPEC:
        raise ValueError(f"Invalid number of layers: {num_layers}. Options are {sorted(_SPEC)}")
    layers, filters = _SPEC[num_layers]
    net = VGG(layers, filters, **kwargs)
    name = f"vgg{num_layers}" + ("_bn" if kwargs.get("batch_norm") else "")
    return finish(net, name, pretrained, root)


def _make(layers: int, bn: bool) -> Any:
    def build(**kwargs: Any) -> VGG:
        if bn:
            kwargs["batch_norm"] = True
        return get_vgg(layers, **kwargs)
    build.__name__ = f"vgg{layers}" + ("_bn" if bn else "")
    build.__doc__ = f"VGG-{layers}{' with batch norm' if bn else ''} (see get_vgg)."
    return build


vgg11, vgg13, vgg16, vgg19 = (_make(n, False) for n in (11, 13, 16, 19))
vgg11_bn, vgg13_bn, vgg16_bn, vgg19_bn = (_make(n, True) for n in (11, 13, 16, 19))
