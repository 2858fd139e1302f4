"""The model registry: names, factories and the input each model expects."""
from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from cellonnx.models.lenet import lenet5
from cellonnx.models.lstm_classifier import lstm_classifier
from cellonnx.models.mlp import mlp
from cellonnx.models.mobilenetv2 import mobilenet_v2
from cellonnx.models.resnet import resnet18, resnet34, resnet50
from cellonnx.models.transformer import transformer_classifier
from cellonnx.models.vgg import vgg16_bn

from cellonnx import nn
from cellonnx.tensor import Tensor

__all__ = ["ModelSpec", "example_input", "get_model", "list_models", "model_spec"]


@dataclass(frozen=True)
class ModelSpec:
    """What the registry knows about a model.

    Attributes:
        name: registry name.
        factory: builds the Cell from keyword options.
        summary: one line.
        input: 'image' (float32 (N, C, H, W) or ``(N, *)`` for the MLP) or 'tokens' (int32 (N, L) ids).
        sample_shape: one sample's default shape (C, H, W) / (L,).

    Examples:
        >>> from cellonnx import models
        >>> spec = models.model_spec("lenet5")
        >>> print(spec.summary)
        LeNet-5 (MindSpore model-zoo names), 1x32x32 input
        >>> print(spec.factory(num_classes=3)(models.example_input("lenet5")).shape)
        (1, 3)
    """

    name: str
    factory: Callable[..., nn.Cell]
    summary: str
    input: str
    sample_shape: tuple[int, ...]

    def options(self) -> list[str]:
        """The keyword arguments the model's factory accepts."""
        return list(inspect.signature(self.factory).parameters)


_SPECS: dict[str, ModelSpec] = {s.name: s for s in (
    ModelSpec("lenet5", lenet5, "LeNet-5 (MindSpore model-zoo names), 1x32x32 input", "image", (1, 32, 32)),
    ModelSpec("mlp", mlp, "multi-layer perceptron over flattened inputs (default 8x8 digits)", "image",
              (1, 8, 8)),
    ModelSpec("resnet18", resnet18, "ResNet-18 (MindSpore model-zoo names)", "image", (3, 224, 224)),
    ModelSpec("resnet34", resnet34, "ResNet-34 (MindSpore model-zoo names)", "image", (3, 224, 224)),
    ModelSpec("resnet50", resnet50, "ResNet-50 (MindSpore model-zoo names)", "image", (3, 224, 224)),
    ModelSpec("mobilenetv2", mobilenet_v2, "MobileNetV2 (MindSpore model-zoo names)", "image",
              (3, 224, 224)),
    ModelSpec("vgg16_bn", vgg16_bn, "VGG-16 with batch normalization", "image", (3, 224, 224)),
    ModelSpec("lstm_classifier", lstm_classifier, "Embedding + LSTM + Dense text classifier",
              "tokens", (32,)),
    ModelSpec("transformer_classifier", transformer_classifier,
              "Transformer encoder classifier (BERT-tiny sized)", "tokens", (128,)),
)}

_ALIASES = {"lenet": "lenet5", "lenet_5": "lenet5", "vgg16": "vgg16_bn", "vgg": "vgg16_bn",
            "mobilenet_v2": "mobilenetv2", "mobilenet": "mobilenetv2", "lstm": "lstm_classifier",
            "transformer": "transformer_classifier", "bert_tiny": "transformer_classifier"}
_CLASS_ALIASES = ("num_class", "class_num")  # MindSpore model-zoo spellings of num_classes


def list_models() -> list[str]:
    """The registry names, sorted.

    Examples:
        >>> from cellonnx.models import list_models
        >>> "resnet18" in list_models()
        True
    """
    return sorted(_SPECS)


def model_spec(name: str) -> ModelSpec:
    """The ModelSpec of ``name`` (a registry name or alias, case and '-' insensitive).

    Examples:
        >>> from cellonnx import models
        >>> spec = models.model_spec("LeNet-5")
        >>> print(spec.name, spec.input, spec.sample_shape)
        lenet5 image (1, 32, 32)
    """
    key = name.lower().replace("-", "_")
    key = _ALIASES.get(key, key)
    if key not in _SPECS:
        near = difflib.get_close_matches(key, list(_SPECS) + list(_ALIASES), n=3, cutoff=0.5)
        hint = f" (did you mean {', '.join(near)}?)" if near else ""
        raise ValueError(f"unknown model {name!r}{hint}; known models: {', '.join(list_models())}")
    return _SPECS[key]


def get_model(name: str, **kwargs: Any) -> nn.Cell:
    """Build a zoo model by name.

    Args:
        name: a name from ``list_models()`` (or an alias: 'vgg16', 'lenet', 'bert_tiny' ...).
        kwargs: the model's options: ``num_classes`` for all, ``width_mult`` for ResNet / MobileNetV2 / VGG,
            sizes for the MLP, LSTM and Transformer (see each factory).

    Returns:
        The Cell, freshly initialised.

    Examples:
        >>> from cellonnx.models import get_model
        >>> net = get_model("resnet18", num_classes=10, width_mult=0.25)
    """
    spec = model_spec(name)
    for alias in _CLASS_ALIASES:
        if alias in kwargs:
            if "num_classes" in kwargs:
                raise TypeError(f"get_model({name!r}): give num_classes once (also got {alias})")
            kwargs["num_classes"] = kwargs.pop(alias)
    unknown = sorted(set(kwargs) - set(spec.options()))
    if unknown:
        raise TypeError(f"get_model({name!r}): unknown option(s) {unknown}; {spec.name} takes "
                        f"{spec.options()}")
    return spec.factory(**kwargs)


def example_input(name: str, batch: int = 1, sample_shape: tuple[int, ...] | None = None, seed: int = 0,
                  vocab_size: int | None = None) -> Tensor:
    """A random input for the model ``name``: float32 N(0, 1) images or int32 token ids.

    Args:
        batch: N. sample_shape: one sample's shape (default: the spec's). seed: NumPy seed.
        vocab_size: ids are drawn below it (token models; default 100).

    Examples:
        >>> from cellonnx import models
        >>> x = models.example_input("lenet5", batch=4)
        >>> print(x.shape, x.dtype)
        (4, 1, 32, 32) Float32
    """
    spec = model_spec(name)
    shape = (batch, *(sample_shape or spec.sample_shape))
    rng = np.random.default_rng(seed)
    if spec.input == "tokens":
        return Tensor(rng.integers(0, vocab_size or 100, shape).astype(np.int32))
    return Tensor(rng.standard_normal(shape).astype(np.float32))
