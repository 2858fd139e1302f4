"""Eager training step of the zoo's LeNet-5 (batch 64, 1x32x32) and ResNet-18 (batch 32, 3x32x32, 10 classes)
beside the same networks in PyTorch eager, same weights, same threads, in one run; prints the ratios against
the targets (LeNet-5 <= 1.5x PyTorch's step time, ResNet-18 <= 2x).

    PYTHONPATH=/work/main:/work/venv/lib/python3.11/site-packages /work/envs/torch/bin/python \\
        bench/train_step.py [--threads 2] [--rounds 8] [--steps 5] [--models lenet5 resnet18]

One step = forward, loss, backward, optimizer update. cellonnx: ``TrainOneStepCell(WithLossCell(net,
SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')), Momentum(lr=0.01, momentum=0.9))`` over
``cellonnx.models.get_model(...)``; PyTorch: ``CrossEntropyLoss`` + ``SGD(lr=0.01, momentum=0.9)`` with
``zero_grad(set_to_none=True)`` over the same layers (conv/BN/dense weights copied from the cellonnx network).
The libraries alternate in rounds of ``--steps`` steps so that load from other processes hits both alike; the
best and the median step over all rounds are reported. ``--threads`` sets OpenBLAS / OpenMP threads (read
before NumPy is imported) and ``torch.set_num_threads``.

MindSpore and MXNet, where installed (each in its own interpreter: they pin NumPy versions of their own), join
the LeNet-5 rounds through bench/reference_step.py with the same weights and batch:

    ... bench/train_step.py --models lenet5 --reference mindspore-graph=/work/envs/mindspore/bin/python \\
        --reference mindspore-pynative=/work/envs/mindspore/bin/python \\
        --reference mxnet=/work/envs/mxnet/bin/python --reference mxnet-hybrid=/work/envs/mxnet/bin/python
"""
from __future__ import annotations

import argparse
import os

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv()

import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
from cellonnx.models import get_model  # noqa: E402
from export_vs_torch import TorchResNet18, copy_weights  # noqa: E402
from torch import nn as tnn  # noqa: E402

import cellonnx as ms  # noqa: E402
from cellonnx import nn  # noqa: E402
from cellonnx.progress import track  # noqa: E402
from cellonnx.tensor import Tensor  # noqa: E402

# name -> (batch, sample shape, registry options, target ratio)
CASES = {"lenet5": (64, (1, 32, 32), {}, 1.5), "resnet18": (32, (3, 32, 32), {}, 2.0)}


def torch_lenet5() -> tnn.Module:
    return tnn.Sequential(tnn.Conv2d(1, 6, 5, bias=False), tnn.ReLU(), tnn.MaxPool2d(2, 2),
                          tnn.Conv2d(6, 16, 5, bias=False), tnn.ReLU(), tnn.MaxPool2d(2, 2), tnn.Flatten(),
                          tnn.Linear(400, 120), tnn.ReLU(), tnn.Linear(120, 84), tnn.ReLU(),
                          tnn.Linear(84, 10))


def steps(name: str):
    batch, shape, options, _ = CASES[name]
    ms.set_seed(0)
    net = get_model(name, num_classes=10, **options)
    tnet = torch_lenet5() if name == "lenet5" else TorchResNet18(10)
    copy_weights(net, tnet)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, *shape)).astype(np.float32)
    y = rng.integers(0, 10, batch).astype(np.int32)

    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                                nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9))
    train.set_train()
    xc, yc = Tensor(x), Tensor(y)

    tnet.train()
    opt = torch.optim.SGD(tnet.parameters(), lr=0.01, momentum=0.9)
    criterion = tnn.CrossEntropyLoss()
    xt, yt = torch.from_numpy(x), torch.from_numpy(y.astype(np.int64))

    def torch_step() -> float:
        opt.zero_grad(set_to_none=True)
        out = criterion(tnet(xt), yt)
        out.backward()
        opt.step()
        return float(out.detach())

    batch_and_weights = {"x": x, "y": y, **{n: p.asnumpy().copy() for n, p in net.parameters_and_names()}}
    first = (float(train(xc, yc).asnumpy()), torch_step())  # same weights and batch: the same first loss
    return (lambda: train(xc, yc)), torch_step, first, batch_and_weights


class ReferenceStep:
    """LeNet-5's step in another framework's interpreter (bench/reference_step.py), timed there."""

    def __init__(self, framework: str, python: str, data: str) -> None:
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference_step.py")
        self.framework = framework
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # that interpreter's own packages
        self.proc = subprocess.Popen([python, script, "--framework", framework, "--data", data], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ready = self.proc.stdout.readline().split()
        if not ready or ready[0] != "ready":
            raise SystemExit(f"train_step: {framework} ({python}) did not start; see its messages above")
        self.first_loss = float(ready[1])

    def run(self, n: int) -> list[float]:
        self.proc.stdin.write(f"{n}\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait()


def start_references(specs: list[str], data: dict) -> list[ReferenceStep]:
    if not specs:
        return []
    path = os.path.join(tempfile.mkdtemp(prefix="cellonnx_train_step_"), "lenet5.npz")
    np.savez(path, **data)
    out = []
    for spec in specs:
        framework, _, python = spec.partition("=")
        out.append(ReferenceStep(framework, python, path))
    return out


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--rounds", type=int, default=8, help="alternating rounds (default 8)")
    parser.add_argument("--steps", type=int, default=5, help="steps per library per round (default 5)")
    parser.add_argument("--models", nargs="+", default=list(CASES), choices=list(CASES))
    parser.add_argument("--reference", action="append", default=[], metavar="FRAMEWORK=PYTHON",
                        help="also time LeNet-5 in mindspore-graph, mindspore-pynative, mxnet or "
                             "mxnet-hybrid, run by that interpreter (mxnet=/work/envs/mxnet/bin/python); "
                             "repeatable")
    args = parser.parse_args()
    torch.set_num_threads(THREADS)
    load0 = os.getloadavg()[0]
    rows = []
    references: dict[str, tuple[float, float, float]] = {}  # framework -> best, median, first loss
    for name in track(args.models, "models"):
        ours, theirs, first, data = steps(name)
        for fn in (ours, theirs):  # warm-up
            timed(fn, 2)
        others = start_references(args.reference, data) if name == "lenet5" else []
        times: dict[str, list[float]] = {"cellonnx": [], "PyTorch": [], **{o.framework: [] for o in others}}
        rounds = args.rounds if name == "lenet5" else max(2, args.rounds // 2)
        for r in range(rounds):
            order = [("cellonnx", lambda n, fn=ours: timed(fn, n)),
                     ("PyTorch", lambda n, fn=theirs: timed(fn, n))]
            order += [(o.framework, o.run) for o in others]
            for lib, run in order if r % 2 == 0 else order[::-1]:
                times[lib] += run(args.steps)
        best = {k: min(v) for k, v in times.items()}
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append((name, best, med, first))
        for o in others:
            o.close()
            references[o.framework] = (best[o.framework], med[o.framework], o.first_loss)
        print(f"{name:9s} cellonnx best {best['cellonnx'] * 1e3:8.2f} ms median "
              f"{med['cellonnx'] * 1e3:8.2f} ms | PyTorch best {best['PyTorch'] * 1e3:8.2f} ms median "
              f"{med['PyTorch'] * 1e3:8.2f} ms | "
              f"first loss {first[0]:.5f} / {first[1]:.5f}", flush=True)
    load1 = os.getloadavg()[0]
    print()
    print(f"{THREADS} thread(s) in both libraries; load average {load0:.2f} -> {load1:.2f}; numpy "
          f"{np.__version__}, torch {torch.__version__}")
    print()
    print("| network | threads | cellonnx best (median) | PyTorch best (median) | ratio best (median) "
          "| target |")
    print("|---|---|---|---|---|---|")
    for name, best, med, _ in rows:
        batch, shape, _, target = CASES[name]
        ratio, ratio_med = best["cellonnx"] / best["PyTorch"], med["cellonnx"] / med["PyTorch"]
        verdict = "met" if ratio <= target else "missed"
        ours = f"{best['cellonnx'] * 1e3:.2f} ({med['cellonnx'] * 1e3:.2f}) ms"
        theirs = f"{best['PyTorch'] * 1e3:.2f} ({med['PyTorch'] * 1e3:.2f}) ms"
        print(f"| {name}, batch {batch}, {'x'.join(map(str, shape))} | {THREADS} | {ours} | {theirs} | "
              f"**{ratio:.2f}x** ({ratio_med:.2f}x) | {target}x: {verdict} |")
    if references:
        _, best, med, first = next(r for r in rows if r[0] == "lenet5")
        table = [("cellonnx", best["cellonnx"], med["cellonnx"], first[0]),
                 ("PyTorch", best["PyTorch"], med["PyTorch"], first[1])]
        table += [(lib, *values) for lib, values in references.items()]
        print()
        print("| LeNet-5 step, batch 64 | threads | best (median) | cellonnx / it, best (median) "
              "| first loss |")
        print("|---|---|---|---|---|")
        for lib, best_t, med_t, loss0 in table:
            ratio, ratio_med = best["cellonnx"] / best_t, med["cellonnx"] / med_t
            print(f"| {lib} | {THREADS} | {best_t * 1e3:.2f} ({med_t * 1e3:.2f}) ms | {ratio:.2f}x "
                  f"({ratio_med:.2f}x) | {loss0:.5f} |")

if __name__ == "__main__":
    main()
