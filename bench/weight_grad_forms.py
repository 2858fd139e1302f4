"""The conv weight gradient at LeNet-5's and ResNet-18's layer shapes, side by side in blocks: the Conv over
swapped axes (A), the windows by a batched MatMul summed over the batch (B), the windows transposed to NHWC by
one GEMM (C, the CUDA form), the windows transposed to channel-major by one GEMM (D), and the windows cut from
the channel-major input by one Slice a tap and one GEMM (E, the CPU form from 64 input channels before F), and
the windows gathered in one node from the input made channel-major and batch-last, (C, H * W, N), by one GEMM
(F, cellonnx/ops/prims/conv_gemm.py ``weight_grad_by_tap_rows``, the CPU form of every k x k kernel).
Results in bench/RESULTS.md.

    python bench/weight_grad_forms.py [threads]
"""

from __future__ import annotations

import sys
import time

import numpy as np
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from cellonnx.ops.prims.conv_gemm import _tap_rows

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 1


def sess(nodes, inits, x, gy):
    g = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, x.shape), h.make_tensor_value_info("gy", T.FLOAT, gy.shape)],
        [h.make_tensor_value_info("dw", T.FLOAT, None)],
        [nh.from_array(np.array(v, np.int64), n) for n, v in inits.items()],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    o = ort.SessionOptions()
    o.intra_op_num_threads = THREADS
    return ort.InferenceSession(m.SerializeToString(), o, providers=["CPUExecutionProvider"])


def windows(nodes, inits, k, s, p, ho, wo, src="x", ax=2):

    if p:
        nodes.append(h.make_node("Pad", [src, "pads"], ["xp"]))
        inits["pads"] = [0, 0, p, p, 0, 0, p, p]
        src = "xp"
    outs = []
    inits["ax23"] = [2, 3]
    inits["st"] = [s, s]
    inits["u2"] = [ax]
    for a in range(k):
        for b in range(k):
            inits[f"b{a}_{b}"] = [a, b]
            inits[f"e{a}_{b}"] = [a + s * (ho - 1) + 1, b + s * (wo - 1) + 1]
            nodes.append(h.make_node("Slice", [src, f"b{a}_{b}", f"e{a}_{b}", "ax23", "st"], [f"w{a}_{b}"]))
            nodes.append(h.make_node("Unsqueeze", [f"w{a}_{b}", "u2"], [f"uw{a}_{b}"]))
            outs.append(f"uw{a}_{b}")
    nodes.append(h.make_node("Concat", outs, ["cols"], axis=ax))


for N, C, H, O, k, s, p in [  # noqa: E741
    (32, 3, 32, 64, 7, 2, 3),
    (64, 1, 32, 6, 5, 1, 0),
    (64, 6, 14, 16, 5, 1, 0),
    (32, 256, 2, 256, 3, 1, 1),
    (32, 64, 8, 64, 3, 1, 1),
    (32, 64, 8, 128, 3, 2, 1),
    (32, 128, 4, 128, 3, 1, 1),
]:
    ho = (H + 2 * p - k) // s + 1
    P = ho * ho
    x = np.random.rand(N, C, H, H).astype(np.float32)
    gy = np.random.rand(N, O, ho, ho).astype(np.float32)
    # A swapped conv
    nA = [
        h.make_node("Transpose", ["x"], ["xt"], perm=[1, 0, 2, 3]),
        h.make_node("Transpose", ["gy"], ["gt"], perm=[1, 0, 2, 3]),
        h.make_node(
            "Conv", ["xt", "gt"], ["o"], kernel_shape=[ho, ho], strides=[1, 1], dilations=[s, s], pads=[p] * 4
        ),
    ]
    full = (H + 2 * p - s * (ho - 1) - 1) + 1
    iA = {}
    if full != k:
        nA.append(h.make_node("Slice", ["o", "z2", "kk", "ax23"], ["o2"]))
        iA.update(z2=[0, 0], kk=[k, k], ax23=[2, 3])
        last = "o2"
    else:
        last = "o"
    nA.append(h.make_node("Transpose", [last], ["dw"], perm=[1, 0, 2, 3]))
    # B windows + batched FusedMatMul + ReduceSum
    nB = []
    iB = {}
    windows(nB, iB, k, s, p, ho, ho)
    iB.update(s3=[0, C * k * k, P], g3=[0, O, P], a0=[0], s4=[O, C, k, k])
    nB += [
        h.make_node("Reshape", ["cols", "s3"], ["c3"]),
        h.make_node("Reshape", ["gy", "g3"], ["g3v"]),
        h.make_node("Transpose", ["c3"], ["c3t"], perm=[0, 2, 1]),
        h.make_node("MatMul", ["g3v", "c3t"], ["pr"]),
        h.make_node("ReduceSum", ["pr", "a0"], ["rs"], keepdims=0),
        h.make_node("Reshape", ["rs", "s4"], ["dw"]),
    ]
    # C CUDA form
    nC = []
    iC = {}
    windows(nC, iC, k, s, p, ho, ho)
    iC.update(m1=[-1, C * k * k], m2=[-1, O], s4=[O, C, k, k])
    nC += [
        h.make_node("Transpose", ["cols"], ["ct"], perm=[0, 3, 4, 1, 2]),
        h.make_node("Reshape", ["ct", "m1"], ["cm"]),
        h.make_node("Transpose", ["gy"], ["gt"], perm=[0, 2, 3, 1]),
        h.make_node("Reshape", ["gt", "m2"], ["gm"]),
        h.make_node("Gemm", ["gm", "cm"], ["dwm"], transA=1),
        h.make_node("Reshape", ["dwm", "s4"], ["dw"]),
    ]
    # D: the windows (N, C, kk, P) transposed to (C * kk, N * P), gy to (O, N * P): Gemm with transB
    nD = []
    iD = {}
    windows(nD, iD, k, s, p, ho, ho)
    iD.update(m1=[C * k * k, -1], m2=[O, -1], s4=[O, C, k, k])
    nD += [
        h.make_node("Transpose", ["cols"], ["ct"], perm=[1, 2, 0, 3, 4]),
        h.make_node("Reshape", ["ct", "m1"], ["cm"]),
        h.make_node("Transpose", ["gy"], ["gt"], perm=[1, 0, 2, 3]),
        h.make_node("Reshape", ["gt", "m2"], ["gm"]),
        h.make_node("Gemm", ["gm", "cm"], ["dwm"], transB=1),
        h.make_node("Reshape", ["dwm", "s4"], ["dw"]),
    ]
    nE = [h.make_node("Transpose", ["x"], ["xt"], perm=[1, 0, 2, 3])]
    iE = {}
    windows(nE, iE, k, s, p, ho, ho, src="xt", ax=1)
    iE.update(m1=[C * k * k, -1], m2=[O, -1], s4=[O, C, k, k])
    nE += [
        h.make_node("Reshape", ["cols", "m1"], ["cm"]),
        h.make_node("Transpose", ["gy"], ["gt"], perm=[1, 0, 2, 3]),
        h.make_node("Reshape", ["gt", "m2"], ["gm"]),
        h.make_node("Gemm", ["gm", "cm"], ["dwm"], transB=1),
        h.make_node("Reshape", ["dwm", "s4"], ["dw"]),
    ]
    # F gathered rows: x (N, C H W) -> (C H W, N) -> (C, H W, N) + a zero row; one Gather, (C, kk, P, N);
    # one GEMM
    nF = [
        h.make_node("Reshape", ["x", "n_chw"], ["x2"]),
        h.make_node("Transpose", ["x2"], ["xt"], perm=[1, 0]),
        h.make_node("Reshape", ["xt", "c_hw_n"], ["x3"]),
        h.make_node("Pad", ["x3", "zero_row"], ["xz"]),
        h.make_node("Gather", ["xz", "rows"], ["win"], axis=1),
        h.make_node("Reshape", ["win", "ckk_pn"], ["cm"]),
        h.make_node("Reshape", ["gy", "n_op"], ["g2"]),
        h.make_node("Transpose", ["g2"], ["gt"], perm=[1, 0]),
        h.make_node("Reshape", ["gt", "o_pn"], ["gm"]),
        h.make_node("Gemm", ["gm", "cm"], ["dwm"], transB=1),
        h.make_node("Reshape", ["dwm", "s4"], ["dw"]),
    ]
    iF = dict(n_chw=[N, C * H * H], c_hw_n=[C, H * H, N], zero_row=[0, 0, 0, 0, 1, 0],
              rows=_tap_rows((H, H), (k, k), (s, s), (p,) * 4, (1, 1), (ho, ho)),
              ckk_pn=[C * k * k, P * N], n_op=[N, O * P], o_pn=[O, P * N], s4=[O, C, k, k])
    S = {
        n: sess(nd, ii, x, gy)
        for n, nd, ii in [
            ("A swapped conv", nA, iA),
            ("B bmm+sum", nB, iB),
            ("C gemm NHWC", nC, iC),
            ("D gemm CN", nD, iD),
            ("E CN windows", nE, iE),
            ("F gathered rows", nF, iF),
        ]
    }
    ref = S["A swapped conv"].run(None, {"x": x, "gy": gy})[0]
    for n, se in S.items():
        r = se.run(None, {"x": x, "gy": gy})[0]
        assert np.allclose(r, ref, rtol=1e-3, atol=1e-2 * np.abs(ref).max()), n
    t = {n: [] for n in S}
    reps = max(2, int(3e8 / (N * C * H * H * k * k * O)))
    for r in range(6):
        for n, se in S.items() if r % 2 == 0 else list(S.items())[::-1]:
            time.sleep(0.05)
            a = time.perf_counter()
            for _ in range(reps):
                se.run(None, {"x": x, "gy": gy})
            t[n].append((time.perf_counter() - a) / reps)
    b = np.median(t["A swapped conv"])
    print(
        (N, C, H, O, k, s, p),
        " ".join(f"{n}: {np.median(v) * 1e3:.2f}ms {np.median(v) / b:.2f}x |" for n, v in t.items()),
        flush=True,
    )
