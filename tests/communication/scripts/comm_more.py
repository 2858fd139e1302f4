"""all_to_all_v_c, _AllSwap (and its gradient) and parameter_broadcast under mpirun; writes each rank's
results (got/<name>, want/<name>, want computed with NumPy) to OUT/rank{r}.npz for
tests/communication/test_comm_more.py.

    mpirun -n 2 python comm_more.py OUT
"""
from __future__ import annotations

import sys

import numpy as np

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.communication import get_group_size, get_rank, init


def all_to_all_v_c(rank: int, size: int) -> dict:
    res = {}
    if size == 2:  # MindSpore's docstring example
        output = ms.Tensor(np.zeros([3]).astype(np.float32))
        tensor = ms.Tensor([0, 1, 2.]) * rank
        handle = ops.all_to_all_v_c(output, tensor, [0, 3, 3, 0])
        res["docstring"] = (output, np.array([0, 1, 2.]) if rank == 0 else np.zeros(3))
        res["docstring_handle_is_none"] = (np.array(handle is None), np.array(True))
    # rank i sends (i + j + 1) rows of 2 x 3 to rank j; row values say who sent it and where
    matrix = [i + j + 1 for i in range(size) for j in range(size)]
    rows = [rank + j + 1 for j in range(size)]
    x = np.concatenate([np.full((n, 2, 3), 100.0 * rank + j) for j, n in enumerate(rows)])
    want = np.concatenate([np.full((i + rank + 1, 2, 3), 100.0 * i + rank) for i in range(size)])
    out = ms.Tensor(np.zeros(want.shape))
    ops.all_to_all_v_c(out, ms.Tensor(x), matrix, async_op=True).wait()
    res["rows"] = (out, want)
    return res


def all_swap(rank: int, size: int) -> dict:
    res = {}
    send = np.array([rank + j + 1 for j in range(size)], np.int64)
    recv = np.array([i + rank + 1 for i in range(size)], np.int64)
    x = np.concatenate([np.full((n, 3), 10.0 * rank + j) for j, n in enumerate(send)])
    want = np.concatenate([np.full((n, 3), 10.0 * i + rank) for i, n in enumerate(recv)])
    swap = ops._AllSwap()
    res["allswap"] = (swap(ms.Tensor(x), ms.Tensor(send), ms.Tensor(recv)), want)
    w = np.arange(want.size, dtype=np.float64).reshape(want.shape) + 1000.0 * rank
    g = ops.grad(lambda t: (swap(t, ms.Tensor(send), ms.Tensor(recv)) * ms.Tensor(w)).sum())(ms.Tensor(x))
    # each row sent to rank j comes back with rank j's weights for the rows it received from here
    parts = []
    for j in range(size):
        wj = np.arange(sum(i + j + 1 for i in range(size)) * 3, dtype=np.float64).reshape(-1, 3) + 1000.0 * j
        start = sum(i + j + 1 for i in range(rank))
        parts.append(wj[start:start + rank + j + 1])
    res["grad_allswap"] = (g, np.concatenate(parts))
    return res


class Net(nn.Cell):
    def __init__(self, rank: int) -> None:
        super().__init__()
        self.a = ms.Parameter(ms.Tensor(np.full((2, 3), 1.0 + rank, np.float32)), name="a")
        self.b = ms.Parameter(ms.Tensor(np.full((3,), 10.0 + rank, np.float32)), name="b")
        self.c = ms.Parameter(ms.Tensor(np.full((4,), 100.0 + rank, np.float32)), name="c")
        self.w = ms.Parameter(ms.Tensor(np.full((2,), 1000.0 + rank, np.float32)), name="w")


def broadcast(rank: int, size: int) -> dict:
    res = {}
    net = Net(rank)
    dp = {"a": [[size], [-1, -1]], "b": [[size], [-1]], "c": [[size], [-1]]}
    ms.parameter_broadcast(net, dp, rank, 0)
    # a, b, c are dealt round-robin over the ranks: a from rank 0, b from rank 1, c from rank 2 % size
    res["dp_a"] = (net.a, np.full((2, 3), 1.0))
    res["dp_b"] = (net.b, np.full(3, 10.0 + 1 % size))
    res["dp_c"] = (net.c, np.full(4, 100.0 + 2 % size))
    net = Net(rank)
    ms.parameter_broadcast(net, {"w": [[size], [0]], "a": [[size], [-1, -1]]}, rank, 0)
    res["mp_w_kept"] = (net.w, np.full(2, 1000.0 + rank))  # sliced across the ranks: nothing to share
    res["mp_a"] = (net.a, np.full((2, 3), 1.0))
    return res


def main(out: str) -> None:
    init()
    rank, size = get_rank(), get_group_size()
    res = {**all_to_all_v_c(rank, size), **all_swap(rank, size), **broadcast(rank, size)}
    arrays = {}
    for name, (got, want) in res.items():
        arrays[f"got/{name}"] = got.asnumpy() if hasattr(got, "asnumpy") else np.asarray(got)
        arrays[f"want/{name}"] = np.asarray(want)
    np.savez(f"{out}/rank{rank}.npz", **arrays)


if __name__ == "__main__":
    main(sys.argv[1])
