"""The forward conv of a training graph at LeNet-5's and ResNet-18's layer shapes, side by side in blocks:
onnxruntime's Conv (one im2col + GEMM per image) against one GEMM of the weight by the windows of the whole
batch gathered in one node from the input made channel-major and batch-last, (C, H * W, N)
(cellonnx/ops/prims/conv_gemm.py ``conv_by_gemm``, used up to FORWARD_GEMM_PIXELS output pixels).
Results in bench/RESULTS.md.

    python bench/conv_forward_forms.py [threads]
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


def i64(v):
    return np.array(v, np.int64)


def sess(nodes, inits, feeds):
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info(n, T.FLOAT, a.shape) for n, a in feeds.items()],
                     [h.make_tensor_value_info("y", T.FLOAT, None)],
                     [nh.from_array(v, n) for n, v in inits.items()])
    o = ort.SessionOptions()
    o.intra_op_num_threads = THREADS
    model = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    return ort.InferenceSession(model.SerializeToString(), o, providers=["CPUExecutionProvider"])


for N, C, H, O, k, s, p in [  # noqa: E741
                            (32, 3, 32, 64, 7, 2, 3), (64, 1, 32, 6, 5, 1, 0), (64, 6, 14, 16, 5, 1, 0),
                            (32, 64, 8, 64, 3, 1, 1), (32, 64, 8, 128, 3, 2, 1), (32, 128, 4, 128, 3, 1, 1),
                            (32, 128, 4, 256, 3, 2, 1), (32, 256, 2, 256, 3, 1, 1)]:
    ho = (H + 2 * p - k) // s + 1
    P = ho * ho
    rng = np.random.default_rng(0)
    feeds = {"x": rng.random((N, C, H, H), dtype=np.float32), "w": rng.random((O, C, k, k), dtype=np.float32)}
    conv = [h.make_node("Conv", ["x", "w"], ["y"], pads=[p] * 4, strides=[s, s])]
    inits = dict(n_chw=i64([N, C * H * H]), c_hw_n=i64([C, H * H, N]), zero_row=i64([0, 0, 0, 0, 1, 0]),
                 rows=_tap_rows((H, H), (k, k), (s, s), (p,) * 4, (1, 1), (ho, ho)),
                 ckk_pn=i64([C * k * k, P * N]), wm=i64([O, C * k * k]),
                 op_n=i64([O * P, N]), nopp=i64([N, O, ho, ho]))
    gathered = [h.make_node("Reshape", ["x", "n_chw"], ["x2"]),
                h.make_node("Transpose", ["x2"], ["xt"], perm=[1, 0]),
                h.make_node("Reshape", ["xt", "c_hw_n"], ["x3"]),
                h.make_node("Pad", ["x3", "zero_row"], ["xp"]),
                h.make_node("Gather", ["xp", "rows"], ["win"], axis=1),
                h.make_node("Reshape", ["win", "ckk_pn"], ["cols"]),
                h.make_node("Reshape", ["w", "wm"], ["w2"]),
                h.make_node("Gemm", ["w2", "cols"], ["y2"]),
                h.make_node("Reshape", ["y2", "op_n"], ["y3"]),
                h.make_node("Transpose", ["y3"], ["y4"], perm=[1, 0]),
                h.make_node("Reshape", ["y4", "nopp"], ["y"])]
    S = {"Conv": sess(conv, {}, feeds), "gathered GEMM": sess(gathered, inits, feeds)}
    want = S["Conv"].run(None, feeds)[0]
    got = S["gathered GEMM"].run(None, feeds)[0]
    assert np.allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
    t = {n: [] for n in S}
    reps = max(3, int(2e8 / (N * C * P * k * k * O)))
    for r in range(8):
        for n, se in (S.items() if r % 2 == 0 else list(S.items())[::-1]):
            time.sleep(0.05)
            a = time.perf_counter()
            for _ in range(reps):
                se.run(None, feeds)
            t[n].append((time.perf_counter() - a) / reps)
    base = np.median(t["Conv"])
    print((N, C, H, O, k, s, p), " | ".join(f"{n}: {np.median(v) * 1e3:.3f} ms {np.median(v) / base:.2f}x"
                                            for n, v in t.items()), flush=True)
