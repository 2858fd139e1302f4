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
from cellonnx.ops.prims.comm_neighbor import NeighborExchange, NeighborExchangeV2
from cellonnx.ops.prims.comm_p2p import BatchISendIRecv, Receive, Send
from cellonnx.ops.prims.comm_v import AllGatherV, AlltoAllV, AlltoAllVC, ReduceScatterV, _AllSwap

__all__ = ["AllGather", "AllGatherV", "AllReduce", "AlltoAll", "AlltoAllV", "AlltoAllVC", "Barrier",
           "BatchISendIRecv", "Broadcast", "CollectiveGather", "CollectiveScatter", "NeighborExchange",
           "NeighborExchangeV2", "Receive", "Reduce", "ReduceOp", "ReduceScatter", "ReduceScatterV", "Send"]
__all__ += ["_AllSwap"]
