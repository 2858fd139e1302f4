"""Where the traced training step's time goes in onnxruntime: the graph's node counts by op type, and the
profiler's (SessionOptions.enable_profiling) kernel time summed by op type over the timed steps.

    .venv/bin/python bench/step_graph_profile.py [--models lenet5 resnet18 transformer] [--threads 2]
        [--steps 10] [--top 12] [--save DIR]

``--save`` writes each step graph as DIR/<model>_step.onnx.
"""
from __future__ import annotations

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402

import onnx  # noqa: E402
from step_models import MODELS, build  # noqa: E402
from traced_step import OrtStep, trace_step  # noqa: E402


def kernel_times(path: str, skip_runs: int) -> dict[str, float]:
    """Microseconds per op type, summed over the profiled runs after the first ``skip_runs``."""
    with open(path) as f:
        events = json.load(f)
    runs = sorted(e["ts"] for e in events if e.get("cat") == "Session" and e["name"] == "model_run")
    start = runs[skip_runs] if len(runs) > skip_runs else 0
    out: dict[str, float] = defaultdict(float)
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time") and e["ts"] >= start:
            out[e["args"]["op_name"]] += e["dur"]
    return out


def profile(name: str, steps: int, top: int, save: str | None) -> None:
    net, loss, inputs = build(name)
    t0 = time.perf_counter()
    model, names = trace_step(net, loss, inputs)
    traced = time.perf_counter() - t0
    if save:
        os.makedirs(save, exist_ok=True)
        onnx.save(model, os.path.join(save, f"{name}_step.onnx"))
    counts = Counter(n.op_type for n in model.graph.node)
    values = {n: p.asnumpy() for n, p in net.parameters_and_names()}
    prefix = os.path.join(tempfile.mkdtemp(prefix="cellonnx_profile_"), name)
    step = OrtStep(model, names, inputs, values, THREADS, profile=prefix)
    warm = 3
    for _ in range(warm):
        step()
    t = time.perf_counter()
    for _ in range(steps):
        step()
    per_step = (time.perf_counter() - t) / steps * 1e3
    times = kernel_times(step.end_profiling(), warm)
    total = sum(times.values()) / steps / 1e3
    print(f"\n{name}: {len(model.graph.node)} nodes (traced in {traced:.1f} s), {per_step:.2f} ms/step "
          f"profiled, kernels {total:.2f} ms/step, {THREADS} thread(s)")
    print("  nodes: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    print(f"  {'op type':24s} {'nodes':>5s} {'ms/step':>8s} {'share':>6s}")
    for op, us in sorted(times.items(), key=lambda kv: -kv[1])[:top]:
        ms_step = us / steps / 1e3
        print(f"  {op:24s} {counts.get(op, 0):5d} {ms_step:8.2f} {ms_step / total:6.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=MODELS)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--save", default=None)
    args = parser.parse_args()
    for name in args.models:
        profile(name, args.steps, args.top, args.save)


if __name__ == "__main__":
    main()
