"""Inference latency of ResNet-18 and MobileNetV2 (1000 classes) in four runtimes with the same weights:
cellonnx eager (under ``cellonnx.no_grad()``), cellonnx compiled (``cellonnx.graph.compile.compile_cell``, its
graph in onnxruntime), PyTorch eager (``torch.no_grad``) and torch.onnx.export's graph (TorchScript exporter,
``dynamo=False``) in the same onnxruntime.

    python bench/inference.py [--size 224] [--batches 1 16] [--threads 2] [--runs 20] [--budget 6]

Every runtime uses ``--threads`` threads (OpenBLAS / OpenMP for NumPy, torch.set_num_threads, onnxruntime
intra-op threads). Latency is the median of up to ``--runs`` timed calls after two warm-up calls, stopping
early once ``--budget`` seconds are spent on a configuration (at least 3 calls). Work is counted analytically
from the layer shapes (multiply-adds of every convolution and dense layer, 2 FLOPs each) and reported as
achieved GFLOP/s against the machine's peak, estimated in the same run as the best GFLOP/s of a 4096^3 float32
``np.matmul``. The torch networks take cellonnx's parameters (``export_vs_torch.copy_weights``) and the
outputs of all four runtimes are compared at batch 1.

MXNet and MindSpore, where installed, are timed on the same batch sizes in their own interpreters
(bench/reference_infer.py; their own random weights, the same layers):

    ... bench/inference.py --reference mxnet=/work/envs/mxnet/bin/python \\
        --reference mxnet-hybrid=/work/envs/mxnet/bin/python \\
        --reference mindspore-graph=/work/envs/mindspore/bin/python
"""
from __future__ import annotations

import argparse
import os

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv()

import json  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import onnxruntime as ort  # noqa: E402
import torch  # noqa: E402
from cellonnx.models import get_model  # noqa: E402
from export_vs_torch import TorchResNet18, copy_weights, session  # noqa: E402
from reference_infer import median_latency  # noqa: E402
from torch import nn as tnn  # noqa: E402

import cellonnx as ms  # noqa: E402
from cellonnx import Tensor  # noqa: E402
from cellonnx.graph.compile import compile_cell  # noqa: E402
from cellonnx.progress import track  # noqa: E402


# ---------------------------------------------------------------- MobileNetV2 in torch, cellonnx's layout
class TorchConvBNReLU(tnn.Sequential):
    def __init__(self, cin: int, cout: int, k: int = 3, stride: int = 1, groups: int = 1) -> None:
        super().__init__(tnn.Conv2d(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias=False),
                         tnn.BatchNorm2d(cout), tnn.ReLU6())


class TorchInvertedResidual(tnn.Module):
    def __init__(self, inp: int, oup: int, stride: int, expand: int) -> None:
        super().__init__()
        hidden = round(inp * expand)
        self.use_res = stride == 1 and inp == oup
        layers: list[tnn.Module] = [TorchConvBNReLU(inp, hidden, 1)] if expand != 1 else []
        layers += [TorchConvBNReLU(hidden, hidden, 3, stride, groups=hidden),
                   tnn.Conv2d(hidden, oup, 1, 1, 0, bias=False), tnn.BatchNorm2d(oup)]
        self.conv = tnn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.conv(x) if self.use_res else self.conv(x)


class TorchMobileNetV2(tnn.Module):
    """The layers of ``models/mobilenetv2.py`` (width 1.0) in the same build order."""

    def __init__(self, cell: ms.nn.Cell, num_classes: int) -> None:
        super().__init__()
        from cellonnx.models.mobilenetv2 import _make_divisible

        backbone = cell.backbone
        cin = _make_divisible(32, 8)
        feats: list[tnn.Module] = [TorchConvBNReLU(3, cin, 3, 2)]
        for t, c, n, s in backbone.cfgs:
            cout = _make_divisible(c, 8)
            for i in range(n):
                feats.append(TorchInvertedResidual(cin, cout, s if i == 0 else 1, t))
                cin = cout
        feats.append(TorchConvBNReLU(cin, backbone.out_channels, 1))
        self.features = tnn.Sequential(*feats)
        self.dense = tnn.Linear(backbone.out_channels, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dense(self.features(x).mean((2, 3)))


# ---------------------------------------------------------------- helpers
def macs(tnet: tnn.Module, x: torch.Tensor) -> int:
    """Multiply-adds of every Conv2d and Linear, from the layer shapes (output elements x fan-in)."""
    total = [0]

    def hook(m, _inp, out):
        if isinstance(m, tnn.Conv2d):
            kh, kw = m.kernel_size
            total[0] += out.numel() * (m.in_channels // m.groups) * kh * kw
        else:
            total[0] += out.numel() * m.in_features

    hs = [m.register_forward_hook(hook) for m in tnet.modules() if isinstance(m, (tnn.Conv2d, tnn.Linear))]
    with torch.no_grad():
        tnet(x)
    for h in hs:
        h.remove()
    return total[0]


def peak_gflops(n: int = 4096, repeat: int = 5) -> float:
    a = np.random.default_rng(1).standard_normal((n, n)).astype(np.float32)
    b = np.random.default_rng(2).standard_normal((n, n)).astype(np.float32)
    np.matmul(a, b)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        np.matmul(a, b)
        best = min(best, time.perf_counter() - t)
    return 2 * n ** 3 / best / 1e9


def build(name: str, size: int):
    ms.set_seed(0)
    net = get_model(name, num_classes=1000)
    net.set_train(False)
    rng = np.random.default_rng(0)
    for p in net.get_parameters():  # BatchNorm statistics away from 0 / 1
        if "moving_variance" in p.name:
            p.set_data(rng.uniform(0.5, 1.5, p.shape).astype(np.float32))
        elif "moving_mean" in p.name or p.name.endswith("beta"):
            p.set_data(rng.uniform(-0.2, 0.2, p.shape).astype(np.float32))
    tnet = (TorchResNet18(1000) if name == "resnet18" else TorchMobileNetV2(net, 1000)).eval()
    copy_weights(net, tnet)
    return net, tnet


def make_runners(net, tnet, sess, x: np.ndarray) -> dict:
    """The four runtimes on one batch, each a call returning the output as a NumPy array."""
    xt, xc = torch.from_numpy(x), Tensor(x)
    compiled = compile_cell(net, xc)

    def eager():
        with ms.no_grad():
            return net(xc).asnumpy()

    def torch_eager():
        with torch.no_grad():
            return tnet(xt).numpy()

    return {"cellonnx eager": eager,
            "cellonnx compiled": lambda: compiled(xc).asnumpy(),
            "PyTorch eager": torch_eager,
            "torch.onnx graph (ORT)": lambda: sess.run(None, {"x": x})[0]}


class ReferenceRuntime:
    """One network in another framework's interpreter (bench/reference_infer.py), timed there."""

    def __init__(self, framework: str, python: str, model: str, size: int) -> None:
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference_infer.py")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # that interpreter's own packages
        self.name = framework
        command = [python, script, "--framework", framework, "--model", model, "--size", str(size)]
        self.proc = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        first = self.proc.stdout.readline().strip()
        self.skip = "" if first == "ready" else (first.partition(" ")[2] or "did not start")

    def latency(self, batch: int, runs: int, budget: float) -> tuple[float, int]:
        self.proc.stdin.write(f"{batch} {runs} {budget}\n")
        self.proc.stdin.flush()
        t, n = json.loads(self.proc.stdout.readline())
        return t, n

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--size", type=int, default=224, help="image side (3 x size x size)")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 16])
    parser.add_argument("--models", nargs="+", default=["resnet18", "mobilenetv2"])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--budget", type=float, default=6.0, help="seconds of timed calls per configuration")
    parser.add_argument("--reference", action="append", default=[], metavar="FRAMEWORK=PYTHON",
                        help="also time mxnet, mxnet-hybrid, mindspore-graph or mindspore-pynative, run by "
                             "that interpreter (mxnet=/work/envs/mxnet/bin/python); repeatable")
    args = parser.parse_args()
    torch.set_num_threads(THREADS)
    ms.set_context(intra_op_num_threads=THREADS)
    peak = peak_gflops()
    folder = Path(tempfile.mkdtemp(prefix="cellonnx_inference_"))
    load0 = os.getloadavg()
    rows = []
    for name in track(args.models, "models"):
        net, tnet = build(name, args.size)
        x1 = np.random.default_rng(0).standard_normal((1, 3, args.size, args.size)).astype(np.float32)
        path = str(folder / f"{name}_torch.onnx")
        with torch.no_grad():
            torch.onnx.export(tnet, (torch.from_numpy(x1),), path, input_names=["x"], output_names=["y"],
                              opset_version=18, dynamo=False, dynamic_axes={"x": {0: "batch"}})
        sess = session(path, THREADS)
        specs = [r.partition("=") for r in args.reference]
        others = [ReferenceRuntime(framework, py, name, args.size) for framework, _, py in specs]
        for o in others:
            if o.skip:
                print(f"{name:12s} {o.name}: skipped ({o.skip})", flush=True)
        for b in args.batches:
            x = np.random.default_rng(b).standard_normal((b, 3, args.size, args.size)).astype(np.float32)
            ms.set_context(intra_op_num_threads=THREADS)  # the same onnxruntime threads as the torch graph's
            runners = make_runners(net, tnet, sess, x)
            outs = {k: fn() for k, fn in runners.items()}
            diff = max(float(np.abs(o - outs["PyTorch eager"]).max()) for o in outs.values())
            flops = 2 * macs(tnet, torch.from_numpy(x))
            timers = {k: (lambda fn=fn: median_latency(fn, args.runs, args.budget))
                      for k, fn in runners.items()}
            timers.update({o.name: (lambda o=o, b=b: o.latency(b, args.runs, args.budget))
                           for o in others if not o.skip})
            for k, timer in timers.items():
                t, n = timer()
                rows.append((name, b, k, t, n, flops, diff))
                print(f"{name:12s} b={b:<3d} {k:24s} {t * 1e3:9.2f} ms ({n} runs)  "
                      f"{flops / t / 1e9:7.2f} GFLOP/s", flush=True)
        for o in others:
            o.close()
    load1 = os.getloadavg()
    print()
    print(f"3x{args.size}x{args.size}, 1000 classes, {THREADS} threads everywhere; np.matmul 4096^3 float32 "
          f"peak estimate {peak:.1f} GFLOP/s; load average {load0[0]:.1f} -> {load1[0]:.1f}; onnxruntime "
          f"{ort.__version__}, torch {torch.__version__}, numpy {np.__version__}")
    print()
    print("| model | batch | GFLOP / call | runtime | median latency | GFLOP/s | % of peak | x PyTorch eager "
          "| x torch.onnx graph |")
    print("|---|---|---|---|---|---|---|---|---|")
    ref = {(r[0], r[1], r[2]): r[3] for r in rows}
    for name, b, k, t, _n, flops, _d in rows:
        gfs = flops / t / 1e9
        vs_torch, vs_graph = t / ref[(name, b, "PyTorch eager")], t / ref[(name, b, "torch.onnx graph (ORT)")]
        print(f"| {name} | {b} | {flops / 1e9:.2f} | {k} | {t * 1e3:.2f} ms | {gfs:.1f} | "
              f"{100 * gfs / peak:.0f}% | {vs_torch:.2f} | {vs_graph:.2f} |")
    print()
    for name in args.models:
        for b in args.batches:
            d = next(r[6] for r in rows if r[0] == name and r[1] == b)
            print(f"{name} batch {b}: max |output - PyTorch eager| over the four runtimes {d:.2e}")


if __name__ == "__main__":
    main()
