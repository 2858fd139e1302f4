"""``mindspore.parameter_broadcast``: make the ranks that hold the same slice of a parameter agree on it,
from a parameter layout (``{name: [device_matrix, tensor_map, ..., opt_shard_group, ...]}``, as
``Cell.parameter_layout_dict`` or a strategy file gives it), over the MPI collectives.

As MindSpore does it: the layout says which ranks hold the same slice of each parameter (the redundancy
groups, ``get_parameter_redundancy``); the parameters a group shares are dealt round-robin to its ranks (the
k-th to the group's (k mod size)-th rank, ``remove_param_redundancy``); every other rank of the group zeroes
its copy and a sum all-reduce over the group gives each rank the owner's values.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.tensor import Tensor


def _redundancy(layout: dict[str, Any], initial_rank: int) -> dict[str, tuple[tuple[int, ...], ...]]:
    """For each parameter, the groups of ranks holding the same slice (ranks from ``initial_rank``)."""
    from cellonnx.communication.management import get_group_size
    out: dict[str, tuple[tuple[int, ...], ...]] = {}
    for name in sorted(layout):
        value = layout[name]
        dev_matrix, tensor_map = [int(d) for d in value[0]], [int(m) for m in value[1]]
        n = len(dev_matrix)
        groups: dict[tuple[int, ...], list[int]] = {}
        for device in range(int(np.prod(dev_matrix, dtype=np.int64))):
            coords = np.unravel_index(device, dev_matrix) if dev_matrix else ()
            # a tensor dimension split along device-matrix axis m (counted from the right) tells the slices
            # apart by that coordinate; replicated dimensions (-1) do not
            locate = [0] * n
            for m in tensor_map:
                if m != -1:
                    locate[m] = int(coords[n - 1 - m])
            groups.setdefault(tuple(locate), []).append(device + initial_rank)
        ranks = tuple(tuple(groups[k]) for k in sorted(groups))
        opt_group = value[5] if len(value) > 5 else None
        if opt_group:  # the optimizer shards the parameter again inside each group
            k = get_group_size(opt_group)
            ranks = tuple(r[i::k] for r in ranks if len(r) % k == 0 for i in range(k))
        out[name] = ranks
    return out


def _owners(redundancy: dict[str, tuple[tuple[int, ...], ...]]) -> dict[int, set[str]]:
    """Which rank keeps which parameters: those sharing a group are dealt round-robin to its ranks."""
    by_group: dict[tuple[int, ...], list[str]] = {}
    for name, groups in redundancy.items():
        for group in groups:
            by_group.setdefault(group, []).append(name)
    owners: dict[int, set[str]] = {}
    for group, names in by_group.items():
        for k, name in enumerate(names):
            owners.setdefault(group[k % len(group)], set()).add(name)
    return owners


def parameter_broadcast(net: Any, layout: dict[str, Any], cur_rank: int = 0, initial_rank: int = 0) -> None:
    """Broadcast parameters to the other ranks of their data-parallel dimension.

    Args:
        net (Cell): the network whose parameters are broadcast.
        layout (dict): parameter name -> layout (``[device_matrix, tensor_map, ...]``; an optimizer-shard
            group name at index 5 when the optimizer shards it), as ``Cell.parameter_layout_dict`` gives it.
        cur_rank (int, optional): this process's rank. Default: ``0``.
        initial_rank (int, optional): the first rank of this pipeline stage. Default: ``0``.

    Raises:
        ValueError: `cur_rank` is not this process's rank, `initial_rank` is not the first rank of a pipeline
            stage, or a name of `layout` is none of the network's parameters.

    Examples:
        >>> net = nn.Dense(2, 1, weight_init='ones')
        >>> layout = {'weight': [[2, 1], [-1, -1]]}  # data parallel over 2 ranks
        >>> ms.parameter_broadcast(net, layout)  # one process (no mpirun): nothing to broadcast to
        >>> print(net.weight.asnumpy())
        [[1. 1.]]
    """
    from cellonnx.communication import _mpi
    from cellonnx.communication import management as mg
    from cellonnx.ops.prims.comm import AllReduce
    from cellonnx.parallel_context import get_auto_parallel_context
    # without init() there is one rank (MindSpore's get_group_size() is then 1)
    if not layout or not _mpi.initialized() or mg.get_group_size() <= 1:
        return
    stages = get_auto_parallel_context("pipeline_stages")
    if cur_rank != mg.get_rank():
        raise ValueError(f"For parameter broadcast, the cur_rank: {cur_rank} is wrong.")
    if initial_rank % (mg.get_group_size() / stages) != 0:
        raise ValueError(f"For parameter broadcast, the initial_rank: {initial_rank} is wrong.")
    redundancy = _redundancy(layout, initial_rank)
    owners = _owners(redundancy)
    shared: dict[tuple[int, ...], list[str]] = {}
    for name, groups in redundancy.items():
        for group in groups:
            if len(group) > 1 and cur_rank in group:
                shared.setdefault(group, []).append(name)
    params = net.parameters_dict()
    mine = owners.get(cur_rank, set())
    for group, names in shared.items():
        group_name = str(group)
        if group_name not in mg.STATE.group_ranks:
            mg.create_group(group_name, list(group))
        for name in names:
            if name not in params:
                raise ValueError(f"For parameter broadcast, the param: {name} can not be found.")
            param = params[name]
            if name not in mine:
                param.set_data(Tensor(np.zeros(param.shape, param._data.dtype)))
            param.set_data(AllReduce("sum", group_name)(param))
