"""ResNet-18: export time and onnxruntime latency of cellonnx's graph beside torch.onnx.export's graph of the
same network (same weights), both run by the same onnxruntime.

Run with the torch environment, cellonnx and its dependencies on the path:
    PYTHONPATH=/work/main:/work/venv/lib/python3.11/site-packages \\
        /work/envs/torch/bin/python bench/export_vs_torch.py [--repeat 5] [--runs 50] [--threads 0]

Export time: cellonnx.export (trace, graph clean-up, write) against torch.onnx.export with the TorchScript
exporter (dynamo=False) and, where onnxscript is installed, the dynamo exporter; each the median of
--repeat exports after one warm-up export. Latency: one InferenceSession per graph (same options: all graph
optimisations, --threads intra-op threads, no spinning), each batch size timed --runs times after warm-up,
the two graphs alternating run by run (and which goes first alternating too) so load changes hit both; the
median is reported. Both graphs take a dynamic batch axis. The load average is printed with the numbers: other
work on the machine moves them.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import bench_env  # noqa: F401 (PYTHONPATH's .pth files)
import numpy as np
import onnx
import onnxruntime as ort
import torch
from cellonnx.models import get_model
from torch import nn as tnn

import cellonnx as ms
from cellonnx import Tensor
from cellonnx import nn as cnn
from cellonnx.progress import track


# ---------------------------------------------------------------- the same ResNet-18 in torch
class Block(tnn.Module):
    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.conv1 = tnn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = tnn.BatchNorm2d(cout)
        self.conv2 = tnn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = tnn.BatchNorm2d(cout)
        self.relu = tnn.ReLU()
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = tnn.Sequential(tnn.Conv2d(cin, cout, 1, stride, 0, bias=False),
                                             tnn.BatchNorm2d(cout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + (x if self.downsample is None else self.downsample(x)))


class TorchResNet18(tnn.Module):
    """torchvision's resnet18 layout (conv1, bn1, maxpool with padding 1, layer1..4, avgpool, fc)."""

    def __init__(self, num_classes: int) -> None:
        super().__init__()
        self.conv1 = tnn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = tnn.BatchNorm2d(64)
        self.relu = tnn.ReLU()
        self.maxpool = tnn.MaxPool2d(3, 2, 1)
        chans = [64, 64, 128, 256, 512]
        for i in range(4):
            stride = 1 if i == 0 else 2
            setattr(self, f"layer{i + 1}", tnn.Sequential(Block(chans[i], chans[i + 1], stride),
                                                        Block(chans[i + 1], chans[i + 1], 1)))
        self.avgpool = tnn.AdaptiveAvgPool2d(1)
        self.fc = tnn.Linear(512, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def copy_weights(src: cnn.Cell, dst: tnn.Module) -> None:
    """Conv / BatchNorm / Dense of the cellonnx network into the torch one, layer by layer in build order."""
    ours = [c for _, c in src.cells_and_names() if isinstance(c, (cnn.Conv2d, cnn.BatchNorm2d, cnn.Dense))]
    theirs = [m for m in dst.modules() if isinstance(m, (tnn.Conv2d, tnn.BatchNorm2d, tnn.Linear))]
    assert len(ours) == len(theirs), (len(ours), len(theirs))
    with torch.no_grad():
        for c, m in zip(ours, theirs):
            if isinstance(m, tnn.BatchNorm2d):
                pairs = [(m.weight, c.gamma), (m.bias, c.beta), (m.running_mean, c.moving_mean),
                         (m.running_var, c.moving_variance)]
                m.eps = float(c.eps)
            else:
                pairs = [(m.weight, c.weight)] + ([(m.bias, c.bias)] if m.bias is not None else [])
            for t, p in pairs:
                assert tuple(t.shape) == tuple(p.shape), (type(m).__name__, t.shape, p.shape)
                t.copy_(torch.from_numpy(p.asnumpy()))


# ---------------------------------------------------------------- measurements
def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def session(path: str, threads: int) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.intra_op_num_threads = threads
    # the two sessions alternate run by run: a pool that spins after its run takes the cores from the other
    # session's next run (measured: 103-119 ms instead of 92 ms for the same graph at batch 8)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.log_severity_level = 3
    return ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])


def latency(sessions: dict[str, ort.InferenceSession], x: np.ndarray, runs: int) -> dict[str, float]:
    feeds = {k: {s.get_inputs()[0].name: x} for k, s in sessions.items()}
    for _ in range(5):
        for k, s in sessions.items():
            s.run(None, feeds[k])
    times: dict[str, list[float]] = {k: [] for k in sessions}
    order = list(sessions)
    for r in track(range(runs), "runs"):
        # alternating, so drift in machine load hits both graphs alike, and which goes first alternates too
        for k in order if r % 2 == 0 else order[::-1]:
            t = time.perf_counter()
            sessions[k].run(None, feeds[k])
            times[k].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in times.items()}


def node_summary(path: str) -> str:
    counts = Counter(n.op_type for n in onnx.load(path, load_external_data=False).graph.node)
    return ", ".join(f"{op} {n}" for op, n in sorted(counts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="exports timed per exporter (default 5)")
    parser.add_argument("--runs", type=int, default=50,
                        help="timed onnxruntime runs per batch size (default 50)")
    parser.add_argument("--threads", type=int, default=0, help="onnxruntime intra-op threads (0: its choice)")
    parser.add_argument("--opset", type=int, default=18)
    args = parser.parse_args()
    torch.set_num_threads(max(1, len(os.sched_getaffinity(0))))

    ms.set_seed(0)
    net = get_model("resnet18", num_classes=1000)
    net.set_train(False)
    rng = np.random.default_rng(0)
    for p in net.get_parameters():  # statistics away from 0 / 1 so the BatchNorm folding is exercised
        if "moving_variance" in p.name:
            p.set_data(rng.uniform(0.5, 1.5, p.shape).astype(np.float32))
        elif "moving_mean" in p.name or p.name.endswith("beta"):
            p.set_data(rng.uniform(-0.2, 0.2, p.shape).astype(np.float32))
    tnet = TorchResNet18(1000).eval()
    copy_weights(net, tnet)

    x1 = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
    net.set_inputs(Tensor(shape=(None, 3, 224, 224), dtype=ms.float32))
    folder = Path(tempfile.mkdtemp(prefix="export_vs_torch_"))
    ours = str(folder / "cellonnx.onnx")
    torch_ts = str(folder / "torch_torchscript.onnx")

    def export_ours() -> None:
        ms.export(net, Tensor(x1), file_name=ours, opset=args.opset)

    def export_torch(dynamo: bool, path: str) -> None:
        kwargs = {"dynamic_axes": {"x": {0: "batch"}}} if not dynamo else \
            {"dynamic_shapes": {"x": {0: torch.export.Dim("batch", min=1, max=1024)}}}
        torch.onnx.export(tnet, (torch.from_numpy(x1),), path, input_names=["x"], output_names=["output"],
                          opset_version=args.opset, dynamo=dynamo, **kwargs)

    first = time.perf_counter()
    export_ours()
    cold = time.perf_counter() - first
    t_ours = median_time(export_ours, args.repeat)
    with torch.no_grad():
        export_torch(False, torch_ts)
        t_ts = median_time(lambda: export_torch(False, torch_ts), args.repeat)
        t_dynamo = None
        try:
            import onnxscript  # noqa: F401  (the dynamo exporter needs it)
        except ImportError:
            dynamo_note = "not run: onnxscript is not installed in this environment"
        else:
            torch_dy = str(folder / "torch_dynamo.onnx")
            export_torch(True, torch_dy)
            t_dynamo = median_time(lambda: export_torch(True, torch_dy), args.repeat)
            dynamo_note = ""

    sessions = {"cellonnx": session(ours, args.threads), "torch": session(torch_ts, args.threads)}
    with torch.no_grad():
        want = tnet(torch.from_numpy(x1)).numpy()
    diffs = {k: float(np.abs(s.run(None, {s.get_inputs()[0].name: x1})[0] - want).max())
             for k, s in sessions.items()}
    lat = {b: latency(sessions, rng.standard_normal((b, 3, 224, 224)).astype(np.float32), args.runs)
           for b in (1, 8)}

    cores = len(os.sched_getaffinity(0))
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"ResNet-18 (1000 classes, 224x224, dynamic batch), opset {args.opset}; {cores} cores, load "
          f"average {load}; onnxruntime {ort.__version__}, torch {torch.__version__}, "
          f"Python {sys.version.split()[0]}")
    print()
    print(f"| exporter | export time (median of {args.repeat}) |")
    print("|---|---|")
    print(f"| cellonnx.export | {t_ours * 1000:.0f} ms (first export in the process: {cold * 1000:.0f} ms) |")
    print(f"| torch.onnx.export, TorchScript (dynamo=False) | {t_ts * 1000:.0f} ms |")
    dy = f"{t_dynamo * 1000:.0f} ms" if t_dynamo is not None else dynamo_note
    print(f"| torch.onnx.export, dynamo | {dy} |")
    print()
    print("| batch | cellonnx graph | torch graph | ratio (cellonnx / torch) |")
    print("|---|---|---|---|")
    for b, d in lat.items():
        print(f"| {b} | {d['cellonnx'] * 1000:.2f} ms | {d['torch'] * 1000:.2f} ms | "
              f"{d['cellonnx'] / d['torch']:.3f} |")
    print()
    print(f"max |output - torch eager| at batch 1: cellonnx graph {diffs['cellonnx']:.2e}, "
          f"torch graph {diffs['torch']:.2e}")
    print(f"cellonnx graph nodes: {node_summary(ours)}")
    print(f"torch graph nodes:    {node_summary(torch_ts)}")


if __name__ == "__main__":
    main()
