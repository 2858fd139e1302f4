"""``mx.contrib``: MXNet's experimental contributions (``mx.contrib.onnx``, ``mx.contrib.quantization``,
``mx.contrib.amp``, ``mx.contrib.text`` ...).

MXNet imports each submodule when ``mxnet.contrib`` is imported; here a submodule is imported on first use
(``mx.contrib.onnx``, ``from cellonnx.mxnet.contrib import quantization``), so a program that never touches
``contrib`` does not pay for it. ``sym``, ``nd`` and ``quant`` are MXNet's short names.
"""
from __future__ import annotations

import importlib

_SHORT_NAMES = {"sym": "symbol", "nd": "ndarray", "quant": "quantization"}


def __getattr__(name):
    module = _SHORT_NAMES.get(name, name)
    if module.startswith("_"):
        raise AttributeError(name)
    try:
        return importlib.import_module(f"{__name__}.{module}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{module}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
