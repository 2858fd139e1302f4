"""A SymbolBlock to ONNX: the block is traced (the interpreter's ops emit the graph), so the exported model
computes what the block computes. Parameters become initializers under their MXNet names; the batch axis of
every input is dynamic unless told otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx

from cellonnx.gluon import autograd
from cellonnx.gluon.symbol.block import SymbolBlock
from cellonnx.tensor import Tensor

__all__ = ["export_onnx"]


def export_onnx(
    block: SymbolBlock,
    examples: Sequence[Any],
    dynamic_axes: Sequence[int | None] | None = None,
    opset: int | None = None,
) -> onnx.ModelProto:
    """The ONNX model of ``block`` traced on ``examples``.

    Args:
        block: the block (parameters loaded or initialized).
        examples: one array or Tensor per input (their shapes and dtypes fix the graph's).
        dynamic_axes: per input, the axis left dynamic (named 'batch'), or None for a static input.
            Default: axis 0 of every input.
        opset: the ONNX opset. Default: cellonnx's.

    Returns:
        onnx.ModelProto.
    """
    from cellonnx.graph.compile import export_model

    arrays = [e.asnumpy() if isinstance(e, Tensor) else np.asarray(e) for e in examples]
    axes = list(dynamic_axes) if dynamic_axes is not None else [0] * len(arrays)
    if len(axes) != len(arrays):
        raise ValueError(f"export_onnx: {len(arrays)} example(s) but {len(axes)} dynamic axes")
    sigs = []
    for arr, axis in zip(arrays, axes):
        if axis is None or arr.ndim == 0:
            sigs.append(Tensor(arr))
        else:
            shape = tuple(None if k == axis % arr.ndim else d for k, d in enumerate(arr.shape))
            sigs.append(Tensor(shape=shape, dtype=Tensor(arr).dtype))
    block._name_params()
    with autograd.pause(train_mode=False):
        return export_model(block, *sigs, opset=opset)
