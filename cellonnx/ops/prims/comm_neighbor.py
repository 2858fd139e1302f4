"""Exchanges between chosen peers, as ops with gradients: ``NeighborExchange`` (tensors sent to listed
ranks while others are received; the gradient is the exchange back) and ``NeighborExchangeV2`` (the halo
exchange of NCHW tiles in eight directions; each halo's gradient returns to its sender). No ONNX form.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.communication import _mpi
from cellonnx.ops.prims.comm import (
    WORLD,
    _Collective,
    _no_lowering,
    _tensor,
)
from cellonnx.ops.prims.comm_v import _offsets
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

__all__ = ["NeighborExchange", "NeighborExchangeV2"]

# --- NeighborExchange ---------------------------------------------------------------------------------------
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
        _mpi.exchange(c, sends, recvs)
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

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> print(ops.NeighborExchange([], [], (), (), ms.float32)(()))  # no neighbours
        ()
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
        _mpi.exchange(c, sends, [(peer, buf, tag) for peer, buf, tag, _, _ in bufs])
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
        _mpi.exchange(c, sends, [(peer, buf, tag) for peer, buf, tag, _, _ in recvs])
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

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.ones((1, 1, 2, 2), np.float32))
        >>> halo = ops.NeighborExchangeV2([-1] * 8, [0, 0, 0, 0], [-1] * 8, [0, 0, 0, 0], 'NCHW')
        >>> print(halo(x))  # no neighbours: the input unchanged
        [[[[1. 1.]
           [1. 1.]]]]
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
