"""mx.kv 'dist_sync' over MPI on 2 ranks (tests/mxnet/scripts/kvstore_dist.py): rank 0's initial values,
pushes summed over the workers, the store's optimizer applied to the sum, and Modules on different data
ending with the same parameters."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.communication._launch import find_mpirun, needs_mpirun

SCRIPT = Path(__file__).resolve().parent / "scripts" / "kvstore_dist.py"


@needs_mpirun
def test_dist_sync_kvstore_on_two_ranks() -> None:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONUNBUFFERED="1")
    env["PYTHONPATH"] = str(SCRIPT.parents[3]) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [find_mpirun() or "mpirun", "-n", "2", sys.executable, str(SCRIPT)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=env)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    lines = [line for text in (proc.stdout, proc.stderr) for line in text.splitlines()
             if line.startswith("{")]
    ranks = sorted((json.loads(line) for line in lines), key=lambda r: r["rank"])
    assert [r["rank"] for r in ranks] == [0, 1]
    for r in ranks:
        assert r["num_workers"] == 2 and r["type"] == "dist_sync"
        assert r["init"] == [1.0, 1.0]  # rank 0's value
        assert r["push_sum"] == [3.0, 3.0]  # 1 + 2 over the ranks
        assert r["optimizer"] == pytest.approx([1 - 0.1 * 3] * 2)
    np.testing.assert_allclose(ranks[0]["fc_weight"], ranks[1]["fc_weight"], rtol=1e-6)
