"""Why ``gluon.Trainer.step`` stays eager on the CPU: SGD with momentum and weight decay over a
ResNet-18-sized set of parameters (12.5 M float32), as the NumPy update gluon's optimizer runs, against the
same update as one ONNX graph run by onnxruntime on the same NumPy arrays (the parameters are NumPy arrays
between steps, since the eager loss and the hybridized block's graphs read them), in blocks of steps with
pauses (bench/blocks.py).

    .venv/bin/python bench/gluon_update_graph.py [--rounds 4] [--steps 3] [--threads 2]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blocks import in_blocks, timed

SHAPES = [(512, 512, 3, 3)] * 4 + [(256, 256, 3, 3)] * 4 + [(128, 128, 3, 3)] * 4 + [(64, 64, 3, 3)] * 4 \
    + [(512,)] * 20
LR, MOM, WD, RESCALE = 0.1, 0.9, 1e-4, 1 / 32


def update_graph(threads: int) -> ort.InferenceSession:
    f = TensorProto.FLOAT
    nodes, ins, outs = [], [], []
    for i, s in enumerate(SHAPES):
        ins += [helper.make_tensor_value_info(f"{k}{i}", f, s) for k in "wgm"]
        nodes += [helper.make_node("Mul", [f"g{i}", "rescale"], [f"a{i}"]),
                  helper.make_node("Mul", [f"w{i}", "wd"], [f"b{i}"]),
                  helper.make_node("Add", [f"a{i}", f"b{i}"], [f"d{i}"]),
                  helper.make_node("Mul", [f"m{i}", "momentum"], [f"c{i}"]),
                  helper.make_node("Mul", [f"d{i}", "lr"], [f"e{i}"]),
                  helper.make_node("Sub", [f"c{i}", f"e{i}"], [f"m{i}.new"]),
                  helper.make_node("Add", [f"w{i}", f"m{i}.new"], [f"w{i}.new"])]
        outs += [helper.make_tensor_value_info(f"{k}{i}.new", f, s) for k in "wm"]
    ins += [helper.make_tensor_value_info(k, f, []) for k in ("rescale", "wd", "momentum", "lr")]
    model = helper.make_model(helper.make_graph(nodes, "sgd_update", ins, outs),
                              opset_imports=[helper.make_opsetid("", 17)])
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    weights = [rng.normal(size=s).astype(np.float32) for s in SHAPES]
    grads = [w * np.float32(0.01) for w in weights]
    slots = [np.zeros_like(w) for w in weights]
    f32 = np.float32

    def numpy_step() -> None:   # what gluon.optimizer.SGD.update does per parameter
        for i, w in enumerate(weights):
            g = grads[i] * f32(RESCALE) + f32(WD) * w
            slots[i][...] = f32(MOM) * slots[i] - f32(LR) * g
            weights[i] = w + slots[i]

    sess = update_graph(args.threads)
    scalars = {k: np.array(v, np.float32) for k, v in
               (("rescale", RESCALE), ("wd", WD), ("momentum", MOM), ("lr", LR))}

    def graph_step() -> None:
        feeds = dict(scalars)
        for i in range(len(SHAPES)):
            feeds[f"w{i}"], feeds[f"g{i}"], feeds[f"m{i}"] = weights[i], grads[i], slots[i]
        out = sess.run(None, feeds)
        for i in range(len(SHAPES)):
            weights[i], slots[i] = out[2 * i], out[2 * i + 1]

    for fn in (numpy_step, graph_step):
        fn()
    sides = {"numpy": lambda n: timed(numpy_step, n), "onnxruntime": lambda n: timed(graph_step, n)}
    times = in_blocks(sides, args.rounds, args.steps)
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    count = sum(int(np.prod(s)) for s in SHAPES)
    for k, v in med.items():
        print(f"{k:>12}: median {v:7.1f} ms per update of {count / 1e6:.1f} M parameters")
    print(f"onnxruntime / numpy: {med['onnxruntime'] / med['numpy']:.2f}")


if __name__ == "__main__":
    main()
