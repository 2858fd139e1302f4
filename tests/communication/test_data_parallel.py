"""Data-parallel training over MPI (2 and 4 ranks under mpirun) against one process training on the whole
batch: LeNet-5 through TrainOneStepCell, a float64 MLP through value_and_grad + DistributedGradReducer,
loss-scale overflow on one rank, and the collectives (and their gradients) against NumPy."""
from __future__ import annotations

import numpy as np
import pytest
from cellonnx.models.lenet import LeNet5

import cellonnx as ms
from cellonnx import nn
from tests.communication._launch import mpirun_once, needs_mpirun
from tests.tolerance import assert_close

pytestmark = needs_mpirun


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    out = mpirun_once(tmp_path_factory, "dp", "train_dp.py", n=2)
    return {f"{r}_{name}": dict(np.load(out / f"rank{r}_{name}.npz"))
            for r in range(2) for name in ("lenet", "mlp", "losscale", "collectives")}


@pytest.fixture(scope="module")
def results4(tmp_path_factory) -> dict:
    """4 ranks on this machine's 2 cores (oversubscribed), without the LeNet-5 part."""
    out = mpirun_once(tmp_path_factory, "dp4", "train_dp.py", "--quick", n=4)
    return {f"{r}_{name}": dict(np.load(out / f"rank{r}_{name}.npz"))
            for r in range(4) for name in ("mlp", "losscale", "collectives")}


def _load(net: nn.Cell, saved: dict, prefix: str) -> None:
    for p in net.trainable_params():
        p.set_data(ms.Tensor(saved[f"{prefix}/{p.name}"]))


def _batches(shape: tuple, classes: int, steps: int = 5, batch: int = 8) -> list:
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((batch,) + shape).astype(np.float32),
             rng.integers(0, classes, batch).astype(np.int32)) for _ in range(steps)]


def _same_on_ranks(results: dict, name: str) -> None:
    a = results[f"0_{name}"]
    for r in range(1, 4):
        b = results.get(f"{r}_{name}")
        for key in a if b is not None else ():
            if key.startswith(("start/", "end/")):
                np.testing.assert_array_equal(a[key], b[key], err_msg=f"{name}: {key} differs on rank {r}")


def test_lenet_train_one_step_matches_one_process(results) -> None:
    _same_on_ranks(results, "lenet")  # broadcast at the start, identical all-reduced updates after
    saved = results["0_lenet"]
    net = LeNet5(10)
    _load(net, saved, "start")
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn),
                               nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9))
    for x, y in _batches((1, 32, 32), 10):
        step(ms.Tensor(x), ms.Tensor(y))
    for p in net.trainable_params():
        assert_close(saved[f"end/{p.name}"], p.asnumpy(), rtol=1e-5, scale_rtol=1e-5, what=p.name)
    # several buckets, and all-reduces started while the backward pass was still running
    assert int(saved["buckets"]) > 1
    assert (saved["overlapped"] >= 1).all()


@pytest.mark.parametrize("ranks", [2, 4])
def test_functional_reducer_float64_matches_one_process(ranks, request) -> None:
    results = request.getfixturevalue("results" if ranks == 2 else "results4")
    _same_on_ranks(results, "mlp")
    saved = results["0_mlp"]
    mlp = nn.SequentialCell([nn.Dense(6, 16, dtype=ms.float64), nn.Tanh(), nn.Dense(16, 3, dtype=ms.float64)])
    _load(mlp, saved, "start")
    opt = nn.SGD(mlp.trainable_params(), learning_rate=0.1)
    ce = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    grad_fn = ms.value_and_grad(lambda x, y: ce(mlp(x), y), None, opt.parameters)
    for x, y in _batches((6,), 3):
        _, grads = grad_fn(ms.Tensor(x.astype(np.float64)), ms.Tensor(y))
        opt(grads)
    for p in mlp.trainable_params():
        np.testing.assert_allclose(saved[f"end/{p.name}"], p.asnumpy(), rtol=1e-12, atol=1e-14,
                                   err_msg=p.name)


@pytest.mark.parametrize("ranks", [2, 4])
def test_loss_scale_overflow_on_one_rank_skips_the_step_everywhere(ranks, request) -> None:
    results = request.getfixturevalue("results" if ranks == 2 else "results4")
    for r in range(ranks):
        assert results[f"{r}_losscale"]["flags"].tolist() == [False, False, True, False]
        np.testing.assert_array_equal(results[f"{r}_losscale"]["weights"], results["0_losscale"]["weights"])
    w0 = results["0_losscale"]["weights"]
    np.testing.assert_array_equal(w0[2], w0[1])      # the overflowing step changed nothing
    assert not np.array_equal(w0[3], w0[2])


@pytest.mark.parametrize(("ranks", "rank"), [(2, 0), (2, 1), (4, 0), (4, 3)])
def test_collectives_against_numpy(ranks, rank, request) -> None:
    saved = request.getfixturevalue("results" if ranks == 2 else "results4")[f"{rank}_collectives"]
    names = sorted(k[4:] for k in saved if k.startswith("got/"))
    assert len(names) >= 10
    for name in names:
        np.testing.assert_allclose(saved[f"got/{name}"], saved[f"want/{name}"], rtol=1e-12, err_msg=name)
