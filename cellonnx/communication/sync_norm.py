"""Batch normalization with the statistics of the whole global batch: every rank's sums are all-reduced, so
N ranks with batches of B normalize as one process with the concatenated batch of N * B would. The
all-reduces are differentiable ops (ops.AllReduce), so the gradient is the global batch's too.

This is the cross-rank part that ``nn.SyncBatchNorm`` and gluon's ``SyncBatchNorm(num_devices=N)`` call.
Outside a distributed run (``init()`` not called, or a group of one rank) it is plain batch normalization.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.communication import _mpi
from cellonnx.graph.trace import tracing_step
from cellonnx.ops.prims.norm import _assign
from cellonnx.tensor import Tensor

__all__ = ["batch_statistics", "sync_batch_norm"]


def _group_size(group: str | None) -> int:
    if not _mpi.initialized():
        return 1
    return int(_mpi.comm(group, "SyncBatchNorm").Get_size())


def batch_statistics(x: Tensor, group: str | None = None) -> tuple[Tensor, Tensor, int]:
    """The per-channel mean and biased variance of ``x`` (N, C, *) over the batches of every rank of
    ``group``, and the number of values per channel they cover. Two all-reduces (the sums, then the squared
    deviations from the global mean), both differentiable.

    Returns:
        (mean (C,), variance (C,), count).
    """
    from cellonnx import ops
    from cellonnx.ops.prims.comm import AllReducePrim

    axes = (0,) + tuple(range(2, x.ndim))
    local = int(x._data.size // x._data.shape[1])
    group = group or _mpi.HCCL_WORLD_COMM_GROUP
    size = _group_size(group)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if size == 1:
        mean = ops.mean(x, axes)
        centred = ops.sub(x, ops.reshape(mean, shape))
        return mean, ops.mean(ops.square(centred), axes), local
    if tracing_step():   # a compiled step: the count follows the batch size of each call
        per_channel = ops.div(ops.prod(ops.cast(ops.dyn_shape(x), x.dtype)), x.shape[1])
        count: Any = AllReducePrim.apply(per_channel, op="sum", group=group)
    else:
        count = int(_mpi.allreduce_array(np.asarray(local, np.int64), "sum", group, "SyncBatchNorm"))
    mean = ops.div(AllReducePrim.apply(ops.sum(x, axes), op="sum", group=group), count)
    centred = ops.sub(x, ops.reshape(mean, shape))
    var = ops.div(AllReducePrim.apply(ops.sum(ops.square(centred), axes), op="sum", group=group), count)
    return mean, var, count


def sync_batch_norm(input_x: Tensor, running_mean: Tensor, running_var: Tensor, weight: Tensor | None = None,
                    bias: Tensor | None = None, training: bool = False, momentum: float = 0.1,
                    eps: float = 1e-5, group: str | None = None) -> Tensor:
    """``ops.batch_norm`` with the batch statistics of every rank of ``group`` (arguments and the running
    statistics' update as ``ops.batch_norm``: ``running = (1 - momentum) * running + momentum * batch``, the
    running variance taking the unbiased global variance).

    Returns:
        Tensor of the shape and dtype of ``input_x``.
    """
    from cellonnx import ops

    if not training or _group_size(group or _mpi.HCCL_WORLD_COMM_GROUP) == 1:
        return ops.batch_norm(input_x, running_mean, running_var, weight, bias, training, momentum, eps)
    x = input_x
    mean, var, count = batch_statistics(x, group)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    y = ops.mul(ops.sub(x, ops.reshape(mean, shape)), ops.reshape(ops.rsqrt(ops.add(var, eps)), shape))
    if weight is not None:
        y = ops.mul(y, ops.reshape(ops.cast(weight, y.dtype), shape))
    if bias is not None:
        y = ops.add(y, ops.reshape(ops.cast(bias, y.dtype), shape))
    if tracing_step():   # the running statistics' update in the graph
        from cellonnx.ops.operations._util import assign_to

        unbiased_t = ops.mul(var, ops.div(count, ops.maximum(ops.sub(count, 1.0), 1.0)))
        for stat, batch_t in ((running_mean, mean), (running_var, unbiased_t)):
            if isinstance(stat, Tensor):
                assign_to(stat, ops.add(ops.mul(ops.cast(stat, batch_t.dtype), 1.0 - momentum),
                                        ops.mul(ops.stop_gradient(batch_t), momentum)))
        return y
    unbiased = var._data * (count / (count - 1)) if count > 1 else np.zeros_like(var._data)
    for stat, batch in ((running_mean, mean._data), (running_var, unbiased)):
        if isinstance(stat, Tensor):
            _assign(stat, (1.0 - momentum) * stat._data + momentum * batch)
    return y
