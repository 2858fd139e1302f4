"""``mindspore.communication`` over MPI: starting the distributed run, ranks and sizes, groups.

Launch the script with ``mpirun -n N python script.py`` and call :func:`init` first; every process is one
rank. MindSpore's backends map onto MPI: ``init()``, ``init("mpi")`` and MindSpore's CPU backend name
``"mccl"`` all start MPI, and the world group answers to any of MindSpore's world-group names.
"""
from __future__ import annotations

import os
from typing import Any

from cellonnx.communication import _mpi
from cellonnx.communication._mpi import (
    HCCL_WORLD_COMM_GROUP,
    MCCL_WORLD_COMM_GROUP,
    NCCL_WORLD_COMM_GROUP,
    STATE,
)

__all__ = ["HCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "GlobalComm",
           "create_group", "destroy_group", "get_comm_name", "get_group_rank_from_world_rank",
           "get_group_size",
           "get_local_rank", "get_local_rank_size", "get_process_group_ranks", "get_rank",
           "get_world_rank_from_group_rank", "init", "release"]

BACKENDS = ("mpi", "mccl", "nccl")


class GlobalComm:
    """The world communication's state, as MindSpore's ``GlobalComm``:

    - ``BACKEND``: the library in use, ``"mpi"`` once :func:`init` ran.
    - ``WORLD_COMM_GROUP``: the world group's name.
    - ``INITED``: whether :func:`init` has run.
    - ``CHECK_ENVS``: whether to check environment variables (kept for MindSpore's scripts).

    Examples:
        >>> from cellonnx.communication import init, GlobalComm
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> print(GlobalComm.INITED)
        True
    """

    BACKEND = "mpi"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


def init(backend_name: str | None = None) -> None:
    """Start the distributed communication: every process that ``mpirun`` launched becomes one rank of the
    world group.

    Args:
        backend_name (str, optional): ``"mpi"``, or MindSpore's ``"mccl"`` / ``"nccl"`` (both run over MPI
            here). Default: ``None`` (MPI).

    Raises:
        TypeError: ``backend_name`` is not a str.
        RuntimeError: an unknown backend, or MPI (mpi4py and an MPI library) is not installed.

    Examples:
        >>> from cellonnx.communication import init, get_rank, get_group_size
        >>> init()            # run as: mpirun -n 2 python train.py
        >>> get_rank(), get_group_size()  # without mpirun: a job of one rank
        (0, 1)
    """
    if backend_name is not None and not isinstance(backend_name, str):
        raise TypeError(f"For 'init', the argument 'backend_name' must be a string, but got the type : "
                        f"{type(backend_name).__name__}")
    if backend_name is not None and backend_name not in BACKENDS:
        hint = " (Huawei's HCCL runs on Ascend NPUs only)" if backend_name == "hccl" else ""
        raise RuntimeError(f"For 'init', the argument 'backend_name' must be one of {list(BACKENDS)} "
                           "(all run "
                           f"over MPI in cellonnx), but got 'backend_name' : {backend_name}{hint}")
    env_rank, env_size = _mpi.env_rank_size()
    mpi = _mpi.load_mpi()
    world = mpi.COMM_WORLD
    if env_size is not None and env_size != world.Get_size():
        raise RuntimeError(f"For 'init', the launcher announced {env_size} ranks (this is rank "
                           f"{env_rank}) but "
                           f"MPI started {world.Get_size()}: mpi4py is linked to another MPI than the mpirun "
                           "that launched the job; use the mpirun of the same installation "
                           f"({_mpi.INSTALL_HINT})")
    GlobalComm.BACKEND = "mpi"
    GlobalComm.INITED = True
    # as MindSpore does after init: scripts read these
    os.environ["RANK_ID"] = str(world.Get_rank())
    os.environ["RANK_SIZE"] = str(world.Get_size())
    from cellonnx import context

    context.device_id = get_local_rank()  # as MindSpore under OpenMPI: the rank on this host
    os.environ["DEVICE_ID"] = str(context.device_id)
    from cellonnx import parallel_context

    parallel_context._on_init(world.Get_rank(), world.Get_size())


def release() -> None:
    """Free the groups made by :func:`create_group` (MPI itself is finalised when the process exits).

    Raises:
        RuntimeError: :func:`init` has not been called.

    Examples:
        >>> from cellonnx.communication import init, release
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> release()
    """
    _mpi.require("release")
    for name in list(STATE.groups):
        destroy_group(name)
    for c in STATE.local.values():
        c.Free()
    STATE.local.clear()
    GlobalComm.INITED = False


def get_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank in ``group`` (the world group by default).

    Before :func:`init`, as MindSpore: the ``RANK_ID`` environment variable, or 0 when it is not set.

    Raises:
        TypeError: ``group`` is not a str.

    Examples:
        >>> from cellonnx.communication import init, get_rank
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> print(get_rank())
        0
    """
    if not GlobalComm.INITED:
        return _before_init("get_rank", group, "RANK_ID", 0)
    return int(_mpi.comm(group, "get_rank").Get_rank())


def get_group_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The number of ranks in ``group``.

    Before :func:`init`, as MindSpore: the ``RANK_SIZE`` environment variable, or 1 when it is not set.

    Raises:
        TypeError: ``group`` is not a str.

    Examples:
        >>> from cellonnx.communication import init, get_group_size
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> print(get_group_size())
        1
    """
    if not GlobalComm.INITED:
        return _before_init("get_group_size", group, "RANK_SIZE", 1)
    return int(_mpi.comm(group, "get_group_size").Get_size())


def get_local_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank among the ranks of ``group`` on this host.

    Before :func:`init`, as MindSpore: the ``LOCAL_RANK`` environment variable, or 0 when it is not set.

    Raises:
        TypeError: ``group`` is not a str.

    Examples:
        >>> from cellonnx.communication import init, get_local_rank
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> print(get_local_rank())
        0
    """
    if not GlobalComm.INITED:
        return _before_init("get_local_rank", group, "LOCAL_RANK", 0)
    return int(_mpi.local_comm(group, "get_local_rank").Get_rank())


def get_local_rank_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The number of ranks of ``group`` on this host.

    Before :func:`init`, as MindSpore: the ``LOCAL_RANK_SIZE`` environment variable, or 1 when it is not set.

    Raises:
        TypeError: ``group`` is not a str.

    Examples:
        >>> from cellonnx.communication import init, get_local_rank_size
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> print(get_local_rank_size())
        1
    """
    if not GlobalComm.INITED:
        return _before_init("get_local_rank_size", group, "LOCAL_RANK_SIZE", 1)
    return int(_mpi.local_comm(group, "get_local_rank_size").Get_size())


def _before_init(caller: str, group: Any, variable: str, default: int) -> int:
    """What MindSpore's rank and size queries answer before ``init()``: the launcher's environment variable,
    else the value of a job of one process (after checking ``group`` as they do)."""
    if not isinstance(group, str):
        raise TypeError(f"For '{caller}', the argument 'group' must be type of string, but got "
                        f"'group' type : {type(group)}.")
    return int(os.environ.get(variable, default))


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    """The world rank of rank ``group_rank_id`` of ``group``.

    Raises:
        ValueError: the group does not exist or has no such rank.

    Examples:
        >>> from cellonnx.communication import init, create_group, get_world_rank_from_group_rank
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> create_group('group_3', [0])
        >>> print(get_world_rank_from_group_rank('group_3', 0))
        0
    """
    ranks = _mpi.world_ranks(group, "get_world_rank_from_group_rank")
    if not isinstance(group_rank_id, int) or not 0 <= group_rank_id < len(ranks):
        raise ValueError(f"For 'get_world_rank_from_group_rank', group '{group}' has {len(ranks)} ranks, "
                         "but got "
                         f"group_rank_id {group_rank_id!r}")
    return ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    """The rank in ``group`` of world rank ``world_rank_id``.

    Raises:
        ValueError: the group does not exist or does not hold that rank.

    Examples:
        >>> from cellonnx.communication import init, create_group, get_group_rank_from_world_rank
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> create_group('group_2', [0])
        >>> print(get_group_rank_from_world_rank(0, 'group_2'))
        0
    """
    ranks = _mpi.world_ranks(group, "get_group_rank_from_world_rank")
    if world_rank_id not in ranks:
        raise ValueError(f"For 'get_group_rank_from_world_rank', world rank {world_rank_id!r} is not in "
                         "group "
                         f"'{group}' (ranks {ranks})")
    return ranks.index(world_rank_id)


def create_group(group: str, rank_ids: list[int], options: Any = None) -> None:
    """Make a group of the world ranks ``rank_ids``, named ``group``. Called by the ranks in ``rank_ids``
    (and only by them), together.

    Args:
        group (str): the group's name.
        rank_ids (list[int]): world ranks, distinct.
        options: MindSpore's backend options (HCCL buffer sizes); ignored.

    Raises:
        TypeError / ValueError: a bad name or rank list, or a name already in use.

    Examples:
        >>> from cellonnx.communication import init, create_group, get_group_size
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> create_group('group_0', [0])
        >>> print(get_group_size('group_0'))
        1
    """
    _mpi.require("create_group")
    if not isinstance(group, str):
        raise TypeError("For 'create_group', the argument 'group' must be type of string, but got "
                        "'group' type : "
                        f"{type(group).__name__}")
    if group in _mpi.WORLD_NAMES or group in STATE.groups:
        raise ValueError(f"For 'create_group', the group '{group}' already exists")
    size = STATE.world.Get_size()
    ranks = list(rank_ids) if isinstance(rank_ids, (list, tuple)) else None
    if (not ranks or len(set(ranks)) != len(ranks)
            or any(not isinstance(r, int) or not 0 <= r < size for r in ranks)):
        raise ValueError(f"For 'create_group', 'rank_ids' must be a non-empty list of distinct ranks in "
                         f"[0, {size}), but got {rank_ids!r}")
    me = STATE.world.Get_rank()
    if me in ranks:
        mpi_group = STATE.world.Get_group().Incl(ranks)
        STATE.groups[group] = STATE.world.Create_group(mpi_group, tag=_tag(group))
        mpi_group.Free()
    else:
        STATE.groups[group] = None
    STATE.group_ranks[group] = ranks


def _tag(name: str) -> int:
    return sum((i + 1) * ord(ch) for i, ch in enumerate(name)) % 30000


def destroy_group(group: str) -> None:
    """Free the group ``group`` made by :func:`create_group`.

    Raises:
        ValueError: the world group, or a group that does not exist.

    Examples:
        >>> from cellonnx.communication import init, create_group, destroy_group
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> create_group('group_1', [0])
        >>> destroy_group('group_1')
    """
    _mpi.require("destroy_group")
    if not isinstance(group, str):
        raise TypeError("For 'destroy_group', the argument 'group' must be type of string, but got "
                        "'group' type : "
                        f"{type(group).__name__}")
    if group in _mpi.WORLD_NAMES:
        raise ValueError(f"For 'destroy_group', the world group '{group}' cannot be destroyed")
    if group not in STATE.groups:
        raise ValueError(f"For 'destroy_group', the group '{group}' does not exist")
    c = STATE.groups.pop(group)
    STATE.group_ranks.pop(group)
    local = STATE.local.pop(group, None)
    if local is not None:
        local.Free()
    if c is not None:
        c.Free()


def get_comm_name(group: str = GlobalComm.WORLD_COMM_GROUP) -> str:
    """The communicator's name (MPI's name of it).

    Examples:
        >>> from cellonnx.communication import init, get_comm_name
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> print(get_comm_name())
        MPI_COMM_WORLD
    """
    return str(_mpi.comm(group, "get_comm_name").Get_name())


def get_process_group_ranks(group: str = GlobalComm.WORLD_COMM_GROUP) -> list[int]:
    """The world ranks of ``group``, in group-rank order.

    Examples:
        >>> from cellonnx.communication import init, get_process_group_ranks
        >>> init()  # run alone here: a job of one rank (mpirun -n N for more)
        >>> print(get_process_group_ranks())
        [0]
    """
    return _mpi.world_ranks(group, "get_process_group_ranks")
