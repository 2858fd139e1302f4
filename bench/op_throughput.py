"""Elementwise and reduction op speed on one activation-sized array, cellonnx beside PyTorch, same threads.

Every op runs on a (64, 6, 28, 28) float32 array (LeNet-5's first activation, 301k values), forward only, no
gradient recording; each time is the 20th percentile of ``--runs`` calls after warm-up, and the ratio column
sorts the table, slowest first, so the NumPy paths that fall far behind PyTorch's kernels stand out.

    PYTHONPATH=/work/main:/work/venv/lib/python3.11/site-packages /work/envs/torch/bin/python \\
        bench/op_throughput.py [--threads 1] [--runs 50]
"""
from __future__ import annotations

import argparse

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv(1)

import time  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import cellonnx as ms  # noqa: E402
from cellonnx import ops  # noqa: E402
from cellonnx.tensor import Tensor  # noqa: E402

SHAPE = (64, 6, 28, 28)


def cases(x: Tensor, y: Tensor, p: Tensor, c: Tensor, tx, ty, tp, tc) -> list:
    """(name, cellonnx call, PyTorch call): p / tp are positive, c / tc a random mask."""
    w, bias = Tensor(np.ones(SHAPE[-1], np.float32)), Tensor(np.zeros(SHAPE[-1], np.float32))
    tw, tbias = torch.from_numpy(w.asnumpy()), torch.from_numpy(bias.asnumpy())
    return [
        ("add", lambda: ops.add(x, y), lambda: tx + ty),
        ("mul", lambda: ops.mul(x, y), lambda: tx * ty),
        ("div", lambda: ops.div(x, y), lambda: tx / ty),
        ("maximum", lambda: ops.maximum(x, y), lambda: torch.maximum(tx, ty)),
        ("maximum with a scalar", lambda: ops.maximum(x, 0.5), lambda: torch.clamp_min(tx, 0.5)),
        ("pow 2", lambda: ops.pow(x, 2.0), lambda: tx ** 2),
        ("exp", lambda: ops.exp(x), lambda: torch.exp(tx)),
        ("log", lambda: ops.log(p), lambda: torch.log(tp)),
        ("sqrt", lambda: ops.sqrt(p), lambda: torch.sqrt(tp)),
        ("rsqrt", lambda: ops.rsqrt(p), lambda: torch.rsqrt(tp)),
        ("abs", lambda: ops.abs(x), lambda: torch.abs(tx)),
        ("sign", lambda: ops.sign(x), lambda: torch.sign(tx)),
        ("erf", lambda: ops.erf(x), lambda: torch.erf(tx)),
        ("greater", lambda: ops.greater(x, y), lambda: tx > ty),
        ("where", lambda: ops.where(c, x, y), lambda: torch.where(tc, tx, ty)),
        ("cast to float16", lambda: ops.cast(x, ms.float16), lambda: tx.half()),
        ("relu", lambda: ops.relu(x), lambda: torch.relu(tx)),
        ("relu6", lambda: ops.relu6(x), lambda: F.relu6(tx)),
        ("clamp min only", lambda: ops.clamp(x, 0.0), lambda: torch.clamp(tx, min=0.0)),
        ("leaky_relu 0.2", lambda: ops.leaky_relu(x, 0.2), lambda: F.leaky_relu(tx, 0.2)),
        ("elu", lambda: ops.elu(x), lambda: F.elu(tx)),
        ("sigmoid", lambda: ops.sigmoid(x), lambda: torch.sigmoid(tx)),
        ("tanh", lambda: ops.tanh(x), lambda: torch.tanh(tx)),
        ("silu", lambda: ops.silu(x), lambda: F.silu(tx)),
        ("softplus", lambda: ops.softplus(x), lambda: F.softplus(tx)),
        ("mish", lambda: ops.mish(x), lambda: F.mish(tx)),
        ("gelu tanh", lambda: ops.gelu(x, approximate="tanh"), lambda: F.gelu(tx, approximate="tanh")),
        ("gelu exact", lambda: ops.gelu(x, approximate="none"), lambda: F.gelu(tx)),
        ("hardswish", lambda: ops.hardswish(x), lambda: F.hardswish(tx)),
        ("softmax, last axis (28)", lambda: ops.softmax(x, -1), lambda: torch.softmax(tx, -1)),
        ("softmax, axis 1 (6)", lambda: ops.softmax(x, 1), lambda: torch.softmax(tx, 1)),
        ("log_softmax, last axis", lambda: ops.log_softmax(x, -1), lambda: torch.log_softmax(tx, -1)),
        ("max_pool2d 2x2", lambda: ops.max_pool2d(x, 2), lambda: F.max_pool2d(tx, 2)),
        ("max_pool2d 2x2 with indices", lambda: ops.max_pool2d(x, 2, return_indices=True),
         lambda: F.max_pool2d(tx, 2, return_indices=True)),
        ("max_pool2d 3x3 / 2, pad 1, with indices", lambda: ops.max_pool2d(x, 3, 2, 1, return_indices=True),
         lambda: F.max_pool2d(tx, 3, 2, 1, return_indices=True)),
        ("layer_norm over the last axis", lambda: ops.layer_norm(x, (SHAPE[-1],), w, bias),
         lambda: F.layer_norm(tx, (SHAPE[-1],), tw, tbias)),
        ("sum of all", lambda: ops.sum(x), lambda: tx.sum()),
        ("mean over (2, 3)", lambda: ops.mean(x, (2, 3)), lambda: tx.mean((2, 3))),
        ("max over the last axis", lambda: ops.amax(x, -1), lambda: tx.amax(-1)),
        ("argmax over the last axis", lambda: ops.argmax(x, -1), lambda: tx.argmax(-1)),
    ]


def best(fn, runs: int) -> float:
    for _ in range(3):
        fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.percentile(times, 20))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    torch.set_num_threads(THREADS)
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(SHAPE).astype(np.float32) for _ in range(2))
    pos, mask = np.abs(a) + np.float32(0.1), rng.random(SHAPE) > 0.5
    rows = []
    with ms.no_grad(), torch.no_grad():
        for name, ours, theirs in cases(Tensor(a), Tensor(b), Tensor(pos), Tensor(mask), torch.from_numpy(a),
                                        torch.from_numpy(b), torch.from_numpy(pos), torch.from_numpy(mask)):
            t_ours, t_theirs = best(ours, args.runs), best(theirs, args.runs)
            rows.append((t_ours / t_theirs, name, t_ours, t_theirs))
    print(f"{SHAPE} float32, {THREADS} thread(s); numpy {np.__version__}, torch {torch.__version__}\n")
    print("| op | cellonnx | PyTorch | cellonnx / PyTorch |")
    print("|---|---|---|---|")
    for ratio, name, t_ours, t_theirs in sorted(rows, reverse=True):
        print(f"| {name} | {t_ours * 1e6:.0f} us | {t_theirs * 1e6:.0f} us | {ratio:.1f}x |")


if __name__ == "__main__":
    main()
