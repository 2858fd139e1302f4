"""Peak memory of one eager training step (forward, loss, backward, Momentum / SGD update) of LeNet-5 (batch
64, 1x32x32) and ResNet-18 (batch 32, 3x32x32, 10 classes), cellonnx beside PyTorch, each measured in a fresh
subprocess. The networks and steps are those of ``bench/lenet_step_profile.py``.

    python bench/memory.py [--threads 2] [--steps 3]

In each child: build the network, the optimizer and the batch (RSS "setup" = ru_maxrss then) and run one
warm-up step (which creates what persists between steps: PyTorch's momentum buffers, allocator caches); then
"resident" = the current RSS (VmRSS), the high-water mark is reset (``/proc/self/clear_refs`` 5), ``--steps``
more steps run, and "later steps" = ru_maxrss after them minus "resident": what a step adds on top of what
stays between steps. "Step peak" = the highest ru_maxrss (warm-up or later steps) minus "setup": the memory
training needs on top of the model and the batch (gradients, activations kept for the backward pass,
temporaries, optimizer state created on the first step - PyTorch's momentum buffers; cellonnx's Momentum
creates its buffers at construction, so they are in its setup). cellonnx tunes glibc malloc at import (trim
threshold 1 GiB), so the step's freed buffers stay resident and are reused by the next step. For cellonnx,
tracemalloc is started after the warm-up step and one more step is run under it: its peak is the largest total
of Python / NumPy allocations (NumPy reports its array buffers to tracemalloc) outstanding at once during that
step, beyond what existed before it. PyTorch's tensors bypass tracemalloc, so that column is cellonnx's only.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: KiB


def vmrss_mib() -> float:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024.0


def reset_hwm() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def child(lib: str, model: str, steps: int) -> None:
    sys.path.insert(0, HERE)
    import lenet_step_profile as lsp  # sets the thread variables from --threads before NumPy loads

    if lib == "cellonnx":
        step = lsp.cellonnx_step(model)
    else:
        step = lsp.torch_step(model)
    setup = maxrss_mib()
    step()
    warm = maxrss_mib()
    resident = vmrss_mib()
    reset_hwm()
    for _ in range(steps):
        step()
    after = maxrss_mib()
    out = {"setup": setup, "warm": warm, "resident": resident, "after": after, "traced": None}
    if lib == "cellonnx":
        import tracemalloc

        tracemalloc.start()
        tracemalloc.reset_peak()
        step()
        cur, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out["traced"] = peak / 2 ** 20
        out["traced_left"] = cur / 2 ** 20
    print("RESULT " + json.dumps(out), flush=True)


def main() -> None:
    from cellonnx.progress import track

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=3, help="steps after the warm-up step")
    parser.add_argument("--child", nargs=2, metavar=("LIB", "MODEL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.steps)
        return
    results = {}
    for model in track(("lenet", "resnet18"), "models"):
        for lib in ("cellonnx", "torch"):
            cmd = [sys.executable, os.path.abspath(__file__), "--threads", str(args.threads), "--steps",
                   str(args.steps), "--child", lib, model]
            proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
            line = next(s for s in proc.stdout.splitlines() if s.startswith("RESULT "))
            results[(model, lib)] = r = json.loads(line[len("RESULT "):])
            print(f"{model:9s} {lib:9s} setup {r['setup']:7.1f} MiB  peak of the warm-up step "
                  f"{r['warm']:7.1f} MiB  "
                  f"resident {r['resident']:7.1f} MiB  later steps +{r['after'] - r['resident']:.1f} MiB  "
                  f"step peak {max(r['after'], r['warm']) - r['setup']:7.1f} MiB"
                  + (f"  tracemalloc peak {r['traced']:.1f} MiB" if r["traced"] is not None else ""),
                  flush=True)
    names = {"lenet": "LeNet-5, batch 64, 1x32x32", "resnet18": "ResNet-18, batch 32, 3x32x32"}
    print()
    print("| network | RSS setup, cellonnx | PyTorch | step peak over setup (ru_maxrss), cellonnx | PyTorch "
          "| ratio | later steps over resident, cellonnx | PyTorch | cellonnx tracemalloc peak |")
    print("|---|---|---|---|---|---|---|---|---|")
    for model in ("lenet", "resnet18"):
        c, t = results[(model, "cellonnx")], results[(model, "torch")]
        dc, dt = (max(r["after"], r["warm"]) - r["setup"] for r in (c, t))
        ratio = f"{dc / dt:.2f}x" if dt > 0 else "-"
        print(f"| {names[model]} | {c['setup']:.0f} MiB | {t['setup']:.0f} MiB | {dc:.1f} MiB | "
              f"{dt:.1f} MiB | {ratio} | {c['after'] - c['resident']:.1f} MiB | "
              f"{t['after'] - t['resident']:.1f} MiB | "
              f"{c['traced']:.1f} MiB |")


if __name__ == "__main__":
    main()
