"""Data-parallel training under mpirun; writes each rank's results to OUT/rank{r}_{scenario}.npz for
tests/communication/test_data_parallel.py to compare with one process training on the whole batch.

    mpirun -n 2 python train_dp.py OUT
    mpirun -n 4 python train_dp.py OUT --quick     (without LeNet-5)
"""
from __future__ import annotations

import sys

import numpy as np
from cellonnx.models.lenet import LeNet5

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.communication import get_group_size, get_rank, init

STEPS = 5
GLOBAL_BATCH = 8


def batches(shape: tuple, classes: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((GLOBAL_BATCH,) + shape).astype(np.float32),
             rng.integers(0, classes, GLOBAL_BATCH).astype(np.int32)) for _ in range(STEPS)]


def shard(a: np.ndarray, rank: int, size: int) -> np.ndarray:
    n = len(a) // size
    return a[rank * n:(rank + 1) * n]


def params(net: nn.Cell) -> dict[str, np.ndarray]:
    return {p.name: p.asnumpy().copy() for p in net.trainable_params()}


def main(out: str, quick: bool) -> None:
    init()
    rank, size = get_rank(), get_group_size()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 comm_fusion={"allreduce": {"mode": "size", "config": 0.05}})
    assert ms.get_auto_parallel_context("device_num") == size
    if not quick:
        lenet(out, rank, size)
    mlp_and_loss_scale(out, rank, size)
    collectives(out, rank, size)


def lenet(out: str, rank: int, size: int) -> None:

    # A: LeNet-5 through TrainOneStepCell (seeds differ per rank: the reducer broadcasts rank 0's weights)
    ms.set_seed(10 + rank)
    net = LeNet5(10)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    assert isinstance(step.grad_reducer, nn.DistributedGradReducer)
    start = params(net)
    overlapped = []
    for x, y in batches((1, 32, 32), 10):
        step(ms.Tensor(shard(x, rank, size)), ms.Tensor(shard(y, rank, size)))
        overlapped.append(step.grad_reducer._plan.overlapped)
    np.savez(f"{out}/rank{rank}_lenet.npz", **{"start/" + k: v for k, v in start.items()},
             **{"end/" + k: v for k, v in params(net).items()},
             buckets=len(step.grad_reducer._plan.buckets), overlapped=np.array(overlapped))



def mlp_and_loss_scale(out: str, rank: int, size: int) -> None:
    # B: the functional loop, value_and_grad + DistributedGradReducer, a float64 MLP
    ms.set_seed(20 + rank)
    mlp = nn.SequentialCell([nn.Dense(6, 16, dtype=ms.float64), nn.Tanh(), nn.Dense(16, 3, dtype=ms.float64)])
    opt = nn.SGD(mlp.trainable_params(), learning_rate=0.1)
    reducer = nn.DistributedGradReducer(opt.parameters)
    ce = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    grad_fn = ms.value_and_grad(lambda x, y: ce(mlp(x), y), None, opt.parameters)
    start = params(mlp)
    for x, y in batches((6,), 3):
        xs = shard(x, rank, size).astype(np.float64)
        _, grads = grad_fn(ms.Tensor(xs), ms.Tensor(shard(y, rank, size)))
        opt(reducer(grads))
    np.savez(f"{out}/rank{rank}_mlp.npz", **{"start/" + k: v for k, v in start.items()},
             **{"end/" + k: v for k, v in params(mlp).items()})

    # C: loss scaling, rank 1's input overflows at step 2: every rank skips that step
    ms.set_seed(30)
    lin = nn.Dense(4, 2)
    opt = nn.SGD(lin.trainable_params(), learning_rate=0.1)
    scaled = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(lin, nn.MSELoss()), opt,
                                              scale_sense=ms.Tensor(np.float32(1024.0)))
    flags, weights = [], []
    rng = np.random.default_rng(3)
    for i in range(4):
        x = rng.standard_normal((GLOBAL_BATCH, 4)).astype(np.float32)
        x = shard(x, rank, size)
        if i == 2 and rank == 1:
            x[0, 0] = np.inf
        _, overflow, _ = scaled(ms.Tensor(x), ms.Tensor(np.zeros((len(x), 2), np.float32)))
        flags.append(bool(overflow.asnumpy()))
        weights.append(lin.weight.asnumpy().copy())
    np.savez(f"{out}/rank{rank}_losscale.npz", flags=np.array(flags), weights=np.stack(weights))



def collectives(out: str, rank: int, size: int) -> None:
    # D: collectives against NumPy, and their gradients
    x = ms.Tensor(np.arange(6, dtype=np.float64).reshape(2, 3) * (rank + 1))
    every = [np.arange(6, dtype=np.float64).reshape(2, 3) * (r + 1) for r in range(size)]
    checks = {
        "allreduce_sum": (ops.AllReduce()(x), sum(every)),
        "allreduce_max": (ops.AllReduce(ops.ReduceOp.MAX)(x), np.max(every, 0)),
        "allreduce_min": (ops.AllReduce(ops.ReduceOp.MIN)(x), np.min(every, 0)),
        "allreduce_prod": (ops.AllReduce(ops.ReduceOp.PROD)(x), np.prod(every, 0)),
        "allgather": (ops.AllGather()(x), np.concatenate(every)),
        "reducescatter": (ops.ReduceScatter()(ops.concat([x] * size)), sum(every)),
        "broadcast": (ops.Broadcast(size - 1)((x,))[0], every[-1]),
    }
    results = {k: (got.asnumpy(), want) for k, (got, want) in checks.items()}
    # gradients: d/dx_r of sum(w_r * AllReduce(x)) = sum over ranks of w; of AllGather: this rank's slice
    w = ms.Tensor(np.full((2, 3), rank + 1.0))
    g_ar = ops.grad(lambda t: (ops.AllReduce()(t) * w).sum())(x)
    wg = ms.Tensor(np.arange(6 * size, dtype=np.float64).reshape(2 * size, 3) + rank)
    g_ag = ops.grad(lambda t: (ops.AllGather()(t) * wg).sum())(x)
    all_wg = sum(np.arange(6 * size, dtype=np.float64).reshape(2 * size, 3) + r for r in range(size))
    results["grad_allreduce"] = (g_ar.asnumpy(), np.full((2, 3), sum(r + 1.0 for r in range(size))))
    results["grad_allgather"] = (g_ag.asnumpy(), all_wg[2 * rank:2 * rank + 2])
    y = ms.Tensor(np.arange(4 * size, dtype=np.float64).reshape(2 * size, 2))
    ops.all_reduce(y, "avg")
    results["ops_all_reduce_avg"] = (y.asnumpy(), np.arange(4 * size, dtype=np.float64).reshape(2 * size, 2))
    # all-to-all (operator and functions), gather / scatter, objects, batched point-to-point
    a = ms.Tensor(np.arange(2 * size * 3, dtype=np.float64).reshape(2 * size, 3) + 100 * rank)
    blocks = [np.arange(2 * size * 3, dtype=np.float64).reshape(2 * size, 3)[2 * rank:2 * rank + 2] + 100 * r
              for r in range(size)]
    results["alltoall"] = (ops.AlltoAll(size, 0, 1)(a), np.concatenate(blocks, axis=1))
    g_a2a = ops.grad(lambda t: (ops.AlltoAll(size, 0, 1)(t) * ops.AlltoAll(size, 0, 1)(t)).sum())(a)
    results["grad_alltoall"] = (g_a2a, 2 * a.asnumpy())
    outs = [ms.Tensor(np.zeros(r + 1)) for r in range(size)]
    ops.all_to_all(outs, [ms.Tensor(np.full(rank + 1, 10.0 * r + rank)) for r in range(size)])
    results["all_to_all"] = (np.concatenate([t.asnumpy() for t in outs]),
                             np.concatenate([np.full(r + 1, 10.0 * rank + r) for r in range(size)]))
    single = ms.Tensor(np.zeros((size, 2)))
    mine = np.arange(2 * size, dtype=np.float64).reshape(size, 2) + 10 * rank
    ops.all_to_all_single(single, ms.Tensor(mine))
    results["all_to_all_single"] = (single, np.stack([np.arange(2.0 * rank, 2 * rank + 2) + 10 * r
                                                      for r in range(size)]))
    results["collective_scatter"] = (ops.CollectiveScatter(0)(ms.Tensor(np.arange(2.0 * size) + rank)),
                                     np.arange(2.0 * rank, 2 * rank + 2))
    gathered = ops.CollectiveGather(0)(ms.Tensor(np.full(2, float(rank))))
    want = np.repeat(np.arange(float(size)), 2) if rank == 0 else np.zeros(1)
    results["collective_gather"] = (gathered if rank == 0 else ms.Tensor(np.zeros(1)), want)
    objs = [None] * size
    ops.all_gather_object(objs, {"rank": rank})
    results["all_gather_object"] = (np.array([o["rank"] for o in objs]), np.arange(size))
    ops.Barrier()()
    nxt, prv = (rank + 1) % size, (rank - 1) % size
    box = ms.Tensor(np.zeros(3))
    for h in ops.batch_isend_irecv([ops.P2POp("isend", ms.Tensor(np.full(3, float(rank))), nxt),
                                    ops.P2POp(ops.irecv, box, prv)]):
        h.wait()
    results["batch_isend_irecv"] = (box, np.full(3, float(prv)))
    mine = ms.Tensor(np.full((rank + 1, 2), float(rank)))
    every = ms.Tensor(np.zeros((size * (size + 1) // 2, 2)))
    ops.all_gather_into_tensor_uneven(every, mine, [r + 1 for r in range(size)])
    results["all_gather_uneven"] = (every,
                                    np.concatenate([np.full((r + 1, 2), float(r)) for r in range(size)]))
    part = ms.Tensor(np.zeros((rank + 1, 2)))
    rows = np.arange(size * (size + 1), dtype=np.float64).reshape(-1, 2)
    ops.reduce_scatter_tensor_uneven(part, ms.Tensor(rows * (rank + 1)), [r + 1 for r in range(size)], "avg")
    start = rank * (rank + 1) // 2
    results["reduce_scatter_uneven_avg"] = (part, rows[start:start + rank + 1] * (size + 1) / 2)
    results = {k: (g.asnumpy() if isinstance(g, ms.Tensor) else g, w) for k, (g, w) in results.items()}
    np.savez(f"{out}/rank{rank}_collectives.npz", **{f"got/{k}": g for k, (g, _) in results.items()},
             **{f"want/{k}": v for k, (_, v) in results.items()})


if __name__ == "__main__":
    main(sys.argv[1], "--quick" in sys.argv)
