"""``mx.contrib.onnx``: MXNet 1.9.1's ONNX import (``import_model``, ``import_to_gluon``,
``get_model_metadata``) and its older path to ``mx.onnx.export_model``.

As in MXNet, each function prints that its path is deprecated (import is to leave MXNet in 1.10, export
moved to ``mx.onnx``) and then does its work."""
from __future__ import annotations

from typing import Any

from cellonnx.mxnet.contrib.onnx import onnx2mx
from cellonnx.mxnet.contrib.onnx.onnx2mx.import_model import get_model_metadata as get_model_metadata_
from cellonnx.mxnet.contrib.onnx.onnx2mx.import_model import import_model as import_model_
from cellonnx.mxnet.contrib.onnx.onnx2mx.import_to_gluon import import_to_gluon as import_to_gluon_
from cellonnx.mxnet.onnx import export_model as export_model_

__all__ = ["export_model", "get_model_metadata", "import_model", "import_to_gluon", "onnx2mx"]

_IMPORT_NOTE = ("Please be advised that importing ONNX models into MXNet is going to be deprecated in the "
                "upcoming MXNet v1.10 release. The following apis will be deleted: "
                "mxnet.contrib.onnx.import_model/get_model_metadata/import_to_gluon.")


def import_model(*args: Any, **kwargs: Any) -> Any:
    """``onnx2mx.import_model.import_model``: an ONNX file as ``(sym, arg_params, aux_params)``, after
    MXNet's deprecation note.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> mx.contrib.onnx.import_model.__name__
        'import_model'
    """
    print("Calling mxnet.contrib.onnx.import_model...")
    print(_IMPORT_NOTE)
    return import_model_(*args, **kwargs)


def get_model_metadata(*args: Any, **kwargs: Any) -> Any:
    """``onnx2mx.import_model.get_model_metadata``: an ONNX file's input and output names and shapes, after
    MXNet's deprecation note.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> mx.contrib.onnx.get_model_metadata.__name__
        'get_model_metadata'
    """
    print("Calling mxnet.contrib.onnx.get_model_metadata...")
    print(_IMPORT_NOTE)
    return get_model_metadata_(*args, **kwargs)


def import_to_gluon(*args: Any, **kwargs: Any) -> Any:
    """``onnx2mx.import_to_gluon.import_to_gluon``: an ONNX file as a gluon SymbolBlock, after MXNet's
    deprecation note.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> mx.contrib.onnx.import_to_gluon.__name__
        'import_to_gluon'
    """
    print("Calling mxnet.contrib.onnx.import_to_gluon...")
    print(_IMPORT_NOTE)
    return import_to_gluon_(*args, **kwargs)


def export_model(*args: Any, **kwargs: Any) -> Any:
    """``mx.onnx.export_model`` (its older path), after MXNet's note that the path moved.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> mx.contrib.onnx.export_model.__name__
        'export_model'
    """
    print("Calling mxnet.contrib.onnx.export_model...")
    print("Please be advised that the ONNX module has been moved to mxnet.onnx and mxnet.onnx.export_model "
          "is the preferred path. The current path will be deprecated in the upcoming MXNet v1.10 release.")
    return export_model_(*args, **kwargs)
