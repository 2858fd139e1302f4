"""Where the compiled training step's time goes (GRAPH_MODE TrainOneStepCell with SGD, graph/train.py):
the step graph's node counts by op type, and onnxruntime's profiler kernel time by op type (and, with
``--nodes``, the slowest single nodes) over the timed steps, the state bound in place as the compiled step
binds it.

    .venv/bin/python bench/compiled_step_profile.py [--models lenet5 resnet18 transformer] [--threads 1]
        [--steps 10] [--top 12] [--nodes 0] [--save DIR]

``--save`` writes each step graph as DIR/<model>_compiled_step.onnx. Kernel times on a loaded machine are
only good as shares of the step and as before / after ratios in one run.
"""
from __future__ import annotations

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv(default=1)

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402

import onnx  # noqa: E402
import onnxruntime as ort  # noqa: E402
from step_models import MODELS, WithLoss, build  # noqa: E402

import cellonnx as ms  # noqa: E402
from cellonnx import nn  # noqa: E402
from cellonnx.graph.compile import serialize  # noqa: E402
from cellonnx.graph.train import compiled_steps  # noqa: E402
from cellonnx.tensor import Tensor  # noqa: E402


def kernel_events(path: str, skip_runs: int) -> list[dict]:
    """The profiler's node kernel events after the first ``skip_runs`` runs."""
    with open(path) as f:
        events = json.load(f)
    runs = sorted(e["ts"] for e in events if e.get("cat") == "Session" and e["name"] == "model_run")
    start = runs[skip_runs] if len(runs) > skip_runs else 0
    return [e for e in events
            if e.get("cat") == "Node" and e["name"].endswith("_kernel_time") and e["ts"] >= start]


def compiled_train_step(name: str) -> tuple[object, list[Tensor]]:
    """The GRAPH_MODE TrainOneStepCell of ``name`` after its first (compiling) call, and its batch."""
    net, loss, batch = build(name)
    train = nn.TrainOneStepCell(WithLoss(net, loss), nn.SGD(net.trainable_params(), learning_rate=0.01))
    train.set_train()
    ms.set_context(mode=ms.GRAPH_MODE, intra_op_num_threads=THREADS)
    args = [Tensor(a) for a in batch]
    train(*args)
    (compiled,) = compiled_steps(train)
    return compiled, args


def profiled(compiled: object, prefix: str) -> None:
    """Swap the compiled step's session for one that profiles (same model, threads and options)."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = THREADS
    opts.log_severity_level = 3
    opts.enable_profiling = True
    opts.profile_file_prefix = prefix
    compiled.session._sess = ort.InferenceSession(serialize(compiled.step.session_model), opts,
                                                  providers=["CPUExecutionProvider"])
    compiled.unbind()   # the step's buffers were bound to the first session


def profile(name: str, steps: int, top: int, nodes: int, save: str | None) -> None:
    t0 = time.perf_counter()
    compiled, args = compiled_train_step(name)
    traced = time.perf_counter() - t0
    model = compiled.step.session_model
    if save:
        os.makedirs(save, exist_ok=True)
        onnx.save(model, os.path.join(save, f"{name}_compiled_step.onnx"))
    counts = Counter(n.op_type for n in model.graph.node)
    profiled(compiled, os.path.join(tempfile.mkdtemp(prefix="cellonnx_profile_"), name))
    warm = 3
    for _ in range(warm):
        compiled(*args)
    t = time.perf_counter()
    for _ in range(steps):
        compiled(*args)
    per_step = (time.perf_counter() - t) / steps * 1e3
    events = kernel_events(compiled.session.inner.end_profiling(), warm)
    by_op: dict[str, float] = defaultdict(float)
    by_node: dict[tuple[str, str], float] = defaultdict(float)
    for e in events:
        by_op[e["args"]["op_name"]] += e["dur"]
        by_node[(e["args"]["op_name"], e["name"][:-len("_kernel_time")])] += e["dur"]
    total = sum(by_op.values()) / steps / 1e3
    print(f"\n{name}: {len(model.graph.node)} nodes (compiled in {traced:.1f} s), {per_step:.2f} ms/step "
          f"profiled, kernels {total:.2f} ms/step, {THREADS} thread(s)")
    print("  nodes: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    print(f"  {'op type':24s} {'nodes':>5s} {'ms/step':>8s} {'share':>6s}")
    for op, us in sorted(by_op.items(), key=lambda kv: -kv[1])[:top]:
        ms_step = us / steps / 1e3
        print(f"  {op:24s} {counts.get(op, 0):5d} {ms_step:8.2f} {ms_step / total:6.1%}")
    if nodes:
        print("  slowest nodes:")
        for (op, node), us in sorted(by_node.items(), key=lambda kv: -kv[1])[:nodes]:
            ms_step = us / steps / 1e3
            print(f"    {op:20s} {ms_step:8.3f} {ms_step / total:6.1%}  {node}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=MODELS)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--nodes", type=int, default=0, help="also list the N slowest nodes")
    parser.add_argument("--save", default=None)
    args = parser.parse_args()
    for name in args.models:
        profile(name, args.steps, args.top, args.nodes, args.save)


if __name__ == "__main__":
    main()
