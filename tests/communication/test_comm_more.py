"""ops.all_to_all_v_c, ops._AllSwap (forward and gradient) and mindspore.parameter_broadcast on 2 and 3 ranks
under mpirun, against NumPy (tests/communication/scripts/comm_more.py)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.communication._launch import mpirun, needs_mpirun

pytestmark = needs_mpirun


@pytest.mark.parametrize("ranks", [2, 3])
def test_comm_more_against_numpy(ranks: int, tmp_path) -> None:
    mpirun("comm_more.py", str(tmp_path), n=ranks)
    for rank in range(ranks):
        saved = dict(np.load(tmp_path / f"rank{rank}.npz"))
        names = sorted(k[4:] for k in saved if k.startswith("got/"))
        assert len(names) >= (10 if ranks == 2 else 8)
        for name in names:
            got, want = saved[f"got/{name}"], saved[f"want/{name}"]
            assert got.shape == want.shape, f"rank {rank} {name}: shape {got.shape}, expected {want.shape}"
            np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=f"rank {rank}: {name}")
