"""Max pooling forward + gradient pairs side by side in blocks, as small ONNX graphs run by onnxruntime:
LeNet-5's 2 x 2 / stride 2 pools (batch 64) and ResNet-18's stem pool (3 x 3 / stride 2 after a zero pad of 1,
batch 32 x 64 x 32 x 32). Each form returns the pooled values and the input gradient of a given output
gradient, checked equal to the first form's on data with ties (ReLU zeros). Results in bench/RESULTS.md.

    python bench/pool_grad_forms.py [threads] [--rounds 6]

Each form is timed by whole runs in blocks (which include copying x, dy and dx in and out) and by the sum of
its nodes' median kernel times from onnxruntime's profiler (the figure to compare on a loaded machine).

Tiling windows (LeNet-5):
  T1  SpaceToDepth + ArgMax + ReduceMax, plane index by arithmetic; gradient ScatterElements (the lowering
      before the index-free one)
  T2  SpaceToDepth + ReduceMax; gradient index-free: window codes (4, 3, 2, 1) where x equals the max, their
      ReduceMax picks the first maximum, Equal + Where put the output gradient there, DepthToSpace
  T3  as T2, the codes by Mul of the Cast mask instead of Where
  T4  MaxPool (no Indices) forward; the gradient as T2 from SpaceToDepth of x
Overlapping windows (ResNet-18's stem):
  O1  Pad + MaxPool with Indices + Mod; gradient ScatterElements (add) + Slice (the Pad's gradient)
  O2  Pad + MaxPool with Indices (no Mod: ONNX's flat index); gradient ScatterElements over the whole tensor
  O3  MaxPool with Indices and pads (no Pad), valid only where ties at zero do not matter: timing only
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections import defaultdict

import numpy as np
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 1
ROUNDS = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 6


def model(nodes, inputs, outputs, inits=()):
    return h.make_model(h.make_graph(nodes, "g", inputs, outputs, list(inits)),
                        opset_imports=[h.make_opsetid("", 18)])


def vi(n, t, s):
    return h.make_tensor_value_info(n, t, s)


def sess(m):
    o = ort.SessionOptions()
    o.intra_op_num_threads = THREADS
    o.log_severity_level = 3
    return ort.InferenceSession(m.SerializeToString(), o, providers=["CPUExecutionProvider"])


def c(name, v, dt=np.int64):
    return nh.from_array(np.asarray(v, dt), name)


def n(op, ins, outs, **kw):
    return h.make_node(op, ins, outs, **kw)


def tiled_forms(N, C, H, k=2):
    Ho = H // k
    M = C * Ho * Ho
    io = [vi("x", T.FLOAT, [N, C, H, H]), vi("dy", T.FLOAT, [N, C, Ho, Ho])]
    out = [vi("y", T.FLOAT, None), vi("dx", T.FLOAT, None)]
    s2d = [n("SpaceToDepth", ["x"], ["s"], blocksize=k), n("Reshape", ["s", "s3"], ["xs"]),
           n("ReduceMax", ["xs", "a1"], ["y3"], keepdims=1), n("Reshape", ["y3", "s4"], ["y"])]
    consts = [c("s3", [0, k * k, -1]), c("a1", [1]), c("s4", [N, C, Ho, Ho]), c("one", [N, 1, M]),
              c("s4k", [N, C * k * k, Ho, Ho]), c("full", [N, C, H, H]), c("flat", [0, 0, -1]),
              c("codes", np.arange(k * k, 0, -1).reshape(1, k * k, 1), np.float32),
              c("zero", 0.0, np.float32), c("kk", k), c("wk", H - k),
              c("origin", np.arange(Ho)[:, None] * k * H + np.arange(Ho)[None, :] * k),
              c("plane", [N, C, H * H])]
    d2s = [n("Reshape", ["g3", "s4k"], ["g4"]), n("DepthToSpace", ["g4"], ["dx"], blocksize=k, mode="DCR")]
    first = [n("Equal", ["xs", "y3"], ["eq"]), n("Where", ["eq", "codes", "zero"], ["code"]),
             n("ReduceMax", ["code", "a1"], ["best"], keepdims=1), n("Equal", ["code", "best"], ["m"]),
             n("Reshape", ["dy", "one"], ["dy3"]), n("Where", ["m", "dy3", "zero"], ["g3"])]
    t1 = s2d + [n("ArgMax", ["xs"], ["pos3"], axis=1, keepdims=1), n("Reshape", ["pos3", "s4"], ["pos"]),
                n("Div", ["pos", "kk"], ["row"]), n("Mul", ["row", "wk"], ["rw"]),
                n("Add", ["pos", "rw"], ["p1"]),
                n("Add", ["p1", "origin"], ["idx"]),
                n("ConstantOfShape", ["plane"], ["z"], value=nh.from_array(np.zeros(1, np.float32))),
                n("Reshape", ["dy", "flat"], ["u"]), n("Reshape", ["idx", "flat"], ["ii"]),
                n("ScatterElements", ["z", "ii", "u"], ["o"], axis=2), n("Reshape", ["o", "full"], ["dx"])]
    t3 = s2d + [n("Equal", ["xs", "y3"], ["eq"]), n("Cast", ["eq"], ["eqf"], to=T.FLOAT),
                n("Mul", ["eqf", "codes"], ["code"]), n("ReduceMax", ["code", "a1"], ["best"], keepdims=1),
                n("Equal", ["code", "best"], ["m"]), n("Cast", ["m"], ["mf"], to=T.FLOAT),
                n("Reshape", ["dy", "one"], ["dy3"]), n("Mul", ["mf", "dy3"], ["g3"])] + d2s
    t4 = [n("MaxPool", ["x"], ["y"], kernel_shape=[k, k], strides=[k, k]),
          n("SpaceToDepth", ["x"], ["s"], blocksize=k), n("Reshape", ["s", "s3"], ["xs"]),
          n("Reshape", ["y", "one"], ["y3"])] + first + d2s
    K = (k - 1) * H + k
    offs = np.array([(p // k) * H + p % k for p in range(k * k)])
    consts += [c("x6", [0, C, Ho, k, Ho, k]), c("xt", [0, C, k * k, Ho * Ho]), c("yk", [0, C, Ho, Ho]),
               c("tcodes", (K - offs).reshape(k * k, 1), np.float32), c("a2", [2]),
               c("one_f", 1.0, np.float32),
               c("originK", (np.arange(Ho)[:, None] * k * H + np.arange(Ho)[None, :] * k + K)),
               c("C", C), c("HW", H * H), c("zero_i", 0), c("one_i", 1), c("nc1", [-1, C, 1, 1]),
               c("full4", [N, C, H, H])]
    tiled = [n("Reshape", ["x", "x6"], ["x6v"]), n("Transpose", ["x6v"], ["x6t"], perm=[0, 1, 3, 5, 2, 4]),
             n("Reshape", ["x6t", "xt"], ["xs"]), n("ReduceMax", ["xs", "a2"], ["ym"], keepdims=1),
             n("Reshape", ["ym", "yk"], ["y"]), n("Equal", ["xs", "ym"], ["eq"]),
             n("Cast", ["eq"], ["eqf"], to=T.FLOAT), n("Mul", ["eqf", "tcodes"], ["code"]),
             n("ReduceMax", ["code", "a2"], ["best"], keepdims=1), n("Max", ["best", "one_f"], ["bestc"]),
             n("Cast", ["bestc"], ["besti"], to=T.INT64), n("Reshape", ["besti", "yk"], ["best4"]),
             n("Sub", ["originK", "best4"], ["idx"])]
    unpool = [n("Shape", ["dy"], ["shp"], end=1), n("Mul", ["shp", "C"], ["nc"]),
              n("Squeeze", ["nc"], ["ncs"]), n("Range", ["zero_i", "ncs", "one_i"], ["r"]),
              n("Mul", ["r", "HW"], ["rhw"]), n("Reshape", ["rhw", "nc1"], ["off"]),
              n("Add", ["idx", "off"], ["fi"]),
              n("MaxUnpool", ["dy", "fi", "full4"], ["dx"], kernel_shape=[k, k], strides=[k, k])]
    t6 = t1[:10] + unpool
    consts += [c("x6f", [0, C, Ho, k, Ho, k]), c("rows", [-1, k * k]),
               c("origin0", np.arange(Ho)[:, None] * k * H + np.arange(Ho)[None, :] * k),
               c("inv_k", 1.0 / k, np.float32), c("wkf", H - k, np.float32), c("yk1", [-1, C, Ho, Ho])]
    argmax_last = [n("MaxPool", ["x"], ["y"], kernel_shape=[k, k], strides=[k, k]),
                   n("Reshape", ["x", "x6f"], ["x6v"]),
                   n("Transpose", ["x6v"], ["x6t"], perm=[0, 1, 2, 4, 3, 5]),
                   n("Reshape", ["x6t", "rows"], ["xr"]), n("ArgMax", ["xr"], ["pos1"], axis=1, keepdims=0),
                   n("Reshape", ["pos1", "yk1"], ["pos"])]
    t7 = argmax_last + [n("Div", ["pos", "kk"], ["row"]), n("Mul", ["row", "wk"], ["rw"]),
                        n("Add", ["pos", "rw"], ["p1"]), n("Add", ["p1", "origin0"], ["idx"])] + unpool
    t8 = argmax_last + [n("Cast", ["pos"], ["posf"], to=T.FLOAT), n("Mul", ["posf", "inv_k"], ["q"]),
                        n("Floor", ["q"], ["rowf"]), n("Mul", ["rowf", "wkf"], ["rw"]),
                        n("Add", ["posf", "rw"], ["p1"]), n("Cast", ["p1"], ["p1i"], to=T.INT64),
                        n("Add", ["p1i", "origin0"], ["idx"])] + unpool
    # T9: one Transpose deinterleaves the kernel columns, Splits give the k * k window slabs, a variadic Max
    # and a Where chain (last position first) the first maximum's offset
    consts += [c("cols", [0, C, H * Ho, k]), c("x6s", [0, C, k, Ho, k, Ho]), c("ykf", [0, C, Ho, Ho])]
    consts += [c(f"off{p}", (p // k) * H + p % k) for p in range(k * k)]
    slabs = [f"s{r}{q}" for r in range(k) for q in range(k)]
    t9 = [n("Reshape", ["x", "cols"], ["xc"]), n("Transpose", ["xc"], ["xt9"], perm=[0, 1, 3, 2]),
          n("Reshape", ["xt9", "x6s"], ["x6q"]),
          n("Split", ["x6q"], [f"q{q}" for q in range(k)], axis=2, num_outputs=k)]
    t9 += [n("Split", [f"q{q}"], [f"s{r}{q}" for r in range(k)], axis=4, num_outputs=k) for q in range(k)]
    t9 += [n("Max", slabs, ["ym"]), n("Reshape", ["ym", "ykf"], ["y"])]
    last = f"off{k * k - 1}"
    for p in range(k * k - 2, -1, -1):
        t9 += [n("Equal", [slabs[p], "ym"], [f"e{p}"]), n("Where", [f"e{p}", f"off{p}", last], [f"w{p}"])]
        last = f"w{p}"
    t9 += [n("Reshape", [last, "ykf"], ["pos9"]), n("Add", ["pos9", "origin0"], ["idx"])] + unpool
    return {"T1 S2D ArgMax, Scatter": model(t1, io, out, consts),
            "T9 Transpose Split Max Where, MaxUnpool": model(t9, io, out, consts),
            "T5 Transpose ReduceMax codes, MaxUnpool": model(tiled + unpool, io, out, consts),
            "T6 S2D ArgMax, MaxUnpool": model(t6, io, out, consts),
            "T7 MaxPool, Transpose ArgMax (Div), MaxUnpool": model(t7, io, out, consts),
            "T8 MaxPool, Transpose ArgMax (float), MaxUnpool": model(t8, io, out, consts),
            "T2 S2D ReduceMax, codes Where": model(s2d + first + d2s, io, out, consts),
            "T3 S2D ReduceMax, codes Mul": model(t3, io, out, consts),
            "T4 MaxPool, S2D codes Where": model(t4, io, out, consts)}


def overlap_forms(N, C, H):
    Ho = H // 2
    io = [vi("x", T.FLOAT, [N, C, H, H]), vi("dy", T.FLOAT, [N, C, Ho, Ho])]
    out = [vi("y", T.FLOAT, None), vi("dx", T.FLOAT, None)]
    P = (H + 2) ** 2
    consts = [c("pads", [0, 0, 1, 1, 0, 0, 1, 1]), c("zero", 0.0, np.float32), c("flat", [0, 0, -1]),
              c("plane", [N, C, P]), c("pfull", [N, C, H + 2, H + 2]), c("st", [1, 1]),
              c("en", [H + 1, H + 1]),
              c("ax", [2, 3]), c("P", P), c("all", [-1]), c("fullsize", [N * C * P]), c("full", [N, C, H, H])]
    pool = dict(kernel_shape=[3, 3], strides=[2, 2])
    zeros = n("ConstantOfShape", ["plane"], ["z"], value=nh.from_array(np.zeros(1, np.float32)))
    o1 = [n("Pad", ["x", "pads", "zero"], ["xp"]), n("MaxPool", ["xp"], ["y", "i"], **pool),
          n("Mod", ["i", "P"], ["im"]), zeros, n("Reshape", ["dy", "flat"], ["u"]),
          n("Reshape", ["im", "flat"], ["ii"]),
          n("ScatterElements", ["z", "ii", "u"], ["o"], axis=2, reduction="add"),
          n("Reshape", ["o", "pfull"], ["o4"]), n("Slice", ["o4", "st", "en", "ax"], ["dx"])]
    o2 = [n("Pad", ["x", "pads", "zero"], ["xp"]), n("MaxPool", ["xp"], ["y", "i"], **pool),
          n("ConstantOfShape", ["fullsize"], ["z"], value=nh.from_array(np.zeros(1, np.float32))),
          n("Reshape", ["dy", "all"], ["u"]), n("Reshape", ["i", "all"], ["ii"]),
          n("ScatterElements", ["z", "ii", "u"], ["o"], axis=0, reduction="add"),
          n("Reshape", ["o", "pfull"], ["o4"]), n("Slice", ["o4", "st", "en", "ax"], ["dx"])]
    o3 = [n("MaxPool", ["x"], ["y", "i"], pads=[1, 1, 1, 1], **pool),
          n("ConstantOfShape", ["fullsize"], ["z"], value=nh.from_array(np.zeros(1, np.float32))),
          n("Reshape", ["dy", "all"], ["u"]), n("Reshape", ["i", "all"], ["ii"]),
          n("ScatterElements", ["z", "ii", "u"], ["o"], axis=0, reduction="add"),
          n("Reshape", ["o", "full"], ["dx"])]
    fs = [c("fullsize", [N * C * H * H]) if t.name == "fullsize" else t for t in consts]
    return {"O1 Pad MaxPool+Indices Mod, Scatter": model(o1, io, out, consts),
            "O2 Pad MaxPool+Indices, flat Scatter": model(o2, io, out, consts),
            "O3 MaxPool pads+Indices, flat Scatter (timing)": model(o3, io, out, fs)}


def profiling_session(m):
    o = ort.SessionOptions()
    o.intra_op_num_threads = THREADS
    o.log_severity_level = 3
    o.enable_profiling = True
    o.profile_file_prefix = os.path.join(tempfile.mkdtemp(prefix="cellonnx_pool_forms_"), "p")
    return ort.InferenceSession(m.SerializeToString(), o, providers=["CPUExecutionProvider"])


def kernel_sums(forms, feeds, rounds):
    """Per form, the sum over its nodes of each node's median kernel time (ms), the forms' profiled runs
    taking turns in blocks of 3 (after 3 warm-up runs each), so that load bursts hit them alike."""
    sessions = {k: profiling_session(m) for k, m in forms.items()}
    for s in sessions.values():
        for _ in range(3):
            s.run(None, feeds)
    for r in range(rounds):
        for k in list(sessions) if r % 2 == 0 else list(sessions)[::-1]:
            for _ in range(3):
                sessions[k].run(None, feeds)
    out = {}
    for k, s in sessions.items():
        path = s.end_profiling()
        with open(path) as f:
            events = json.load(f)
        os.remove(path)
        starts = sorted(e["ts"] for e in events if e.get("cat") == "Session" and e["name"] == "model_run")
        durs = defaultdict(list)
        for e in events:
            if e.get("cat") == "Node" and e["name"].endswith("_kernel_time") and e["ts"] >= starts[3]:
                durs[e["name"]].append(e["dur"])
        out[k] = sum(float(np.median(v)) for v in durs.values()) / 1e3
    return out


def relu_data(shape, rng):
    return np.maximum(rng.standard_normal(shape), 0).astype(np.float32)  # half zeros: ties


def run(forms, x, dy, exact=True):
    rng_ref = None
    feeds = {"x": x, "dy": dy}
    sessions = {k: sess(m) for k, m in forms.items()}
    for k, s in sessions.items():
        y, dx = s.run(None, feeds)
        if rng_ref is None:
            rng_ref = (y, dx)
        elif "timing" not in k:
            assert np.array_equal(y.reshape(rng_ref[0].shape), rng_ref[0]), k
            assert np.array_equal(dx, rng_ref[1]), (k, np.abs(dx - rng_ref[1]).max())
    t = {k: [] for k in sessions}
    for r in range(ROUNDS):
        for k in list(sessions) if r % 2 == 0 else list(sessions)[::-1]:
            time.sleep(0.1)
            s = sessions[k]
            for _ in range(3):
                a = time.perf_counter()
                for _ in range(10):
                    s.run(None, feeds)
                t[k].append((time.perf_counter() - a) / 10)
    base = np.median(t[next(iter(t))])
    kern = kernel_sums(forms, feeds, ROUNDS)
    kbase = kern[next(iter(kern))]
    print(x.shape)
    for k, v in t.items():
        print(f"  {k:48s} run {np.median(v) * 1e3:7.3f} ms {np.median(v) / base:5.2f}   kernels "
              f"{kern[k]:7.3f} ms {kern[k] / kbase:5.2f}")


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    for N, C, H in [(64, 6, 28), (64, 16, 10)]:
        run(tiled_forms(N, C, H), relu_data((N, C, H, H), rng), rng.standard_normal((N, C, H // 2, H // 2))
            .astype(np.float32))
    N, C, H = 32, 64, 16
    run(overlap_forms(N, C, H), relu_data((N, C, H, H), rng),
        rng.standard_normal((N, C, H // 2, H // 2)).astype(np.float32))
