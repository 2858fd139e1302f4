"""Batch statistics synchronized across 2 ranks (mpirun) against one process with the whole batch: Model.train
on a sharded data set with a synchronized batch norm (and the checkpoint rank 0 saves, loaded here), and
gluon's SyncBatchNorm with Trainer(kvstore='dist_sync')."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import dataset as ds
from cellonnx import gluon, nn
from tests.communication._launch import mpirun_once, needs_mpirun
from tests.communication.sync_nets import GLOBAL_BATCH, STEPS, data, gluon_net, sync_net
from tests.tolerance import assert_close

pytestmark = needs_mpirun


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return mpirun_once(tmp_path_factory, "sync", "train_sync.py", n=2)


def test_model_train_with_sync_batch_norm_matches_one_process(out) -> None:
    got = [dict(np.load(out / f"rank{r}_model.npz")) for r in range(2)]
    for key in got[0]:
        np.testing.assert_array_equal(got[0][key], got[1][key], err_msg=key)
    net = sync_net(seed=0)
    x, y = data(GLOBAL_BATCH * STEPS)
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9))
    model.train(1, ds.NumpySlicesDataset((x, y), ["x", "y"], shuffle=False).batch(GLOBAL_BATCH))
    for p in net.get_parameters():
        assert_close(got[0][p.name], p.asnumpy(), rtol=1e-5, scale_rtol=1e-5, what=p.name)
    # the checkpoint written by rank 0 loads into one process
    single = sync_net(seed=5)
    ms.load_param_into_net(single, ms.load_checkpoint(str(out / "net.ckpt")))
    for p in single.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), got[0][p.name], err_msg=p.name)


def test_gluon_sync_batch_norm_and_dist_sync_trainer_match_one_process(out) -> None:
    got = [dict(np.load(out / f"rank{r}_gluon.npz")) for r in range(2)]
    net = gluon_net(num_devices=1)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    for i in range(STEPS):
        xs, ys = data(seed=1 + i)
        with gluon.autograd.record():
            loss = loss_fn(net(ms.Tensor(xs)), ms.Tensor(ys))
        loss.backward()
        trainer.step(GLOBAL_BATCH)
    params = net.collect_params()
    assert sorted(params) == sorted(got[0])
    for key, p in params.items():
        np.testing.assert_array_equal(got[0][key], got[1][key], err_msg=key)
        assert_close(got[0][key], p.data().asnumpy(), rtol=1e-5, scale_rtol=1e-5, what=key)
