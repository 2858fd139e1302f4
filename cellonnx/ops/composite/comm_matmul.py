"""MindSpore's fused tensor-parallel matmuls, ``ops.all_gather_matmul`` and ``ops.matmul_reduce_scatter``:
an all-gather followed by a matmul, and a matmul followed by a reduce-scatter. On Ascend they are one fused
kernel that overlaps communication with compute; here they are the two differentiable ops in sequence, with
the same results and gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.communication import _mpi
from cellonnx.ops.prims.comm import AllGatherPrim, ReduceOp, ReduceScatterPrim
from cellonnx.tensor import Tensor

__all__ = ["all_gather_matmul", "matmul_reduce_scatter"]


def _check(name: str, input: Any, x2: Any, group: Any, world_size: Any, bias: Any, comm_turn: Any) -> None:
    for arg, value in (("input", input), ("x2", x2)):
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{name}', '{arg}' must be a Tensor, but got {type(value).__name__}")
        if value.ndim != 2:
            raise RuntimeError(f"For '{name}', '{arg}' must be 2-D, but got shape {tuple(value.shape)}")
    if input.dtype != x2.dtype:
        raise RuntimeError(
            f"For '{name}', 'input' and 'x2' must have one dtype, but got {input.dtype} and {x2.dtype}"
        )
    if not isinstance(group, str):
        raise TypeError(f"For '{name}', 'group' must be a str, but got {type(group).__name__}")
    size = _mpi.comm(group, name).Get_size()
    if world_size != size:
        raise RuntimeError(
            f"For '{name}', 'world_size' ({world_size}) must be the size of the group '{group}' ({size})"
        )
    if bias is not None:
        raise RuntimeError(f"For '{name}', 'bias' must be None (as in MindSpore); add it after the call")
    if comm_turn != 0:
        raise RuntimeError(f"For '{name}', 'comm_turn' must be 0, but got {comm_turn}")


def _matmul(a: Tensor, b: Tensor, name: str) -> Tensor:
    from cellonnx import ops

    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"For '{name}', the k axes differ: {tuple(a.shape)} @ {tuple(b.shape)}")
    return ops.matmul(a, b)


def all_gather_matmul(
    input: Tensor,
    x2: Tensor,
    group: str,
    world_size: int,
    *,
    bias: Tensor | None = None,
    gather_index: int = 0,
    gather_output: bool = True,
    comm_turn: int = 0,
    trans_input: bool = False,
    trans_x2: bool = False,
) -> tuple:
    """``allgather(input) @ x2`` (or ``input @ allgather(x2)`` with ``gather_index=1``) over the ranks of
    ``group``, gathering along the first axis.

    Args:
        input (Tensor): the left matrix, (m, k) (``trans_input``: (k, m)).
        x2 (Tensor): the right matrix, (k, n) (``trans_x2``: (n, k)).
        group (str): the group.
        world_size (int): the number of ranks in the group.
        bias (Tensor, optional): must be None, as in MindSpore.
        gather_index (int): 0 gathers ``input``, 1 gathers ``x2``.
        gather_output (bool): whether the gathered matrix is returned too.
        comm_turn (int): 0 only.
        trans_input (bool): ``input`` is given transposed.
        trans_x2 (bool): ``x2`` is given transposed.

    Returns:
        (output, gather_out): the product, (m * world_size, n) when gathering ``input``; the gathered matrix,
        or a tensor of shape (0,) when ``gather_output`` is False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> a = Tensor(np.ones((2, 3)), ms.float32)
        >>> b = Tensor(np.ones((3, 2)), ms.float32)
        >>> out, gathered = ops.all_gather_matmul(a, b, 'hccl_world_group', 1)
        >>> print(out)
        [[3. 3.]
         [3. 3.]]
    """
    name = "all_gather_matmul"
    _check(name, input, x2, group, world_size, bias, comm_turn)
    if gather_index not in (0, 1):
        raise RuntimeError(f"For '{name}', 'gather_index' must be 0 or 1, but got {gather_index}")
    a = input.T if trans_input else input
    b = x2.T if trans_x2 else x2
    if gather_index == 0:
        gathered = AllGatherPrim.apply(a, group=group)
        out = _matmul(gathered, b, name)
    else:
        gathered = AllGatherPrim.apply(b, group=group)
        out = _matmul(a, gathered, name)
    return out, (gathered if gather_output else Tensor._make(np.zeros((0,), gathered._data.dtype)))


def matmul_reduce_scatter(
    input: Tensor,
    x2: Tensor,
    group: str,
    world_size: int,
    *,
    reduce_op: str = "sum",
    bias: Tensor | None = None,
    comm_turn: int = 0,
    trans_input: bool = False,
    trans_x2: bool = False,
) -> Tensor:
    """``reducescatter(input @ x2)`` over the ranks of ``group``: the products summed across ranks, rank i
    keeping the i-th block of rows.

    Args:
        input (Tensor): the left matrix, (m, k) (``trans_input``: (k, m)); m divisible by ``world_size``.
        x2 (Tensor): the right matrix, (k, n) (``trans_x2``: (n, k)).
        group (str): the group.
        world_size (int): the number of ranks in the group.
        reduce_op (str): "sum" only.
        bias (Tensor, optional): must be None, as in MindSpore.
        comm_turn (int): 0 only.
        trans_input (bool): ``input`` is given transposed.
        trans_x2 (bool): ``x2`` is given transposed.

    Returns:
        Tensor of shape (m / world_size, n).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> a = Tensor(np.ones((2, 3)), ms.float32)
        >>> b = Tensor(np.ones((3, 2)), ms.float32)
        >>> print(ops.matmul_reduce_scatter(a, b, 'hccl_world_group', 1))
        [[3. 3.]
         [3. 3.]]
    """
    name = "matmul_reduce_scatter"
    _check(name, input, x2, group, world_size, bias, comm_turn)
    if reduce_op != ReduceOp.SUM:
        raise RuntimeError(f"For '{name}', 'reduce_op' must be 'sum', but got {reduce_op!r}")
    a = input.T if trans_input else input
    b = x2.T if trans_x2 else x2
    if a.shape[0] % world_size:
        raise RuntimeError(f"For '{name}', m ({a.shape[0]}) must be a multiple of world_size ({world_size})")
    return ReduceScatterPrim.apply(_matmul(a, b, name), op=ReduceOp.SUM, group=group)
