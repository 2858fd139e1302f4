"""mx.init (Bilinear, Orthogonal, InitDesc, Mixed, Load, register / alias) and mx.metric (MCC, PCC, Torch,
Caffe, every registered name) against MXNet 1.9.1 (tests/fixtures/mxnet/gen_init_metric.py)."""
from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.tolerance import assert_close

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "init_metric"
EXPECTED = np.load(HERE / "expected.npz")
FACTS = json.loads((HERE / "expected.json").read_text())
_spec = importlib.util.spec_from_file_location("init_metric_cases", HERE.parent / "init_metric_cases.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)
RNN_INITIALIZERS = {"fusedrnn", "lstmbias"}  # gluon.rnn's initializers: another module's work


@pytest.mark.parametrize("registry", ["EvalMetric", "Initializer"])
def test_every_registered_name_creates_the_same_class(registry: str) -> None:
    create = mx.metric.create if registry == "EvalMetric" else mx.init.create
    for name, klass in FACTS[f"registry_{registry}"].items():
        if name in RNN_INITIALIZERS:
            continue
        kwargs = {"value": 1.0} if klass == "Constant" else {}
        if klass == "CompositeEvalMetric":
            kwargs = {"metrics": []}
        if klass == "CustomMetric":
            kwargs = {"feval": lambda label, pred: 0.0}
        if klass == "Perplexity":
            kwargs = {"ignore_label": None}
        if klass == "TopKAccuracy":
            kwargs = {"top_k": 2}
        assert type(create(name, **kwargs)).__name__ == klass, name
        assert type(create(name.upper(), **kwargs)).__name__ == klass, name


def test_bilinear_matches_mxnet() -> None:
    for i, shape in enumerate(gen.BILINEAR_SHAPES):
        arr = np.zeros(shape, np.float32)
        mx.init.Bilinear()("up_weight", arr)
        np.testing.assert_array_equal(arr, EXPECTED[f"bilinear{i}"], err_msg=str(shape))


def test_dumps_match_mxnet() -> None:
    got = [mx.init.Orthogonal().dumps(), mx.init.Orthogonal(2.0, "normal").dumps(),
           mx.init.Bilinear().dumps()]
    assert got == FACTS["dumps"]
    assert type(mx.init.create(FACTS["dumps"][1])).__name__ == "Orthogonal"
    assert mx.init.create(FACTS["dumps"][1]).scale == 2.0


@pytest.mark.parametrize("rand_type", ["uniform", "normal"])
@pytest.mark.parametrize("shape", [(3, 5), (6, 2), (4, 2, 3, 3), (5, 5)])
def test_orthogonal_gives_scaled_orthonormal_rows_or_columns(shape, rand_type: str) -> None:
    arr = np.zeros(shape, np.float32)
    mx.init.Orthogonal(scale=1.5, rand_type=rand_type)("conv_weight", arr)
    m = arr.reshape(shape[0], -1).astype(np.float64) / 1.5
    gram = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
    assert_close(gram, np.eye(gram.shape[0]), rtol=0, scale_rtol=1e-5)
    with pytest.raises(ValueError, match="rand_type"):
        mx.init.Orthogonal(rand_type="gamma")("w_weight", arr)


def test_init_desc_attrs_choose_the_initializer() -> None:
    for i, (name, own, glob) in enumerate(gen.DESCS):
        make = {"one": mx.init.One(), "zero": mx.init.Zero(), "xavier": mx.init.Xavier(),
                "constant2": mx.init.Constant(2.0), "bilinear": mx.init.Bilinear()}
        desc = mx.init.InitDesc(name, {"__init__": make[own].dumps()} if own else {})
        assert isinstance(desc, str) and desc == name and desc.global_init is None
        arr = np.zeros((2, 1, 2, 4), np.float32)
        make[glob](desc, arr)
        np.testing.assert_array_equal(arr, EXPECTED[f"desc{i}"], err_msg=name)


def test_mixed_matches_mxnet() -> None:
    mixed = mx.init.Mixed(["bias", ".*"], [mx.init.Zero(), mx.init.Constant(0.5)])
    for i, name in enumerate(gen.MIXED_NAMES):
        arr = np.ones((2, 3), np.float32)
        mixed(name, arr)
        np.testing.assert_array_equal(arr, EXPECTED[f"mixed{i}"], err_msg=name)
    with pytest.raises(ValueError, match="Unknown initialization pattern for bias_fc"):
        mixed("bias_fc", np.ones(2, np.float32))
    with pytest.raises(ValueError, match="did not match any pattern"):
        mx.init.Mixed(["fc"], [mx.init.Zero()])("conv_weight", np.ones(2, np.float32))


def test_load_matches_mxnet() -> None:
    load = mx.init.Load(str(HERE / "load.params"), default_init=mx.init.Constant(3.0))
    for i, (name, shape) in enumerate(gen.LOAD_NAMES):
        arr = np.zeros(shape, np.float32)
        load(name, arr)
        np.testing.assert_array_equal(arr, EXPECTED[f"load{i}"], err_msg=name)
    with pytest.raises(AssertionError, match="Shape mismatch"):
        load("fc_weight", np.zeros((3, 2), np.float32))
    with pytest.raises(AssertionError, match="no default Initializer"):
        mx.init.Load({"a_weight": mx.nd.ones(2)})("b_weight", np.zeros(2, np.float32))
    assert set(mx.init.load(str(HERE / "load.params"))) == {"arg:fc_weight", "aux:bn_moving_var", "fc_bias"}


def test_register_and_alias_make_custom_initializers_creatable() -> None:
    @mx.init.register
    @mx.init.alias("sevens")
    class SevenInit(mx.init.Initializer):
        def _init_weight(self, name, arr):
            arr[...] = 7

    for name in ("seveninit", "sevens", "SEVENS"):
        assert isinstance(mx.init.create(name), SevenInit)
    net = mx.gluon.nn.Dense(2, in_units=2)
    net.initialize(init="sevens")
    assert (net.weight.data().asnumpy() == 7).all() and (net.bias.data().asnumpy() == 0).all()
    with pytest.raises(AssertionError, match="subclass of Initializer"):
        mx.init.register(dict)


def _run(metric, key: str, count: int) -> list:
    trace = []
    for j in range(count):
        metric.update([mx.nd.array(EXPECTED[f"{key}_label{j}"])], [mx.nd.array(EXPECTED[f"{key}_pred{j}"])])
        trace.append([metric.get()[1], metric.get_global()[1]])
    metric.reset_local()
    trace.append([metric.get()[1], metric.get_global()[1]])
    return trace


@pytest.mark.parametrize("case", ["mcc_macro", "mcc_micro", "pcc", "pcc_labels", "torch", "caffe"])
def test_metric_matches_mxnet(case: str) -> None:
    metric, key = {"mcc_macro": (mx.metric.MCC(), "mcc"),
                   "mcc_micro": (mx.metric.MCC(average="micro"), "mcc"),
                   "pcc": (mx.metric.PCC(), "pcc"), "pcc_labels": (mx.metric.create("pcc"), "pcc_labels"),
                   "torch": (mx.metric.Torch(), "loss"), "caffe": (mx.metric.create("caffe"), "loss")}[case]
    want = FACTS["metrics"][case]
    got = _run(metric, key, len(want) - 1)
    # MXNet sums the losses of Torch / Caffe in float32 (nd.sum), the counts of MCC / PCC exactly
    rel = 1e-6 if case in ("torch", "caffe") else 1e-9
    for g, w in zip(np.ravel(got), np.ravel(want)):
        same = (math.isnan(g) and math.isnan(w)) or math.isclose(g, w, rel_tol=rel, abs_tol=1e-12)
        assert same, (got, want)
    for name, value in FACTS["metric_names"].items():
        assert mx.metric.create(name).name == value


def test_mcc_refuses_multiclass_labels() -> None:
    with pytest.raises(ValueError, match="MCC currently only supports binary classification"):
        mx.metric.MCC().update([mx.nd.array([0, 1, 2])], [mx.nd.ones((3, 2))])
