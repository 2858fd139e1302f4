"""DenseNet-BC (Huang et al., 2016) as MXNet's model zoo builds it."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon import nn
from cellonnx.gluon.contrib.nn import HybridConcurrent, Identity
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.model_zoo.vision._common import finish
from cellonnx.tensor import Tensor

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201"]


def _dense_layer(growth_rate: int, bn_size: int, dropout: float) -> HybridConcurrent:
    new = nn.HybridSequential(prefix="")
    new.add(nn.BatchNorm(), nn.Activation("relu"), nn.Conv2D(bn_size * growth_rate, kernel_size=1,
                                                             use_bias=False),
            nn.BatchNorm(), nn.Activation("relu"), nn.Conv2D(growth_rate, kernel_size=3, padding=1,
                                                             use_bias=False))
    if dropout:
        new.add(nn.Dropout(dropout))
    out = HybridConcurrent(axis=1, prefix="")
    out.add(Identity(), new)
    return out


def _dense_block(count: int, bn_size: int, growth_rate: int, dropout: float,
                 index: int) -> nn.HybridSequential:
    out = nn.HybridSequential(prefix=f"stage{index}_")
    with out.name_scope():
        for _ in range(count):
            out.add(_dense_layer(growth_rate, bn_size, dropout))
    return out


def _transition(channels: int) -> nn.HybridSequential:
    out = nn.HybridSequential(prefix="")
    out.add(nn.BatchNorm(), nn.Activation("relu"), nn.Conv2D(channels, kernel_size=1, use_bias=False),
            nn.AvgPool2D(pool_size=2, strides=2))
    return out


class DenseNet(HybridBlock):
    """DenseNet-BC.

    Args:
        num_init_features: channels of the first convolution.
        growth_rate: channels each dense layer adds.
        block_config: dense layers per block.
        bn_size: bottleneck width in multiples of growth_rate. Default: 4.
        dropout: dropout rate after each dense layer. Default: 0.
        classes: Default: 1000.
    """

    def __init__(self, num_init_features: int, growth_rate: int, block_config: list[int], bn_size: int = 4,
                 dropout: float = 0, classes: int = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(nn.Conv2D(num_init_features, kernel_size=7, strides=2, padding=3,
                                        use_bias=False),
                              nn.BatchNorm(), nn.Activation("relu"), nn.MaxPool2D(pool_size=3, strides=2,
                                                                                  padding=1))
            channels = num_init_features
            for i, count in enumerate(block_config):
                self.features.add(_dense_block(count, bn_size, growth_rate, dropout, i + 1))
                channels += count * growth_rate
                if i != len(block_config) - 1:
                    channels //= 2
                    self.features.add(_transition(channels))
            self.features.add(nn.BatchNorm(), nn.Activation("relu"), nn.AvgPool2D(pool_size=7), nn.Flatten())
            self.output = nn.Dense(classes)

    def forward(self, x: Tensor) -> Tensor:
        return self.output(self.features(x))


_SPEC = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]), 169: (64, 32, [6, 12, 32, 32]),
         201: (64, 32, [6, 12, 48, 32])}


def get_densenet(num_layers: int, pretrained: bool = False, ctx: Any = None, root: Any = None,
                 device: Any = None, **kwargs: Any) -> DenseNet:
    """DenseNet-121, 161, 169 or 201; ``pretrained`` loads MXNet's parameters from ``root`` (no
    download)."""
    if num_layers not in _SPEC:
        raise ValueError(f"Invalid number of layers: {num_layers}. Options are {sorted(_SPEC)}")
    init, growth, config = _SPEC[num_layers]
    return finish(DenseNet(init, growth, config, **kwargs), f"densenet{num_layers}", pretrained, root)


def _make(layers: int) -> Any:
    def build(**kwargs: Any) -> DenseNet:
        return get_densenet(layers, **kwargs)
    build.__name__ = f"densenet{layers}"
    build.__doc__ = f"DenseNet-{layers} (see get_densenet)."
    return build


densenet121, densenet161, densenet169, densenet201 = (_make(n) for n in (121, 161, 169, 201))
