"""MindSpore 2.10's ``mindspore.ops`` communication functions (``ops.all_reduce``, ``ops.broadcast``,
``ops.init_process_group`` ...): the process-group API, whose collectives write their result into the
tensors given (in place, as MindSpore's default ``set_comm_ops_inplace(True)``) and return a handle (None
unless ``async_op=True``). Differentiable collectives that return new tensors are the operator classes
(``ops.AllReduce`` ...) and ``cellonnx.communication.comm_func``.
"""
from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from cellonnx.communication import _mpi
from cellonnx.communication import comm_func as _cf
from cellonnx.communication import management as _mg
from cellonnx.tensor import Parameter, Tensor

__all__ = ["P2POp", "all_to_all", "all_to_all_single", "batch_isend_irecv", "recv_object_list",
           "send_object_list"]
__all__ += ["all_gather_into_tensor_uneven", "reduce_scatter_tensor_uneven"]
__all__ += ["all_to_all_v_c"]
__all__ += ["all_gather", "all_gather_into_tensor", "all_gather_object", "all_reduce", "barrier", "broadcast",
           "broadcast_object_list", "destroy_process_group", "gather_into_tensor", "gather_object",
           "get_backend", "get_global_rank", "get_group_rank", "get_process_group_ranks", "get_rank",
           "get_world_size", "init_process_group", "irecv", "is_available", "is_initialized", "isend",
           "new_group", "recv", "reduce", "reduce_scatter", "reduce_scatter_tensor", "scatter_object_list",
           "scatter_tensor", "send", "set_comm_ops_inplace"]

_INPLACE = {name: True for name in ("all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor", "reduce",
                                    "broadcast", "gather_into_tensor", "scatter_tensor", "all_gather",
                                    "reduce_scatter", "recv", "all_to_all", "all_to_all_single")}


def _write(dst: Tensor, value: np.ndarray, name: str) -> None:
    if tuple(dst.shape) != tuple(value.shape):
        raise ValueError(f"For {name}, the output tensor's shape must be {tuple(value.shape)}, but got "
                         f"{tuple(dst.shape)}")
    value = value.astype(dst._data.dtype, copy=False)
    if isinstance(dst, Parameter):
        dst.set_data(Tensor._make(value))
    else:
        dst._data = value


def _handle(async_op: bool) -> Any:
    return _cf.CommHandle() if async_op else None


def _inplace_only(name: str) -> None:
    if not _INPLACE[name]:
        raise ValueError(f"For {name}, non-inplace mode is not supported here; the functions of "
                         "cellonnx.communication.comm_func return new tensors")


def set_comm_ops_inplace(is_enable: bool, func_list: list | None = None) -> None:
    """Choose whether the communication functions write in place (the default) or not.

    Raises:
        TypeError: ``is_enable`` is not a bool, or ``func_list`` not a list.
        ValueError: an unknown function name.

    Examples:
        >>> from cellonnx import ops
        >>> ops.set_comm_ops_inplace(True, ['all_reduce'])
    """
    if not isinstance(is_enable, bool):
        raise TypeError(f"For 'set_comm_ops_inplace', the argument 'is_enable' must be type of bool, but got "
                        f"'is_enable' type : {type(is_enable).__name__}.")
    names = list(_INPLACE) if func_list is None else func_list
    if not isinstance(names, (list, tuple)):
        raise TypeError(f"Expected list or tuple, but got {type(func_list).__name__}.")
    for name in names:
        if name not in _INPLACE:
            raise ValueError(f"The function name in `func_list` must be correct, but got {name}.")
        _INPLACE[name] = is_enable


def all_reduce(tensor: Tensor, op: str = "sum", group: str | None = None, async_op: bool = False) -> Any:
    """Reduce ``tensor`` across the group, in place (``op``: "sum", "prod", "min", "max", "avg").

    Returns:
        The handle (None unless ``async_op``); with in-place mode off, (Tensor, handle).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> ops.all_reduce(x)
        >>> print(x)
        [1. 2.]
    """
    avg = op == "avg"
    out, _ = _cf.all_reduce(tensor, "sum" if avg else op, _cf._group(group, "all_reduce"), async_op)
    if avg:
        out = out / _mg.get_group_size(_cf._group(group, "all_reduce"))
    if not _INPLACE["all_reduce"]:
        return out, _handle(async_op)
    _write(tensor, out._data, "all_reduce")
    return _handle(async_op)


def all_gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor, group: str | None = None,
                           async_op: bool = False) -> Any:
    """The inputs of all ranks, concatenated along the first axis, written into ``output_tensor``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops.all_gather_into_tensor(out, x)
        >>> print(out)
        [1. 2.]
    """
    out, _ = _cf.all_gather_into_tensor(input_tensor, _cf._group(group, "all_gather_into_tensor"), async_op)
    _write(output_tensor, out._data, "all_gather_into_tensor")
    return _handle(async_op)


def all_gather(tensor_list: list, tensor: Tensor, group: str | None = None, async_op: bool = False) -> Any:
    """The input of rank i written into ``tensor_list[i]``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> parts = [Tensor(np.zeros(2), ms.float32)]
        >>> ops.all_gather(parts, x)
        >>> print(parts[0])
        [1. 2.]
    """
    _inplace_only("all_gather")
    group = _cf._group(group, "all_gather")
    size = _mg.get_group_size(group)
    if not isinstance(tensor_list, (list, tuple)) or len(tensor_list) != size:
        raise TypeError(f"For all_gather, 'tensor_list' must be a list of {size} tensors (the group size)")
    out, _ = _cf.all_gather_into_tensor(tensor.reshape((1,) + tuple(tensor.shape)), group, async_op)
    for i, t in enumerate(tensor_list):
        _write(t, out._data[i], "all_gather")
    return _handle(async_op)


def reduce_scatter_tensor(output: Tensor, input: Tensor, op: str = "sum", group: str | None = None,
                          async_op: bool = False) -> Any:
    """Reduce ``input`` across the group; this rank's slice (along the first axis) is written into
    ``output``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops.reduce_scatter_tensor(out, x)
        >>> print(out)
        [1. 2.]
    """
    out, _ = _cf.reduce_scatter_tensor(input, op, _cf._group(group, "reduce_scatter_tensor"), async_op)
    _write(output, out._data, "reduce_scatter_tensor")
    return _handle(async_op)


def reduce_scatter(output: Tensor, input_list: list, op: str = "sum", group: str | None = None,
                   async_op: bool = False) -> Any:
    """Reduce ``input_list[i]`` across the group onto rank i's ``output``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops.reduce_scatter(out, [x])
        >>> print(out)
        [1. 2.]
    """
    _inplace_only("reduce_scatter")
    from cellonnx import ops

    stacked = ops.stack(list(input_list))
    out, _ = _cf.reduce_scatter_tensor(stacked, op, _cf._group(group, "reduce_scatter"), async_op)
    _write(output, out._data[0], "reduce_scatter")
    return _handle(async_op)


def reduce(tensor: Tensor, dst: int, op: str = "sum", group: str | None = None,
           async_op: bool = False) -> Any:
    """Reduce ``tensor`` onto world rank ``dst``, in place there.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> ops.reduce(x, dst=0, op='max')
        >>> print(x)
        [1. 2.]
    """
    out = _cf.reduce(tensor, dst, op, _cf._group(group, "reduce"))
    _write(tensor, out._data, "reduce")
    return _handle(async_op)


def broadcast(tensor: Tensor, src: int, group: str | None = None, async_op: bool = False) -> Any:
    """World rank ``src``'s ``tensor`` written into ``tensor`` on every rank.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> ops.broadcast(x, src=0)
        >>> print(x)
        [1. 2.]
    """
    out = _cf.broadcast(tensor, src, _cf._group(group, "broadcast"))
    _write(tensor, out._data, "broadcast")
    return _handle(async_op)


def barrier(group: str | None = None, async_op: bool = False, device_ids: Any = None) -> Any:
    """Wait until every rank of the group reaches this call.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> ops.barrier()
    """
    _cf.barrier(_cf._group(group, "barrier"))
    return _handle(async_op)


def gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor, dst: int = 0, group: str | None = None,
                       async_op: bool = False) -> Any:
    """The inputs of all ranks, concatenated, written into ``output_tensor`` on world rank ``dst``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops.gather_into_tensor(out, x, dst=0)
        >>> print(out)
        [1. 2.]
    """
    out = _cf.gather_into_tensor(input_tensor, dst, _cf._group(group, "gather_into_tensor"))
    if _mg.get_rank() == dst:
        _write(output_tensor, out._data, "gather_into_tensor")
    return _handle(async_op)


def scatter_tensor(output_tensor: Tensor, input_tensor: Tensor, src: int = 0, group: str | None = None,
                   async_op: bool = False) -> Any:
    """Rank i's slice of world rank ``src``'s ``input_tensor`` written into ``output_tensor``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops.scatter_tensor(out, x, src=0)
        >>> print(out)
        [1. 2.]
    """
    out = _cf.scatter_tensor(input_tensor, src, _cf._group(group, "scatter_tensor"))
    _write(output_tensor, out._data, "scatter_tensor")
    return _handle(async_op)


def send(tensor: Tensor, dst: int = 0, group: str | None = None, tag: int = 0) -> None:
    """Send ``tensor`` to world rank ``dst``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> handle = ops.irecv(out, src=0)
        >>> ops.send(x, dst=0)
        >>> handle.wait()
        >>> print(out)
        [1. 2.]
    """
    _cf.send(tensor, dst, _cf._group(group, "send"), tag)


def recv(tensor: Tensor, src: int = 0, group: str | None = None, tag: int = 0) -> int:
    """Receive from world rank ``src`` into ``tensor``; returns 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> handle = ops.isend(x, dst=0)
        >>> print(ops.recv(out, src=0))
        0
        >>> handle.wait()
        >>> print(out)
        [1. 2.]
    """
    out = _cf.recv(tensor, src, _cf._group(group, "recv"), tag)
    _write(tensor, out._data, "recv")
    return 0


def isend(tensor: Tensor, dst: int = 0, group: str | None = None, tag: int = 0) -> Any:
    """Start sending ``tensor`` to world rank ``dst``; returns the handle.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> handle = ops.isend(x, dst=0)
        >>> ops.recv(out, src=0)
        0
        >>> handle.wait()
        >>> print(out)
        [1. 2.]
    """
    return _cf.isend(tensor, dst, _cf._group(group, "isend"), tag)


def irecv(tensor: Tensor, src: int = 0, group: str | None = None, tag: int = 0) -> Any:
    """Start receiving into ``tensor`` from world rank ``src``; ``wait()`` on the handle fills it.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> handle = ops.irecv(out, src=0)
        >>> ops.send(x, dst=0)
        >>> handle.wait()
        >>> print(out)
        [1. 2.]
    """
    handle, out = _cf.irecv(tensor, src, _cf._group(group, "irecv"), tag)
    inner = handle._on_done

    def done() -> None:
        inner()
        _write(tensor, out._data, "irecv")

    handle._on_done = done
    return handle


# --- process groups -----------------------------------------------------------------------------------------
def is_available() -> bool:
    """Whether the distributed package can run here (mpi4py importable).

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.is_available())
        True
    """
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return False
    return True


def is_initialized() -> bool:
    """Whether the default process group has been started.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> print(ops.is_initialized())
        True
    """
    return _mpi.initialized() and _mg.GlobalComm.INITED


def init_process_group(backend: str = "hccl", init_method: Any = None, timeout: Any = None,
                       world_size: int = -1,
                       rank: int = -1, store: Any = None, group_name: str = "", pg_options: Any = None,
                       device_id: Any = None) -> None:
    """Start the default process group (MPI; the ranks and size come from ``mpirun``).

    Raises:
        ValueError: ``world_size`` / ``rank`` given and different from what ``mpirun`` started.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> print(ops.get_rank(), ops.get_world_size())
        0 1
    """
    _mg.init(None if backend in ("hccl", None) else backend)
    if world_size not in (-1, None) and world_size != _mg.get_group_size():
        raise ValueError(f"For 'init_process_group', world_size={world_size} but mpirun started "
                         f"{_mg.get_group_size()} ranks")
    if rank not in (-1, None) and rank != _mg.get_rank():
        raise ValueError(f"For 'init_process_group', rank={rank} but mpirun made this process rank "
                         f"{_mg.get_rank()}")


def destroy_process_group(group: str | None = None) -> None:
    """Free ``group``, or every group and the default one when ``group`` is None.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> ops.destroy_process_group()
        >>> print(ops.is_initialized())
        False
    """
    if group is None or group in _mpi.WORLD_NAMES:
        _mg.release()
    else:
        _mg.destroy_group(group)


def get_rank(group: str | None = None) -> int:
    """This process's rank in ``group``; -1 when the group has not been started.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> print(ops.get_rank())
        0
    """
    if not _mpi.initialized():
        return -1
    return _mg.get_rank(_cf._group(group, "get_rank"))


def get_world_size(group: str | None = None) -> int:
    """The number of ranks in ``group``; -1 when the group has not been started.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> print(ops.get_world_size())
        1
    """
    if not _mpi.initialized():
        return -1
    return _mg.get_group_size(_cf._group(group, "get_world_size"))


_group_counter = [0]


def new_group(ranks: list | None = None, timeout: Any = None, backend: Any = None, pg_options: Any = None,
              use_local_synchronization: bool = False, group_desc: str | None = None) -> str:
    """Make a group of the world ranks ``ranks`` (every rank when None); returns its name. Called by every
    rank (as MindSpore's), members or not.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> group = ops.new_group([0])
        >>> print(ops.get_world_size(group))
        1
    """
    _mpi.require("new_group")
    if ranks is None:
        return _mg.GlobalComm.WORLD_COMM_GROUP
    _group_counter[0] += 1
    name = group_desc or f"group_{_group_counter[0]}_" + "-".join(str(r) for r in sorted(ranks))
    _mg.create_group(name, sorted(ranks))
    return name


def get_backend(group: str | None = None) -> str:
    """The backend of ``group``: ``"mpi"``.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> print(ops.get_backend())
        mpi
    """
    _mpi.comm(_cf._group(group, "get_backend"), "get_backend")
    return "mpi"


def get_global_rank(group: str, group_rank: int) -> int:
    """The world rank of ``group_rank`` in ``group``.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> group = ops.new_group([0])
        >>> print(ops.get_global_rank(group, 0))
        0
    """
    return _mg.get_world_rank_from_group_rank(_cf._group(group, "get_global_rank"), group_rank)


def get_group_rank(group: str, global_rank: int) -> int:
    """The rank in ``group`` of world rank ``global_rank``.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> group = ops.new_group([0])
        >>> print(ops.get_group_rank(group, 0))
        0
    """
    return _mg.get_group_rank_from_world_rank(global_rank, _cf._group(group, "get_group_rank"))


def get_process_group_ranks(group: str | None = None) -> list[int]:
    """The world ranks of ``group``.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> print(ops.get_process_group_ranks())
        [0]
    """
    return _mg.get_process_group_ranks(_cf._group(group, "get_process_group_ranks"))


# --- Python objects (pickled) -----------------------------------------------------------------------------
def all_gather_object(object_list: list, obj: Any, group: str | None = None) -> None:
    """Every rank's ``obj`` written into ``object_list`` (a list of group-size entries).

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> objs = [None]
        >>> ops.all_gather_object(objs, {'rank': ops.get_rank()})
        >>> print(objs)
        [{'rank': 0}]
    """
    c = _mpi.comm(_cf._group(group, "all_gather_object"), "all_gather_object")
    gathered = c.allgather(pickle.dumps(obj))
    if len(object_list) != len(gathered):
        raise ValueError(f"For all_gather_object, 'object_list' must have {len(gathered)} entries (the group "
                         f"size), but got {len(object_list)}")
    object_list[:] = [pickle.loads(b) for b in gathered]


def broadcast_object_list(object_list: list, src: int = 0, group: str | None = None,
                          device: Any = None) -> None:
    """World rank ``src``'s ``object_list`` entries written into ``object_list`` on every rank.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> objs = ['weights.ckpt', 3]
        >>> ops.broadcast_object_list(objs, src=0)
        >>> print(objs)
        ['weights.ckpt', 3]
    """
    group = _cf._group(group, "broadcast_object_list")
    c = _mpi.comm(group, "broadcast_object_list")
    root = _cf._group_rank(src, group, "broadcast_object_list")
    object_list[:] = c.bcast(list(object_list) if c.Get_rank() == root else None, root=root)


def gather_object(obj: Any, object_gather_list: list | None = None, dst: int = 0,
                  group: str | None = None) -> None:
    """Every rank's ``obj`` written into ``object_gather_list`` on world rank ``dst``.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> objs = [None]
        >>> ops.gather_object('hello', objs, dst=0)
        >>> print(objs)
        ['hello']
    """
    group = _cf._group(group, "gather_object")
    c = _mpi.comm(group, "gather_object")
    got = c.gather(obj, root=_cf._group_rank(dst, group, "gather_object"))
    if got is not None and object_gather_list is not None:
        object_gather_list[:] = got


def scatter_object_list(scatter_object_output_list: list, scatter_object_input_list: list, src: int = 0,
                        group: str | None = None) -> None:
    """Entry i of world rank ``src``'s input list written into rank i's ``scatter_object_output_list[0]``.

    Examples:
        >>> from cellonnx import ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> out = [None]
        >>> ops.scatter_object_list(out, ['first'], src=0)
        >>> print(out)
        ['first']
    """
    group = _cf._group(group, "scatter_object_list")
    c = _mpi.comm(group, "scatter_object_list")
    root = _cf._group_rank(src, group, "scatter_object_list")
    item = c.scatter(list(scatter_object_input_list) if c.Get_rank() == root else None, root=root)
    scatter_object_output_list[:1] = [item]


def send_object_list(object_list: list, dst: int, group: str | None = None, device: Any = None) -> None:
    """Send the objects of ``object_list`` (pickled) to world rank ``dst``.

    Examples:
        >>> # objects.py, run as `mpirun -n 2 python objects.py` (mpirun() here does that):
        >>> script = '''
        ... from cellonnx import ops
        ... ops.init_process_group()
        ... if ops.get_rank() == 0:
        ...     ops.send_object_list([{'step': 3}, 'ready'], dst=1)
        ... else:
        ...     received = [None, None]
        ...     ops.recv_object_list(received, src=0)
        ...     print(received)
        ... '''
        >>> mpirun(script, n=2)
        [{'step': 3}, 'ready']
    """
    group = _cf._group(group, "send_object_list")
    _mpi.comm(group, "send_object_list").send(list(object_list),
                                              dest=_cf._group_rank(dst, group, "send_object_list"))


def recv_object_list(object_list: list, src: int = 0, group: str | None = None, device: Any = None) -> None:
    """Receive from world rank ``src`` the objects of its ``send_object_list`` into ``object_list``.

    Examples:
        >>> # objects.py, run as `mpirun -n 2 python objects.py` (mpirun() here does that):
        >>> script = '''
        ... from cellonnx import ops
        ... ops.init_process_group()
        ... if ops.get_rank() == 0:
        ...     ops.send_object_list([{'step': 3}, 'ready'], dst=1)
        ... else:
        ...     received = [None, None]
        ...     ops.recv_object_list(received, src=0)
        ...     print(received)
        ... '''
        >>> mpirun(script, n=2)
        [{'step': 3}, 'ready']
    """
    group = _cf._group(group, "recv_object_list")
    got = _mpi.comm(group, "recv_object_list").recv(source=_cf._group_rank(src, group, "recv_object_list"))
    object_list[:len(got)] = got


# --- all-to-all -------------------------------------------------------------------------------------------
def _alltoallv(sends: list[np.ndarray], recv_sizes: list[int], dtype: np.dtype, group: str,
               name: str) -> list:
    c = _mpi.comm(group, name)
    wire = _mpi.to_wire(np.zeros(0, dtype)).dtype
    send = np.concatenate([np.asarray(a, wire).reshape(-1) for a in sends]) if sends else np.zeros(0, wire)
    recv = np.empty(sum(recv_sizes), wire)
    send_counts = [int(np.asarray(a).size) for a in sends]
    c.Alltoallv([send, (send_counts, None)], [recv, (recv_sizes, None)])
    out, off = [], 0
    for n in recv_sizes:
        out.append(recv[off:off + n])
        off += n
    return out


def all_to_all(output_tensor_list: list, input_tensor_list: list, group: str | None = None,
               async_op: bool = False) -> Any:
    """Send ``input_tensor_list[i]`` to rank i of the group and write what rank i sent into
    ``output_tensor_list[i]`` (shapes may differ between pairs).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = [Tensor(np.zeros(2), ms.float32)]
        >>> ops.all_to_all(out, [x])
        >>> print(out[0])
        [1. 2.]
    """
    group = _cf._group(group, "all_to_all")
    size = _mg.get_group_size(group)
    if len(input_tensor_list) != size or len(output_tensor_list) != size:
        raise TypeError(f"For all_to_all, both lists must hold {size} tensors (the group size), but got "
                        f"{len(input_tensor_list)} inputs and {len(output_tensor_list)} outputs")
    dtype = input_tensor_list[0]._data.dtype
    got = _alltoallv([t._data for t in input_tensor_list], [int(t._data.size) for t in output_tensor_list],
                     dtype, group, "all_to_all")
    for t, a in zip(output_tensor_list, got):
        _write(t, a.reshape(t.shape).astype(t._data.dtype), "all_to_all")
    return _handle(async_op)


def all_to_all_single(output: Tensor, input: Tensor, output_split_sizes: list | None = None,
                      input_split_sizes: list | None = None, group: str | None = None,
                      async_op: bool = False) -> Any:
    """Split ``input`` along dimension 0 (``input_split_sizes`` rows each, or equally), send part i to rank i,
    and write the parts received, concatenated along dimension 0 (``output_split_sizes`` rows from each rank),
    into ``output``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops.all_to_all_single(out, x)
        >>> print(out)
        [1. 2.]
    """
    group = _cf._group(group, "all_to_all_single")
    size = _mg.get_group_size(group)
    x = input._data
    rows_in = list(input_split_sizes) if input_split_sizes else [x.shape[0] // size] * size
    rows_out = list(output_split_sizes) if output_split_sizes else [output._data.shape[0] // size] * size
    if sum(rows_in) != x.shape[0] or len(rows_in) != size or len(rows_out) != size:
        raise ValueError(f"For all_to_all_single, the split sizes {rows_in} / {rows_out} do not fit "
                         f"{size} ranks "
                         f"and an input of {x.shape[0]} rows")
    inner = int(np.prod(x.shape[1:], dtype=np.int64))
    parts = np.split(x, np.cumsum(rows_in)[:-1])
    got = _alltoallv(parts, [r * inner for r in rows_out], x.dtype, group, "all_to_all_single")
    _write(output, np.concatenate(got).reshape(output.shape).astype(output._data.dtype), "all_to_all_single")
    return _handle(async_op)


def all_to_all_v_c(output: Tensor, input: Tensor, send_count_matrix: list, group: str | None = None,
                   async_op: bool = False) -> Any:
    r"""Split ``input`` along dimension 0 as ``send_count_matrix`` says, send the parts to the ranks of the
    group and write the parts received, concatenated in rank order, into ``output``.

    Args:
        output (Tensor): written with what the ranks sent here; its dimensions after the first must hold as
            many elements as the input's.
        input (Tensor): the tensor scattered to the ranks.
        send_count_matrix (list[int]): ``send_count_matrix[i * rank_size + j]`` rows (first-dimension slices)
            go from rank i to rank j.
        group (str, optional): the group. Default: ``None`` (the world group).
        async_op (bool, optional): return a CommHandle. Default: ``False``.

    Returns:
        CommHandle when ``async_op`` is True, else None.

    Raises:
        TypeError: `input` or `output` not a Tensor, `group` not a str, `async_op` not a bool,
            `send_count_matrix` not a list of rank_size * rank_size ints.
        ValueError: the inner sizes of `input` and `output` differ, or `output` does not hold what arrives.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops.all_to_all_v_c(out, x, [2])
        >>> print(out)
        [1. 2.]
    """
    name = "all_to_all_v_c"
    for what, t in (("input", input), ("output", output)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For {name}, '{what}' must be a Tensor, but got {type(t).__name__}")
    group = _cf._group(group, name)
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    if not isinstance(send_count_matrix, list):
        raise TypeError(f"send_count_matrix must be list, but got {type(send_count_matrix)}")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in send_count_matrix):
        raise TypeError("send_count_matrix elements must be of type int")
    c = _mpi.comm(group, name)
    size, rank = c.Get_size(), c.Get_rank()
    if size * size != len(send_count_matrix):
        raise TypeError(f"send_count_matrix must be square matrix, but got {len(send_count_matrix)}.")
    x = input._data
    inner = int(np.prod(x.shape[1:], dtype=np.int64))
    if inner != int(np.prod(output._data.shape[1:], dtype=np.int64)):
        raise ValueError("The input and output dimensions except 0 must be of equal size, but got "
                         f"{inner} and {int(np.prod(output._data.shape[1:], dtype=np.int64))}.")
    m = np.asarray(send_count_matrix, np.int64).reshape(size, size)
    sends, recvs = [int(v) * inner for v in m[rank]], [int(v) * inner for v in m[:, rank]]
    flat = x.reshape(-1)
    if sum(sends) > flat.size or sum(recvs) != output._data.size:
        raise ValueError(f"For {name}, rank {rank} sends {sum(sends)} and receives {sum(recvs)} elements, "
                         f"but the input holds {flat.size} and the output {output._data.size}")
    parts = np.split(flat[:sum(sends)], np.cumsum(sends)[:-1]) if sends else []
    got = _alltoallv(parts, recvs, x.dtype, group, name)
    out = np.concatenate(got) if got else np.zeros(0, x.dtype)
    _write(output, _mpi.from_wire(out, x.dtype).reshape(output.shape), name)
    return _handle(async_op)


# --- batched point-to-point --------------------------------------------------------------------------------
class P2POp:
    """One send or receive of :func:`batch_isend_irecv`.

    Args:
        op (Union[str, function]): ``"isend"`` / ``"irecv"``, or the functions ``ops.isend`` / ``ops.irecv``.
        tensor (Tensor): what is sent, or where the message is written.
        peer (int): the other world rank.
        group (str, optional): the group. Default: ``None`` (the world group).
        tag (int): 0 only.

    Raises:
        TypeError: a bad ``op``, ``tensor`` or ``peer``.
        NotImplementedError: ``tag`` is not 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops_list = [ops.P2POp('isend', x, 0), ops.P2POp('irecv', out, 0)]
        >>> handles = ops.batch_isend_irecv(ops_list)
        >>> handles[0].wait()
        >>> print(out)
        [1. 2.]
    """

    def __init__(self, op: Any, tensor: Tensor, peer: int, group: str | None = None, tag: int = 0) -> None:
        name = op if isinstance(op, str) else getattr(op, "__name__", None)
        if name not in ("isend", "irecv"):
            raise TypeError("P2POp: op must be 'isend' or 'irecv' (or ops.isend / ops.irecv), but got "
                            f"{op!r}")
        if not isinstance(tensor, Tensor):
            raise TypeError(f"P2POp: tensor must be a Tensor, but got {type(tensor).__name__}")
        if not isinstance(peer, int) or isinstance(peer, bool):
            raise TypeError(f"P2POp: peer must be an int, but got {type(peer).__name__}")
        if tag != 0:
            raise NotImplementedError(f"P2POp: tag must be 0, but got {tag}")
        self.op, self.tensor, self.peer, self.group, self.tag = name, tensor, peer, group, tag


def batch_isend_irecv(p2p_op_list: list) -> list:
    """Start every send and receive of ``p2p_op_list`` (P2POp objects) together.

    Returns:
        list with one CommHandle: ``wait()`` completes them all (received tensors are written then).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops_list = [ops.P2POp(ops.isend, x, 0), ops.P2POp(ops.irecv, out, 0)]
        >>> handles = ops.batch_isend_irecv(ops_list)
        >>> handles[0].wait()
        >>> print(out)
        [1. 2.]
    """
    if not p2p_op_list or not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise TypeError("batch_isend_irecv: 'p2p_op_list' must be a non-empty list of P2POp")
    handles = [isend(p.tensor, p.peer, p.group) if p.op == "isend" else irecv(p.tensor, p.peer, p.group)
               for p in p2p_op_list]

    class _All:
        def wait(self) -> None:
            for h in handles:
                h.wait()

    return [_All()]


# --- uneven first dimensions -------------------------------------------------------------------------------
def all_gather_into_tensor_uneven(output: Tensor, input: Tensor, output_split_sizes: list | None = None,
                                  group: str | None = None, async_op: bool = False) -> Any:
    """The inputs of all ranks, whose first dimensions may differ (``output_split_sizes`` rows from each),
    concatenated along dimension 0 into ``output``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops.all_gather_into_tensor_uneven(out, x)
        >>> print(out)
        [1. 2.]
    """
    group = _cf._group(group, "all_gather_into_tensor_uneven")
    c = _mpi.comm(group, "all_gather_into_tensor_uneven")
    size = c.Get_size()
    x = _mpi.to_wire(input._data)
    rows = list(output_split_sizes) if output_split_sizes else [output._data.shape[0] // size] * size
    if len(rows) != size or rows[c.Get_rank()] != x.shape[0] or sum(rows) != output._data.shape[0]:
        raise ValueError(f"For all_gather_into_tensor_uneven, output_split_sizes {rows} must give {size} "
                         "row counts "
                         f"summing to the output's {output._data.shape[0]} rows, this rank's being its "
                         "input's "
                         f"{x.shape[0]}")
    inner = int(np.prod(x.shape[1:], dtype=np.int64))
    out = np.empty((sum(rows),) + x.shape[1:], x.dtype)
    c.Allgatherv(x, [out, ([r * inner for r in rows], None)])
    _write(output, out.astype(output._data.dtype), "all_gather_into_tensor_uneven")
    return _handle(async_op)


def reduce_scatter_tensor_uneven(output: Tensor, input: Tensor, input_split_sizes: list | None = None,
                                 op: str = "sum", group: str | None = None, async_op: bool = False) -> Any:
    """Reduce ``input`` across the group (``op``: "sum", "max", "min" or "avg") and write this rank's part of
    its rows (``input_split_sizes`` rows each) into ``output``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.init_process_group()  # run alone here: a group of one rank (mpirun -n N for more)
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = Tensor(np.zeros(2), ms.float32)
        >>> ops.reduce_scatter_tensor_uneven(out, x)
        >>> print(out)
        [1. 2.]
    """
    group = _cf._group(group, "reduce_scatter_tensor_uneven")
    c = _mpi.comm(group, "reduce_scatter_tensor_uneven")
    size = c.Get_size()
    x = _mpi.to_wire(input._data)
    rows = list(input_split_sizes) if input_split_sizes else [x.shape[0] // size] * size
    if len(rows) != size or sum(rows) != x.shape[0]:
        raise ValueError(f"For reduce_scatter_tensor_uneven, input_split_sizes {rows} must give {size} "
                         "row counts "
                         f"summing to the input's {x.shape[0]} rows")
    inner = int(np.prod(x.shape[1:], dtype=np.int64))
    out = np.empty((rows[c.Get_rank()],) + x.shape[1:], x.dtype)
    avg = op == "avg"
    mpi_op = _mpi.mpi_op("sum" if avg else op, "reduce_scatter_tensor_uneven")
    c.Reduce_scatter(x, out, [r * inner for r in rows], op=mpi_op)
    if avg:
        out = out / size
    _write(output, out.astype(output._data.dtype), "reduce_scatter_tensor_uneven")
    return _handle(async_op)
