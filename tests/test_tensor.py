"""Tensor and Parameter: MindSpore's construction rules, dtype table, repr, no silent float64."""
from __future__ import annotations

import pickle

import ml_dtypes
import numpy as np
import pytest

import cellonnx as ms
from cellonnx import dtypes
from cellonnx.tensor import DeferredInitError, Parameter, Tensor


def test_python_values_follow_mindspore_dtype_rules() -> None:
    assert Tensor(1.5).dtype is ms.float32
    assert Tensor([1.0, 2.0]).dtype is ms.float32
    assert Tensor(3).dtype is ms.int64
    assert Tensor([True, False]).dtype is ms.bool_
    assert Tensor(np.zeros(2, np.float64)).dtype is ms.float64  # NumPy arrays keep their dtype
    assert Tensor([1, 2], ms.float16).dtype is ms.float16


def test_scalars_never_promote_float32_to_float64() -> None:
    x = Tensor(np.ones(3, np.float32))
    for y in (x + 1.5, 2.0 * x, x / 3, x ** 2.0, x - np.float64(1.0), ms.ops.maximum(x, 0.5)):
        assert y.dtype is ms.float32
    assert (Tensor(np.array([1, 2])) + 0.5).dtype is ms.float32  # int tensor with a float scalar
    assert (Tensor(np.array([1, 2], np.int32)) * 3).dtype is ms.int32


def test_signature_tensor_describes_an_input() -> None:
    sig = Tensor(shape=(None, 3), dtype=ms.float32)
    assert sig.is_signature and sig.shape == (-1, 3)  # MindSpore's reading of a dynamic dim
    assert repr(sig) == "Tensor(shape=[-1, 3], dtype=Float32, value=\n)"


def test_repr_matches_mindspore() -> None:
    assert repr(Tensor(np.float32(2.0))) == "Tensor(shape=[], dtype=Float32, value= 2)"
    p = Parameter(Tensor(np.zeros((120, 400), np.float32)), name="fc1.weight")
    assert repr(p) == "Parameter (name=fc1.weight, shape=(120, 400), dtype=Float32, requires_grad=True)"


def test_dtype_table_maps_every_framework() -> None:
    for d in dtypes.ALL:
        assert dtypes.dtype(d.np_dtype) is d
        assert dtypes.from_onnx(d.onnx) is d
        assert dtypes.dtype(d.name) is d
        if d.safetensors:
            assert dtypes.dtype(d.safetensors) is d
    assert dtypes.bfloat16.np_dtype == np.dtype(ml_dtypes.bfloat16)
    assert dtypes.from_mxnet_flag(12) is ms.bfloat16
    with pytest.raises(TypeError, match="unknown dtype name"):
        dtypes.dtype("float128")


def test_tensor_methods_and_indexing_basics() -> None:
    x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert x.reshape(4, 3).shape == (4, 3) and x.view((2, 6)).shape == (2, 6)
    assert x.transpose().shape == (4, 3) and x.T.shape == (4, 3)
    assert x.sum().item() == 66.0 and x.mean(axis=0).shape == (4,)
    assert x.max().item() == 11 and x.argmax(axis=1).asnumpy().tolist() == [3, 3, 3]
    assert x.astype(ms.int32).dtype is ms.int32
    assert x.flatten().shape == (12,)
    assert x.expand_dims(0).shape == (1, 3, 4) and x.expand_dims(0).squeeze(0).shape == (3, 4)
    assert float(x.exp().log().sum()) == pytest.approx(66.0, rel=1e-5)


def test_parameter_set_data_checks_shape_and_bumps_version() -> None:
    p = Parameter(Tensor(np.zeros(3, np.float32)), name="w")
    v = p.version
    p.set_data(Tensor(np.ones(3, np.float64)))
    assert p.dtype is ms.float32 and p.version == v + 1
    with pytest.raises(ValueError, match=r"Parameter w: set_data got shape \(4,\), expected \(3,\)"):
        p.set_data(Tensor(np.ones(4, np.float32)))


def test_deferred_parameter_gets_its_shape_at_first_use() -> None:
    p = Parameter("ones", shape=(0, 3), name="w")
    assert p.is_deferred
    with pytest.raises(DeferredInitError, match="deferred shape"):
        p._check_ready()
    p.finish_deferred((2, 3))
    np.testing.assert_array_equal(p.asnumpy(), np.ones((2, 3)))


def test_integer_parameters_keep_requires_grad() -> None:
    # as MindSpore 2.10 (tests/toplevel/test_probes.py compares with its printed output)
    assert Parameter(Tensor(np.zeros(2, np.int64)), name="steps").requires_grad
    assert not Parameter(Tensor(np.zeros(2, np.int64)), name="steps", requires_grad=False).requires_grad


def test_pickle_round_trip() -> None:
    p = Parameter(Tensor(np.arange(3, dtype=np.float32)), name="w")
    q = pickle.loads(pickle.dumps(p))
    assert q.name == "w" and np.array_equal(q.asnumpy(), p.asnumpy())


def test_array_repr_matches_mindspore() -> None:
    # strings printed by MindSpore 2.10 for the same tensors
    assert repr(Tensor([1.5, 2.25])) == "Tensor(shape=[2], dtype=Float32, value= [ 1.50000000e+00,  2.25000000e+00])"
    assert repr(Tensor(np.array([1, 2, 3]))) == "Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])"
    assert repr(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))) == (
        "Tensor(shape=[2, 3], dtype=Float32, value=\n"
        "[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00],\n"
        " [ 3.00000000e+00,  4.00000000e+00,  5.00000000e+00]])")


def test_all_and_any_methods_as_mindspore_prints_them() -> None:
    # MindSpore 2.10: False [False  True] True [[False] [ True]]
    t = Tensor(np.array([[True, False], [True, True]]))
    assert not bool(t.all()) and bool(t.any())
    np.testing.assert_array_equal(t.all(axis=1).asnumpy(), [False, True])
    np.testing.assert_array_equal(t.all(1, True).asnumpy(), [[False], [True]])
