"""AllGather, ReduceScatter, Broadcast (and Reduce, AlltoAll) inside compiled training steps (GRAPH_MODE
and ``jit``) under mpirun, beside the same code run eagerly; writes OUT/rank{r}.npz for
tests/communication/test_compiled_collectives.py, which also checks them against NumPy.

    mpirun -n 2 python compiled_collectives.py OUT
"""
from __future__ import annotations

import sys

import numpy as np

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.communication import get_group_size, get_rank, init

STEPS = 3


def values(rank: int, size: int) -> dict[str, np.ndarray]:
    """This rank's input, weight and constants (seeded by the rank: the test rebuilds every rank's)."""
    rng = np.random.default_rng(10 + rank)
    return {"x": rng.standard_normal((2, 3)).astype(np.float32),
            "w": rng.standard_normal((2, 3)).astype(np.float32),
            "c": rng.standard_normal((2 * size, 3)).astype(np.float32),
            "d": rng.standard_normal((2, 3)).astype(np.float32)}


def chain(mode: int, rank: int, size: int) -> dict[str, np.ndarray]:
    """A jit function: y = AllGather(x * w), z = ReduceScatter(y * c), b = Broadcast(z) from the last rank,
    loss = sum(b * b * d); its value, intermediates and the gradient with respect to w (local to each rank,
    no all-reduce of it)."""
    ms.set_context(mode=mode)
    try:
        v = values(rank, size)
        w = ms.Parameter(ms.Tensor(v["w"]), name="w")
        c, d = ms.Tensor(v["c"]), ms.Tensor(v["d"])
        gather, scatter, bcast = ops.AllGather(), ops.ReduceScatter(ops.ReduceOp.SUM), ops.Broadcast(size - 1)

        def forward(x: ms.Tensor) -> tuple:
            y = gather(x * w)
            z = scatter(y * c)
            b = bcast((z,))[0]
            return (b * b * d).sum(), y, z, b

        grad_fn = ms.value_and_grad(forward, None, [w], has_aux=True)

        @ms.jit
        def step(x: ms.Tensor) -> tuple:
            (loss, y, z, b), (gw,) = grad_fn(x)
            return loss, y, z, b, gw

        out: dict[str, np.ndarray] = {}
        for k in range(STEPS):
            x = ms.Tensor(v["x"] * (k + 1))
            for name, t in zip(("loss", "y", "z", "b", "gw"), step(x)):
                out[f"{k}/{name}"] = t.asnumpy()
        return out
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


class Gathered(nn.Cell):
    """A net whose loss reads every rank's features (AllGather) and trains through ReduceScatter,
    Broadcast, Reduce and AlltoAll on the way."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.dense = nn.Dense(3, 4)
        self.head = nn.Dense(4, 2)
        self.size = size
        self.gather, self.scatter = ops.AllGather(), ops.ReduceScatter()
        self.bcast, self.reduce = ops.Broadcast(0), ops.Reduce(0)
        self.a2a = ops.AlltoAll(size, 0, 1)

    def construct(self, x: ms.Tensor) -> ms.Tensor:
        h = ops.tanh(self.dense(x))                 # (n, 4)
        every = self.gather(h)                       # (size * n, 4)
        back = self.scatter(every * 0.5)             # (n, 4): this rank's rows, summed over ranks, halved
        shared = self.bcast((back,))[0]
        mixed = self.a2a(shared)                     # (n / size, 4 * size)
        top = self.reduce(mixed)
        return self.head(shared + every[:h.shape[0]]).sum() + (top * top).mean()


def trained(mode: int, rank: int, size: int) -> dict[str, np.ndarray]:
    """TrainOneStepCell over Gathered (Momentum), GRAPH_MODE against PYNATIVE_MODE, dynamic batch."""
    ms.set_context(mode=mode)
    try:
        ms.set_seed(3)
        net = Gathered(size)
        loss = nn.WithLossCell(net, lambda out, label: out * label)
        opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
        step = nn.TrainOneStepCell(loss, opt)
        step.set_train()
        rng = np.random.default_rng(rank)
        losses = []
        for n in (4, 4, 2):
            x = ms.Tensor(rng.standard_normal((n, 3)).astype(np.float32))
            losses.append(step(x, ms.Tensor(np.float32(1.0))).asnumpy())
        out = {"losses": np.array(losses)}
        out.update({f"end/{p.name}": p.asnumpy().copy() for p in net.trainable_params()})
        if mode == ms.GRAPH_MODE:
            from cellonnx.graph.train import compiled_steps
            (compiled,) = compiled_steps(step)
            out["boundaries"] = np.array([b.label for b in compiled.step.boundaries])
        return out
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def main(out: str) -> None:
    init()
    rank, size = get_rank(), get_group_size()
    saved: dict[str, np.ndarray] = {}
    for prefix, mode in (("eager", ms.PYNATIVE_MODE), ("graph", ms.GRAPH_MODE)):
        saved.update({f"chain/{prefix}/{k}": v for k, v in chain(mode, rank, size).items()})
        saved.update({f"trained/{prefix}/{k}": v for k, v in trained(mode, rank, size).items()})
    np.savez(f"{out}/rank{rank}.npz", **saved)


if __name__ == "__main__":
    main(sys.argv[1])
