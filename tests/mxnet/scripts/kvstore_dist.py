"""Run on 2 ranks by tests/mxnet/test_kvstore_dist.py: a 'dist_sync' KVStore (rank 0's initial values, pushes
summed over the ranks, the optimizer run by the store) and a Module trained with kvstore='dist_sync' on
different data per rank; prints a JSON line per rank (rank 0 on stdout, rank 1 on stderr)."""
from __future__ import annotations

import json
import sys

import numpy as np

import cellonnx.mxnet as mx


def main() -> None:
    kv = mx.kv.create("dist_sync")
    rank = kv.rank
    out: dict = {"rank": rank, "num_workers": kv.num_workers, "type": kv.type}
    kv.init(0, mx.nd.ones((2,)) * (rank + 1))
    got = mx.nd.zeros((2,))
    kv.pull(0, out=got)
    out["init"] = got.asnumpy().tolist()
    kv.push(0, mx.nd.ones((2,)) * (rank + 1))
    kv.pull(0, out=got)
    out["push_sum"] = got.asnumpy().tolist()
    kv2 = mx.kv.create("dist_sync")
    kv2.set_optimizer(mx.optimizer.SGD(learning_rate=0.1))
    kv2.init("w", mx.nd.ones((2,)))
    kv2.pushpull("w", mx.nd.ones((2,)) * (rank + 1), out=got)
    out["optimizer"] = got.asnumpy().tolist()
    rng = np.random.default_rng(rank)
    x = rng.normal(size=(8, 3)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.float32)
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc"),
                               name="softmax")
    mod = mx.mod.Module(net)
    mod.fit(mx.io.NDArrayIter(x, y, batch_size=4), num_epoch=2, kvstore="dist_sync",
            initializer=mx.init.Constant(0.1), optimizer_params={"learning_rate": 0.5})
    out["fc_weight"] = mod.get_params()[0]["fc_weight"].asnumpy().tolist()
    # one stream per rank, so that the two lines cannot interleave
    print(json.dumps(out), flush=True, file=sys.stdout if rank == 0 else sys.stderr)


if __name__ == "__main__":
    main()
