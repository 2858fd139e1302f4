"""Public Gluon model code - MXNet's model zoo from the 1.9.1 and 2.0.0b1 wheels and GluonCV 0.10.5 -
ported by changing its import lines only (``mxnet`` -> ``cellonnx.mxnet``), against real MXNet 1.9.1.

For each network of networks_mxnet.py: construction with MXNet 1.x's parameter names for 1.x code
(``resnetv10_conv0_weight``, ``collect_params``) and the structural names save_parameters writes; the eager
forward in inference mode and in a training-mode pass under ``autograd.record()`` (with the BatchNorm running
statistics it moves); loss, gradients and one ``gluon.Trainer`` SGD step under ``autograd.record()`` (training
mode: MXNet 1.9's BatchNorm gradient in inference mode applies the training-mode formula to the running
statistics, which is not the derivative of its inference output; cellonnx's is); the hybridized (compiled)
forward at batch 2, 1 and 5; ``export`` of that hybridized network with a dynamic batch run by onnxruntime at
batch 1, 2 and 5 (batch 5 cycles the fixture's two samples, 0, 1, 0, 1, 0: in inference mode each sample is
computed on its own, so MXNet's outputs cycle the same way); and a ``save_parameters`` / ``load_parameters``
round trip. Everything is compared with fixtures that tests/fixtures/mxnet/gen_ports.py wrote with MXNet 1.9.1
from the original files. MXNet 2.x's files cannot run on MXNet 1.9.1: they are compared with the fixture of
the 1.9.1 network of the same architecture (``reference``), their parameters taking the same values by
structural name.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.ort_session import cpu_session
from tests.ports import checks, networks_mxnet, wheels
from tests.ports.checks import GRAD_TOL, OUT_TOL
from tests.ports.xfails_mxnet import XFAILS
from tests.tolerance import assert_close

NETWORKS = networks_mxnet.NETWORKS
LR, MOMENTUM, WEIGHT_DECAY = 0.1, 0.9, 1e-4


def cases(aspect: str) -> list[Any]:
    out = []
    for name, spec in NETWORKS.items():
        marks = []
        if spec["slow"]:
            marks.append(pytest.mark.slow)
        reason = XFAILS.get((name, aspect)) or XFAILS.get((name, "*"))
        if reason:
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        if aspect == "train" and not spec["train"]:
            marks.append(pytest.mark.skip(reason="the training-mode forward is random (dropout)"))
        out.append(pytest.param(name, marks=marks, id=name))
    return out


def fixture(name: str) -> dict[str, np.ndarray]:
    """The MXNet 1.9.1 fixture of ``name``, or of its 1.9.1 reference for MXNet 2.x's files."""
    return checks.fixture("mxnet", NETWORKS[name].get("reference", name))


def root(spec: dict[str, Any]) -> str:
    entry = wheels.manifest()[spec["package"]]
    return entry.get("import_root") or entry["name"]


_BUILT: dict[str, Any] = {}
_HYBRIDIZED: dict[str, Any] = {}


def build(name: str, importer: Any) -> Any:
    """The network (1.x names counted from a fresh NameManager, as the fixture's), parameters set from
    networks_mxnet.param_value by structural name: a deep copy (its own parameters, gradients and running
    statistics) of the one network this worker builds per name, since every test of a name starts from the
    same construction. A network's tests run one after another (conftest.py), so only the last network
    built is kept."""
    if name not in _BUILT:
        _BUILT.clear()
        _BUILT[name] = _build(name, importer)
    return copy.deepcopy(_BUILT[name])


def hybridized(name: str, importer: Any) -> Any:
    """The network hybridized and called: the one test_hybridized_forward compiled and checked in this worker
    (called at batch 2, 1 and 5), or else a new one called at batch 1."""
    net = _HYBRIDIZED.pop(name, None)
    if net is None:
        net = build(name, importer)
        net.hybridize()
        net(*nd_inputs(name, 1))
    return net


def _build(name: str, importer: Any) -> Any:
    import cellonnx.mxnet as mx

    spec = NETWORKS[name]
    mx.random.seed(0)
    module = importer(networks_mxnet.module_path(spec, root(spec)))
    with mx.name.NameManager():
        net = networks_mxnet.prepare(spec["make"](module))
    net.initialize()
    net(mx.nd.array(networks_mxnet.make_inputs(spec, "shape")[0][:1]))
    load(net)
    return net


def load(net: Any) -> None:
    import cellonnx.mxnet as mx

    for key, p in structural(net).items():
        p.set_data(mx.nd.array(networks_mxnet.param_value(key, p.shape)))


def structural(net: Any) -> dict[str, Any]:
    """The parameters by structural name (the keys save_parameters writes)."""
    return {key: p for key, _, _, p in net._walk()}


def arrays(name: str, batch: int | None = None) -> list[np.ndarray]:
    """The network's inputs (networks_mxnet.make_inputs, as the fixture generator made them)."""
    spec = NETWORKS[name]
    out = networks_mxnet.make_inputs(spec, spec.get("reference", name))
    want = fixture(name)
    for i, a in enumerate(out):
        np.testing.assert_allclose([a.astype(np.float64).sum(), np.abs(a).max()], want[f"input_sum/{i}"],
                                   rtol=1e-12, err_msg=f"{name}: inputs differ from the fixture's")
    return [checks.take_batch(a, batch) if batch else a for a in out]


def nd_inputs(name: str, batch: int | None = None) -> list[Any]:
    """The inputs as the code expects them: mx.np arrays for MXNet 2.x's files (use_np), NDArrays for 1.x."""
    import cellonnx.mxnet as mx

    make = mx.np.array if "reference" in NETWORKS[name] else mx.nd.array
    return [make(a) for a in arrays(name, batch)]


def compare(got: Any, want: dict[str, np.ndarray], stage: str, what: str, batch: int | None = None) -> None:
    checks.compare(networks_mxnet.flat(got), want, stage, what, batch, reference="MXNet 1.9.1")


@pytest.mark.parametrize("name", cases("names"))
def test_parameter_names(name: str, importer: Any) -> None:
    net = build(name, importer)
    want = fixture(name)
    params = structural(net)
    assert list(params) == want["structural"].tolist()
    assert [str(tuple(p.shape)) for p in params.values()] == want["structural_shapes"].tolist()
    collected = net.collect_params()
    if "reference" in NETWORKS[name]:  # Gluon 2.x code: collect_params by structural name
        assert list(collected) == want["structural"].tolist()
        return
    assert list(collected) == want["names"].tolist()
    assert [str(tuple(p.shape)) for p in collected.values()] == want["shapes"].tolist()
    assert [p.grad_req for p in collected.values()] == want["grad_reqs"].tolist()
    assert [p.name for p in collected.values()] == want["names"].tolist()


@pytest.mark.parametrize("name", cases("eval"))
def test_eval_forward(name: str, importer: Any) -> None:
    net = build(name, importer)
    want = fixture(name)
    out = net(*nd_inputs(name))
    assert all(type(o).__name__ in ("NDArray", "ndarray") for o in networks_mxnet.flat(out))
    compare(out, want, "eval", f"{name} eval")


@pytest.mark.parametrize("name", cases("train"))
def test_train_forward(name: str, importer: Any) -> None:
    from cellonnx.mxnet import autograd

    net = build(name, importer)
    want = fixture(name)
    with autograd.record(train_mode=True):
        out = net(*nd_inputs(name))
    moving = checks.ill_conditioned(want, "train")
    if moving:
        pytest.skip(f"ill-conditioned: MXNet's own {moving} move by "
                    f"{max(float(want['sens/' + k[5:]]) for k in moving):.2g} of their scale "
                    "under 1e-6 input noise")
    compare(out, want, "train", f"{name} train")
    networks_mxnet.flat(out)[0].backward()
    params = structural(net)
    for key in (k for k in want if k.startswith("stats/")):
        assert_close(params[key[6:]].data().asnumpy(), want[key], **checks.tol(want, key, OUT_TOL),
                     what=f"{name} {key[6:]} after a training pass")


@pytest.mark.parametrize("name", cases("grad"))
def test_trainer_step(name: str, importer: Any) -> None:
    trainer_step(name, build(name, importer))


@pytest.mark.parametrize("name", cases("grad"))
def test_hybridized_trainer_step(name: str, importer: Any) -> None:
    """The same step with the network hybridized: under autograd.record() its forward and backward run as
    compiled ONNX graphs in onnxruntime (cellonnx/gluon/hybrid_train.py), then Trainer.step."""
    from cellonnx.gluon.hybrid_train import CompiledTraining

    net = build(name, importer)
    net.hybridize()
    trainer_step(name, net, " hybridized")
    runs = [c.backward_runs for c in net._compiled.values() if isinstance(c, CompiledTraining)]
    assert runs == [1], f"{name}: the hybridized network did not train as one compiled graph pair ({runs})"


def trainer_step(name: str, net: Any, how: str = "") -> None:
    """One record / backward / Trainer.step (SGD with momentum and weight decay) against MXNet 1.9.1's loss,
    gradients and parameters after it: the gradients (and their updates) that MXNet's own rounding moves too
    much to compare are left out, the rest compared."""
    import cellonnx.mxnet as mx
    from cellonnx.mxnet import autograd, gluon

    want = fixture(name)
    # training-mode batch statistics of a small batch: "sens/grad/<name>" keys
    moving = {k[5:] for k in checks.ill_conditioned(want, "grad")}
    compared = [k for k in want if k.startswith("grad/") and k not in moving]
    if not compared:
        pytest.skip(f"ill-conditioned: MXNet's own {sorted(moving)} move by "
                    f"{max(float(want['sens/' + k]) for k in moving):.2g} of their scale "
                    "under 1e-6 input noise")
    norms_compared = checks.conditioned(want, "grad_norm")
    x = nd_inputs(name)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    with autograd.record():
        out = networks_mxnet.flat(net(*x))[0]
        make = mx.np.array if "reference" in NETWORKS[name] else mx.nd.array
        loss = loss_fn(out, make(want["label"]))
    loss.backward()
    assert_close(loss.sum().asnumpy().reshape(-1), want["loss"].reshape(-1), **checks.tol(want, "loss",
                                                                                          OUT_TOL),
                 what=f"{name}{how} loss")
    params = structural(net)
    trainable = [(k, p) for k, p in params.items() if p.grad_req != "null"]
    for key in compared:
        got = params[key[5:]].grad().asnumpy().reshape(-1)[:networks_mxnet.RECORDED]
        assert_close(got, want[key], **checks.tol(want, key, GRAD_TOL),
                     what=f"{name}{how} gradient of {key[5:]}")
    norms = np.array([np.linalg.norm(p.grad().asnumpy().astype(np.float64)) for _, p in trainable])
    if norms_compared:
        assert_close(norms, want["grad_norm"], **checks.tol(want, "grad_norm", GRAD_TOL),
                     what=f"{name}{how} gradient norms")

    before = {k: p.data().asnumpy().copy() for k, p in trainable}
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": LR, "momentum": MOMENTUM,
                                                          "wd": WEIGHT_DECAY})
    trainer.step(x[0].shape[0])
    for key in (k for k in want if k.startswith("step/") and "grad/" + k[5:] in compared):
        start = before[key[5:]].reshape(-1)[:networks_mxnet.RECORDED]
        got = params[key[5:]].data().asnumpy().reshape(-1)[:networks_mxnet.RECORDED]
        # the update, as accurate as the gradient it is made of
        assert_close(got - start, want[key] - start, **checks.tol(want, "grad/" + key[5:], GRAD_TOL),
                     what=f"{name}{how} {key[5:]} update of one step")
    steps = np.array([np.linalg.norm((p.data().asnumpy() - before[k]).astype(np.float64))
                      for k, p in trainable])
    if norms_compared:
        assert_close(steps, want["step_norm"], **checks.tol(want, "grad_norm", GRAD_TOL),
                     what=f"{name}{how} step sizes")


@pytest.mark.parametrize("name", cases("hybridize"))
def test_hybridized_forward(name: str, importer: Any) -> None:
    net = build(name, importer)
    want = fixture(name)
    net.hybridize()
    for batch in (2, 1, 5):
        compare(net(*nd_inputs(name, batch)), want, "eval", f"{name} hybridized at batch {batch}",
                batch=batch)
    assert net._compiled, f"{name}: the hybridized network ran eagerly"
    _HYBRIDIZED.clear()
    _HYBRIDIZED[name] = net  # for test_export_dynamic_batch, which exports a hybridized, called network


@pytest.mark.parametrize("name", cases("export"))
def test_export_dynamic_batch(name: str, importer: Any, tmp_path: Path) -> None:
    import onnx

    net = hybridized(name, importer)
    want = fixture(name)
    path = net.export(str(tmp_path / name))
    model = onnx.load(path)
    names = {t.name for t in model.graph.initializer}
    expected = set(want["structural"].tolist() if "reference" in NETWORKS[name] else want["names"].tolist())
    assert names & expected, f"{name}: no initializer carries MXNet's parameter names"
    assert not {n for n in names if n in expected} ^ {n for n in expected if n in names}
    session = cpu_session(path)
    feeds = [i.name for i in session.get_inputs()]
    for batch in (1, 2, 5):
        got = session.run(None, dict(zip(feeds, arrays(name, batch))))
        compare(got, want, "eval", f"{name} onnxruntime at batch {batch}", batch=batch)


@pytest.mark.parametrize("name", cases("checkpoint"))
def test_save_load_parameters(name: str, importer: Any, tmp_path: Path) -> None:
    import cellonnx.mxnet as mx

    net = build(name, importer)
    want = fixture(name)
    path = str(tmp_path / f"{name}.params")
    net.save_parameters(path)
    assert list(mx.nd.load(path)) == want["structural"].tolist()
    spec = NETWORKS[name]
    module = importer(networks_mxnet.module_path(spec, root(spec)))
    with mx.name.NameManager():
        fresh = networks_mxnet.prepare(spec["make"](module))
    fresh.load_parameters(path)
    compare(fresh(*nd_inputs(name)), want, "eval", f"{name} after load_parameters")


def zoo_cases() -> list[Any]:
    return [pytest.param(name, marks=[pytest.mark.slow] if spec["slow"] else [], id=name)
            for name, spec in NETWORKS.items() if spec["package"] == "mxnet-1.9.1"]


@pytest.mark.parametrize("name", zoo_cases())
def test_cellonnx_model_zoo(name: str) -> None:
    """cellonnx's own gluon.model_zoo.vision builds the 1.9.1 model zoo's networks: same constructors, 1.x
    and structural parameter names, outputs."""
    import importlib

    import cellonnx.mxnet as mx

    spec = NETWORKS[name]
    want = fixture(name)
    module = importlib.import_module(networks_mxnet.module_path(spec, "cellonnx"))
    with mx.name.NameManager():
        net = networks_mxnet.prepare(spec["make"](module))
    net.initialize()
    net(mx.nd.array(networks_mxnet.make_inputs(spec, "shape")[0][:1]))
    load(net)
    assert list(structural(net)) == want["structural"].tolist()
    assert list(net.collect_params()) == want["names"].tolist()
    compare(net(*nd_inputs(name)), want, "eval", f"cellonnx's {name} eval")
