"""Docstring examples run in the test process: whatever global mode an example switches on (MXNet's NumPy
semantics, a MindSpore context key, a started process group of one rank) is switched back after each test,
so no later test sees it."""
from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _examples_leave_global_modes_as_they_were() -> Iterator[None]:
    from cellonnx import context
    from cellonnx.mxnet import util

    saved_context = (context.mode, context.device_target, context.device_id, dict(context._extra))
    saved_np = (util.is_np_shape(), util.is_np_array(), util.is_np_default_dtype())
    saved_comm = _communication_state()
    yield
    _restore_communication_state(saved_comm)
    context.mode, context.device_target, context.device_id = saved_context[:3]
    context._extra.clear()
    context._extra.update(saved_context[3])
    util.reset_np()
    shape, array, dtype = saved_np
    if shape or array or dtype:
        util.set_np(shape=shape, array=array, dtype=dtype)


_COMM_ENV = ("RANK_ID", "RANK_SIZE", "DEVICE_ID")


def _communication_state() -> tuple:
    from cellonnx import parallel_context
    from cellonnx.communication import _mpi
    from cellonnx.communication.management import GlobalComm

    state = _mpi.STATE
    return (GlobalComm.INITED, state.mpi, state.world, dict(state.groups), dict(state.group_ranks),
            dict(state.local), dict(parallel_context._world), {k: os.environ.get(k) for k in _COMM_ENV})


def _restore_communication_state(saved: tuple) -> None:
    """The examples of the collectives start a process group of one rank and make groups; a later test sees
    the flags, groups and variables as they were, and none started if none was (MPI itself stays loaded in
    the process: the next init() finds it)."""
    from cellonnx import parallel_context
    from cellonnx.communication import _mpi
    from cellonnx.communication.management import GlobalComm

    state = _mpi.STATE
    inited, state.mpi, state.world, groups, group_ranks, local, ranks, env = saved
    GlobalComm.INITED = inited
    for live, kept in ((state.groups, groups), (state.group_ranks, group_ranks), (state.local, local),
                       (parallel_context._world, ranks)):
        live.clear()
        live.update(kept)
    # an example's release() / destroy_group() frees communicators that were live before it: drop them, so
    # the next init() makes new ones rather than use a freed (MPI_COMM_NULL) handle
    null = getattr(state.mpi, "COMM_NULL", None)
    for table in (state.groups, state.local):
        for key in [k for k, comm in table.items() if null is not None and comm == null]:
            del table[key]
    for key, value in env.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
