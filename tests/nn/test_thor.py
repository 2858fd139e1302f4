"""nn.thor (MindSpore's ThorGpu), ConvertNetUtils and ConvertModelUtils / ModelThor.

Against MindSpore 2.10 (tests/fixtures/mindspore/gen_thor.py, its CPU build): the converted networks, the
optimizer's parameters and layer maps, and a Dense net's loss, gradients and THOR statistics. MindSpore's CPU
build cannot run the update (its kernels are GPU ones), so the update is checked against a float64 NumPy
reference of those kernels written here: damped factors ``A + sqrt(d) I`` and ``G / ls^2 * bs^2 + sqrt(d) I``
inverted per diagonal block of 128 through their Cholesky factors, ``g -> G^-1 g A^-1`` blockwise, an
embedding's ``(L^-1)^2`` and ``1 / (a / bs + sqrt(d))``, LayerNorm's ``g / (g^2 / bs + sqrt(d))``, then weight
decay and momentum.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Tensor, nn, ops
from tests.tolerance import assert_close

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore" / "thor"
LR = np.array([0.1, 0.05, 0.02, 0.01], np.float32)
DAMPING = np.array([0.3, 0.2, 0.1, 0.05], np.float32)


class ConvNet(nn.Cell):
    def __init__(self, conv_bias: bool) -> None:
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, has_bias=conv_bias, bias_init="ones")
        self.fc1 = nn.Dense(3 * 4 * 4, 5, activation="relu")
        self.fc2 = nn.Dense(5, 4)
        self.flat = nn.Flatten()

    def construct(self, x: Tensor) -> Tensor:
        return self.fc2(self.fc1(self.flat(self.conv(x))))


class EmbedNet(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(10, 6)
        self.norm = nn.LayerNorm((6,))
        self.fc = nn.Dense(6, 3)

    def construct(self, ids: Tensor) -> Tensor:
        return self.fc(self.norm(self.embed(ids)))


class DenseNet(nn.Cell):
    def __init__(self, n_in: int = 6) -> None:
        super().__init__()
        self.fc1 = nn.Dense(n_in, 5, activation="relu")
        self.fc2 = nn.Dense(5, 4)

    def construct(self, x: Tensor) -> Tensor:
        return self.fc2(self.fc1(x))


def _thor(net: nn.Cell, **kw: Any) -> Any:
    args = {"weight_decay": 0.01, "batch_size": 2, "frequency": 2} | kw
    return nn.thor(net, Tensor(LR), Tensor(DAMPING), 0.9, **args)


@pytest.mark.parametrize("case", ["conv", "conv_bias", "embed"])
def test_converted_net_and_optimizer_state_match_mindspore(case: str) -> None:
    want = json.loads((FIX / "structure.json").read_text())[case]
    net = EmbedNet() if case == "embed" else ConvNet(case == "conv_bias")
    opt = _thor(net)
    assert [p.name for p in net.get_parameters()] == want["net_params"]
    assert [[n, list(p.shape)] for n, p in opt.parameters_and_names()] == want["opt_params"]
    for key in ("weight_fim_idx_map", "weight_conv_idx_map", "weight_layertype_idx_map"):
        assert list(getattr(opt, key)) == want[key], key
    assert [list(s) for s in opt.matrix_a_shape] == want["matrix_a_shape"]
    assert {n: type(c).__name__ for n, c in net.name_cells().items()} == want["cells"]
    if "conv_bias" in want:  # MindSpore's Conv2d conversion does not carry the bias over
        np.testing.assert_array_equal(net.conv.bias.asnumpy(), want["conv_bias"])


def _dense_fixture() -> tuple[DenseNet, Any, dict]:
    z = dict(np.load(FIX / "dense.npz"))
    net = DenseNet()
    for p in net.get_parameters():
        p.set_data(Tensor(z[f"param/{p.name}"]))
    opt = nn.thor(net, Tensor(LR), Tensor(DAMPING), 0.9, batch_size=8, frequency=2)
    return net, opt, z


def test_dense_statistics_and_gradients_match_mindspore() -> None:
    net, _, z = _dense_fixture()
    loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    trainable = [p for p in net.get_parameters() if p.requires_grad]
    loss, grads = ms.value_and_grad(loss_net, None, trainable)(Tensor(z["input/x"]), Tensor(z["input/y"]))
    assert_close(loss.asnumpy(), z["loss"], 1e-6, 1e-6)
    for p, g in zip(trainable, grads):
        assert_close(g.asnumpy(), z[f"grad/{p.name}"], 1e-5, 1e-5)
    for p in net.get_parameters():
        if "matrix" in p.name:
            assert_close(p.asnumpy(), z[f"stat/{p.name}"], 1e-5, 1e-5)


# ------------------------------------------------------------- float64 reference of MindSpore's GPU kernels
def _ref_block_inverses(m: np.ndarray, split: int = 128) -> list[np.ndarray]:
    n = m.shape[0]
    if n > split:
        batch = -(-n // split)
        padded = np.eye(batch * split)
        padded[:n, :n] = m
        blocks = [padded[k * split:(k + 1) * split, k * split:(k + 1) * split] for k in range(batch)]
    else:
        blocks = [m]
    out = []
    for b in blocks:
        li = np.linalg.inv(np.linalg.cholesky(b))
        out.append(li.T @ li)
    return out


def _ref_blockdiag(blocks: list[np.ndarray], n: int) -> np.ndarray:
    s = blocks[0].shape[0]
    full = np.zeros((s * len(blocks),) * 2)
    for k, b in enumerate(blocks):
        full[k * s:(k + 1) * s, k * s:(k + 1) * s] = b
    return full[:n, :n]


def _ref_dense_precondition(a: np.ndarray, g: np.ndarray, grad: np.ndarray, damping: float, loss_scale: float,
                            batch: int, a_norm: float | None = None, g_norm: float | None = None
                            ) -> tuple[np.ndarray, list, list]:
    """(preconditioned gradient, A^-1 blocks, G^-1 blocks) for a Dense / Conv2d weight."""
    da, dg, fmap = damping, damping, 1.0
    if a_norm is not None:
        da, dg, fmap = damping / a_norm, damping / g_norm, np.sqrt(1.0 / a_norm)
    a_inv = [b * fmap for b in _ref_block_inverses(a + np.sqrt(da) * np.eye(len(a)))]
    g_d = g / loss_scale ** 2 * batch ** 2 + np.sqrt(dg) * np.eye(len(g))
    g_inv = [b * fmap for b in _ref_block_inverses(g_d)]
    flat = grad.reshape(grad.shape[0], -1)
    new = _ref_blockdiag(g_inv, flat.shape[0]) @ flat @ _ref_blockdiag(a_inv, flat.shape[1])
    return new.reshape(grad.shape), a_inv, g_inv


def _ref_momentum(w: np.ndarray, v: np.ndarray, g: np.ndarray, lr: float, u: float, nesterov: bool
                  ) -> tuple[np.ndarray, np.ndarray]:
    v = v * u + g
    return (w - (g * lr + v * u * lr) if nesterov else w - v * lr), v


@pytest.mark.parametrize("nesterov", [False, True])
def test_dense_update_matches_float64_reference_of_the_gpu_kernels(nesterov: bool) -> None:
    z = dict(np.load(FIX / "dense.npz"))
    net = DenseNet()
    for p in net.get_parameters():
        p.set_data(Tensor(z[f"param/{p.name}"]))
    wd, ls, bs = 0.01, 2.0, 8
    opt = nn.thor(net, Tensor(LR), Tensor(DAMPING), 0.9, weight_decay=wd, loss_scale=ls, batch_size=bs,
                  use_nesterov=nesterov, frequency=2)
    for p in net.get_parameters():
        if "matrix" in p.name:
            p.set_data(Tensor(z[f"stat/{p.name}"]))
    names = [p.name for p in opt.params]
    grads = [z[f"grad/{n}"].astype(np.float64) * ls for n in names]  # as a loss-scaled backward gives them
    w = {n: z[f"param/{n}"].astype(np.float64) for n in names}
    v = {n: np.zeros_like(w[n]) for n in names}
    kept: dict[str, tuple] = {}
    for step in range(3):
        opt.thor = step != 1  # the second step reuses the kept inverses
        opt(tuple(Tensor(g.astype(np.float32)) for g in grads))
        d = float(DAMPING[step])
        for n, g in zip(names, grads):
            g = g / ls
            if n.endswith("weight"):
                layer = n.split(".")[0]
                if step != 1:
                    _, a_inv, g_inv = _ref_dense_precondition(z[f"stat/{layer}.matrix_a"].astype(np.float64),
                                                              z[f"stat/{layer}.matrix_g"].astype(np.float64),
                                                              g, d, ls, bs)
                    kept[layer] = (a_inv, g_inv)
                a_inv, g_inv = kept[layer]
                g = _ref_blockdiag(g_inv, g.shape[0]) @ g @ _ref_blockdiag(a_inv, g.shape[1])
            g = g + wd * w[n]
            w[n], v[n] = _ref_momentum(w[n], v[n], g, float(LR[step]), 0.9, nesterov)
        for n, p in zip(names, opt.params):
            assert_close(p.asnumpy(), w[n], 1e-5, 1e-5)
    for count, layer in enumerate(("fc1", "fc2")):
        assert_close(opt.matrix_a[count].asnumpy()[0, 0], kept[layer][0][0], 1e-5, 1e-5)
        assert_close(opt.matrix_g[count].asnumpy()[0], kept[layer][1][0], 1e-5, 1e-5)
    assert int(opt.cov_step.asnumpy()[0]) == 3 and int(opt.global_step.asnumpy()[0]) == 3


def _random_spd(n: int, rng: np.random.RandomState) -> np.ndarray:
    x = rng.normal(0, 1, (n, 2 * n))
    return (x @ x.T / (2 * n)).astype(np.float32)


def test_blocks_of_128_with_the_last_padded_by_the_identity() -> None:
    rng = np.random.RandomState(3)
    net = DenseNet(n_in=300)
    opt = nn.thor(net, Tensor(LR), Tensor(DAMPING), 0.9, batch_size=4, enable_clip_grad=False)
    assert [tuple(p.shape) for p in opt.matrix_a] == [(1, 3, 128, 128), (1, 1, 5, 5)]
    a, g = _random_spd(300, rng), _random_spd(5, rng)
    net.fc1.matrix_a.set_data(Tensor(a))
    net.fc1.matrix_g.set_data(Tensor(g))
    net.fc2.matrix_a.set_data(Tensor(_random_spd(5, rng)))
    net.fc2.matrix_g.set_data(Tensor(_random_spd(4, rng)))
    grads = [rng.normal(0, 1, tuple(p.shape)).astype(np.float32) for p in opt.params]
    w0 = net.fc1.weight.asnumpy().astype(np.float64)
    opt(tuple(Tensor(x) for x in grads))
    new, a_inv, _ = _ref_dense_precondition(a.astype(np.float64), g.astype(np.float64),
                                            grads[0].astype(np.float64), float(DAMPING[0]), 1.0, 4)
    for k in range(3):
        assert_close(opt.matrix_a[0].asnumpy()[0, k], a_inv[k], 2e-5, 2e-5)
    assert_close(net.fc1.weight.asnumpy(), w0 - float(LR[0]) * new, 1e-5, 1e-5)


def test_embedding_layernorm_and_conv_against_the_reference() -> None:
    rng = np.random.RandomState(5)
    net = EmbedNet()
    ls, bs = 4.0, 6
    opt = nn.thor(net, Tensor(LR), Tensor(DAMPING), 0.5, loss_scale=ls, batch_size=bs, enable_clip_grad=True)
    net(Tensor(np.array([1, 2, 2, 7, 1, 0], np.int32)))  # records the embedding's id counts
    counts = net.embed.matrix_a.asnumpy().astype(np.float64)
    g_emb = _random_spd(6, rng)
    net.embed.matrix_g.set_data(Tensor(g_emb))
    net.fc.matrix_a.set_data(Tensor(_random_spd(6, rng)))
    net.fc.matrix_g.set_data(Tensor(_random_spd(3, rng)))
    grads = [rng.normal(0, 0.1, tuple(p.shape)).astype(np.float32) for p in opt.params]
    before = {p.name: p.asnumpy().astype(np.float64) for p in opt.params}
    opt(tuple(Tensor(x) for x in grads))
    d = float(DAMPING[0])
    a_inv = 1.0 / (counts / bs + np.sqrt(d))
    g_damped = g_emb.astype(np.float64) / ls ** 2 * bs ** 2 + np.sqrt(d) * np.eye(6)
    li = np.linalg.inv(np.linalg.cholesky(g_damped))
    assert_close(opt.matrix_a[0].asnumpy(), a_inv, 1e-6, 1e-6)
    assert_close(opt.matrix_g[0].asnumpy(), li @ li, 1e-5, 1e-5)
    for p, g in zip(opt.params, grads):
        g = g.astype(np.float64) / ls
        if p.name == "embed.embedding_table":
            g = (a_inv[:, None] * g) @ (li @ li)
        elif p.name.startswith("norm."):
            g = g / (g * g / bs + np.sqrt(d))
        elif p.name == "fc.weight":
            g = _ref_dense_precondition(net.fc.matrix_a.asnumpy().astype(np.float64),
                                        net.fc.matrix_g.asnumpy().astype(np.float64), g, d, ls, bs)[0]
        g = g * min(1.0, 1.0 / np.linalg.norm(g))  # enable_clip_grad: each gradient to L2 norm 1
        assert_close(p.asnumpy(), before[p.name] - float(LR[0]) * g, 1e-5, 1e-5)


def test_conv_damping_and_feature_map_use_the_normalizers() -> None:
    rng = np.random.RandomState(9)
    net = ConvNet(False)
    opt = nn.thor(net, Tensor(LR), Tensor(DAMPING), 0.9, batch_size=2)
    loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    x = Tensor(rng.normal(0, 1, (2, 2, 4, 4)).astype(np.float32))
    y = Tensor(np.array([1, 3], np.int32))
    grads = ms.value_and_grad(loss_net, None, opt.params)(x, y)[1]
    a = net.conv.matrix_a_cov.asnumpy().astype(np.float64)
    g = net.conv.matrix_g_cov.asnumpy().astype(np.float64)
    a_norm, g_norm = float(net.conv.a_normalizer.asnumpy()[0]), float(net.conv.g_normalizer.asnumpy()[0])
    assert (a_norm, g_norm) == (16.0, 16.0)  # 'same' 3x3 patches over a 4x4 map
    w0 = net.conv.weight.asnumpy().astype(np.float64)
    opt(grads)
    new = _ref_dense_precondition(a, g, grads[0].asnumpy().astype(np.float64), float(DAMPING[0]), 1.0, 2,
                                  a_norm, g_norm)[0]
    assert_close(net.conv.weight.asnumpy(), w0 - float(LR[0]) * new, 1e-5, 1e-5)


def test_damping_past_its_table_is_zero_as_the_gpu_gather() -> None:
    net = DenseNet()
    opt = nn.thor(net, Tensor(LR), Tensor(DAMPING[:1]), 0.9, batch_size=2)
    opt.cov_step.set_data(Tensor(np.array([1], np.int32)))
    assert float(opt._damping_step().asnumpy()) == 0.0
    opt.cov_step.set_data(Tensor(np.array([0], np.int32)))
    assert float(opt._damping_step().asnumpy()) == pytest.approx(float(DAMPING[0]))


def test_non_finite_statistics_name_the_layer() -> None:
    net = DenseNet()
    opt = nn.thor(net, Tensor(LR), Tensor(DAMPING), 0.9, batch_size=2)
    net.fc2.matrix_g.set_data(Tensor(-np.eye(4, dtype=np.float32)))  # as overflowed statistics give
    with pytest.raises(ValueError, match="fc2.weight's layer are not positive definite"):
        opt(tuple(ops.zeros_like(p) for p in opt.params))


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"learning_rate": 0.1}, TypeError, "learning rate"),
    ({"momentum": 1}, TypeError, "momentum"),
    ({"momentum": -0.5}, ValueError, "at least 0.0"),
    ({"frequency": 1}, ValueError, "'frequency' must be at least 2"),
    ({"frequency": 2.0}, TypeError, "frequency"),
])
def test_argument_checks(kwargs: dict, error: type, match: str) -> None:
    args = {"learning_rate": Tensor(LR), "damping": Tensor(DAMPING), "momentum": 0.9} | kwargs
    with pytest.raises(error, match=match):
        nn.thor(DenseNet(), **args)


def _dataset(n: int) -> Any:
    rng = np.random.RandomState(1)
    data = {"x": rng.normal(0, 1, (n * 4, 6)).astype(np.float32),
            "y": (np.arange(n * 4) % 4).astype(np.int32)}
    return ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(4)


class _Steps(ms.train.Callback):
    def __init__(self) -> None:
        self.ends: list[int] = []

    def on_train_step_end(self, run_context: Any) -> None:
        self.ends.append(run_context.original_args().cur_step_num)


@pytest.mark.parametrize("sink", [True, False])
def test_model_thor_runs_thor_steps_every_frequency_steps_in_sink_mode(sink: bool) -> None:
    net = DenseNet()
    opt = nn.thor(net, Tensor(np.full(8, 0.05, np.float32)), Tensor(np.full(8, 0.1, np.float32)), 0.9,
                  batch_size=4, frequency=3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = ms.train.Model(net, loss_fn=loss, optimizer=opt)
    model = ms.train.ConvertModelUtils.convert_to_thor_model(model, network=net, loss_fn=loss, optimizer=opt)
    assert type(model).__name__ == "ModelThor"
    seen: list[bool] = []
    real = opt._inverses
    opt._inverses = lambda d: (seen.append(True), real(d))[1]
    steps = _Steps()
    model.train(1, _dataset(6), callbacks=[steps], dataset_sink_mode=sink)
    assert int(opt.global_step.asnumpy()[0]) == 6
    if sink:  # one THOR step, then frequency - 1 first-order steps; step_end after each run
        assert len(seen) == 2 and steps.ends == [1, 3, 4, 6]
    else:
        assert len(seen) == 6 and steps.ends == [1, 2, 3, 4, 5, 6]


def test_convert_model_utils_keeps_a_model_of_another_optimizer() -> None:
    net = nn.Dense(3, 2)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    model = ms.train.Model(net, nn.MSELoss(), opt)
    assert ms.ConvertModelUtils.convert_to_thor_model(model, net, optimizer=opt) is model
