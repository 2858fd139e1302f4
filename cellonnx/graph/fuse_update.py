"""The learning rate of a plain gradient-descent update folded into the GEMM that computes the gradient.

A traced SGD step writes ``p - lr * reshape(A @ B)``: the GEMM writes the gradient, a Mul reads it and writes
the scaled copy, and the Sub reads the weight and that copy and writes the new weight (ResNet-18's 3 x 3
weights at layer 4 hold 2.4 M values each). ``p - reshape((lr * A) @ B)`` is the same value up to float
rounding (the product is scaled before it is summed), with the learning rate scaling the smaller GEMM operand
(told by the product's shape, as the summed dim is often the dynamic batch) and one weight-sized pass fewer.
The Sub stays: it writes the new weight straight into the step's output (a GEMM with the weight as its C
input would need a Reshape after it, which onnxruntime runs as a copy into a graph output).

Only the exact pattern is rewritten: the Sub's first input is a graph input (the state), its output a graph
output (the new state), the learning rate a one-value tensor, and the gradient a 2-D Gemm (without C) or
MatMul read by nothing else, reshaped or not.
"""
from __future__ import annotations

import heapq
import math

import onnx

_ONNX = ("", "ai.onnx")


def fuse_sgd_updates(model: onnx.ModelProto, inferred: tuple[dict, dict] | None = None) -> int:
    """Fold the learning rate of every ``p - lr * GEMM`` update in ``model`` into the GEMM (in place);
    returns how many were folded. ``inferred``: (shapes, element types) from ONNX shape inference where the
    caller has them."""
    g = model.graph
    inputs = {i.name for i in g.input}
    outputs = {o.name for o in g.output}
    if not any(n.op_type == "Sub" and n.input[0] in inputs and n.output[0] in outputs for n in g.node):
        return 0
    from cellonnx.graph.optimize import _inferred

    shapes = (inferred or _inferred(model))[0]
    producer = {o: n for n in g.node for o in n.output}
    readers: dict[str, int] = {}
    for n in g.node:
        for i in n.input:
            readers[i] = readers.get(i, 0) + 1
    for o in g.output:
        readers[o.name] = readers.get(o.name, 0) + 1
    folded = 0
    for sub in g.node:
        found = _match(sub, producer, readers, inputs, outputs, shapes)
        if found is None:
            continue
        mul, lr, grad, gemm = found
        small = _smaller_operand(gemm, shapes)
        scaled = f"{sub.output[0]}/lr_scaled"
        # the Mul now scales the GEMM operand; the Sub reads the (reshaped) product
        operand = gemm.input[small]
        del mul.input[:]
        mul.input.extend([operand, lr])
        mul.output[0] = scaled
        gemm.input[small] = scaled
        sub.input[1] = grad
        folded += 1
    if folded:
        _sorted(g)
    return folded


def _sorted(g: onnx.GraphProto) -> None:
    """Order the nodes topologically again (each Mul now feeds its GEMM, and its learning rate may be cast
    after the GEMM in trace order), keeping the trace order wherever it already holds."""
    nodes = list(g.node)
    producer = {o: i for i, n in enumerate(nodes) for o in n.output if o}
    waiting = [0] * len(nodes)
    users: list[list[int]] = [[] for _ in nodes]
    for i, n in enumerate(nodes):
        for src in {producer[x] for x in n.input if x in producer}:
            waiting[i] += 1
            users[src].append(i)
    ready = [i for i, w in enumerate(waiting) if w == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for j in users[i]:
            waiting[j] -= 1
            if waiting[j] == 0:
                heapq.heappush(ready, j)
    if len(order) != len(nodes):   # a cycle cannot come from this rewrite; leave the graph as it was
        return
    copies = []
    for i in order:
        c = onnx.NodeProto()
        c.CopyFrom(nodes[i])
        copies.append(c)
    del g.node[:]
    g.node.extend(copies)


def _match(sub: onnx.NodeProto, producer: dict, readers: dict, inputs: set, outputs: set,
           shapes: dict) -> tuple | None:
    """(the Mul, the learning rate, the gradient the Sub should read, the GEMM) of an update, or None."""
    if sub.op_type != "Sub" or sub.domain not in _ONNX or sub.output[0] not in outputs:
        return None
    p, scaled = sub.input
    if p not in inputs or readers.get(scaled) != 1:
        return None
    mul = producer.get(scaled)
    if mul is None or mul.op_type != "Mul" or mul.domain not in _ONNX:
        return None
    for lr, grad in ((mul.input[0], mul.input[1]), (mul.input[1], mul.input[0])):
        if _count(shapes.get(lr)) == 1 and readers.get(grad) == 1:
            break
    else:
        return None
    gemm = producer.get(grad)
    if gemm is not None and gemm.op_type == "Reshape" and gemm.domain in _ONNX:
        if readers.get(gemm.input[0]) != 1:
            return None
        gemm = producer.get(gemm.input[0])
    if gemm is None or gemm.domain not in _ONNX or gemm.op_type not in ("Gemm", "MatMul"):
        return None
    if gemm.op_type == "Gemm" and len([i for i in gemm.input if i]) > 2:   # C would stay unscaled
        return None
    if any(len(shapes.get(i) or ()) != 2 for i in gemm.input[:2]):
        return None
    if shapes.get(grad) != shapes.get(p):   # the Sub must not broadcast differently without the Mul
        return None
    return mul, lr, grad, gemm


def _smaller_operand(gemm: onnx.NodeProto, shapes: dict) -> int:
    """Which of the GEMM's two operands holds fewer values. They share the summed dim K, so A (M x K) is the
    smaller one exactly when M <= N, read off the product's shape: that holds when K is the dynamic batch
    (a weight gradient summed over it), where the operands' own sizes are unknown."""
    out = shapes.get(gemm.output[0])
    if out is not None and len(out) == 2 and all(isinstance(d, int) for d in out):
        return 0 if out[0] <= out[1] else 1
    a, b = (_count(shapes.get(i)) for i in gemm.input[:2])
    return 0 if a <= b else 1


def _count(shape: list | None) -> int:
    if shape is None or not all(isinstance(d, int) for d in shape):
        return -1
    return math.prod(shape)
