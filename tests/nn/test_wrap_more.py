"""GradAccumulationCell, MicroBatchInterleaved, Jvp, Vjp, GraphCell, SparseToDense, SparseTensorDenseMatmul
and
no_init_parameters, against NumPy references, finite differences and the networks they wrap."""
from __future__ import annotations

import os
from types import SimpleNamespace

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn, ops
from cellonnx.tensor import Tensor
from tests.nn.training_net import MSE, Net, gen
from tests.tolerance import assert_close, sum_rtol

DATA = gen.model_data()
NET_RTOL = sum_rtol(16 + 5)  # Net: a 16-term and a 5-term float32 sum per output


def _loss_net() -> tuple[nn.Cell, Net]:
    net = Net()
    return nn.WithLossCell(net, MSE()), net


def test_grad_accumulation_sums_the_micro_batch_losses_and_gradients() -> None:
    x, y = Tensor(DATA["x"]), Tensor(DATA["y"])
    loss_net, net = _loss_net()
    acc = nn.GradAccumulationCell(loss_net, micro_size=3)
    want = sum(float(loss_net(Tensor(DATA["x"][i:i + 4]), Tensor(DATA["y"][i:i + 4])).asnumpy())
               for i in range(0, 12, 4))
    assert float(acc(x, y).asnumpy()) == pytest.approx(want, rel=1e-6)
    params = net.trainable_params()
    _, grads = ms.value_and_grad(acc, None, params)(x, y)
    for i, p in enumerate(params):
        parts = [ms.value_and_grad(loss_net, None, params)(Tensor(DATA["x"][j:j + 4]),
                                                            Tensor(DATA["y"][j:j + 4]))[1][i].asnumpy()
                 for j in range(0, 12, 4)]
        # 12 samples summed at once or as 3 micro-batches of 4: the rounding of 12-term float32 sums
        assert_close(grads[i].asnumpy(), np.sum(parts, axis=0), rtol=1e-5, scale_rtol=sum_rtol(12),
                     what=p.name)
    with pytest.raises(ValueError, match="must be divisible by 5"):
        nn.GradAccumulationCell(loss_net, 5)(x, y)
    with pytest.raises(TypeError, match="must cell type"):
        nn.GradAccumulationCell(lambda a: a, 2)
    with pytest.raises(ValueError, match="must be large than 0"):
        nn.GradAccumulationCell(loss_net, 0)


def test_micro_batch_interleaved_sums_the_slices() -> None:
    loss_net, _ = _loss_net()
    inter = nn.MicroBatchInterleaved(loss_net, interleave_num=2)
    want = sum(float(loss_net(Tensor(DATA["x"][i:i + 6]), Tensor(DATA["y"][i:i + 6])).asnumpy()) for i in (0,
                                                                                                           6))
    assert float(inter(Tensor(DATA["x"]), Tensor(DATA["y"])).asnumpy()) == pytest.approx(want, rel=1e-6)
    with pytest.raises(TypeError, match="must be integer"):
        nn.MicroBatchInterleaved(loss_net, interleave_num=2.0)


def _cube_plus(x: Tensor, y: Tensor) -> Tensor:
    return x ** 3 + y


def test_jvp_and_vjp_as_in_mindspores_documentation() -> None:
    x = Tensor(np.array([[1, 2], [3, 4]], np.float32))
    y = Tensor(np.array([[1, 2], [3, 4]], np.float32))
    v = Tensor(np.ones((2, 2), np.float32))
    out, jv = nn.Jvp(_cube_plus)(x, y, (v, v))
    np.testing.assert_allclose(out.asnumpy(), [[2, 10], [30, 68]])
    np.testing.assert_allclose(jv.asnumpy(), [[4, 13], [28, 49]])       # 3x^2 v + v
    out, (gx, gy) = nn.Vjp(_cube_plus)(x, y, v)
    np.testing.assert_allclose(gx.asnumpy(), [[3, 12], [27, 48]])
    np.testing.assert_allclose(gy.asnumpy(), np.ones((2, 2)))


def test_jvp_and_vjp_against_finite_differences() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(3, 2)), rng.normal(size=(2, 4))
    va, vb, u = rng.normal(size=(3, 2)), rng.normal(size=(2, 4)), rng.normal(size=(3, 4))

    def f(p: Tensor, q: Tensor) -> Tensor:
        return ops.tanh(ops.matmul(p, q))

    eps = 1e-6
    hi, lo = np.tanh((a + eps * va) @ (b + eps * vb)), np.tanh((a - eps * va) @ (b - eps * vb))
    numeric = (hi - lo) / (2 * eps)
    _, jv = nn.Jvp(f)(Tensor(a), Tensor(b), (Tensor(va), Tensor(vb)))
    np.testing.assert_allclose(jv.asnumpy(), numeric, rtol=1e-6, atol=1e-9)
    _, jv1 = nn.Jvp(lambda p: ops.tanh(p) * p)(Tensor(a), Tensor(va))
    num1 = (np.tanh(a + eps * va) * (a + eps * va) - np.tanh(a - eps * va) * (a - eps * va)) / (2 * eps)
    np.testing.assert_allclose(jv1.asnumpy(), num1, rtol=1e-6, atol=1e-9)
    _, (ga, gb) = nn.Vjp(f)(Tensor(a), Tensor(b), Tensor(u))
    d = u * (1 - np.tanh(a @ b) ** 2)
    np.testing.assert_allclose(ga.asnumpy(), d @ b.T, rtol=1e-10)
    np.testing.assert_allclose(gb.asnumpy(), a.T @ d, rtol=1e-10)


def test_graph_cell_runs_an_exported_graph(tmp_path: object) -> None:
    net = Net()
    x = Tensor(DATA["x"][:2])
    path = ms.export(net, x, file_name=os.path.join(str(tmp_path), "net"), file_format="ONNX")
    graph = nn.GraphCell(path)
    assert sorted(n for n, _ in graph.parameters_and_names()) == sorted(gen.PARAM_NAMES)
    assert_close(graph(x).asnumpy(), net(x).asnumpy(), rtol=1e-6, scale_rtol=NET_RTOL)
    gamma = np.full(3, 2.0, np.float32)
    replaced = nn.GraphCell(path, params_init={"gamma": Tensor(gamma)})
    net.gamma.set_data(Tensor(gamma))
    assert_close(replaced(x).asnumpy(), net(x).asnumpy(), rtol=1e-6, scale_rtol=NET_RTOL)
    graph.fc2_bias.set_data(Tensor(np.zeros(3, np.float32)))      # a later change reaches the graph
    net.fc2_bias.set_data(Tensor(np.zeros(3, np.float32)))
    net.gamma.set_data(Tensor(gen.initial_data()["gamma"]))
    assert_close(graph(x).asnumpy(), net(x).asnumpy(), rtol=1e-6, scale_rtol=NET_RTOL)
    with pytest.raises(TypeError, match="must be an ONNX model"):
        nn.GraphCell(net)
    with pytest.raises(NotImplementedError, match="obfuscation"):
        nn.GraphCell(path, obf_random_seed=1)
    with pytest.raises(ValueError, match="does not have"):
        nn.GraphCell(path, params_init={"w": Tensor(gamma)})


INDICES = np.array([[0, 1], [1, 2], [0, 1], [2, 0]], np.int64)
VALUES = np.array([1.0, 2.0, 3.0, -1.5], np.float32)


def test_sparse_to_dense_keeps_the_last_value_of_a_repeated_index() -> None:
    coo = SimpleNamespace(indices=Tensor(INDICES), values=Tensor(VALUES), shape=(3, 4))
    want = np.zeros((3, 4), np.float32)
    for (i, j), v in zip(INDICES, VALUES):
        want[i, j] = v
    np.testing.assert_array_equal(nn.SparseToDense()(coo).asnumpy(), want)


@pytest.mark.parametrize("adjoint_st,adjoint_dt", [(False, False), (True, False), (False, True), (True,
                                                                                                  True)])
def test_sparse_tensor_dense_matmul(adjoint_st: bool, adjoint_dt: bool) -> None:
    rng = np.random.default_rng(1)
    shape = (4, 3) if adjoint_st else (3, 4)
    sparse = np.zeros(shape)
    np.add.at(sparse, (INDICES[:, 0], INDICES[:, 1]), VALUES.astype(np.float64))   # repeats add up
    inner = 4
    dense = rng.normal(size=(2, inner) if adjoint_dt else (inner, 2))
    want = (sparse.T if adjoint_st else sparse) @ (dense.T if adjoint_dt else dense)
    cell = nn.SparseTensorDenseMatmul(adjoint_st, adjoint_dt)
    got = cell(Tensor(INDICES), Tensor(VALUES), shape, Tensor(dense.astype(np.float32)))
    assert_close(got.asnumpy(), want, rtol=1e-5, scale_rtol=sum_rtol(inner))
    w = rng.normal(size=want.shape)
    _, (g_values, g_dense) = ms.value_and_grad(lambda v, d: ops.sum(cell(Tensor(INDICES), v, shape,
                                                                         d) * Tensor(w)),
                                               (0, 1))(Tensor(VALUES.astype(np.float64)), Tensor(dense))
    eff = w @ (dense.T if adjoint_dt else dense).T                          # d out / d (effective sparse)
    eff = eff.T if adjoint_st else eff
    np.testing.assert_allclose(g_values.asnumpy(), eff[INDICES[:, 0], INDICES[:, 1]], rtol=1e-10)
    g_eff = (sparse.T if adjoint_st else sparse).T @ w
    np.testing.assert_allclose(g_dense.asnumpy(), g_eff.T if adjoint_dt else g_eff, rtol=1e-10)


def test_no_init_parameters_then_load(tmp_path: object) -> None:
    net = Net()
    path = os.path.join(str(tmp_path), "net.ckpt")
    ms.save_checkpoint(net, path)
    with nn.no_init_parameters():
        fresh = nn.Dense(16, 5)
    assert fresh.weight.shape == (5, 16)
    other = Net({n: np.zeros_like(v) for n, v in gen.initial_data().items()})
    ms.load_checkpoint(path, other)
    for n in gen.PARAM_NAMES:
        np.testing.assert_array_equal(getattr(other, n).asnumpy(), getattr(net, n).asnumpy())
