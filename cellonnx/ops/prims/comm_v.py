"""Collectives over uneven parts, as ops with gradients: ``AllGatherV`` / ``ReduceScatterV`` (1-D inputs
split unevenly across ranks; each is the other's gradient) and ``AlltoAllV`` / ``AlltoAllVC`` (uneven
all-to-all; the gradient is the all-to-all back). Like the collectives of comm.py they call MPI in the
forward pass and have no ONNX form.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.communication import _mpi
from cellonnx.ops.prims.comm import (
    WORLD,
    ReduceOp,
    _check_op,
    _Collective,
    _no_lowering,
    _tensor,
)
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

__all__ = ["AllGatherV", "AlltoAllV", "AlltoAllVC", "ReduceScatterV", "_AllSwap"]

def _counts(value: Any, prim: str, what: str, size: int) -> list[int]:
    """A list / tuple / 1-D Tensor of ``size`` non-negative ints."""
    if isinstance(value, Tensor):
        value = value._data.reshape(-1).tolist()
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, (int, np.integer)) for v in value):
        raise TypeError(
            f"For '{prim}', '{what}' must be a list, tuple or 1-D Tensor of ints, but got {value!r}"
        )
    counts = [int(v) for v in value]
    if len(counts) != size or min(counts, default=0) < 0:
        raise ValueError(
            f"For '{prim}', '{what}' must hold {size} non-negative counts (one a rank of the "
            f"group), but got {counts}"
        )
    return counts


def _offsets(counts: list[int]) -> list[int]:
    return [int(v) for v in np.concatenate([[0], np.cumsum(counts)[:-1]])] if counts else []


def _flat(x: np.ndarray, prim: str) -> np.ndarray:
    if x.ndim != 1:
        raise ValueError(
            f"For '{prim}', the input must be flattened to one dimension first, but got shape {x.shape}"
        )
    return _mpi.to_wire(x)


def _empty_result(out: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """MindSpore's uneven collectives return a 0-d tensor (no meaning) when nothing arrives."""
    return np.zeros((), dtype) if out.size == 0 else _mpi.from_wire(out, dtype)


# --- AllGatherV / ReduceScatterV --------------------------------------------------------------------------
class AllGatherVPrim(Op):
    name = "AllGatherV"

    def forward(self, x, *, sizes, group):
        c = _mpi.comm(group, "ops.AllGatherV")
        src = _flat(x, "AllGatherV")
        if src.shape[0] != sizes[c.Get_rank()]:
            raise ValueError(
                f"For 'AllGatherV', this rank's input has {src.shape[0]} elements but "
                f"output_split_sizes[{c.Get_rank()}] is {sizes[c.Get_rank()]}"
            )
        out = np.empty(sum(sizes), src.dtype)
        c.Allgatherv(src, [out, (list(sizes), _offsets(list(sizes)))])
        return _empty_result(out, x.dtype)

    def backward(self, ctx, g, *, sizes, group):
        return (ReduceScatterVPrim.apply(g, op=ReduceOp.SUM, sizes=sizes, group=group),)

    def lower(self, g, *xs, **attrs):
        raise _no_lowering(self.name)


class ReduceScatterVPrim(Op):
    name = "ReduceScatterV"

    def forward(self, x, *, op, sizes, group):
        c = _mpi.comm(group, "ops.ReduceScatterV")
        src = _flat(x, "ReduceScatterV")
        if src.shape[0] != sum(sizes):
            raise ValueError(
                f"For 'ReduceScatterV', input_split_sizes {list(sizes)} must sum to the input's "
                f"{src.shape[0]} elements"
            )
        out = np.empty(sizes[c.Get_rank()], src.dtype)
        c.Reduce_scatter(src, out, list(sizes), op=_mpi.mpi_op(op, "ops.ReduceScatterV"))
        return _empty_result(out, x.dtype)

    def backward(self, ctx, g, *, op, sizes, group):
        if op != ReduceOp.SUM:
            raise RuntimeError(
                f"ops.ReduceScatterV: the gradient is defined for ReduceOp.SUM only, but the op is {op!r}"
            )
        return (AllGatherVPrim.apply(g.reshape((-1,)), sizes=sizes, group=group),)

    def lower(self, g, *xs, **attrs):
        raise _no_lowering(self.name)


class AllGatherV(_Collective):
    r"""Gather 1-D tensors of uneven lengths from every rank of a group, concatenated in rank order.

    Args:
        group (str): the group. Default: the world group.

    Inputs:
        - **input_x** (Tensor) - 1-D, of ``output_split_sizes[rank]`` elements.
        - **output_split_sizes** (Union[tuple[int], list[int], Tensor]) - the element count of every rank.

    Outputs:
        Tensor of ``sum(output_split_sizes)`` elements (a 0-d tensor when that is 0). Its gradient is the
        ReduceScatterV-sum of the output's gradient.

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32))
        >>> print(ops.AllGatherV()(x, [4]))
        [0. 1. 2. 3.]
    """

    def __init__(self, group: str = WORLD) -> None:
        super().__init__(group)
        self.add_prim_attr("mean_flag", False)

    def __call__(self, x: Tensor, output_split_sizes: Any) -> Tensor:
        size = _mpi.comm(self.group, "ops.AllGatherV").Get_size()
        sizes = tuple(_counts(output_split_sizes, self.name, "output_split_sizes", size))
        return AllGatherVPrim.apply(_tensor(self.name, x), sizes=sizes, group=self.group)


class ReduceScatterV(_Collective):
    r"""Reduce 1-D tensors across a group, rank i keeping the i-th of uneven parts.

    Args:
        op (str): ``ReduceOp.SUM`` (default), ``MAX`` or ``MIN`` (``PROD`` is refused, as in MindSpore).
        group (str): the group. Default: the world group.

    Inputs:
        - **input_x** (Tensor) - 1-D, the same length on every rank.
        - **input_split_sizes** (Union[tuple[int], list[int], Tensor]) - the part of every rank; they sum to
          the input's length.

    Outputs:
        Tensor of ``input_split_sizes[rank]`` elements (a 0-d tensor when that is 0).

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32))
        >>> print(ops.ReduceScatterV()(x, [4]))
        [0. 1. 2. 3.]
    """

    def __init__(self, op: str = ReduceOp.SUM, group: str = WORLD) -> None:
        super().__init__(group)
        self.op = _check_op("ReduceScatterV", op)
        if op == ReduceOp.PROD:
            raise ValueError("For 'ReduceScatterV', the 'op' PROD is not supported; use SUM, MAX or MIN")
        self.attrs["op"] = op

    def __call__(self, x: Tensor, input_split_sizes: Any) -> Tensor:
        size = _mpi.comm(self.group, "ops.ReduceScatterV").Get_size()
        sizes = tuple(_counts(input_split_sizes, self.name, "input_split_sizes", size))
        return ReduceScatterVPrim.apply(_tensor(self.name, x), op=self.op, sizes=sizes, group=self.group)


# --- AlltoAllV / AlltoAllVC ---------------------------------------------------------------------------------
class AlltoAllVPrim(Op):
    name = "AlltoAllV"

    def forward(self, x, *, send, recv, group):
        c = _mpi.comm(group, "ops.AlltoAllV")
        src = _flat(x, "AlltoAllV")
        if src.shape[0] != sum(send):
            raise ValueError(
                f"For 'AlltoAllV', the send counts {list(send)} (in elements) must sum to the "
                f"input's {src.shape[0]} elements"
            )
        out = np.empty(sum(recv), src.dtype)
        c.Alltoallv([src, (list(send), _offsets(list(send)))], [out, (list(recv), _offsets(list(recv)))])
        return _empty_result(out, x.dtype)

    def backward(self, ctx, g, *, send, recv, group):
        return (AlltoAllVPrim.apply(g.reshape((-1,)), send=recv, recv=send, group=group),)

    def lower(self, g, *xs, **attrs):
        raise _no_lowering(self.name)


def _block_size(prim: str, block_size: Any) -> int:
    if not isinstance(block_size, int) or isinstance(block_size, bool) or block_size < 1:
        raise TypeError(f"For '{prim}', 'block_size' must be a positive int, but got {block_size!r}")
    return block_size


class AlltoAllV(_Collective):
    r"""All-to-all with uneven parts: rank i sends ``send_numel_list[j] * block_size`` elements of its 1-D
    input (in order) to rank j and receives ``recv_numel_list[j] * block_size`` from each rank j.

    Args:
        group (str): the group. Default: the world group.
        block_size (int): the unit of the counts, in elements. Default: 1.

    Inputs:
        - **input_x** (Tensor) - 1-D.
        - **send_numel_list** (Union[tuple[int], list[int], Tensor]) - the blocks sent to each rank.
        - **recv_numel_list** (Union[tuple[int], list[int], Tensor]) - the blocks received from each rank.

    Outputs:
        Tensor, the received parts concatenated in rank order (a 0-d tensor when nothing arrives).

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32))
        >>> print(ops.AlltoAllV()(x, [4], [4]))
        [0. 1. 2. 3.]
    """

    def __init__(self, group: str = WORLD, block_size: int = 1) -> None:
        super().__init__(WORLD if group is None else group)
        self.block_size = _block_size(self.name, block_size)
        self.attrs["block_size"] = block_size

    def __call__(self, x: Tensor, send_numel_list: Any, recv_numel_list: Any) -> Tensor:
        size = _mpi.comm(self.group, "ops.AlltoAllV").Get_size()
        send = tuple(
            n * self.block_size for n in _counts(send_numel_list, self.name, "send_numel_list", size)
        )
        recv = tuple(
            n * self.block_size for n in _counts(recv_numel_list, self.name, "recv_numel_list", size)
        )
        return AlltoAllVPrim.apply(_tensor(self.name, x), send=send, recv=recv, group=self.group)


class AlltoAllVC(_Collective):
    r"""All-to-all with uneven parts given for every pair at once: ``send_count_matrix[i][j]`` (or its flat
    ``[i * rank_size + j]``) elements, times ``block_size``, go from rank i to rank j. ``transpose=True``
    reads the matrix transposed (the gradient's exchange).

    Args:
        group (str): the group. Default: the world group.
        block_size (int): the unit of the counts, in elements. Default: 1.
        transpose (bool): read ``send_count_matrix`` transposed. Default: False.

    Inputs:
        - **input_x** (Tensor) - 1-D.
        - **send_count_matrix** (Union[list[int], Tensor]) - rank_size x rank_size counts (nested or flat).

    Outputs:
        Tensor, the received parts concatenated in rank order (a 0-d tensor when nothing arrives).

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32))
        >>> print(ops.AlltoAllVC()(x, [4]))
        [0. 1. 2. 3.]
    """

    def __init__(self, group: str = WORLD, block_size: int = 1, transpose: bool = False) -> None:
        super().__init__(WORLD if group is None else group)
        self.block_size = _block_size(self.name, block_size)
        if not isinstance(transpose, bool):
            raise TypeError(f"For 'AlltoAllVC', 'transpose' must be a bool, but got {transpose!r}")
        self.transpose = transpose
        self.attrs.update(block_size=block_size, transpose=transpose)

    def __call__(self, x: Tensor, send_count_matrix: Any) -> Tensor:
        c = _mpi.comm(self.group, "ops.AlltoAllVC")
        size, rank = c.Get_size(), c.Get_rank()
        m = (
            send_count_matrix._data
            if isinstance(send_count_matrix, Tensor)
            else np.asarray(send_count_matrix)
        )
        if m.size != size * size or not np.issubdtype(m.dtype, np.integer) or (m < 0).any():
            raise ValueError(
                f"For 'AlltoAllVC', 'send_count_matrix' must hold {size} x {size} non-negative int "
                f"counts, but got shape {m.shape} of {m.dtype}"
            )
        m = m.reshape(size, size).T if self.transpose else m.reshape(size, size)
        send = tuple(int(n) * self.block_size for n in m[rank])
        recv = tuple(int(n) * self.block_size for n in m[:, rank])
        return AlltoAllVPrim.apply(_tensor(self.name, x), send=send, recv=recv, group=self.group)


class _AllSwap(_Collective):
    r"""All-to-all of the rows of a 2-D tensor: this rank's rows are split in order into ``send_size[j]``
    rows for rank j, and the rows received (``recv_size[j]`` from rank j) are concatenated in rank order. Its
    gradient is the swap back (sizes exchanged), as MindSpore's.

    Args:
        group (str): the group. Default: the world group.

    Inputs:
        - **tensor_in** (Tensor) - 2-D.
        - **send_size** (Tensor) - 1-D int64, the rows sent to each rank.
        - **recv_size** (Tensor) - 1-D int64, the rows received from each rank.

    Outputs:
        Tensor of shape (sum(recv_size), tensor_in.shape[1]).
    """

    def __init__(self, group: str = WORLD) -> None:
        if not isinstance(group, str):
            raise TypeError(f"For '_AllSwap', the 'group' must be a str, but got {type(group).__name__}.")
        super().__init__(group)

    def __call__(self, tensor_in: Tensor, send_size: Tensor, recv_size: Tensor) -> Tensor:
        from cellonnx.ops.prims.shape import reshape
        x = _tensor(self.name, tensor_in)
        if len(x.shape) != 2:
            raise ValueError(f"For '_AllSwap', 'tensor_in' must be 2-D, but got shape {tuple(x.shape)}.")
        for what, t in (("send_size", send_size), ("recv_size", recv_size)):
            if not isinstance(t, Tensor) or t._data.dtype != np.int64 or t._data.ndim != 1:
                raise TypeError(f"For '_AllSwap', '{what}' must be a 1-D int64 Tensor, but got "
                                f"{getattr(t, 'dtype', type(t).__name__)} of shape "
                                f"{getattr(t, 'shape', None)}.")
        size = _mpi.comm(self.group, "ops._AllSwap").Get_size()
        cols = int(x.shape[1])
        send = tuple(n * cols for n in _counts(send_size, self.name, "send_size", size))
        recv = tuple(n * cols for n in _counts(recv_size, self.name, "recv_size", size))
        if sum(send) != x._data.size:
            raise ValueError(f"For '_AllSwap', send_size {_counts(send_size, self.name, 'send_size', size)} "
                             "must sum to "
                             f"tensor_in's {int(x.shape[0])} rows.")
        out = AlltoAllVPrim.apply(reshape(x, (-1,)), send=send, recv=recv, group=self.group)
        if sum(recv) == 0:  # AlltoAllV gives a 0-d placeholder when nothing arrives
            return Tensor(np.zeros((0, cols), x._data.dtype))
        return reshape(out, (sum(recv) // cols, cols))
