"""Max pooling with its argmax at LeNet-5's pool shapes (batch 64, 2 x 2 windows), side by side in blocks:
onnxruntime's MaxPool with the Indices output (+ Mod to plane indices), MaxPool alone, and the SpaceToDepth +
ArgMax + ReduceMax form of windows that tile the plane (cellonnx/ops/prims/pool.py); and the gradient as
ScatterElements against an Equal + Where + DepthToSpace form. Results in bench/RESULTS.md.

    python bench/pool_argmax_forms.py [threads]
"""

from __future__ import annotations

import sys
import time

import numpy as np
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 1


def model(nodes, inputs, outputs, inits=()):
    return h.make_model(
        h.make_graph(nodes, "g", inputs, outputs, list(inits)), opset_imports=[h.make_opsetid("", 18)]
    )


def vi(n, t, s):
    return h.make_tensor_value_info(n, t, s)


def sess(m):
    o = ort.SessionOptions()
    o.intra_op_num_threads = THREADS
    return ort.InferenceSession(m.SerializeToString(), o, providers=["CPUExecutionProvider"])


def i64(name, v):
    return nh.from_array(np.array(v, np.int64), name)


for N, C, H in [(64, 6, 28), (64, 16, 10)]:
    k = 2
    Ho = H // k
    W = H
    M = C * Ho * Ho
    x = np.random.rand(N, C, H, H).astype(np.float32)
    F1 = model(
        [
            h.make_node("MaxPool", ["x"], ["y", "i"], kernel_shape=[2, 2], strides=[2, 2]),
            h.make_node("Mod", ["i", "pl"], ["im"]),
        ],
        [vi("x", T.FLOAT, x.shape)],
        [vi("y", T.FLOAT, None), vi("im", T.INT64, None)],
        [i64("pl", H * W)],
    )
    F4 = model(
        [
            h.make_node("SpaceToDepth", ["x"], ["s"], blocksize=2),
            h.make_node("Reshape", ["s", "s3"], ["s3d"]),
            h.make_node("ArgMax", ["s3d"], ["pos"], axis=1, keepdims=1),
            h.make_node("ReduceMax", ["s3d", "a1"], ["y3"], keepdims=1),
            h.make_node("Reshape", ["y3", "s4"], ["y"]),
        ],
        [vi("x", T.FLOAT, x.shape)],
        [vi("y", T.FLOAT, None), vi("pos", T.INT64, None)],
        [i64("s3", [N, k * k, M]), i64("a1", [1]), i64("s4", [N, C, Ho, Ho])],
    )
    F5 = model(
        [
            h.make_node("SpaceToDepth", ["x"], ["s"], blocksize=2),
            h.make_node("Reshape", ["s", "s3"], ["s3d"]),
            h.make_node("ArgMax", ["s3d"], ["pos"], axis=1, keepdims=1),
            h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2]),
        ],
        [vi("x", T.FLOAT, x.shape)],
        [vi("y", T.FLOAT, None), vi("pos", T.INT64, None)],
        [i64("s3", [N, k * k, M])],
    )
    s1 = sess(F1)
    y, idx = s1.run(None, {"x": x})
    s4 = sess(F4)
    y4, pos = s4.run(None, {"x": x})
    assert np.array_equal(y, y4.reshape(y.shape))
    pr = pos.reshape(N, C, Ho, Ho)
    base = np.arange(Ho)[:, None] * k * W + np.arange(Ho)[None, :] * k
    assert np.array_equal(idx, base + (pr // k) * W + pr % k)
    dy = np.random.rand(*y.shape).astype(np.float32)
    G1 = model(
        [
            h.make_node("ConstantOfShape", ["sh"], ["z"], value=nh.from_array(np.zeros(1, np.float32))),
            h.make_node("Reshape", ["dy", "s3"], ["u"]),
            h.make_node("Reshape", ["i", "s3"], ["ii"]),
            h.make_node("ScatterElements", ["z", "ii", "u"], ["o"], axis=2),
            h.make_node("Reshape", ["o", "s4"], ["dx"]),
        ],
        [vi("dy", T.FLOAT, dy.shape), vi("i", T.INT64, idx.shape)],
        [vi("dx", T.FLOAT, None)],
        [i64("sh", [N, C, H * W]), i64("s3", [0, 0, -1]), i64("s4", [N, C, H, W])],
    )
    G4 = model(
        [
            h.make_node("Reshape", ["dy", "s3"], ["d3"]),
            h.make_node("Equal", ["pos", "iota"], ["eq"]),
            h.make_node("Where", ["eq", "d3", "zero"], ["o"]),
            h.make_node("Reshape", ["o", "s4"], ["o4"]),
            h.make_node("DepthToSpace", ["o4"], ["dx"], blocksize=2, mode="DCR"),
        ],
        [vi("dy", T.FLOAT, dy.shape), vi("pos", T.INT64, pos.shape)],
        [vi("dx", T.FLOAT, None)],
        [
            i64("s3", [N, 1, M]),
            nh.from_array(np.arange(4).reshape(1, 4, 1).astype(np.int64), "iota"),
            nh.from_array(np.zeros((), np.float32), "zero"),
            i64("s4", [N, 4 * C, Ho, Ho]),
        ],
    )
    sg1 = sess(G1)
    sg4 = sess(G4)
    assert np.array_equal(sg1.run(None, {"dy": dy, "i": idx})[0], sg4.run(None, {"dy": dy, "pos": pos})[0])
    fns = {
        "F1 MaxPool+Indices": (s1, {"x": x}),
        "F4 S2D ArgMax ReduceMax": (s4, {"x": x}),
        "F5 S2D ArgMax+MaxPool": (sess(F5), {"x": x}),
        "G1 Scatter": (sg1, {"dy": dy, "i": idx}),
        "G4 Equal Where D2S": (sg4, {"dy": dy, "pos": pos}),
    }
    t = {n: [] for n in fns}
    for r in range(6):
        for n, (s, f) in fns.items() if r % 2 == 0 else list(fns.items())[::-1]:
            time.sleep(0.05)
            a = time.perf_counter()
            for _ in range(20):
                s.run(None, f)
            t[n].append((time.perf_counter() - a) / 20)
    b = np.median(t["F1 MaxPool+Indices"])
    print((N, C, H), {n: f"{np.median(v) * 1e3:.3f}ms {np.median(v) / b:.2f}" for n, v in t.items()})
