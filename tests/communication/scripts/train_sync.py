"""Under mpirun: Model.train with a synchronized batch norm on a sharded dataset (rank 0 saves the
checkpoint), and gluon's SyncBatchNorm with Trainer(kvstore='dist_sync'). Writes OUT/rank{r}_{name}.npz.

    mpirun -n 2 python train_sync.py OUT
"""
from __future__ import annotations

import sys

import numpy as np

import cellonnx as ms
from cellonnx import dataset as ds
from cellonnx import gluon, nn
from cellonnx.communication import get_group_size, get_rank, init
from tests.communication.sync_nets import GLOBAL_BATCH, STEPS, data, gluon_net, sync_net


def main(out: str) -> None:
    init()
    rank, size = get_rank(), get_group_size()
    ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)

    # E: Model.train, every rank reading its shard of the data set
    net = sync_net(seed=rank)   # the reducer broadcasts rank 0's weights
    x, y = data(GLOBAL_BATCH * STEPS)
    source = ds.NumpySlicesDataset((x, y), ["x", "y"], shuffle=False, num_shards=size, shard_id=rank)
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9))
    model.train(1, source.batch(GLOBAL_BATCH // size))
    state = {p.name: p.asnumpy() for p in net.get_parameters()}
    np.savez(f"{out}/rank{rank}_model.npz", **state)
    if rank == 0:
        ms.save_checkpoint(net, f"{out}/net.ckpt")

    # F: gluon, statistics and gradients summed across the ranks
    block = gluon_net(num_devices=size)
    trainer = gluon.Trainer(block.collect_params(), "sgd", {"learning_rate": 0.1}, kvstore="dist_sync")
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    n = GLOBAL_BATCH // size
    for i in range(STEPS):
        xs, ys = data(seed=1 + i)
        with gluon.autograd.record():
            rows = slice(rank * n, (rank + 1) * n)
            loss = loss_fn(block(ms.Tensor(xs[rows])), ms.Tensor(ys[rows]))
        loss.backward()
        trainer.step(GLOBAL_BATCH)
    params = block.collect_params().items()
    np.savez(f"{out}/rank{rank}_gluon.npz", **{k: p.data().asnumpy() for k, p in params})


if __name__ == "__main__":
    main(sys.argv[1])
