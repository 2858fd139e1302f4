"""A GRAPH_MODE loop that makes its gradient function anew every step (``ms.value_and_grad(forward, None,
params)(x, y)``), against one made once, and against one made over a new function object every step (a new
lambda: nothing to share, so each call traces and compiles again, what every remade gradient function cost
before gradient functions made alike shared their graph). The zoo's LeNet-5, batch 64, in blocks.

    .venv/bin/python bench/grad_fn_remade.py [--threads 1] [--rounds 3] [--steps 5]
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
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=5)
    args = ap.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    sys.path.insert(0, HERE)
    from blocks import in_blocks, timed
    from step_models import build

    import cellonnx as ms
    from cellonnx import Tensor

    ms.set_context(mode=ms.GRAPH_MODE, intra_op_num_threads=args.threads)
    net, loss, arrays = build("lenet5")
    x, y = (Tensor(a) for a in arrays)

    def forward(x: Tensor, y: Tensor) -> Tensor:
        return loss(net(x), y)

    params = net.trainable_params()
    made_once = ms.value_and_grad(forward, None, params)
    sides = {
        "made once": lambda n: timed(lambda: made_once(x, y), n),
        "made anew, same function": lambda n: timed(
            lambda: ms.value_and_grad(forward, None, params)(x, y), n),
        "made anew, new function": lambda n: timed(
            lambda: ms.value_and_grad(lambda a, b: forward(a, b), None, params)(x, y), n),
    }
    for side in sides.values():   # compile outside the timing
        side(1)
    times = in_blocks(sides, args.rounds, args.steps)
    print(f"threads {args.threads}, {args.rounds} rounds of {args.steps} calls per side; "
          "ms a call: best (median)")
    base = min(times["made once"])
    for name, t in times.items():
        print(f"{name:26s} {1e3 * min(t):8.1f} ({1e3 * statistics.median(t):8.1f})  {min(t) / base:6.2f}x")


if __name__ == "__main__":
    main()
