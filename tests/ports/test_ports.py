"""Public MindSpore model code, ported by changing its import lines only, against real MindSpore 2.10.

For each network of networks.py (built from the ported files of sources.json): construction with
MindSpore's parameter names and shapes (the checkpoint keys), the eager forward in evaluation and training
mode, the loss, gradients (three in full, every norm) and one nn.Momentum step, eagerly and in GRAPH_MODE as
one compiled ONNX graph, against the fixtures that tests/fixtures/mindspore/gen_ports.py wrote with
MindSpore from the original files; export with a dynamic batch (from a batch-1 example) run by onnxruntime
at batch 1, 2 and 5 (batch 5 cycles the fixture's two samples, checks.take_batch); and a checkpoint
round-trip.

Where cellonnx still lacks a MindSpore name or behaviour a network needs, the case carries a strict xfail
naming it (xfails.py): when the name lands the case passes, strict turns that into a failure, and the mark
is removed.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.ort_session import cpu_session
from tests.ports import checks, networks
from tests.ports.checks import GRAD_TOL, OUT_TOL
from tests.ports.xfails import XFAILS
from tests.tolerance import assert_close

LR, MOMENTUM, WEIGHT_DECAY = 0.1, 0.9, 1e-4
ASPECTS = ("names", "eval", "train", "grad", "export", "checkpoint")


def cases(aspect: str) -> list[Any]:
    out = []
    for name, spec in networks.NETWORKS.items():
        marks = []
        if spec["slow"]:
            marks.append(pytest.mark.slow)
        reason = XFAILS.get((name, aspect)) or XFAILS.get((name, "*"))
        if reason:
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        skip = {"train": not spec["train"] and "the training-mode forward is random (dropout)",
                "export": spec["export"] is not True and spec["export"]}.get(aspect)
        if skip:
            marks.append(pytest.mark.skip(reason=skip))
        out.append(pytest.param(name, marks=marks, id=name))
    return out


def fixture(name: str) -> dict[str, np.ndarray]:
    return checks.fixture("mindspore", name)


_BUILT: dict[str, Any] = {}


def build(name: str, importer: Any) -> Any:
    """The network with every parameter set from networks.param_value: a deep copy of the one network this
    worker builds per name (every test of a name starts from the same construction; a network's tests run
    one after another, conftest.py, so only the last network built is kept)."""
    import cellonnx as ms

    ms.set_seed(0)
    if name not in _BUILT:
        _BUILT.clear()
        _BUILT[name] = networks.build(networks.NETWORKS[name], importer)
        load(_BUILT[name])
        ms.set_seed(0)
    return copy.deepcopy(_BUILT[name])


def load(net: Any) -> None:
    from cellonnx import Tensor

    for p in net.get_parameters():
        p.set_data(Tensor(networks.param_value(p.name, p.shape)))


def inputs(want: dict[str, np.ndarray], batch: int | None = None) -> list[Any]:
    from cellonnx import Tensor

    return [Tensor(a) for a in checks.inputs(want, batch)]


outputs, numpy, tol, conditioned = checks.outputs, checks.numpy, checks.tol, checks.conditioned


def compare(got: list[Any], want: dict[str, np.ndarray], stage: str, what: str,
            batch: int | None = None) -> None:
    checks.compare(got, want, stage, what, batch, reference="MindSpore")


@pytest.mark.parametrize("name", cases("names"))
def test_parameter_names(name: str, importer: Any) -> None:
    net = build(name, importer)
    want = fixture(name)
    got = [(p.name, str(tuple(p.shape)), bool(p.requires_grad)) for p in net.get_parameters()]
    expected = list(zip(want["names"].tolist(), want["shapes"].tolist(), want["trainable"].tolist()))
    assert got == expected


@pytest.mark.parametrize("name", cases("eval"))
def test_eval_forward(name: str, importer: Any) -> None:
    net = build(name, importer)
    want = fixture(name)
    net.set_train(False)
    compare(networks.flat(net(*inputs(want))), want, "eval", f"{name} eval")


@pytest.mark.parametrize("name", cases("train"))
def test_train_forward(name: str, importer: Any) -> None:
    net = build(name, importer)
    want = fixture(name)
    net.set_train(True)
    got = networks.flat(net(*inputs(want)))
    moving = checks.ill_conditioned(want, "train")
    if moving:
        pytest.skip(f"ill-conditioned: MindSpore's own {moving} move by "
                    f"{max(float(want[k]) for k in moving):.2g} of their scale under 1e-6 input noise")
    compare(got, want, "train", f"{name} train")


def loss_fn(name: str, net: Any, want: dict[str, np.ndarray]) -> Any:
    from cellonnx import Tensor, nn

    spec = networks.NETWORKS[name]
    if spec["loss"] == "ce":
        ce = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        labels = Tensor(want["label"])
        return lambda *xs: ce(networks.flat(net(*xs))[0], labels)
    evals = outputs(want, "eval")
    floats = [i for i, o in enumerate(evals) if o.dtype.kind == "f"]
    ws = [Tensor(w) for w in networks.dot_weights(name, [evals[i].shape for i in floats])]

    def forward(*xs: Any) -> Any:
        got = networks.flat(net(*xs))
        return sum((got[i] * w).sum() for i, w in zip(floats, ws))
    return forward


@pytest.mark.parametrize("name", cases("grad"))
def test_training_step(name: str, importer: Any) -> None:
    import cellonnx as ms
    from cellonnx import nn

    net = build(name, importer)
    want = fixture(name)
    net.set_train(False)  # as the fixture: gradients with the moving statistics (see gen_ports.py)
    trainable = net.trainable_params()
    before = {p.name: p.asnumpy().copy() for p in trainable}
    loss, grads = ms.value_and_grad(loss_fn(name, net, want), None, weights=trainable)(*inputs(want))
    assert_close(numpy(loss), want["loss"], **tol(want, "loss", OUT_TOL), what=f"{name} loss")
    by_name = {p.name: numpy(g) for p, g in zip(trainable, grads)}
    for key in (k for k in want if k.startswith("grad/")):
        assert_close(by_name[key[5:]].reshape(-1)[:networks.RECORDED], want[key], **tol(want, key, GRAD_TOL),
                     what=f"{name} gradient of {key[5:]}")
    norms = np.array([np.linalg.norm(numpy(g).astype(np.float64)) for g in grads])
    assert_close(norms, want["grad_norm"], **tol(want, "grad_norm", GRAD_TOL), what=f"{name} gradient norms")

    nn.Momentum(trainable, learning_rate=LR, momentum=MOMENTUM, weight_decay=WEIGHT_DECAY)(grads)
    check_step(name, want, trainable, before)


def check_step(name: str, want: dict[str, np.ndarray], trainable: list[Any], before: dict[str, np.ndarray],
               how: str = "") -> None:
    """The parameters after MindSpore's one Momentum step: the recorded values and every step's size."""
    for key in (k for k in want if k.startswith("step/")):
        param = next(p for p in trainable if p.name == key[5:])
        assert_close(param.asnumpy().reshape(-1)[:networks.RECORDED], want[key], **OUT_TOL,
                     what=f"{name} {key[5:]} after one{how} step")
    steps = np.array([np.linalg.norm((p.asnumpy() - before[p.name]).astype(np.float64)) for p in trainable])
    assert_close(steps, want["step_norm"], **GRAD_TOL, what=f"{name}{how} step sizes")


@pytest.mark.parametrize("name", cases("grad"))
def test_compiled_training_step(name: str, importer: Any) -> None:
    """The same step in GRAPH_MODE: forward, backward and the Momentum update traced into one ONNX graph that
    onnxruntime runs (cellonnx.graph.train), with MindSpore's loss and parameters after it."""
    import cellonnx as ms
    from cellonnx import nn
    from cellonnx.graph.train import compiled_steps

    class Loss(nn.Cell):
        def __init__(self, net: Any, fn: Any) -> None:
            super().__init__(auto_prefix=False)   # the parameters keep the network's names, as WithLossCell's
            self.net = net
            self._fn = fn

        def construct(self, *xs: Any) -> Any:
            return self._fn(*xs)

    net = build(name, importer)
    want = fixture(name)
    net.set_train(False)  # as the fixture
    trainable = net.trainable_params()
    before = {p.name: p.asnumpy().copy() for p in trainable}
    opt = nn.Momentum(trainable, learning_rate=LR, momentum=MOMENTUM, weight_decay=WEIGHT_DECAY)
    step = nn.TrainOneStepCell(Loss(net, loss_fn(name, net, want)), opt)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        loss = step(*inputs(want))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert len(compiled_steps(step)) == 1, f"{name}: the step did not run as one compiled graph"
    assert_close(numpy(loss), want["loss"], **tol(want, "loss", OUT_TOL), what=f"{name} compiled loss")
    check_step(name, want, trainable, before, " compiled")


# batch-norm networks: their training-mode gradient runs through batch norm's cancelling backward
TRAINING_MODE_GRADIENT = ("mobilenet_v2", "resnet")
# images in the accuracy check: at the fixtures' batch of 2 a training-mode MobileNetV2 gradient moves by
# 1e-4 - 8e-4 of its scale when one layer's output moves by half a float32 ulp (float64 throughout), and by
# 0.3 of it in eager float32 on a random batch of 2, so no float32 form can be told from another there; at 8
# eager and compiled both sit at 3e-6 - 8e-5 (bench/RESULTS.md, "NCHWc convolutions")
ACCURACY_BATCH = 8


@pytest.mark.parametrize("name", TRAINING_MODE_GRADIENT)
def test_compiled_training_mode_gradient_is_as_accurate_as_eager(name: str, importer: Any) -> None:
    """In training mode (batch statistics: batch norm's backward cancels) the gradient compiled with ms.jit
    is as close to the float64 eager gradient as eager's float32 one, on a seeded batch of ACCURACY_BATCH
    images of the fixture's size."""
    import cellonnx as ms
    from cellonnx import Tensor, nn

    want = fixture(name)
    assert networks.NETWORKS[name]["loss"] == "ce", name
    rng = np.random.default_rng(0)
    (example,) = checks.inputs(want)
    images = rng.standard_normal((ACCURACY_BATCH, *example.shape[1:])).astype(np.float32)
    labels = rng.integers(0, int(want["label"].max()) + 1, ACCURACY_BATCH).astype(want["label"].dtype)

    def gradients(mode: int, dtype: Any = np.float32) -> list[np.ndarray]:
        net = build(name, importer)
        net.set_train(True)
        if dtype != np.float32:
            for p in net.get_parameters():
                p.set_data(Tensor(p.asnumpy().astype(dtype)))
        ce, y = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), Tensor(labels)
        grad = ms.value_and_grad(lambda x: ce(networks.flat(net(x))[0], y), None,
                                 weights=net.trainable_params())
        ms.set_context(mode=mode)
        try:
            got = (ms.jit(grad) if mode == ms.GRAPH_MODE else grad)(Tensor(images.astype(dtype)))[1]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        return [numpy(g).astype(np.float64) for g in got]

    exact = gradients(ms.PYNATIVE_MODE, np.float64)
    scale = max(np.abs(g).max() for g in exact)
    eager = max(np.abs(a - b).max() for a, b in zip(gradients(ms.PYNATIVE_MODE), exact)) / scale
    compiled = max(np.abs(a - b).max() for a, b in zip(gradients(ms.GRAPH_MODE), exact)) / scale
    assert compiled <= 4 * eager, \
        f"{name}: compiled gradient {compiled:.1e} from float64, eager's {eager:.1e}"


@pytest.mark.parametrize("name", cases("export"))
def test_export_dynamic_batch(name: str, importer: Any, tmp_path: Path) -> None:

    import cellonnx as ms
    from cellonnx import Tensor

    net = build(name, importer)
    want = fixture(name)
    net.set_train(False)
    example = inputs(want, batch=1)
    net.set_inputs(*[Tensor(shape=(None,) + tuple(x.shape[1:]), dtype=x.dtype) for x in example])
    path = ms.export(net, *example, file_name=str(tmp_path / name), file_format="ONNX")
    session = cpu_session(path)
    names = [i.name for i in session.get_inputs()]
    for batch in (1, 2, 5):
        feed = dict(zip(names, (numpy(x) for x in inputs(want, batch))))
        got = session.run(None, feed)
        compare(got, want, "eval", f"{name} onnxruntime at batch {batch}", batch=batch)


@pytest.mark.parametrize("name", cases("checkpoint"))
def test_checkpoint_round_trip(name: str, importer: Any, tmp_path: Path) -> None:
    import cellonnx as ms

    net = build(name, importer)
    want = fixture(name)
    path = str(tmp_path / f"{name}.ckpt")
    ms.save_checkpoint(net, path)
    saved = ms.load_checkpoint(path)
    assert list(saved) == want["names"].tolist()
    fresh = networks.build(networks.NETWORKS[name], importer)
    not_loaded = ms.load_param_into_net(fresh, saved)
    assert not any(not_loaded), not_loaded
    for p in fresh.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), networks.param_value(p.name, p.shape), err_msg=p.name)
    fresh.set_train(False)
    compare(networks.flat(fresh(*inputs(want))), want, "eval", f"{name} after loading")
