"""One ONNX node while it is translated: its attributes, its inputs as Symbols, and what a translation may
ask of the graph (an input's constant value, an input's rank, the opset)."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Node", "TranslationError"]


class TranslationError(NotImplementedError):
    """An ONNX node that has no MXNet translation (or an attribute / input form that has none)."""


class Node:
    """The node ``proto`` of the graph being imported (``graph``: the GraphProto doing the import)."""

    def __init__(self, proto: Any, attrs: dict[str, Any], inputs: list[Any], graph: Any) -> None:
        self.proto = proto
        self.op_type: str = proto.op_type
        self.name: str | None = proto.name.strip() or None
        self.attrs = attrs
        self.inputs = inputs
        self.input_names = list(proto.input)
        self.graph = graph
        self.opset: int = graph.opset_version

    def named(self) -> dict[str, str]:
        """``name=`` for the node's main MXNet operator (its ONNX name, as MXNet's importer names it)."""
        return {"name": self.name} if self.name else {}

    def has(self, i: int) -> bool:
        """Whether optional input ``i`` is given."""
        return i < len(self.input_names) and bool(self.input_names[i])

    def const(self, i: int) -> np.ndarray:
        """The value of input ``i``, which must be an initializer or a Constant node's output."""
        name = self.input_names[i]
        if name not in self.graph.params:
            raise self.error(f"input {i} ({name!r}) must be a constant (an initializer or a Constant "
                             "node's output): its value becomes an MXNet operator attribute")
        return self.graph.params[name]

    def ints(self, i: int, dynamic: bool = False) -> tuple[int, ...]:
        """Input ``i``'s constant value as a tuple of ints; with ``dynamic``, run-time dimensions stay
        encoded (``_fold.DYNAMIC - i``) for the caller to place."""
        from cellonnx.mxnet.contrib.onnx.onnx2mx._fold import DYNAMIC

        values = tuple(int(v) for v in np.asarray(self.const(i)).reshape(-1))
        if not dynamic and any(v <= DYNAMIC // 2 for v in values):
            raise self.error(f"input {i} ({self.input_names[i]!r}) depends on a dimension known only at run "
                             "time, which an MXNet attribute cannot hold")
        return values

    def reshaped_param(self, i: int, shape: tuple[int, ...]) -> Any:
        """Input ``i`` (an initializer) as a parameter of ``shape`` under its own name: the value MXNet's
        operator expects (PRelu's slope (C, 1, 1) as LeakyReLU's gamma (C,))."""
        from cellonnx.mxnet import symbol

        name = self.input_names[i]
        self.graph.params[name] = self.graph.params[name].reshape(shape)
        self.graph.nodes[name] = symbol.Variable(name=name, shape=shape)
        return self.graph.nodes[name]

    def rank(self, i: int) -> int | None:
        """The rank of input ``i`` where ONNX shape inference or the initializers know it."""
        return self.graph.rank(self.input_names[i])

    def error(self, what: str) -> TranslationError:
        """A TranslationError naming the operator, the node and the file."""
        node = self.proto.name or self.proto.output[0]
        return TranslationError(f"ONNX operator {self.op_type} (node {node!r}"
                                f"{self.graph.where()}): {what}")
