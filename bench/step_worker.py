"""One side of bench/train_step.py in a process of its own: builds one network's training step, then runs
blocks of steps on request and reports their times and the process's peak memory.

    python bench/step_worker.py --side eager|graph|compiled|torch --model lenet5 --threads 2

Protocol (stdin / stdout, one line each): the worker prints ``ready <first loss>``; ``<n>`` runs n steps
and prints their times in seconds as a JSON list; ``rss`` prints the peak resident set (MiB) since the
warm-up as JSON; ``quit`` ends. Every side steps on the same batch from the same seeded weights, with
plain SGD (lr 0.01): cellonnx eager is ``TrainOneStepCell(WithLoss(net, loss), nn.SGD)``; graph is the
value_and_grad step traced to ONNX and run by onnxruntime (bench/traced_step.py); compiled is
cellonnx.graph.train's step where it exists; torch is the PyTorch twin (``CrossEntropyLoss`` +
``SGD(lr=0.01)``, ``zero_grad(set_to_none=True)``), the weights copied from the cellonnx network.
"""
from __future__ import annotations

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv()

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

from memory import reset_hwm  # noqa: E402
from step_models import MODELS, WithLoss, build  # noqa: E402

import cellonnx as ms  # noqa: E402
from cellonnx import nn  # noqa: E402
from cellonnx.tensor import Tensor  # noqa: E402

LR = 0.01


def eager_step(name: str) -> Callable[[], float]:
    net, loss, batch = build(name)
    train = nn.TrainOneStepCell(WithLoss(net, loss), nn.SGD(net.trainable_params(), learning_rate=LR))
    train.set_train()
    args = [Tensor(a) for a in batch]
    return lambda: float(train(*args).asnumpy())


def graph_step(name: str) -> Callable[[], float]:
    from traced_step import OrtStep, trace_step

    net, loss, batch = build(name)
    net.set_train()
    model, names = trace_step(net, loss, batch, lr=LR)
    values = {n: p.asnumpy() for n, p in net.parameters_and_names()}
    return OrtStep(model, names, batch, values, THREADS)


def compiled_step(name: str) -> Callable[[], float]:
    net, loss, batch = build(name)
    train = nn.TrainOneStepCell(WithLoss(net, loss), nn.SGD(net.trainable_params(), learning_rate=LR))
    train.set_train()
    # onnxruntime's intra-op pool gets the side's thread count, as the traced graph's session does (left
    # at 0, onnxruntime takes every core and its spinning threads contend with the other sides)
    ms.set_context(mode=ms.GRAPH_MODE, intra_op_num_threads=THREADS)
    args = [Tensor(a) for a in batch]
    return lambda: float(train(*args).asnumpy())


def torch_step(name: str) -> Callable[[], float]:
    from torch_twins import torch_step as make

    net, _, batch = build(name)
    step = make(name, net, batch, LR, THREADS)
    del net
    gc.collect()
    return step


SIDES = {"eager": eager_step, "graph": graph_step, "compiled": compiled_step, "torch": torch_step}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--side", choices=list(SIDES), required=True)
    parser.add_argument("--model", choices=MODELS, required=True)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()
    step = SIDES[args.side](args.model)
    first = step()
    for _ in range(args.warmup - 1):
        step()
    reset_hwm()
    print(f"ready {first:.6f}", flush=True)
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "quit":
            break
        if cmd == "rss":
            with open("/proc/self/status") as f:
                hwm = next(int(s.split()[1]) for s in f if s.startswith("VmHWM:"))
            print(json.dumps(hwm / 1024.0), flush=True)
            continue
        times = []
        for _ in range(int(cmd)):
            t = time.perf_counter()
            step()
            times.append(time.perf_counter() - t)
        print(json.dumps(times), flush=True)


if __name__ == "__main__":
    main()
