"""mx.contrib.svrg_optimization against real MXNet 1.9.1 (tests/fixtures/mxnet/gen_svrg.py) on a linear
regression: the full gradients update_full_grads averages (with a padded last batch) and the parameters after
SVRGModule.fit, with plain SGD and with momentum and weight decay."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet.contrib.svrg_optimization.svrg_module import SVRGModule
from tests.mxnet import svrg_cases
from tests.tolerance import assert_close

WANT = np.load(Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "svrg.npz")


def _module() -> SVRGModule:
    return SVRGModule(svrg_cases.build(mx), data_names=["data"], label_names=["lin_reg_label"], update_freq=2)


def test_update_full_grads() -> None:
    it = svrg_cases.iterator(mx)
    mod = _module()
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod.init_params(arg_params=svrg_cases.init(mx))
    mod.init_optimizer(optimizer="sgd", optimizer_params=(("learning_rate", svrg_cases.LR),))
    mod.update_full_grads(it)
    for name, value in mod._param_dict[0].items():
        assert_close(value.asnumpy(), WANT[f"full_grad/{name}"], rtol=1e-5, scale_rtol=1e-5)


@pytest.mark.parametrize("key, params", [
    ("fit", (("learning_rate", svrg_cases.LR),)),
    ("fit_momentum", (("learning_rate", svrg_cases.LR), ("momentum", 0.9), ("wd", 0.01))),
])
def test_fit(key: str, params: tuple) -> None:
    mod = _module()
    mod.fit(svrg_cases.iterator(mx), eval_metric="mse", optimizer="sgd", optimizer_params=params,
            arg_params=svrg_cases.init(mx), num_epoch=5)
    for name, value in mod.get_params()[0].items():
        assert_close(value.asnumpy(), WANT[f"{key}/{name}"], rtol=1e-4, scale_rtol=1e-4)


def test_update_freq_is_checked() -> None:
    with pytest.raises(ValueError, match="must be a positive integer"):
        SVRGModule(svrg_cases.build(mx), label_names=["lin_reg_label"], update_freq=0)
    with pytest.raises(TypeError, match="must be an integer"):
        SVRGModule(svrg_cases.build(mx), label_names=["lin_reg_label"])


def test_svrg_optimizer_routes_full_keys() -> None:
    from cellonnx.mxnet.contrib.svrg_optimization.svrg_optimizer import _SVRGOptimizer

    optimizer = _SVRGOptimizer(default_optimizer="sgd", learning_rate=0.5,
                               param_idx2name={0: "w", 1: "w_full"})
    updater = mx.optimizer.get_updater(optimizer)
    w, w_full = mx.nd.ones((2,)), mx.nd.ones((2,))
    updater(0, mx.nd.ones((2,)), w)
    updater(1, mx.nd.array([3.0, 4.0]), w_full)
    np.testing.assert_allclose(w.asnumpy(), [0.5, 0.5])
    np.testing.assert_allclose(w_full.asnumpy(), [3.0, 4.0])
