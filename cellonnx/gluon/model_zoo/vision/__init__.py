"""gluon.model_zoo.vision: MXNet's image classification models by name (``get_model('resnet18_v1',
classes=10)``), with MXNet's layers, parameter names and pretrained files (read from a local folder; no
download)."""
from __future__ import annotations

from typing import Any

from cellonnx.gluon.model_zoo.vision.alexnet import *
from cellonnx.gluon.model_zoo.vision.densenet import *
from cellonnx.gluon.model_zoo.vision.inception import *
from cellonnx.gluon.model_zoo.vision.mobilenet import *
from cellonnx.gluon.model_zoo.vision.resnet import *
from cellonnx.gluon.model_zoo.vision.squeezenet import *
from cellonnx.gluon.model_zoo.vision.vgg import *

_MODELS = {
    **{f"resnet{n}_v{v}": globals()[f"resnet{n}_v{v}"] for n in (18, 34, 50, 101, 152) for v in (1, 2)},
    **{f"vgg{n}{bn}": globals()[f"vgg{n}{bn}"] for n in (11, 13, 16, 19) for bn in ("", "_bn")},
    "alexnet": alexnet,
    **{f"densenet{n}": globals()[f"densenet{n}"] for n in (121, 161, 169, 201)},
    "squeezenet1.0": squeezenet1_0, "squeezenet1.1": squeezenet1_1, "inceptionv3": inception_v3,
    "mobilenet1.0": mobilenet1_0, "mobilenet0.75": mobilenet0_75, "mobilenet0.5": mobilenet0_5,
    "mobilenet0.25": mobilenet0_25, "mobilenetv2_1.0": mobilenet_v2_1_0, "mobilenetv2_0.75": mobilenet_v2_0_75,
    "mobilenetv2_0.5": mobilenet_v2_0_5, "mobilenetv2_0.25": mobilenet_v2_0_25,
}


def get_model(name: str, **kwargs: Any) -> Any:
    """The model ``name`` (MXNet's names: 'resnet18_v1', 'vgg16_bn', 'mobilenetv2_1.0', 'squeezenet1.1' ...).

    Args:
        name: the model's name (any case).
        kwargs: pretrained (bool, Default False: load MXNet's parameters from ``root``, no download), classes,
            root, and the model's own arguments.
    """
    key = name.lower()
    if key not in _MODELS:
        raise ValueError(f"Model {name} is not supported. Available options are\n\t" + "\n\t".join(sorted(_MODELS)))
    return _MODELS[key](**kwargs)


__all__ = ["get_model", *_MODELS, "AlexNet", "DenseNet", "Inception3", "MobileNet", "MobileNetV2", "ResNetV1",
           "ResNetV2", "SqueezeNet", "VGG", "BasicBlockV1", "BasicBlockV2", "BottleneckV1", "BottleneckV2",
           "get_resnet", "get_vgg", "get_mobilenet", "get_mobilenet_v2", "inception_v3", "squeezenet1_0",
           "squeezenet1_1", "mobilenet1_0", "mobilenet0_75", "mobilenet0_5", "mobilenet0_25", "mobilenet_v2_1_0",
           "mobilenet_v2_0_75", "mobilenet_v2_0_5", "mobilenet_v2_0_25"]
