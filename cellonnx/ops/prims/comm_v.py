"""Collectives over uneven parts and between chosen peers, as ops with gradients: ``AllGatherV`` /
``ReduceScatterV`` (1-D inputs split unevenly across ranks; each is the other's gradient), ``AlltoAllV`` /
``AlltoAllVC`` (uneven all-to-all; the gradient is the all-to-all back), ``NeighborExchange`` (tensors
sent to listed ranks while others are received), ``NeighborExchangeV2`` (the halo exchange of NCHW tiles in
eight directions), ``Send`` / ``Receive`` and ``BatchISendIRecv``.

Like the collectives of comm.py they call MPI in the forward pass and have no ONNX form.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.communication import _mpi
from cellonnx.ops.prims.comm import (
    WORLD,
    ReduceOp,
    _check_group,
    _check_op,
    _Collective,
    _no_lowering,
    _tensor,
)
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

__all__ = [
    "AllGatherV",
    "AlltoAllV",
    "AlltoAllVC",
    "BatchISendIRecv",
    "NeighborExchange",
    "NeighborExchangeV2",
    "Receive",
    "ReduceScatterV",
    "Send",
]


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


# --- NeighborExchange ---------------------------------------------------------------------------------------
def _exchange(
    c: Any, sends: list[tuple[int, np.ndarray, int]], recvs: list[tuple[int, np.ndarray, int]]
) -> None:
    """Post every receive and send (peer, buffer, tag) at once and wait for them all."""
    reqs = [c.Irecv(buf, source=peer, tag=tag) for peer, buf, tag in recvs]
    reqs += [c.Isend(buf, dest=peer, tag=tag) for peer, buf, tag in sends]
    _mpi.STATE.mpi.Request.Waitall(reqs)


class NeighborExchangePrim(Op):
    """The sends flattened into one 1-D input and the receives into one 1-D output (``send_sizes`` /
    ``recv_sizes`` elements for each peer, in order): one tensor in and out, whatever the number of peers."""

    name = "NeighborExchange"

    def forward(self, x, *, send_ranks, send_sizes, recv_ranks, recv_sizes, group):
        c = _mpi.comm(group, "ops.NeighborExchange")
        src = _mpi.to_wire(x)
        sends = [
            (r, src[o : o + n], 0) for r, o, n in zip(send_ranks, _offsets(list(send_sizes)), send_sizes)
        ]
        out = np.empty(sum(recv_sizes), src.dtype)
        recvs = [
            (r, out[o : o + n], 0) for r, o, n in zip(recv_ranks, _offsets(list(recv_sizes)), recv_sizes)
        ]
        _exchange(c, sends, recvs)
        return _mpi.from_wire(out, x.dtype)

    def backward(self, ctx, g, *, send_ranks, send_sizes, recv_ranks, recv_sizes, group):
        return (
            NeighborExchangePrim.apply(
                g,
                send_ranks=recv_ranks,
                send_sizes=recv_sizes,
                recv_ranks=send_ranks,
                recv_sizes=send_sizes,
                group=group,
            ),
        )

    def lower(self, g, *xs, **attrs):
        raise _no_lowering(self.name)


def _int_list(prim: str, name: str, value: Any) -> list[int]:
    if not isinstance(value, (list, tuple)) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise TypeError(f"For '{prim}', '{name}' must be a list of ints, but got {value!r}")
    return list(value)


class NeighborExchange(_Collective):
    r"""Send the i-th input tensor to ``send_rank_ids[i]`` while receiving one tensor of ``recv_shapes[j]``
    from each ``recv_rank_ids[j]``. The gradient is the exchange back.

    Args:
        send_rank_ids (list[int]): the ranks (of the group) the inputs go to, in order.
        recv_rank_ids (list[int]): the ranks the outputs come from, in order.
        recv_shapes (tuple[list[int]]): the shape of each received tensor.
        send_shapes (tuple[list[int]]): the shape of each input.
        recv_type (mindspore.dtype): the dtype of the received tensors.
        group (str): the group. Default: the world group.

    Inputs:
        - **input_x** (tuple[Tensor]) - shaped as ``send_shapes``.

    Outputs:
        tuple[Tensor], shaped as ``recv_shapes``.
    """

    def __init__(
        self,
        send_rank_ids: list,
        recv_rank_ids: list,
        recv_shapes: Any,
        send_shapes: Any,
        recv_type: Any,
        group: str = WORLD,
    ) -> None:
        super().__init__(group)
        self.send_rank_ids = _int_list(self.name, "send_rank_ids", send_rank_ids)
        self.recv_rank_ids = _int_list(self.name, "recv_rank_ids", recv_rank_ids)
        self.recv_shapes = tuple(tuple(_int_list(self.name, "recv_shapes", list(s))) for s in recv_shapes)
        self.send_shapes = tuple(tuple(_int_list(self.name, "send_shapes", list(s))) for s in send_shapes)
        if len(self.recv_shapes) != len(self.recv_rank_ids) or len(self.send_shapes) != len(
            self.send_rank_ids
        ):
            raise ValueError(
                f"For 'NeighborExchange', there must be one shape per rank: send_rank_ids "
                f"{self.send_rank_ids} with send_shapes {self.send_shapes}, recv_rank_ids "
                f"{self.recv_rank_ids} with recv_shapes {self.recv_shapes}"
            )
        self.recv_type = recv_type
        self.attrs.update(
            send_rank_ids=self.send_rank_ids,
            recv_rank_ids=self.recv_rank_ids,
            recv_shapes=self.recv_shapes,
            send_shapes=self.send_shapes,
            recv_type=recv_type,
        )

    def __call__(self, x: Any) -> tuple:
        xs = tuple(x) if isinstance(x, (tuple, list)) else None
        if xs is None or len(xs) != len(self.send_rank_ids):
            raise TypeError(
                f"For 'NeighborExchange', the input must be a tuple of {len(self.send_rank_ids)} "
                f"Tensors (one per send rank), but got {x!r:.80}"
            )
        for t, shape in zip(xs, self.send_shapes):
            if tuple(_tensor(self.name, t).shape) != shape:
                raise ValueError(
                    f"For 'NeighborExchange', an input of shape {tuple(t.shape)} does not match "
                    f"its send_shapes entry {shape}"
                )
        from cellonnx import ops
        from cellonnx.dtypes import to_numpy

        dtype = to_numpy(self.recv_type)
        flat = (
            ops.concat([ops.cast(t, dtype).reshape((-1,)) for t in xs])
            if xs
            else Tensor._make(np.zeros(0, dtype))
        )
        out = NeighborExchangePrim.apply(
            flat,
            send_ranks=tuple(self.send_rank_ids),
            send_sizes=tuple(int(np.prod(s, dtype=np.int64)) for s in self.send_shapes),
            recv_ranks=tuple(self.recv_rank_ids),
            recv_sizes=tuple(int(np.prod(s, dtype=np.int64)) for s in self.recv_shapes),
            group=self.group,
        )
        pieces, start = [], 0
        for shape in self.recv_shapes:
            n = int(np.prod(shape, dtype=np.int64))
            pieces.append(out[start : start + n].reshape(shape))
            start += n
        return tuple(pieces)


# --- NeighborExchangeV2: halos of NCHW tiles --------------------------------------------------------------
# the eight directions, MindSpore's order; the opposite of direction d is (d + 4) % 8
_DIRECTIONS = ("top", "top_right", "right", "bottom_right", "bottom", "bottom_left", "left", "top_left")


def _edges(d: int, lens: tuple[int, int, int, int], h: int, w: int, outer: bool) -> tuple[slice, slice]:
    """The (rows, cols) of direction ``d``: inside an (h, w) tile its border strip of ``lens`` = (top,
    bottom, left, right) sizes (``outer`` False), or in the output framed by those sizes its halo (True)."""
    top, bottom, left, right = lens
    name = _DIRECTIONS[d]
    if outer:
        rows = {"top": slice(0, top), "bottom": slice(top + h, top + h + bottom)}
        cols = {"left": slice(0, left), "right": slice(left + w, left + w + right)}
        mid_r, mid_c = slice(top, top + h), slice(left, left + w)
    else:
        rows = {"top": slice(0, top), "bottom": slice(h - bottom, h)}
        cols = {"left": slice(0, left), "right": slice(w - right, w)}
        mid_r, mid_c = slice(0, h), slice(0, w)
    r = next((rows[k] for k in rows if name.startswith(k)), mid_r)
    c = next((cols[k] for k in cols if name.endswith(k)), mid_c)
    return r, c


class _HaloExchange(Op, register=False):
    """Shared by the exchange and its gradient: which strips go where."""

    def plan(self, x: np.ndarray, send_ranks, send_lens, recv_ranks, recv_lens) -> tuple[list, list]:
        h, w = x.shape[2], x.shape[3]
        sends, recvs = [], []
        for d in range(8):
            if send_ranks[d] != -1:
                rows, cols = _edges(d, send_lens, h, w, outer=False)
                sends.append((send_ranks[d], _mpi.to_wire(np.ascontiguousarray(x[:, :, rows, cols])), d))
        for d in range(8):
            if recv_ranks[d] != -1:
                rows, cols = _edges(d, recv_lens, h, w, outer=True)
                recvs.append((recv_ranks[d], d, rows, cols))
        return sends, recvs

    def lower(self, g, *xs, **attrs):
        raise _no_lowering(self.name)


class NeighborExchangeV2Prim(_HaloExchange):
    name = "NeighborExchangeV2"

    def forward(self, x, *, send_ranks, send_lens, recv_ranks, recv_lens, group):
        c = _mpi.comm(group, "ops.NeighborExchangeV2")
        n, ch, h, w = x.shape
        top, bottom, left, right = recv_lens
        out = np.zeros((n, ch, top + h + bottom, left + w + right), _mpi.to_wire(x[:0]).dtype)
        out[:, :, top : top + h, left : left + w] = x
        sends, recvs = self.plan(x, send_ranks, send_lens, recv_ranks, recv_lens)
        bufs = [
            (peer, np.empty(out[:, :, rows, cols].shape, out.dtype), (d + 4) % 8, rows, cols)
            for peer, d, rows, cols in recvs
        ]
        _exchange(c, sends, [(peer, buf, tag) for peer, buf, tag, _, _ in bufs])
        for _, buf, _, rows, cols in bufs:
            out[:, :, rows, cols] = buf
        return _mpi.from_wire(out, x.dtype)

    def backward(self, ctx, g, *, send_ranks, send_lens, recv_ranks, recv_lens, group):
        return (
            NeighborExchangeV2GradPrim.apply(
                g,
                send_ranks=send_ranks,
                send_lens=send_lens,
                recv_ranks=recv_ranks,
                recv_lens=recv_lens,
                group=group,
            ),
        )


class NeighborExchangeV2GradPrim(_HaloExchange):
    """The gradient of the halo exchange: each received halo's gradient goes back to the rank it came from,
    where it adds onto the border strip that was sent."""

    name = "NeighborExchangeV2Grad"

    def forward(self, g, *, send_ranks, send_lens, recv_ranks, recv_lens, group):
        c = _mpi.comm(group, "ops.NeighborExchangeV2")
        top, bottom, left, right = recv_lens
        h, w = g.shape[2] - top - bottom, g.shape[3] - left - right
        gw = _mpi.to_wire(g)
        dx = np.array(gw[:, :, top : top + h, left : left + w])
        sends = []
        for d in range(8):
            if recv_ranks[d] != -1:
                rows, cols = _edges(d, recv_lens, h, w, outer=True)
                sends.append((recv_ranks[d], np.ascontiguousarray(gw[:, :, rows, cols]), 100 + d))
        recvs = []
        for d in range(8):
            if send_ranks[d] != -1:
                rows, cols = _edges(d, send_lens, h, w, outer=False)
                recvs.append(
                    (
                        send_ranks[d],
                        np.empty(dx[:, :, rows, cols].shape, dx.dtype),
                        100 + (d + 4) % 8,
                        rows,
                        cols,
                    )
                )
        _exchange(c, sends, [(peer, buf, tag) for peer, buf, tag, _, _ in recvs])
        for _, buf, _, rows, cols in recvs:
            dx[:, :, rows, cols] += buf
        return _mpi.from_wire(dx, g.dtype)

    def backward(self, ctx, gg, *, send_ranks, send_lens, recv_ranks, recv_lens, group):
        return (
            NeighborExchangeV2Prim.apply(
                gg,
                send_ranks=send_ranks,
                send_lens=send_lens,
                recv_ranks=recv_ranks,
                recv_lens=recv_lens,
                group=group,
            ),
        )


class NeighborExchangeV2(_Collective):
    r"""The halo exchange of tiled NCHW data: for each of eight directions (top, top_right, right,
    bottom_right, bottom, bottom_left, left, top_left) this rank sends a border strip of its tile to
    ``send_rank_ids[d]`` and frames its tile with the strip received from ``recv_rank_ids[d]`` (-1: none;
    unreceived halo stays zero). The gradient returns each halo's gradient to its sender, added onto the
    strip it sent.

    Args:
        send_rank_ids (list[int]): 8 ranks, -1 for no send.
        send_lens (list[int]): the strip sizes sent, [top, bottom, left, right].
        recv_rank_ids (list[int]): 8 ranks, -1 for no receive.
        recv_lens (list[int]): the halo sizes received, [top, bottom, left, right].
        data_format (str): "NCHW" only.
        group (str): the group. Default: the world group.

    Inputs:
        - **input_x** (Tensor) - :math:`(N, C, H, W)`.

    Outputs:
        Tensor of shape :math:`(N, C, H + recv\_top + recv\_bottom, W + recv\_left + recv\_right)`.
    """

    def __init__(
        self,
        send_rank_ids: list,
        send_lens: list,
        recv_rank_ids: list,
        recv_lens: list,
        data_format: str,
        group: str = WORLD,
    ) -> None:
        super().__init__(group)
        lists = {
            "send_rank_ids": send_rank_ids,
            "send_lens": send_lens,
            "recv_rank_ids": recv_rank_ids,
            "recv_lens": recv_lens,
        }
        for key, value in lists.items():
            lists[key] = _int_list(self.name, key, value)
            want = 8 if key.endswith("ids") else 4
            if len(lists[key]) != want:
                raise ValueError(
                    f"For 'NeighborExchangeV2', '{key}' must have {want} entries, but got {value}"
                )
        for key in ("send_rank_ids", "recv_rank_ids"):
            ids = [r for r in lists[key] if r != -1]
            if min(lists[key]) < -1 or len(ids) != len(set(ids)):
                raise ValueError(
                    f"For 'NeighborExchangeV2', '{key}' must hold ranks >= -1 without repeats "
                    f"(-1 excepted), but got {lists[key]}"
                )
        for key in ("send_lens", "recv_lens"):
            if min(lists[key]) < 0:
                raise ValueError(f"For 'NeighborExchangeV2', '{key}' must be >= 0, but got {lists[key]}")
        if data_format != "NCHW":
            raise ValueError(
                f"For 'NeighborExchangeV2', 'data_format' must be 'NCHW', but got {data_format!r}"
            )
        self.send_rank_ids, self.send_lens = lists["send_rank_ids"], lists["send_lens"]
        self.recv_rank_ids, self.recv_lens = lists["recv_rank_ids"], lists["recv_lens"]
        self.data_format = data_format
        self.attrs.update(lists, data_format=data_format)

    def __call__(self, x: Tensor) -> Tensor:
        x = _tensor(self.name, x)
        if x.ndim != 4:
            raise ValueError(f"For 'NeighborExchangeV2', the input must be 4-D NCHW, but got shape {x.shape}")
        _, _, h, w = x.shape
        top, bottom, left, right = self.send_lens
        if top + bottom > h or left + right > w:
            raise ValueError(
                f"For 'NeighborExchangeV2', send_lens {self.send_lens} exceed the tile ({h} x {w})"
            )
        return NeighborExchangeV2Prim.apply(
            x,
            send_ranks=tuple(self.send_rank_ids),
            send_lens=tuple(self.send_lens),
            recv_ranks=tuple(self.recv_rank_ids),
            recv_lens=tuple(self.recv_lens),
            group=self.group,
        )


# --- point to point ---------------------------------------------------------------------------------
class Send(_Collective):
    r"""Send a tensor to ``dest_rank`` (a rank of the group), matched by the :class:`Receive` with the same
    ``sr_tag`` there. Returns the input (MindSpore uses it through ``ops.Depend``).

    Args:
        sr_tag (int): the message tag.
        dest_rank (int): the receiving rank of the group.
        group (str): the group. Default: the world group.
        group_back (str): the group of the backward message (MindSpore's pipeline parallel). Default: the
            world group.
    """

    def __init__(self, sr_tag: int, dest_rank: int, group: str = WORLD, group_back: str = WORLD) -> None:
        super().__init__(group)
        self.sr_tag, self.rank, self.group_back = sr_tag, dest_rank, _check_group(self.name, group_back)
        self.attrs.update(sr_tag=sr_tag, dest_rank=dest_rank, group_back=group_back)

    def __call__(self, x: Tensor) -> Tensor:
        x = _tensor(self.name, x)
        _mpi.comm(self.group, "ops.Send").Send(_mpi.to_wire(x._data), dest=self.rank, tag=self.sr_tag)
        return x


class Receive(_Collective):
    r"""Receive the tensor that :class:`Send` with the same ``sr_tag`` sends from ``src_rank``.

    Args:
        sr_tag (int): the message tag.
        src_rank (int): the sending rank of the group.
        shape (list[int]): the shape of the tensor received.
        dtype (mindspore.dtype): its dtype.
        group (str): the group. Default: the world group.
        group_back (str): the group of the backward message. Default: the world group.

    Outputs:
        Tensor of ``shape`` and ``dtype``.
    """

    def __init__(
        self, sr_tag: int, src_rank: int, shape: list, dtype: Any, group: str = WORLD, group_back: str = WORLD
    ) -> None:
        super().__init__(group)
        if not isinstance(src_rank, int) or isinstance(src_rank, bool):
            raise TypeError(f"For 'Receive', 'src_rank' must be an int, but got {type(src_rank).__name__}")
        from cellonnx.dtypes import to_numpy

        self.sr_tag, self.rank, self.shape, self.dtype = sr_tag, src_rank, tuple(shape), dtype
        self.group_back = _check_group(self.name, group_back)
        self._np_dtype = np.dtype(to_numpy(dtype))
        self.attrs.update(
            sr_tag=sr_tag, src_rank=src_rank, shape=list(shape), dtype=dtype, group_back=group_back
        )

    def __call__(self) -> Tensor:
        buf = np.empty(self.shape, _mpi.to_wire(np.empty(0, self._np_dtype)).dtype)
        _mpi.comm(self.group, "ops.Receive").Recv(buf, source=self.rank, tag=self.sr_tag)
        return Tensor._make(_mpi.from_wire(buf, self._np_dtype))


class BatchISendIRecv(_Collective):
    r"""Start a batch of sends and receives together and wait for them all.

    Args:
        op_types (Union[tuple[str], list[str]]): "isend" or "irecv", in order.
        remote_ranks (Union[tuple[int], list[int]]): the peer of each.
        receive_shapes (Union[tuple, list]): the shape of each "irecv", in order.
        receive_dtypes (Union[tuple, list]): the dtype of each "irecv", in order.
        group (str): the group. Default: the world group.

    Inputs:
        - **input_x** (Union[tuple[Tensor], list[Tensor]]) - the tensors of the "isend" entries, in order.

    Outputs:
        tuple[Tensor]: at an "isend" position a 0-d zero (no meaning), at an "irecv" position the tensor
        received.
    """

    def __init__(
        self,
        op_types: Any,
        remote_ranks: Any,
        receive_shapes: Any = None,
        receive_dtypes: Any = None,
        group: str = WORLD,
    ) -> None:
        super().__init__(WORLD if group is None else group)
        receive_shapes = () if receive_shapes is None else receive_shapes
        receive_dtypes = () if receive_dtypes is None else receive_dtypes
        for key, value in (
            ("op_types", op_types),
            ("remote_ranks", remote_ranks),
            ("receive_shapes", receive_shapes),
            ("receive_dtypes", receive_dtypes),
        ):
            if not isinstance(value, (tuple, list)):
                raise TypeError(
                    f"For 'BatchISendIRecv', '{key}' must be a tuple or list, but got {type(value).__name__}"
                )
        if len(receive_shapes) != len(receive_dtypes):
            raise ValueError(
                "For 'BatchISendIRecv', receive_shapes and receive_dtypes must have the same length, "
                f"but got {len(receive_shapes)} and {len(receive_dtypes)}"
            )
        if len(op_types) != len(remote_ranks):
            raise ValueError("For 'BatchISendIRecv', op_types and remote_ranks must have the same length")
        if any(t not in ("isend", "irecv") for t in op_types):
            raise ValueError(
                f"For 'BatchISendIRecv', op_types must be 'isend' or 'irecv', but got {op_types}"
            )
        if sum(t == "irecv" for t in op_types) != len(receive_shapes):
            raise ValueError("For 'BatchISendIRecv', there must be one receive shape and dtype per 'irecv'")
        self.op_types, self.remote_ranks = tuple(op_types), tuple(remote_ranks)
        self.receive_shapes, self.receive_dtypes = tuple(receive_shapes), tuple(receive_dtypes)
        self.attrs.update(
            op_types=op_types,
            remote_ranks=remote_ranks,
            receive_shapes=receive_shapes,
            receive_dtypes=receive_dtypes,
        )

    def __call__(self, x: Any) -> tuple:
        from cellonnx.dtypes import to_numpy

        xs = list(x) if isinstance(x, (tuple, list)) else [x]
        xs = [t for t in xs if t is not None]
        if len(xs) != self.op_types.count("isend"):
            raise RuntimeError(
                f"For 'BatchISendIRecv', {self.op_types.count('isend')} 'isend' entries need as "
                f"many input tensors, but got {len(xs)}"
            )
        c = _mpi.comm(self.group, "ops.BatchISendIRecv")
        sends, recvs, outs = [], [], []
        sent, received = iter(xs), iter(zip(self.receive_shapes, self.receive_dtypes))
        for op, peer in zip(self.op_types, self.remote_ranks):
            if op == "isend":
                t = _tensor(self.name, next(sent))
                sends.append((peer, _mpi.to_wire(t._data), 0))
                outs.append(np.zeros((), t._data.dtype))
            else:
                shape, dtype = next(received)
                np_dtype = np.dtype(to_numpy(dtype))
                buf = np.empty(tuple(shape), _mpi.to_wire(np.empty(0, np_dtype)).dtype)
                recvs.append((peer, buf, 0))
                outs.append((buf, np_dtype))
        _exchange(c, sends, recvs)
        return tuple(Tensor._make(o if isinstance(o, np.ndarray) else _mpi.from_wire(*o)) for o in outs)
