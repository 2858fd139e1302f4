"""A rank that raises or is killed ends the whole mpirun job with an error, instead of leaving the other ranks
waiting in a collective; and the errors of a process without a distributed run."""
from __future__ import annotations

import time

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.communication import _mpi, get_world_rank_from_group_rank
from tests.communication._launch import mpirun, needs_mpirun


@needs_mpirun
@pytest.mark.parametrize("how", ["raise", "kill"])
def test_a_failing_rank_ends_the_job(how) -> None:
    start = time.monotonic()
    proc = mpirun("fail.py", how, n=2, timeout=60, check=False)
    assert proc.returncode != 0
    assert time.monotonic() - start < 60
    out = proc.stdout + proc.stderr
    assert "the failure was not noticed" not in out
    if how == "raise":
        assert "rank 1 raised ValueError; aborting all 2 ranks" in out
        assert "rank 1 fails on purpose" in out


@pytest.mark.skipif(_mpi.initialized(), reason="this process has started MPI")
def test_collectives_before_init_say_what_to_do() -> None:
    with pytest.raises(RuntimeError, match=r"call cellonnx.communication.init\(\) first"):
        get_world_rank_from_group_rank("group_a", 0)
    with pytest.raises(RuntimeError, match="mpirun"):
        ops.AllReduce()(ms.Tensor(np.ones(2, np.float32)))
    with pytest.raises(RuntimeError, match="not initialised"):
        nn.DistributedGradReducer([ms.Parameter(np.ones(2, np.float32), name="w")])
    assert ops.get_rank() == -1 and ops.get_world_size() == -1 and not ops.is_initialized()


def test_init_without_mpi4py_names_the_install(monkeypatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_mpi(name, *args, **kwargs):
        if name.startswith("mpi4py"):
            raise ImportError("No module named 'mpi4py'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(_mpi.STATE, "mpi", None)
    monkeypatch.setattr(builtins, "__import__", no_mpi)
    with pytest.raises(RuntimeError, match=r"pip install 'cellonnx\[dist\]'"):
        _mpi.load_mpi()


def test_bad_arguments() -> None:
    from cellonnx.communication import init

    with pytest.raises(RuntimeError, match="'mpi', 'mccl', 'nccl'"):
        init("gloo")
    with pytest.raises(TypeError, match="ReduceOp"):
        ops.AllReduce("mean")
    with pytest.raises(TypeError, match="group"):
        ops.AllGather(group=3)
    with pytest.raises(TypeError, match="tuple of Tensors"):
        ops.Broadcast(0)(ms.Tensor(np.ones(2)))
