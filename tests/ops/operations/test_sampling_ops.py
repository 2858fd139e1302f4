"""TruncatedNormal, ParameterizedTruncatedNormal and NonDeterministicInts (MindSpore runs the first two on
Ascend only and has no CPU kernel to write fixtures with): ranges, dtypes, seeding and the truncated
normal's moments (mean 0, standard deviation 0.8796 within [-2, 2])."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

import cellonnx as ms
from cellonnx import Tensor, ops


def test_truncated_normal_moments_and_seeds() -> None:
    x = ops.TruncatedNormal(seed=5)(Tensor([20000], ms.int32))
    assert x.dtype == ms.float32 and x.shape == (20000,)
    a = x.asnumpy().astype(np.float64)
    assert a.min() >= -2.0 and a.max() <= 2.0
    want = scipy.stats.truncnorm(-2.0, 2.0)
    assert abs(a.mean() - want.mean()) < 4 * want.std() / np.sqrt(a.size)
    assert abs(a.std() - want.std()) < 0.02
    assert scipy.stats.kstest(a, want.cdf).pvalue > 1e-3
    again = ops.TruncatedNormal(seed=5)
    ms.set_seed(11)
    first = again((3, 4)).asnumpy()
    ms.set_seed(11)
    np.testing.assert_array_equal(ops.TruncatedNormal(seed=5)((3, 4)).asnumpy(), first)
    assert ops.TruncatedNormal(ms.float16)((2, 2)).dtype == ms.float16


def test_parameterized_truncated_normal_rows() -> None:
    out = ops.ParameterizedTruncatedNormal(seed=1)(
        Tensor([2, 5000], ms.int32), Tensor([0.0, 5.0]), Tensor([1.0, 2.0]), Tensor([-1.0, 4.0]),
        Tensor([1.0, 10.0])).asnumpy().astype(np.float64)
    assert out.shape == (2, 5000)
    for row, (m, s, lo, hi) in zip(out, [(0.0, 1.0, -1.0, 1.0), (5.0, 2.0, 4.0, 10.0)]):
        assert row.min() >= lo and row.max() <= hi
        want = scipy.stats.truncnorm((lo - m) / s, (hi - m) / s, loc=m, scale=s)
        assert scipy.stats.kstest(row, want.cdf).pvalue > 1e-3
    with pytest.raises(ValueError, match="stdevs must be positive"):
        ops.ParameterizedTruncatedNormal()((1, 2), Tensor([0.0]), Tensor([0.0]), Tensor([-1.0]),
                                           Tensor([1.0]))


def test_non_deterministic_ints() -> None:
    out = ops.NonDeterministicInts()((3, 4))
    assert out.dtype == ms.int64 and out.shape == (3, 4)
    assert ops.NonDeterministicInts(ms.int32)(Tensor([5], ms.int32)).dtype == ms.int32
    with pytest.raises(TypeError, match="int32 or int64"):
        ops.NonDeterministicInts(ms.float32)((2,))
