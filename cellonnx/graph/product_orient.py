"""Transposed products in the orientation onnxruntime's CPU GEMM runs faster: a traced Dense weight gradient
is ``Transpose(MatMul(Transpose(x), dy))`` (the gradient of ``x @ W^T`` with respect to ``W^T``, then the
Transpose's gradient), a product over the N * L rows whose (in, out) result is transposed to W's (out, in).
``(X @ Y)^T`` is also ``Y^T @ X^T``, written straight in W's layout with no copy after it.

Which of the two is faster depends on the result's shape: onnxruntime's GEMM (MLAS, 1 thread, a product over
4096 rows) wrote a (512, 128) result in 0.77-0.80x the time of a (128, 512) one, transpose included, and a
square one in about the same time. ``orient_transposed_products`` therefore rewrites the 2-D
``Transpose(MatMul)`` pairs whose transposed result has more rows than columns, and leaves the rest. It runs
after the SGD learning-rate folding (cellonnx/graph/fuse_update.py), which would otherwise take the written
``p - lr * MatMul`` for its pattern and scale an (N * L)-row operand instead of the small result.
"""
from __future__ import annotations

from collections import defaultdict

import onnx
from onnx import helper

_ONNX = ("", "ai.onnx")


def orient_transposed_products(model: onnx.ModelProto, shapes: dict[str, list] | None = None) -> int:
    """Rewrite ``Transpose(MatMul(X, Y))`` (2-D, the product read only by the Transpose) as
    ``MatMul(Y^T, X^T)`` where the result has more rows than columns (in place; ``shapes`` from ONNX shape
    inference, inferred here when needed). A Transpose operand's own input is used as its transpose.
    Returns how many products were rewritten."""
    g = model.graph
    producer = {o: n for n in g.node for o in n.output}
    readers: dict[str, int] = defaultdict(int)
    for n in g.node:
        for i in n.input:
            readers[i] += 1
    outputs = {o.name for o in g.output}
    pairs = []
    for t in g.node:
        if t.op_type != "Transpose" or t.domain not in _ONNX or _perm(t) != [1, 0]:
            continue
        mm = producer.get(t.input[0])
        if (mm is None or mm.op_type != "MatMul" or mm.domain not in _ONNX or readers[mm.output[0]] != 1
                or mm.output[0] in outputs):
            continue
        pairs.append((t, mm))
    if not pairs:
        return 0
    if shapes is None:
        from cellonnx.graph.optimize import _inferred_shapes

        shapes = _inferred_shapes(model)
    rewritten: dict[int, list[onnx.NodeProto]] = {}
    dropped: set[int] = set()
    for t, mm in pairs:
        x, y = mm.input
        sx, sy = shapes.get(x), shapes.get(y)
        if sx is None or sy is None or len(sx) != 2 or len(sy) != 2:
            continue
        rows, cols = sy[1], sx[0]   # (X @ Y)^T is (Y's columns, X's rows)
        if not (isinstance(rows, int) and isinstance(cols, int) and rows > cols):
            continue
        new = []
        yt = _transposed(y, producer, new, f"{t.output[0]}/orient")
        xt = _transposed(x, producer, new, f"{t.output[0]}/orient")
        new.append(helper.make_node("MatMul", [yt, xt], [t.output[0]],
                                    name=f"{mm.name or t.output[0]}/oriented"))
        rewritten[id(t)] = new
        dropped.add(id(mm))
    if not rewritten:
        return 0
    nodes = []
    for n in g.node:
        if id(n) in dropped:
            continue
        nodes.extend(rewritten.get(id(n), [n]))
    read = {i for n in nodes for i in n.input} | outputs
    del g.node[:]
    g.node.extend(n for n in nodes  # the operands' Transposes that only the old products read
                  if not (n.op_type == "Transpose" and n.output[0] not in read))
    return len(rewritten)


def _transposed(v: str, producer: dict, new: list, prefix: str) -> str:
    """``v^T``: the input of ``v``'s own 2-D Transpose, or a new Transpose of ``v``."""
    p = producer.get(v)
    if p is not None and p.op_type == "Transpose" and p.domain in _ONNX and _perm(p) == [1, 0]:
        return p.input[0]
    out = f"{prefix}/{v}^T"
    new.append(helper.make_node("Transpose", [v], [out], name=out, perm=[1, 0]))
    return out


def _perm(node: onnx.NodeProto) -> list[int] | None:
    for a in node.attribute:
        if a.name == "perm":
            return list(a.ints)
    return None
