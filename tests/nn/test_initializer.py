"""cellonnx.common.initializer: names, numbers and tensors as MindSpore accepts them, the distributions'
parameters and fan computations, seeding, and the layers' default initializers."""
from __future__ import annotations

import math

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Parameter, Tensor, nn
from cellonnx.common import initializer as init
from cellonnx.common.initializer import (
    Constant,
    Dirac,
    HeNormal,
    HeUniform,
    Identity,
    Initializer,
    Normal,
    One,
    Orthogonal,
    Sparse,
    TruncatedNormal,
    Uniform,
    VarianceScaling,
    XavierNormal,
    XavierUniform,
    Zero,
    initializer,
)
from tests.tolerance import assert_close, sum_rtol


def draw(i: object, shape: tuple[int, ...] = (200, 300)) -> np.ndarray:
    return initializer(i, shape).asnumpy().astype(np.float64)


def test_names_numbers_and_tensors() -> None:
    assert initializer("ones", [1, 2, 3]).asnumpy().tolist() == [[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]]
    assert not initializer("zeros", 4).asnumpy().any()
    for name in ("normal", "Normal", "uniform", "truncatedNormal", "TruncatedNormal", "xavier_uniform",
                 "xavier_normal", "he_uniform", "he_normal", "one", "zero", "identity", "orthogonal",
                 "variancescaling", "XavierUniform"):
        assert initializer(name, (3, 4)).shape == (3, 4), name
    assert initializer(2.5, (2,)).asnumpy().tolist() == [2.5, 2.5]
    assert initializer(3, (2,), ms.int32).asnumpy().tolist() == [3, 3]
    t = Tensor(np.ones((2, 2), np.float32))
    assert initializer(t, (2, 2)) is t
    assert initializer(np.zeros((2, 2)), [2, 2]).shape == (2, 2)
    with pytest.raises(ValueError, match="the shape of the 'init' argument should be same as the argument"):
        initializer(t, (3,))
    with pytest.raises(ValueError, match="the class corresponding to 'bogus' was not found"):
        initializer("bogus", (2,))
    with pytest.raises(ValueError, match="must be positive integer"):
        initializer("ones", (2, 0))
    with pytest.raises(TypeError, match="should be 'Tensor', 'number', 'string' or 'initializer'"):
        initializer(object(), (2,))


def test_dtypes() -> None:
    assert initializer("normal", (2, 2), ms.float16).dtype == ms.float16
    assert initializer("ones", (2,), ms.bfloat16).dtype == ms.bfloat16
    assert initializer(One(), (2,), ms.int64).dtype == ms.int64


def test_fan_in_and_fan_out() -> None:
    assert init._calculate_fan_in_and_fan_out((5, 3)) == (3, 5)
    assert init._calculate_fan_in_and_fan_out((8, 4, 3, 3)) == (36, 72)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init._calculate_fan_in_and_fan_out((4,))
    assert init._calculate_gain("leaky_relu", 0) == pytest.approx(math.sqrt(2))
    assert init._calculate_gain("leaky_relu", math.sqrt(5)) == pytest.approx(math.sqrt(1 / 3))
    assert init._calculate_gain("tanh") == pytest.approx(5 / 3)
    assert init._calculate_gain("conv2d") == 1.0


def test_distributions() -> None:
    ms.set_seed(0)
    a = draw(Normal(sigma=0.5, mean=1.0))
    assert a.mean() == pytest.approx(1.0, abs=0.01) and a.std() == pytest.approx(0.5, rel=0.02)
    assert draw("normal").std() == pytest.approx(0.01, rel=0.02)
    u = draw(Uniform())
    assert u.min() >= -0.07 and u.max() <= 0.07 and u.std() == pytest.approx(0.07 / math.sqrt(3), rel=0.02)
    t = draw(TruncatedNormal(sigma=1.0, a=-1.0, b=0.5))
    assert t.min() >= -1.0 and t.max() <= 0.5
    assert draw("truncatedNormal").std() == pytest.approx(0.01, rel=0.05)
    fan_in, fan_out = 300, 200
    xu = draw(XavierUniform(gain=2))
    assert np.abs(xu).max() <= 2 * math.sqrt(6 / (fan_in + fan_out))
    assert xu.std() == pytest.approx(2 * math.sqrt(6 / (fan_in + fan_out)) / math.sqrt(3), rel=0.02)
    assert draw(XavierNormal()).std() == pytest.approx(math.sqrt(2 / (fan_in + fan_out)), rel=0.02)
    hu = draw(HeUniform())  # leaky_relu with slope 0: gain sqrt(2), bound sqrt(6 / fan_in)
    assert np.abs(hu).max() <= math.sqrt(6 / fan_in) and hu.std() == pytest.approx(math.sqrt(2 / fan_in), rel=0.02)
    assert np.abs(draw(HeUniform(math.sqrt(5)))).max() <= 1 / math.sqrt(fan_in)
    assert draw(HeNormal(mode="fan_out", nonlinearity="relu")).std() == pytest.approx(math.sqrt(2 / fan_out),
                                                                                     rel=0.02)
    assert draw(Constant(0.25)).tolist()[0][0] == 0.25 and not draw(Zero()).any() and draw(One()).all()
    assert draw(VarianceScaling(distribution="untruncated_normal")).std() == pytest.approx(
        math.sqrt(1 / fan_in), rel=0.02)
    assert np.abs(draw(VarianceScaling(2.0, "fan_avg", "uniform"))).max() <= math.sqrt(3 * 2 / 250)


def test_structured_initializers() -> None:
    np.testing.assert_array_equal(draw(Identity(), (3, 4)), np.eye(3, 4))
    q = draw(Orthogonal(gain=2.0), (6, 4))
    assert_close(q.T @ q, 4 * np.eye(4), rtol=0, scale_rtol=sum_rtol(6), what="6-term float32 dot products")
    d = draw(Dirac(groups=2), (4, 2, 3, 3))
    assert d[0, 0, 1, 1] == 1 and d[2, 0, 1, 1] == 1 and d.sum() == 4
    s = draw(Sparse(sparsity=0.5), (10, 3))
    assert ((s == 0).sum(axis=0) >= 5).all()
    with pytest.raises(ValueError, match="should be 2"):
        draw(Identity(), (2, 2, 2))


def test_seeding_and_custom_initializers() -> None:
    ms.set_seed(3)
    a = draw("normal", (4, 4))
    ms.set_seed(3)
    assert np.array_equal(a, draw("normal", (4, 4)))

    class Halves(Initializer):
        def _initialize(self, arr):
            arr.fill(0.5)

    assert initializer(Halves(), (2,)).asnumpy().tolist() == [0.5, 0.5]
    assert Parameter("ones", shape=(2, 3)).asnumpy().sum() == 6
    assert Tensor(shape=(2,), dtype=ms.float32, init=Halves()).asnumpy().tolist() == [0.5, 0.5]
    seeded = Normal()
    seeded.seed = 9
    assert np.array_equal(initializer(seeded, (3,)).asnumpy(), initializer(seeded, (3,)).asnumpy())


def test_layer_default_initializers() -> None:
    """MindSpore 2.x defaults: Dense / Conv weights HeUniform(sqrt(5)) (bound 1/sqrt(fan_in)), biases
    U(-1/sqrt(fan_in), 1/sqrt(fan_in)); Embedding N(0, 0.01^2); LSTM U(-1/sqrt(hidden), 1/sqrt(hidden));
    BatchNorm gamma 1, beta 0, moving mean 0, moving variance 1."""
    ms.set_seed(0)
    dense = nn.Dense(400, 300)
    bound = 1 / math.sqrt(400)
    w = dense.weight.asnumpy()
    assert np.abs(w).max() <= bound and w.std() == pytest.approx(bound / math.sqrt(3), rel=0.02)
    assert np.abs(dense.bias.asnumpy()).max() <= bound and np.abs(dense.bias.asnumpy()).max() > 0.9 * bound
    conv = nn.Conv2d(16, 32, 3, group=2, has_bias=True)
    fan_in = 8 * 9
    assert np.abs(conv.weight.asnumpy()).max() <= 1 / math.sqrt(fan_in)
    assert conv.weight.asnumpy().std() == pytest.approx(1 / math.sqrt(fan_in) / math.sqrt(3), rel=0.05)
    assert np.abs(conv.bias.asnumpy()).max() <= 1 / math.sqrt(fan_in)
    assert nn.Conv2d(3, 4, 3).bias is None
    emb = nn.Embedding(1000, 64).embedding_table.asnumpy()
    assert emb.std() == pytest.approx(0.01, rel=0.03)
    lstm = nn.LSTM(10, 25)
    for p in lstm.get_parameters():
        assert np.abs(p.asnumpy()).max() <= 1 / 5
    bn = nn.BatchNorm2d(3)
    assert bn.gamma.asnumpy().tolist() == [1, 1, 1] and not bn.beta.asnumpy().any()
    assert not bn.moving_mean.asnumpy().any() and bn.moving_variance.asnumpy().tolist() == [1, 1, 1]
    assert not bn.moving_mean.requires_grad and bn.gamma.requires_grad
    assert not nn.BatchNorm2d(3, affine=False).gamma.requires_grad
    assert nn.PReLU().w.asnumpy().tolist() == [0.25] and nn.PReLU().w.name == "a"
    assert nn.LayerNorm((3,)).gamma.asnumpy().tolist() == [1, 1, 1]
    custom = nn.Dense(2, 3, weight_init="ones", bias_init=Constant(0.5))
    assert custom.weight.asnumpy().all() and custom.bias.asnumpy().tolist() == [0.5, 0.5, 0.5]
    with pytest.raises(ValueError, match="weight init shape error"):
        nn.Dense(2, 3, weight_init=Tensor(np.ones((2, 3), np.float32)))
