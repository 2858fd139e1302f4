"""ResNet-50 inference latency on a CUDA GPU: cellonnx compiled (GRAPH_MODE, device_target "GPU": the traced
graph in onnxruntime's CUDA execution provider) beside PyTorch eager on CUDA (``torch.no_grad``, eval mode),
in one run, each side in a process of its own.

    python bench/gpu_infer.py [--batches 1 32] [--image 224] [--runs 50] [--device GPU|CPU]

Both sides take a host batch and return host logits (the copy each way is part of what a caller pays). After
warm-up calls, the median latency of ``--runs`` calls per batch size; one JSON line per side and batch.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_env  # noqa: F401 (the editable install's hook, before cellonnx.models is imported)
from gpu_train import device_memory_mib


def latencies(call, runs: int) -> list[float]:
    for _ in range(3):
        call()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    return times


def run_side(side: str, args) -> None:
    rng = np.random.default_rng(0)
    if side == "cellonnx":
        from cellonnx.models.resnet import resnet50

        import cellonnx as ms

        ms.set_context(mode=ms.GRAPH_MODE, device_target=args.device)
        net = resnet50(num_classes=1000)
        net.set_train(False)
        name = f"cellonnx compiled (onnxruntime, device_target {args.device})"

        def make_call(x):
            t = ms.Tensor(x)
            return lambda: net(t).asnumpy()
    else:
        import torch
        import torchvision

        dev = torch.device("cuda")
        model = torchvision.models.resnet50(num_classes=1000).to(dev).eval()
        name = f"PyTorch {torch.__version__} eager CUDA"

        def make_call(x):
            def call():
                with torch.no_grad():
                    return model(torch.from_numpy(x).to(dev)).cpu().numpy()
            return call
    for b in args.batches:
        x = rng.standard_normal((b, 3, args.image, args.image)).astype(np.float32)
        call = make_call(x)
        t = time.perf_counter()
        call()
        first = time.perf_counter() - t
        times = latencies(call, args.runs)
        med = statistics.median(times)
        print(json.dumps({"side": name, "batch": b, "image": args.image, "median_ms": round(med * 1e3, 2),
                          "images_per_s": round(b / med, 1), "first_call_s": round(first, 2),
                          "device_mib": device_memory_mib()}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 32])
    parser.add_argument("--image", type=int, default=224)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--device", default="GPU", choices=["GPU", "CPU"])
    parser.add_argument("--sides", nargs="+", default=["cellonnx", "torch"], choices=["cellonnx", "torch"])
    args = parser.parse_args()
    side = os.environ.get("GPU_INFER_SIDE")
    if side:
        run_side(side, args)
        return
    for side in args.sides:
        subprocess.run([sys.executable, *sys.argv], env=dict(os.environ, GPU_INFER_SIDE=side), check=False)


if __name__ == "__main__":
    main()
