"""MXNet 1.9.1's ``mx.onnx.export_model`` over cellonnx: the symbol becomes a SymbolBlock holding the given
parameters, which is traced to ONNX (the same graph the block computes, its weights as initializers named
as in MXNet). Inputs are the symbol's variables without a parameter, in MXNet's order; a loss layer's label
input (``softmax_label``) is left out when no shape is given for it, as MXNet's exporter does."""
from __future__ import annotations

import logging
import os
from typing import Any

import numpy as np
import onnx

__all__ = ["export_model", "get_operator_support"]


def _params(params: Any) -> dict[str, np.ndarray]:
    from cellonnx.mxnet import ndarray as nd

    if isinstance(params, (str, os.PathLike)):
        params = nd.load(os.fspath(params))
    elif isinstance(params, (list, tuple)) and len(params) == 2:
        params = {**params[0], **params[1]}
    if not isinstance(params, dict):
        raise ValueError("export_model: params must be a .params file, a dict of arrays or "
                         f"[arg_params, aux_params], got {type(params).__name__}")
    out = {}
    for key, value in params.items():
        name = key[4:] if key.startswith(("arg:", "aux:")) else key
        out[name] = np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)
    return out


def export_model(sym: Any, params: Any, in_shapes: Any = None, in_types: Any = np.float32,
                 onnx_file_path: str = "model.onnx", verbose: bool = False, dynamic: bool = False,
                 dynamic_input_shapes: Any = None, run_shape_inference: bool = False, input_type: Any = None,
                 input_shape: Any = None) -> str:
    """Export an MXNet model to ONNX.

    Args:
        sym: the Symbol, or the path of its symbol.json.
        params: the parameters: a .params path, a dict of arrays, or ``[arg_params, aux_params]``.
        in_shapes: the shape of each input (a list of tuples, in input order).
        in_types: the dtype of the inputs (one for all, or a list). Default: float32.
        onnx_file_path: where to write the model. Default: 'model.onnx'.
        verbose: log the graph. Default: False.
        dynamic: leave dimensions dynamic: those that are None in ``dynamic_input_shapes``, or all of
            them when it is not given. Default: False.
        dynamic_input_shapes: per input, its shape with None for each dynamic dimension.
        run_shape_inference: run ONNX shape inference on the written model. Default: False.
        input_type, input_shape: the older names of ``in_types`` and ``in_shapes``.

    Returns:
        The path of the ONNX file.

    Raises:
        ValueError: no shapes, a number of shapes that matches no set of inputs, or a graph the interpreter
            cannot run (its message names the operator and the node).
    """
    from cellonnx.gluon import autograd
    from cellonnx.gluon.symbol.block import SymbolBlock
    from cellonnx.graph.compile import export_model as trace_export
    from cellonnx.mxnet import symbol as msym
    from cellonnx.tensor import Tensor

    if input_type is not None:
        in_types = input_type
    if input_shape is not None:
        in_shapes = input_shape
    if in_shapes is None:
        raise ValueError("export_model: in_shapes must be given (one shape per input)")
    symbol = msym.load(os.fspath(sym)) if isinstance(sym, (str, os.PathLike)) else sym
    arrays = _params(params)
    inputs = [n for n in symbol.list_inputs() if n not in arrays]
    if len(inputs) != len(in_shapes):
        without_labels = [n for n in inputs if not n.endswith("label")]
        if len(without_labels) != len(in_shapes):
            raise ValueError(f"export_model: {len(in_shapes)} input shape(s) for the inputs {inputs}")
        inputs = without_labels
    types = list(in_types) if isinstance(in_types, list) else [in_types] * len(in_shapes)
    if len(types) != len(in_shapes):
        raise AssertionError("The lengths of in_types and in_shapes must equal")
    block = SymbolBlock(symbol, inputs)
    arg_shapes, _, aux_shapes = symbol.infer_shape(**{n: tuple(s) for n, s in zip(inputs, in_shapes)})
    shapes = dict(zip(symbol.list_arguments() + symbol.list_auxiliary_states(),
                      list(arg_shapes) + list(aux_shapes)))
    for name, param in block.collect_params().items():
        value = arrays.get(name)
        if value is None:  # a label the exported inference graph does not read
            value = np.zeros(shapes[name], np.float32)
        param._load_init(value, cast_dtype=True, dtype_source="saved")
    sigs = []
    for i, (shape, dtype) in enumerate(zip(in_shapes, types)):
        shape = tuple(int(d) for d in shape)
        if dynamic:
            pattern = dynamic_input_shapes[i] if dynamic_input_shapes is not None else (None,) * len(shape)
            shape = tuple(None if p is None else d for d, p in zip(shape, pattern))
        sigs.append(Tensor(shape=shape, dtype=Tensor(np.zeros((), np.dtype(dtype))).dtype))
    block._name_params()
    with autograd.pause(train_mode=False):
        model = trace_export(block, *sigs)
    if run_shape_inference:
        model = onnx.shape_inference.infer_shapes(model)
    if verbose:
        logging.info("Output node is: %s", [o.name for o in model.graph.output])
    onnx.save(model, onnx_file_path)
    logging.info("Input shape of the model %s ", in_shapes)
    logging.info("Exported ONNX file %s saved to disk", onnx_file_path)
    return onnx_file_path


def get_operator_support(opset_version: int | None = None) -> list[str]:
    """The MXNet operators ``export_model`` converts (those cellonnx's symbol interpreter runs)."""
    from cellonnx.gluon.symbol.table import all_rows

    return sorted(all_rows())
