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
    results.update(uneven_and_neighbours(rank, size))
    results = {k: (g.asnumpy() if isinstance(g, ms.Tensor) else g, w) for k, (g, w) in results.items()}
    np.savez(f"{out}/rank{rank}_collectives.npz", **{f"got/{k}": g for k, (g, _) in results.items()},
             **{f"want/{k}": v for k, (_, v) in results.items()})


def uneven_and_neighbours(rank: int, size: int) -> dict:
    """AllGatherV, ReduceScatterV, AlltoAllV(C), NeighborExchange(V2), Send / Receive, BatchISendIRecv and
    the gradients of the differentiable ones, each against NumPy."""
    res = {}
    counts = [r + 1 for r in range(size)]                       # rank r holds r + 1 elements
    mine = np.arange(rank + 1, dtype=np.float64) + 10 * rank
    every = [np.arange(r + 1, dtype=np.float64) + 10 * r for r in range(size)]
    res["allgatherv"] = (ops.AllGatherV()(ms.Tensor(mine), counts), np.concatenate(every))
    w = np.arange(sum(counts), dtype=np.float64) + rank          # a different weighting on every rank
    g = ops.grad(lambda t: (ops.AllGatherV()(t, counts) * ms.Tensor(w)).sum())(ms.Tensor(mine))
    start = sum(counts[:rank])
    all_w = sum(np.arange(sum(counts), dtype=np.float64) + r for r in range(size))
    res["grad_allgatherv"] = (g, all_w[start:start + rank + 1])
    full = np.arange(sum(counts), dtype=np.float64) * (rank + 1)
    total = sum(np.arange(sum(counts), dtype=np.float64) * (r + 1) for r in range(size))
    res["reducescatterv"] = (ops.ReduceScatterV()(ms.Tensor(full), counts), total[start:start + rank + 1])
    res["reducescatterv_max"] = (ops.ReduceScatterV(ops.ReduceOp.MAX)(ms.Tensor(full), counts),
                                 (np.arange(sum(counts), dtype=np.float64) * size)[start:start + rank + 1])
    wr = np.arange(rank + 1, dtype=np.float64) + 1
    g = ops.grad(lambda t: (ops.ReduceScatterV()(t, counts) * ms.Tensor(wr)).sum())(ms.Tensor(full))
    res["grad_reducescatterv"] = (g, np.concatenate([np.arange(r + 1, dtype=np.float64) + 1
                                                     for r in range(size)]))
    # all-to-all with uneven parts: rank r sends j + 1 elements (valued 100 r + j) to rank j
    send = np.concatenate([np.full(j + 1, 100.0 * rank + j) for j in range(size)])
    want = np.concatenate([np.full(rank + 1, 100.0 * r + rank) for r in range(size)])
    sends, recvs = [j + 1 for j in range(size)], [rank + 1] * size
    res["alltoallv"] = (ops.AlltoAllV()(ms.Tensor(send), sends, recvs), want)
    matrix = [[j + 1 for j in range(size)] for _ in range(size)]     # matrix[i][j]: sent from i to j
    res["alltoallvc"] = (ops.AlltoAllVC()(ms.Tensor(send), matrix), want)
    blocks = ops.AlltoAllV(block_size=2)(ms.Tensor(np.repeat(send, 2)), [j + 1 for j in range(size)],
                                         [rank + 1] * size)
    res["alltoallv_block2"] = (blocks, np.repeat(want, 2))
    wv = np.arange(want.size, dtype=np.float64) + 1
    g = ops.grad(lambda t: (ops.AlltoAllV()(t, [j + 1 for j in range(size)], [rank + 1] * size)
                            * ms.Tensor(wv)).sum())(ms.Tensor(send))
    # the element sent to rank j at position k of its block lands at rank j's offset for this rank
    res["grad_alltoallv"] = (g, np.concatenate([np.arange(j + 1, dtype=np.float64)
                                                + 1 + rank * (j + 1) for j in range(size)]))
    # neighbours on a ring: send a 2x2 block to the next rank and a 3-vector to the previous one
    nxt, prv = (rank + 1) % size, (rank - 1) % size
    ex = ops.NeighborExchange(send_rank_ids=[nxt, prv], recv_rank_ids=[prv, nxt], recv_shapes=([2, 2], [3]),
                              send_shapes=([2, 2], [3]), recv_type=ms.float64)
    a, b = ms.Tensor(np.full((2, 2), float(rank))), ms.Tensor(np.arange(3.0) + 10 * rank)
    got = ex((a, b))
    res["neighbor_exchange_0"] = (got[0], np.full((2, 2), float(prv)))
    res["neighbor_exchange_1"] = (got[1], np.arange(3.0) + 10 * nxt)
    ga = ops.grad(lambda t: (ex((t, b))[0] * ms.Tensor(np.full((2, 2), rank + 1.0))).sum())(a)
    res["grad_neighbor_exchange"] = (ga, np.full((2, 2), nxt + 1.0))  # nxt weights what it got by nxt + 1
    # halo exchange of a column of tiles: rank r sits below r - 1 and above r + 1 (no wrap-around)
    up = rank - 1 if rank > 0 else -1
    down = rank + 1 if rank < size - 1 else -1
    ids = [up, -1, -1, -1, down, -1, -1, -1]
    lens = [1 if up != -1 else 0, 1 if down != -1 else 0, 0, 0]
    halo = ops.NeighborExchangeV2(send_rank_ids=ids, send_lens=lens, recv_rank_ids=ids, recv_lens=lens,
                                  data_format="NCHW")
    tile = np.arange(6, dtype=np.float64).reshape(1, 1, 3, 2) + 100 * rank
    above = [np.arange(4, 6, dtype=np.float64).reshape(1, 1, 1, 2) + 100 * up] if up != -1 else []
    below = [np.arange(0, 2, dtype=np.float64).reshape(1, 1, 1, 2) + 100 * down] if down != -1 else []
    parts = above + [tile] + below
    res["neighbor_exchange_v2"] = (halo(ms.Tensor(tile)), np.concatenate(parts, axis=2))
    framed = np.concatenate(parts, axis=2)
    wh = np.arange(framed.size, dtype=np.float64).reshape(framed.shape)
    gh = ops.grad(lambda t: (halo(t) * ms.Tensor(wh + rank)).sum())(ms.Tensor(tile))
    want_gh = np.zeros_like(tile) + wh[:, :, lens[0]:lens[0] + 3] + rank
    if up != -1:     # rank up holds our top row as its bottom halo: its last row of weights (+ up)
        rows_up = 3 + (1 if up > 0 else 0) + 1
        want_gh[:, :, 0] += np.arange(rows_up * 2, dtype=np.float64).reshape(rows_up, 2)[-1] + up
    if down != -1:   # rank down holds our bottom row as its top halo: its first row of weights (+ down)
        want_gh[:, :, -1] += np.arange(2, dtype=np.float64) + down
    res["grad_neighbor_exchange_v2"] = (gh, want_gh)
    # point to point on a ring, and a batch of sends and receives
    if rank % 2 == 0:
        ops.Send(sr_tag=3, dest_rank=nxt)(ms.Tensor(np.full((2, 3), float(rank))))
        got = ops.Receive(sr_tag=4, src_rank=prv, shape=[2, 3], dtype=ms.float64)()
    else:
        got = ops.Receive(sr_tag=3, src_rank=prv, shape=[2, 3], dtype=ms.float64)()
        ops.Send(sr_tag=4, dest_rank=nxt)(ms.Tensor(np.full((2, 3), float(rank))))
    if size % 2 == 0:
        res["send_receive"] = (got, np.full((2, 3), float(prv)))
    batch = ops.BatchISendIRecv(("isend", "irecv"), (nxt, prv), ([2],), (ms.float32,))
    out = batch((ms.Tensor(np.full(2, rank + 1.0, np.float32)),))
    res["batch_isend_irecv_op"] = (out[1], np.full(2, prv + 1.0, np.float32))
    res["batch_isend_irecv_fake"] = (out[0], np.zeros((), np.float32))
    # tensor-parallel matmuls: rank r holds rows [2r, 2r + 2) of A; B is the same everywhere
    a_all = np.arange(2 * size * 3, dtype=np.float64).reshape(2 * size, 3) / 7
    b = np.arange(12, dtype=np.float64).reshape(3, 4) - 5
    out, gathered = ops.all_gather_matmul(ms.Tensor(a_all[2 * rank:2 * rank + 2]), ms.Tensor(b),
                                          "hccl_world_group", size)
    res["all_gather_matmul"] = (out, a_all @ b)
    res["all_gather_matmul_gathered"] = (gathered, a_all)
    out_t, _ = ops.all_gather_matmul(ms.Tensor(a_all[2 * rank:2 * rank + 2]), ms.Tensor(b.T.copy()),
                                     "hccl_world_group", size, trans_x2=True, gather_output=False)
    res["all_gather_matmul_trans_x2"] = (out_t, a_all @ b)
    # matmul_reduce_scatter: rank r holds columns [r, r + 1) of the k axis of A and the rows of B
    ak = np.arange(4 * 2 * size, dtype=np.float64).reshape(4, 2 * size) / 3
    bk = np.arange(2 * size * 3, dtype=np.float64).reshape(2 * size, 3) - 2
    mine = slice(2 * rank, 2 * rank + 2)
    part = ops.matmul_reduce_scatter(ms.Tensor(ak[:, mine]), ms.Tensor(bk[mine]), "hccl_world_group", size)
    rows = 4 // size
    res["matmul_reduce_scatter"] = (part, (ak @ bk)[rows * rank:rows * (rank + 1)])
    return res


if __name__ == "__main__":
    main(sys.argv[1], "--quick" in sys.argv)
