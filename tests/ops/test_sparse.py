"""The sparse tensor classes: construction and its errors, properties, every element-wise coo_* / csr_*
function against its dense op, gradients reaching the values, and export of a network that builds a sparse
tensor and densifies it (the op rows are in tests/ops/cases_sparse.py)."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

import cellonnx
from cellonnx import nn, ops
from cellonnx.ops.composite.sparse_unary import _UNARY
from cellonnx.sparse import COOTensor, CSRTensor, RowTensor, SparseTensor
from cellonnx.tensor import Tensor

IDX = Tensor(np.array([[0, 1], [2, 3], [1, 0]], np.int32))
VAL = Tensor(np.array([0.5, -0.25, 0.75], np.float32))
PTR, COLS = Tensor(np.array([0, 1, 1, 3], np.int32)), Tensor(np.array([1, 0, 3], np.int32))


def test_top_level_and_common_names() -> None:
    assert cellonnx.COOTensor is COOTensor and cellonnx.common.CSRTensor is CSRTensor
    assert cellonnx.RowTensor is RowTensor and issubclass(SparseTensor, COOTensor)


def test_coo_properties_and_copy() -> None:
    x = COOTensor(IDX, VAL, (3, 4))
    assert (x.shape, x.ndim, x.size, x.itemsize, str(x.dtype)) == ((3, 4), 2, 3, 4, "Float32")
    y = COOTensor(coo_tensor=x)
    assert y.indices is x.indices and y.values is x.values and y.to_tuple()[2] == (3, 4)
    assert "COOTensor(shape=[3, 4]" in repr(x)
    assert str(x.astype(cellonnx.float64).dtype) == "Float64"
    np.testing.assert_array_equal(x.abs().values.asnumpy(), np.abs(VAL.asnumpy()))


def test_csr_properties() -> None:
    x = CSRTensor(PTR, COLS, VAL, (3, 4))
    assert (x.shape, x.ndim, x.size) == ((3, 4), 2, 3)
    assert CSRTensor(csr_tensor=x).indptr is x.indptr
    dense = np.zeros((3, 4), np.float32)
    dense[[0, 2, 2], [1, 0, 3]] = VAL.asnumpy()
    np.testing.assert_array_equal(x.to_dense().asnumpy(), dense)
    np.testing.assert_array_equal(x.to_coo().to_dense().asnumpy(), dense)
    np.testing.assert_array_equal((-x).to_dense().asnumpy(), -dense)


def test_row_tensor() -> None:
    r = RowTensor(Tensor(np.array([2, 0], np.int32)), Tensor(np.ones((2, 3), np.float32)), (4, 3))
    assert r.dense_shape == (4, 3)
    np.testing.assert_array_equal(r.to_dense().asnumpy().sum(1), [3.0, 0.0, 3.0, 0.0])


@pytest.mark.parametrize("make, message", [
    (lambda: COOTensor(IDX, VAL, (3, 4, 5)), "must be"),
    (lambda: COOTensor(Tensor(np.zeros((3, 2), np.float32)), VAL, (3, 4)), "int16, int32 or int64"),
    (lambda: COOTensor(IDX, VAL, (3, 4), coo_tensor=COOTensor(IDX, VAL, (3, 4))), "not both"),
    (lambda: CSRTensor(PTR, COLS, VAL, (2, 4)), "rows \\+ 1"),
    (lambda: RowTensor(Tensor(np.array([0], np.int32)), Tensor(np.ones((1, 2))), (3, 3)), "trailing dims"),
    (lambda: COOTensor(IDX, VAL, (3, 4)) + COOTensor(IDX, VAL, (3, 5)), "must be equal"),
    (lambda: ops.coo_exp(CSRTensor(PTR, COLS, VAL, (3, 4))), "expected a COOTensor"),
])
def test_errors_name_what_is_wrong(make, message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        make()


@pytest.mark.parametrize("suffix", sorted(_UNARY))
def test_unary_functions_apply_the_dense_op_to_the_values(suffix: str) -> None:
    op = _UNARY[suffix][0]
    if not hasattr(ops, op):
        pytest.skip(f"ops.{op} comes with the math functions")
    values = Tensor(np.array([0.25, 0.5, 0.75], np.float32) + (1.0 if suffix == "acosh" else 0.0))
    want = getattr(ops, op)(values).asnumpy()
    coo = getattr(ops, f"coo_{suffix}")(COOTensor(IDX, values, (3, 4)))
    csr = getattr(ops, f"csr_{suffix}")(CSRTensor(PTR, COLS, values, (3, 4)))
    assert coo.shape == csr.shape == (3, 4)
    np.testing.assert_array_equal(coo.indices.asnumpy(), IDX.asnumpy())
    np.testing.assert_array_equal(csr.indptr.asnumpy(), PTR.asnumpy())
    np.testing.assert_array_equal(coo.values.asnumpy(), want)
    np.testing.assert_array_equal(csr.values.asnumpy(), want)


def test_gradient_reaches_the_values_through_csr_products() -> None:
    w = Tensor(np.arange(8.0).reshape(4, 2))

    def f(v: Tensor) -> Tensor:
        return ops.sum(CSRTensor(PTR, COLS, v, (3, 4)).mm(w) * Tensor(np.array([[1.0, 2.0]] * 3)))

    _, g = ops.value_and_grad(f)(Tensor(np.array([1.0, 2.0, 3.0])))
    # d/dv_k = sum_j w[col_k, j] * [1, 2][j]
    np.testing.assert_allclose(g.asnumpy(), [2.0 + 6.0, 0.0 + 2.0, 6.0 + 14.0])


class _Densify(nn.Cell):
    def construct(self, values: Tensor, indices: Tensor) -> Tensor:
        return COOTensor(indices, ops.exp(values), (3, 4)).to_dense() * 2.0


def test_a_network_building_a_coo_tensor_exports() -> None:
    from cellonnx.graph.trace import trace
    net = _Densify()
    v, i = VAL, IDX
    g, out = trace(lambda a, b: net(a, b), [("values", v, [3]), ("indices", i, [3, 2])], opset=18)
    model = g.model()
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    got = sess.run(None, {"values": v.asnumpy(), "indices": i.asnumpy()})[0]
    np.testing.assert_allclose(got, out.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(got, net(v, i).asnumpy(), rtol=1e-6)
