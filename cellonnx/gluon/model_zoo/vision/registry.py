"""The model zoo's names (MXNet's: 'resnet18_v1', 'vgg16_bn', 'mobilenetv2_1.0' ...) and ``get_model``."""
from __future__ import annotations

import importlib
from typing import Any

# the modules by path: the package's attributes of these names are the constructors (alexnet, ...)
alexnet, densenet, inception, mobilenet, resnet, squeezenet, vgg = (
    importlib.import_module(f"cellonnx.gluon.model_zoo.vision.{m}")
    for m in ("alexnet", "densenet", "inception", "mobilenet", "resnet", "squeezenet", "vgg"))

__all__ = ["MODELS", "get_model"]

MODELS: dict[str, Any] = {
    **{f"resnet{n}_v{v}": getattr(resnet, f"resnet{n}_v{v}") for n in (18, 34, 50, 101, 152) for v in (1, 2)},
    **{f"vgg{n}{bn}": getattr(vgg, f"vgg{n}{bn}") for n in (11, 13, 16, 19) for bn in ("", "_bn")},
    "alexnet": alexnet.alexnet,
    **{f"densenet{n}": getattr(densenet, f"densenet{n}") for n in (121, 161, 169, 201)},
    "squeezenet1.0": squeezenet.squeezenet1_0, "squeezenet1.1": squeezenet.squeezenet1_1,
    "inceptionv3": inception.inception_v3,
    **{f"mobilenet{m}": getattr(mobilenet, f"mobilenet{m.replace('.', '_')}")
       for m in ("1.0", "0.75", "0.5", "0.25")},
    **{f"mobilenetv2_{m}": getattr(mobilenet, f"mobilenet_v2_{m.replace('.', '_')}")
       for m in ("1.0", "0.75", "0.5", "0.25")},
}


def get_model(name: str, **kwargs: Any) -> Any:
    """The model ``name`` (MXNet's names: 'resnet18_v1', 'vgg16_bn', 'mobilenetv2_1.0', 'squeezenet1.1' ...).

    Args:
        name: the model's name (any case).
        kwargs: pretrained (bool, Default False: load MXNet's parameters from ``root``, no download), classes,
            root, and the model's own arguments.

    Raises:
        ValueError: an unknown name (the known ones are listed).
    """
    key = name.lower()
    if key not in MODELS:
        listed = "\n\t".join(sorted(MODELS))
        raise ValueError(f"Model {name} is not supported. Available options are\n\t{listed}")
    return MODELS[key](**kwargs)
