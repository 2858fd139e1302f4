"""Every test starts from cellonnx's default context: a test (or a reference page's example) that switches to
GRAPH_MODE or changes another context key must not change how later tests in the same worker run.

Under pytest-xdist each worker runs onnxruntime with its share of the cores (``intra_op_num_threads``, the
context's default for every Session a test does not give threads): onnxruntime's own default, one spinning
thread per core in every worker, had the workers fight over the same cores (a quarter more CPU time for the
same tests with two workers on two cores).

The same share goes to their BLAS threads (OpenBLAS, OpenMP). Where PYTHONDONTWRITEBYTECODE is set, the
Python processes the tests start keep their bytecode in a cache of the temporary folder (below), not in the
checkout."""
from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator

import pytest

if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
    # every Python process the tests start (xdist workers, command-line runs, mpirun ranks) would compile
    # cellonnx from source again (about 0.9 s each; half the time of the subprocess-heavy tests): they share
    # a bytecode cache in the temporary folder instead, and the checkout still gets none
    os.environ.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "cellonnx-test-pycache"))
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False


def _worker_threads() -> int:
    """The cores per xdist worker (0, onnxruntime's choice, outside xdist)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    return max(1, (os.cpu_count() or 1) // workers) if workers else 0


def pytest_configure(config: pytest.Config) -> None:
    """In the controller of an xdist run, before the workers start: their BLAS threads (read once, when
    NumPy loads) are their share of the cores too, unless the environment sets them. Two OpenBLAS threads
    in each of two workers on two cores took 134 s for tests/ports where one each took 89 s."""
    workers = getattr(config.option, "numprocesses", None)
    if isinstance(workers, int) and workers > 0 and "PYTEST_XDIST_WORKER" not in os.environ:
        share = str(max(1, (os.cpu_count() or 1) // workers))
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ.setdefault(name, share)


@pytest.fixture(scope="session", autouse=True)
def _onnxruntime_threads() -> None:
    from cellonnx import context

    if not context._extra["intra_op_num_threads"]:
        context._extra["intra_op_num_threads"] = _worker_threads()


@pytest.fixture(autouse=True)
def _restore_context() -> Iterator[None]:
    from cellonnx import context

    saved = (context.mode, context.device_target, context.device_id, dict(context._extra))
    yield
    context.mode, context.device_target, context.device_id = saved[:3]
    context._extra.clear()
    context._extra.update(saved[3])
