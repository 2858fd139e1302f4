"""mx.optimizer / gluon.optimizer against real MXNet 1.9.1 (tests/fixtures/mxnet/gen_optimizers.py): four
gluon.Trainer steps of every optimizer of MXNet's catalogue on a small net, with weight decay, clipping,
rescale_grad, per-parameter lr_mult / wd_mult and an lr schedule where the optimizer takes them; the weights
and every state array compared at rtol 1e-5 of the values' scale. Float16 weights with multi_precision go
through mx.optimizer.Updater. Then the Optimizer base features and Trainer.save_states / load_states for
every optimizer."""
from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.gluon import optimizer_sgd
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
sys.path.insert(0, str(FIXTURES))
from optimizer_rows import (  # noqa: E402
    FIXED_ONLY_ROWS,
    FP16_ROWS,
    ROWS,
    SHAPES,
    STEPS,
    data,
    flatten,
    fp16_inputs,
    initial,
)

gluon, autograd, nn = mx.gluon, mx.autograd, mx.gluon.nn
EXPECTED = np.load(FIXTURES / "optimizers" / "expected.npz")


def build() -> tuple[Any, list]:
    net = nn.HybridSequential()
    net.add(nn.Dense(6, in_units=4, activation="tanh"), nn.Dense(5, in_units=6, activation="tanh"),
            nn.Dense(3, in_units=5))
    net.initialize()
    plist = [p for layer in net for p in (layer.weight, layer.bias)]
    for k, p in enumerate(plist):
        p.set_data(mx.nd.array(initial(k, SHAPES[k])))
    plist[0].lr_mult = 0.5
    plist[5].wd_mult = 0.0
    return net, plist


def make_trainer(plist: list, name: str, params: dict, schedule: Any) -> Any:
    params = dict(params)
    if schedule is not None:
        params["lr_scheduler"] = mx.lr_scheduler.FactorScheduler(step=schedule[0], factor=schedule[1],
                                                                base_lr=params["learning_rate"])
    return gluon.Trainer(plist, name, params)


def train(net: Any, trainer: Any, steps: int) -> None:
    x, y = (mx.nd.array(a) for a in data())
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    for _ in range(steps):
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(x.shape[0])


@pytest.fixture
def no_sgld_noise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(optimizer_sgd, "_noise", lambda shape, std, dtype: np.zeros(shape, dtype))


@pytest.mark.parametrize("row", sorted(ROWS))
def test_optimizer_matches_mxnet_1_9_1(row: str, no_sgld_noise: None) -> None:
    name, params, schedule = ROWS[row]
    net, plist = build()
    trainer = make_trainer(plist, name, params, schedule)
    train(net, trainer, STEPS)
    for k, p in enumerate(plist):
        assert_close(p.data().asnumpy(), EXPECTED[f"{row}__param{k}"], 1e-5, 1e-5, what=f"{row}: param{k}")
    for k, state in trainer._states.items():
        arrays = flatten(state)
        want = sorted(key for key in EXPECTED.files if key.startswith(f"{row}__state{k}."))
        assert len(arrays) == len(want), f"{row}: parameter {k}: {len(arrays)} states, MXNet {len(want)}"
        for j, arr in enumerate(arrays):
            assert arr.dtype == EXPECTED[f"{row}__state{k}.{j}"].dtype, f"{row}: state{k}.{j} dtype"
            assert_close(arr, EXPECTED[f"{row}__state{k}.{j}"], 1e-5, 1e-5, what=f"{row}: state{k}.{j}")


@pytest.mark.parametrize("row", sorted({**ROWS, **FIXED_ONLY_ROWS}))
def test_update_formula_matches_mxnet_1_9_1(row: str, no_sgld_noise: None) -> None:
    """The same optimizers on fixed gradients through mx.optimizer.Updater: the formulas alone, with no
    float32 noise of a forward pass that an ill-conditioned update (AdaGrad on a tiny gradient, the
    centered RMSProp's variance) would magnify."""
    name, params, schedule = {**ROWS, **FIXED_ONLY_ROWS}[row]
    params = dict(params)
    if schedule is not None:
        params["lr_scheduler"] = mx.lr_scheduler.FactorScheduler(step=schedule[0], factor=schedule[1],
                                                                base_lr=params["learning_rate"])
    updater = mx.optimizer.get_updater(mx.optimizer.create(name, **params))
    weight, grads = fp16_inputs(np.float32)
    w = mx.nd.array(weight)
    for g in grads:
        updater(0, mx.nd.array(g), w)
    assert_close(w.asnumpy(), EXPECTED[f"fixed_{row}__weight"], 1e-6, 1e-6, what=f"{row}: weight")
    arrays = flatten(updater.states[0])
    want = sorted(key for key in EXPECTED.files if key.startswith(f"fixed_{row}__state."))
    assert len(arrays) == len(want), f"{row}: {len(arrays)} state arrays, MXNet {len(want)}"
    for j, arr in enumerate(arrays):
        assert_close(arr, EXPECTED[f"fixed_{row}__state.{j}"], 1e-6, 1e-6, what=f"{row}: state {j}")


@pytest.mark.parametrize("row", sorted(FP16_ROWS))
def test_multi_precision_float16_matches_mxnet_1_9_1(row: str) -> None:
    name, params = FP16_ROWS[row]
    weight, grads = fp16_inputs()
    updater = mx.optimizer.get_updater(mx.optimizer.create(name, multi_precision=True, **params))
    w = mx.nd.array(weight, dtype="float16")
    for s, g in enumerate(grads):
        updater(0, mx.nd.array(g, dtype="float16"), w)
        assert w.dtype == np.float16
        # float16 results of float32 masters that agree to 1e-5: at most one float16 step apart
        assert_close(w.asnumpy(), EXPECTED[f"fp16_{row}__weight{s}"], 1e-3, 1e-3, what=f"{row}: weight {s}")
    arrays = flatten(updater.states[0])
    want = sorted(key for key in EXPECTED.files if key.startswith(f"fp16_{row}__state."))
    assert len(arrays) == len(want)
    for j, arr in enumerate(arrays):
        expected = EXPECTED[f"fp16_{row}__state.{j}"]
        assert arr.dtype == expected.dtype == np.float32, f"{row}: state {j} dtype"
        assert_close(arr, expected, 1e-5, 1e-5, what=f"{row}: state {j}")


def test_registry_holds_mxnet_1_9_1_catalogue() -> None:
    names = {"adadelta", "adagrad", "adam", "adamax", "ccsgd", "dcasgd", "ftml", "ftrl", "lamb", "lars",
             "lbsgd", "nadam", "nag", "rmsprop", "sgd", "sgld", "signum", "test", "groupadagrad"}
    assert names <= set(mx.optimizer.Optimizer.opt_registry)
    for name in names:
        assert type(mx.optimizer.create(name)).__name__.lower() == name
    with pytest.raises(ValueError, match="unknown optimizer"):
        mx.optimizer.create("adamw")  # not in MXNet 1.9.1's registry


def test_constructor_defaults_follow_mxnet() -> None:
    assert mx.optimizer.RMSProp().lr == 0.001 and mx.optimizer.RMSProp().gamma1 == 0.9
    assert mx.optimizer.Ftrl().lr == 0.1 and mx.optimizer.Ftrl().lamda1 == 0.01
    assert mx.optimizer.Adamax().lr == 0.002 and mx.optimizer.FTML().beta1 == 0.6
    assert mx.optimizer.LAMB().epsilon == 1e-6 and mx.optimizer.LAMB().aggregate_num == 45
    assert mx.optimizer.Signum().momentum == 0.9 and mx.optimizer.AdaGrad().float_stable_eps == 1e-7
    assert mx.optimizer.LARS().eta == 0.001 and mx.optimizer.SGD().aggregate_num == 4
    assert mx.optimizer.Nadam().schedule_decay == 0.004 and mx.optimizer.DCASGD().lamda == 0.04


def test_lr_and_wd_multipliers_by_index_name_and_symbol() -> None:
    names = {0: "fc_weight", 1: "fc_bias", 2: "bn_gamma"}
    opt = mx.optimizer.SGD(learning_rate=0.1, wd=0.5, param_idx2name=names)
    assert [opt._get_wd(i) for i in range(3)] == [0.5, 0.0, 0.5]  # only *_weight / *_gamma decay
    opt.set_lr_mult({0: 2.0, "fc_bias": 0.5})
    assert opt._get_lr(0) == pytest.approx(0.2) and opt._get_lr(1) == pytest.approx(0.05)
    opt.set_wd_mult({"fc_bias": 3.0})
    assert opt._get_wd(1) == pytest.approx(1.5)
    weight = mx.sym.Variable("fc_weight", lr_mult=0.25, wd_mult=0.0)
    out = mx.sym.FullyConnected(mx.sym.Variable("data"), weight=weight, num_hidden=2, no_bias=True, name="fc")
    opt = mx.optimizer.create("sgd", learning_rate=1.0, wd=1.0, sym=out, param_idx2name={0: "fc_weight"})
    assert opt.lr_mult == {"fc_weight": 0.25} and opt.wd_mult == {"fc_weight": 0.0}
    assert opt._get_lr(0) == 0.25 and opt._get_wd(0) == 0.0


def test_lr_scheduler_base_lr_is_overwritten_by_learning_rate(capsys: pytest.CaptureFixture) -> None:
    sched = mx.lr_scheduler.FactorScheduler(step=1, factor=0.5, base_lr=1.0)
    opt = mx.optimizer.Adam(learning_rate=0.2, lr_scheduler=sched)
    assert sched.base_lr == 0.2 and "overwritten" in capsys.readouterr().out
    with pytest.raises(UserWarning, match="LRScheduler"):
        opt.set_learning_rate(0.1)


def test_updater_states_round_trip_and_update_signatures() -> None:
    opt = mx.optimizer.create("rmsprop", learning_rate=0.01, centered=True)
    w = np.ones((2, 3), np.float32)
    state = opt.create_state(0, w)
    new = opt.update(0, w, np.full((2, 3), 0.5, np.float32), state)
    assert new.shape == (2, 3) and np.all(w == 1.0) and len(state) == 3 and np.any(state[0] != 0)
    updater = mx.optimizer.get_updater(mx.optimizer.create("adam", learning_rate=0.1))
    weight, grad = mx.nd.ones((3,)), mx.nd.array([1.0, -1.0, 0.5])
    updater(0, grad, weight)
    blob = updater.get_states(dump_optimizer=True)
    restored = mx.optimizer.Updater(mx.optimizer.create("sgd"))
    restored.set_states(blob)
    assert isinstance(restored.optimizer, mx.optimizer.Adam)
    assert restored.optimizer._index_update_count == {0: 1}
    assert restored.states_synced == {0: False}
    again = weight.copy()
    updater(0, grad, weight)
    restored(0, grad, again)
    np.testing.assert_array_equal(again.asnumpy(), weight.asnumpy())
    assert "param_dict" not in pickle.loads(blob)[1].__dict__ or pickle.loads(blob)[1].param_dict == {}


def test_sgld_noise_is_seeded_with_variance_lr() -> None:
    def draw() -> np.ndarray:
        mx.random.seed(7)
        opt = mx.optimizer.create("sgld", learning_rate=0.04)
        return opt.update(0, np.zeros(20000, np.float32), np.zeros(20000, np.float32), None)

    first, second = draw(), draw()
    np.testing.assert_array_equal(first, second)
    assert abs(float(first.std()) - 0.2) < 0.01 and abs(float(first.mean())) < 0.01


@pytest.mark.parametrize("row", sorted(ROWS))
def test_trainer_save_and_load_states_resume_exactly(row: str, tmp_path: Path, no_sgld_noise: None) -> None:
    name, params, schedule = ROWS[row]
    net, plist = build()
    trainer = make_trainer(plist, name, params, schedule)
    train(net, trainer, STEPS)
    full = [p.data().asnumpy() for p in plist]

    net, plist = build()
    trainer = make_trainer(plist, name, params, schedule)
    train(net, trainer, 2)
    trainer.save_states(tmp_path / "states.npz")
    halfway = [p.data().asnumpy() for p in plist]
    if name == "lbsgd":
        pytest.skip("LBSGD's accumulated gradients are not part of the saved states")
    net, plist = build()
    for p, value in zip(plist, halfway):
        p.set_data(mx.nd.array(value))
    trainer = make_trainer(plist, name, params, schedule)
    trainer.load_states(tmp_path / "states.npz")
    train(net, trainer, STEPS - 2)
    for k, (p, want) in enumerate(zip(plist, full)):
        np.testing.assert_array_equal(p.data().asnumpy(), want, err_msg=f"{row}: param{k}")


@pytest.mark.parametrize("name", ["sgd", "nag", "adam", "lamb", "lars", "rmsprop", "ftml", "signum"])
def test_update_takes_ndarrays_in_place_as_mxnet(name: str) -> None:
    """optimizer.create_state / update / update_multi_precision with mx.nd arrays: the weight is updated in
    place (update returns None), as MXNet's take NDArrays; the same values as with NumPy arrays."""
    weight, grads = fp16_inputs(np.float32)
    by_numpy, by_nd = (mx.optimizer.create(name, learning_rate=0.01) for _ in range(2))
    w, state = weight.copy(), by_numpy.create_state(0, weight)
    nd_w = mx.nd.array(weight)
    nd_state = by_nd.create_state(0, nd_w)
    for g in grads:
        w = by_numpy.update(0, w, g, state)
        assert by_nd.update(0, nd_w, mx.nd.array(g), nd_state) is None
    np.testing.assert_array_equal(nd_w.asnumpy(), w)
    half = mx.optimizer.create(name, learning_rate=0.01, multi_precision=True)
    nd_half = mx.nd.array(weight, dtype="float16")
    half_state = half.create_state_multi_precision(0, nd_half)
    half.update_multi_precision(0, nd_half, mx.nd.array(grads[0], dtype="float16"), half_state)
    assert nd_half.dtype == np.float16 and not np.array_equal(nd_half.asnumpy(), weight.astype(np.float16))
