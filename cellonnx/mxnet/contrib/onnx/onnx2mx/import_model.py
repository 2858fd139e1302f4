"""``import_model`` / ``get_model_metadata``: an ONNX file as an MXNet symbol with its parameters, and the
names and shapes of its inputs and outputs."""
from __future__ import annotations

import os
from typing import Any

import onnx

from cellonnx.mxnet.contrib.onnx.onnx2mx.import_onnx import GraphProto

__all__ = ["get_model_metadata", "import_model"]


def _load(model_file: str | os.PathLike[str]) -> tuple[Any, int]:
    model = onnx.load_model(os.fspath(model_file))
    opsets = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")]
    return model, max(opsets or [o.version for o in model.opset_import])


def import_model(model_file: str | os.PathLike[str]) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """Import an ONNX model file as an MXNet symbol and its parameters.

    Args:
        model_file (str): the ONNX file.

    Returns:
        tuple: ``(sym, arg_params, aux_params)``: the Symbol, and dicts of NDArrays by name (BatchNorm's
        running statistics are ``aux_params``).

    Raises:
        NotImplementedError: an operator (or attribute form) without an MXNet translation, naming it, the
            node and the file.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import onnx
        >>> from onnx import helper, numpy_helper, TensorProto
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.onnx.onnx2mx.import_model import import_model
        >>> w = numpy_helper.from_array(np.ones((2, 3), np.float32), 'fc_weight')
        >>> graph = helper.make_graph([helper.make_node('Gemm', ['x', 'fc_weight'], ['y'], transB=1)], 'g',
        ...     [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 3])],
        ...     [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1, 2])], [w])
        >>> path = os.path.join(tempfile.mkdtemp(), 'fc.onnx')
        >>> onnx.save(helper.make_model(graph), path)
        >>> sym, arg_params, aux_params = import_model(path)
        >>> sym.list_arguments(), sorted(arg_params)
        (['x', 'fc_weight'], ['fc_weight'])
        >>> sym.eval(x=mx.nd.array([[1, 2, 3]]), fc_weight=arg_params['fc_weight'])[0].asnumpy()
        array([[6., 6.]], dtype=float32)
    """
    model, opset = _load(model_file)
    return GraphProto(os.fspath(model_file)).from_onnx(model.graph, opset_version=opset)


def get_model_metadata(model_file: str | os.PathLike[str]) -> dict[str, list]:
    """The names and shapes of an ONNX model's inputs and outputs.

    Args:
        model_file (str): the ONNX file.

    Returns:
        dict: ``{'input_tensor_data': [(name, shape, onnx_type)], 'output_tensor_data': [(name, shape)]}``
        (0 for a dynamic dimension; initializers are not inputs).

    Examples:
        >>> import os, tempfile
        >>> import onnx
        >>> from onnx import helper, TensorProto
        >>> from cellonnx.mxnet.contrib.onnx.onnx2mx.import_model import get_model_metadata
        >>> graph = helper.make_graph([helper.make_node('Relu', ['x'], ['y'])], 'g',
        ...     [helper.make_tensor_value_info('x', TensorProto.FLOAT, ['N', 3])],
        ...     [helper.make_tensor_value_info('y', TensorProto.FLOAT, ['N', 3])])
        >>> path = os.path.join(tempfile.mkdtemp(), 'relu.onnx')
        >>> onnx.save(helper.make_model(graph), path)
        >>> get_model_metadata(path)
        {'input_tensor_data': [('x', (0, 3), 1)], 'output_tensor_data': [('y', (0, 3))]}
    """
    model, _ = _load(model_file)
    return GraphProto(os.fspath(model_file)).get_graph_metadata(model.graph)
