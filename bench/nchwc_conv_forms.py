"""One Conv (a training graph's forward) or ConvTranspose (a conv's input gradient) with the weight a graph
input, at LeNet-5's and ResNet-18's layer shapes: onnxruntime's own kernel against the same node rewritten by
cellonnx/graph/nchwc_convs.py into the NCHWc kernels (weight reorder, ReorderInput where the input has whole
channel blocks, Conv, ReorderOutput), timed side by side in blocks (bench/blocks.py); also the rewritten
node's largest difference from a float64 NumPy reference beside the original's. Results in bench/RESULTS.md.

    .venv/bin/python bench/nchwc_conv_forms.py [--threads 1] [--rounds 20]

Rows the pass leaves alone (1 x 1 kernels, 16 output pixels or fewer, pads other than 'same' for the
ConvTranspose) are timed too, with the rewrite forced, to show why.
"""
from __future__ import annotations

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv(default=1)

import argparse  # noqa: E402
import copy  # noqa: E402
import statistics  # noqa: E402

import numpy as np  # noqa: E402
import onnx  # noqa: E402
import onnxruntime as ort  # noqa: E402
from blocks import in_blocks, timed  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

from cellonnx.graph import nchwc_convs  # noqa: E402

# (label, op, x shape, w shape, pads, stride)
ROWS = [
    ("LeNet conv1", "Conv", (64, 1, 32, 32), (6, 1, 5, 5), 0, 1),
    ("LeNet conv2", "Conv", (64, 6, 14, 14), (16, 6, 5, 5), 0, 1),
    ("ResNet stem 7x7/2", "Conv", (32, 3, 32, 32), (64, 3, 7, 7), 3, 2),
    ("ResNet layer1 3x3", "Conv", (32, 64, 8, 8), (64, 64, 3, 3), 1, 1),
    ("ResNet layer2.0 3x3/2 (16 px)", "Conv", (32, 64, 8, 8), (128, 64, 3, 3), 1, 2),
    ("ResNet layer2 3x3 (16 px)", "Conv", (32, 128, 4, 4), (128, 128, 3, 3), 1, 1),
    ("ResNet 1x1/2 shortcut", "Conv", (32, 64, 8, 8), (128, 64, 1, 1), 0, 2),
    ("LeNet conv2 input grad (valid)", "ConvTranspose", (64, 16, 10, 10), (16, 6, 5, 5), 0, 1),
    ("ResNet layer1 input grad", "ConvTranspose", (32, 64, 8, 8), (64, 64, 3, 3), 1, 1),
]


def model(op: str, x: tuple, w: tuple, pads: int, stride: int) -> onnx.ModelProto:
    node = helper.make_node(op, ["x", "w"], ["y"], pads=[pads] * 4, strides=[stride] * 2)
    graph = helper.make_graph([node], "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x),
                                                helper.make_tensor_value_info("w", TensorProto.FLOAT, w)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def session(m: onnx.ModelProto) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = THREADS
    opts.log_severity_level = 3
    return ort.InferenceSession(m.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def reference(op: str, x: np.ndarray, w: np.ndarray, pads: int, stride: int) -> np.ndarray:
    """float64 correlation (Conv) or its adjoint (ConvTranspose, stride 1) by kernel taps."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    k = w.shape[2]
    if op == "ConvTranspose":   # the full correlation with the kernel turned, channels swapped
        w, pads = np.flip(w, (2, 3)).transpose(1, 0, 2, 3), k - 1 - pads
    xp = np.pad(x, ((0, 0), (0, 0), (pads, pads), (pads, pads)))
    out = (xp.shape[2] - k) // stride + 1
    y = np.zeros((x.shape[0], w.shape[0], out, out))
    for i in range(k):
        for j in range(k):
            win = xp[:, :, i:i + stride * out:stride, j:j + stride * out:stride]
            y += np.einsum("nchw,oc->nohw", win, w[:, :, i, j])
    return y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    b = nchwc_convs.block_size()
    if not b:
        raise SystemExit("this onnxruntime has no NCHWc kernels")
    print(f"block size {b}, {THREADS} thread(s); ms per call, median of {args.rounds} blocks of 10")
    print("| layer | op | rewritten by the pass | onnxruntime | NCHWc | ratio | error (scale-relative) "
          "onnxruntime / NCHWc |")
    print("|---|---|---|---|---|---|---|")
    rng = np.random.default_rng(0)
    for label, op, xs, ws, pads, stride in ROWS:
        base = model(op, xs, ws, pads, stride)
        blocked = copy.deepcopy(base)
        chosen = nchwc_convs.use_nchwc_convs(copy.deepcopy(base)) > 0
        saved = nchwc_convs.MIN_OUTPUT_PIXELS, nchwc_convs._plan
        try:   # the rewrite forced where the pass declines it
            nchwc_convs.MIN_OUTPUT_PIXELS = 0
            if not chosen and op == "ConvTranspose":
                nchwc_convs._plan = _forced_transpose_plan(saved[1])
            nchwc_convs.use_nchwc_convs(blocked)
        finally:
            nchwc_convs.MIN_OUTPUT_PIXELS, nchwc_convs._plan = saved
        feeds = {"x": rng.standard_normal(xs).astype(np.float32),
                 "w": rng.standard_normal(ws).astype(np.float32)}
        sessions = {"ort": session(base), "nchwc": session(blocked)}
        want = reference(op, feeds["x"], feeds["w"], pads, stride)
        scale = np.abs(want).max()
        errs = {k: np.abs(s.run(None, feeds)[0] - want).max() / scale for k, s in sessions.items()}
        times = in_blocks({k: (lambda n, s=s, f=feeds: timed(lambda: s.run(None, f), n))
                           for k, s in sessions.items()}, args.rounds, 10)
        med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
        print(f"| {label} {xs} x {ws} | {op} | {'yes' if chosen else 'no'} | {med['ort']:.3f} | "
              f"{med['nchwc']:.3f} | {med['nchwc'] / med['ort']:.2f} | "
              f"{errs['ort']:.1e} / {errs['nchwc']:.1e} |",
              flush=True)


def _forced_transpose_plan(plan):
    """The pass's plan with a ConvTranspose's pads taken as 'same' (the padded gradient then needs pads
    k - 1 - p, written into the plan)."""
    def forced(node, shapes, types, consts, b, batch=None):
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        k = shapes[node.input[1]][2]
        p = attrs.get("pads", [0] * 4)[0]
        same = copy.deepcopy(node)
        del same.attribute[:]
        same.attribute.extend([helper.make_attribute("pads", [(k - 1) // 2] * 4)])
        got = plan(same, shapes, types, consts, b, batch)
        if got is None:
            return None
        c_in, c_out, kernel, _, strides, dilations, flipped = got
        return c_in, c_out, kernel, [k - 1 - p] * 4, strides, dilations, flipped
    return forced


if __name__ == "__main__":
    main()
