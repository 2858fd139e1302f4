"""One nn.thor training step of the zoo's LeNet-5 (batch 64, 1x32x32; THOR layers: conv 25 and 150 wide, fc
400, 120 and 84, so A factors of up to four 128-blocks), eager against compiled (GRAPH_MODE), in one process:
THOR steps (statistics recorded, every damped factor inverted through ops.cholesky / ops.inverse) and
first-order steps (the kept inverses reused), each side in blocks with a pause before every block
(bench/blocks.py), the order alternating by round.

    .venv/bin/python bench/thor_step.py [--threads 1] [--rounds 5] [--steps 3] [--clock wall|cpu]
                                        [--block N] [--per-layer]

``--clock cpu`` times the calling thread's CPU time (with one thread all the work runs there, and the load of
other processes on a shared machine does not count). The forms compared in bench/RESULTS.md: ``--block N``
sets the columns per diagonal block of the Cholesky lowering (0: one Loop over all the columns),
``--per-layer`` has the compiled THOR step factor each layer's A and G by its own call, as eagerly, where
it factors all the layers' blocks by one.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    ap.add_argument("--block", type=int, default=None)
    ap.add_argument("--per-layer", action="store_true")
    args = ap.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    sys.path.insert(0, HERE)
    import time

    import numpy as np
    from blocks import in_blocks, timed
    from step_models import WithLoss, build

    import cellonnx as ms
    from cellonnx import Tensor, nn

    ms.set_context(intra_op_num_threads=args.threads)
    if args.block is not None:
        from cellonnx.ops.prims import decomp_loops
        decomp_loops.BLOCK = args.block
    if args.per_layer:
        import types
        thor = sys.modules["cellonnx.nn.optim.thor"]
        thor._cell = types.SimpleNamespace(_TRACING=[])   # the traced step takes the eager path's calls
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    batch = []
    sides = {}
    for mode, label in ((ms.PYNATIVE_MODE, "eager"), (ms.GRAPH_MODE, "compiled")):
        net, loss, arrays = build("lenet5")
        batch = [Tensor(a) for a in arrays]
        n = 10 ** 6
        opt = nn.thor(net, Tensor(np.full(n, 0.01, np.float32)), Tensor(np.full(n, 0.03, np.float32)), 0.9,
                      batch_size=arrays[0].shape[0], frequency=2)
        step = nn.TrainOneStepCell(WithLoss(net, loss), opt)
        step.set_train()
        for thor in (True, False):
            def run(k: int, step=step, thor=thor, mode=mode, batch=batch) -> list[float]:
                ms.set_context(mode=mode)
                step.add_flags_recursive(thor=thor)
                try:
                    return timed(lambda: step(*batch), k, clock)
                finally:
                    ms.set_context(mode=ms.PYNATIVE_MODE)
            run(2)   # warm-up (the compiled side traces and compiles here)
            sides[f"{label} {'THOR' if thor else 'first-order'}"] = run
    times = in_blocks(sides, args.rounds, args.steps)
    print(f"threads {args.threads}, {args.rounds} rounds of {args.steps} steps per side; {args.clock} ms: "
          "best (median)")
    for kind in ("THOR", "first-order"):
        e, c = times[f"eager {kind}"], times[f"compiled {kind}"]
        print(f"{kind:12s} eager {min(e) * 1e3:7.1f} ({statistics.median(e) * 1e3:7.1f})  compiled "
              f"{min(c) * 1e3:7.1f} ({statistics.median(c) * 1e3:7.1f})  ratio "
              f"{min(c) / min(e):.2f}x ({statistics.median(c) / statistics.median(e):.2f}x)")


if __name__ == "__main__":
    main()
