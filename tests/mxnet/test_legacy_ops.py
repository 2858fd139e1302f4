"""Legacy Python operators (mx.operator.NumpyOp / NDArrayOp) in mx.sym graphs and Module: arguments, outputs
and node attributes as real MXNet 1.9.1 builds them (tests/fixtures/mxnet/gen_legacy_ops.py; the node is a
Custom node of op_type _Native / _NDArray here), shapes from the operator's infer_shape, and forward /
backward against float64 NumPy."""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import legacy_op_cases
from tests.tolerance import assert_close

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "legacy_ops.json")
                     .read_text())

pytestmark = pytest.mark.filterwarnings("ignore:.*has been deprecated. Please use CustomOp:UserWarning")

X = np.arange(8, dtype=np.float64).reshape(2, 4) / 8
W = np.linspace(-0.5, 0.5, 12).reshape(3, 4)
LABEL = np.array([0.0, 2.0])


def _reference() -> tuple[np.ndarray, np.ndarray]:
    """Softmax of the FullyConnected output and the weight gradient of the softmax loss, in float64."""
    z = X @ W.T
    y = np.exp(z - z.max(axis=1, keepdims=True))
    y /= y.sum(axis=1, keepdims=True)
    dz = y.copy()
    dz[np.arange(2), LABEL.astype(int)] -= 1.0
    return y, dz.T @ X


@pytest.mark.parametrize("kind", legacy_op_cases.KINDS)
def test_graph_is_mxnets(kind: str) -> None:
    sym = legacy_op_cases.build(mx, kind)
    want = FIXTURE[kind]
    assert sym.list_arguments() == want["arguments"]
    assert sym.list_outputs() == want["outputs"]
    node = json.loads(sym.tojson())["nodes"][-1]
    assert node["attrs"]["op_type"] == want["op"]
    assert {k: v for k, v in node["attrs"].items() if k not in ("info", "op_type")} == want["attrs"]


@pytest.mark.parametrize("kind", legacy_op_cases.KINDS)
def test_forward_backward(kind: str) -> None:
    sym = legacy_op_cases.build(mx, kind)
    assert sym.infer_shape(data=(2, 4)) == ([(2, 4), (3, 4), (3,), (2,)], [(2, 3)], [])
    exe = sym.simple_bind(mx.cpu(), data=(2, 4))
    exe.arg_dict["data"][:] = X.astype(np.float32)
    exe.arg_dict["fc_weight"][:] = W.astype(np.float32)
    exe.arg_dict["fc_bias"][:] = 0.0
    exe.arg_dict["label"][:] = LABEL.astype(np.float32)
    out = exe.forward(is_train=True)[0].asnumpy()
    exe.backward()
    y, dw = _reference()
    assert_close(out, y, rtol=1e-6, scale_rtol=1e-6)
    assert_close(exe.grad_dict["fc_weight"].asnumpy(), dw, rtol=1e-5, scale_rtol=1e-5)


@pytest.mark.parametrize("kind", legacy_op_cases.KINDS)
def test_module_trains(kind: str) -> None:
    """One SGD step of a Module over the graph moves the weight by -lr times NumPy's gradient."""
    sym = legacy_op_cases.build(mx, kind)
    it = mx.io.NDArrayIter(X.astype(np.float32), LABEL.astype(np.float32), batch_size=2, label_name="label")
    mod = mx.mod.Module(sym, data_names=["data"], label_names=["label"])
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod.init_params(arg_params={"fc_weight": mx.nd.array(W), "fc_bias": mx.nd.zeros((3,))})
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.5, "rescale_grad": 1.0})
    mod.forward_backward(next(iter(it)))
    mod.update()
    _, dw = _reference()
    assert_close(mod.get_params()[0]["fc_weight"].asnumpy(), W - 0.5 * dw, rtol=1e-5, scale_rtol=1e-5)


def test_deprecation_warning_and_defaults() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        op = mx.operator.PythonOp()
    assert [str(w.message) for w in caught] == ["PythonOp has been deprecated. Please use CustomOp"]
    assert op.list_arguments() == ["data"] and op.list_outputs() == ["output"] and op.need_top_grad()
    assert op.infer_shape([[2, 3]]) == ([[2, 3]], [[2, 3]])
    with pytest.raises(NotImplementedError):
        op.get_symbol()
