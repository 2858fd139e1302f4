"""``mindspore.communication.comm_func``: collectives as functions that return new tensors (differentiable
where an operator stands behind them: all_reduce, all_gather_into_tensor, reduce_scatter_tensor, reduce,
broadcast), and point-to-point messages.

A call with ``async_op=True`` completes before it returns here and hands back a :class:`CommHandle` whose
``wait()`` returns at once, as MindSpore's Python-side handles do; cellonnx.nn.DistributedGradReducer is what
overlaps gradient all-reduces with computation.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.communication import _mpi
from cellonnx.communication.management import GlobalComm
from cellonnx.ops.prims import comm as _c
from cellonnx.tensor import Tensor

__all__ = ["CommHandle", "all_gather_into_tensor", "all_reduce", "barrier", "broadcast", "gather_into_tensor",
           "irecv", "isend", "recv", "reduce", "reduce_scatter_tensor", "scatter_tensor", "send"]


class CommHandle:
    """The handle of a communication started with ``async_op=True``: ``wait()`` blocks until it is done."""

    def __init__(self, request: Any = None, on_done: Any = None) -> None:
        self.handle = request
        self._on_done = on_done

    def wait(self) -> None:
        if self.handle is not None:
            self.handle.Wait()
            self.handle = None
        if self._on_done is not None:
            self._on_done()
            self._on_done = None

    def is_completed(self) -> bool:
        return self.handle is None or bool(self.handle.Test())

    def __repr__(self) -> str:
        return f"CommHandle(handle={self.handle})"


def _group(group: Any, name: str) -> str:
    if group is None:
        return GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For {name}, the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group).__name__}.")
    return group


def _check(tensor: Any, name: str, async_op: Any = False) -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {name}, the input tensor must be tensor, but got {type(tensor).__name__}")
    if not isinstance(async_op, bool):
        raise TypeError(f"For {name}, the argument 'async_op' must be a bool, but got "
                        f"{type(async_op).__name__}.")


def _op(op: Any, name: str, allowed: tuple = ("sum", "prod", "min", "max")) -> str:
    if not isinstance(op, str):
        raise TypeError(f"For {name}, the input op type must be str, but got {type(op).__name__}")
    if op not in allowed:
        raise TypeError(f"For {name}, the input op value must be one of {', '.join(allowed)}, but got {op!r}")
    return op


def _out(value: Tensor, async_op: bool) -> tuple:
    return value, (CommHandle() if async_op else None)


def all_reduce(tensor: Tensor, op: str = _c.ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP,
               async_op: bool = False) -> tuple:
    """Reduce ``tensor`` across the group; every rank gets the result.

    Returns:
        (Tensor, CommHandle or None).
    """
    _check(tensor, "all_reduce", async_op)
    out = _c.AllReducePrim.apply(tensor, op=_op(op, "all_reduce"), group=_group(group, "all_reduce"))
    return _out(out, async_op)


def all_gather_into_tensor(tensor: Tensor, group: str = GlobalComm.WORLD_COMM_GROUP,
                           async_op: bool = False) -> tuple:
    """The tensors of all ranks concatenated along the first axis.

    Returns:
        (Tensor, CommHandle or None).
    """
    _check(tensor, "all_gather_into_tensor", async_op)
    return _out(_c.AllGatherPrim.apply(tensor, group=_group(group, "all_gather_into_tensor")), async_op)


def reduce_scatter_tensor(tensor: Tensor, op: str = _c.ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP,
                          async_op: bool = False) -> tuple:
    """Reduce across the group, rank i keeping the i-th slice along the first axis.

    Returns:
        (Tensor, CommHandle or None).
    """
    _check(tensor, "reduce_scatter_tensor", async_op)
    out = _c.ReduceScatterPrim.apply(tensor, op=_op(op, "reduce_scatter_tensor"),
                                     group=_group(group, "reduce_scatter_tensor"))
    return _out(out, async_op)


def reduce(tensor: Tensor, dst: int, op: str = _c.ReduceOp.SUM,
           group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Reduce onto the world rank ``dst``; the other ranks get their input back."""
    _check(tensor, "reduce")
    group = _group(group, "reduce")
    root = _group_rank(dst, group, "reduce")
    return _c.ReducePrim.apply(tensor, root=root, op=_op(op, "reduce"), group=group)


def broadcast(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """World rank ``src``'s tensor, on every rank of the group."""
    _check(tensor, "broadcast")
    group = _group(group, "broadcast")
    return _c.BroadcastPrim.apply(tensor, root=_group_rank(src, group, "broadcast"), group=group)


def barrier(group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
    """Wait until every rank of the group reaches this call."""
    _mpi.comm(_group(group, "barrier"), "barrier").Barrier()


def gather_into_tensor(tensor: Tensor, dst: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """The tensors of all ranks concatenated along the first axis, on world rank ``dst``; the other ranks get
    a tensor of shape ()."""
    _check(tensor, "gather_into_tensor")
    group = _group(group, "gather_into_tensor")
    c = _mpi.comm(group, "gather_into_tensor")
    root = _group_rank(dst, group, "gather_into_tensor")
    src = _mpi.to_wire(tensor._data)
    out = np.empty((c.Get_size(),) + src.shape, src.dtype) if c.Get_rank() == root else None
    c.Gather(src, out, root=root)
    if out is None:
        return Tensor._make(np.zeros((), tensor._data.dtype))
    out = out.reshape((-1,) + src.shape[1:]) if src.ndim else out
    return Tensor._make(_mpi.from_wire(out, tensor._data.dtype))


def scatter_tensor(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """World rank ``src``'s tensor split into equal slices along the first axis; rank i gets the i-th."""
    _check(tensor, "scatter_tensor")
    group = _group(group, "scatter_tensor")
    c = _mpi.comm(group, "scatter_tensor")
    root = _group_rank(src, group, "scatter_tensor")
    a = _mpi.to_wire(tensor._data)
    if a.ndim == 0 or a.shape[0] % c.Get_size():
        raise ValueError("For scatter_tensor, the first dimension of the input must be divisible by the "
                         "group "
                         f"size {c.Get_size()}, but got shape {a.shape}")
    out = np.empty((a.shape[0] // c.Get_size(),) + a.shape[1:], a.dtype)
    c.Scatter(a, out, root=root)
    return Tensor._make(_mpi.from_wire(out, tensor._data.dtype))


def _group_rank(world_rank: int, group: str, name: str) -> int:
    if not isinstance(world_rank, int) or isinstance(world_rank, bool):
        raise TypeError(f"For {name}, the rank must be an int, but got {type(world_rank).__name__}")
    ranks = _mpi.world_ranks(group, name)
    if world_rank not in ranks:
        raise ValueError(f"For {name}, world rank {world_rank} is not in the group '{group}' (ranks {ranks})")
    return ranks.index(world_rank)


def send(tensor: Tensor, dst: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP, tag: int = 0) -> None:
    """Send ``tensor`` to world rank ``dst`` (blocking)."""
    _check(tensor, "send")
    group = _group(group, "send")
    _mpi.comm(group, "send").Send(_mpi.to_wire(tensor._data), dest=_group_rank(dst, group, "send"), tag=tag)


def recv(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP, tag: int = 0) -> Tensor:
    """Receive from world rank ``src`` a tensor of ``tensor``'s shape and dtype (blocking); returns it."""
    _check(tensor, "recv")
    group = _group(group, "recv")
    buf = np.empty_like(_mpi.to_wire(tensor._data))
    _mpi.comm(group, "recv").Recv(buf, source=_group_rank(src, group, "recv"), tag=tag)
    return Tensor._make(_mpi.from_wire(buf, tensor._data.dtype))


def isend(tensor: Tensor, dst: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP, tag: int = 0) -> CommHandle:
    """Start sending ``tensor`` to world rank ``dst``; ``wait()`` on the handle completes it."""
    _check(tensor, "isend")
    group = _group(group, "isend")
    buf = _mpi.to_wire(tensor._data).copy()
    req = _mpi.comm(group, "isend").Isend(buf, dest=_group_rank(dst, group, "isend"), tag=tag)
    handle = CommHandle(req)
    handle._buffer = buf  # type: ignore[attr-defined]  # kept alive until the send completes
    return handle


def irecv(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP, tag: int = 0) -> tuple:
    """Start receiving into a tensor of ``tensor``'s shape from world rank ``src``.

    Returns:
        (CommHandle, Tensor): the tensor holds the message once ``wait()`` returned.
    """
    _check(tensor, "irecv")
    group = _group(group, "irecv")
    buf = np.empty_like(_mpi.to_wire(tensor._data))
    out = Tensor._make(np.empty_like(tensor._data))
    req = _mpi.comm(group, "irecv").Irecv(buf, source=_group_rank(src, group, "irecv"), tag=tag)

    def done() -> None:
        out._data = _mpi.from_wire(buf, tensor._data.dtype)

    return CommHandle(req, done), out
