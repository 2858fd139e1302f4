"""Compiled data-parallel training (GRAPH_MODE, 2 ranks under mpirun): the step cut around the gradient
all-reduce (and SyncBatchNorm's) against the eager data-parallel step and against one process training on
the concatenated batch; loss-scale overflow on one rank; Model.train."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn
from tests.communication import dp_compiled_results as dp
from tests.communication._launch import needs_mpirun
from tests.communication.scripts import train_dp_compiled as script
from tests.tolerance import assert_close

pytestmark = needs_mpirun

CASES = dp.CASES


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    return dp.run(tmp_path_factory, "dp_compiled")


@pytest.mark.parametrize("case", [*CASES, "functional"])
def test_compiled_trajectory_equals_eager(results, case) -> None:
    dp.check_trajectory_equals_eager(results, case)


@pytest.mark.parametrize("case", CASES)
def test_ranks_end_equal(results, case) -> None:
    dp.check_ranks_end_equal(results, case)


@pytest.mark.parametrize("case", [c for c in CASES if "local" not in c])
def test_compiled_equals_one_process_on_the_whole_batch(results, case) -> None:
    kind, norm, opt_name = case.split("_")
    saved = results[(0, case)]
    net, step = script.make(kind, norm, opt_name)   # no init(): SyncBatchNorm is a BatchNorm of one process
    for p in net.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), saved[f"graph/start/{p.name}"])
    for x, y in script.batches(kind):
        step(ms.Tensor(x), ms.Tensor(y))
    for p in net.get_parameters():
        assert_close(saved[f"graph/end/{p.name}"], p.asnumpy(), rtol=1e-4, scale_rtol=1e-5,
                     what=f"{case} {p.name}")


def test_the_step_is_cut_around_the_buckets(results) -> None:
    # the CNN's gradients fill several buckets; each starts before later graphs run (overlap), and the
    # SyncBatchNorm case also crosses to the host inside the forward and backward passes
    actions = results[(0, "cnn_none_momentum")]["graph/actions"].tolist()
    starts = [i for i, a in enumerate(actions) if a == "start"]
    assert len(starts) > 1
    assert any(a == "run" for a in actions[starts[0] + 1:])
    assert actions.index("finish") > starts[0] + 1
    sync = results[(0, "cnn_sync_adam")]["graph/actions"].tolist()
    assert sync.count("start") > len(starts)


def test_export_of_a_data_parallel_step_says_why_not(results) -> None:
    msg = str(results[(0, "cnn_sync_adam")]["graph/export_error"])
    assert "collectives across ranks (AllReduce, DistributedGradReducer" in msg


def test_loss_scale_overflow_on_one_rank_skips_the_compiled_step_everywhere(results) -> None:
    for r in range(2):
        saved = results[(r, "losscale")]
        for mode in ("eager", "graph"):
            assert saved[f"{mode}/flags"].tolist() == [False, False, True, False]
            assert saved[f"{mode}/scales"].tolist() == [1024.0, 1024.0, 512.0, 512.0]
        w = saved["graph/weights"]
        np.testing.assert_array_equal(w[2], w[1])
        assert not np.array_equal(w[3], w[2])
        assert_close(w, saved["eager/weights"], rtol=1e-4, scale_rtol=1e-5, what=f"rank {r} weights")
        np.testing.assert_array_equal(w, results[(0, "losscale")]["graph/weights"])


def test_model_train_runs_compiled_and_matches_one_process(results) -> None:
    saved = results[(0, "model")]
    assert bool(saved["compiled"])
    np.testing.assert_array_equal(saved["end/0.weight"], results[(1, "model")]["end/0.weight"])
    ms.set_seed(7)
    net = script.cnn("none")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    step.set_train()
    xs = np.concatenate([x for x, _ in script.batches("cnn")])
    ys = np.concatenate([y for _, y in script.batches("cnn")])
    for k in range(0, len(xs), script.GLOBAL_BATCH):   # the two shards of a step make one global batch
        step(ms.Tensor(xs[k:k + script.GLOBAL_BATCH]), ms.Tensor(ys[k:k + script.GLOBAL_BATCH]))
    for p in net.trainable_params():
        assert_close(saved[f"end/{p.name}"], p.asnumpy(), rtol=1e-4, scale_rtol=1e-5, what=p.name)
