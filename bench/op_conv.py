"""Convolution / pooling speed: cellonnx's NumPy kernels beside PyTorch's CPU kernels, same thread count.

Cases: LeNet-5's conv stack at batch 64 (conv 1->6 5x5 on 32x32, max pool 2, conv 6->16 5x5, max pool 2),
each layer alone and the stack, and a ResNet-style 3x3 conv (batch 32, 64 -> 64 channels, 32x32, pad 1).
Each is timed forward only and forward + backward (gradients of weight, bias and - except for the first
layer, whose input is data - of the input); the best of many runs is reported, so other load on the
machine disturbs the numbers less.

    python bench/op_conv.py                      # cellonnx; PyTorch too when it can be found
    python bench/op_conv.py --torch-python PATH  # PyTorch from another interpreter (it needs only torch)

PyTorch runs in this interpreter when importable, else in ``--torch-python`` / $TORCH_PYTHON /
/work/envs/torch/bin/python when that exists; the script then runs itself there with ``--torch-only``.
BENCH_THREADS (default 2) sets both libraries' thread counts.

Latest (2026-11-22, 2-core Xeon VM shared with other jobs, load 1-2; torch 2.13 CPU, numpy 2.4 + OpenBLAS;
ms, best of runs, cellonnx / torch):

    case              pass      2 threads             1 thread
    lenet.stack       fwd       1.73 / 1.31  (1.3x)   1.85 / 2.59  (0.7x)
    lenet.stack       fwd+bwd   5.78 / 2.67  (2.2x)   6.80 / 5.21  (1.3x)
    lenet.conv2       fwd+bwd   3.19 / 0.88  (3.6x)   3.07 / 1.52  (2.0x)
    resnet.conv3x3    fwd       20.2 / 8.0   (2.5x)   33.2 / 16.6  (2.0x)
    resnet.conv3x3    fwd+bwd   80.9 / 37.2  (2.2x)   113.8 / 68.5 (1.7x)

PyTorch's oneDNN kernels split every step over both threads; here only the BLAS calls do (im2col copies,
col2im adds and pooling run on one core), so the gap grows with threads. Under CPU contention both
libraries' 2-thread numbers scatter widely (spinning BLAS / OpenMP threads): compare 1-thread runs there.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import bench_env  # noqa: F401  (PYTHONPATH's .pth files: the editable install's import hook)

THREADS = int(os.environ.get("BENCH_THREADS", "2"))
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, str(THREADS))

import numpy as np  # noqa: E402  (after the thread counts: BLAS reads them when NumPy loads)

# name: (input shape, input needs grad, [layers]); a layer is ("conv", C_out, k, pad) or ("pool", k)
CASES = {
    "lenet.conv1": ((64, 1, 32, 32), False, [("conv", 6, 5, 0)]),
    "lenet.pool1": ((64, 6, 28, 28), True, [("pool", 2)]),
    "lenet.conv2": ((64, 6, 14, 14), True, [("conv", 16, 5, 0)]),
    "lenet.pool2": ((64, 16, 10, 10), True, [("pool", 2)]),
    "lenet.stack": ((64, 1, 32, 32), False, [("conv", 6, 5, 0), ("pool", 2), ("conv", 16, 5, 0), ("pool", 2)]),
    "resnet.conv3x3": ((32, 64, 32, 32), True, [("conv", 64, 3, 1)]),
}


def best_of(fn, seconds: float = 1.0, min_runs: int = 5) -> float:
    """Best wall time in ms over repeated runs (after a warm-up)."""
    fn()
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < min_runs or time.perf_counter() - start < seconds:
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


def _params(shape: tuple, layers: list) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(0)
    c, out = shape[1], []
    for layer in layers:
        if layer[0] == "conv":
            _, co, k, _ = layer
            out.append((rng.standard_normal((co, c, k, k)).astype(np.float32) * 0.1,
                        rng.standard_normal(co).astype(np.float32)))
            c = co
    return out


def run_cellonnx(seconds: float) -> dict[str, dict[str, float]]:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from cellonnx import ops
    from cellonnx.tensor import Tensor

    def case(shape: tuple, input_grad: bool, layers: list) -> dict[str, float]:
        x = Tensor(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
        flat = [Tensor(a) for wb in _params(shape, layers) for a in wb]

        def forward(x: Tensor, *flat: Tensor) -> Tensor:
            it = iter(flat)
            for layer in layers:
                if layer[0] == "conv":
                    x = ops.conv2d(x, next(it), next(it), 1, "pad" if layer[3] else "valid", layer[3])
                else:
                    x = ops.max_pool2d(x, layer[1])
            return x

        positions = tuple(range(0 if input_grad else 1, 1 + len(flat)))
        train = ops.value_and_grad(lambda *a: ops.sum(forward(*a)), positions)
        return {"forward": best_of(lambda: forward(x, *flat), seconds),
                "forward+backward": best_of(lambda: train(x, *flat), seconds)}

    return {name: case(*spec) for name, spec in CASES.items()}


def run_torch(seconds: float) -> dict[str, dict[str, float]]:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(THREADS)

    def case(shape: tuple, input_grad: bool, layers: list) -> dict[str, float]:
        x = torch.from_numpy(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
        params = [(torch.from_numpy(w).requires_grad_(), torch.from_numpy(b).requires_grad_())
                  for w, b in _params(shape, layers)]

        def forward(x: torch.Tensor) -> torch.Tensor:
            it = iter(params)
            for layer in layers:
                if layer[0] == "conv":
                    w, b = next(it)
                    x = F.conv2d(x, w, b, padding=layer[3])
                else:
                    x = F.max_pool2d(x, layer[1])
            return x

        def train() -> None:
            forward(x.detach().requires_grad_(input_grad)).sum().backward()

        with torch.no_grad():
            fwd = best_of(lambda: forward(x), seconds)
        return {"forward": fwd, "forward+backward": best_of(train, seconds)}

    return {name: case(*spec) for name, spec in CASES.items()}


def torch_results(args: argparse.Namespace) -> tuple[dict | None, str]:
    try:
        import torch  # noqa: F401
        return run_torch(args.seconds), "torch (this interpreter)"
    except ImportError:
        pass
    exe = args.torch_python or os.environ.get("TORCH_PYTHON") or "/work/envs/torch/bin/python"
    if not os.path.exists(exe):
        return None, "torch not found"
    proc = subprocess.run([exe, os.path.abspath(__file__), "--torch-only", "--seconds", str(args.seconds)],
                          capture_output=True, text=True, env=dict(os.environ), check=False)
    if proc.returncode:
        return None, f"torch run failed: {proc.stderr.strip()[-300:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1]), f"torch ({exe})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torch-only", action="store_true", help="time PyTorch only, print JSON")
    parser.add_argument("--torch-python", help="interpreter with torch installed")
    parser.add_argument("--seconds", type=float, default=1.0, help="timing budget per measurement")
    args = parser.parse_args()
    if args.torch_only:
        print(json.dumps(run_torch(args.seconds)))
        return
    ours = run_cellonnx(args.seconds)
    theirs, source = torch_results(args)
    print(f"threads: {THREADS}; best of runs, ms; reference: {source}")
    print(f"{'case':16s} {'pass':17s} {'cellonnx':>9s} {'torch':>9s} {'ratio':>6s}")
    for name, passes in ours.items():
        for pass_, ms in passes.items():
            ref = theirs[name][pass_] if theirs else None
            ratio = f"{ms / ref:6.2f}" if ref else "     -"
            print(f"{name:16s} {pass_:17s} {ms:9.3f} {ref if ref is not None else float('nan'):9.3f} {ratio}")


if __name__ == "__main__":
    main()
