"""MindSpore's functional extras: the sensitivity argument of grad / value_and_grad (``sens_param``),
``relu(inplace=True)``, ``ops.mm``, ``C.matmul(dtype=)``, the sparse tensors' part getters and the
functional aliases (``tensor_lt``, ``tensor_expm1``, ``print_``, ``move_to``, ``tensordump``)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Tensor, nn, ops
from cellonnx.ops import composite as C
from cellonnx.ops import functional as F


class _Mul3(nn.Cell):
    def construct(self, x, y, z):
        return x * y * z


def test_grad_sens_param_matches_mindspore_example() -> None:
    # mindspore.grad's documented example: grad(net, grad_position=(1, 2), sens_param=True)(x, y, z, sense)
    x, y = Tensor([1, 2], ms.float32), Tensor([-2, 3], ms.float32)
    z, sense = Tensor([0, 3], ms.float32), Tensor([1, 2], ms.float32)
    gy, gz = ms.grad(_Mul3(), grad_position=(1, 2), sens_param=True)(x, y, z, sense)
    np.testing.assert_array_equal(gy.asnumpy(), [0.0, 12.0])
    np.testing.assert_array_equal(gz.asnumpy(), [-2.0, 12.0])
    gy2, _ = ms.grad(_Mul3(), grad_position=(1, 2), sens_param=True)(x, y, z, sens=sense)
    np.testing.assert_array_equal(gy2.asnumpy(), gy.asnumpy())
    value, g = ops.value_and_grad(_Mul3(), 0, sens_param=True)(x, y, z, sense)
    np.testing.assert_array_equal(value.asnumpy(), [-0.0, 18.0])
    np.testing.assert_array_equal(g.asnumpy(), (y * z * sense).asnumpy())
    with pytest.raises(ValueError, match="sens"):
        ms.grad(lambda: Tensor(1.0), grad_position=None, weights=[ms.Parameter(Tensor(1.0), "w")],
                sens_param=True)()


def test_relu_inplace_and_aliases() -> None:
    x = Tensor(np.array([-1.0, 2.0, -3.0], np.float32))
    out = ops.relu(x, inplace=True)
    assert out is x
    np.testing.assert_array_equal(x.asnumpy(), [0.0, 2.0, 0.0])
    a = Tensor(np.array([0.5, -1.0], np.float32))
    np.testing.assert_array_equal(F.tensor_lt(a, 0.0).asnumpy(), [False, True])
    np.testing.assert_allclose(F.tensor_expm1(a).asnumpy(), np.expm1(a.asnumpy()), rtol=1e-6)
    assert F.move_to(a, "CPU").asnumpy().tolist() == a.asnumpy().tolist()


def test_mm_and_composite_matmul() -> None:
    a, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(ops.mm(Tensor(a), Tensor(b)).asnumpy(), a @ b)
    with pytest.raises(ValueError, match="mm"):
        ops.mm(Tensor(a), Tensor(a))
    out = C.matmul(Tensor(a), Tensor(b), ms.float16)
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(), (a @ b).astype(np.float16))
    assert C.zeros_like(Tensor(a)).asnumpy().tolist() == np.zeros_like(a).tolist()


def test_print_and_tensordump(capsys: pytest.CaptureFixture, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    F.print_("value:", Tensor(np.array([1, 2], np.int32)))
    assert "value:" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)
    F.tensordump("dumped", Tensor(np.array([1.5], np.float32)))
    files = list(tmp_path.glob("dumped*.npy"))
    assert len(files) == 1 and np.load(files[0]).tolist() == [1.5]


def test_sparse_parts() -> None:
    indices = Tensor(np.array([[0, 1], [1, 2]], np.int64))
    values = Tensor(np.array([1.0, 2.0], np.float32))
    coo = F.make_coo_tensor(indices, values, (2, 3))
    assert F.coo_tensor_get_indices(coo) is coo.indices and F.coo_tensor_get_values(coo) is coo.values
    assert tuple(F.coo_tensor_get_dense_shape(coo)) == (2, 3)
    csr = F.make_csr_tensor(Tensor(np.array([0, 1, 2], np.int32)), Tensor(np.array([1, 2], np.int32)), values,
                            (2, 3))
    assert F.csr_tensor_get_indptr(csr).asnumpy().tolist() == [0, 1, 2]
    assert F.csr_tensor_get_indices(csr).asnumpy().tolist() == [1, 2]
    assert F.csr_tensor_get_values(csr) is csr.values and tuple(F.csr_tensor_get_dense_shape(csr)) == (2, 3)
    rows = F.make_row_tensor_inner(Tensor(np.array([2], np.int32)), Tensor(np.ones((1, 3), np.float32)),
                                   (4, 3))
    assert F.row_tensor_get_indices(rows).asnumpy().tolist() == [2]
    assert F.row_tensor_get_values(rows).shape == (1, 3)
    assert tuple(F.row_tensor_get_dense_shape(rows)) == (4, 3)
