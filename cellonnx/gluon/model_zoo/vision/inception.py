"""Inception V3 (Szegedy et al., 2015) as MXNet's model zoo builds it (299x299 inputs)."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon import nn
from cellonnx.gluon.contrib.nn import HybridConcurrent
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.model_zoo.vision._common import finish
from cellonnx.tensor import Tensor

__all__ = ["Inception3", "inception_v3"]

_KEYS = ("channels", "kernel_size", "strides", "padding")


def _conv(**kwargs: Any) -> nn.HybridSequential:
    out = nn.HybridSequential(prefix="")
    out.add(nn.Conv2D(use_bias=False, **kwargs), nn.BatchNorm(epsilon=0.001), nn.Activation("relu"))
    return out


def _branch(pool: str | None, *convs: tuple) -> nn.HybridSequential:
    """An optional pooling ('avg': 3x3 stride 1 pad 1, 'max': 3x3 stride 2), then convolutions given as
    (channels, kernel, strides, padding) with None for MXNet's defaults."""
    out = nn.HybridSequential(prefix="")
    if pool == "avg":
        out.add(nn.AvgPool2D(pool_size=3, strides=1, padding=1))
    elif pool == "max":
        out.add(nn.MaxPool2D(pool_size=3, strides=2))
    for conv in convs:
        out.add(_conv(**{k: v for k, v in zip(_KEYS, conv) if v is not None}))
    return out


def _concurrent(prefix: str, branches: list[tuple]) -> HybridConcurrent:
    out = HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        for pool, *convs in branches:
            out.add(_branch(pool, *convs))
    return out


def _a(pool_features: int, prefix: str) -> HybridConcurrent:
    return _concurrent(prefix, [(None, (64, 1, None, None)), (None, (48, 1, None, None), (64, 5, None, 2)),
                                (None, (64, 1, None, None), (96, 3, None, 1), (96, 3, None, 1)),
                                ("avg", (pool_features, 1, None, None))])


def _b(prefix: str) -> HybridConcurrent:
    return _concurrent(prefix, [(None, (384, 3, 2, None)),
                                (None, (64, 1, None, None), (96, 3, None, 1), (96, 3, 2, None)), ("max",)])


def _c(c7: int, prefix: str) -> HybridConcurrent:
    return _concurrent(prefix, [
        (None, (192, 1, None, None)),
        (None, (c7, 1, None, None), (c7, (1, 7), None, (0, 3)), (192, (7, 1), None, (3, 0))),
        (None, (c7, 1, None, None), (c7, (7, 1), None, (3, 0)), (c7, (1, 7), None, (0, 3)),
         (c7, (7, 1), None, (3, 0)), (192, (1, 7), None, (0, 3))),
        ("avg", (192, 1, None, None))])


def _d(prefix: str) -> HybridConcurrent:
    return _concurrent(prefix, [(None, (192, 1, None, None), (320, 3, 2, None)),
                                (None, (192, 1, None, None), (192, (1, 7), None, (0, 3)),
                                 (192, (7, 1), None, (3, 0)), (192, 3, 2, None)), ("max",)])




def _e(prefix: str) -> HybridConcurrent:
    out = HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        out.add(_branch(None, (320, 1, None, None)))
        three = nn.HybridSequential(prefix="")
        out.add(three)
        three.add(_branch(None, (384, 1, None, None)))
        split = HybridConcurrent(axis=1, prefix="")
        split.add(_branch(None, (384, (1, 3), None, (0, 1))), _branch(None, (384, (3, 1), None, (1, 0))))
        three.add(split)
        double = nn.HybridSequential(prefix="")
        out.add(double)
        double.add(_branch(None, (448, 1, None, None), (384, 3, None, 1)))
        split2 = HybridConcurrent(axis=1, prefix="")
        double.add(split2)
        split2.add(_branch(None, (384, (1, 3), None, (0, 1))), _branch(None, (384, (3, 1), None, (1, 0))))
        out.add(_branch("avg", (192, 1, None, None)))
    return out


class Inception3(HybridBlock):
    """Inception V3 for 299x299 inputs (``classes``, Default: 1000)."""

    def __init__(self, classes: int = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(_conv(channels=32, kernel_size=3, strides=2), _conv(channels=32, kernel_size=3),
                              _conv(channels=64, kernel_size=3, padding=1), nn.MaxPool2D(pool_size=3,
                                                                                         strides=2),
                              _conv(channels=80, kernel_size=1), _conv(channels=192, kernel_size=3),
                              nn.MaxPool2D(pool_size=3, strides=2))
            self.features.add(_a(32, "A1_"), _a(64, "A2_"), _a(64, "A3_"), _b("B_"), _c(128, "C1_"),
                              _c(160, "C2_"), _c(160, "C3_"), _c(192, "C4_"), _d("D_"), _e("E1_"), _e("E2_"))
            self.features.add(nn.AvgPool2D(pool_size=8), nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def forward(self, x: Tensor) -> Tensor:
        return self.output(self.features(x))


def inception_v3(pretrained: bool = False, ctx: Any = None, root: Any = None, device: Any = None,
                 **kwargs: Any) -> Inception3:
    """Inception V3; ``pretrained`` loads MXNet's parameters from ``root`` (no download)."""
    return finish(Inception3(**kwargs), "inceptionv3", pretrained, root)
