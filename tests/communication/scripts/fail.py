"""Under mpirun: rank 1 fails ("raise": an exception; "kill": SIGKILL) while rank 0 waits in an all-reduce;
the job must end, naming the rank, rather than hang.

    mpirun -n 2 python fail.py raise|kill
"""
from __future__ import annotations

import os
import signal
import sys

import numpy as np

import cellonnx as ms
from cellonnx import ops
from cellonnx.communication import get_rank, init

init()
if get_rank() == 1:
    if sys.argv[1] == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    raise ValueError("rank 1 fails on purpose")
ops.AllReduce()(ms.Tensor(np.ones(3, np.float32)))
print("rank 0 finished the all-reduce: the failure was not noticed", flush=True)
