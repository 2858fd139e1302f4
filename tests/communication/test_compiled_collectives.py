"""AllGather, ReduceScatter and Broadcast (and Reduce, AlltoAll) inside compiled training steps, 2 ranks under
mpirun: the step cut at each collective (its gradient's collective too), run between the graphs; against the
same code run eagerly and against NumPy on each rank."""
from __future__ import annotations

import numpy as np
import pytest

from tests.communication._launch import mpirun_once, needs_mpirun
from tests.communication.scripts import compiled_collectives as script
from tests.tolerance import assert_close

pytestmark = needs_mpirun

SIZE = 2


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> list[dict]:
    out = mpirun_once(tmp_path_factory, "compiled_collectives", "compiled_collectives.py", n=SIZE,
                      timeout=180)
    return [dict(np.load(out / f"rank{r}.npz")) for r in range(SIZE)]


def _numpy_chain(k: int) -> list[dict[str, np.ndarray]]:
    """The jit function of the script in float64 NumPy, for every rank: its values and d loss / d w."""
    v = [{n: a.astype(np.float64) for n, a in script.values(r, SIZE).items()} for r in range(SIZE)]
    a = [vr["x"] * (k + 1) * vr["w"] for vr in v]
    y = np.concatenate(a)                                        # AllGather
    csum = sum(vr["c"] for vr in v)
    z = [y[2 * r:2 * r + 2] * csum[2 * r:2 * r + 2] for r in range(SIZE)]   # ReduceScatter(y * c)
    b = z[SIZE - 1]                                              # Broadcast from the last rank
    gz = [2 * b * vr["d"] for vr in v]                           # Broadcast passes the gradient through
    g_all = np.concatenate(gz)                                   # ReduceScatter's gradient: AllGather
    ga = [g_all[2 * r:2 * r + 2] * csum[2 * r:2 * r + 2] for r in range(SIZE)]  # AllGather's: ReduceScatter
    return [{"loss": np.array([(b * b * v[r]["d"]).sum()]), "y": y, "z": z[r], "b": b,
             "gw": v[r]["x"] * (k + 1) * ga[r]} for r in range(SIZE)]


@pytest.mark.parametrize("k", range(script.STEPS))
def test_compiled_chain_equals_eager_and_numpy(results, k) -> None:
    want = _numpy_chain(k)
    for r, saved in enumerate(results):
        for name in ("loss", "y", "z", "b", "gw"):
            graph, eager = saved[f"chain/graph/{k}/{name}"], saved[f"chain/eager/{k}/{name}"]
            assert_close(graph, eager, rtol=1e-5, scale_rtol=1e-6, what=f"rank {r} step {k} {name}: graph")
            assert_close(graph.reshape(want[r][name].shape), want[r][name], rtol=1e-5, scale_rtol=1e-6,
                         what=f"rank {r} step {k} {name}: numpy")


def test_training_through_the_collectives_compiled_equals_eager(results) -> None:
    for r, saved in enumerate(results):
        labels = saved["trained/graph/boundaries"].tolist()
        # the forward's five collectives, then their gradients' in reverse: Reduce's is a Broadcast,
        # AlltoAll's an AlltoAll, Broadcast's passes through, ReduceScatter's an AllGather, AllGather's a
        # ReduceScatter
        assert labels == ["AllGather", "ReduceScatter", "Broadcast", "AlltoAll", "Reduce",
                          "Broadcast", "AlltoAll", "AllGather", "ReduceScatter"]
        assert_close(saved["trained/graph/losses"], saved["trained/eager/losses"], rtol=1e-5, scale_rtol=1e-6,
                     what=f"rank {r} losses")
        for key in saved:
            if key.startswith("trained/eager/end/"):
                assert_close(saved[key.replace("eager", "graph")], saved[key], rtol=1e-5, scale_rtol=1e-6,
                             what=f"rank {r} {key}")
