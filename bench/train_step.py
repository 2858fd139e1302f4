"""One training step (forward, loss, backward, SGD update) of the zoo's LeNet-5 (batch 64, 1x32x32),
ResNet-18 (batch 32, 3x32x32) and Transformer classifier (32 x 128 tokens) in cellonnx eager, as the traced
value_and_grad graph run by onnxruntime, as cellonnx's compiled step (where cellonnx.graph.train exists) and
in PyTorch eager, at 1 and 2 threads, in one run.

    .venv/bin/python bench/train_step.py [--models lenet5 resnet18 transformer] [--threads 1 2]
        [--rounds 5] [--torch-python /work/envs/torch/bin/python] [--sides eager graph compiled torch]

Every side runs in its own process (bench/step_worker.py): the same seeded weights and batch, its own
thread count (OpenBLAS / OpenMP / onnxruntime intra-op / torch), and its own peak resident memory (VmHWM
from after the warm-up to the end). The sides run blocks of steps in turn with a pause before each block
(bench/blocks.py), the order alternating by round; the median step of all blocks is reported with its
ratio to PyTorch's and to cellonnx eager's. PyTorch runs in ``--torch-python`` with this checkout and this
interpreter's site-packages on PYTHONPATH (it builds the cellonnx network whose weights its twin copies).

MindSpore and MXNet, where installed, join LeNet-5 through bench/reference_step.py (momentum 0.9 there):

    ... --models lenet5 --reference mindspore-graph=/work/envs/mindspore/bin/python \\
        --reference mxnet=/work/envs/mxnet/bin/python
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIDES = ("eager", "graph", "compiled", "torch")
# steps per block: a block should last a few hundred milliseconds
STEPS = {"lenet5": 10, "resnet18": 3, "transformer": 2}


class Worker:
    """A process running one side's steps on request (bench/step_worker.py or bench/reference_step.py)."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ready = self.proc.stdout.readline().split()
        if not ready or ready[0] != "ready":
            self.proc.kill()
            raise RuntimeError(f"{name} did not start ({' '.join(argv)}); see its messages above")
        self.first_loss = float(ready[1])

    def run(self, n: int) -> list[float]:
        self.proc.stdin.write(f"{n}\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def peak_mib(self) -> float | None:
        if self.name.startswith("ref:"):
            return None
        self.proc.stdin.write("rss\n")
        self.proc.stdin.flush()
        return float(json.loads(self.proc.stdout.readline()))

    def close(self) -> None:
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait()


def _env(threads: int, torch_side: bool) -> dict[str, str]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = str(threads)
    if torch_side:
        site = [p for p in sys.path if p.rstrip("/").endswith("site-packages")]
        env["PYTHONPATH"] = os.pathsep.join([ROOT, *site, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def start(side: str, model: str, threads: int, torch_python: str) -> Worker | None:
    python = torch_python if side == "torch" else sys.executable
    argv = [python, os.path.join(HERE, "step_worker.py"), "--side", side, "--model", model,
            "--threads", str(threads)]
    try:
        return Worker(side, argv, _env(threads, side == "torch"))
    except (RuntimeError, OSError) as exc:
        print(f"  {side}: not run ({exc})", flush=True)
        return None


def start_references(specs: list[str]) -> list[Worker]:
    if not specs:
        return []
    sys.path.insert(0, HERE)
    from step_models import build

    net, _, (x, y) = build("lenet5")
    path = os.path.join(tempfile.mkdtemp(prefix="cellonnx_train_step_"), "lenet5.npz")
    np.savez(path, x=x, y=y, **{n: p.asnumpy() for n, p in net.parameters_and_names()})
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # that interpreter's own packages
    out = []
    for spec in specs:
        framework, _, python = spec.partition("=")
        argv = [python, os.path.join(HERE, "reference_step.py"), "--framework", framework, "--data", path]
        out.append(Worker(f"ref:{framework}", argv, env))
    return out


def measure(model: str, threads: int, sides: list[str], rounds: int, torch_python: str,
            references: list[str]) -> dict[str, dict]:
    from blocks import in_blocks

    workers = [w for s in sides if (w := start(s, model, threads, torch_python)) is not None]
    if model == "lenet5":
        workers += start_references(references)
    times = in_blocks({w.name: w.run for w in workers}, rounds, STEPS[model])
    out = {}
    for w in workers:
        out[w.name] = {"median": statistics.median(times[w.name]), "best": min(times[w.name]),
                       "peak": w.peak_mib(), "loss": w.first_loss}
        w.close()
    return out


def report(rows: list[tuple[str, int, dict[str, dict]]]) -> None:
    print("\n| network | threads | side | median (best) ms/step | / PyTorch | / cellonnx eager "
          "| peak RSS MiB | first loss |")
    print("|---|---|---|---|---|---|---|---|")
    for model, threads, res in rows:
        torch_t = res.get("torch", {}).get("median")
        eager_t = res.get("eager", {}).get("median")
        for side, r in res.items():
            vs_torch = f"{r['median'] / torch_t:.2f}x" if torch_t else "-"
            vs_eager = f"{r['median'] / eager_t:.2f}x" if eager_t else "-"
            peak = f"{r['peak']:.0f}" if r["peak"] is not None else "-"
            print(f"| {model} | {threads} | {side} | {r['median'] * 1e3:.2f} ({r['best'] * 1e3:.2f}) | "
                  f"{vs_torch} | {vs_eager} | {peak} | {r['loss']:.5f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=list(STEPS), choices=list(STEPS))
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--rounds", type=int, default=5, help="blocks per side (default 5)")
    parser.add_argument("--sides", nargs="+", default=list(SIDES), choices=SIDES)
    parser.add_argument("--torch-python", default="/work/envs/torch/bin/python")
    parser.add_argument("--reference", action="append", default=[], metavar="FRAMEWORK=PYTHON",
                        help="also time LeNet-5 in mindspore-graph, mindspore-pynative, mxnet or "
                             "mxnet-hybrid, run by that interpreter; repeatable")
    args = parser.parse_args()
    sys.path.insert(0, HERE)
    sides = list(args.sides)
    if "compiled" in sides and importlib.util.find_spec("cellonnx.graph.train") is None:
        sides.remove("compiled")
        print("compiled: cellonnx.graph.train is not in this checkout yet; not run")
    load0 = os.getloadavg()[0]
    rows = []
    from cellonnx.progress import track

    for model in track(args.models, "models"):
        for threads in args.threads:
            print(f"{model}, {threads} thread(s)", flush=True)
            rows.append((model, threads, measure(model, threads, sides, args.rounds, args.torch_python,
                                                 args.reference)))
    print(f"\nload average {load0:.2f} -> {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs")
    report(rows)


if __name__ == "__main__":
    main()
