"""nn.SyncBatchNorm without a distributed run: plain batch normalization, and process groups refused with the
reason (they need cellonnx.communication.init() under mpirun)."""
from __future__ import annotations

import numpy as np
import pytest

from cellonnx import Tensor, nn
from tests.tolerance import assert_close


@pytest.mark.parametrize("groups", [None, 0])
def test_without_init_it_is_batch_norm(groups) -> None:
    x = Tensor(np.random.default_rng(0).standard_normal((4, 3, 2, 2)).astype(np.float32))
    sync, plain = nn.SyncBatchNorm(3, process_groups=groups), nn.BatchNorm2d(3)
    assert not sync.is_global
    assert_close(sync(x).asnumpy(), plain(x).asnumpy(), rtol=1e-6, scale_rtol=1e-6)
    assert_close(sync.moving_variance.asnumpy(), plain.moving_variance.asnumpy(), rtol=1e-6, scale_rtol=1e-6)


def test_process_groups_need_the_communication_started() -> None:
    with pytest.raises(RuntimeError, match=r"communication\.init\(\)"):
        nn.SyncBatchNorm(3, process_groups=[[0, 1]])
    with pytest.raises(TypeError, match="must be a list"):
        nn.SyncBatchNorm(3, process_groups=(0, 1))
