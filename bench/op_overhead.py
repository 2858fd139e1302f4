"""Per-op dispatch overhead: a chain of 1,000 tiny adds (shape (4,)), side by side in one run.

    python bench/op_overhead.py            # cellonnx and NumPy
    <python with torch> bench/op_overhead.py   # adds PyTorch eager (same thread count)
    PYTHONPATH=/work/main:/work/venv/lib/python3.11/site-packages /work/envs/torch/bin/python \\
        bench/op_overhead.py

Prints microseconds per op and ratios to raw NumPy and to PyTorch.
"""
from __future__ import annotations

import timeit

import bench_env  # noqa: F401  first: PYTHONPATH's .pth files (the editable install's import hook)
import numpy as np

import cellonnx as ms
from cellonnx import ops

N = 1000


def chain_numpy(x: np.ndarray) -> np.ndarray:
    for _ in range(N):
        x = x + x
    return x


def chain_cellonnx(x: ms.Tensor) -> ms.Tensor:
    for _ in range(N):
        x = ops.add(x, x)
    return x


def best(fn, repeat: int = 7, number: int = 5) -> float:
    """Best time per op in microseconds."""
    return min(timeit.repeat(fn, repeat=repeat, number=number)) / number / N * 1e6


def main() -> None:
    a = np.zeros(4, np.float32)
    rows = {"numpy": best(lambda: chain_numpy(a))}
    t = ms.Tensor(a)
    with ms.no_grad():
        rows["cellonnx (no grad)"] = best(lambda: chain_cellonnx(t))
    p = ms.Parameter(ms.Tensor(a), name="p")
    rows["cellonnx (recording)"] = best(lambda: chain_cellonnx(p))
    rows["cellonnx (forward+backward)"] = best(lambda: ms.grad(lambda x: ops.sum(chain_cellonnx(x)))(t),
                                               repeat=3, number=2)
    try:
        import torch
        torch.set_num_threads(2)
        tt = torch.zeros(4)
        tp = tt.clone().requires_grad_(True)

        def torch_chain(x):
            for _ in range(N):
                x = torch.add(x, x)
            return x

        with torch.no_grad():
            rows["torch (no grad)"] = best(lambda: torch_chain(tt))
        rows["torch (recording)"] = best(lambda: torch_chain(tp))

        def torch_fb():
            tp.grad = None
            torch_chain(tp).sum().backward()

        rows["torch (forward+backward)"] = best(torch_fb, repeat=3, number=2)
    except ImportError:
        pass
    base = rows["numpy"]
    print(f"{'chain of 1,000 adds on shape (4,)':<34} {'us/op':>8} {'x numpy':>8} {'x torch':>8}")
    for name, us in rows.items():
        ref = rows.get("torch " + name.split(" ", 1)[1]) if name.startswith("cellonnx") and " " in name else None
        print(f"{name:<34} {us:>8.2f} {us / base:>8.1f} {us / ref if ref else float('nan'):>8.2f}")


if __name__ == "__main__":
    main()
