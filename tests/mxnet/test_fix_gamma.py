"""BatchNorm(fix_gamma=True) as MXNet 1.9.1 runs it: the forward writes 1 into gamma and gamma's gradient is
0, with MXNet's outputs and other gradients, through mx.nd.BatchNorm, a bound mx.sym executor and
gluon.SymbolBlock eager and hybridized (fixture: tests/fixtures/mxnet/fix_gamma.npz from gen_fix_gamma.py);
Gluon's nn.BatchNorm(scale=False) keeps gamma at 1 with grad_req 'null'."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.tolerance import assert_close

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "fix_gamma.npz"
WANT = dict(np.load(FIXTURE))


def _nd() -> dict[str, Any]:
    x, g, b = (mx.nd.array(WANT[k]) for k in ("x", "gamma", "beta"))
    for a in (x, g, b):
        a.attach_grad()
    with mx.autograd.record():
        out = mx.nd.BatchNorm(x, g, b, mx.nd.zeros(3), mx.nd.ones(3), fix_gamma=True)
    out.backward(mx.nd.array(WANT["head"]))
    return {"out": out, "gamma": g, "gamma_grad": g.grad, "beta_grad": b.grad, "x_grad": x.grad}


def _symbol() -> Any:
    return mx.sym.BatchNorm(mx.sym.Variable("data"), fix_gamma=True, name="bn")


def _executor() -> dict[str, Any]:
    ex = _symbol().simple_bind(mx.cpu(), data=WANT["x"].shape)
    ex.arg_dict["data"][:] = WANT["x"]
    ex.arg_dict["bn_gamma"][:] = WANT["gamma"]
    ex.arg_dict["bn_beta"][:] = WANT["beta"]
    out = ex.forward(is_train=True)[0]
    ex.backward(mx.nd.array(WANT["head"]))
    return {"out": out, "gamma": ex.arg_dict["bn_gamma"], "gamma_grad": ex.grad_dict["bn_gamma"],
            "beta_grad": ex.grad_dict["bn_beta"], "x_grad": ex.grad_dict["data"]}


def _symbol_block(hybrid: bool) -> dict[str, Any]:
    net = mx.gluon.SymbolBlock(_symbol(), [mx.sym.Variable("data")])
    net.initialize()
    params = net.collect_params()
    params["bn_gamma"].set_data(mx.nd.array(WANT["gamma"]))
    params["bn_beta"].set_data(mx.nd.array(WANT["beta"]))
    if hybrid:
        net.hybridize()
    x = mx.nd.array(WANT["x"])
    x.attach_grad()
    with mx.autograd.record():
        out = net(x)
    out.backward(mx.nd.array(WANT["head"]))
    return {"out": out, "gamma": params["bn_gamma"].data(), "gamma_grad": params["bn_gamma"].grad(),
            "beta_grad": params["bn_beta"].grad(), "x_grad": x.grad}


PATHS = {"nd": _nd, "executor": _executor, "symbolblock": lambda: _symbol_block(False),
         "symbolblock_hybrid": lambda: _symbol_block(True)}


@pytest.mark.parametrize("path", list(PATHS))
def test_fix_gamma_matches_mxnet(path: str) -> None:
    got = PATHS[path]()
    np.testing.assert_array_equal(got["gamma"].asnumpy(), np.ones(3, np.float32))
    np.testing.assert_array_equal(got["gamma_grad"].asnumpy(), np.zeros(3, np.float32))
    for what in ("out", "beta_grad", "x_grad"):
        assert_close(got[what].asnumpy(), WANT[f"{path}__{what}"], rtol=1e-5, scale_rtol=1e-6,
                     what=f"{path} {what}")


@pytest.mark.parametrize("use_global_stats", [False, True])
def test_fix_gamma_writes_one_outside_record(use_global_stats: bool) -> None:
    """MXNet's native kernel writes 1 into gamma in inference too."""
    x, g = mx.nd.array(WANT["x"]), mx.nd.array(WANT["gamma"])
    out = mx.nd.BatchNorm(x, g, mx.nd.zeros(3), mx.nd.zeros(3), mx.nd.ones(3), fix_gamma=True,
                          use_global_stats=use_global_stats)
    np.testing.assert_array_equal(g.asnumpy(), np.ones(3, np.float32))
    assert_close(out.asnumpy(), WANT["x"] / np.sqrt(1 + 1e-3), rtol=1e-6, scale_rtol=1e-6, what="inference")


@pytest.mark.parametrize("hybrid", [False, True])
def test_gluon_scale_false_keeps_gamma_one(hybrid: bool) -> None:
    net = mx.gluon.nn.BatchNorm(in_channels=3, scale=False)
    net.initialize()
    net.gamma.set_data(mx.nd.array(WANT["gamma"]))
    if hybrid:
        net.hybridize()
    with mx.autograd.record():
        net(mx.nd.array(WANT["x"])).sum().backward()
    assert net.gamma.grad_req == "null"
    np.testing.assert_array_equal(net.gamma.data().asnumpy(), np.ones(3, np.float32))
