"""How the compiled training step scales from 1 to 2 intra-op threads: the same step graph (GRAPH_MODE
TrainOneStepCell with SGD, bench/compiled_step_profile.py) run by onnxruntime sessions of 1 and 2 threads, and
of 2 threads with the pool's spinning off (``session.intra_op.allow_spinning`` 0), timed side by side in
blocks with pauses, then each profiled: kernel time by op type (each node's median over the profiled steps)
and each op type's speed-up from 1 to 2 threads.

    .venv/bin/python bench/thread_scaling.py [--models transformer] [--rounds 6] [--profile-steps 4]

NumPy / OpenBLAS keep one thread (the step runs inside onnxruntime). On a loaded machine only the ratios
measured in one run are worth quoting.
"""
from __future__ import annotations

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, _ = bench_env.threads_from_argv(default=1)

import argparse  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
from collections import defaultdict  # noqa: E402

import onnxruntime as ort  # noqa: E402
from blocks import in_blocks, timed  # noqa: E402
from compiled_step_ab import STEPS  # noqa: E402
from compiled_step_profile import compiled_train_step, kernel_events  # noqa: E402
from step_models import MODELS  # noqa: E402

from cellonnx.graph.compile import serialize  # noqa: E402

# name -> (intra-op threads, spinning)
CONFIGS = {"1 thread": (1, True), "2 threads": (2, True), "2 threads, no spin": (2, False)}


def session(model: bytes, threads: int, spin: bool, profile: str | None = None) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.log_severity_level = 3
    opts.enable_mem_pattern = False  # as the compiled step's own session (cellonnx/graph/train.py)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    if profile:
        opts.enable_profiling = True
        opts.profile_file_prefix = profile
    return ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])


def op_times(compiled: object, args: list, model: bytes, threads: int, spin: bool,
             steps: int) -> dict[str, float]:
    prefix = os.path.join(tempfile.mkdtemp(prefix="cellonnx_threads_"), f"t{threads}")
    compiled.session._sess = session(model, threads, spin, prefix)
    for _ in range(2 + steps):
        compiled(*args)
    runs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for e in kernel_events(compiled.session.inner.end_profiling(), 2):
        runs[(e["args"]["op_name"], e["name"])].append(e["dur"] / 1e3)
    by_op: dict[str, float] = defaultdict(float)
    for (op, _), durs in runs.items():
        by_op[op] += statistics.median(durs) * len(durs) / steps
    return by_op


def compare(name: str, rounds: int, profile_steps: int) -> None:
    compiled, args = compiled_train_step(name)
    model = serialize(compiled.step.model)
    sessions = {k: session(model, t, s) for k, (t, s) in CONFIGS.items()}

    def side(key: str):
        def run(n: int) -> list[float]:
            compiled.session._sess = sessions[key]
            return timed(lambda: compiled(*args), n)
        return run

    sides = {k: side(k) for k in CONFIGS}
    for run in sides.values():
        run(2)
    times = in_blocks(sides, rounds, STEPS[name])
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    base = med["1 thread"]
    print(f"\n{name}: {rounds} blocks of {STEPS[name]} steps; step median ms (speed-up over 1 thread)")
    for k, v in med.items():
        print(f"  {k:20s} {v:9.2f} ({base / v:.2f}x)")
    ops = {k: op_times(compiled, args, model, t, s, profile_steps) for k, (t, s) in CONFIGS.items()}
    totals = {k: sum(v.values()) for k, v in ops.items()}
    print("  kernel ms/step: " + ", ".join(f"{k} {v:.2f}" for k, v in totals.items()))
    keys = list(CONFIGS)
    print(f"  {'op type':20s} " + " ".join(f"{k[:18]:>18s}" for k in keys) + "  speed-up 1 -> 2")
    one, two = ops[keys[0]], ops[keys[1]]
    for op in sorted(one, key=lambda o: -one[o])[:14]:
        cells = " ".join(f"{ops[k].get(op, 0.0):18.2f}" for k in keys)
        print(f"  {op:20s} {cells}  {one[op] / max(two.get(op, 0.0), 1e-9):.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--models", nargs="+", default=["transformer"], choices=MODELS)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--profile-steps", type=int, default=4)
    args = parser.parse_args()
    for name in args.models:
        compare(name, args.rounds, args.profile_steps)


if __name__ == "__main__":
    main()
