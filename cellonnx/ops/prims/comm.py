"""Collective communication as ops (MindSpore's ``ops.AllReduce``, ``AllGather``, ``ReduceScatter``,
``Broadcast``, ``Reduce``): the forward calls MPI across the ranks of a group, the gradient is the matching
collective (AllReduce-sum's is AllReduce-sum, AllGather's is ReduceScatter-sum, ReduceScatter's is
AllGather, Reduce's is Broadcast from the root; Broadcast passes its gradient through, as MindSpore's does),
so a network that calls them trains, and differentiates twice.

A compiled graph is split at a collective rather than holding a custom ONNX node: in a traced training step
(GRAPH_MODE, ``jit``) each collective is a host boundary (cellonnx/graph/boundary.py), the step cut into
graphs around it and the collective run over MPI between them (cellonnx/graph/split_step.py), gradients
included; an inference graph or an export cannot hold one. Start the run with
``cellonnx.communication.init()`` under ``mpirun`` first.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.communication import _mpi
from cellonnx.ops.registry import Op, OpError
from cellonnx.tensor import Tensor

__all__ = ["AllGather", "AllReduce", "AlltoAll", "Barrier", "Broadcast", "CollectiveGather",
           "CollectiveScatter", "Reduce", "ReduceOp", "ReduceScatter"]

WORLD = _mpi.HCCL_WORLD_COMM_GROUP


class ReduceOp:
    """The element-wise reductions of the collectives: ``SUM``, ``MAX``, ``MIN``, ``PROD``.

    Examples:
        >>> print(ops.ReduceOp.SUM, ops.ReduceOp.MAX, ops.ReduceOp.MIN, ops.ReduceOp.PROD)
        sum max min prod
    """

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


def _no_lowering(name: str) -> OpError:
    return OpError(f"ops.{name}: a collective has no ONNX form; a compiled training step (GRAPH_MODE on a "
                   "training cell, jit) runs it between its graphs, but an inference graph or an export "
                   "cannot hold it: run this code in PYNATIVE_MODE or inside the training step")


def _between_graphs(g: Any, name: str, run: Any, dims: Any = None) -> str:
    """The lowering of a collective in a traced training step: the step is cut around it, the host runs
    ``run(array)`` on the traced input's value between the graphs (cellonnx/graph/boundary.py), and the
    result comes back as a graph input. ``dims`` maps the input's shape (None for a dynamic dim) to the
    output's (None: the output's shape is the input's)."""
    from cellonnx.graph.boundary import host_boundary
    from cellonnx.graph.symint import is_symbolic
    from cellonnx.graph.trace import current, tracing_step

    if not tracing_step():
        raise _no_lowering(name)
    tracer = current()
    x, out = g.in_tensors[0], g.out_tensors[0]
    shape = [None if is_symbolic(d) else int(d) for d in tracer.shape_of(x)]
    if dims is not None:
        shape = dims(shape)
    (t,) = host_boundary(name, [x], [out._data], lambda arrays: [run(arrays[0])], shapes=[shape])
    return tracer.name_of(t)


class AllReducePrim(Op):
    name = "AllReduce"
    save_output = True

    def forward(self, x, *, op, group):
        return _mpi.allreduce_array(x, op, group, "ops.AllReduce")

    def backward(self, ctx, g, *, op, group):
        from cellonnx import ops

        if op == ReduceOp.SUM:
            return (AllReducePrim.apply(g, op=ReduceOp.SUM, group=group),)
        x, out = ctx.inputs[0], ctx.out
        if op == ReduceOp.PROD:
            return (AllReducePrim.apply(g * out, op=ReduceOp.SUM, group=group) / x,)
        # max / min: the gradient flows to the ranks whose value is the extreme
        mask = ops.cast(ops.equal(x, out), g.dtype)
        return (AllReducePrim.apply(g, op=ReduceOp.SUM, group=group) * mask,)

    def lower(self, g, *xs, op, group):
        # a compiled training step (SyncBatchNorm's statistics): the step is cut around the all-reduce
        return _between_graphs(g, self.name, lambda a: _mpi.allreduce_array(a, op, group, "ops.AllReduce"))


class AllGatherPrim(Op):
    name = "AllGather"

    def forward(self, x, *, group):
        return _mpi.allgather_array(x, group, "ops.AllGather")

    def backward(self, ctx, g, *, group):
        return (ReduceScatterPrim.apply(g, op=ReduceOp.SUM, group=group),)

    def lower(self, g, *xs, group):
        size = _mpi.comm(group, "ops.AllGather").Get_size()
        return _between_graphs(g, self.name, lambda a: _mpi.allgather_array(a, group, "ops.AllGather"),
                               lambda s: _scaled(s, 0, size, 1))


class ReduceScatterPrim(Op):
    name = "ReduceScatter"

    def forward(self, x, *, op, group):
        return _mpi.reduce_scatter_array(x, op, group, "ops.ReduceScatter")

    def backward(self, ctx, g, *, op, group):
        if op != ReduceOp.SUM:
            raise RuntimeError("ops.ReduceScatter: the gradient is defined for ReduceOp.SUM only, but "
                               "the op "
                               f"is {op!r}")
        return (AllGatherPrim.apply(g, group=group),)

    def lower(self, g, *xs, op, group):
        size = _mpi.comm(group, "ops.ReduceScatter").Get_size()
        return _between_graphs(g, self.name,
                               lambda a: _mpi.reduce_scatter_array(a, op, group, "ops.ReduceScatter"),
                               lambda s: _scaled(s, 0, 1, size))


class BroadcastPrim(Op):
    name = "Broadcast"

    def forward(self, x, *, root, group):
        return _mpi.broadcast_array(x, root, group, "ops.Broadcast")

    def backward(self, ctx, g, *, root, group):
        return (g,)

    def lower(self, g, *xs, root, group):
        return _between_graphs(g, self.name, lambda a: _mpi.broadcast_array(a, root, group, "ops.Broadcast"))


class ReducePrim(Op):
    name = "Reduce"

    def forward(self, x, *, root, op, group):
        return _mpi.reduce_array(x, root, op, group, "ops.Reduce")

    def backward(self, ctx, g, *, root, op, group):
        return (BroadcastPrim.apply(g, root=root, group=group),)

    def lower(self, g, *xs, root, op, group):
        return _between_graphs(g, self.name, lambda a: _mpi.reduce_array(a, root, op, group, "ops.Reduce"))


class AlltoAllPrim(Op):
    name = "AlltoAll"

    def forward(self, x, *, split_dim, concat_dim, group):
        c = _mpi.comm(group, "ops.AlltoAll")
        size = c.Get_size()
        if x.shape[split_dim] % size:
            raise ValueError(f"ops.AlltoAll: dimension {split_dim} of the input ({x.shape[split_dim]}) "
                             "must be "
                             f"divisible by split_count {size}, but the shape is {x.shape}")
        src = _mpi.to_wire(np.stack(np.split(x, size, axis=split_dim)))
        out = np.empty_like(src)
        c.Alltoall(src, out)
        return _mpi.from_wire(np.concatenate(list(out), axis=concat_dim), x.dtype)

    def backward(self, ctx, g, *, split_dim, concat_dim, group):
        return (AlltoAllPrim.apply(g, split_dim=concat_dim, concat_dim=split_dim, group=group),)

    def lower(self, g, *xs, split_dim, concat_dim, group):
        size = _mpi.comm(group, "ops.AlltoAll").Get_size()

        def run(a):
            return AlltoAllPrim._instance.forward(a, split_dim=split_dim, concat_dim=concat_dim, group=group)

        def dims(shape):
            return _scaled(_scaled(shape, split_dim, 1, size), concat_dim, size, 1)

        return _between_graphs(g, self.name, run, dims)


def _scaled(shape: list, axis: int, times: int, over: int) -> list:
    """``shape`` with dim ``axis`` multiplied by ``times`` and divided by ``over`` (None stays None)."""
    out = list(shape)
    if out[axis] is not None:
        out[axis] = out[axis] * times // over
    return out


def _check_op(prim: str, op: Any) -> str:
    if op not in (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD):
        raise TypeError(f"For '{prim}', the 'op' must be one of ReduceOp.SUM / MAX / MIN / PROD "
                        f"('sum', 'max', 'min', 'prod'), but got {op!r}")
    return op


def _check_group(prim: str, group: Any) -> str:
    if not isinstance(group, str):
        raise TypeError(f"For '{prim}', the 'group' must be a str, but got {type(group).__name__}")
    return group


def _tensor(prim: str, x: Any) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{prim}', the input must be a Tensor, but got {type(x).__name__}")
    return x


class _Collective:
    """What the collective operator classes share: MindSpore's ``group`` / ``name`` / ``attrs``."""

    def __init__(self, group: str) -> None:
        self.name = type(self).__name__
        self.group = _check_group(self.name, group)
        self.attrs: dict[str, Any] = {"group": group}

    def add_prim_attr(self, name: str, value: Any) -> _Collective:
        self.__dict__[name] = value
        self.attrs[name] = value
        return self

    def set_prim_instance_name(self, instance_name: str) -> _Collective:
        self.instance_name = instance_name
        return self

    def __repr__(self) -> str:
        return f"Prim[{self.name}]<{', '.join(f'{k}={v!r}' for k, v in self.attrs.items())}>"


class AllReduce(_Collective):
    r"""Reduce a tensor element-wise across the ranks of a group; every rank gets the result.

    Args:
        op (str): ``ReduceOp.SUM`` (default), ``MAX``, ``MIN`` or ``PROD``.
        group (str): the group. Default: the world group.

    Inputs:
        - **input_x** (Tensor) - the same shape on every rank.

    Outputs:
        Tensor, the reduction, of the input's shape and dtype.

    Raises:
        TypeError: ``op`` or ``group`` is not a str, or the input is not a Tensor.
        RuntimeError: ``cellonnx.communication.init()`` has not run.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> print(ops.AllReduce(ops.ReduceOp.SUM)(ms.Tensor(np.ones((2, 2), np.float32))))
        [[1. 1.]
         [1. 1.]]
    """

    def __init__(self, op: str = ReduceOp.SUM, group: str = WORLD) -> None:
        super().__init__(group)
        self.op = _check_op("AllReduce", op)
        self.attrs["op"] = op

    def __call__(self, x: Tensor) -> Tensor:
        return AllReducePrim.apply(_tensor(self.name, x), op=self.op, group=self.group)


class AllGather(_Collective):
    r"""Gather the tensors of every rank of a group, concatenated along the first axis in rank order.

    Args:
        group (str): the group. Default: the world group.

    Inputs:
        - **input_x** (Tensor) - the same shape on every rank, :math:`(x_1, x_2, ...)`.

    Outputs:
        Tensor of shape :math:`(N x_1, x_2, ...)` for N ranks.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        >>> print(ops.AllGather()(x))  # one rank: its own tensor
        [[0. 1.]
         [2. 3.]]
    """

    def __init__(self, group: str = WORLD) -> None:
        super().__init__(group)
        self.add_prim_attr("mean_flag", False)

    def __call__(self, x: Tensor) -> Tensor:
        return AllGatherPrim.apply(_tensor(self.name, x), group=self.group)


class ReduceScatter(_Collective):
    r"""Reduce across the ranks of a group, then rank i keeps the i-th of N equal slices along the first axis.

    Args:
        op (str): ``ReduceOp.SUM`` (default), ``MAX``, ``MIN`` or ``PROD``.
        group (str): the group. Default: the world group.

    Inputs:
        - **input_x** (Tensor) - its first dimension divisible by the group size N.

    Outputs:
        Tensor of shape :math:`(x_1 / N, x_2, ...)`.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        >>> print(ops.ReduceScatter(ops.ReduceOp.SUM)(x))
        [[0. 1.]
         [2. 3.]]
    """

    def __init__(self, op: str = ReduceOp.SUM, group: str = WORLD) -> None:
        super().__init__(group)
        self.op = _check_op("ReduceScatter", op)
        self.attrs["op"] = op

    def __call__(self, x: Tensor) -> Tensor:
        return ReduceScatterPrim.apply(_tensor(self.name, x), op=self.op, group=self.group)


class Broadcast(_Collective):
    r"""Every rank of a group gets the root rank's tensors.

    Args:
        root_rank (int): the source, a rank of the group.
        group (str): the group. Default: the world group.

    Inputs:
        - **input_x** (tuple[Tensor]) - the tensors (the root's values are sent, the others' shapes and dtypes
          must match).

    Outputs:
        tuple[Tensor], the root's tensors.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        >>> print(ops.Broadcast(0)((x,))[0])
        [[0. 1.]
         [2. 3.]]
    """

    def __init__(self, root_rank: int, group: str = WORLD) -> None:
        super().__init__(group)
        if not isinstance(root_rank, int) or isinstance(root_rank, bool):
            raise TypeError("For 'Broadcast', the 'root_rank' must be an int, but got "
                            f"{type(root_rank).__name__}")
        self.root_rank = root_rank
        self.attrs["root_rank"] = root_rank

    def __call__(self, x: Any) -> tuple:
        items = x if isinstance(x, (tuple, list)) else None
        if items is None:
            raise TypeError("For 'Broadcast', the input must be a tuple of Tensors, but got "
                            f"{type(x).__name__}")
        return tuple(BroadcastPrim.apply(_tensor(self.name, t), root=self.root_rank, group=self.group)
                     for t in items)


class Reduce(_Collective):
    r"""Reduce across the ranks of a group onto one rank; the others get their input back.

    Args:
        dest_rank (int): the rank (of the group) that receives the result.
        op (str): ``ReduceOp.SUM`` (default), ``MAX``, ``MIN`` or ``PROD``.
        group (str): the group. Default: the world group.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        >>> print(ops.Reduce(0)(x))
        [[0. 1.]
         [2. 3.]]
    """

    def __init__(self, dest_rank: int, op: str = ReduceOp.SUM, group: str = WORLD) -> None:
        super().__init__(group)
        self.dest_rank = dest_rank
        self.op = _check_op("Reduce", op)
        self.attrs.update(dest_rank=dest_rank, op=op)

    def __call__(self, x: Tensor) -> Tensor:
        return ReducePrim.apply(_tensor(self.name, x), root=self.dest_rank, op=self.op, group=self.group)


class AlltoAll(_Collective):
    r"""Split the input into ``split_count`` blocks along ``split_dim``, send block i to rank i, and
    concatenate the blocks received along ``concat_dim``. Its gradient is the AlltoAll back (the two dims
    swapped).

    Args:
        split_count (int): the number of blocks: the group size.
        split_dim (int): the dimension split.
        concat_dim (int): the dimension the received blocks are concatenated along.
        group (str): the group. Default: the world group.

    Raises:
        ValueError: ``split_count`` is not the group size, or the split dimension is not divisible by it.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        >>> print(ops.AlltoAll(1, 0, 1)(x))
        [[0. 1.]
         [2. 3.]]
    """

    def __init__(self, split_count: int, split_dim: int, concat_dim: int, group: str = WORLD) -> None:
        super().__init__(group)
        self.split_count, self.split_dim, self.concat_dim = split_count, split_dim, concat_dim
        self.attrs.update(split_count=split_count, split_dim=split_dim, concat_dim=concat_dim)

    def __call__(self, x: Tensor) -> Tensor:
        x = _tensor(self.name, x)
        size = _mpi.comm(self.group, "ops.AlltoAll").Get_size()
        if self.split_count != size:
            raise ValueError(f"For 'AlltoAll', split_count ({self.split_count}) must be the group size "
                             f"({size})")
        nd = x.ndim
        return AlltoAllPrim.apply(x, split_dim=self.split_dim % nd, concat_dim=self.concat_dim % nd,
                                  group=self.group)


class Barrier(_Collective):
    """Wait until every rank of the group reaches this call.

    Args:
        group (str): the group. Default: the world group.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> ops.Barrier()()
    """

    def __init__(self, group: str = WORLD) -> None:
        super().__init__(group)

    def __call__(self) -> None:
        _mpi.comm(self.group, "ops.Barrier").Barrier()


class CollectiveGather(_Collective):
    """The inputs of every rank concatenated along dimension 0 on world rank ``dest_rank``; the other ranks
    get a tensor of shape (1,) (no meaning), as MindSpore's.

    Args:
        dest_rank (int): the world rank that receives the result.
        group (str): the group. Default: the world group.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        >>> print(ops.CollectiveGather(0)(x))
        [[0. 1.]
         [2. 3.]]
    """

    def __init__(self, dest_rank: int, group: str = WORLD) -> None:
        super().__init__(group)
        self.dest_rank = dest_rank
        self.attrs["dest_rank"] = dest_rank

    def __call__(self, x: Tensor) -> Tensor:
        from cellonnx.communication import comm_func

        out = comm_func.gather_into_tensor(_tensor(self.name, x), self.dest_rank, self.group)
        return out if out.ndim else Tensor._make(np.zeros((1,), x._data.dtype))


class CollectiveScatter(_Collective):
    """World rank ``src_rank``'s input split evenly along dimension 0; rank i gets the i-th part.

    Args:
        src_rank (int): the world rank that sends. Default: 0.
        group (str): the group. Default: the world group.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        >>> print(ops.CollectiveScatter(0)(x))
        [[0. 1.]
         [2. 3.]]
    """

    def __init__(self, src_rank: int = 0, group: str = WORLD) -> None:
        super().__init__(group)
        self.src_rank = src_rank
        self.attrs["src_rank"] = src_rank

    def __call__(self, x: Tensor) -> Tensor:
        from cellonnx.communication import comm_func

        return comm_func.scatter_tensor(_tensor(self.name, x), self.src_rank, self.group)
