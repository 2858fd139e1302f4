"""A data-parallel training step compiled (GRAPH_MODE: graphs cut around the gradient all-reduce) beside the
same step run eagerly (PYNATIVE_MODE), on 2 ranks under mpirun.

    .venv/bin/mpirun -n 2 .venv/bin/python bench/dist_compiled_step.py [--model lenet|resnet18]
        [--batch 32] [--steps 10] [--blocks 3] [--pause 1] [--bucket-mb 64]

Both steps are TrainOneStepCell (Momentum) under DATA_PARALLEL with gradients_mean, the same network and
weights, each rank taking batch / ranks rows, one onnxruntime / OpenBLAS thread per rank. They run in
blocks of ``--steps`` steps, eager block then compiled block, with a pause between blocks (the ranks meet at a
barrier before each block); a block's time per step is its wall time / steps. Prints one JSON line (rank 0):
the median per-step time of each mode, the ratio eager / compiled of every block pair, the load average
before and after, and how the compiled step was cut (graphs, gradient buckets).
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

import cellonnx as ms  # noqa: E402
from cellonnx import nn  # noqa: E402


def network(model: str) -> nn.Cell:
    if model == "resnet18":
        from cellonnx.models.resnet import resnet18
        return resnet18(num_classes=10)
    from cellonnx.models.lenet import LeNet5
    return LeNet5(10)


def make_step(model: str) -> nn.Cell:
    ms.set_seed(1)
    net = network(model)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    return step


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="lenet", choices=["lenet", "resnet18"])
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--blocks", type=int, default=3)
    ap.add_argument("--pause", type=float, default=1.0)
    ap.add_argument("--bucket-mb", type=float, default=64.0)
    args, _ = ap.parse_known_args()

    from mpi4py import MPI

    from cellonnx.communication import get_group_size, get_rank, init
    from cellonnx.graph.train import compiled_steps

    init()
    rank, size = get_rank(), get_group_size()
    ms.set_context(intra_op_num_threads=THREADS)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 comm_fusion={"allreduce": {"mode": "size", "config": args.bucket_mb}})
    shape = (3, 32, 32) if args.model == "resnet18" else (1, 32, 32)
    rng = np.random.default_rng(rank)
    local = args.batch // size
    x = ms.Tensor(rng.standard_normal((local,) + shape).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, local).astype(np.int32))
    eager, graph = make_step(args.model), make_step(args.model)

    def block(step: nn.Cell, mode: int) -> float:
        ms.set_context(mode=mode)
        MPI.COMM_WORLD.Barrier()
        t = time.perf_counter()
        for _ in range(args.steps):
            step(x, y)
        elapsed = (time.perf_counter() - t) / args.steps
        ms.set_context(mode=ms.PYNATIVE_MODE)
        return elapsed

    load_before = os.getloadavg()
    block(eager, ms.PYNATIVE_MODE)   # warm-up; the compiled step is traced here
    block(graph, ms.GRAPH_MODE)
    times: dict[str, list[float]] = {"eager": [], "compiled": []}
    for _ in range(args.blocks):
        time.sleep(args.pause)
        times["eager"].append(block(eager, ms.PYNATIVE_MODE))
        time.sleep(args.pause)
        times["compiled"].append(block(graph, ms.GRAPH_MODE))
    (compiled,) = compiled_steps(graph)
    kinds = [kind for kind, _ in compiled.plan.actions]
    if rank == 0:
        print(json.dumps({
            "model": args.model, "ranks": size, "threads": THREADS, "global_batch": args.batch,
            "steps_per_block": args.steps, "blocks": args.blocks,
            "eager_step_ms": round(statistics.median(times["eager"]) * 1e3, 2),
            "compiled_step_ms": round(statistics.median(times["compiled"]) * 1e3, 2),
            "ratio_eager_over_compiled": [round(e / c, 2) for e, c in zip(times["eager"], times["compiled"])],
            "graphs": kinds.count("run"), "buckets": kinds.count("start"),
            "load_before": [round(v, 2) for v in load_before],
            "load_after": [round(v, 2) for v in os.getloadavg()]}))


if __name__ == "__main__":
    main()
