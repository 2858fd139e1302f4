"""Layers, one module per group; this package hands their names on."""
from __future__ import annotations

from cellonnx.nn.layer import (
    activation,
    activation_ext,
    basic,
    basic_ext,
    combined,
    conv,
    dense,
    embedding,
    embedding_ext,
    image,
    normalization,
    padding,
    pooling,
    pooling_ext,
    rnn,
    rnns,
    thor_layer,
    transformer,
)
from cellonnx.nn.layer import math as math_layers
from cellonnx.nn.layer.activation import *
from cellonnx.nn.layer.activation_ext import *
from cellonnx.nn.layer.basic import *
from cellonnx.nn.layer.basic_ext import *
from cellonnx.nn.layer.combined import *
from cellonnx.nn.layer.conv import *
from cellonnx.nn.layer.dense import *
from cellonnx.nn.layer.embedding import *
from cellonnx.nn.layer.embedding_ext import *
from cellonnx.nn.layer.image import *
from cellonnx.nn.layer.math import *
from cellonnx.nn.layer.normalization import *
from cellonnx.nn.layer.padding import *
from cellonnx.nn.layer.pooling import *
from cellonnx.nn.layer.pooling_ext import *
from cellonnx.nn.layer.rnn import *
from cellonnx.nn.layer.rnns import *
from cellonnx.nn.layer.thor_layer import *
from cellonnx.nn.layer.transformer import *

__all__: list[str] = []
for _mod in (activation, basic, conv, embedding, normalization, pooling, rnn,
             activation_ext, padding, pooling_ext, basic_ext, dense, image, rnns, transformer, combined,
             math_layers, embedding_ext, thor_layer):
    __all__ += _mod.__all__
del _mod

_ELSEWHERE = {"CellDict": "cellonnx.nn.container", "CellList": "cellonnx.nn.container",
              "SequentialCell": "cellonnx.nn.container"}


def __getattr__(name: str) -> object:
    """MindSpore's nn.layer also holds the containers (and its ``container`` and ``rnns`` modules)."""
    import importlib

    if name in _ELSEWHERE:
        return getattr(importlib.import_module(_ELSEWHERE[name]), name)
    if name in ("container", "rnns"):
        return importlib.import_module({"container": "cellonnx.nn.container", "rnns": "cellonnx.nn.layer.rnn"}
                                       [name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
