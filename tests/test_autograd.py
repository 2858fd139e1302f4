"""The gradient API with MindSpore's semantics, checked against analytic derivatives."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from cellonnx.tensor import Parameter, Tensor

X = np.array([1.0, -2.0, 3.0], np.float32)


def test_value_and_grad_positions() -> None:
    f = lambda x, y: ops.sum(x * x * y)
    x, y = Tensor(X), Tensor(np.float32(2.0))
    v, g = ms.value_and_grad(f)(x, y)
    assert v.item() == pytest.approx(28.0)
    np.testing.assert_allclose(g.asnumpy(), 4 * X)
    _, (gx, gy) = ms.value_and_grad(f, grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), 4 * X)
    assert gy.item() == pytest.approx(14.0)


def test_weights_only_and_both() -> None:
    w = Parameter(Tensor(np.float32(3.0)), name="w")
    f = lambda x: ops.sum(x * w)
    x = Tensor(X)
    _, gw = ms.value_and_grad(f, grad_position=None, weights=[w])(x)
    assert isinstance(gw, tuple) and gw[0].item() == pytest.approx(X.sum())
    _, (gx, (gw2,)) = ms.value_and_grad(f, grad_position=0, weights=[w])(x)
    np.testing.assert_allclose(gx.asnumpy(), [3.0, 3.0, 3.0])
    assert gw2.item() == pytest.approx(X.sum())
    with pytest.raises(ValueError, match="cannot both be None"):
        ms.value_and_grad(f, grad_position=None)


def test_has_aux_differentiates_the_first_output_only() -> None:
    f = lambda x: (ops.sum(x * 2.0), x * 100.0)
    (_loss, aux), g = ms.value_and_grad(f, has_aux=True)(Tensor(X))
    np.testing.assert_allclose(g.asnumpy(), [2.0, 2.0, 2.0])
    np.testing.assert_allclose(aux.asnumpy(), X * 100)


def test_without_has_aux_all_outputs_contribute() -> None:
    f = lambda x: (ops.sum(x * 2.0), ops.sum(x * 3.0))
    _, g = ms.value_and_grad(f)(Tensor(X))
    np.testing.assert_allclose(g.asnumpy(), [5.0, 5.0, 5.0])


def test_reused_tensors_accumulate_and_broadcasts_reduce() -> None:
    b = Tensor(np.array([[1.0], [2.0]], np.float32))
    f = lambda x, b: ops.sum(x * b + x)  # x (3,) broadcast against b (2, 1)
    gx, gb = ms.grad(f, grad_position=(0, 1))(Tensor(X), b)
    np.testing.assert_allclose(gx.asnumpy(), [5.0, 5.0, 5.0])  # sum over b rows (3) + 2 uses of x
    np.testing.assert_allclose(gb.asnumpy(), [[X.sum()], [X.sum()]])
    assert gb.shape == (2, 1)


def test_integer_inputs_get_their_gradient_cast_to_their_dtype() -> None:
    f = lambda x, n: ops.sum(x * ops.cast(n, ms.float32))
    gx, gn = ms.grad(f, grad_position=(0, 1))(Tensor(X), Tensor(np.array([1, 2, 3])))
    np.testing.assert_allclose(gx.asnumpy(), [1, 2, 3])
    # MindSpore 2.10 gives x cast to the input's type (Int64): the float gradient through Cast, cast back
    np.testing.assert_array_equal(gn.asnumpy(), [1, -2, 3])
    assert gn.dtype == ms.int64


def test_grad_operation_flags() -> None:
    w = Parameter(Tensor(np.float32(2.0)), name="w")
    f = lambda x, y: x * y * w
    x, y = Tensor(np.float32(3.0)), Tensor(np.float32(5.0))
    gx = ops.GradOperation()(f)(x, y)
    assert gx.item() == pytest.approx(10.0)
    gx, gy = ops.GradOperation(get_all=True)(f)(x, y)
    assert (gx.item(), gy.item()) == pytest.approx((10.0, 6.0))
    (gw,) = ops.GradOperation(get_by_list=True)(f, [w])(x, y)
    assert gw.item() == pytest.approx(15.0)
    (gx, gy), (gw,) = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)(f, [w])(
        x, y, Tensor(np.float32(0.5)))
    assert (gx.item(), gy.item(), gw.item()) == pytest.approx((5.0, 3.0, 7.5))


def test_stop_gradient_and_no_grad() -> None:
    f = lambda x: ops.sum(x * ops.stop_gradient(x))
    np.testing.assert_allclose(ms.grad(f)(Tensor(X)).asnumpy(), X)
    p = Parameter(Tensor(X), name="p")
    with ms.no_grad():
        y = p * 2.0
    assert not y.requires_grad and y.grad_fn is None


def test_backward_accumulates_into_leaves() -> None:
    p = Parameter(Tensor(X), name="p")
    ops.sum(p * p).backward()
    ops.sum(p * 3.0).backward()
    np.testing.assert_allclose(p.grad.asnumpy(), 2 * X + 3)


def test_second_order() -> None:
    d2 = ms.grad(ms.grad(lambda x: ops.sum(ops.sin(x) * x)))(Tensor(X))
    np.testing.assert_allclose(d2.asnumpy(), 2 * np.cos(X) - X * np.sin(X), rtol=1e-5)


def test_error_names_op_and_shapes() -> None:
    with pytest.raises(ValueError, match=r"ops\.MatMul: shapes \(2, 3\) and \(4, 5\) are not aligned"):
        ops.matmul(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4, 5), np.float32)))
    with pytest.raises(ValueError, match=r"ops\.Add: shapes \(2,\) and \(3,\) do not broadcast"):
        Tensor(np.ones(2, np.float32)) + Tensor(np.ones(3, np.float32))


def test_assigning_into_a_used_tensor_is_refused_at_backward() -> None:
    w = Parameter(Tensor(X), name="w")
    x = Tensor(np.ones(3, np.float32))
    y = x * w          # uses x
    x[0] = 5.0         # then x changes in place
    with pytest.raises(RuntimeError, match="assigned to in place after the op used it"):
        ops.sum(y).backward()


def test_assigning_before_use_keeps_gradients_right() -> None:
    w = Parameter(Tensor(X), name="w")
    x = Tensor(np.ones(3, np.float32))
    x[0] = 5.0
    ops.sum(x * w).backward()
    np.testing.assert_allclose(w.grad.asnumpy(), [5.0, 1.0, 1.0])


def test_one_position_as_a_tuple_gives_a_bare_tensor() -> None:
    # MindSpore 2.10: ms.grad(f, grad_position=(0,))(x, y) returns the tensor itself
    g = ms.grad(lambda x, y: ops.sum(x * x * y), grad_position=(0,))(Tensor(X), Tensor(np.float32(2.0)))
    assert isinstance(g, Tensor)
    np.testing.assert_allclose(g.asnumpy(), 4 * X)


def test_attach_grad_write_overwrites_and_add_accumulates() -> None:
    for req, expected in (("write", 2 * X), ("add", 4 * X)):
        x = Tensor(X.copy())
        x.attach_grad(req)
        for _ in range(2):
            ops.sum(x * x).backward()
        np.testing.assert_allclose(x.grad.asnumpy(), expected)
