"""Gluon parameters' ``data()`` (MXNet's array, printing as one, written through to the parameter) and
mx.np's rounding print as real MXNet 1.9.1's (fixtures: tests/fixtures/mxnet/gen_printing.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import cellonnx.mxnet as mx
from tests.mxnet import printing_cases

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "printing.json"


def test_fixture_is_mxnet_1_9_1() -> None:
    assert json.loads(FIXTURE.read_text())["meta/version"] == "1.9.1"


@pytest.mark.parametrize("name", sorted(printing_cases.SNIPPETS))
def test_prints_as_mxnet(name: str) -> None:
    want = json.loads(FIXTURE.read_text())[name]
    got = printing_cases.run(mx, printing_cases.SNIPPETS[name])
    assert got == want


def test_data_passes_gradients_to_its_parameter() -> None:
    net = mx.gluon.nn.Dense(3, in_units=2)
    net.initialize(mx.init.Constant(0.5))
    x = mx.nd.array([[1.0, 2.0]])
    with mx.autograd.record():
        y = (mx.nd.dot(x, net.weight.data().T) * mx.nd.array([[1.0, 2.0, 3.0]])).sum()
    y.backward()
    assert net.weight.grad().asnumpy().tolist() == [[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]


def test_data_in_a_hybridized_forward() -> None:
    class Scale(mx.gluon.HybridBlock):
        def __init__(self) -> None:
            super().__init__()
            self.w = mx.gluon.Parameter("w", shape=(2,), init=mx.init.Constant(3.0))

        def forward(self, x):
            return x * self.w.data()

    mx.npx.set_np()
    try:
        net = Scale()
        net.initialize()
        x = mx.np.array([[1.0, 2.0]])
        eager = net(x).asnumpy()
        net.hybridize()
        assert net(x).asnumpy().tolist() == eager.tolist() == [[3.0, 6.0]]
    finally:
        mx.npx.reset_np()
