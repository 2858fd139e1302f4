"""MindSpore 0.x spellings that the old mindspore.nn catalogue's examples use keep working beside 2.x's:
each gives what its 2.x spelling gives (tests/seeds/test_pages.py runs the page's examples themselves)."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx
from cellonnx import Tensor, nn
from cellonnx.unsupported import UnsupportedError
from tests.tolerance import assert_close


def test_shape_is_a_tuple_that_answers_a_call() -> None:
    t = Tensor(np.ones((2, 3, 4), np.float32))
    assert t.shape == (2, 3, 4) and isinstance(t.shape, tuple)
    assert t.shape() == (2, 3, 4) and t.shape()[1:] == (3, 4)
    assert repr(t.shape) == "(2, 3, 4)"


def _net() -> nn.Dense:
    rng = np.random.RandomState(0)
    weight = Tensor(rng.normal(0, 0.5, (2, 3)).astype(np.float32))
    return nn.Dense(3, 2, weight_init=weight, bias_init="zeros")


def _train(make_optimizer) -> np.ndarray:  # type: ignore[no-untyped-def]
    net = _net()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), make_optimizer(net.trainable_params()))
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    y = Tensor(np.ones((4, 2), np.float32))
    for _ in range(4):
        step(x, y)
    return net.weight.asnumpy()


@pytest.mark.parametrize("old, new", [
    (lambda p: nn.AdamWeightDecayDynamicLR(p, decay_steps=3),
     lambda p: nn.AdamWeightDecay(p, nn.PolynomialDecayLR(0.001, 0.0001, 3, 10.0))),
    (lambda p: nn.Lamb(p, decay_steps=3), lambda p: nn.Lamb(p, nn.PolynomialDecayLR(0.1, 0.0001, 3, 1.0))),
    (lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9), hyperpara=0.02),
     lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9), coefficient=0.02)),
], ids=["AdamWeightDecayDynamicLR", "Lamb(decay_steps)", "LARS(hyperpara)"])
def test_old_optimizer_spellings_train_as_the_new(old, new) -> None:  # type: ignore[no-untyped-def]
    assert_close(_train(old), _train(new), rtol=1e-6, scale_rtol=1e-7)


def test_lamb_warms_up_then_decays() -> None:
    from cellonnx.nn.optim.legacy import decaying_rate

    rate = decaying_rate(decay_steps=10, warmup_steps=4, start_learning_rate=0.1, end_learning_rate=0.0,
                         power=1.0)
    got = [float(rate(Tensor(np.int32(s))).asnumpy()) for s in (0, 2, 4, 10)]
    assert_close(got, [0.0, 0.05, 0.06, 0.0], rtol=1e-6, scale_rtol=1e-7)
    with pytest.raises(TypeError, match="'learning_rate'"):
        nn.Lamb(_net().trainable_params())


def test_loss_scale_and_loss_keywords() -> None:
    net = nn.WithLossCell(_net(), nn.MSELoss())
    manager = nn.DynamicLossScaleUpdateCell(init_loss_scale=2**12, scale_factor=2, scale_window=1000)
    assert manager.get_loss_scale() == 2**12
    train = nn.TrainOneStepWithLossScaleCell(net, nn.Momentum(net.trainable_params(), 0.1, 0.9),
                                             scale_update_cell=manager)
    assert train.loss_scaling_manager is manager
    with pytest.raises(TypeError, match="'scale_window'"):
        nn.DynamicLossScaleUpdateCell(2**12, 2)
    loss = nn.SoftmaxCrossEntropyWithLogits(is_grad=False, sparse=True)
    logits = Tensor(np.array([[1.0, 2.0, 0.5]], np.float32))
    label = Tensor(np.array([1], np.int32))
    want = nn.SoftmaxCrossEntropyWithLogits(sparse=True)(logits, label)
    assert_close(loss(logits, label).asnumpy(), want.asnumpy())
    with pytest.raises(ValueError, match="the dimension of logits must be equal to 2"):
        loss(Tensor(np.ones((2, 3, 1, 1), np.float32)), Tensor(np.ones((2,), np.int32)))


def test_data_wrapper_is_device_only() -> None:
    with pytest.raises(UnsupportedError, match="mindspore.nn.DataWrapper is not available in cellonnx: it "
                                               "reads a device-side data queue"):
        from cellonnx.nn import DataWrapper  # noqa: F401
    assert cellonnx.nn.Dense is nn.Dense
