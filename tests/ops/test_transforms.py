"""jvp, vjp, jacfwd, jacrev, linearize, derivative, jet, get_grad and vmap: values against NumPy and central
finite differences in float64, and the output structures MindSpore 2.10 gives (single tensors stay single,
vjp_fn returns a tuple, Jacobians are shaped output + input, has_aux appends the aux outputs)."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Parameter, Tensor, nn, ops


def t64(a: object) -> Tensor:
    return Tensor(np.asarray(a, np.float64))


X = np.array([[1.0, 2.0], [3.0, 4.0]])
Y = np.array([[5.0, 6.0], [7.0, 8.0]])


def f(x: Tensor, y: Tensor) -> Tensor:
    return ops.add(ops.mul(ops.sin(x), y), ops.mul(x, x))


def f_np(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.sin(x) * y + x * x


def numeric_jacobian(fn: object, args: list[np.ndarray], k: int, eps: float = 1e-6) -> np.ndarray:
    """d fn(*args) / d args[k], shaped output + input."""
    base = np.asarray(fn(*args))
    jac = np.zeros(base.shape + args[k].shape)
    for idx in np.ndindex(args[k].shape):
        up = [a.copy() for a in args]
        down = [a.copy() for a in args]
        up[k][idx] += eps
        down[k][idx] -= eps
        jac[(...,) + idx] = (np.asarray(fn(*up)) - np.asarray(fn(*down))) / (2 * eps)
    return jac


def test_jvp_against_finite_differences() -> None:
    v = np.array([[0.5, -1.0], [2.0, 0.25]])
    w = np.array([[1.0, 0.0], [-1.0, 3.0]])
    out, jv = ops.jvp(f, (t64(X), t64(Y)), (t64(v), t64(w)))
    want = np.einsum("ijkl,kl->ij", numeric_jacobian(f_np, [X, Y], 0), v) + \
        np.einsum("ijkl,kl->ij", numeric_jacobian(f_np, [X, Y], 1), w)
    np.testing.assert_allclose(out.asnumpy(), f_np(X, Y), rtol=1e-12)
    np.testing.assert_allclose(jv.asnumpy(), want, rtol=1e-6)
    assert not jv.requires_grad and not out.requires_grad


def test_jvp_structures_as_mindspore() -> None:
    x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    v = Tensor(np.ones((2, 2), np.float32))
    _, jv = ops.jvp(lambda a: a ** 3, x, v)  # single input, single output: tensors
    np.testing.assert_allclose(jv.asnumpy(), [[3.0, 12.0], [27.0, 48.0]])
    outs, jvs = ops.jvp(lambda a, b: (a ** 3 + b, a * b), (x, x), (v, v))
    assert len(outs) == 2 and len(jvs) == 2
    np.testing.assert_allclose(jvs[1].asnumpy(), 2 * x.asnumpy())
    _out, jv, aux = ops.jvp(lambda a: (a ** 3, a + 1), x, v, has_aux=True)
    np.testing.assert_allclose(aux.asnumpy(), x.asnumpy() + 1)


def test_vjp_against_the_transposed_jacobian() -> None:
    u = np.array([[1.0, -2.0], [0.5, 3.0]])
    _, vjp_fn = ops.vjp(f, t64(X), t64(Y))
    gx, gy = vjp_fn(t64(u))
    np.testing.assert_allclose(gx.asnumpy(), np.einsum("ij,ijkl->kl", u, numeric_jacobian(f_np, [X, Y], 0)),
                               rtol=1e-6)
    np.testing.assert_allclose(gy.asnumpy(), np.einsum("ij,ijkl->kl", u, numeric_jacobian(f_np, [X, Y], 1)),
                               rtol=1e-6)
    single = ops.vjp(lambda a: ops.sin(a), t64(X))[1](t64(u))
    assert isinstance(single, tuple) and len(single) == 1  # MindSpore returns a 1-tuple
    np.testing.assert_allclose(single[0].asnumpy(), u * np.cos(X), rtol=1e-12)
    _out, _fn, aux = ops.vjp(lambda a: (ops.sin(a), a + 1), t64(X), has_aux=True)
    np.testing.assert_allclose(aux.asnumpy(), X + 1)


def test_vjp_with_weights() -> None:
    class Net(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")

        def construct(self, x: Tensor) -> Tensor:
            return ops.sum(ops.mul(x, self.w))

    net = Net()
    x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    _, fn = ops.vjp(net, x, weights=net.trainable_params())
    (gx,), (gw,) = fn(Tensor(np.float32(1.0)))
    np.testing.assert_array_equal(gx.asnumpy(), [[1.0, 2.0], [1.0, 2.0]])
    np.testing.assert_array_equal(gw.asnumpy(), [4.0, 6.0])


@pytest.mark.parametrize("jac", [ops.jacfwd, ops.jacrev], ids=["jacfwd", "jacrev"])
def test_jacobians(jac: object) -> None:
    j = jac(f)(t64(X), t64(Y))
    assert j.shape == (2, 2, 2, 2)
    np.testing.assert_allclose(j.asnumpy(), numeric_jacobian(f_np, [X, Y], 0), rtol=1e-6, atol=1e-9)
    _jx, jy = jac(f, (0, 1))(t64(X), t64(Y))
    np.testing.assert_allclose(jy.asnumpy(), numeric_jacobian(f_np, [X, Y], 1), rtol=1e-6, atol=1e-9)
    two = jac(lambda a, b: (f(a, b), ops.mul(a, b)), (0, 1))(t64(X), t64(Y))
    assert len(two) == 2 and len(two[1]) == 2  # per output, per position
    np.testing.assert_allclose(two[1][0].asnumpy(), numeric_jacobian(lambda a, b: a * b, [X, Y], 0),
                               atol=1e-9)
    j, aux = jac(lambda a: (ops.exp(a), a * 2), has_aux=True)(t64(X))
    np.testing.assert_allclose(aux.asnumpy(), X * 2)
    np.testing.assert_allclose(j.asnumpy(), numeric_jacobian(np.exp, [X], 0), rtol=1e-6)


def test_linearize_reuses_the_point() -> None:
    out, jvp_fn = ops.linearize(lambda a: ops.mul(ops.sin(a), a), t64(X))
    np.testing.assert_allclose(out.asnumpy(), np.sin(X) * X)
    for v in (np.ones((2, 2)), np.array([[1.0, -1.0], [0.0, 2.0]])):
        np.testing.assert_allclose(jvp_fn(t64(v)).asnumpy(), (np.cos(X) * X + np.sin(X)) * v, rtol=1e-12)


def test_derivative_and_jet_as_mindspore() -> None:
    x = Tensor(np.array([0.5, 1.0], np.float32))
    out, d2 = ops.derivative(lambda a: ops.sin(a), x, 2)
    np.testing.assert_allclose(out.asnumpy(), np.sin([0.5, 1.0]), rtol=1e-6)
    np.testing.assert_allclose(d2.asnumpy(), -np.sin([0.5, 1.0]), rtol=1e-6)  # MindSpore: [-0.4794, -0.8415]
    out, series = ops.jet(lambda a: ops.sin(a), x, Tensor(np.array([[1.0, 1.0], [0.0, 0.0]], np.float32)))
    np.testing.assert_allclose(series.asnumpy(), [np.cos([0.5, 1.0]), -np.sin([0.5, 1.0])], rtol=1e-6)
    # a non-trivial path: x(t) = x + s1 t + s2 t^2 / 2 through exp: d/dt = e^x s1, d2/dt2 = e^x (s1^2 + s2)
    s1, s2 = np.array([0.5, -1.0]), np.array([2.0, 1.0])
    _, series = ops.jet(lambda a: ops.exp(a), t64([0.5, 1.0]), t64([s1, s2]))
    e = np.exp([0.5, 1.0])
    np.testing.assert_allclose(series.asnumpy(), [e * s1, e * (s1 ** 2 + s2)], rtol=1e-12)
    _, d3 = ops.derivative(lambda a: ops.mul(a, ops.mul(a, a)), t64([2.0]), 3)
    np.testing.assert_allclose(d3.asnumpy(), [6.0])


def test_get_grad_with_return_ids() -> None:
    x, y = t64(X), t64(Y)
    grads = ms.grad(f, (0, 1), return_ids=True)(x, y)
    assert grads[0][0] == 0 and grads[1][0] == 1
    np.testing.assert_allclose(ops.get_grad(grads, 1).asnumpy(), np.sin(X))

    class Net(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.w = Parameter(Tensor(np.ones(2)), name="w")

        def construct(self, a: Tensor) -> Tensor:
            return ops.sum(ops.mul(a, self.w))

    net = Net()
    grads = ms.grad(net, 0, net.trainable_params(), return_ids=True)(x)
    assert grads[0][0] == 0 and grads[1][0][0] == "w"  # ((0, g), (('w', g),)) as MindSpore
    np.testing.assert_allclose(ops.get_grad(grads, net.w).asnumpy(), [4.0, 6.0])
    with pytest.raises(RuntimeError, match="no gradient for 3"):
        ops.get_grad(grads, 3)


def test_vmap_against_a_loop() -> None:
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    out = ops.vmap(lambda r, m: ops.matmul(r, m), in_axes=(0, None))(t64(a), t64(b))
    np.testing.assert_allclose(out.asnumpy(), a @ b)
    # MindSpore's example: in_axes=1, out_axes=(1, 0)
    x = t64([[1.0, 2.0], [3.0, 4.0]])
    cols, sums = ops.vmap(lambda c: (c, ops.sum(c)), in_axes=1, out_axes=(1, 0))(x)
    np.testing.assert_allclose(cols.asnumpy(), [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(sums.asnumpy(), [4.0, 6.0])
    nested = ops.vmap(lambda pair, s: ops.mul(ops.add(pair[0], pair[1]), s), in_axes=((0, 1), None))
    np.testing.assert_allclose(nested((t64(a), t64(a.T)), 2.0).asnumpy(), 4 * a)
    with pytest.raises(ValueError, match="one size"):
        ops.vmap(ops.add)(t64(a), t64(b))
    with pytest.raises(ValueError, match="at least one input"):
        ops.vmap(ops.add, in_axes=None)(t64(a), t64(a))


def test_vmap_of_grad_and_of_a_cell_list() -> None:
    xs = np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])
    per_example = ops.vmap(ms.grad(lambda r: ops.sum(ops.sin(r))))(t64(xs))
    np.testing.assert_allclose(per_example.asnumpy(), np.cos(xs), rtol=1e-12)
    cells = nn.CellList([nn.Dense(2, 1, weight_init="ones", has_bias=False),
                        nn.Dense(2, 1, weight_init="zeros", has_bias=False)])
    out = ops.vmap(cells)(Tensor(np.ones((2, 2), np.float32)))
    assert out.shape == (2, 1) and float(out.asnumpy()[0, 0]) == 2.0
