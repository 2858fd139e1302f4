"""Inference latency of ResNet-18 / MobileNetV2 in MXNet or MindSpore, for bench/inference.py to show beside
cellonnx, PyTorch and onnxruntime.

Those frameworks pin NumPy versions of their own, so they run in their own interpreters; inference.py starts
this script there and drives it over stdin / stdout:

    /work/envs/mxnet/bin/python bench/reference_infer.py --framework mxnet-hybrid --model resnet18

It builds the network (MXNet: Gluon's model zoo ``resnet18_v1`` / ``mobilenet_v2_1_0``, the same layers as
torchvision's; MindSpore: ResNet-18 written below in its torchvision layout, no MobileNetV2) with the
framework's own random initial weights (latency does not depend on them), prints ``ready`` (or ``skip
<reason>``), then answers every line ``BATCH RUNS BUDGET`` with a JSON ``[median seconds, calls]`` timed as
inference.py times its own runtimes (two warm-up calls, at most RUNS calls or BUDGET seconds, at least 3; a
first call longer than BUDGET is reported alone), until ``quit``. Frameworks: mxnet, mxnet-hybrid
(``hybridize(static_alloc=True, static_shape=True)``), mindspore-graph, mindspore-pynative.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

FRAMEWORKS = ("mxnet", "mxnet-hybrid", "mindspore-graph", "mindspore-pynative")
THREADS = int(os.environ.get("OMP_NUM_THREADS", "2"))


def mxnet_runner(model: str, hybrid: bool) -> Callable[[np.ndarray], Callable[[], None]]:
    import mxnet as mx
    from mxnet.gluon.model_zoo import vision

    net = vision.resnet18_v1(classes=1000) if model == "resnet18" else vision.mobilenet_v2_1_0(classes=1000)
    net.initialize(mx.init.Xavier())
    if hybrid:
        net.hybridize(static_alloc=True, static_shape=True)

    def on(x: np.ndarray) -> Callable[[], None]:
        xm = mx.nd.array(x)
        return lambda: net(xm).wait_to_read()

    return on


def mindspore_runner(model: str, graph: bool) -> Callable[[np.ndarray], Callable[[], None]]:
    import mindspore as ms
    from mindspore import Tensor, nn, ops

    if model != "resnet18":
        raise NotImplementedError("MindSpore has no model zoo package here; only ResNet-18 is written out")
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    ms.set_device("CPU")
    ms.device_context.cpu.op_tuning.threads_num(THREADS)

    def conv(cin: int, cout: int, k: int, stride: int) -> nn.Cell:
        return nn.Conv2d(cin, cout, k, stride, pad_mode="pad", padding=k // 2, has_bias=False)

    class Block(nn.Cell):
        def __init__(self, cin: int, cout: int, stride: int) -> None:
            super().__init__()
            self.conv1, self.bn1 = conv(cin, cout, 3, stride), nn.BatchNorm2d(cout)
            self.conv2, self.bn2 = conv(cout, cout, 3, 1), nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.SequentialCell([conv(cin, cout, 1, stride), nn.BatchNorm2d(cout)])

        def construct(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return self.relu(out + (x if self.down is None else self.down(x)))

    class ResNet18(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.SequentialCell([conv(3, 64, 7, 2), nn.BatchNorm2d(64), nn.ReLU(),
                                           nn.MaxPool2d(3, 2, pad_mode="pad", padding=1)])
            chans = [64, 64, 128, 256, 512]
            self.layers = nn.SequentialCell([Block(chans[i], chans[i + 1], 1 if i == 0 else 2) if j == 0
                                             else Block(chans[i + 1], chans[i + 1], 1)
                                             for i in range(4) for j in range(2)])
            self.fc = nn.Dense(512, 1000)

        def construct(self, x):
            x = self.layers(self.stem(x))
            return self.fc(ops.mean(x, (2, 3)))

    net = ResNet18()
    net.set_train(False)

    def on(x: np.ndarray) -> Callable[[], None]:
        xt = Tensor(x)
        return lambda: net(xt).asnumpy()

    return on


def median_latency(fn: Callable[[], None], runs: int, budget: float) -> tuple[float, int]:
    t = time.perf_counter()
    fn()
    first = time.perf_counter() - t
    if first > budget:  # one call past the whole budget (MindSpore's CPU convolutions): that call is it
        return first, 1
    fn()
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < runs and (len(times) < 3 or time.perf_counter() - start < budget):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), len(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--framework", choices=FRAMEWORKS, required=True)
    parser.add_argument("--model", choices=("resnet18", "mobilenetv2"), required=True)
    parser.add_argument("--size", type=int, default=224)
    args = parser.parse_args()
    try:
        if args.framework.startswith("mxnet"):
            runner = mxnet_runner(args.model, hybrid=args.framework == "mxnet-hybrid")
        else:
            runner = mindspore_runner(args.model, graph=args.framework == "mindspore-graph")
    except NotImplementedError as exc:
        print(f"skip {exc}", flush=True)
        return
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() == "quit":
            break
        batch, runs, budget = line.split()
        x = np.random.default_rng(int(batch)).standard_normal((int(batch), 3, args.size, args.size))
        print(json.dumps(median_latency(runner(x.astype(np.float32)), int(runs), float(budget))), flush=True)


if __name__ == "__main__":
    main()
