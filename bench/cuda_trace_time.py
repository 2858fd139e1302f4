"""How long tracing a compiled training step for CUDA takes (trace, graph optimisation; no session), on a
machine without a GPU: the step is traced as `device_target="GPU"` would trace it.

    python bench/cuda_trace_time.py [--model transformer] [--batch 64] [--dropout 0.1]

The model and batch are bench/gpu_step_profile.py's. Dropout's counters once made this minutes long at batch
64 (ONNX shape inference followed each of their values); see bench/RESULTS.md "Dropout on CUDA".
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_step_profile

from cellonnx.graph import builder, step_trace, train


class _Traced(Exception):
    """Raised where the compiled step would open its onnxruntime session."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="transformer")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--image", type=int, default=224)
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--dropout", type=float, default=0.1)
    args = parser.parse_args()
    args.device, args.tf32 = "CPU", False
    builder.targets_gpu = step_trace.targets_gpu = lambda: True

    def no_session(*_: object, **__: object) -> None:
        raise _Traced

    train.Session = no_session
    step, batch = gpu_step_profile.build_step(args)
    t = time.perf_counter()
    try:
        step(*batch)
    except _Traced:
        pass
    print(f"{args.model}, batch {args.batch}, dropout {args.dropout}: traced for CUDA in "
          f"{time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
