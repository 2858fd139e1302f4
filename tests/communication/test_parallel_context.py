"""set_auto_parallel_context / get / reset and ParallelMode, as MindSpore's; the modes cellonnx does not run
say so."""
from __future__ import annotations

import pytest

import cellonnx as ms
from cellonnx import nn


@pytest.fixture(autouse=True)
def _reset():
    ms.reset_auto_parallel_context()
    yield
    ms.reset_auto_parallel_context()


def test_defaults_set_and_reset() -> None:
    assert ms.get_auto_parallel_context("parallel_mode") == ms.ParallelMode.STAND_ALONE == "stand_alone"
    assert ms.get_auto_parallel_context("gradients_mean") is False
    assert ms.get_auto_parallel_context("device_num") == 1
    assert ms.get_auto_parallel_context("parameter_broadcast") is False
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 device_num=4, all_reduce_fusion_config=[2, 5])
    assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert ms.get_auto_parallel_context("gradients_mean") is True
    assert ms.get_auto_parallel_context("device_num") == 4
    assert ms.get_auto_parallel_context("all_reduce_fusion_config") == [2, 5]
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("device_num") == 1
    assert ms.ParallelMode.MODE_LIST == ["stand_alone", "data_parallel", "hybrid_parallel",
                                         "semi_auto_parallel", "auto_parallel"]


@pytest.mark.parametrize("kwargs", [{"parallel_mode": "semi_auto_parallel"},
                                    {"parallel_mode": "auto_parallel"}, {"pipeline_stages": 2},
                                    {"enable_parallel_optimizer": True}])
def test_sharding_modes_are_refused_with_the_reason(kwargs) -> None:
    with pytest.raises(NotImplementedError, match="data-parallel only"):
        ms.set_auto_parallel_context(**kwargs)
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"


def test_bad_keys_and_values() -> None:
    with pytest.raises(ValueError, match="not recognized"):
        ms.set_auto_parallel_context(no_such_key=1)
    with pytest.raises(ValueError, match="parallel_mode"):
        ms.set_auto_parallel_context(parallel_mode="model_parallel")
    with pytest.raises(TypeError, match="gradients_mean"):
        ms.set_auto_parallel_context(gradients_mean=1)
    with pytest.raises(ValueError, match="not recognized"):
        ms.get_auto_parallel_context("no_such_key")


def test_stand_alone_training_has_no_reducer() -> None:
    net = nn.Dense(2, 1)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params()))
    assert step.reducer_flag is False
    assert not isinstance(step.grad_reducer, nn.Cell)


def test_distributed_sampler_shards_cover_the_data_once_per_epoch() -> None:
    import numpy as np

    from cellonnx import dataset as ds

    x = np.arange(10, dtype=np.float32)
    shards = []
    for rank in range(3):
        data = ds.NumpySlicesDataset({"x": x}, sampler=ds.DistributedSampler(3, rank, shuffle=True))
        shards.append([float(row["x"]) for row in data.create_dict_iterator(output_numpy=True)])
    assert [len(s) for s in shards] == [4, 4, 4]          # wrapped around to equal counts
    assert set().union(*map(set, shards)) == set(range(10))
    plain = ds.NumpySlicesDataset({"x": x}, sampler=ds.DistributedSampler(2, 1, shuffle=False))
    assert [float(r["x"]) for r in plain.create_dict_iterator(output_numpy=True)] == [1, 3, 5, 7, 9]
    with pytest.raises(ValueError, match="shard_id"):
        ds.DistributedSampler(2, 2)
