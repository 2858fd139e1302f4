"""The collective operator classes (MindSpore's ``ops.operations.comm_ops``): defined with their gradients in
cellonnx/ops/prims/comm.py, over cellonnx.communication; named here so ``P.AllReduce()`` works as in MindSpore."""
from __future__ import annotations

from cellonnx.ops.prims.comm import (
    AllGather,
    AllReduce,
    AlltoAll,
    Barrier,
    Broadcast,
    CollectiveGather,
    CollectiveScatter,
    Reduce,
    ReduceOp,
    ReduceScatter,
)

__all__ = ["AllGather", "AllReduce", "AlltoAll", "Barrier", "Broadcast", "CollectiveGather", "CollectiveScatter",
           "Reduce", "ReduceOp", "ReduceScatter"]
