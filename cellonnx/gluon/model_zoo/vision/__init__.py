"""gluon.model_zoo.vision: MXNet's image classification models by name (``get_model('resnet18_v1',
classes=10)``), with MXNet's layers, parameter names and pretrained files (read from a local folder; no
download)."""
from __future__ import annotations

from cellonnx.gluon.model_zoo.vision import registry
from cellonnx.gluon.model_zoo.vision.alexnet import *
from cellonnx.gluon.model_zoo.vision.densenet import *
from cellonnx.gluon.model_zoo.vision.examples import EXAMPLES
from cellonnx.gluon.model_zoo.vision.inception import *
from cellonnx.gluon.model_zoo.vision.mobilenet import *
from cellonnx.gluon.model_zoo.vision.registry import get_model
from cellonnx.gluon.model_zoo.vision.resnet import *
from cellonnx.gluon.model_zoo.vision.squeezenet import *
from cellonnx.gluon.model_zoo.vision.vgg import *
from cellonnx.mxnet._docs import with_example

__all__ = ["get_model"]
for _module in (registry.alexnet, registry.densenet, registry.inception, registry.mobilenet, registry.resnet,
                registry.squeezenet, registry.vgg):
    __all__ += _module.__all__

for _name, _example in EXAMPLES.items():
    with_example(globals()[_name], _example)
