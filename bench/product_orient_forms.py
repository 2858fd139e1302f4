"""A Dense weight gradient's two orientations in onnxruntime (cellonnx/graph/product_orient.py): ``(x^T @
dy)^T`` (the traced form: the product, then a transposing copy) against ``dy^T @ x`` (written straight in the
weight's layout), for x (rows, IN) and dy (rows, OUT), timed side by side in blocks with pauses.

    .venv/bin/python bench/product_orient_forms.py [--threads 1] [--rows 4096] [--rounds 8]
"""
from __future__ import annotations

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv(default=1)

import argparse  # noqa: E402
import statistics  # noqa: E402

import numpy as np  # noqa: E402
import onnxruntime as ort  # noqa: E402
from blocks import in_blocks, timed  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

SHAPES = ((128, 512), (512, 128), (128, 128))   # (IN, OUT): the BERT-tiny FFN's two weights, a square one


def model(form: str, rows: int, cin: int, cout: int) -> bytes:
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, cin]),
              helper.make_tensor_value_info("dy", TensorProto.FLOAT, [rows, cout])]
    if form == "(x^T dy)^T":
        nodes = [helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
                 helper.make_node("MatMul", ["xt", "dy"], ["p"]),
                 helper.make_node("Transpose", ["p"], ["y"], perm=[1, 0])]
    else:
        nodes = [helper.make_node("Transpose", ["dy"], ["dyt"], perm=[1, 0]),
                 helper.make_node("MatMul", ["dyt", "x"], ["y"])]
    output = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph(nodes, "g", inputs, [output])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def _side(sess: ort.InferenceSession, feeds: dict):
    return lambda k: timed(lambda: sess.run(None, feeds), k)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = THREADS
    rng = np.random.default_rng(0)
    print(f"{args.rows} rows, {THREADS} thread(s); median ms per product")
    for cin, cout in SHAPES:
        feeds = {"x": rng.standard_normal((args.rows, cin)).astype(np.float32),
                 "dy": rng.standard_normal((args.rows, cout)).astype(np.float32)}
        sessions = {f: ort.InferenceSession(model(f, args.rows, cin, cout), opts,
                                            providers=["CPUExecutionProvider"])
                    for f in ("(x^T dy)^T", "dy^T x")}
        got = {f: s.run(None, feeds)[0] for f, s in sessions.items()}
        np.testing.assert_allclose(*got.values(), rtol=1e-4, atol=1e-3)
        sides = {f: _side(s, feeds) for f, s in sessions.items()}
        med = {f: statistics.median(v) * 1e3 for f, v in in_blocks(sides, args.rounds, 5).items()}
        a, b = med.values()
        print(f"  weight ({cout}, {cin}): (x^T dy)^T {a:.2f}, dy^T x {b:.2f}, straight / traced {b / a:.2f}x")


if __name__ == "__main__":
    main()
