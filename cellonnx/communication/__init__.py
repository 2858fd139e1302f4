"""``mindspore.communication`` over MPI: ``init``, ranks, groups; ``comm_func`` holds the collectives as
functions. Launch with ``mpirun -n N python script.py``; the :doc:`/distributed` guide trains a network that
way."""
from __future__ import annotations

import importlib
from typing import Any

from cellonnx.communication.management import *
from cellonnx.communication.management import __all__ as _management_all

__all__ = list(_management_all)


def __getattr__(name: str) -> Any:
    # comm_func builds on cellonnx.ops, which imports this package: loaded on first use
    if name == "comm_func":
        return importlib.import_module("cellonnx.communication.comm_func")
    raise AttributeError(f"module 'cellonnx.communication' has no attribute '{name}'")
