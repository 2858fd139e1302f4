"""Factories for `cellonnx convert --to-model tests.structure.models:NAME` in the tests."""
from __future__ import annotations

from typing import Any

from cellonnx.models import resnet


def resnet18() -> Any:
    """cellonnx's model-zoo ResNet-18 at 1/16 width, 10 classes (the size of the PyTorch fixture)."""
    return resnet.resnet18(10, width_mult=1 / 16)


def gluon_densenet() -> Any:
    """MXNet 1.9.1's model-zoo DenseNet (ported: the porting suite's mxnet_1_9_1 package must be importable)
    at the size of the structure fixtures, initialized and run once on a 224 x 224 batch."""
    import importlib

    import numpy as np

    from cellonnx import Tensor

    m = importlib.import_module("mxnet_1_9_1.gluon.model_zoo.vision.densenet")
    net = m.DenseNet(16, 8, [2, 2, 2, 2], bn_size=2, classes=10)
    net.initialize()
    net(Tensor(np.zeros((1, 3, 224, 224), np.float32)))
    return net


def mindcv_densenet() -> Any:
    """mindcv 0.3.0's DenseNet (ported: the porting suite's mindcv package must be importable) at the size of
    the structure fixtures."""
    import importlib

    m = importlib.import_module("mindcv.models.densenet")
    return m.DenseNet(growth_rate=8, block_config=(2, 2, 2, 2), num_init_features=16, bn_size=2,
                      num_classes=10)
