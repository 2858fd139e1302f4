"""The MPI side of cellonnx.communication: mpi4py loaded on first use, the world communicator, the named
groups, and the array <-> MPI buffer rules every collective shares.

Nothing here imports mpi4py at module import: ``import cellonnx`` stays free of MPI, and a process that never
calls ``init()`` never starts an MPI runtime.
"""
from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from typing import Any

import numpy as np

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
WORLD_NAMES = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)

INSTALL_HINT = ("pip install 'cellonnx[dist]' brings mpi4py and the MPICH runtime; start the script with "
                "`mpirun -n N python script.py`")


class _State:
    def __init__(self) -> None:
        self.mpi: Any = None            # the mpi4py.MPI module once init() ran
        self.world: Any = None          # MPI.COMM_WORLD
        self.groups: dict[str, Any] = {}  # name -> communicator (None where this rank is not a member)
        self.group_ranks: dict[str, list[int]] = {}
        self.local: dict[str, Any] = {}   # group name -> the communicator of its ranks on this host


STATE = _State()
_lock = threading.Lock()


def load_mpi() -> Any:
    """Import mpi4py (which initialises MPI), or raise a RuntimeError that says how to get it."""
    if STATE.mpi is not None:
        return STATE.mpi
    with _lock:
        if STATE.mpi is not None:
            return STATE.mpi
        try:
            import mpi4py

            mpi4py.rc.finalize = True
            from mpi4py import MPI
        except ImportError as exc:
            raise RuntimeError(f"cellonnx.communication.init: MPI is not available ({exc}); "
                               f"{INSTALL_HINT}") from None
        except Exception as exc:  # noqa: BLE001 (an MPI library that fails to load or start)
            raise RuntimeError(f"cellonnx.communication.init: the MPI runtime failed to start: {exc}; "
                               f"{INSTALL_HINT}") from None
        STATE.mpi = MPI
        STATE.world = MPI.COMM_WORLD
        _abort_on_uncaught_exception(MPI)
    return STATE.mpi


def _abort_on_uncaught_exception(mpi: Any) -> None:
    """A rank that raises past the top of its script aborts the whole job (its peers would otherwise wait in
    the next collective forever); the traceback is printed first, naming the rank."""
    if mpi.COMM_WORLD.Get_size() == 1:
        return
    previous = sys.excepthook

    def hook(exc_type: Any, exc: BaseException, tb: Any) -> None:
        rank = mpi.COMM_WORLD.Get_rank()
        header = (f"cellonnx.communication: rank {rank} raised {exc_type.__name__}; aborting all "
                  f"{mpi.COMM_WORLD.Get_size()} ranks\n")
        if previous is sys.__excepthook__:   # one write: the launcher forwards it whole
            sys.stderr.write(header + "".join(traceback.format_exception(exc_type, exc, tb)))
        else:
            sys.stderr.write(header)
            previous(exc_type, exc, tb)
        sys.stderr.flush()
        # mpirun forwards a rank's output on its own time and Abort ends the job at once: without the pause
        # the traceback's last lines (the error message) were sometimes lost
        time.sleep(0.2)
        mpi.COMM_WORLD.Abort(1)

    sys.excepthook = hook


def initialized() -> bool:
    return STATE.world is not None


def require(caller: str) -> Any:
    """The MPI module, or an error saying that ``init()`` has not been called."""
    if STATE.world is None:
        raise RuntimeError(f"{caller}: the distributed communication is not initialised; call "
                           "cellonnx.communication.init() first (and launch with `mpirun -n N python ...`)")
    return STATE.mpi


def comm(group: str | None, caller: str) -> Any:
    """The communicator of ``group`` (a world-group name, None, or a name given to create_group)."""
    require(caller)
    if group is None or group in WORLD_NAMES:
        return STATE.world
    if not isinstance(group, str):
        raise TypeError(f"{caller}: 'group' must be a str, but got {type(group).__name__}")
    if group not in STATE.groups:
        raise ValueError(f"{caller}: the group '{group}' does not exist; create it with "
                         f"create_group('{group}', rank_ids) (known groups: {sorted(STATE.groups)})")
    c = STATE.groups[group]
    if c is None:
        raise ValueError(f"{caller}: rank {STATE.world.Get_rank()} is not a member of the group '{group}' "
                         f"(ranks {STATE.group_ranks[group]})")
    return c


def world_ranks(group: str | None, caller: str) -> list[int]:
    require(caller)
    if group is None or group in WORLD_NAMES:
        return list(range(STATE.world.Get_size()))
    comm(group, caller)
    return list(STATE.group_ranks[group])


def local_comm(group: str | None, caller: str) -> Any:
    """The ranks of ``group`` on this host (MPI's shared-memory split)."""
    c = comm(group, caller)
    key = group if group is not None and group not in WORLD_NAMES else HCCL_WORLD_COMM_GROUP
    if key not in STATE.local:
        STATE.local[key] = c.Split_type(STATE.mpi.COMM_TYPE_SHARED, key=c.Get_rank())
    return STATE.local[key]


# --- arrays ---------------------------------------------------------------------------------------------
_NATIVE = {np.dtype(t) for t in (np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8,
                                 np.uint16, np.uint32, np.uint64, np.bool_, np.complex64, np.complex128)}


def to_wire(a: np.ndarray) -> np.ndarray:
    """A contiguous array MPI can reduce: float16 / bfloat16 travel as float32."""
    a = np.asarray(a)
    if a.dtype not in _NATIVE:
        a = a.astype(np.float32)
    return a if a.flags.c_contiguous else np.array(a, order="C")  # (ascontiguousarray makes 0-d arrays 1-d)


def from_wire(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return a if a.dtype == dtype else a.astype(dtype)


def mpi_op(op: str, caller: str) -> Any:
    mpi = STATE.mpi
    table = {"sum": mpi.SUM, "max": mpi.MAX, "min": mpi.MIN, "prod": mpi.PROD}
    if op not in table:
        raise ValueError(f"{caller}: the reduce op must be one of {sorted(table)} (ops.ReduceOp), but got "
                         f"{op!r}")
    return table[op]


def allreduce_array(a: np.ndarray, op: str, group: str | None, caller: str) -> np.ndarray:
    c = comm(group, caller)
    src = to_wire(a)
    if src.dtype == np.bool_:  # MPI reduces bytes: sum / max of bools is "any", prod / min "all"
        ints = src.astype(np.uint8)
        out = np.empty_like(ints)
        c.Allreduce(ints, out, op=mpi_op("max" if op in ("sum", "max") else "min", caller))
        return out.astype(np.bool_)
    out = np.empty_like(src)
    c.Allreduce(src, out, op=mpi_op(op, caller))
    return from_wire(out, a.dtype)


def allgather_array(a: np.ndarray, group: str | None, caller: str) -> np.ndarray:
    """The inputs of every rank concatenated along axis 0 (rank order)."""
    c = comm(group, caller)
    src = to_wire(a)
    out = np.empty((c.Get_size(),) + src.shape, src.dtype)
    c.Allgather(src, out)
    out = out.reshape((c.Get_size() * src.shape[0],) + src.shape[1:]) if src.ndim else out
    return from_wire(out, a.dtype)


def reduce_scatter_array(a: np.ndarray, op: str, group: str | None, caller: str) -> np.ndarray:
    """Reduce across ranks, then rank i keeps the i-th of ``size`` equal slices along axis 0."""
    c = comm(group, caller)
    size = c.Get_size()
    if a.ndim == 0 or a.shape[0] % size:
        raise ValueError(f"{caller}: the input's first dimension must be divisible by the group size {size}, "
                         f"but got shape {a.shape}")
    src = to_wire(a)
    out = np.empty((src.shape[0] // size,) + src.shape[1:], src.dtype)
    c.Reduce_scatter_block(src, out, op=mpi_op(op, caller))
    return from_wire(out, a.dtype)


def broadcast_array(a: np.ndarray, root: int, group: str | None, caller: str) -> np.ndarray:
    """``root`` is a rank of the group."""
    c = comm(group, caller)
    if not 0 <= root < c.Get_size():
        raise ValueError(f"{caller}: the root rank {root} is outside the group of size {c.Get_size()}")
    buf = to_wire(a).copy()
    c.Bcast(buf, root=root)
    return from_wire(buf, a.dtype)


def reduce_array(a: np.ndarray, root: int, op: str, group: str | None, caller: str) -> np.ndarray:
    """The reduction on ``root``; the other ranks get their input back unchanged."""
    c = comm(group, caller)
    src = to_wire(a)
    out = np.empty_like(src) if c.Get_rank() == root else None
    c.Reduce(src, out, op=mpi_op(op, caller), root=root)
    return from_wire(out, a.dtype) if out is not None else np.array(a, copy=True)


def exchange(c: Any, sends: list[tuple[int, np.ndarray, int]],
             recvs: list[tuple[int, np.ndarray, int]]) -> None:
    """Post every receive and send (peer, buffer, tag) on communicator ``c`` at once and wait for them all."""
    reqs = [c.Irecv(buf, source=peer, tag=tag) for peer, buf, tag in recvs]
    reqs += [c.Isend(buf, dest=peer, tag=tag) for peer, buf, tag in sends]
    STATE.mpi.Request.Waitall(reqs)


def env_rank_size() -> tuple[int | None, int | None]:
    """The rank and size that a launcher exported (MPICH / Intel MPI's PMI_*, Open MPI's OMPI_COMM_WORLD_*,
    MindSpore's RANK_ID / RANK_SIZE), read before MPI starts."""
    for r, s in (("PMI_RANK", "PMI_SIZE"), ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
                 ("PMIX_RANK", "OMPI_COMM_WORLD_SIZE"), ("RANK_ID", "RANK_SIZE")):
        if os.environ.get(r) is not None and os.environ.get(s) is not None:
            return int(os.environ[r]), int(os.environ[s])
    return None, None
