"""Layers, one module per group; this package hands their names on."""
from __future__ import annotations

from cellonnx.nn.layer import activation, basic, conv, embedding, normalization, pooling, rnn
from cellonnx.nn.layer.activation import *
from cellonnx.nn.layer.basic import *
from cellonnx.nn.layer.conv import *
from cellonnx.nn.layer.embedding import *
from cellonnx.nn.layer.normalization import *
from cellonnx.nn.layer.pooling import *
from cellonnx.nn.layer.rnn import *

__all__: list[str] = []
for _mod in (activation, basic, conv, embedding, normalization, pooling, rnn):
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
