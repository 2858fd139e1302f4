"""Each convolution-gradient lowering as a one-node (or one-chain) ONNX graph, timed by onnxruntime at the
layer shapes of ResNet-18 (batch 32, 3x32x32 input) and LeNet-5 (batch 64): the forward Conv against im2col
+ GEMM, the input gradient as ConvTranspose against GEMM + Col2Im and Conv of the flipped weight, the weight
gradient as a Conv over swapped axes against im2col + MatMul, and the max-pool gradient as ScatterElements
against index-free forms. The figures chose cellonnx/ops/prims/conv_gemm.py's thresholds (bench/RESULTS.md).

    python bench/conv_lowerings.py [threads]
"""

from __future__ import annotations

import sys
import time

import numpy as np
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper, numpy_helper

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 1
rng = np.random.default_rng(0)


def model(nodes, feeds, consts=None):
    consts = consts or {}
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(n, T.FLOAT, v.shape) for n, v in feeds.items()],
        [helper.make_tensor_value_info("y", T.FLOAT, None)],
        initializer=[numpy_helper.from_array(np.asarray(v), n) for n, v in consts.items()],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=9)
    o = ort.SessionOptions()
    o.intra_op_num_threads = THREADS
    o.inter_op_num_threads = 1
    return ort.InferenceSession(m.SerializeToString(), o, providers=["CPUExecutionProvider"])


def bench(s, feeds, n=40):
    out = s.run(None, feeds)[0]
    for _ in range(3):
        s.run(None, feeds)
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        s.run(None, feeds)
        ts.append(time.perf_counter() - t)
    return sorted(ts)[len(ts) // 4] * 1e3, out


def n(op, i, o, **kw):
    return helper.make_node(op, i, o, **kw)


def i64(v):
    return np.asarray(v, np.int64)


def im2col_nodes(x, C, H, k, s, p, Ho, tag):
    """cols (N, C, k*k, Ho, Wo) from x by k*k strided slices of the padded input."""
    nodes = [n("Pad", [x, tag + "pads"], [tag + "xp"])]
    consts = {tag + "pads": i64([0, 0, p, p, 0, 0, p, p])}
    parts = []
    for a in range(k):
        for b in range(k):
            nm = f"{tag}s{a}{b}"
            consts[nm + "st"] = i64([a, b])
            consts[nm + "en"] = i64([a + s * (Ho - 1) + 1, b + s * (Ho - 1) + 1])
            consts[tag + "ax"] = i64([2, 3])
            consts[tag + "stp"] = i64([s, s])
            nodes.append(n("Slice", [tag + "xp", nm + "st", nm + "en", tag + "ax", tag + "stp"], [nm]))
            nodes.append(n("Unsqueeze", [nm, tag + "u"], [nm + "u"]))
            parts.append(nm + "u")
    consts[tag + "u"] = i64([2])
    nodes.append(n("Concat", parts, [tag + "cols"], axis=2))
    return nodes, consts


def conv_case(N, C, co, H, k, s, p):
    Ho = (H + 2 * p - k) // s + 1
    L = Ho * Ho
    x = rng.standard_normal((N, C, H, H)).astype(np.float32)
    w = rng.standard_normal((co, C, k, k)).astype(np.float32)
    gy = rng.standard_normal((N, co, Ho, Ho)).astype(np.float32)
    geo = dict(kernel_shape=[k, k], strides=[s, s], pads=[p] * 4)
    res = {}
    # forward
    res["fwd Conv"] = bench(model([n("Conv", ["x", "w"], ["y"], **geo)], {"x": x, "w": w}), {"x": x, "w": w})
    nodes, consts = im2col_nodes("x", C, H, k, s, p, Ho, "a")
    nodes += [
        n("Transpose", ["acols"], ["act"], perm=[1, 2, 0, 3, 4]),  # (C, kk, N, Ho, Wo)
        n("Reshape", ["act", "cs"], ["am"]),
        n("Reshape", ["w", "ws"], ["wm"]),
        n("MatMul", ["wm", "am"], ["ym"]),
        n("Reshape", ["ym", "ys"], ["yr"]),
        n("Transpose", ["yr"], ["y"], perm=[1, 0, 2, 3]),
    ]
    consts.update(cs=i64([C * k * k, N * L]), ws=i64([co, C * k * k]), ys=i64([co, N, Ho, Ho]))
    res["fwd im2col+MatMul"] = bench(model(nodes, {"x": x, "w": w}, consts), {"x": x, "w": w})
    # input gradient
    op = [0] * 2 if s == 1 else [(H + 2 * p - k) % s] * 2
    res["dx ConvTranspose"] = bench(
        model([n("ConvTranspose", ["g", "w"], ["y"], output_padding=op, **geo)], {"g": gy, "w": w}),
        {"g": gy, "w": w},
    )
    nodes = [
        n("Transpose", ["g"], ["gt"], perm=[1, 0, 2, 3]),
        n("Reshape", ["gt", "gs"], ["gm"]),
        n("Reshape", ["w", "ws"], ["wm"]),
        n("Gemm", ["wm", "gm"], ["cols"], transA=1),
        n("Reshape", ["cols", "c3"], ["c3r"]),
        n("Transpose", ["c3r"], ["c4"], perm=[1, 0, 2]),
        n("Col2Im", ["c4", "img", "blk"], ["y"], pads=[p] * 4, strides=[s, s]),
    ]
    consts = dict(
        gs=i64([co, N * L]),
        ws=i64([co, C * k * k]),
        c3=i64([C * k * k, N, L]),
        img=i64([H, H]),
        blk=i64([k, k]),
    )
    res["dx Gemm+Col2Im"] = bench(model(nodes, {"g": gy, "w": w}, consts), {"g": gy, "w": w})
    if s == 1:
        nodes = [
            n("Transpose", ["w"], ["wt"], perm=[1, 0, 2, 3]),
            n("Slice", ["wt", "st", "en", "ax", "stp"], ["wf"]),
            n("Conv", ["g", "wf"], ["y"], kernel_shape=[k, k], pads=[k - 1 - p] * 4),
        ]
        consts = dict(st=i64([-1, -1]), en=i64([-k - 1, -k - 1]), ax=i64([2, 3]), stp=i64([-1, -1]))
        res["dx Conv(flipped w)"] = bench(model(nodes, {"g": gy, "w": w}, consts), {"g": gy, "w": w})
    # weight gradient
    nodes = [
        n("Transpose", ["x"], ["xt"], perm=[1, 0, 2, 3]),
        n("Transpose", ["g"], ["gt"], perm=[1, 0, 2, 3]),
        n("Conv", ["xt", "gt"], ["o"], kernel_shape=[Ho, Ho], strides=[1, 1], dilations=[s, s], pads=[p] * 4),
    ]
    full = (H + 2 * p - s * (Ho - 1) - 1) + 1
    if full != k:
        nodes.append(n("Slice", ["o", "z", "kk", "ax"], ["o2"]))
    nodes.append(n("Transpose", ["o2" if full != k else "o"], ["y"], perm=[1, 0, 2, 3]))
    consts = dict(z=i64([0, 0]), kk=i64([k, k]), ax=i64([2, 3]))
    res["dw Conv swapped"] = bench(model(nodes, {"x": x, "g": gy}, consts), {"x": x, "g": gy})
    nodes, consts = im2col_nodes("x", C, H, k, s, p, Ho, "a")
    nodes += [
        n("Transpose", ["acols"], ["act"], perm=[0, 3, 4, 1, 2]),  # (N, Ho, Wo, C, kk)
        n("Reshape", ["act", "cs"], ["am"]),
        n("Transpose", ["g"], ["gt"], perm=[1, 0, 2, 3]),
        n("Reshape", ["gt", "gs"], ["gm"]),
        n("MatMul", ["gm", "am"], ["ym"]),
        n("Reshape", ["ym", "ys"], ["y"]),
    ]
    consts.update(cs=i64([N * L, C * k * k]), gs=i64([co, N * L]), ys=i64([co, C, k, k]))
    res["dw im2col+MatMul"] = bench(model(nodes, {"x": x, "g": gy}, consts), {"x": x, "g": gy})
    res["w Transpose"] = bench(model([n("Transpose", ["w"], ["y"], perm=[1, 0, 2, 3])], {"w": w}), {"w": w})
    return res


def check(res, a, b):
    ya, yb = res[a][1], res[b][1]
    return float(np.abs(ya - yb).max() / (np.abs(ya).max() + 1e-30))


def pool_case(N, C, H, k, s, p):
    Ho = (H + 2 * p - k) // s + 1
    x = rng.standard_normal((N, C, H, H)).astype(np.float32)
    x = np.maximum(x, 0)
    gy = rng.standard_normal((N, C, Ho, Ho)).astype(np.float32)
    geo = dict(kernel_shape=[k, k], strides=[s, s], pads=[p] * 4)
    plane = H * H
    res = {}
    res["maxpool fwd+idx"] = bench(model([n("MaxPool", ["x"], ["y", "i"], **geo)], {"x": x}), {"x": x})
    base = [n("MaxPool", ["x"], ["m", "i0"], **geo), n("Mod", ["i0", "pl"], ["i"])]
    consts = dict(pl=i64(plane), f=i64([0, 0, -1]), full=i64([N, C, H, H]))
    nodes = base + [
        n("ConstantOfShape", ["zs"], ["z"], value=numpy_helper.from_array(np.zeros(1, np.float32))),
        n("Reshape", ["g", "f"], ["gf"]),
        n("Reshape", ["i", "f"], ["if"]),
        n("ScatterElements", ["z", "if", "gf"], ["sc"], axis=2),
        n("Reshape", ["sc", "full"], ["y"]),
    ]
    consts["zs"] = i64([N, C, plane])
    res["maxgrad Scatter"] = bench(model(nodes, {"x": x, "g": gy}, consts), {"x": x, "g": gy})
    if k == s and p == 0 and H % k == 0:
        nodes = base + [
            n("Reshape", ["g", "g6s"], ["g6"]),
            n("Expand", ["g6", "e6"], ["ge"]),
            n("Reshape", ["ge", "full"], ["gu"]),
            n("Reshape", ["i", "g6s"], ["i6"]),
            n("Expand", ["i6", "e6"], ["ie"]),
            n("Reshape", ["ie", "full"], ["iu"]),
            n("Equal", ["iu", "iota"], ["eq"]),
            n("Where", ["eq", "gu", "zero"], ["y"]),
        ]
        consts.update(
            g6s=i64([N, C, Ho, 1, Ho, 1]),
            e6=i64([N, C, Ho, k, Ho, k]),
            iota=np.arange(plane, dtype=np.int64).reshape(1, 1, H, H),
            zero=np.zeros((), np.float32),
        )
        res["maxgrad Expand/Where"] = bench(model(nodes, {"x": x, "g": gy}, consts), {"x": x, "g": gy})
        # one-hot of within-window position: ConvTranspose-free: (idx == iota) with gy upsampled via Resize
        nodes = base + [
            n("Resize", ["g", "", "sc4"], ["gu"], mode="nearest"),
            n("Resize", ["if0", "", "sc4"], ["iuf"], mode="nearest"),
            n("Cast", ["i"], ["if0"], to=T.FLOAT),
            n("Equal", ["iuf", "iotaf"], ["eq"]),
            n("Where", ["eq", "gu", "zero"], ["y"]),
        ]
        consts.update(
            sc4=np.asarray([1, 1, k, k], np.float32),
            iotaf=np.arange(plane, dtype=np.float32).reshape(1, 1, H, H),
        )
        nodes = [nodes[0], nodes[1], nodes[2], nodes[4], nodes[3], nodes[5], nodes[6]]
        res["maxgrad Resize/Where"] = bench(model(nodes, {"x": x, "g": gy}, consts), {"x": x, "g": gy})
        kk = k * k
        nodes = [
            n("MaxPool", ["x"], ["m"], **geo),
            n("Reshape", ["x", "w6"], ["x6"]),
            n("Reshape", ["m", "g6s"], ["m6"]),
            n("Equal", ["x6", "m6"], ["eq"]),
            n("Where", ["eq", "rank", "zero"], ["sc"]),
            n("ReduceMax", ["sc", "axs"], ["best"], keepdims=1),
            n("Equal", ["sc", "best"], ["win"]),
            n("And", ["win", "eq"], ["mask"]),
            n("Reshape", ["g", "g6s"], ["g6"]),
            n("Where", ["mask", "g6", "zero"], ["d6"]),
            n("Reshape", ["d6", "full"], ["y"]),
        ]
        consts.update(
            w6=i64([N, C, Ho, k, Ho, k]),
            axs=i64([3, 5]),
            rank=(kk - np.arange(kk, dtype=np.float32)).reshape(1, 1, 1, k, 1, k),
        )
        res["maxgrad windows(no idx)"] = bench(model(nodes, {"x": x, "g": gy}, consts), {"x": x, "g": gy})
    return res


print(f"threads {THREADS}, onnxruntime {ort.__version__}")
CONVS = [
    (32, 64, 64, 8, 3, 1, 1),
    (32, 64, 128, 8, 3, 2, 1),
    (32, 128, 128, 4, 3, 1, 1),
    (32, 128, 256, 4, 3, 2, 1),
    (32, 256, 256, 2, 3, 1, 1),
    (32, 256, 512, 2, 3, 2, 1),
    (32, 512, 512, 1, 3, 1, 1),
    (32, 64, 128, 8, 1, 2, 0),
    (32, 3, 64, 32, 7, 2, 3),
    (64, 1, 6, 32, 5, 1, 0),
    (64, 6, 16, 14, 5, 1, 0),
]
for case in CONVS:
    r = conv_case(*case)
    errs = f"fwd {check(r, 'fwd Conv', 'fwd im2col+MatMul'):.0e}"
    errs += f" dx {check(r, 'dx ConvTranspose', 'dx Gemm+Col2Im'):.0e}"
    errs += f" dw {check(r, 'dw Conv swapped', 'dw im2col+MatMul'):.0e}"
    print(
        f"conv N,C,co,H,k,s,p={case}: "
        + ", ".join(f"{k} {v[0]:.2f}" for k, v in r.items())
        + f" | err {errs}",
        flush=True,
    )
for case in [(64, 6, 28, 2, 2, 0), (64, 16, 10, 2, 2, 0), (32, 64, 16, 3, 2, 1)]:
    r = pool_case(*case)
    extra = ""
    if "maxgrad Expand/Where" in r:
        extra = f" | err {check(r, 'maxgrad Scatter', 'maxgrad Expand/Where'):.0e}"
        extra += f" {check(r, 'maxgrad Scatter', 'maxgrad windows(no idx)'):.0e}"
    print(
        f"pool N,C,H,k,s,p={case}: " + ", ".join(f"{k} {v[0]:.3f}" for k, v in r.items()) + extra, flush=True
    )
