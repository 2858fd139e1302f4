"""``import_to_gluon``: an ONNX file as a trainable gluon SymbolBlock."""
from __future__ import annotations

import os
from typing import Any

from cellonnx.mxnet.contrib.onnx.onnx2mx.import_model import _load
from cellonnx.mxnet.contrib.onnx.onnx2mx.import_onnx import GraphProto

__all__ = ["import_to_gluon"]


def import_to_gluon(model_file: str | os.PathLike[str], ctx: Any) -> Any:
    """Import an ONNX model file as a gluon SymbolBlock holding its weights (trainable, saves .params).

    Args:
        model_file (str): the ONNX file.
        ctx (Context | list[Context]): the context(s) to load onto (accepted for compatibility).

    Returns:
        gluon.SymbolBlock: its inputs are the graph's inputs without an initializer.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import onnx
        >>> from onnx import helper, numpy_helper, TensorProto
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.onnx.onnx2mx.import_to_gluon import import_to_gluon
        >>> b = numpy_helper.from_array(np.array([1, -1], np.float32), 'b')
        >>> graph = helper.make_graph([helper.make_node('Add', ['x', 'b'], ['y'])], 'g',
        ...     [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 2])],
        ...     [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1, 2])], [b])
        >>> path = os.path.join(tempfile.mkdtemp(), 'add.onnx')
        >>> onnx.save(helper.make_model(graph), path)
        >>> net = import_to_gluon(path, mx.cpu())
        >>> net(mx.nd.array([[1, 1]])).asnumpy()
        array([[2., 0.]], dtype=float32)
    """
    model, opset = _load(model_file)
    return GraphProto(os.fspath(model_file)).graph_to_gluon(model.graph, ctx, opset)
