"""What the compiled data-parallel script (scripts/train_dp_compiled.py) writes, and the checks that hold on
every device: the compiled trajectory equals the eager one, and the ranks end equal."""
from __future__ import annotations

import numpy as np
import pytest

from tests.communication._launch import mpirun_once
from tests.communication.scripts import train_dp_compiled as script
from tests.tolerance import assert_close

CASES = ["_".join(c) for c in script.CASES]


def run(tmp_path_factory: pytest.TempPathFactory, name: str, *device: str, timeout: float = 240) -> dict:
    """Run the script on 2 ranks (``device`` "GPU": each rank's compiled step on CUDA): (rank, case) ->
    arrays."""
    out = mpirun_once(tmp_path_factory, name, "train_dp_compiled.py", *device, n=2, timeout=timeout)
    names = [*CASES, "losscale", "model", "functional"]
    return {(r, name): dict(np.load(out / f"rank{r}_{name}.npz")) for r in range(2) for name in names}


def check_trajectory_equals_eager(results: dict, case: str) -> None:
    for r in range(2):
        saved = results[(r, case)]
        assert_close(saved["graph/losses"], saved["eager/losses"], rtol=1e-4, scale_rtol=1e-5,
                     what=f"{case} rank {r} losses")
        for key in saved:
            if key.startswith("eager/end/"):
                assert_close(saved["graph/" + key[6:]], saved[key], rtol=1e-4, scale_rtol=1e-5,
                             what=f"{case} rank {r} {key[10:]}")


def check_ranks_end_equal(results: dict, case: str) -> None:
    a, b = results[(0, case)], results[(1, case)]
    for key in a:
        # moving statistics of a plain BatchNorm are each rank's own (MindSpore's data parallel too)
        if key.startswith("graph/end/") and not ("local" in case and "moving" in key):
            np.testing.assert_array_equal(a[key], b[key], err_msg=f"{case}: {key} differs between ranks")
