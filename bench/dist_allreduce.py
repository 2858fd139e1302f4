"""Data-parallel gradient all-reduce: ResNet-18's gradients through nn.DistributedGradReducer beside mpi4py's
raw Allreduce of the same bytes (target: overhead at most 1.1x), how much of the all-reduce the backward pass
hides, and a data-parallel training step of 2 ranks x 1 thread beside 1 process x 2 threads on the same
global batch.

    .venv/bin/mpirun -n 2 .venv/bin/python bench/dist_allreduce.py --threads 1 [--rounds 20] [--batch 16]
    .venv/bin/python bench/dist_allreduce.py --single --threads 2 [--batch 16]

ResNet-18 (10 classes, 3x32x32 inputs, 11.2 M float32 parameters, 44.7 MB of gradients). Reducer: the
default fusion (64 MB, in buckets of at most 32 MiB) and, for the overlap, ``--bucket-mb`` (default 8) so that
buckets complete during the backward pass. The step is TrainOneStepCell (Momentum) under DATA_PARALLEL with
gradients_mean; each rank takes batch / 2 rows. "sequential" runs the same step with the reducer's backward
hook removed (all buckets start after the backward pass), so overlap = (sequential - overlapped) / all-reduce
time.
Prints one JSON line (rank 0).
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_env

_pre, THREADS = bench_env.threads_from_argv(default=1)

import json  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from cellonnx.models.resnet import resnet18  # noqa: E402

import cellonnx as ms  # noqa: E402
from cellonnx import nn  # noqa: E402
from cellonnx.autograd import tape  # noqa: E402


def median_time(fn, rounds: int, sync=None) -> float:
    times = []
    for _ in range(rounds):
        if sync is not None:
            sync()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def step_cell(batch: int) -> tuple:
    ms.set_seed(1)
    net = resnet18(num_classes=10)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((batch, 3, 32, 32)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, batch).astype(np.int32))
    return step, net, x, y


def single(args: argparse.Namespace) -> None:
    step, _, x, y = step_cell(args.batch)
    step(x, y)
    t = median_time(lambda: step(x, y), args.steps)
    print(json.dumps({"mode": "1 process", "threads": THREADS, "batch": args.batch,
                      "step_ms": round(t * 1e3, 1)}))


def distributed(args: argparse.Namespace) -> None:
    from mpi4py import MPI

    from cellonnx.communication import get_group_size, get_rank, init

    init()
    rank, size = get_rank(), get_group_size()
    comm = MPI.COMM_WORLD
    ms.set_seed(1)
    params = resnet18(num_classes=10).trainable_params()
    grads = tuple(ms.Tensor(np.random.default_rng(rank).standard_normal(p.shape).astype(np.float32))
                  for p in params)
    nbytes = sum(g.asnumpy().nbytes for g in grads)
    reducer = nn.DistributedGradReducer(params, mean=True)
    flat = np.concatenate([g.asnumpy().reshape(-1) for g in grads])
    out = np.empty_like(flat)

    def raw() -> None:
        comm.Allreduce(flat, out, op=MPI.SUM)
        out.__imul__(np.float32(1.0 / size))

    rounds = args.rounds
    t_raw, t_red = [], []
    for _ in range(rounds):   # alternate so machine load hits both alike
        comm.Barrier()
        t_raw.append(median_time(raw, 1))
        comm.Barrier()
        t_red.append(median_time(lambda: reducer(grads), 1))
    reducer.release()
    raw_ms, red_ms = statistics.median(t_raw) * 1e3, statistics.median(t_red) * 1e3
    if os.environ.get("BENCH_VERBOSE") and rank == 0:
        print("raw", [round(t * 1e3) for t in t_raw], "reducer", [round(t * 1e3) for t in t_red], flush=True)

    ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True,
                                 comm_fusion={"allreduce": {"mode": "size", "config": args.bucket_mb}})
    step, _, x, y = step_cell(args.batch)
    rows = slice(rank * (args.batch // size), (rank + 1) * (args.batch // size))
    x, y = ms.Tensor(x.asnumpy()[rows]), ms.Tensor(y.asnumpy()[rows])
    hook = step.grad_reducer._hook
    step(x, y)
    overlapped, sequential = [], []
    for _ in range(args.steps):
        overlapped.append(median_time(lambda: step(x, y), 1, comm.Barrier))
        tape.GRAD_READY_HOOKS.remove(hook)
        sequential.append(median_time(lambda: step(x, y), 1, comm.Barrier))
        tape.GRAD_READY_HOOKS.append(hook)
    buckets = len(step.grad_reducer._plan.buckets)
    t_o, t_s = statistics.median(overlapped) * 1e3, statistics.median(sequential) * 1e3
    if rank == 0:
        print(json.dumps({
            "ranks": size, "threads": THREADS, "gradient_MB": round(nbytes / 1e6, 1),
            "raw_allreduce_ms": round(raw_ms, 1), "reducer_ms": round(red_ms, 1),
            "reducer_over_raw": round(red_ms / raw_ms, 3),
            "step_batch": args.batch, "buckets": buckets,
            "step_overlapped_ms": round(t_o, 1), "step_sequential_ms": round(t_s, 1),
            "hidden_fraction_of_allreduce": round((t_s - t_o) / red_ms, 2),
        }))


def main() -> None:
    parser = argparse.ArgumentParser(parents=[_pre])
    parser.add_argument("--single", action="store_true", help="one process, the whole batch")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch", type=int, default=16, help="the global batch")
    parser.add_argument("--bucket-mb", type=float, default=8.0)
    args = parser.parse_args()
    single(args) if args.single else distributed(args)


if __name__ == "__main__":
    main()
