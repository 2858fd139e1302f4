"""How the compiled training step scales from 1 to 2 threads, and which onnxruntime session settings help:
the GRAPH_MODE TrainOneStepCell step (bench/compiled_step_profile.py) run by one session per setting on the
same graph and state, timed side by side in blocks with pauses (bench/blocks.py), then each setting
profiled (kernel time by op type from each node's median over the profiled steps, the sum of kernel times,
and the step's time outside the kernels).

    .venv/bin/python bench/step_threads.py --models lenet5 resnet18 [--settings 1 2 2-nospin ...]
        [--rounds 6] [--profile-steps 4]

Settings (``NAME``: session options): ``1`` one intra-op thread; ``2`` two; ``2-nospin`` two, the pool's
threads sleeping between parallel sections instead of spinning (``session.intra_op.allow_spinning`` 0);
``2-block`` two with onnxruntime's dynamic block base 4 (smaller shares of each parallel loop handed out as
threads finish); ``inter`` one intra-op thread per node and the parallel executor with two inter-op
threads (independent nodes, such as a conv's input and weight gradients, at the same time); ``1-nospin``.
The per-op table sets each op type's kernel time under each setting beside the first one's: an op type
whose time does not fall with a second thread runs single-threaded in onnxruntime.
"""
from __future__ import annotations

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv(default=1)

import argparse  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
from collections import defaultdict  # noqa: E402

import onnxruntime as ort  # noqa: E402
from blocks import in_blocks, timed  # noqa: E402
from compiled_step_profile import compiled_train_step, kernel_events  # noqa: E402
from step_models import MODELS  # noqa: E402

from cellonnx.graph.compile import serialize  # noqa: E402

SETTINGS: dict[str, dict] = {
    "1": {"intra": 1},
    "2": {"intra": 2},
    "2-nospin": {"intra": 2, "config": {"session.intra_op.allow_spinning": "0"}},
    "2-block": {"intra": 2, "config": {"session.dynamic_block_base": "4"}},
    "inter": {"intra": 1, "inter": 2, "parallel": True},
    "1-nospin": {"intra": 1, "config": {"session.intra_op.allow_spinning": "0"}},
}
STEPS = {"lenet5": 10, "resnet18": 2, "transformer": 2}


def session(model: bytes, setting: str, profile_prefix: str | None = None) -> ort.InferenceSession:
    """An onnxruntime session over the step graph with the named setting (the compiled step's other options:
    memory pattern off, full graph optimization)."""
    spec = SETTINGS[setting]
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = spec["intra"]
    opts.inter_op_num_threads = spec.get("inter", 0)
    if spec.get("parallel"):
        opts.execution_mode = ort.ExecutionMode.ORT_PARALLEL
    for key, value in spec.get("config", {}).items():
        opts.add_session_config_entry(key, value)
    opts.enable_mem_pattern = False
    opts.log_severity_level = 3
    if profile_prefix:
        opts.enable_profiling = True
        opts.profile_file_prefix = profile_prefix
    return ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])


def profile(compiled: object, args: list, model: bytes, setting: str, steps: int) -> tuple[dict, float]:
    prefix = os.path.join(tempfile.mkdtemp(prefix="cellonnx_threads_"), setting)
    compiled.session._sess = session(model, setting, prefix)
    compiled.unbind()   # bind the step's buffers to this session
    for _ in range(2 + steps):
        compiled(*args)
    runs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for e in kernel_events(compiled.session.inner.end_profiling(), 2):
        runs[(e["args"]["op_name"], e["name"])].append(e["dur"] / 1e3)
    by_op: dict[str, float] = defaultdict(float)
    for (op, _), durs in runs.items():
        by_op[op] += statistics.median(durs) * len(durs) / steps
    return by_op, sum(by_op.values())


def compare(name: str, settings: list[str], rounds: int, profile_steps: int, top: int) -> None:
    compiled, args = compiled_train_step(name)
    model = serialize(compiled.step.session_model)
    sessions = {s: session(model, s) for s in settings}

    def side(s: str):
        def run(n: int) -> list[float]:
            compiled.session._sess = sessions[s]
            compiled.unbind()
            return timed(lambda: compiled(*args), n)
        return run

    sides = {s: side(s) for s in settings}
    for run in sides.values():
        run(2)
    times = in_blocks(sides, rounds, STEPS[name])
    med = {s: statistics.median(v) * 1e3 for s, v in times.items()}
    base = settings[0]
    print(f"\n{name}: {len(compiled.step.model.graph.node)} nodes, {rounds} blocks of {STEPS[name]} steps "
          f"per setting, load average {os.getloadavg()[0]:.1f}")
    print("  step median ms: " + ", ".join(f"{s} {med[s]:.2f} ({med[s] / med[base]:.2f}x)" for s in settings))
    profiles = {s: profile(compiled, args, model, s, profile_steps) for s in settings}
    print("  kernels ms/step: " + ", ".join(
        f"{s} {t:.2f} ({t / profiles[base][1]:.2f}x)" for s, (_, t) in profiles.items()))
    by_base = profiles[base][0]
    ops = sorted(by_base, key=lambda k: -by_base[k])[:top]
    print(f"  {'op type':20s} " + " ".join(f"{s:>14s}" for s in settings))
    for op in ops:
        cells = []
        for s in settings:
            t = profiles[s][0].get(op, 0.0)
            ratio = f" {t / by_base[op]:5.2f}x" if s != base else f" {t / profiles[s][1]:5.1%}"
            cells.append(f"{t:7.2f}" + ratio)
        print(f"  {op:20s} " + " ".join(f"{c:>14s}" for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--models", nargs="+", default=["lenet5", "resnet18"], choices=MODELS)
    parser.add_argument("--settings", nargs="+", default=["1", "2", "2-nospin", "inter"], choices=SETTINGS)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--profile-steps", type=int, default=4)
    parser.add_argument("--top", type=int, default=14)
    args = parser.parse_args()
    for name in args.models:
        compare(name, args.settings, args.rounds, args.profile_steps, args.top)


if __name__ == "__main__":
    main()
