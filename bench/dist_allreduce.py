"""Data-parallel gradient all-reduce: ResNet-18's gradients through nn.DistributedGradReducer beside mpi4py's
raw Allreduce of the same bytes (target: overhead at most 1.1x), how much of the all-reduce the backward pass
hides, and a data-parallel training step of 2 ranks x 1 thread beside 1 process x 2 threads on the same
global batch.

    .venv/bin/mpirun -n 2 .venv/bin/python bench/dist_allreduce.py --threads 1 [--rounds 6] [--block 5]
    .venv/bin/python bench/dist_allreduce.py --single --threads 2 [--batch 16]

ResNet-18 (10 classes, 3x32x32 inputs, 11.2 M float32 parameters, 44.7 MB of gradients). Reducer: the
default fusion (64 MB, in buckets of at most 32 MiB) and, for the overlap, ``--bucket-mb`` (default 8) so that
buckets complete during the backward pass. The step is TrainOneStepCell (Momentum) under DATA_PARALLEL with
gradients_mean; each rank takes batch / 2 rows. "sequential" runs the same step with the buckets started at
the reducer call instead of during the backward pass (``_Plan.overlap``), so overlap = (sequential -
overlapped) / all-reduce time.

The all-reduce alone: the gradients as a ResNet-18 backward pass leaves them with the reducer listening (the
convolution and dense weight gradients computed in their buckets), then ``reducer(grads)`` beside mpi4py's
``Allreduce`` of one fused buffer of the same bytes, out of place (as the reducer) and in place, and out of
place cut as the reducer's buckets are (at most 32 MiB each), each followed by the 1 / size scaling; and, to
show what the gradients computed in place save, a reducer given copies of the gradients outside its buckets
(it copies them in). Sides run in blocks of ``--block`` calls with a pause between blocks
(bench/blocks.py), ``--rounds`` rounds; the load average (/proc/loadavg) before and after is printed with
the figures.
Prints one JSON line (rank 0).
"""
from __future__ import annotations

import argparse
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_env

_pre, THREADS = bench_env.threads_from_argv(default=1)

import json  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from blocks import in_blocks  # noqa: E402
from cellonnx.models.resnet import resnet18  # noqa: E402

import cellonnx as ms  # noqa: E402
from cellonnx import nn  # noqa: E402


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


def loadavg() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def bucket_gradients(net: nn.Cell, reducer: nn.DistributedGradReducer, rank: int) -> tuple:
    """The gradients as a backward pass of ResNet-18 leaves them with the reducer listening: the convolution
    and dense weight gradients computed in their buckets (views of the buckets' buffers), the batch-norm
    ones separate arrays; then set to this rank's random values (in place)."""
    net.set_train()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    grad_fn = ms.value_and_grad(lambda x, y: loss(net(x), y), None, net.trainable_params())
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 32, 32)).astype(np.float32))
    _, grads = grad_fn(x, ms.Tensor(np.array([1, 2], np.int32)))
    reducer(grads)   # the backward pass's round
    rng = np.random.default_rng(rank)
    for g in grads:
        np.copyto(g._data, rng.standard_normal(g.shape).astype(np.float32))
    return grads


def distributed(args: argparse.Namespace) -> None:
    from mpi4py import MPI

    from cellonnx.communication import get_group_size, get_rank, init

    init()
    rank, size = get_rank(), get_group_size()
    comm = MPI.COMM_WORLD
    ms.set_seed(1)
    net = resnet18(num_classes=10)
    params = net.trainable_params()
    reducer = nn.DistributedGradReducer(params, mean=True)
    grads = bucket_gradients(net, reducer, rank)
    plan = reducer._plan
    in_buckets = sum(g._data.nbytes for i, g in enumerate(grads) if plan.bucket_of[i].holds(i, g._data))
    nbytes = sum(g.asnumpy().nbytes for g in grads)
    apart = tuple(ms.Tensor(g.asnumpy().copy()) for g in grads)   # the same values, outside the buckets
    copying = nn.DistributedGradReducer(params, mean=True)   # (buckets of its own) copies them in every call
    flat = np.concatenate([g.asnumpy().reshape(-1) for g in grads])
    out = np.empty_like(flat)
    inplace = flat.copy()
    scale = np.float32(1.0 / size)

    def raw() -> None:
        comm.Allreduce(flat, out, op=MPI.SUM)
        out.__imul__(scale)

    def raw_in_place() -> None:
        comm.Allreduce(MPI.IN_PLACE, inplace, op=MPI.SUM)
        inplace.__imul__(scale)

    bounds = np.cumsum([0] + [b.size for b in plan.buckets])

    def raw_buckets() -> None:   # the same calls cut as the reducer's buckets are (at most 32 MiB each)
        for lo, hi in itertools.pairwise(bounds):
            comm.Allreduce(flat[lo:hi], out[lo:hi], op=MPI.SUM)
            out[lo:hi].__imul__(scale)

    def block(fn):
        def run(n: int) -> list[float]:
            return [median_time(fn, 1, comm.Barrier) for _ in range(n)]
        return run

    load = [loadavg()]
    times = in_blocks({"raw": block(raw), "raw_in_place": block(raw_in_place),
                       "raw_buckets": block(raw_buckets), "reducer": block(lambda: reducer(grads)),
                       "reducer_copying": block(lambda: copying(apart))}, args.rounds, args.block)
    load.append(loadavg())
    ms_of = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    if os.environ.get("BENCH_VERBOSE") and rank == 0:
        print({k: [round(t * 1e3, 1) for t in v] for k, v in times.items()}, flush=True)
    reducer.release()
    copying.release()

    ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True,
                                 comm_fusion={"allreduce": {"mode": "size", "config": args.bucket_mb}})
    step, _, x, y = step_cell(args.batch)
    rows = slice(rank * (args.batch // size), (rank + 1) * (args.batch // size))
    x, y = ms.Tensor(x.asnumpy()[rows]), ms.Tensor(y.asnumpy()[rows])
    plan = step.grad_reducer._plan
    step(x, y)

    def steps(overlap: bool):
        def run(n: int) -> list[float]:
            plan.overlap = overlap
            return [median_time(lambda: step(x, y), 1, comm.Barrier) for _ in range(n)]
        return run

    st = in_blocks({"overlapped": steps(True), "sequential": steps(False)}, args.steps, 2)
    plan.overlap = True
    buckets = len(plan.buckets)
    t_o, t_s = statistics.median(st["overlapped"]) * 1e3, statistics.median(st["sequential"]) * 1e3
    if rank == 0:
        print(json.dumps({
            "ranks": size, "threads": THREADS, "gradient_MB": round(nbytes / 1e6, 1),
            "MB_computed_in_buckets": round(in_buckets / 1e6, 1), "loadavg": load,
            **{f"{k}_ms": round(v, 1) for k, v in ms_of.items()},
            "reducer_over_raw": round(ms_of["reducer"] / ms_of["raw"], 3),
            "reducer_over_raw_buckets": round(ms_of["reducer"] / ms_of["raw_buckets"], 3),
            "reducer_copying_over_raw": round(ms_of["reducer_copying"] / ms_of["raw"], 3),
            "step_batch": args.batch, "buckets": buckets,
            "step_overlapped_ms": round(t_o, 1), "step_sequential_ms": round(t_s, 1),
            "hidden_fraction_of_allreduce": round((t_s - t_o) / ms_of["reducer"], 2),
        }))


def main() -> None:
    parser = argparse.ArgumentParser(parents=[_pre])
    parser.add_argument("--single", action="store_true", help="one process, the whole batch")
    parser.add_argument("--rounds", type=int, default=6, help="rounds of blocks (all-reduce timing)")
    parser.add_argument("--block", type=int, default=5, help="calls per block (all-reduce timing)")
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch", type=int, default=16, help="the global batch")
    parser.add_argument("--bucket-mb", type=float, default=8.0)
    args = parser.parse_args()
    single(args) if args.single else distributed(args)


if __name__ == "__main__":
    main()
