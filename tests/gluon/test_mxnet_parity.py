"""Parity with real MXNet 1.9.1: the networks of tests/fixtures/mxnet/gen_gluon.py, written here in Gluon 2.x
style, load the parameters MXNet saved and reproduce its outputs (inference and training mode), gradients,
running statistics, losses and Trainer steps. float32, rtol 1e-4 and 1e-5 of the values' scale.

MXNet 1.9.1 vs the 2.x API built here: GroupNorm keeps gamma/beta per group in 1.x (shape (num_groups,)) and per
channel in 2.x (loading expands them; 1.x gradients are the per-group sums of ours); Concatenate /
HybridConcatenate / Identity / SyncBatchNorm are gluon.contrib.nn's HybridConcurrent / Concurrent / Identity /
SyncBatchNorm in 1.x; HybridLambda takes ``lambda F, x: ...`` in 1.x and ``lambda x: ...`` in 2.x. Dense's
flatten default (True) and Dropout's axes (()) are the same in both.
"""
from __future__ import annotations

import numpy as np
import pytest

from cellonnx import Tensor
from cellonnx.gluon import Trainer, autograd, loss, nn
from tests.gluon.layer_cases import (
    CASES,
    EXPECTED,
    GROUPS,
    HERE,
    NO_INPUT_GRAD,
    RANDOM_TRAINING,
    RTOL,
    SCALE_RTOL,
    close,
    expected,
    load,
    seq,
)
from tests.tolerance import assert_close

SELU_LAMBDA, SELU_ALPHA = 1.0507009873554805, 1.6732632423543772


def selu_input_grad(x: np.ndarray, y: np.ndarray, head: np.ndarray) -> np.ndarray:
    """MXNet 1.9.1's SELU backward computes lambda * (y + alpha) for x <= 0, not the derivative
    lambda * alpha * exp(x) = y + lambda * alpha; cellonnx keeps the true derivative, checked here against
    MXNet's forward output."""
    return head * np.where(x > 0, SELU_LAMBDA, y + SELU_LAMBDA * SELU_ALPHA)

def test_every_generator_case_has_a_row() -> None:
    cases = {k.split("__")[0] for k in EXPECTED.files if not k.startswith(("loss_", "trainer_"))}
    assert cases == set(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_inference_matches_mxnet(case: str) -> None:
    net = load(case)
    close(net(Tensor(expected(case, "x"))).asnumpy(), expected(case, "y_infer"), f"{case}: inference output")


@pytest.mark.parametrize("case", sorted(set(CASES) - RANDOM_TRAINING))
def test_training_pass_matches_mxnet(case: str) -> None:
    net = load(case)
    x = Tensor(expected(case, "x"))
    if case not in NO_INPUT_GRAD:
        x.attach_grad()
    with autograd.record(train_mode=True):
        y = net(x)
    y.backward(Tensor(expected(case, "head")))
    close(y.asnumpy(), expected(case, "y_train"), f"{case}: training-mode output")
    if case == "selu":
        want = expected(case, "xgrad")
        xs, ys, head = expected(case, "x"), expected(case, "y_train"), expected(case, "head")
        assert_close(want, head * np.where(xs > 0, SELU_LAMBDA, SELU_LAMBDA * (ys + SELU_ALPHA)),
                     rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0)  # what MXNet computes
        close(x.grad.asnumpy(), selu_input_grad(xs, ys, head), "selu: input gradient")
    elif case not in NO_INPUT_GRAD:
        close(x.grad.asnumpy(), expected(case, "xgrad"), f"{case}: input gradient")
    params = net.collect_params()
    for key in EXPECTED.files:
        prefix, _, rest = key.partition("__")
        if prefix != case or not rest.startswith(("grad__", "after__")):
            continue
        kind, _, name = rest.partition("__")
        p = params[name]
        if kind == "grad":
            got = p.grad().asnumpy()
            groups = GROUPS.get(case, {}).get(name)
            if groups:  # MXNet 1.x: one gamma/beta per group, so its gradient is the sum over the group
                got = got.reshape(groups, -1).sum(axis=1)
            close(got, expected(case, key.split("__", 1)[1]), f"{case}: gradient of {name}")
        else:
            close(p.data().asnumpy(), expected(case, rest), f"{case}: {name} after the training pass")


@pytest.mark.parametrize("case", sorted(RANDOM_TRAINING))
def test_dropout_masks(case: str) -> None:
    net = load(case)
    x = Tensor(expected(case, "x"))
    x.attach_grad()
    with autograd.record():
        y = net(x)
    y.backward(Tensor(expected(case, "head")))
    ratio = y.asnumpy() / x.asnumpy()
    kept = ratio > 1.0
    np.testing.assert_allclose(ratio[kept], 2.0, rtol=1e-6)
    np.testing.assert_array_equal(ratio[~kept], 0.0)
    np.testing.assert_allclose(x.grad.asnumpy(), expected(case, "head") * ratio, rtol=1e-6)
    if case == "dropout_axes":  # one mask value per (sample, position), shared along axis 1
        assert (kept == kept[:, :1, :]).all()
    assert 0.2 < kept.mean() < 0.8


def test_groupnorm_with_known_channels_expands_at_load() -> None:
    net = nn.GroupNorm(num_groups=2, in_channels=4)
    net.load_parameters(HERE / "groupnorm.params")
    assert net.gamma.shape == (4,)
    close(net(Tensor(expected("groupnorm", "x"))).asnumpy(), expected("groupnorm", "y_infer"), "groupnorm")


# ---------------------------------------------------------------- losses
LOSSES = {
    "l2": lambda: loss.L2Loss(),
    "l1": lambda: loss.L1Loss(weight=0.5),
    "softmax_ce": lambda: loss.SoftmaxCrossEntropyLoss(),
    "softmax_ce_dense": lambda: loss.SoftmaxCrossEntropyLoss(sparse_label=False, weight=2.0),
    "softmax_ce_axis1": lambda: loss.SoftmaxCrossEntropyLoss(axis=1),
    "sigmoid_bce": lambda: loss.SigmoidBinaryCrossEntropyLoss(),
    "sigmoid_bce_pos": lambda: loss.SigmoidBinaryCrossEntropyLoss(),
    "sigmoid_bce_prob": lambda: loss.SigmoidBinaryCrossEntropyLoss(from_sigmoid=True),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_matches_mxnet(name: str) -> None:
    key = f"loss_{name}"
    pred = Tensor(expected(key, "pred"))
    pred.attach_grad()
    kwargs = {k: Tensor(expected(key, k)) for k in ("sample_weight", "pos_weight") if f"{key}__{k}" in EXPECTED}
    with autograd.record():
        value = LOSSES[name]()(pred, Tensor(expected(key, "label")), **kwargs)
    value.backward()
    close(value.asnumpy(), expected(key, "value"), f"{name}: loss per sample")
    close(pred.grad.asnumpy(), expected(key, "grad"), f"{name}: gradient")


# ---------------------------------------------------------------- Trainer
TRAINERS = {
    "sgd": ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 0.01}),
    "adam": ("adam", {"learning_rate": 0.01, "wd": 0.01, "clip_gradient": 0.05}),
}


@pytest.mark.parametrize("name", sorted(TRAINERS))
def test_trainer_steps_match_mxnet(name: str) -> None:
    net = seq(nn.Dense(8, activation="relu", in_units=4), nn.BatchNorm(in_channels=8), nn.Dense(3, in_units=8))
    net.load_parameters(HERE / f"trainer_{name}.params")
    net[0].weight.lr_mult = 0.5
    net[2].bias.wd_mult = 0.0
    key = f"trainer_{name}"
    x, y = Tensor(expected(key, "x")), Tensor(expected(key, "y"))
    optimizer, params = TRAINERS[name]
    trainer = Trainer(net.collect_params(), optimizer, params)
    loss_fn = loss.SoftmaxCrossEntropyLoss()
    for step in range(3):
        with autograd.record():
            value = loss_fn(net(x), y)
        value.backward()
        trainer.step(x.shape[0])
        for pname, p in net.collect_params().items():
            close(p.data().asnumpy(), expected(key, f"step{step}__{pname}"), f"{name} step {step}: {pname}")
