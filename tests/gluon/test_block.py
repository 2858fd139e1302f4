"""Block behaviour: deferred shapes, collect_params, share_parameters, grad_req, summary, load_dict's flags,
save / load, casting and the parameter life cycle."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from cellonnx.converters import mxnet_format

from cellonnx import Tensor, ops
from cellonnx.gluon import (
    Constant,
    DeferredInitializationError,
    HybridBlock,
    Parameter,
    Trainer,
    autograd,
    loss,
    nn,
)
from tests.tolerance import assert_close, sum_rtol


def data(*shape: int, seed: int = 0) -> Tensor:
    return Tensor(np.random.default_rng(seed).normal(size=shape).astype(np.float32))


def mlp(**dense_kwargs) -> nn.HybridSequential:
    net = nn.HybridSequential()
    net.add(nn.Dense(6, activation="relu", **dense_kwargs), nn.BatchNorm(), nn.Dense(3))
    return net


class Tied(HybridBlock):
    """An encoder and a decoder with tied weights."""

    def __init__(self):
        super().__init__()
        self.encoder = nn.Dense(4, in_units=4, use_bias=False)
        self.decoder = nn.Dense(4, in_units=4)
        self.decoder.share_parameters({"weight": self.encoder.weight})

    def forward(self, x):
        return self.decoder(ops.tanh(self.encoder(x)))


# ---------------------------------------------------------------- deferred shapes and initialization
def test_deferred_shapes_are_inferred_at_the_first_forward() -> None:
    net = nn.HybridSequential()
    net.add(nn.Conv2D(4, 3), nn.BatchNorm(), nn.Flatten(), nn.Dense(5), nn.LayerNorm(), nn.Dense(2,
                                                                                                 flatten=False))
    assert net[0].weight.shape == (4, 0, 3, 3) and net[3].weight.shape == (5, 0)
    net.initialize()
    with pytest.raises(DeferredInitializationError, match="deferred"):
        net[3].weight.data()
    y = net(data(2, 3, 6, 6))
    assert y.shape == (2, 2)
    assert net[0].weight.shape == (4, 3, 3, 3)
    assert net[1].running_mean.shape == (4,)
    assert net[3].weight.shape == (5, 64)
    assert net[4].gamma.shape == (5,)
    np.testing.assert_array_equal(net[1].gamma.data().asnumpy(), 1.0)  # BatchNorm's own initializers


def test_deferred_shapes_come_from_load_parameters(tmp_path) -> None:
    src = mlp()
    src.initialize()
    src(data(2, 7))
    src.save_parameters(str(tmp_path / "mlp.params"))
    dst = mlp()
    dst.load_parameters(str(tmp_path / "mlp.params"))  # no initialize, shapes unknown before
    assert dst[0].weight.shape == (6, 7)
    x = data(3, 7, seed=1)
    np.testing.assert_allclose(dst(x).asnumpy(), src(x).asnumpy(), rtol=1e-6)


def test_uninitialized_network_says_so() -> None:
    net = nn.Dense(2, in_units=3)
    with pytest.raises(RuntimeError, match="has not been initialized"):
        net(data(1, 3))
    with pytest.raises(RuntimeError, match="has not been initialized"):
        net.weight.data()


def test_initialize_twice_warns_and_force_reinit_redraws() -> None:
    net = nn.Dense(3, in_units=4)
    net.initialize()
    before = net.weight.data().asnumpy().copy()
    with pytest.warns(UserWarning, match="already initialized"):
        net.initialize()
    net.initialize(init="ones", force_reinit=True)
    np.testing.assert_array_equal(net.weight.data().asnumpy(), 1.0)
    assert not np.array_equal(before, 1.0)
    np.testing.assert_array_equal(net.bias.data().asnumpy(), 0.0)  # its own 'zeros' wins over the global init


def test_parameter_without_deferral_needs_a_shape() -> None:
    p = Parameter("w", shape=(3, 0))
    with pytest.raises(ValueError, match="invalid shape"):
        p.initialize()
    q = Parameter("w", shape=(3, 0), allow_deferred_init=True)
    q.initialize()
    q.shape = (3, 2)
    with pytest.raises(ValueError, match="incompatible"):
        q.shape = (4, 2)
    q._finish_deferred_init()
    assert q.data().shape == (3, 2) and q.grad().shape == (3, 2)


def test_wrong_input_size_is_refused() -> None:
    net = nn.Dense(2, in_units=3)
    net.initialize()
    with pytest.raises(Exception):  # noqa: B017 - the op names the mismatch
        net(data(1, 4))


# ---------------------------------------------------------------- names and collect_params
class Net(HybridBlock):
    def __init__(self):
        super().__init__()
        self.features = nn.HybridSequential()
        self.features.add(nn.Conv2D(2, 1, in_channels=1), nn.BatchNorm(in_channels=2))
        self.output = nn.Dense(2, in_units=8)

    def forward(self, x):
        return self.output(self.features(x))


def test_collect_params_names_and_regex() -> None:
    net = Net()
    assert list(net.collect_params()) == [
        "features.0.weight", "features.0.bias", "features.1.gamma", "features.1.beta",
        "features.1.running_mean",
        "features.1.running_var", "output.weight", "output.bias"]
    assert list(net.collect_params(".*weight|.*bias")) == [
        "features.0.weight", "features.0.bias", "output.weight", "output.bias"]
    assert list(net.collect_params("features.1")) == [
        "features.1.gamma", "features.1.beta", "features.1.running_mean", "features.1.running_var"]
    assert net.collect_params("weight") == {}  # matched from the start of the name, as re.match
    assert list(net.output.params) == ["weight", "bias"]
    assert list(net.features.collect_params()) == ["0.weight", "0.bias", "1.gamma", "1.beta",
                                                   "1.running_mean",
                                                   "1.running_var"]


def test_shared_parameters_stay_tied_through_training() -> None:
    net = Tied()
    params = net.collect_params()
    assert params["encoder.weight"] is params["decoder.weight"]
    net.initialize()
    trainer = Trainer(params, "sgd", {"learning_rate": 0.1, "momentum": 0.9})
    x = data(5, 4)
    for _ in range(3):
        with autograd.record():
            value = loss.L2Loss()(net(x), x)
        value.backward()
        trainer.step(5)
    assert net.encoder.weight is net.decoder.weight
    # the gradient of a tied weight is the sum of both uses: compare with an untied copy
    w = net.encoder.weight.data().asnumpy()
    untied = Tied()
    untied.decoder.weight = Parameter("weight", shape=(4, 4))
    untied.initialize()
    untied.encoder.weight.set_data(w)
    untied.decoder.weight.set_data(w)
    untied.decoder.bias.set_data(net.decoder.bias.data().asnumpy())
    for block in (net, untied):
        with autograd.record():
            value = loss.L2Loss()(block(x), x)
        value.backward()
    assert_close(net.encoder.weight.grad().asnumpy(),
                 untied.encoder.weight.grad().asnumpy() + untied.decoder.weight.grad().asnumpy(),
                 rtol=1e-5, scale_rtol=sum_rtol(x.shape[0]), what="tied weight gradient (a batch sum)")


def test_share_parameters_warns_about_unknown_names_and_dedupes_on_save(tmp_path) -> None:
    dense0, dense1 = nn.Dense(3, in_units=2), nn.Dense(3, in_units=2)
    with pytest.warns(UserWarning, match="nothing.weight is not in the current model"):
        dense1.share_parameters({**dense0.collect_params(), "nothing.weight": dense0.weight})
    assert dense1.weight is dense0.weight and dense1.bias is dense0.bias
    net = Tied()
    net.initialize()
    net.save_parameters(str(tmp_path / "all.params"))
    net.save_parameters(str(tmp_path / "dedup.params"), deduplicate=True)
    assert set(mxnet_format.read(tmp_path / "all.params")[0]) == {"encoder.weight", "decoder.weight",
                                                                  "decoder.bias"}
    assert set(mxnet_format.read(tmp_path / "dedup.params")[0]) == {"decoder.weight", "decoder.bias"}
    again = Tied()
    again.load_parameters(str(tmp_path / "dedup.params"))  # one name of a shared parameter is enough
    np.testing.assert_array_equal(again.encoder.weight.data().asnumpy(), net.encoder.weight.data().asnumpy())


# ---------------------------------------------------------------- grad_req
def test_setattr_grad_req_null_freezes() -> None:
    net = mlp(in_units=4)
    net.initialize()
    net[0].setattr("grad_req", "null")
    frozen = {k: p.data().asnumpy().copy() for k, p in net[0].collect_params().items()}
    trainer = Trainer(net.collect_params(), "adam", {"learning_rate": 0.1})
    for _ in range(2):
        with autograd.record():
            value = loss.L2Loss()(net(data(4, 4)), data(4, 3, seed=2))
        value.backward()
        trainer.step(4)
    for key, p in net[0].collect_params().items():
        np.testing.assert_array_equal(p.data().asnumpy(), frozen[key])
        assert p.grad is None and not p.requires_grad
    assert net[2].weight.grad is not None


def test_grad_req_write_overwrites_and_add_accumulates() -> None:
    x = data(3, 4)
    net = nn.Dense(2, in_units=4)
    net.initialize()

    def backward() -> np.ndarray:
        with autograd.record():
            y = net(x)
        y.backward()
        return net.weight.grad().asnumpy().copy()

    once = backward()
    np.testing.assert_allclose(backward(), once)          # 'write': the second pass overwrites
    net.setattr("grad_req", "add")
    net.zero_grad()
    backward()
    np.testing.assert_allclose(backward(), 2 * once, rtol=1e-6)  # 'add': passes accumulate
    net.zero_grad()
    np.testing.assert_array_equal(net.weight.grad().asnumpy(), 0.0)


def test_trainer_refuses_stale_gradients_unless_told() -> None:
    net = nn.HybridSequential()
    net.add(nn.Dense(2, in_units=3), nn.Dense(2, in_units=3))
    net.initialize()
    trainer = Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    with autograd.record():
        y = net[0](data(2, 3))
    y.backward()
    unused = net[1].weight.data().asnumpy().copy()
    with pytest.raises(UserWarning, match="has not been updated by backward"):
        trainer.step(2)
    trainer.step(2, ignore_stale_grad=True)
    np.testing.assert_array_equal(net[1].weight.data().asnumpy(), unused)
    with pytest.raises(UserWarning):  # the used gradient is stale now too
        trainer.step(2)


def test_trainer_states_round_trip(tmp_path) -> None:
    def run(steps, trainer_states=None):
        net = nn.Dense(2, in_units=3)
        net.initialize("ones")
        trainer = Trainer(net.collect_params(), "adam", {"learning_rate": 0.1})
        if trainer_states:
            trainer.load_states(trainer_states)
            net.weight.set_data(np.load(tmp_path / "w.npy"))
            net.bias.set_data(np.load(tmp_path / "b.npy"))
        for _ in range(steps):
            with autograd.record():
                y = net(data(2, 3))
            y.backward()
            trainer.step(2)
        return net, trainer

    full, _ = run(4)
    half, trainer = run(2)
    trainer.save_states(tmp_path / "states.npz")
    np.save(tmp_path / "w.npy", half.weight.data().asnumpy())
    np.save(tmp_path / "b.npy", half.bias.data().asnumpy())
    resumed, _ = run(2, tmp_path / "states.npz")
    np.testing.assert_allclose(resumed.weight.data().asnumpy(), full.weight.data().asnumpy(), rtol=1e-6)
    assert trainer.learning_rate == pytest.approx(0.1)
    trainer.set_learning_rate(0.5)
    assert trainer.optimizer.learning_rate == 0.5
    with pytest.raises(ValueError, match="unknown optimizer"):
        Trainer(half.collect_params(), "no-such-optimizer")


# ---------------------------------------------------------------- summary
def test_summary_table(capsys) -> None:
    net = Tied()
    net.initialize()
    net.summary(data(2, 4))
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1].split() == ["Layer", "(type)", "Output", "Shape", "Param", "#"]
    assert any(line.split() == ["Input", "(2,", "4)", "0"] for line in lines)
    assert any(line.split() == ["Dense-1", "(2,", "4)", "16"] for line in lines)
    assert any(line.split() == ["Dense-2", "(2,", "4)", "20"] for line in lines)
    assert "   Total params: 36" in out
    assert "   Trainable params: 36" in out
    assert "Shared params in forward computation graph: 16" in out
    assert "Unique parameters in model: 20" in out
    net.hybridize()
    with pytest.raises(AssertionError, match="must not be hybridized"):
        net.summary(data(2, 4))


# ---------------------------------------------------------------- load_dict's flags
def saved(net: HybridBlock) -> dict[str, np.ndarray]:
    return {k: p.data().asnumpy() for k, p in net.collect_params().items()}


def test_load_dict_flags() -> None:
    src = Net()
    src.initialize()
    values = saved(src)
    missing = {k: v for k, v in values.items() if k != "output.bias"}
    with pytest.raises(AssertionError, match="Parameter 'output.bias' is missing in 'param_dict'"):
        Net().load_dict(missing)
    net = Net()
    net.load_dict(missing, allow_missing=True)
    assert not net.output.bias.is_initialized

    extra = {**values, "head.weight": np.zeros(2, np.float32)}
    with pytest.raises(ValueError, match="Parameter 'head.weight' loaded from 'param_dict' is not present"):
        Net().load_dict(extra)
    Net().load_dict(extra, ignore_extra=True)

    doubles = {k: v.astype(np.float64) for k, v in values.items()}
    with pytest.raises(AssertionError, match="dtype incompatible expected float32 vs saved float64"):
        Net().load_dict(doubles)
    current = Net()
    current.load_dict(doubles, cast_dtype=True)
    assert current.output.weight.data().asnumpy().dtype == np.float32
    kept = Net()
    kept.load_dict(doubles, cast_dtype=True, dtype_source="saved")
    assert kept.output.weight.data().asnumpy().dtype == np.float64

    wrong = {**values, "output.weight": np.zeros((3, 8), np.float32)}
    with pytest.raises(AssertionError, match="shape incompatible expected \\(2, 8\\) vs saved \\(3, 8\\)"):
        Net().load_dict(wrong)

    exported = {("aux:" if "running" in k else "arg:") + k: Tensor(v) for k, v in values.items()}
    net = Net()
    net.load_dict(exported)
    np.testing.assert_array_equal(net.output.weight.data().asnumpy(), values["output.weight"])


def test_load_parameters_names_the_file(tmp_path) -> None:
    src = Net()
    src.initialize()
    path = tmp_path / "net.params"
    src.save_parameters(str(path))
    with pytest.raises(AssertionError, match=f"missing in 'file: {path}'"):
        nn.Dense(2).load_parameters(str(path))  # a different network


def test_mxnet2_npz_parameter_files_load(tmp_path) -> None:
    src = Net()
    src.initialize()
    path = tmp_path / "net2x.params"  # MXNet 2.x's npx.savez writes an .npz under this name
    with open(path, "wb") as f:
        np.savez(f, **saved(src))
    net = Net()
    net.load_parameters(str(path))
    np.testing.assert_array_equal(net.output.weight.data().asnumpy(), src.output.weight.data().asnumpy())


def test_save_writes_real_params_and_load_checks_structure(tmp_path) -> None:
    net = Net()
    net.initialize()
    net.hybridize()
    x = data(2, 1, 2, 2)
    y = net(x).asnumpy()
    prefix = str(tmp_path / "net")
    net.save(prefix)
    tensors, meta = mxnet_format.read(prefix + "-model.params")
    assert meta["named"] and list(tensors) == list(net.collect_params())
    again = Net()
    again.load(prefix)
    assert again._active and again.features[0]._active
    np.testing.assert_allclose(again(x).asnumpy(), y, rtol=1e-6)
    with pytest.raises(ValueError, match="was saved as"):
        mlp().load(prefix)


# ---------------------------------------------------------------- casting, hooks and parameters
def test_cast_keeps_batchnorm_in_float32() -> None:
    net = mlp(in_units=4)
    net.initialize()
    net.cast("float16")
    assert net[0].weight.dtype.np_dtype == np.float16
    assert net[1].gamma.dtype.np_dtype == np.float32  # deferred, stays float32 once shaped
    net[1](Tensor(np.ones((2, 6), np.float32)))
    assert net[1].running_var.data().asnumpy().dtype == np.float32


def test_forward_hooks_and_detach() -> None:
    net = nn.Dense(2, in_units=3)
    net.initialize()
    calls = []
    pre = net.register_forward_pre_hook(lambda block, args: calls.append(("pre", args[0].shape)))
    post = net.register_forward_hook(lambda block, args, out: calls.append(("post", out.shape)))
    net(data(4, 3))
    assert calls == [("pre", (4, 3)), ("post", (4, 2))]
    pre.detach()
    post.detach()
    net(data(4, 3))
    assert len(calls) == 2


def test_parameter_and_constant_surface() -> None:
    p = Parameter("weight", shape=(2, 3), init="ones", lr_mult=0.5)
    p.initialize()
    assert p.data is p and type(p.data()).__name__ == "NDArray"  # p.data(): the value as MXNet's array
    np.testing.assert_array_equal(p.data().asnumpy(), p.asnumpy())
    assert len(p.list_data()) == 1 and np.shares_memory(p.list_data()[0]._data, p._data)
    assert p.grad().shape == (2, 3) and callable(p.grad)
    assert repr(p) == "Parameter weight (shape=(2, 3), dtype=float32)"
    p.grad_req = "null"
    assert p.grad is None
    with pytest.raises(RuntimeError, match="grad_req='null'"):
        p.list_grad()
    with pytest.raises(ValueError, match="grad_req must be one of"):
        p.grad_req = "sometimes"
    c = Constant(np.arange(3, dtype=np.float32))
    c.initialize()
    np.testing.assert_array_equal(c.data().asnumpy(), [0, 1, 2])
    assert c.grad_req == "null"
    # a list becomes float32 (MXNet 1.9.1: Constant('c', [[1, 2]]).data().dtype is float32); arrays keep theirs
    assert Constant([[1, 2], [3, 4]]).asnumpy().dtype == np.float32
    assert Constant(np.arange(3, dtype=np.int32)).asnumpy().dtype == np.int32
    with pytest.raises(ValueError, match="only dense"):
        Parameter("w", shape=(2,), stype="row_sparse")


def test_block_constructor_takes_gluon1_arguments() -> None:
    class Old(HybridBlock):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)

    assert Old(prefix="net_").prefix == "net_"
    with pytest.raises(TypeError, match="unexpected arguments"):
        Old(prefixes="net_")


def test_sync_batch_norm_needs_as_many_ranks_as_devices() -> None:
    with pytest.raises(ValueError, match="mpirun -n 2"):
        nn.SyncBatchNorm(num_devices=2)


def test_unknown_activation_and_layout() -> None:
    with pytest.raises(ValueError, match="unknown activation"):
        nn.Activation("swishy")
    with pytest.raises(ValueError, match="NCHW"):
        nn.Conv2D(2, 3, layout="NCDHW")


def test_no_warnings_in_a_plain_training_step() -> None:
    net = mlp()
    net.initialize()
    trainer = Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with autograd.record():
            value = loss.SoftmaxCrossEntropyLoss()(net(data(4, 5)), Tensor(np.array([0, 1, 2, 1],
                                                                                    np.float32)))
        value.backward()
        trainer.step(4)


def test_infer_type_and_plain_cells_inside() -> None:
    from cellonnx import float64
    from cellonnx import nn as ms_nn

    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=2))
    net.register_child(ms_nn.Dense(3, 2), "ms")
    net.initialize()
    assert list(net.collect_params()) == ["0.weight", "0.bias", "ms.weight", "ms.bias"]
    net.infer_type(Tensor(np.ones((1, 2)), float64))
    assert net[0].weight.dtype == float64
    assert net(Tensor(np.ones((4, 2)), float64)).shape == (4, 2)


def test_loss_batch_axis() -> None:
    pred, label = data(3, 4, 5), data(3, 4, 5, seed=1)
    value = loss.L1Loss(batch_axis=1)(pred, label)
    np.testing.assert_allclose(value.asnumpy(), np.abs(pred.asnumpy() - label.asnumpy()).mean(axis=(0, 2)),
                               rtol=1e-6)
    with pytest.raises(ValueError, match="not an MXNet operator"):
        nn.Lambda("no_such_op")
