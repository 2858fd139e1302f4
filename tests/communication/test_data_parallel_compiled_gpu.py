"""Compiled data-parallel training with each rank's step on the CUDA execution provider (2 ranks on one GPU
under mpirun): the trajectory equals the eager data-parallel one and the ranks end equal. The all-reduce runs
on host buffers (the MPI from the package index is not CUDA-aware), so gradients cross to the host at each
bucket boundary; parameters and optimizer state stay on the device."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from tests.communication import dp_compiled_results as dp
from tests.communication._launch import needs_mpirun
from tests.tolerance import assert_close

pytestmark = [needs_mpirun, pytest.mark.gpu,
              pytest.mark.skipif("CUDAExecutionProvider" not in ort.get_available_providers(),
                                 reason="needs onnxruntime-gpu and a CUDA device")]


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    return dp.run(tmp_path_factory, "dp_compiled_gpu", "GPU", timeout=400)


@pytest.mark.parametrize("case", [*dp.CASES, "functional"])
def test_compiled_trajectory_on_cuda_equals_eager(results, case) -> None:
    dp.check_trajectory_equals_eager(results, case)


@pytest.mark.parametrize("case", dp.CASES)
def test_ranks_end_equal_on_cuda(results, case) -> None:
    dp.check_ranks_end_equal(results, case)


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
