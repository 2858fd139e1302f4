"""Batch norm's per-channel sum over (N, H, W) in onnxruntime, as one ReduceSum and split the way
cellonnx/graph/long_sums.py splits it (the last axis first, then the rest): error against float64, beside
NumPy's float32 sum, on values like a backward pass's after a global pool and a ReLU (one value or 0), and the
time of each form, in blocks (bench/blocks.py).

    .venv/bin/python bench/long_sums.py [--rounds 5] [--steps 10]

(onnxruntime's intra-op threads 1 and 2; the script uses no BLAS.)
"""
from __future__ import annotations

import argparse
import statistics

import bench_env  # noqa: F401  first: PYTHONPATH's .pth files
import numpy as np
import onnx
import onnxruntime as ort
from blocks import in_blocks, timed
from onnx import TensorProto, helper, numpy_helper

from cellonnx.graph.long_sums import split_long_reductions

SHAPES = [(2, 16, 112, 112), (32, 32, 112, 112), (32, 64, 56, 56), (64, 16, 28, 28)]


def reduce_sum(shape: tuple, split: bool) -> onnx.ModelProto:
    axes = numpy_helper.from_array(np.array([0, 2, 3], np.int64), "axes")
    graph = helper.make_graph([helper.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=0)], "sum",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [axes])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    if split:
        assert split_long_reductions(model) == 1
    return model


def session(model: onnx.ModelProto, threads: int) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'shape':20s} {'threads':>7s} {'one ReduceSum':>22s} {'split':>22s} {'NumPy':>8s}")
    for shape in SHAPES:
        x = (np.full(shape, 0.389 / 6272) * (rng.random(shape) > 0.5)).astype(np.float32)
        exact = x.astype(np.float64).sum((0, 2, 3))
        numpy_err = float(np.max(np.abs(x.sum((0, 2, 3)) - exact) / exact))
        for threads in (1, 2):
            sides = {name: session(reduce_sum(shape, name == "split"), threads) for name in ("one", "split")}
            feeds = {"x": x}
            errs = {k: float(np.max(np.abs(s.run(None, feeds)[0] - exact) / exact)) for k, s in sides.items()}
            times = in_blocks({k: (lambda n, s=s, f=feeds: timed(lambda: s.run(None, f), n))
                               for k, s in sides.items()}, args.rounds, args.steps)
            ms = {k: statistics.median(v) * 1e3 for k, v in times.items()}
            cells = [f"{ms[k]:6.3f} ms, err {errs[k]:.1e}" for k in ("one", "split")]
            print(f"{shape!s:20s} {threads:7d} {cells[0]:>22s} {cells[1]:>22s} {numpy_err:8.1e}  "
                  f"split / one {ms['split'] / ms['one']:.2f}")


if __name__ == "__main__":
    main()
