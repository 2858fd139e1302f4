"""Point-to-point messages as operator classes: ``Send`` / ``Receive`` (matched by their tag) and
``BatchISendIRecv`` (a batch of sends and receives started together). Not differentiable, no ONNX form.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.communication import _mpi
from cellonnx.ops.prims.comm import (
    WORLD,
    _check_group,
    _Collective,
    _tensor,
)
from cellonnx.tensor import Tensor

__all__ = ["BatchISendIRecv", "Receive", "Send"]

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

    Examples:
        >>> # send_recv.py, run as `mpirun -n 2 python send_recv.py` (mpirun() here does that):
        >>> script = '''
        ... import numpy as np
        ... import cellonnx as ms
        ... from cellonnx import Tensor, ops
        ... from cellonnx.communication import init, get_rank
        ... init()
        ... if get_rank() == 0:
        ...     ops.Send(sr_tag=0, dest_rank=1)(Tensor(np.array([1.0, 2.0, 3.0]), ms.float32))
        ... else:
        ...     print(ops.Receive(sr_tag=0, src_rank=0, shape=[3], dtype=ms.float32)())
        ... '''
        >>> mpirun(script, n=2)
        [1. 2. 3.]
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

    Examples:
        >>> # send_recv.py, run as `mpirun -n 2 python send_recv.py` (mpirun() here does that):
        >>> script = '''
        ... import numpy as np
        ... import cellonnx as ms
        ... from cellonnx import Tensor, ops
        ... from cellonnx.communication import init, get_rank
        ... init()
        ... if get_rank() == 0:
        ...     ops.Send(sr_tag=0, dest_rank=1)(Tensor(np.array([1.0, 2.0, 3.0]), ms.float32))
        ... else:
        ...     print(ops.Receive(sr_tag=0, src_rank=0, shape=[3], dtype=ms.float32)())
        ... '''
        >>> mpirun(script, n=2)
        [1. 2. 3.]
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

    Examples:
        >>> from cellonnx.communication import init
        >>> init()
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32))
        >>> send_recv = ops.BatchISendIRecv(('isend', 'irecv'), (0, 0), ([4],), (ms.float32,))
        >>> print(send_recv((x,))[1])  # rank 0 sends to itself and receives
        [0. 1. 2. 3.]
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
        _mpi.exchange(c, sends, recvs)
        return tuple(Tensor._make(o if isinstance(o, np.ndarray) else _mpi.from_wire(*o)) for o in outs)
