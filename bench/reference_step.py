"""LeNet-5's training step in MindSpore or MXNet, for bench/train_step.py to time beside cellonnx and PyTorch.

Those frameworks pin NumPy versions of their own, so they run in their own interpreters; train_step.py starts
this script there and drives it over stdin / stdout:

    /work/envs/mindspore/bin/python bench/reference_step.py --framework mindspore-graph --data lenet5.npz

The .npz holds the weights (cellonnx's names, which are the MindSpore model zoo's) and the batch x / y. The
script builds the network, takes one step (printing ``ready <loss of that first step>``) and two warm-up
steps, then answers every line ``N`` with a JSON list of N step times in seconds, until ``quit``. One step =
forward, loss, backward, update with momentum 0.9 and lr 0.01, as in train_step.py; MXNet's engine is
asynchronous, so its step ends with ``waitall``.

Frameworks: mindspore-graph, mindspore-pynative (MindSpore 2.x ``TrainOneStepCell`` + ``Momentum``), mxnet,
mxnet-hybrid (Gluon with ``autograd.record`` + ``Trainer('sgd', momentum=0.9)``; hybridized with
static_alloc).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable

import numpy as np

THREADS = int(os.environ.get("OMP_NUM_THREADS", "2"))

FRAMEWORKS = ("mindspore-graph", "mindspore-pynative", "mxnet", "mxnet-hybrid")
# the parameters in the networks' creation order
PARAMETERS = ("conv1.weight", "conv2.weight", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias",
              "fc3.weight", "fc3.bias")


def mindspore_step(weights: dict, x: np.ndarray, y: np.ndarray, graph: bool) -> Callable[[], float]:
    import mindspore as ms
    from mindspore import Tensor, nn

    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    ms.set_device("CPU")
    ms.device_context.cpu.op_tuning.threads_num(THREADS)  # its kernels' threads (default: more than cores)

    class LeNet5(nn.Cell):
        """MindSpore's model-zoo LeNet-5 (official/cv/LeNet/src/lenet.py)."""

        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, 10)

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    net = LeNet5()
    params = {k: ms.Parameter(Tensor(weights[k]), name=k) for k in PARAMETERS}
    not_loaded = ms.load_param_into_net(net, params)
    if not_loaded and any(not_loaded):
        raise SystemExit(f"reference_step: MindSpore did not load {not_loaded}")
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    train.set_train()
    xt, yt = Tensor(x), Tensor(y)
    return lambda: float(train(xt, yt).asnumpy())


def mxnet_step(weights: dict, x: np.ndarray, y: np.ndarray, hybrid: bool) -> Callable[[], float]:
    import mxnet as mx
    from mxnet import autograd, gluon
    from mxnet.gluon import nn

    net = nn.HybridSequential()
    net.add(nn.Conv2D(6, 5, use_bias=False, activation="relu"), nn.MaxPool2D(2, 2),
            nn.Conv2D(16, 5, use_bias=False, activation="relu"), nn.MaxPool2D(2, 2),
            nn.Dense(120, activation="relu"), nn.Dense(84, activation="relu"), nn.Dense(10))
    net.initialize()
    net(mx.nd.array(x[:1]))  # deferred shapes
    for param, name in zip(net.collect_params().values(), PARAMETERS):
        param.set_data(mx.nd.array(weights[name]))
    if hybrid:
        net.hybridize(static_alloc=True, static_shape=True)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01, "momentum": 0.9})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    xm, ym = mx.nd.array(x), mx.nd.array(y)

    def step() -> float:
        with autograd.record():
            loss = loss_fn(net(xm), ym)
        loss.backward()
        trainer.step(x.shape[0])  # the summed per-sample gradients / batch: the mean loss's gradient
        mx.nd.waitall()
        return float(loss.mean().asscalar())

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--framework", choices=FRAMEWORKS, required=True)
    parser.add_argument("--data", required=True, help=".npz with the weights and the batch x, y")
    args = parser.parse_args()
    data = np.load(args.data)
    weights = {k: data[k] for k in PARAMETERS}
    x, y = data["x"], data["y"]
    if args.framework.startswith("mindspore"):
        step = mindspore_step(weights, x, y, graph=args.framework == "mindspore-graph")
    else:
        step = mxnet_step(weights, x, y, hybrid=args.framework == "mxnet-hybrid")
    first = step()
    step()
    step()
    print(f"ready {first:.6f}", flush=True)
    for line in sys.stdin:
        if line.strip() == "quit":
            break
        times = []
        for _ in range(int(line)):
            t = time.perf_counter()
            step()
            times.append(time.perf_counter() - t)
        print(json.dumps(times), flush=True)


if __name__ == "__main__":
    main()
