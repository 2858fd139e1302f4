"""Put checkpoint tensors into an ONNX model's initializers, by name, checking shapes and dtypes."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import onnx
from cellonnx.converters.report import LoadReport, Mismatch, compare
from onnx import numpy_helper

from cellonnx import dtypes

PARAMETER_DOC = "parameter"  # the doc_string cellonnx's exporter gives the initializers that hold parameters


def parameter_initializers(model: onnx.ModelProto) -> list[onnx.TensorProto]:
    """The initializers a checkpoint fills: those cellonnx's exporter marked as parameters, or, in a model
    that marks none (one from another exporter), all of them."""
    marked = [t for t in model.graph.initializer if t.doc_string == PARAMETER_DOC]
    return marked or list(model.graph.initializer)


def replace_initializers(model: onnx.ModelProto, tensors: Mapping[str, Any], *, strict: bool = True) -> LoadReport:
    """Replace the initializers of `model` (in place) with the tensors of the same names.

    Args:
        model: the model; its graph's initializers are replaced.
        tensors: name -> array, e.g. from `cellonnx.converters.read`.
        strict: raise ValueError unless every parameter initializer (`parameter_initializers`) gets a tensor
            and every tensor an initializer.

    Returns:
        LoadReport: loaded / missing / unexpected / mismatched names.

    Raises:
        ValueError: a shape or dtype differs (always), or names differ with `strict=True`; the message lists them.

    Examples:
        >>> from onnx import TensorProto, helper, numpy_helper
        >>> from cellonnx.converters import replace_initializers
        >>> w = numpy_helper.from_array(np.zeros(2, np.float32), "w")
        >>> graph = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"])], "g",
        ...                           [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        ...                           [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])], [w])
        >>> model = helper.make_model(graph)
        >>> report = replace_initializers(model, {"w": np.array([1.0, 2.0], np.float32)})
        >>> report.loaded, numpy_helper.to_array(model.graph.initializer[0])
        (['w'], array([1., 2.], dtype=float32))
        >>> replace_initializers(model, {"w": np.zeros(3, np.float32)})
        Traceback (most recent call last):
        ...
        ValueError: cannot load weights into the ONNX model: ...
    """
    inits = {init.name: init for init in parameter_initializers(model)}
    shapes = {name: tuple(int(d) for d in init.dims) for name, init in inits.items()}
    report = compare(tensors, shapes, check_dtype=False)
    for name in list(report.loaded):
        want = dtypes.from_onnx(inits[name].data_type)
        have = np.asarray(tensors[name]).dtype
        if have != want.np_dtype:
            report.loaded.remove(name)
            report.mismatched.append(Mismatch(name, shapes[name], shapes[name], want.name.lower(), str(have)))
    if report.mismatched or (strict and not report.ok):
        raise ValueError("cannot load weights into the ONNX model: " + " | ".join(report.lines()[1:]))
    for name in report.loaded:
        doc = inits[name].doc_string
        inits[name].CopyFrom(numpy_helper.from_array(np.ascontiguousarray(tensors[name]), name))
        inits[name].doc_string = doc
    return report
