"""The ONNX lowering of THOR's ``ops.inverse(ops.cholesky(x))`` (cellonnx/ops/prims/decomp_loops.py) alone,
run by onnxruntime at 1 thread: one Loop over all n columns (block 0) against the blocked factorization in
blocks of 16 / 32 / 64 columns, on batches of SPD blocks of THOR's size (128); NumPy's LAPACK (float64, the
eager op's work) beside them. CPU time of the calling thread per run, the forms in blocks with a pause before
each (bench/blocks.py), the order alternating by round.

    .venv/bin/python bench/cholesky_blocks.py [--rounds 7] [--steps 5] [--blocks 0,16,32,64]
                                              [--sizes 1x128,4x128,14x128]
"""
from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--blocks", default="0,16,32,64")
    ap.add_argument("--sizes", default="1x128,4x128,14x128")
    args = ap.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    sys.path.insert(0, HERE)
    import time

    import numpy as np
    import onnxruntime as ort
    from blocks import in_blocks, timed

    from cellonnx import Tensor, ops
    from cellonnx.graph.trace import trace
    from cellonnx.ops.prims import decomp_loops

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = opts.inter_op_num_threads = 1
    print(f"CPU ms per inverse(cholesky(x)), 1 thread, best of {args.rounds} x {args.steps}")
    print(f"{'batch x n':10s}" + "".join(f"{'loop' if b == '0' else 'block ' + b:>10s}" for b in
                                        args.blocks.split(",")) + f"{'NumPy':>10s}")
    for size in args.sizes.split(","):
        batch, n = (int(v) for v in size.split("x"))
        rng = np.random.default_rng(0)
        q, _ = np.linalg.qr(rng.standard_normal((batch, n, n)))
        x = ((q * np.logspace(0, -3, n)) @ np.swapaxes(q, -1, -2)).astype(np.float32)
        sides = {}
        for block in args.blocks.split(","):
            decomp_loops.BLOCK = int(block)
            g, _ = trace(lambda t: ops.inverse(ops.cholesky(t)), [("x", Tensor(x), list(x.shape))], opset=18,
                         name="thor_blocks")
            sess = ort.InferenceSession(g.model().SerializeToString(), opts,
                                        providers=["CPUExecutionProvider"])
            got = sess.run(None, {"x": x})[0]
            want = np.linalg.inv(np.linalg.cholesky(x.astype(np.float64)))
            err = np.abs(got - want).max() / np.abs(want).max()
            assert err < 1e-5, (size, block, err)
            feed = {"x": x}
            sides[block] = lambda k, sess=sess, feed=feed: timed(lambda: sess.run(None, feed), k,
                                                                 time.thread_time)
        wide = x.astype(np.float64)
        sides["numpy"] = lambda k, wide=wide: timed(lambda: np.linalg.inv(np.linalg.cholesky(wide)), k,
                                                    time.thread_time)
        times = in_blocks(sides, args.rounds, args.steps)
        print(f"{size:10s}" + "".join(f"{min(t) * 1e3:10.2f}" for t in times.values()))


if __name__ == "__main__":
    main()
