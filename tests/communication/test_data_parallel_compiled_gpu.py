"""Compiled data-parallel training with each rank's step on the CUDA execution provider (2 ranks on one GPU
under mpirun): the trajectory equals the eager data-parallel one and the ranks end equal. The all-reduce runs
on host buffers (the MPI from the package index is not CUDA-aware), so gradients cross to the host at each
bucket boundary; parameters and optimizer state stay on the device."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from tests.communication._launch import mpirun, needs_mpirun
from tests.communication.scripts import train_dp_compiled as script
from tests.tolerance import assert_close

pytestmark = [needs_mpirun, pytest.mark.gpu,
              pytest.mark.skipif("CUDAExecutionProvider" not in ort.get_available_providers(),
                                 reason="needs onnxruntime-gpu and a CUDA device")]

CASES = ["_".join(c) for c in script.CASES]


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("dp_compiled_gpu")
    mpirun("train_dp_compiled.py", str(out), "GPU", n=2, timeout=400)
    names = [*CASES, "losscale", "model", "functional"]
    return {(r, name): dict(np.load(out / f"rank{r}_{name}.npz")) for r in range(2) for name in names}


@pytest.mark.parametrize("case", [*CASES, "functional"])
def test_compiled_trajectory_on_cuda_equals_eager(results, case) -> None:
    for r in range(2):
        saved = results[(r, case)]
        assert_close(saved["graph/losses"], saved["eager/losses"], rtol=1e-4, scale_rtol=1e-5,
                     what=f"{case} rank {r} losses")
        for key in saved:
            if key.startswith("eager/end/"):
                assert_close(saved["graph/" + key[6:]], saved[key], rtol=1e-4, scale_rtol=1e-5,
                             what=f"{case} rank {r} {key[10:]}")


@pytest.mark.parametrize("case", CASES)
def test_ranks_end_equal_on_cuda(results, case) -> None:
    a, b = results[(0, case)], results[(1, case)]
    for key in a:
        if key.startswith("graph/end/") and not ("local" in case and "moving" in key):
            np.testing.assert_array_equal(a[key], b[key], err_msg=f"{case}: {key} differs between ranks")


def test_loss_scale_overflow_on_one_rank_skips_the_cuda_step_everywhere(results) -> None:
    for r in range(2):
        saved = results[(r, "losscale")]
        np.testing.assert_array_equal(saved["graph/flags"], [False, False, True, False])
        np.testing.assert_array_equal(saved["graph/flags"], saved["eager/flags"])
        np.testing.assert_array_equal(saved["graph/scales"], saved["eager/scales"])
        assert_close(saved["graph/weights"], saved["eager/weights"], rtol=1e-4, scale_rtol=1e-5,
                     what=f"rank {r} weights")


def test_model_train_runs_compiled_on_cuda(results) -> None:
    for r in range(2):
        assert bool(results[(r, "model")]["compiled"])
    for key in results[(0, "model")]:
        if key.startswith("end/"):
            np.testing.assert_array_equal(results[(0, "model")][key], results[(1, "model")][key])
