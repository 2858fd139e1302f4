"""What ONNX shape inference knows of the values of a graph being traced, kept up to date as nodes are added.

Tracing with a dynamic dim asks, for many values, which of their dims are static; running ONNX shape inference
over the whole graph for each question made tracing a training step quadratic in its size (ResNet-50's step
took minutes). Nodes are only ever appended, and what inference found for the values already there does not
change, so each probe infers only the nodes added since the last one: values they read from earlier nodes come
in as typed inputs with the shapes found before, except small values (shape arithmetic: Shape, Gather,
Concat ...), whose producers are inferred again with the new nodes so that data propagation still sees their
contents.
"""
from __future__ import annotations

from typing import Any

import onnx
from onnx import helper, shape_inference

from cellonnx.graph.builder import GraphBuilder, is_raw_numeric, to_tensor_proto, value_info_of

SMALL_ELEMENTS = 64  # values up to this many elements are recomputed rather than declared as inputs
_INLINE_BYTES = 512  # initializers up to this size go in with their data (shape constants)


class ShapeProbe:
    """Incremental ONNX shape inference over ``g.nodes``; ``dims()`` returns ints for static dims, None for
    others, per value name."""

    def __init__(self, g: GraphBuilder) -> None:
        self.g = g
        self.done = 0
        self.types: dict[str, onnx.TypeProto] = {}
        self.producer: dict[str, int] = {}
        self._dims: dict[str, list] = {}
        self._symbols: dict[str, list] = {}

    def symbols(self) -> dict[str, list]:
        """Per value name, the symbol (``dim_param``) shape inference gave each dynamic dim, None where it
        gave none (or the dim is static); after :meth:`dims`."""
        return self._symbols

    def _keep(self, name: str, tt: Any) -> None:
        dims = tt.shape.dim
        self._dims[name] = [d.dim_value if d.HasField("dim_value") else None for d in dims]
        self._symbols[name] = [d.dim_param if d.HasField("dim_param") and d.dim_param else None for d in dims]

    def dims(self) -> dict[str, list]:
        nodes = self.g.nodes
        for vi in self.g.inputs:
            if vi.name not in self._dims and vi.type.tensor_type.HasField("shape"):
                self._keep(vi.name, vi.type.tensor_type)
        if self.done < len(nodes):
            try:
                self._infer(self.done, len(nodes))
            except Exception:  # noqa: BLE001 (a graph inference cannot read tells nothing: dims stay unknown)
                pass
            for i in range(self.done, len(nodes)):
                for out in nodes[i].output:
                    self.producer[out] = i
            self.done = len(nodes)
        return self._dims

    def _infer(self, start: int, end: int) -> None:
        nodes = self.g.nodes
        whole = list(range(0, end))
        if any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)
               for n in nodes[start:end] for a in n.attribute):
            chunk = whole  # a subgraph reads outer values by name: infer it whole
        else:
            chunk = self._with_small_producers(range(start, end))
        inputs, initializers, unknown = self._feeds(chunk)
        if unknown and chunk != whole:  # a value no earlier probe could type: start from the beginning
            chunk = whole
            inputs, initializers, unknown = self._feeds(chunk)
        graph = helper.make_graph([nodes[i] for i in chunk], "probe", inputs, [], initializer=initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.g.opset)])
        inferred = shape_inference.infer_shapes(model, data_prop=True)
        for vi in inferred.graph.value_info:
            if vi.name in self.types:
                continue
            self.types[vi.name] = vi.type
            tt = vi.type.tensor_type
            if tt.HasField("shape"):
                self._keep(vi.name, tt)

    def _feeds(self, chunk: list[int]) -> tuple[list, list, bool]:
        """The typed inputs and inlined initializers of the nodes ``chunk``; whether a value read there has
        no known type."""
        nodes = self.g.nodes
        produced = {o for i in chunk for o in nodes[i].output}
        inputs, initializers, seen, unknown = [], [], set(), False
        declared = {i.name: i for i in self.g.inputs}
        for i in chunk:
            for name in nodes[i].input:
                if not name or name in produced or name in seen:
                    continue
                seen.add(name)
                if name in declared:
                    inputs.append(declared[name])
                elif name in self.g.initializers:
                    arr = self.g.initializers[name]
                    if arr.nbytes <= _INLINE_BYTES or not is_raw_numeric(arr.dtype):
                        initializers.append(to_tensor_proto(arr, name))
                    else:
                        inputs.append(value_info_of(name, arr))
                elif name in self.types:
                    inputs.append(helper.make_value_info(name, self.types[name]))
                else:
                    unknown = True
        return inputs, initializers, unknown

    def _with_small_producers(self, new: range) -> list[int]:
        """The new nodes, and before them the producers of the small values they read, transitively."""
        nodes = self.g.nodes
        picked: set[int] = set(new)
        stack = list(new)
        while stack:
            for name in nodes[stack.pop()].input:
                i = self.producer.get(name)
                if i is None or i in picked or not _small(self._dims.get(name)):
                    continue
                picked.add(i)
                stack.append(i)
        return sorted(picked)


def _small(dims: Any) -> bool:
    if dims is None or any(d is None for d in dims):
        return False
    count = 1
    for d in dims:
        count *= d
    return count <= SMALL_ELEMENTS
