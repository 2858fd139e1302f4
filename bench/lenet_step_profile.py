"""One eager training step (forward, loss, backward, optimizer update) of LeNet-5 - and optionally ResNet-18 -
in cellonnx beside the same network in PyTorch, side by side in one process.

cellonnx: ``nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
reduction='mean')), nn.Momentum(lr=0.01, momentum=0.9))``; PyTorch: ``CrossEntropyLoss`` + ``SGD(lr=0.01,
momentum=0.9)`` with ``zero_grad(set_to_none=True)``. LeNet-5 as in MindSpore's model zoo (conv 1->6 5x5 valid,
relu, max pool 2/2, conv 6->16 5x5 valid, relu, max pool, flatten, Dense 400->120->84->10 with relu between),
batch 64 of 1x32x32; ResNet-18 (model zoo's res_base layout) at batch 32 of 3x32x32.

    PYTHONPATH=/work/main:/work/venv/lib/python3.11/site-packages /work/envs/torch/bin/python \\
        bench/lenet_step_profile.py [--threads 2] [--model lenet|resnet18|both] [--rounds 15]
    python bench/lenet_step_profile.py --profile      # cellonnx only: time per primitive, then cProfile

Timing: the two libraries alternate in rounds of a few steps each, so load from other processes hits both
alike; the best step of all rounds is reported, with the ratio. ``--threads`` sets OpenBLAS / OpenMP /
PyTorch threads (it must be set before NumPy is imported, so it is read from the command line first).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv(int(os.environ.get("BENCH_THREADS", "2")))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

SPECS = {"lenet": (64, (1, 32, 32)), "resnet18": (32, (3, 32, 32))}


# ---------------------------------------------------------------- cellonnx
def cellonnx_lenet():
    from cellonnx import nn

    class LeNet5(nn.Cell):
        def __init__(self, num_class: int = 10, num_channel: int = 1) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, num_class)
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    return LeNet5()


def cellonnx_resnet18():
    from cellonnx import nn, ops

    def conv(ci, co, k, s):
        return nn.Conv2d(ci, co, k, stride=s, padding=k // 2, pad_mode="pad")

    class Block(nn.Cell):
        def __init__(self, ci, co, s):
            super().__init__()
            self.conv1, self.bn1d = conv(ci, co, 3, s), nn.BatchNorm2d(co)
            self.conv2, self.bn2d = conv(co, co, 3, 1), nn.BatchNorm2d(co)
            self.relu = nn.ReLU()
            self.down_sample = s != 1 or ci != co
            self.down_sample_layer = (nn.SequentialCell([conv(ci, co, 1, s), nn.BatchNorm2d(co)])
                                      if self.down_sample else None)

        def construct(self, x):
            out = self.relu(self.bn1d(self.conv1(x)))
            out = self.bn2d(self.conv2(out))
            return self.relu(out + (self.down_sample_layer(x) if self.down_sample else x))

    class ResNet18(nn.Cell):
        def __init__(self, num_class: int = 10):
            super().__init__()
            self.conv1, self.bn1, self.relu = conv(3, 64, 7, 2), nn.BatchNorm2d(64), nn.ReLU()
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="valid")
            chans = [64, 64, 128, 256, 512]
            self.layers = nn.SequentialCell([Block(chans[i] if j == 0 else chans[i + 1], chans[i + 1],
                                                   (1 if i == 0 else 2) if j == 0 else 1)
                                             for i in range(4) for j in range(2)])
            self.flatten = nn.Flatten()
            self.end_point = nn.Dense(512, num_class)

        def construct(self, x):
            x = self.relu(self.bn1(self.conv1(x)))
            x = self.maxpool(ops.pad(x, (1, 1, 1, 1)))
            x = ops.mean(self.layers(x), (2, 3), keep_dims=True)
            return self.end_point(self.flatten(x))

    return ResNet18()


def cellonnx_step(model: str):
    from cellonnx import nn
    from cellonnx.tensor import Tensor

    net = cellonnx_lenet() if model == "lenet" else cellonnx_resnet18()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    train.set_train()
    n, shape = SPECS[model]
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((n,) + shape).astype(np.float32))
    y = Tensor(rng.integers(0, 10, n).astype(np.int32))
    return lambda: train(x, y)


# ---------------------------------------------------------------- PyTorch
def torch_step(model: str):
    import torch
    from torch import nn

    torch.set_num_threads(THREADS)
    if model == "lenet":
        net = nn.Sequential(nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                            nn.MaxPool2d(2, 2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84),
                            nn.ReLU(), nn.Linear(84, 10))
    else:
        class Block(nn.Module):
            def __init__(self, ci, co, s):
                super().__init__()
                self.body = nn.Sequential(nn.Conv2d(ci, co, 3, s, 1), nn.BatchNorm2d(co), nn.ReLU(),
                                          nn.Conv2d(co, co, 3, 1, 1), nn.BatchNorm2d(co))
                self.short = (nn.Sequential(nn.Conv2d(ci, co, 1, s), nn.BatchNorm2d(co))
                              if s != 1 or ci != co else nn.Identity())

            def forward(self, x):
                return torch.relu(self.body(x) + self.short(x))

        chans = [64, 64, 128, 256, 512]
        net = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3), nn.BatchNorm2d(64), nn.ReLU(), nn.ZeroPad2d(1),
                            nn.MaxPool2d(3, 2),
                            *[Block(chans[i] if j == 0 else chans[i + 1], chans[i + 1],
                                    (1 if i == 0 else 2) if j == 0 else 1) for i in range(4) for j in range(2)],
                            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10))
    net.train()
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    n, shape = SPECS[model]
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.standard_normal((n,) + shape).astype(np.float32))
    y = torch.from_numpy(rng.integers(0, 10, n).astype(np.int64))

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return loss

    return step


# ---------------------------------------------------------------- timing
def race(steps: dict, rounds: int, per_round: int) -> dict[str, float]:
    """Best step time (ms) of each callable, alternating them in rounds of ``per_round`` steps."""
    from cellonnx.progress import track

    best = {k: float("inf") for k in steps}
    for fn in steps.values():  # warm-up (first-call allocations, caches)
        for _ in range(3):
            fn()
    for _ in track(range(rounds), "rounds"):
        for k, fn in steps.items():
            for _ in range(per_round):
                t = time.perf_counter()
                fn()
                best[k] = min(best[k], time.perf_counter() - t)
    return {k: v * 1e3 for k, v in best.items()}


def profile(model: str, steps: int) -> None:
    """Time per primitive (forward while recording, forward of the ops the backward pass runs), the
    backward rules' own Python, the optimizer, then cProfile's top functions."""
    import cProfile
    import pstats
    from collections import defaultdict

    from cellonnx.autograd import tape
    from cellonnx.nn.optim.optimizer import Optimizer
    from cellonnx.ops import registry

    step = cellonnx_step(model)
    for _ in range(3):
        step()
    own: dict[tuple[str, str], float] = defaultdict(float)
    calls: dict[tuple[str, str], int] = defaultdict(int)
    stack: list[list] = []  # [key, start, time of nested timed regions]

    def timed(key, fn, *a, **k):
        stack.append([key, time.perf_counter(), 0.0])
        try:
            return fn(*a, **k)
        finally:
            key, t0, inner = stack.pop()
            dt = time.perf_counter() - t0
            own[key] += dt - inner
            calls[key] += 1
            if stack:
                stack[-1][2] += dt

    orig_apply, orig_backward, orig_opt = registry.apply, tape.run_backward, Optimizer.__call__
    backward_rules = {}

    def apply(op, inputs, attrs):
        phase = "fwd" if tape._mode.enabled else "bwd"
        return timed((op.name, phase), orig_apply, op, inputs, attrs)

    def wrap_backward(cls):
        fn = cls.backward
        backward_rules[cls] = fn
        cls.backward = lambda self, ctx, *g, **a: timed((cls.name, "rule"), fn, self, ctx, *g, **a)

    for op in list(registry.REGISTRY.values()):
        if "backward" in type(op).__dict__:
            wrap_backward(type(op))
    registry.apply = apply
    Optimizer.__call__ = lambda self, *a, **k: timed(("optimizer", "update"), orig_opt, self, *a, **k)
    try:
        t0 = time.perf_counter()
        for _ in range(steps):
            timed(("step (rest)", "glue"), step)
        total = (time.perf_counter() - t0) / steps * 1e3
    finally:
        registry.apply, Optimizer.__call__ = orig_apply, orig_opt
        for cls, fn in backward_rules.items():
            cls.backward = fn
    del orig_backward
    print(f"\n{model}: {total:.2f} ms per step (instrumented); own time per step, ms")
    print("  phase: fwd = forward op while recording, bwd = op run by a backward rule, rule = the rule's own "
          "Python")
    print(f"  {'op':26s} {'phase':7s} {'ms':>7s} {'calls':>6s}")
    for (name, phase), t in sorted(own.items(), key=lambda kv: -kv[1]):
        ms = t / steps * 1e3
        if ms >= 0.005:
            print(f"  {name:26s} {phase:7s} {ms:7.3f} {calls[(name, phase)] // steps:6d}")
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(steps):
        step()
    prof.disable()
    print(f"\ncProfile, {steps} steps, top functions by own time:")
    pstats.Stats(prof).sort_stats("tottime").print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--model", choices=["lenet", "resnet18", "both"], default="lenet")
    parser.add_argument("--rounds", type=int, default=15, help="alternating rounds")
    parser.add_argument("--per-round", type=int, default=0, help="steps per round (default: 10 LeNet, 3 ResNet)")
    parser.add_argument("--profile", action="store_true", help="cellonnx breakdown by primitive and cProfile")
    parser.add_argument("--profile-steps", type=int, default=30)
    args = parser.parse_args()
    models = ["lenet", "resnet18"] if args.model == "both" else [args.model]
    if args.profile:
        for m in models:
            profile(m, args.profile_steps if m == "lenet" else max(3, args.profile_steps // 10))
        return
    try:
        import torch  # noqa: F401
        have_torch = True
    except ImportError:
        have_torch = False
        print("(torch not importable here: cellonnx only; run with the torch interpreter, see the docstring)")
    for m in models:
        steps = {"cellonnx": cellonnx_step(m)}
        if have_torch:
            steps["torch"] = torch_step(m)
        per = args.per_round or (10 if m == "lenet" else 3)
        best = race(steps, args.rounds, per)
        line = f"{m:9s} threads={THREADS}  cellonnx {best['cellonnx']:7.2f} ms"
        if have_torch:
            line += f"   torch {best['torch']:7.2f} ms   ratio {best['cellonnx'] / best['torch']:.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
