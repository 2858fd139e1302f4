"""The first training call of a hybridized Gluon network (record, loss, backward: tracing and compiling its
forward and backward graphs, then running them), for networks of the porting suite, built from the ported
wheels' code (tests/ports) with the suite's parameter values.

    .venv/bin/python bench/hybrid_first_call.py [NAME ...]   (default: mx1_mobilenetv2_0.25 gcv_senet)
"""
from __future__ import annotations

import importlib
import sys
import tempfile
import time
from pathlib import Path

import bench_env  # noqa: F401  first: PYTHONPATH's .pth files

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.ports import networks_mxnet, wheels
from tests.ports import test_ports_mxnet as suite
from tests.ports.conftest import port_member


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="cellonnx_ported_"))
    wheels.extract(list(wheels.manifest()), root, transform=port_member)
    sys.path.insert(0, str(root))
    import cellonnx.mxnet as mx
    from cellonnx.mxnet import autograd, gluon

    for name in sys.argv[1:] or ["mx1_mobilenetv2_0.25", "gcv_senet"]:
        net = suite.build(name, importlib.import_module)
        net.hybridize()
        x, want = suite.nd_inputs(name), suite.fixture(name)
        make = mx.np.array if "reference" in suite.NETWORKS[name] else mx.nd.array
        start = time.perf_counter()
        with autograd.record():
            loss = gluon.loss.SoftmaxCrossEntropyLoss()(networks_mxnet.flat(net(*x))[0], make(want["label"]))
        loss.backward()
        print(f"{name}: first hybridized training call {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
