"""Tensor.untyped_storage() / UntypedStorage as MindSpore 2.10 behaves (byte sizes, copy_, resize_, errors;
facts read from MindSpore 2.10 on CPU)."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx as ms


def test_sizes_and_identity():
    t = ms.Tensor(np.arange(6, dtype=np.float32))
    s = t.untyped_storage()
    assert isinstance(s, ms.UntypedStorage)
    assert (s.nbytes(), s.size(), s.element_size(), s.is_shared(), s.device) == (24, 24, 1, False, "CPU")
    assert s.dtype == ms.float32 and s.data_ptr() != 0
    assert t.storage().data_ptr() == s.data_ptr()
    s2 = ms.Tensor(np.arange(4, dtype=np.int16)).untyped_storage()
    assert (s2.dtype, s2.element_size(), s2.nbytes()) == (ms.int16, 1, 8)


def test_copy_writes_the_tensor():
    t = ms.Tensor(np.arange(6, dtype=np.float32))
    t.untyped_storage().copy_(ms.Tensor(np.ones(6, np.float32)).untyped_storage())
    np.testing.assert_array_equal(t.asnumpy(), np.ones(6, np.float32))
    with pytest.raises(RuntimeError, match="Size does not match, self was 8 bytes but src was 32 bytes"):
        ms.Tensor(np.arange(4, dtype=np.int16)).untyped_storage().copy_(
            ms.Tensor(np.ones(8, np.float32)).untyped_storage())


def test_resize_offload_and_restore():
    t = ms.Tensor(np.arange(6, dtype=np.float32))
    keep = ms.Tensor(t.asnumpy().copy())
    s = t.untyped_storage()
    s.resize_(0)
    assert s.nbytes() == 0
    s.resize_(24)
    np.testing.assert_array_equal(t.asnumpy(), np.zeros(6, np.float32))  # MindSpore: zeroed
    s.copy_(keep.untyped_storage())
    np.testing.assert_array_equal(t.asnumpy(), np.arange(6, dtype=np.float32))
    s.resize_(48)
    assert s.nbytes() == 48


def test_not_constructible():
    with pytest.raises(TypeError, match="cannot create 'UntypedStorage' instances"):
        ms.UntypedStorage(8)
