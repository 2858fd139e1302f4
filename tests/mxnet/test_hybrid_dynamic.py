"""Hybridized Gluon blocks calling mx.np / mx.nd operators whose shape logic follows a dynamic batch: the
graph traced at one batch size runs at others as eager does; a NumPy-run function refuses to be traced,
naming itself (tests/graph/test_dynamic_axes.py checks every operator row so, every free axis dynamic)."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.ops.prims._eager import NotExportable
from tests.tolerance import assert_close


class _NumpyOps(mx.gluon.HybridBlock):
    def forward(self, x):
        np = mx.np
        filled = np.full_like(x, 0.5) * x
        _, column = np.broadcast_arrays(x, x[:, :1])
        return filled + np.sum(column, axis=1, keepdims=True) + np.ones_like(x, dtype="float32")


class _Positions(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return F.broadcast_add(x, F.expand_dims(F.contrib.arange_like(x, axis=0), 1))


class _Unique(mx.gluon.HybridBlock):
    def forward(self, x):
        return mx.np.unique(x)


@pytest.mark.parametrize("make, array", [(_NumpyOps, mx.np.array), (_Positions, mx.nd.array)],
                         ids=["mx.np", "mx.nd"])
def test_hybridized_graph_follows_the_batch(make, array) -> None:
    net, eager = make(), make()  # no parameters: the same function
    net.hybridize()
    rng = np.random.default_rng(0)
    with mx.util.np_array(array is mx.np.array), mx.util.np_shape(array is mx.np.array):
        for batch in (2, 5, 3):  # one graph, traced at the first size
            x = rng.normal(size=(batch, 4)).astype(np.float32)
            got, want = net(array(x)).asnumpy(), eager(array(x)).asnumpy()
            assert got.shape == want.shape == (batch, 4)
            assert_close(got, want, rtol=1e-6, what=f"batch {batch}")
        assert len(net._compiled) == 1


def test_numpy_run_function_refuses_to_be_traced() -> None:
    net = _Unique()
    net.hybridize()
    with mx.util.np_array(True), mx.util.np_shape(True):
        x = mx.np.array([3.0, 1.0, 1.0])
        np.testing.assert_array_equal(net.__class__.forward(net, x).asnumpy(), [1.0, 3.0])  # eagerly: NumPy's
        with pytest.raises(NotExportable, match=r"np\.unique runs NumPy on the arrays' values"):
            net(x)
