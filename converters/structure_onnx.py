"""An ONNX model's weights as structural-matching entries, in graph order, with layer kinds from the nodes.

Each node that reads float initializers is a layer; the input position gives the role:

| op                          | inputs read                                   | kind       |
|-----------------------------|-----------------------------------------------|------------|
| Conv, ConvTranspose          | W (weight), B (bias)                          | Conv       |
| Gemm                         | B (weight; stored (in, out) when transB=0), C | Dense      |
| MatMul [+ Add]               | the initializer (stored (in, out)); the Add's initializer (bias) | Dense |
| BatchNormalization           | scale, B, input_mean, input_var               | BatchNorm  |
| LayerNormalization, InstanceNormalization, GroupNormalization | scale, B     | Norm       |
| Gather (initializer data)    | data                                          | Embedding  |
| PRelu                        | slope                                         | PReLU      |
| LSTM, GRU, RNN               | W, R, B per direction (below)                 | LSTM, GRU, RNN |

A recurrent node's W[d], R[d] and the halves of B[d] are direction d's weight_ih_l0[_reverse], weight_hh_l0,
bias_ih_l0 and bias_hh_l0, with the gates in ONNX's order (LSTM i,o,f,c; GRU z,r,n), reordered to PyTorch's.

Initializers read only by other ops (scalars of arithmetic, shapes, ...) are graph constants, not weights, and
are left out. A model without nodes (a weights-only file) gives its initializers in file order.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from cellonnx.converters.structure import Entry

_ROLES = {
    "Conv": ("Conv", {1: "weight", 2: "bias"}),
    "ConvTranspose": ("ConvTranspose", {1: "weight", 2: "bias"}),
    "Gemm": ("Dense", {1: "weight", 2: "bias"}),
    "BatchNormalization": ("BatchNorm", {1: "gamma", 2: "beta", 3: "mean", 4: "var"}),
    "LayerNormalization": ("LayerNorm", {1: "gamma", 2: "beta"}),
    "InstanceNormalization": ("InstanceNorm", {1: "gamma", 2: "beta"}),
    "GroupNormalization": ("GroupNorm", {1: "gamma", 2: "beta"}),
    "PRelu": ("PReLU", {1: "slope"}),
}


def onnx_entries(model: Any) -> list[Entry] | None:
    """The model's weights as Entry objects in the order the graph uses them; None when it has no nodes."""
    from onnx import numpy_helper

    graph = model.graph
    if not graph.node:
        return None
    inits = {i.name: i for i in graph.initializer}
    shapes = {name: tuple(int(d) for d in init.dims) for name, init in inits.items()}
    floats = {name for name, init in inits.items()
              if np.issubdtype(numpy_helper.to_array(init).dtype, np.floating) and shapes[name]}
    out: list[Entry] = []
    seen: set[str] = set()
    matmul_layer: dict[str, str] = {}  # MatMul output -> its layer name, for the bias Add after it

    def take(name: str, layer: str, kind: str, role: str, transposed: bool = False) -> None:
        if name in seen or name not in floats:
            return
        seen.add(name)
        out.append(Entry(name, shapes[name], kind=kind, role=role, layer=layer, transposed=transposed))

    for index, node in enumerate(graph.node):
        layer = node.name or f"{node.op_type}_{index}"
        if node.op_type in _ROLES:
            kind, roles = _ROLES[node.op_type]
            trans = node.op_type == "Gemm" and not any(a.name == "transB" and a.i for a in node.attribute)
            for pos, role in roles.items():
                if pos < len(node.input) and node.input[pos]:
                    take(node.input[pos], layer, kind, role, trans and role == "weight")
        elif node.op_type in _RECURRENT:
            _recurrent(node, layer, floats, shapes, seen, out)
        elif node.op_type == "MatMul":
            weight = next((x for x in node.input[1:] if x in floats), None)
            if weight is not None and len(shapes[weight]) == 2:
                take(weight, layer, "Dense", "weight", True)
                matmul_layer[node.output[0]] = layer
        elif node.op_type == "Add" and any(x in matmul_layer for x in node.input):
            owner = matmul_layer[next(x for x in node.input if x in matmul_layer)]
            bias = next((x for x in node.input if x in floats), None)
            if bias is not None and len(shapes[bias]) == 1:
                take(bias, owner, "Dense", "bias")
        elif node.op_type == "Gather" and node.input and node.input[0] in floats:
            take(node.input[0], layer, "Embedding", "weight")
    return out


_RECURRENT = {"LSTM": ("LSTM", "iofc"), "GRU": ("GRU", "zrn"), "RNN": ("RNN", None)}


def _recurrent(node: Any, layer: str, floats: set[str], shapes: dict[str, tuple[int, ...]], seen: set[str],
               out: list[Entry]) -> None:
    """An ONNX LSTM / GRU / RNN node's W [dirs, G*H, in], R [dirs, G*H, H] and B [dirs, 2*G*H] as each
    direction's weight_ih_l0[_reverse], weight_hh_l0, bias_ih_l0 and bias_hh_l0, gates in ONNX's order."""
    kind, gates = _RECURRENT[node.op_type]
    attrs = {a.name: a for a in node.attribute}
    if node.op_type == "GRU" and not (attrs.get("linear_before_reset") and attrs["linear_before_reset"].i):
        # not the arithmetic of PyTorch's and MindSpore's GRU: a kind that fits nothing
        kind = "GRU (linear_before_reset=0)"
    names = [node.input[i] if i < len(node.input) else "" for i in (1, 2, 3)]
    if names[0] not in floats or names[0] in seen:
        return
    w, r, b = names
    dirs, size = shapes[w][0], shapes[w][1]
    for d in range(dirs):
        suffix = "_reverse" if d == 1 else ""
        for name, role, rows in ((w, "weight_ih_l0", None), (r, "weight_hh_l0", None),
                                 (b, "bias_ih_l0", (0, size)), (b, "bias_hh_l0", (size, 2 * size))):
            if not name or name not in floats:
                continue
            shape = (size,) if rows else tuple(shapes[name][1:])
            out.append(Entry(name, shape, kind=kind, role=role + suffix, layer=layer, index=d, rows=rows,
                             gates=gates))
    seen.update(n for n in names if n)
