"""Gradients computed straight into DistributedGradReducer's buckets (2 ranks under mpirun): the convolution
and dense weight gradients are written in their bucket's buffer by the backward pass, the buffers are reused
from step to step unless the caller still holds the last step's gradients, the reducer leaves its input
gradients as they were, and the reduced gradients are the mean over the ranks (against NumPy)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.communication._launch import mpirun_once, needs_mpirun
from tests.communication.scripts import grad_buckets as script
from tests.tolerance import assert_close

pytestmark = needs_mpirun

NAMES = ["0.weight", "0.bias", "1.gamma", "1.beta", "3.weight", "5.weight", "5.bias"]
WRITTEN = {"0.weight", "3.weight", "5.weight"}


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> list[dict]:
    out = mpirun_once(tmp_path_factory, "grad_buckets", "grad_buckets.py", n=2, timeout=120)
    return [dict(np.load(out / f"rank{r}.npz")) for r in range(2)]


def test_weight_gradients_are_written_into_their_buckets(results) -> None:
    for saved in results:
        assert saved["buckets"].tolist() == [2, 4, 1]
        for k in range(script.STEPS + 1):
            assert int(saved[f"{k}/written"]) == len(WRITTEN)
            assert {n for n, held in zip(NAMES, saved[f"{k}/in_bucket"]) if held} == WRITTEN


def test_buffers_reused_across_steps_unless_still_held(results) -> None:
    for saved in results:
        for k in range(script.STEPS):
            assert saved[f"{k}/same_grad_buffers"].all() and saved[f"{k}/same_result_buffers"].all()
        # the step after one whose gradients the caller kept: fresh buffers, the kept values intact
        assert not saved[f"{script.STEPS}/same_grad_buffers"].any()
        assert not saved[f"{script.STEPS}/same_result_buffers"].any()
        last = script.STEPS - 1
        for n in NAMES:
            np.testing.assert_array_equal(saved[f"held/local/{n}"], saved[f"{last}/local/{n}"], err_msg=n)
            np.testing.assert_array_equal(saved[f"held/reduced/{n}"], saved[f"{last}/reduced/{n}"], err_msg=n)


def test_reduced_is_the_mean_over_ranks_and_the_input_is_untouched(results) -> None:
    for k in range(script.STEPS + 1):
        for n in NAMES:
            want = np.mean([saved[f"{k}/local/{n}"].astype(np.float64) for saved in results], axis=0)
            for r, saved in enumerate(results):
                np.testing.assert_array_equal(saved[f"{k}/after/{n}"], saved[f"{k}/local/{n}"],
                                              err_msg=f"step {k} rank {r} {n}")
                assert_close(saved[f"{k}/reduced/{n}"], want, rtol=1e-6, scale_rtol=1e-6,
                             what=f"step {k} rank {r} {n}")
            np.testing.assert_array_equal(results[0][f"{k}/reduced/{n}"], results[1][f"{k}/reduced/{n}"])


def test_the_same_gradients_reduced_twice_are_read_in_place(results) -> None:
    for saved in results:
        assert saved["twice/same_grad_buffers"].all()
        for n in NAMES:
            np.testing.assert_array_equal(saved[f"twice/second/{n}"], saved[f"twice/first/{n}"], err_msg=n)


def test_gradients_replaced_after_the_backward_pass(results) -> None:
    for n in NAMES:
        want = np.mean([2 * saved[f"replaced/local/{n}"].astype(np.float64) for saved in results], axis=0)
        for r, saved in enumerate(results):
            np.testing.assert_array_equal(saved[f"replaced/after/{n}"], saved[f"replaced/local/{n}"],
                                          err_msg=f"rank {r} {n}")
            assert_close(saved[f"replaced/reduced/{n}"], want, rtol=1e-6, scale_rtol=1e-6,
                         what=f"rank {r} {n}")
