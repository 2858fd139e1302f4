"""cellonnx.export: MindSpore's export signature, writing the ONNX inference graph."""
from __future__ import annotations

import os
from typing import Any

from cellonnx.graph.compile import export_model


def export(net: Any, *inputs: Any, file_name: str, file_format: str = "ONNX", opset: int | None = None,
           external_data: bool | None = None, training: bool = False, **kwargs: Any) -> str:
    """Export ``net`` as an ONNX model, as ``mindspore.export(net, *inputs, file_name, file_format)``.

    Args:
        inputs: example Tensors; dims declared None through ``net.set_inputs`` (or given as signature
            Tensors, ``Tensor(shape=(None, 3), dtype=...)``) stay dynamic.
        file_name: ".onnx" is appended when missing.
        opset: ONNX opset, 13..21 (default 18).
        external_data: keep tensors in ``<file>.data`` beside the model; by default only past ~2 GB.
        training: write the training step instead of the inference graph: ``net`` is a training cell
            (``TrainOneStepCell`` ...), ``inputs`` its data and labels. The state (parameters, optimizer
            slots, counters, moving statistics) becomes inputs with their current values as defaults and outputs
            with the updated values; the metadata ``cellonnx.state_updates`` maps each updated output to its
            input (see docs/compiled_training.md).

    Returns:
        The path written.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.ones((1, 2)), ms.float32)
        >>> path = ms.export(net, x, file_name='dense', file_format='ONNX')
        >>> print(path)
        dense.onnx
    """
    if file_format.upper() != "ONNX":
        raise ValueError(f"export: file_format {file_format!r} is not supported; cellonnx writes 'ONNX' "
                         "(MindSpore's MINDIR and AIR are MindSpore-internal formats)")
    unknown = set(kwargs) - {"enc_key", "enc_mode", "dataset", "incremental"}
    if unknown:
        raise TypeError(f"export: unexpected keyword arguments {sorted(unknown)}")
    from cellonnx.converters.onnx_format import save_model

    path = file_name if file_name.endswith(".onnx") else file_name + ".onnx"
    if training:
        from cellonnx.graph.export_step import export_step_model
        model = export_step_model(net, *inputs, opset=opset)
    else:
        model = export_model(net, *inputs, opset=opset)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    save_model(model, path, external_data=external_data)
    return path
