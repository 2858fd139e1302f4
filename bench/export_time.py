"""Compile and export time of zoo models (LeNet-5 1x32x32, ResNet-18 and MobileNetV2 3x224x224) beside
torch.onnx.export of the same networks with the TorchScript exporter (``dynamo=False``) and, where onnxscript
is installed, the dynamo exporter; all with a dynamic batch axis, opset 18.

    PYTHONPATH=/work/main:/work/venv/lib/python3.11/site-packages /work/envs/torch/bin/python \\
        bench/export_time.py [--repeat 5] [--threads 2] [--models lenet5 resnet18 mobilenetv2]

cellonnx export = ``cellonnx.export`` (trace the NumPy forward once, optimise the graph, write the file);
cellonnx compile = ``trace_cell`` + ``CompiledCell`` + the first call (trace, optimise, serialise, create the
onnxruntime session, run once), what ``Cell.compile`` / GRAPH_MODE costs on a new input signature. Each time
is the median of ``--repeat`` runs after one warm-up run (the first, cold run in the process is shown too).
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import bench_env  # noqa: F401 (first: PYTHONPATH's .pth files)
import numpy as np
import onnxruntime as ort
import torch
from cellonnx.models import get_model
from export_vs_torch import copy_weights
from inference import THREADS, build
from train_step import torch_lenet5

import cellonnx as ms
from cellonnx.graph.compile import CompiledCell, trace_cell
from cellonnx.progress import track
from cellonnx.tensor import Tensor


def median_time(fn, repeat: int) -> tuple[float, float]:
    """(cold first run, median of ``repeat`` later runs) in seconds."""
    t = time.perf_counter()
    fn()
    cold = time.perf_counter() - t
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return cold, statistics.median(times)


def networks(name: str):
    if name == "lenet5":
        ms.set_seed(0)
        net = get_model("lenet5", num_classes=10)
        net.set_train(False)
        tnet = torch_lenet5().eval()
        copy_weights(net, tnet)
        return net, tnet, (1, 32, 32)
    net, tnet = build(name, 224)
    return net, tnet, (3, 224, 224)


def measure(name: str, folder: Path, opset: int, repeat: int, has_dynamo: bool) -> list[tuple]:
    """(model, exporter, first run, median) rows of one model, printed as they come."""
    out: list[tuple] = []
    net, tnet, shape = networks(name)
    x = np.random.default_rng(0).standard_normal((1, *shape)).astype(np.float32)
    net.set_inputs(Tensor(shape=(None, *shape), dtype=ms.float32))
    xc, xt = Tensor(x), torch.from_numpy(x)
    ours = str(folder / f"{name}_cellonnx.onnx")

    def export_ours() -> None:
        ms.export(net, xc, file_name=ours, opset=opset)

    def compile_ours() -> None:
        CompiledCell(net, trace_cell(net, (xc,), opset))(xc)

    def export_torch(dynamo: bool, path: str) -> None:
        kwargs = {"dynamic_axes": {"x": {0: "batch"}}} if not dynamo else \
            {"dynamic_shapes": ({0: torch.export.Dim("batch", min=1, max=1024)},)}
        with torch.no_grad():
            torch.onnx.export(tnet, (xt,), path, input_names=["x"], output_names=["y"],
                              opset_version=opset, dynamo=dynamo, **kwargs)

    result = {"cellonnx.export": median_time(export_ours, repeat),
              "cellonnx compile (trace + session + first run)": median_time(compile_ours, repeat),
              "torch.onnx.export, TorchScript": median_time(
                  lambda: export_torch(False, str(folder / f"{name}_ts.onnx")), repeat)}
    if has_dynamo:
        result["torch.onnx.export, dynamo"] = median_time(
            lambda: export_torch(True, str(folder / f"{name}_dynamo.onnx")), repeat)
    sess = ort.InferenceSession(ours, providers=["CPUExecutionProvider"])
    with torch.no_grad():
        diff = float(np.abs(sess.run(None, {sess.get_inputs()[0].name: x})[0] - tnet(xt).numpy()).max())
    for what, (cold, med) in result.items():
        out.append((name, what, cold, med))
        print(f"{name:12s} {what:48s} cold {cold * 1e3:8.0f} ms  median {med * 1e3:8.0f} ms", flush=True)
    print(f"{name:12s} cellonnx graph vs torch eager: max abs diff {diff:.1e}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=THREADS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--models", nargs="+", default=["lenet5", "resnet18", "mobilenetv2"])
    parser.add_argument("--opset", type=int, default=18)
    args = parser.parse_args()
    torch.set_num_threads(THREADS)
    ms.set_context(intra_op_num_threads=THREADS)
    try:
        import onnxscript  # noqa: F401  (the dynamo exporter needs it)
        has_dynamo = True
    except ImportError:
        has_dynamo = False
    folder = Path(tempfile.mkdtemp(prefix="cellonnx_export_time_"))
    load0 = os.getloadavg()[0]
    rows = []
    for name in track(args.models, "models"):
        rows += measure(name, folder, args.opset, args.repeat, has_dynamo)
    load1 = os.getloadavg()[0]
    print()
    print(f"opset {args.opset}, dynamic batch; {THREADS} threads; load average {load0:.2f} -> {load1:.2f}; "
          f"torch {torch.__version__}, onnxruntime {ort.__version__}, dynamo exporter "
          f"{'available' if has_dynamo else 'not available (onnxscript missing)'}")
    print()
    print("| model | exporter | median (first run) | x torch TorchScript |")
    print("|---|---|---|---|")
    ref = {r[0]: r[3] for r in rows if r[1] == "torch.onnx.export, TorchScript"}
    for name, what, cold, med in rows:
        print(f"| {name} | {what} | {med * 1e3:.0f} ms ({cold * 1e3:.0f} ms) | {med / ref[name]:.2f} |")


if __name__ == "__main__":
    main()
