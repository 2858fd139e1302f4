"""Gradients computed straight into DistributedGradReducer's buckets, under mpirun; writes OUT/rank{r}.npz for
tests/communication/test_grad_buckets.py.

    mpirun -n 2 python grad_buckets.py OUT
"""
from __future__ import annotations

import sys
import weakref

import numpy as np

import cellonnx as ms
from cellonnx import nn
from cellonnx.communication import get_rank, init

STEPS = 3


def cnn() -> nn.Cell:
    return nn.SequentialCell([nn.Conv2d(2, 4, 3, pad_mode="pad", padding=1, has_bias=True), nn.BatchNorm2d(4),
                              nn.ReLU(), nn.Conv2d(4, 4, 3, stride=2, pad_mode="valid", group=2),
                              nn.Flatten(), nn.Dense(4 * 2 * 2, 3)])


def batch(rank: int, step: int) -> tuple[ms.Tensor, ms.Tensor]:
    rng = np.random.default_rng(100 * rank + step)
    return (ms.Tensor(rng.standard_normal((3, 2, 6, 6)).astype(np.float32)),
            ms.Tensor(rng.integers(0, 3, 3).astype(np.int32)))


def record(prefix: str, names: list[str], values: list) -> dict[str, np.ndarray]:
    return {f"{prefix}/{n}": np.array(v.asnumpy() if isinstance(v, ms.Tensor) else v, copy=True)
            for n, v in zip(names, values)}


def main(out: str) -> None:
    init()
    rank = get_rank()
    # buckets of at most 400 bytes: the 4 x 2 x 3 x 3 conv weight (288 B) alone, the others grouped
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 comm_fusion={"allreduce": {"mode": "size", "config": 0.0004}})
    ms.set_seed(5 + rank)   # the reducer broadcasts rank 0's weights
    net = cnn()
    net.set_train()
    params = net.trainable_params()
    names = [p.name for p in params]
    opt = nn.SGD(params, learning_rate=0.1)
    reducer = nn.DistributedGradReducer(params)
    plan = reducer._plan
    ce = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    grad_fn = ms.value_and_grad(lambda x, y: ce(net(x), y), None, params)
    held: tuple | None = None
    saved: dict[str, np.ndarray] = {"buckets": np.array([len(b.members) for b in plan.buckets])}
    for k in range(STEPS + 1):
        keep = k == STEPS   # the last step keeps the previous step's gradients alive across it
        _, grads = grad_fn(*batch(rank, k))
        saved[f"{k}/written"] = np.array(plan.written)
        saved[f"{k}/in_bucket"] = np.array([plan.bucket_of[i].holds(i, g._data) for i, g in enumerate(grads)])
        if k == 0:   # (weakly: a reference would keep the buffer from being reused)
            first_grad = [weakref.ref(b.grad) for b in plan.buckets]
        saved[f"{k}/same_grad_buffers"] = np.array([g() is b.grad for b, g in zip(plan.buckets, first_grad)])
        before = [g.asnumpy().copy() for g in grads]
        reduced = reducer(grads)
        if k == 0:
            first_result = [weakref.ref(b.result) for b in plan.buckets]
        saved[f"{k}/same_result_buffers"] = np.array([r() is b.result
                                                      for b, r in zip(plan.buckets, first_result)])
        saved.update(record(f"{k}/local", names, before))
        saved.update(record(f"{k}/after", names, grads))   # the reducer leaves its input as it was
        saved.update(record(f"{k}/reduced", names, reduced))
        if keep:
            saved.update(record("held/local", names, held[0]))
            saved.update(record("held/reduced", names, held[1]))
        opt(reduced)
        held = (grads, reduced) if k == STEPS - 1 else None
        del grads, reduced, before
    # the same gradients reduced twice (no backward pass between): read where they are, no fresh buffer
    del held
    _, grads = grad_fn(*batch(rank, 0))
    saved.update(record("twice/first", names, reducer(grads)))
    kept = [weakref.ref(b.grad) for b in plan.buckets]
    saved.update(record("twice/second", names, reducer(grads)))
    saved["twice/same_grad_buffers"] = np.array([g() is b.grad for b, g in zip(plan.buckets, kept)])
    # gradients replaced after the backward pass (scaled, as clipping or accumulation would): the backward's
    # gradients, views of the buckets, keep their values; the replacements are what is reduced
    _, grads = grad_fn(*batch(rank, 1))
    saved.update(record("replaced/local", names, grads))
    saved.update(record("replaced/reduced", names, reducer(tuple(g * 2 for g in grads))))
    saved.update(record("replaced/after", names, grads))
    np.savez(f"{out}/rank{rank}.npz", **saved)


if __name__ == "__main__":
    main(sys.argv[1])
