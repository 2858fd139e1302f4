"""Gluon 1.x code on cellonnx.mxnet against real MXNet 1.9.1 (tests/fixtures/mxnet/gen_gluon1.py): the cases
of gluon1_cases.py give MXNet's collect_params() names, shapes and grad_reqs, its structural
(save_parameters) names, the names ``collect_params().save(strip_prefix=...)`` writes and those of an
exported model's parameters, and MXNet's outputs eagerly and hybridized."""
from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest

import cellonnx.mxnet as mx
from cellonnx.gluon import naming
from tests.mxnet import gluon1_cases
from tests.tolerance import assert_close

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "gluon1"
NAMES = json.loads((HERE / "names.json").read_text())
OUTPUTS = dict(np.load(HERE / "outputs.npz"))


def value(name: str, shape: tuple) -> np.ndarray:
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    low = 0.5 if name.endswith("running_var") else -1.0
    return rng.uniform(low, 1, shape).astype(np.float32)


# built only from gluon.nn layers with no 1.x marker (name_scope, prefix=, params=, hybrid_forward): the same
# code in Gluon 1.x and 2.x, named as 2.x unless the naming mode says 1.x
PLAIN = {"dense_alone", "no_scope"}


def make(case: str) -> tuple[Any, str]:
    with mx.name.NameManager(), naming.mode("1.x" if case in PLAIN else "auto"):
        return gluon1_cases.CASES[case](mx)


def build(case: str) -> tuple[Any, Any]:
    net, kind = make(case)
    x = mx.nd.array(gluon1_cases.INPUTS[kind])
    net.initialize()
    net(x)
    for key, _, _, p in net._walk():
        p.set_data(mx.nd.array(value(key, p.shape)))
    return net, x


@pytest.mark.parametrize("case", sorted(gluon1_cases.CASES))
def test_names_match_mxnet(case: str) -> None:
    want = NAMES[case]
    net, _ = build(case)
    params = net.collect_params()
    assert net.prefix == want["prefix"]
    assert list(params) == want["names"]
    assert [list(p.shape) for p in params.values()] == want["shapes"]
    assert [p.grad_req for p in params.values()] == want["grad_reqs"]
    assert [key for key, _, _, _ in net._walk()] == want["structural"]


@pytest.mark.parametrize("case", sorted(gluon1_cases.CASES))
def test_outputs_match_mxnet(case: str) -> None:
    net, x = build(case)
    out = net(x)
    assert isinstance(out, mx.nd.NDArray)
    assert_close(out.asnumpy(), OUTPUTS[f"{case}/eager"], rtol=1e-5, scale_rtol=1e-6, what=f"{case} eager")
    if f"{case}/hybrid" in OUTPUTS:
        net.hybridize()
        assert_close(net(x).asnumpy(), OUTPUTS[f"{case}/hybrid"], rtol=1e-5, scale_rtol=1e-6,
                     what=f"{case} hybridized")
        assert net._compiled, f"{case}: the hybridized block ran eagerly"


@pytest.mark.parametrize("case", sorted(gluon1_cases.CASES))
def test_saved_and_exported_names(case: str, tmp_path: Path) -> None:
    want = NAMES[case]
    net, x = build(case)
    params = net.collect_params()
    if isinstance(want["saved"], str):
        with pytest.raises(ValueError, match="is to be striped before saving"):
            params.save(str(tmp_path / "p.params"), strip_prefix=net.prefix)
    else:
        params.save(str(tmp_path / "p.params"), strip_prefix=net.prefix)
        assert sorted(mx.nd.load(str(tmp_path / "p.params"))) == want["saved"]
        fresh, _ = make(case)
        fresh.load_parameters(str(tmp_path / "p.params"))  # 1.x's legacy files: names without the prefix
        np.testing.assert_array_equal(fresh(x).asnumpy(), net(x).asnumpy())
    if "exported" in want:
        net.hybridize()
        net(x)
        model = onnx.load(net.export(str(tmp_path / "net")))
        names = sorted(t.name for t in model.graph.initializer if t.name in want["names"])
        assert names == sorted(n[4:] for n in want["exported"])


@pytest.mark.parametrize("case", sorted(PLAIN))
def test_plain_layer_code_follows_2x_naming_by_default(case: str) -> None:
    with mx.name.NameManager():
        net, _ = gluon1_cases.CASES[case](mx)
    assert list(net.collect_params()) == [key for key, _, _, _ in net._walk()]


def test_hybrid_forward_gets_nd_then_sym() -> None:
    seen = []

    class Probe(mx.gluon.HybridBlock):
        def hybrid_forward(self, F: Any, x: Any) -> Any:
            seen.append(F)
            return F.relu(x)

    net = Probe()
    x = mx.nd.array([[-1.0, 2.0]])
    net(x)
    net.hybridize()
    net(x)
    assert seen == [mx.nd, mx.sym]


def test_params_argument_shares_parameters() -> None:
    nn = mx.gluon.nn
    first = nn.Dense(3, in_units=2)
    second = nn.Dense(3, in_units=2, params=first.collect_params())
    assert second.weight is first.weight and second.bias is first.bias
    first.initialize()
    x = mx.nd.array([[1.0, 2.0]])
    np.testing.assert_array_equal(first(x).asnumpy(), second(x).asnumpy())


def test_parameter_dict_api() -> None:
    net = mx.gluon.nn.Dense(2, in_units=3, prefix="fc_")
    params = net.collect_params()
    assert isinstance(params, mx.gluon.ParameterDict) and params.prefix == "fc_"
    params.initialize(mx.init.One())
    assert net.weight.data().asnumpy().tolist() == [[1.0, 1.0, 1.0]] * 2
    params.setattr("lr_mult", 0.5)
    assert net.weight.lr_mult == 0.5
    assert list(net.collect_params(".*weight")) == ["fc_weight"]
    with pytest.raises(AssertionError, match="does not match"):
        net.params.get("weight", shape=(5, 3))
