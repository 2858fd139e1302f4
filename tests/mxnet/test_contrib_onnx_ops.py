"""mx.contrib.onnx's translation table, one ONNX operator at a time: a one-node model per row of
contrib_onnx_cases.py imported with import_model, its outputs equal to onnxruntime's on the same file."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import cellonnx.mxnet as mx
from tests.mxnet.contrib_onnx_cases import CASES, LEGACY, LEGACY_REFERENCE, RANDOM
from tests.tolerance import assert_close


def _model(case_id: str, op: str, inputs: list, attrs: dict, opset: int, n_out: int) -> tuple:
    rng = np.random.default_rng(0)
    graph_inputs, inits, feeds, names, nodes = [], [], {}, [], []
    for i, (kind, value) in enumerate(inputs):
        name = f"in{i}"
        names.append(name)
        if kind == "x":
            value = rng.uniform(-1, 1, value).astype(np.float32) if isinstance(value, tuple) else value
            feeds[name] = value
            graph_inputs.append(
                helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(value.dtype), value.shape)
            )
        elif kind == "const":
            nodes.append(helper.make_node("Constant", [], [name], value=numpy_helper.from_array(value)))
        else:
            inits.append(numpy_helper.from_array(value, name))
    outs = [f"out{i}" for i in range(n_out)]
    nodes.append(helper.make_node(op, names, outs, name=f"{case_id}_node", **attrs))
    graph = helper.make_graph(
        nodes, case_id, graph_inputs, [helper.make_empty_tensor_value_info(o) for o in outs], inits
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model, feeds


def _run(tmp_path, row: tuple, reference: bool = False) -> tuple[list, list]:
    model, feeds = _model(*row)
    path = tmp_path / f"{row[0]}.onnx"
    onnx.save(model, path)
    if reference:  # float64 NumPy on the graph input and the initializer
        consts = [numpy_helper.to_array(t).astype(np.float64) for t in model.graph.initializer]
        want = [LEGACY_REFERENCE[row[0]](*[v.astype(np.float64) for v in feeds.values()], *consts)]
    else:
        options = ort.SessionOptions()
        options.log_severity_level = 3
        want = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"]).run(None, feeds)
    with contextlib.redirect_stdout(io.StringIO()):
        sym, arg_params, aux_params = mx.contrib.onnx.import_model(str(path))
    args = {**{k: mx.nd.array(v, dtype=v.dtype) for k, v in feeds.items()}, **arg_params}
    got = sym.bind(mx.cpu(), args, aux_states=aux_params).forward()
    return [g.asnumpy() for g in got], want


@pytest.mark.parametrize("row", CASES + LEGACY, ids=[r[0] for r in CASES + LEGACY])
def test_translation_matches_onnxruntime(tmp_path, row):
    got, want = _run(tmp_path, row, reference=row in LEGACY)
    assert len(got) == len(want), row[0]
    for g, w in zip(got, want):
        g = g.reshape(()) if w.ndim == 0 and g.shape == (1,) else g  # MXNet 1.x arrays have a dimension
        assert g.shape == w.shape, (row[0], g.shape, w.shape)
        if w.dtype.kind in "iub":
            np.testing.assert_array_equal(g.astype(w.dtype), w)
        else:
            assert_close(g, w, rtol=1e-5)


@pytest.mark.parametrize("row", RANDOM, ids=[r[0] for r in RANDOM])
def test_random_translation_shape_and_range(tmp_path, row):
    got, want = _run(tmp_path, row)
    assert got[0].shape == want[0].shape
    attrs = row[3]
    if "low" in attrs:
        assert attrs["low"] <= got[0].min() and got[0].max() <= attrs["high"]
    elif "mean" in attrs:
        assert abs(got[0].mean() - attrs["mean"]) < 6 * attrs["scale"]
    else:
        assert got[0].min() >= 0 and got[0].max() < 3


def test_every_onnx2mx_operator_has_a_row():
    from cellonnx.mxnet.contrib.onnx.onnx2mx._import_helper import _convert_map

    covered = {r[1] for r in CASES + RANDOM} | {"SpatialBN", "FC", "Constant"}
    onnx2mx = set(
        """Constant RandomUniform RandomNormal RandomUniformLike RandomNormalLike Multinomial Add Sub Mul
        Div Abs Neg Sum Tanh Ceil Floor Concat Sigmoid Relu Pad MatMul Conv ConvTranspose BatchNormalization
        SpatialBN LeakyRelu Elu PRelu Selu Softmax FC GlobalAveragePool GlobalMaxPool GlobalLpPool Gemm LRN
        Dropout Reshape Cast Split Slice Transpose Squeeze Unsqueeze Flatten Identity Reciprocal Sqrt Pow Exp
        Log ReduceMax ReduceMean ReduceMin ReduceSum ReduceProd AveragePool MaxPool ArgMax ArgMin Max Min Clip
        ReduceLogSum ReduceLogSumExp ReduceSumSquare ReduceL1 ReduceL2 MaxRoiPool InstanceNormalization
        LogSoftmax Softsign Less Greater Equal And Xor Not Or Mean Acos Asin Atan Cos Sin Softplus Tan Shape
        Size Gather HardSigmoid LpPool DepthToSpace SpaceToDepth Hardmax LpNormalization TopK""".split()
    )
    assert onnx2mx - set(_convert_map) - {"Constant"} == set()
    assert set(_convert_map) - covered == set()


def test_untranslated_operator_names_op_node_and_file(tmp_path):
    graph = helper.make_graph(
        [helper.make_node("Einsum", ["a", "b"], ["y"], name="mix0", equation="ij,jk->ik")],
        "g",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 2]) for n in "ab"],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])],
    )
    path = tmp_path / "einsum.onnx"
    onnx.save(helper.make_model(graph), path)
    with pytest.raises(NotImplementedError, match=r"Einsum.*'mix0'.*einsum\.onnx"):
        mx.contrib.onnx.import_model(str(path))
