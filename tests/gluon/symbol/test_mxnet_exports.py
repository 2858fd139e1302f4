"""Models exported by real MXNet 1.9.1 (tests/fixtures/mxnet/gen_symbols.py: the model zoo, GluonCV-style
networks, one graph per operator and the old symbol.json layouts) load with SymbolBlock.imports and give
MXNet's numbers: outputs in inference mode at batch 2, 1 and 5, training-mode outputs, auxiliary states
after a training pass, gradients of a loss, one SGD step; the ONNX export passes onnx.checker (full_check) and
onnxruntime gives the same outputs at batch 1, 2 and 5; the listings (outputs, internals, arguments, auxiliary
states) are MXNet's. Tolerances: tests/tolerance.py, rtol 1e-4 with a scale-relative term.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from cellonnx import Tensor
from cellonnx.gluon import Trainer, autograd
from cellonnx.gluon.symbol import load as load_symbol
from cellonnx.gluon.symbol.export import export_onnx
from tests.gluon.symbol.fixtures import (
    GRAD_SCALE_RTOL,
    OTHER_BATCHES,
    batch_slice,
    case_names,
    compare,
    expected,
    flat,
    gradient_scale,
    index,
    load,
    make_inputs,
    probe,
)
from tests.gluon.symbol.gaps import cases

ALL = sorted(index())
DETERMINISTIC = case_names(random=False)
DIFFERENTIABLE = case_names(random=False, grad=True)


def _run(net, xs: list[np.ndarray]) -> list[np.ndarray]:
    return [o.asnumpy() for o in flat(net(*[Tensor(x) for x in xs]))]


@pytest.mark.parametrize("case", cases("inference", DETERMINISTIC))
def test_inference_matches_mxnet(case: str, tmp_path: Path) -> None:
    entry, want = index()[case], expected(case)
    net = load(case, tmp_path)
    xs = make_inputs(case)
    for i, out in enumerate(_run(net, xs)):
        compare(out, want, f"eval/{i}", f"{case}: output {i}")
    axis = entry["opts"].get("batch_axis", 0)
    if axis is not None:
        for size in OTHER_BATCHES:
            for i, out in enumerate(_run(net, [batch_slice(x, axis, size) for x in xs])):
                compare(out, want, f"eval{size}/{i}", f"{case}: output {i} at batch {size}")


@pytest.mark.parametrize("case", cases("training", DIFFERENTIABLE))
def test_training_pass_matches_mxnet(case: str, tmp_path: Path) -> None:
    """Under autograd.record(): outputs, auxiliary states, gradients of sum_i sum(out_i * probe_i), and one
    Trainer('sgd') step."""
    entry, want = index()[case], expected(case)
    opts = entry["opts"]
    net = load(case, tmp_path)
    xs = [Tensor(x) for x in make_inputs(case)]
    for spec, x in zip(entry["inputs"], xs):
        if spec[2] == "float32" and not opts.get("no_input_grad"):
            x.attach_grad()
    train = not opts.get("dropout", False) and opts.get("train", True)
    diff = opts.get("diff")
    with autograd.record(train_mode=train):
        outs = flat(net(*xs))
        terms = [
            (o * Tensor(probe(case, i, tuple(o.shape)))).sum()
            for i, o in enumerate(outs)
            if diff is None or i in diff
        ]
        loss = terms[0]
        for t in terms[1:]:
            loss = loss + t
    loss.backward()
    compare(loss.asnumpy().reshape(want["loss"].shape), want, "loss", f"{case}: loss", GRAD_SCALE_RTOL)
    floor = gradient_scale(want)
    if train:
        for i, o in enumerate(outs):
            compare(o.asnumpy(), want, f"train/{i}", f"{case}: training-mode output {i}")
    params = net.collect_params()
    for name, p in params.items():
        if p.grad_req == "null":
            compare(p.asnumpy(), want, f"aux/{name}", f"{case}: auxiliary state {name} after training")
        else:
            compare(
                p.grad.asnumpy(), want, f"grad/{name}", f"{case}: gradient of {name}", GRAD_SCALE_RTOL, floor
            )
    for spec, x in zip(entry["inputs"], xs):
        if (x.grad is not None and f"grad_in/{spec[0]}" in want) or f"grad_in/{spec[0]}#norm" in want:
            compare(
                x.grad.asnumpy(),
                want,
                f"grad_in/{spec[0]}",
                f"{case}: gradient of input {spec[0]}",
                GRAD_SCALE_RTOL,
                floor,
            )
    if not any(p.grad_req != "null" for p in params.values()):
        return
    trainer = Trainer(params, "sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-4})
    trainer.step(xs[0].shape[opts.get("batch_axis", 0) or 0])
    for name, p in params.items():
        if p.grad_req != "null":
            compare(
                p.asnumpy(),
                want,
                f"step/{name}",
                f"{case}: {name} after one SGD step",
                GRAD_SCALE_RTOL,
                floor,
            )


def _trainable(case: str) -> bool:
    return any(k.startswith("arg:") for k in index()[case]["params"])


@pytest.mark.parametrize("case", cases("step", [c for c in case_names(grad=False) if _trainable(c)]))
def test_training_step_runs(case: str, tmp_path: Path) -> None:
    """Networks whose gradients MXNet cannot give as a reference (Dropout's, see the case's grad_reason) still
    train: a recorded pass, backward and one Trainer('sgd') step move every trainable parameter to finite
    values."""
    net = load(case, tmp_path)
    xs = [Tensor(x) for x in make_inputs(case)]
    params = net.collect_params()
    trainable = {k: p for k, p in params.items() if p.grad_req != "null"}
    before = {k: p.asnumpy().copy() for k, p in trainable.items()}
    with autograd.record():
        outs = [o for o in flat(net(*xs)) if o.asnumpy().dtype.kind == "f"]
        loss = outs[0].sum()
        for o in outs[1:]:
            loss = loss + o.sum()
    loss.backward()
    Trainer(params, "sgd", {"learning_rate": 0.01}).step(1)
    moved = [k for k, p in trainable.items() if not np.array_equal(p.asnumpy(), before[k])]
    assert all(np.isfinite(p.asnumpy()).all() for p in trainable.values())
    assert len(moved) >= len(trainable) // 2, f"{case}: only {moved} moved"


@pytest.mark.parametrize("case", case_names(random=True))
def test_random_graphs_run(case: str, tmp_path: Path) -> None:
    """Graphs whose outputs are random give outputs of MXNet's shapes, and a training step runs."""
    net = load(case, tmp_path)
    outs = _run(net, make_inputs(case))
    assert len(outs) == len(index()[case]["outputs"])


@pytest.mark.parametrize("case", cases("onnx", DETERMINISTIC))
def test_onnx_export_matches_mxnet(case: str, tmp_path: Path) -> None:
    entry, want = index()[case], expected(case)
    net = load(case, tmp_path)
    xs = make_inputs(case)
    axis = entry["opts"].get("batch_axis", 0)
    model = export_onnx(
        net,
        xs,
        [axis if spec[1][axis or 0] != 1 else None for spec in entry["inputs"]]
        if axis is not None
        else [None] * len(xs),
    )
    onnx.checker.check_model(model, full_check=True)
    names = {t.name for t in model.graph.initializer}
    assert set(net.collect_params()) <= names | set(_unused(net, model)), (
        f"{case}: initializers are not MXNet's names"
    )
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = [i.name for i in session.get_inputs()]
    batches = [("eval", xs)]
    if axis is not None:
        batches += [(f"eval{size}", [batch_slice(x, axis, size) for x in xs]) for size in OTHER_BATCHES]
    for prefix, arrays in batches:
        got = session.run(None, {n: a.astype(_ort_dtype(session, n)) for n, a in zip(feeds, arrays)})
        assert len(got) == len(entry["outputs"])
        for i, out in enumerate(got):
            compare(out, want, f"{prefix}/{i}", f"{case}: onnxruntime output {i} ({prefix})")


def _ort_dtype(session: ort.InferenceSession, name: str) -> str:
    t = next(i.type for i in session.get_inputs() if i.name == name)
    return {
        "tensor(float)": "float32",
        "tensor(int64)": "int64",
        "tensor(int32)": "int32",
        "tensor(double)": "float64",
    }.get(t, "float32")


def _unused(net, model: onnx.ModelProto) -> list[str]:
    """Parameters the outputs do not read (a loss layer's label, IdentityAttachKLSparseReg's moving average,
    which only its gradient reads) are not initializers."""
    used = {t.name for t in model.graph.initializer}
    return [n for n in net.collect_params() if n not in used and n.endswith(("label", "moving_avg"))]


@pytest.mark.parametrize("case", cases("listings", ALL))
def test_listings_match_mxnet(case: str) -> None:
    entry = index()[case]
    from tests.gluon.symbol.fixtures import SYMBOLS

    sym = load_symbol(SYMBOLS / f"{case}-symbol.json")
    assert sym.list_outputs() == entry["outputs"]
    assert sym.get_internals().list_outputs() == entry["internals"]
    assert sym.list_arguments() == entry["arguments"]
    assert sym.list_auxiliary_states() == entry["aux"]
