"""The 1-D / 3-D / channel-last convolution and pooling layers, ReflectionPad2D, BatchNormReLU and the rest of
gluon.loss against MXNet 1.9.1 (tests/fixtures/mxnet/gen_layers_extra.py, table in layers_extra_cases.py):
outputs, input and parameter gradients with seeded parameters; float64 central differences; hybridize and
ONNX export run by onnxruntime at two batch sizes."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from cellonnx import Tensor
from cellonnx.gluon import loss, nn
from cellonnx.mxnet import autograd, util
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
_spec = importlib.util.spec_from_file_location("layers_extra_cases", FIXTURES / "layers_extra_cases.py")
_cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cases)
LAYERS, LOSSES = _cases.LAYERS, _cases.LOSSES
EXPECTED = np.load(FIXTURES / "layers_extra" / "expected.npz")
NS = {"nn": nn, "loss": loss}
RTOL, SCALE_RTOL = 1e-4, 1e-5
# MXNet 1.9.1's CPU kernel for 1-D average pooling with ceil_mode divides the gradient of a window that hangs
# over the input's end by the whole kernel, while its forward divides by the cells inside (AvgPool1D(2,
# ceil_mode=True) on 7 values: output 6 = x[6] / 1, gradient of x[6] 0.5): the input gradient here is the
# forward's derivative, checked by finite differences (test_layer_input_gradient_matches_finite_differences).
MXNET_INCONSISTENT_GRAD = {"avgpool1d_ceil"}


@pytest.fixture(autouse=True)
def _ndarray_semantics():
    """The generator ran with MXNet 1.x's NDArray semantics (BatchNormReLU's ReLU depends on them)."""
    was = util.is_np_array(), util.is_np_shape()
    util.reset_np()
    yield
    util.set_np(shape=was[1], array=was[0])


def want(case: str, what: str) -> np.ndarray:
    return EXPECTED[f"{case}__{what}"]


def close(got, expected, what: str) -> None:
    assert_close(np.asarray(got), expected, rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0, what=what)


def build(case: str):
    block = eval(LAYERS[case][0], NS)
    block.initialize()
    block(Tensor(want(case, "x")))
    for i, p in enumerate(block.collect_params().values()):
        p.set_data(Tensor(want(case, f"p{i}")))
    return block


def test_every_generator_case_has_a_row() -> None:
    cases = {k.split("__")[0] for k in EXPECTED.files}
    assert cases == set(LAYERS) | set(LOSSES) | {"ctc_lengths", "sparse_embedding"}


@pytest.mark.parametrize("case", sorted(LAYERS))
def test_layer_matches_mxnet(case: str) -> None:
    block = build(case)
    params = list(block.collect_params().values())
    x = Tensor(want(case, "x"))
    x.attach_grad()
    with autograd.record():
        y = block(x)
    y.backward(Tensor(want(case, "dy")))
    close(y.asnumpy(), want(case, "y"), f"{case}: output")
    if case not in MXNET_INCONSISTENT_GRAD:
        close(x.grad.asnumpy(), want(case, "dx"), f"{case}: input gradient")
    for i, p in enumerate(params):
        if f"{case}__g{i}" in EXPECTED:
            close(p.grad().asnumpy(), want(case, f"g{i}"), f"{case}: gradient of {p.name}")
        else:
            close(p.data().asnumpy(), want(case, f"after{i}"), f"{case}: {p.name} after the pass")
    close(block(Tensor(want(case, "x"))).asnumpy(), want(case, "infer"), f"{case}: inference output")


def _batch(x: np.ndarray, n: int) -> np.ndarray:
    return np.concatenate([x] * n)[:n]


@pytest.mark.parametrize("case", sorted(LAYERS))
def test_layer_hybridizes_and_exports(case: str, tmp_path) -> None:
    block = build(case)
    x = want(case, "x")
    eager = {n: block(Tensor(_batch(x, n))).asnumpy() for n in (1, 2)}
    block.hybridize()
    close(block(Tensor(_batch(x, 2))).asnumpy(), eager[2], f"{case}: hybridized")
    session = ort.InferenceSession(block.export(str(tmp_path / case)), providers=["CPUExecutionProvider"])
    (inp,) = session.get_inputs()
    for n in (1, 2):
        (out,) = session.run(None, {inp.name: _batch(x, n)})
        close(out, eager[n], f"{case}: onnxruntime, batch {n}")


def _numeric_grad(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f(x)
        x[i] = old - eps
        down = f(x)
        x[i] = old
        g[i] = (up - down) / (2 * eps)
    return g


FD_LAYERS = ["conv1d_group", "conv3d", "conv1d_t_group", "conv3d_t_pad", "avgpool1d", "avgpool1d_ceil",
             "avgpool3d_ceil",
             "reflection_pad_tuple", "batchnorm_relu", "global_avgpool1d_nwc"]


@pytest.mark.parametrize("case", FD_LAYERS)
def test_layer_input_gradient_matches_finite_differences(case: str) -> None:
    block = build(case)
    block.cast("float64")
    x0 = want(case, "x").astype(np.float64)
    dy = want(case, "dy").astype(np.float64)

    def value(x: np.ndarray) -> float:
        with autograd.record():
            return float((block(Tensor(x)).asnumpy() * dy).sum())

    x = Tensor(x0.copy())
    x.attach_grad()
    with autograd.record():
        y = block(x)
    y.backward(Tensor(dy))
    assert_close(x.grad.asnumpy(), _numeric_grad(value, x0.copy()), rtol=1e-5, scale_rtol=1e-6, what=case)


def test_channel_last_convolution_is_the_channel_first_one_transposed() -> None:
    """MXNet 1.9.1 runs NHWC / NDHWC convolutions on GPUs only; the channel-last layers must give the
    channel-first result on transposed data, with the weight's kernel axes before its input channels."""
    rng = np.random.default_rng(3)
    for ctor, shape in (("nn.Conv2D(4, 3, padding=1, groups=2, {})", (2, 2, 5, 4)),
                        ("nn.Conv3D(3, 2, strides=(1, 2, 1), {})", (2, 3, 4, 5, 2)),
                        ("nn.Conv2DTranspose(4, 3, strides=2, output_padding=1, groups=2, {})", (2, 2, 3, 4)),
                        ("nn.Conv3DTranspose(2, 2, strides=2, {})", (1, 3, 2, 3, 2))):
        nd = len(shape) - 2
        last = eval(ctor.format(f"layout='{'NHWC' if nd == 2 else 'NDHWC'}'"), NS)
        first = eval(ctor.format(""), NS)
        x = rng.standard_normal(shape).astype(np.float32)
        to_last = (0, *range(2, nd + 2), 1)
        first.initialize()
        first(Tensor(x))
        last.initialize()
        last(Tensor(x.transpose(to_last)))
        w = rng.standard_normal(first.weight.shape).astype(np.float32)
        assert last.weight.shape == w.transpose(to_last).shape, ctor
        first.weight.set_data(Tensor(w))
        last.weight.set_data(Tensor(w.transpose(to_last)))
        b = rng.standard_normal(first.bias.shape).astype(np.float32)
        first.bias.set_data(Tensor(b))
        last.bias.set_data(Tensor(b))
        got = last(Tensor(x.transpose(to_last))).asnumpy()
        close(got, first(Tensor(x)).asnumpy().transpose(to_last), ctor)


@pytest.mark.parametrize("ctor", ["nn.Conv1D(2, 3, layout='NWC')", "nn.Conv3D(2, 3, layout='NCHW')",
                                  "nn.Conv1DTranspose(2, 3, layout='NWC')", "nn.MaxPool1D(layout='NCHW')",
                                  "nn.AvgPool3D(layout='NHWC')", "nn.GlobalMaxPool3D(layout='NCW')"])
def test_unsupported_layouts_raise_as_mxnet(ctor: str) -> None:
    with pytest.raises(AssertionError, match="layout"):
        eval(ctor, NS)


def test_reprs_follow_mxnet() -> None:
    assert repr(nn.Conv1D(4, 3, in_channels=2)) == "Conv1D(2 -> 4, kernel_size=(3,), stride=(1,))"
    assert repr(nn.Conv3DTranspose(4, 2, strides=2, output_padding=1, in_channels=3)) == \
        "Conv3DTranspose(3 -> 4, kernel_size=(2, 2, 2), stride=(2, 2, 2))"
    assert repr(nn.MaxPool1D(3, 2, padding=1, layout="NWC")) == \
        "MaxPool1D(size=(3,), stride=(2,), padding=(1,), ceil_mode=False, global_pool=False, " \
        "pool_type=max, layout=NWC)"
    assert repr(nn.GlobalAvgPool3D()) == \
        "GlobalAvgPool3D(size=(1, 1, 1), stride=(1, 1, 1), padding=(0, 0, 0), ceil_mode=True, " \
        "global_pool=True, pool_type=avg, layout=NCDHW)"


def test_batchnorm_relu_is_plain_batchnorm_with_numpy_semantics() -> None:
    """MXNet 1.9.1 fuses the ReLU only with NDArray semantics (npx.batch_norm has no fuse_relu)."""
    fused, plain = build("batchnorm_relu"), nn.BatchNorm(momentum=0.8)
    plain.initialize()
    x = Tensor(want("batchnorm_relu", "x"))
    plain(x)
    for p, q in zip(fused.collect_params().values(), plain.collect_params().values()):
        q.set_data(p.data())
    assert (fused(x).asnumpy() >= 0).all()
    util.set_np()
    close(fused(x).asnumpy(), plain(x).asnumpy(), "BatchNormReLU under set_np")


def test_sparse_embedding_matches_mxnet() -> None:
    """Row-sparse weight gradients and a Trainer's lazy SGD steps (momentum, weight decay) touch only the rows
    looked up, as MXNet's SparseEmbedding."""
    from cellonnx.gluon import Trainer
    from cellonnx.gluon.contrib.nn import SparseEmbedding

    emb = SparseEmbedding(7, 3)
    emb.initialize()
    emb.weight.set_data(Tensor(want("sparse_embedding", "w")))
    assert repr(emb) == "SparseEmbedding(7 -> 3, float32)" and emb.weight.grad_stype == "row_sparse"
    trainer = Trainer(emb.collect_params(), "sgd", {"learning_rate": 0.5, "momentum": 0.9, "wd": 0.1})
    for step in range(2):
        with autograd.record():
            y = emb(Tensor(want("sparse_embedding", f"x{step}")))
        y.backward(Tensor(want("sparse_embedding", f"dy{step}")))
        close(y.asnumpy(), want("sparse_embedding", f"y{step}"), f"step {step}: output")
        grad = emb.weight.grad()
        np.testing.assert_array_equal(grad.indices.asnumpy(), want("sparse_embedding", f"rows{step}"))
        close(grad.data.asnumpy(), want("sparse_embedding", f"grad{step}"), f"step {step}: gradient rows")
        trainer.step(2)
        close(emb.weight.data().asnumpy(), want("sparse_embedding", f"after{step}"), f"step {step}: weights")


def _loss_inputs(name: str) -> list[np.ndarray]:
    return [want(name, f"in{i}") for i in range(len(LOSSES[name][1]))] if name in LOSSES else \
        [want(name, "in0"), want(name, "in1")]


@pytest.mark.parametrize("name", sorted(LOSSES) + ["ctc_lengths"])
def test_loss_matches_mxnet(name: str) -> None:
    if name == "ctc_lengths":
        ctor, _, _, pred_len, label_len = _cases.CTC_LENGTHS
        diff, extra = (0,), [np.asarray(pred_len, np.float32), np.asarray(label_len, np.float32)]
    else:
        ctor, _, diff = LOSSES[name]
        extra = []
    block = eval(ctor, NS)
    arrays = [Tensor(v) for v in _loss_inputs(name) + extra]
    for i in diff:
        arrays[i].attach_grad()
    with autograd.record():
        y = block(*arrays)
    close(y.asnumpy(), want(name, "y"), f"{name}: loss")
    if diff:
        y.backward(Tensor(want(name, "dy")))
    for i in diff:
        close(arrays[i].grad.asnumpy(), want(name, f"d{i}"), f"{name}: gradient of input {i}")


FD_LOSSES = ["huber", "hinge_weighted", "squared_hinge", "logistic_binary", "triplet", "poisson_full",
             "cosine", "kldiv_logits", "sdml", "ctc_tnc"]


@pytest.mark.parametrize("name", FD_LOSSES)
def test_loss_gradient_matches_finite_differences(name: str) -> None:
    ctor, _, diff = LOSSES[name]
    block = eval(ctor, NS)
    inputs = [v.astype(np.float64) for v in _loss_inputs(name)]
    diff = diff or (0,)
    dy = np.random.default_rng(5).uniform(0.5, 1.5, np.asarray(want(name, "y")).shape)
    for i in diff:
        def value(v: np.ndarray, i: int = i) -> float:
            args = [Tensor(v if j == i else a) for j, a in enumerate(inputs)]
            return float((block(*args).asnumpy() * dy).sum())

        args = [Tensor(a.copy()) for a in inputs]
        args[i].attach_grad()
        with autograd.record():
            y = block(*args)
        y.backward(Tensor(dy))
        assert_close(args[i].grad.asnumpy(), _numeric_grad(value, inputs[i].copy()), rtol=1e-5,
                     scale_rtol=1e-6, what=f"{name}: input {i}")


@pytest.mark.parametrize("name", sorted(set(LOSSES) - {"ctc", "ctc_tnc"}))
def test_loss_hybridizes(name: str) -> None:
    block = eval(LOSSES[name][0], NS)
    args = [Tensor(v) for v in _loss_inputs(name)]
    eager = block(*args).asnumpy()
    block.hybridize()
    close(block(*args).asnumpy(), eager, f"{name}: hybridized")
    close(block(*args).asnumpy(), want(name, "y"), f"{name}: hybridized, MXNet")


def test_ctc_loss_refuses_to_be_traced() -> None:
    block = eval(LOSSES["ctc"][0], NS)
    block.hybridize()
    with pytest.raises(NotImplementedError, match="eagerly"):
        block(*[Tensor(v) for v in _loss_inputs("ctc")])


def test_loss_argument_errors_follow_mxnet() -> None:
    with pytest.raises(ValueError, match="label_format can only be signed or binary"):
        loss.LogisticLoss(label_format="zero_one")
    with pytest.raises(AssertionError, match="Only 'NTC' and 'TNC'"):
        loss.CTCLoss(layout="NCT")
    with pytest.raises(AssertionError, match="Only 'NT' and 'TN'"):
        loss.CTCLoss(label_layout="TT")
