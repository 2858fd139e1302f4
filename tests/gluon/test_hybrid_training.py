"""Training a hybridized block under ``autograd.record()``: the block runs as a compiled forward graph and a
compiled backward graph in onnxruntime (cellonnx/gluon/hybrid_train.py), and five steps of the imperative
loop (record, loss, backward, Trainer.step) give the trajectory of the same network run eagerly: losses,
parameters, optimizer states and moving statistics, in Gluon 2.x (mx.np) and 1.x (mx.nd, hybrid_forward)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.gluon.hybrid_train import CompiledTraining
from tests.tolerance import assert_close

gluon, autograd, nn = mx.gluon, mx.autograd, mx.gluon.nn


def mlp() -> Any:
    net = nn.HybridSequential()
    net.add(nn.Dense(16, activation="relu"), nn.Dense(8, activation="tanh"), nn.Dense(3))
    return net


def cnn(dropout: float | None = None) -> Any:
    net = nn.HybridSequential()
    net.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Activation("relu"), nn.MaxPool2D(2),
            nn.Conv2D(6, 3, strides=2), nn.BatchNorm(), nn.Activation("relu"), nn.Flatten())
    if dropout is not None:
        net.add(nn.Dropout(dropout))
    net.add(nn.Dense(3))
    return net


class Gluon1Net(gluon.HybridBlock):
    """Gluon 1.x style: hybrid_forward(F, x) over mx.nd / mx.sym, a parameter of its own."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.name_scope():
            self.conv = nn.Conv2D(4, 3, in_channels=2)
            self.bn = nn.BatchNorm(in_channels=4)
            self.dense = nn.Dense(3, in_units=4 * 6 * 6)
            self.scale = self.params.get("scale", shape=(3,), init=mx.init.One())

    def hybrid_forward(self, F: Any, x: Any, scale: Any) -> Any:
        h = F.relu(self.bn(self.conv(x)))
        return F.broadcast_mul(self.dense(F.flatten(h)), scale.reshape((1, 3)))


NETS: dict[str, tuple[Callable[[], Any], tuple]] = {
    "mlp": (mlp, (6, 10)),
    "cnn_batchnorm": (cnn, (6, 2, 8, 8)),
    "cnn_dropout0": (lambda: cnn(0.0), (6, 2, 8, 8)),
    "gluon1": (Gluon1Net, (6, 2, 8, 8)),
}
OPTIMIZERS = {
    "sgd_momentum_wd": ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-3}),
    "adam_wd": ("adam", {"learning_rate": 0.01, "wd": 1e-3}),
}


def seeded(name: str, hybrid: bool, style: str) -> tuple[Any, Any, Any]:
    build, shape = NETS[name]
    with mx.name.NameManager():  # the same 1.x prefixes on both sides
        net = build()
    net.initialize()
    rng = np.random.default_rng(7)
    x = rng.normal(size=shape).astype(np.float32)
    y = rng.integers(0, 3, shape[0]).astype(np.float32)
    arr = mx.nd.array if style == "1.x" else mx.np.array
    with autograd.pause():
        net(arr(x))  # deferred shapes
    for key in sorted(net.collect_params()):
        p = net.collect_params()[key]
        if key.endswith("running_var"):
            value = rng.uniform(0.5, 1.5, p.shape)
        else:
            value = rng.normal(scale=0.3, size=p.shape)
        p.set_data(arr(value.astype(np.float32)))
    if hybrid:
        net.hybridize(static_alloc=True)
    return net, arr(x), arr(y)


def trajectory(name: str, hybrid: bool, optimizer: str, style: str = "2.x", steps: int = 5
               ) -> dict[str, np.ndarray]:
    net, x, y = seeded(name, hybrid, style)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    opt, params = OPTIMIZERS[optimizer]
    trainer = gluon.Trainer(net.collect_params(), opt, dict(params))
    got: dict[str, np.ndarray] = {}
    for i in range(steps):
        with autograd.record():
            out = net(x)
            loss = loss_fn(out, y)
        loss.backward()
        trainer.step(x.shape[0])
        got[f"loss{i}"] = loss.asnumpy()
    for key, p in net.collect_params().items():
        got[key] = p.data().asnumpy()
    for i, state in trainer._states.items():
        slots = state if isinstance(state, tuple) else (state,)
        for j, arr in enumerate(s for s in slots if s is not None):
            got[f"state{i}.{j}"] = np.asarray(arr)
    if hybrid:
        runs = [c for c in net._compiled.values() if isinstance(c, CompiledTraining)]
        assert len(runs) == 1, "one trace serves every step"
        assert runs[0].forward_runs == steps and runs[0].backward_runs == steps, "onnxruntime ran each step"
    return got


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
@pytest.mark.parametrize("name", sorted(NETS))
def test_hybridized_trajectory_equals_eager(name: str, optimizer: str) -> None:
    style = "1.x" if name == "gluon1" else "2.x"
    eager = trajectory(name, False, optimizer, style)
    compiled = trajectory(name, True, optimizer, style)
    assert sorted(compiled) == sorted(eager)
    for key in eager:
        assert_close(compiled[key], eager[key], 1e-4, 1e-5, what=f"{name}/{optimizer}: {key}")


def test_batchnorm_moving_statistics_follow_training_mode() -> None:
    net, x, _ = seeded("cnn_batchnorm", True, "2.x")
    before = {k: p.data().asnumpy() for k, p in net.collect_params().items() if "running" in k}
    with autograd.record(train_mode=False):  # predict mode: moving statistics used, not updated
        net(x).backward()
    for k, v in before.items():
        assert_close(net.collect_params()[k].data().asnumpy(), v, 1e-6, what=k)
    eager, _, _ = seeded("cnn_batchnorm", False, "2.x")
    with autograd.record(train_mode=False):
        eager(x).backward()
    for k, p in eager.collect_params().items():
        if p.grad_req != "null":
            assert_close(net.collect_params()[k].grad().asnumpy(), p.grad().asnumpy(), 1e-4, 1e-5, what=k)
    assert len(net._compiled) == 1
    with autograd.record():
        net(x)
    assert len(net._compiled) == 2, "training mode traces again"


def test_grad_req_add_and_null_and_input_gradient() -> None:
    nets = [seeded("mlp", hybrid, "2.x") for hybrid in (False, True)]
    for net, _, _ in nets:
        net[0].weight.grad_req = "add"
        net[1].weight.grad_req = "null"
    grads = []
    for net, x, _ in nets:
        x.attach_grad()
        for _ in range(2):
            with autograd.record():
                out = net(x)
            out.backward()
        grads.append((net[0].weight.grad().asnumpy(), net[2].weight.grad().asnumpy(), x.grad.asnumpy()))
    for got, want, what in zip(grads[1], grads[0], ("add", "write", "input")):
        assert_close(got, want, 1e-4, 1e-5, what=what)
    assert nets[1][0][1].weight.grad_req == "null"


def test_new_batch_size_reuses_the_graph_and_static_shape_traces_again() -> None:
    for static, traces in ((False, 1), (True, 2)):
        net, x, _ = seeded("mlp", False, "2.x")
        net.hybridize(static_alloc=True, static_shape=static)
        for n in (6, 4):
            with autograd.record():
                net(x[:n]).backward()
        assert len(net._compiled) == traces


def test_dropout_mask_is_shared_by_forward_and_backward() -> None:
    net = nn.HybridSequential()
    net.add(nn.Dropout(0.5))
    net.initialize()
    net.hybridize()
    x = mx.np.array(np.random.default_rng(0).uniform(1, 2, (64, 64)).astype(np.float32))
    x.attach_grad()
    with autograd.record():
        out = net(x)
    out.backward()
    kept = out.asnumpy() != 0
    assert 0.4 < kept.mean() < 0.6
    assert_close(out.asnumpy(), np.where(kept, x.asnumpy() * 2, 0), 1e-6)
    assert_close(x.grad.asnumpy(), kept * 2.0, 1e-6)


MXNET = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "hybrid_train" / "expected.npz"


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_five_steps_match_mxnet_1_9_1(optimizer: str) -> None:
    """tests/fixtures/mxnet/gen_hybrid_train.py: the same loop hybridized in real MXNet (its CachedOp)."""
    want = dict(np.load(MXNET))
    opt, params = {"sgd": OPTIMIZERS["sgd_momentum_wd"], "adam": OPTIMIZERS["adam_wd"]}[optimizer]
    with mx.name.NameManager():
        net = nn.HybridSequential()
        with net.name_scope():
            net.add(nn.Conv2D(4, 3, in_channels=2), nn.BatchNorm(in_channels=4), nn.Activation("relu"),
                    nn.MaxPool2D(2), nn.Flatten(), nn.Dense(3, in_units=36))
    net.initialize()
    for k, (name, p) in enumerate(net.collect_params().items()):
        rng = np.random.default_rng(100 + k)
        value = (rng.uniform(0.5, 1.5, p.shape) if name.endswith("running_var")
                 else rng.normal(scale=0.3, size=p.shape))
        p.set_data(mx.nd.array(value.astype(np.float32)))
    net.hybridize(static_alloc=True)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), opt, dict(params))
    x, y = mx.nd.array(want["x"]), mx.nd.array(want["y"])
    for i in range(5):
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(x.shape[0])
        assert_close(loss.asnumpy(), want[f"{optimizer}__loss{i}"], 1e-4, 1e-5, what=f"loss {i}")
    for k, p in enumerate(net.collect_params().values()):
        assert_close(p.data().asnumpy(), want[f"{optimizer}__param{k}"], 1e-4, 1e-5, what=p.name)
    states = {k: v for k, v in want.items() if k.startswith(f"{optimizer}__state")}
    assert len(states) == sum(len(s) if isinstance(s, tuple) else 1 for s in trainer._states.values())
    for key, value in states.items():
        k, j = map(int, key.split("state")[1].split("."))
        state = trainer._states[k]
        assert_close(np.asarray(state[j] if isinstance(state, tuple) else state), value, 1e-4, 1e-5, what=key)
    (compiled,) = [c for c in net._compiled.values() if isinstance(c, CompiledTraining)]
    assert compiled.backward_runs == 5


class TwoHeads(gluon.HybridBlock):
    """Deferred shapes and a tuple of outputs, one of which is not differentiated."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Dense(5, activation="relu")
        self.a, self.b = nn.Dense(2), nn.Dense(3)

    def forward(self, x: Any) -> Any:
        h = self.body(x)
        return self.a(h), self.b(h)


def test_deferred_shapes_and_several_outputs() -> None:
    got = []
    for hybrid in (False, True):
        mx.random.seed(3)
        net = TwoHeads()
        net.initialize(mx.init.Uniform(0.5))
        if hybrid:
            net.hybridize()
        x = mx.np.array(np.random.default_rng(1).normal(size=(4, 6)).astype(np.float32))
        with autograd.record():  # the first call: the shapes come from this input
            a, b = net(x)
            loss = (a * a).sum() + b.sum() * 0.5
        loss.backward()
        got.append({"a": a.asnumpy(), "b": b.asnumpy(),
                    **{k: p.grad().asnumpy() for k, p in net.collect_params().items()}})
        if hybrid:
            (compiled,) = net._compiled.values()
            assert compiled.backward_runs == 1
    assert got[0].keys() == got[1].keys()
    for key in got[0]:
        assert_close(got[1][key], got[0][key], 1e-4, 1e-5, what=key)


def test_onnxruntime_runs_the_block_and_inference_sees_the_trained_state(monkeypatch) -> None:
    import onnxruntime as ort

    runs = []
    real = ort.InferenceSession.run

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        runs.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ort.InferenceSession, "run", counted)
    outputs = []
    for hybrid in (False, True):
        net, x, y = seeded("cnn_batchnorm", hybrid, "2.x")
        trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "momentum": 0.9})
        before = len(runs)
        for _ in range(3):
            with autograd.record():
                loss = gluon.loss.SoftmaxCrossEntropyLoss()(net(x), y)
            loss.backward()
            trainer.step(x.shape[0])
        assert len(runs) - before == (6 if hybrid else 0), "a forward and a backward run per step"
        assert len({id(s) for s in runs[before:]}) == (2 if hybrid else 0), "two sessions, built once"
        outputs.append(net(x).asnumpy())   # inference: the moving statistics and weights of the training
    assert_close(outputs[1], outputs[0], 1e-4, 1e-5, what="inference after training")


def test_second_backward_and_create_graph() -> None:
    net, x, _ = seeded("mlp", True, "2.x")
    with autograd.record():
        out = net(x).sum()
    out.backward()
    first = net[0].weight.grad().asnumpy().copy()
    out.backward()   # the saved values stay while the output lives, as eagerly
    assert_close(net[0].weight.grad().asnumpy(), first, 1e-6)
    x.attach_grad()
    with autograd.record():
        out = net(x).sum()
    with pytest.raises(RuntimeError, match="HybridSequential.*create_graph"):
        autograd.grad(out, [x], create_graph=True)


class ValueBranch(gluon.HybridBlock):
    def __init__(self) -> None:
        super().__init__()
        self.dense = nn.Dense(2, in_units=3)

    def forward(self, x: Any) -> Any:
        if float(x.sum().asnumpy()) > 0:   # a Python branch on a value: no static graph holds it
            return self.dense(x)
        return -self.dense(x)


def test_what_cannot_compile_names_the_block_and_the_way_out() -> None:
    from cellonnx.graph.trace import TraceError

    net = ValueBranch()
    net.initialize()
    net.hybridize()
    x = mx.np.array(np.ones((2, 3), np.float32))
    with pytest.raises(TraceError, match=r"ValueBranch is hybridized.*read into Python.*hybridize\(False\)"):
        with autograd.record():
            net(x)
    net.hybridize(False)
    with autograd.record():
        net(x).backward()
    assert net.dense.weight.grad() is not None


def test_fixed_gamma_is_stored_as_one_after_a_compiled_training_pass() -> None:
    net = nn.HybridSequential()
    net.add(nn.Conv2D(3, 1, in_channels=2), nn.BatchNorm(scale=False, in_channels=3), nn.Dense(2))
    net.initialize()
    net[1].gamma.set_data(mx.np.array(np.full(3, 2.0, np.float32)))
    net.hybridize()
    with autograd.record():
        net(mx.np.array(np.ones((2, 2, 4, 4), np.float32))).backward()
    assert_close(net[1].gamma.data().asnumpy(), np.ones(3, np.float32), 1e-6)
