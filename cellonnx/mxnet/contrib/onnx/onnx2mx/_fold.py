"""Shape arithmetic folded at import: a node computing on constant integer tensors (or ``Shape`` / ``Size``
of a tensor whose shape is fully known) becomes a constant, so a Reshape whose target an exporter computes
in the graph (MXNet's FullyConnected export, PyTorch's view) gets the constant shape MXNet's ``reshape``
takes as an attribute. Float computations are left to the translated graph.

A dimension known only at run time (a dynamic batch) folds to ``DYNAMIC - i`` for input dimension ``i``:
a Reshape that puts it back at position ``i`` copies it (MXNet's 0 code), anything else that reads it
says that it cannot."""
from __future__ import annotations

from typing import Any

import numpy as np
from onnx import helper
from onnx.reference import ReferenceEvaluator

__all__ = ["fold"]

DYNAMIC = -(2**40)

_NEVER = {"RandomUniform", "RandomNormal", "RandomUniformLike", "RandomNormalLike", "Multinomial", "Dropout"}


def _integral(value: np.ndarray) -> bool:
    return value.dtype.kind in "iub"


def fold(proto: Any, graph: Any) -> list[np.ndarray] | None:
    """The outputs of node ``proto`` when it can be computed at import, else None."""
    if proto.op_type in _NEVER or proto.domain not in ("", "ai.onnx"):
        return None
    if proto.op_type in ("Shape", "Size") and proto.input[0] not in graph.params:
        shape = graph.shape(proto.input[0])
        if shape is None or (proto.op_type == "Size" and any(d is None for d in shape)):
            return None
        attrs = {a.name: helper.get_attribute_value(a) for a in proto.attribute}
        if proto.op_type == "Size":
            return [np.array(int(np.prod(shape)), np.int64)]
        dims = [DYNAMIC - i if d is None else d for i, d in enumerate(shape)]
        return [np.array(dims[attrs.get("start", 0):attrs.get("end", len(shape))], np.int64)]
    names = [name for name in proto.input if name]
    if not names or not all(name in graph.params and _integral(graph.params[name]) for name in names):
        return None
    evaluator = ReferenceEvaluator(proto)
    feeds = {name: graph.params[name] for name in names}
    return [np.asarray(v) for v in evaluator.run(None, feeds)]
