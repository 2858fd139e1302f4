"""ResNet-50 training throughput on a CUDA GPU: cellonnx's compiled training step (GRAPH_MODE,
device_target "GPU": forward, backward and Momentum update as one ONNX graph run by onnxruntime's CUDA
execution provider, parameters and optimizer state held on the device) beside PyTorch eager on CUDA, in one
run.

    python bench/gpu_train.py [--batch 64] [--image 224] [--steps 10] [--blocks 3] [--sides cellonnx torch]
        [--sides cellonnx cellonnx-no-cuda-graph torch torch-host]

Both sides train the same architecture (the zoo's ResNet-50: bottleneck blocks [3, 4, 6, 3], stride on the
3x3 convolution; torchvision's ``resnet50`` is the same network) with SoftmaxCrossEntropy and SGD with
momentum 0.9, float32. PyTorch keeps its defaults (TF32 for cuDNN convolutions, not for matmuls); cellonnx
computes in float32 throughout unless ``--tf32`` lets it use TF32 for convolutions and matmuls (onnxruntime
has one switch for both). The input batch is a host array fed every step on the cellonnx side; PyTorch is
timed with the batch already on the device and with a host-to-device copy each step. Each side runs alone:
warm-up steps, then ``--blocks`` blocks of ``--steps`` steps with a pause between blocks, synchronising at
the end of each block (reading the loss back). Prints one JSON line per side: median images/s over blocks
and peak device memory. ``cellonnx-no-cuda-graph``: the cellonnx side with ``set_context(cuda_graph=False)``
(one launch per kernel).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_env  # noqa: F401 (the editable install's hook, before cellonnx.models is imported)


def device_memory_mib() -> float:
    """This process's memory on the GPU, from NVML (what nvidia-smi shows)."""
    try:
        import pynvml

        pynvml.nvmlInit()
        handle = pynvml.nvmlDeviceGetHandleByIndex(0)
        for proc in pynvml.nvmlDeviceGetComputeRunningProcesses(handle):
            if proc.pid == os.getpid():
                return round(proc.usedGpuMemory / 2**20, 1)
    except Exception:  # noqa: BLE001 (no NVML: report nothing rather than fail the benchmark)
        return float("nan")
    return float("nan")


def blocks(step, sync, args) -> list[float]:
    for _ in range(args.warmup):
        step()
    sync()
    rates = []
    for _ in range(args.blocks):
        time.sleep(args.pause)
        t = time.perf_counter()
        for _ in range(args.steps):
            step()
        sync()
        rates.append(args.batch * args.steps / (time.perf_counter() - t))
    return rates


def batch(args) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((args.batch, 3, args.image, args.image)).astype(np.float32)
    y = rng.integers(0, args.classes, args.batch).astype(np.int32)
    return x, y


def resnet50_step(args) -> tuple:
    """cellonnx's ResNet-50 training step in GRAPH_MODE on ``args.device`` and its batch: (step, x, y) as
    Tensors."""
    from cellonnx.models.resnet import resnet50

    import cellonnx as ms
    from cellonnx import nn

    ms.set_context(mode=ms.GRAPH_MODE, device_target=args.device)
    if args.tf32:  # onnxruntime's one TF32 switch covers convolutions and matmuls
        ms.set_context(gpu_config={"matmul_allow_tf32": True})
    ms.set_seed(0)
    net = resnet50(num_classes=args.classes)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                               nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9))
    step.set_train()
    x, y = batch(args)
    return step, ms.Tensor(x), ms.Tensor(y)


def run_cellonnx(args, variant: str = "") -> dict:
    import cellonnx as ms

    if variant == "no-cuda-graph":
        ms.set_context(cuda_graph=False)
    step, xt, yt = resnet50_step(args)
    last = []
    t = time.perf_counter()
    last.append(step(xt, yt))
    first_step_s = time.perf_counter() - t
    rates = blocks(lambda: last.append(step(xt, yt)) or last.pop(0),
                   lambda: float(last[-1].asnumpy()), args)
    from cellonnx.graph import train as graph_train

    (compiled,) = graph_train.compiled_steps(step)
    return {"side": f"cellonnx compiled (onnxruntime, device_target {args.device}, TF32 {args.tf32})"
                    + (f", {variant}" if variant else ""), "cuda_graph": compiled.cuda_graph,
            "images_per_s": round(statistics.median(rates), 1),
            "blocks": [round(r, 1) for r in rates], "first_step_s": round(first_step_s, 2),
            "loss": float(last[-1].asnumpy()), "device_mib": device_memory_mib()}


def run_torch(args, resident: bool) -> dict:
    import torch
    import torchvision

    torch.manual_seed(0)
    dev = torch.device("cuda")
    net = torchvision.models.resnet50(num_classes=args.classes).to(dev).train()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    criterion = torch.nn.CrossEntropyLoss()
    x, y = batch(args)
    xh, yh = torch.from_numpy(x), torch.from_numpy(y.astype(np.int64))
    xd, yd = xh.to(dev), yh.to(dev)
    holder = {}

    def step() -> None:
        xs, ys = (xd, yd) if resident else (xh.to(dev), yh.to(dev))
        opt.zero_grad(set_to_none=True)
        out = criterion(net(xs), ys)
        out.backward()
        opt.step()
        holder["loss"] = out

    torch.cuda.reset_peak_memory_stats()
    rates = blocks(step, lambda: float(holder["loss"].detach()), args)
    where = "on the device" if resident else "from host"
    return {"side": f"PyTorch {torch.__version__} eager CUDA, batch {where}",
            "images_per_s": round(statistics.median(rates), 1), "blocks": [round(r, 1) for r in rates],
            "loss": float(holder["loss"].detach()),
            "torch_peak_allocated_mib": round(torch.cuda.max_memory_allocated() / 2**20, 1),
            "device_mib": device_memory_mib()}


def resnet50_parser(doc: str, steps: int = 10, warmup: int = 3) -> argparse.ArgumentParser:
    """The options of a ResNet-50 training benchmark on the GPU (batch, blocks, device, TF32)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--image", type=int, default=224)
    parser.add_argument("--classes", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=steps)
    parser.add_argument("--blocks", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=warmup)
    parser.add_argument("--pause", type=float, default=1.0)
    parser.add_argument("--device", default="GPU", choices=["GPU", "CPU"],
                        help="cellonnx's device_target (CPU: a quick check of the script without a GPU)")
    parser.add_argument("--tf32", action="store_true",
                        help="let cellonnx use TF32 (PyTorch's default uses it for cuDNN convolutions)")
    return parser


def main() -> None:
    parser = resnet50_parser(__doc__)
    parser.add_argument("--sides", nargs="+", default=["cellonnx", "torch"],
                        choices=["cellonnx", "cellonnx-no-cuda-graph", "torch", "torch-host"])
    args = parser.parse_args()
    side = os.environ.get("GPU_TRAIN_SIDE")
    if side:
        if side.startswith("cellonnx"):
            result = run_cellonnx(args, side.removeprefix("cellonnx").lstrip("-"))
        else:
            result = run_torch(args, resident=side == "torch")
        print(json.dumps({**result, "batch": args.batch, "image": args.image}), flush=True)
        return
    import subprocess

    for side in args.sides:   # each side in a process of its own: no allocator or thread pool is shared
        subprocess.run([sys.executable, *sys.argv], env=dict(os.environ, GPU_TRAIN_SIDE=side), check=False)

if __name__ == "__main__":
    main()
