"""Running a script under ``mpirun`` from a test: the mpirun installed beside this Python (the MPICH wheel
puts it in the environment's bin/), else the one on PATH; tests are skipped, saying why, where there is
none."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import fcntl
except ImportError:   # Windows: each worker runs its own job
    fcntl = None

SCRIPTS = Path(__file__).resolve().parent / "scripts"


def find_mpirun() -> str | None:
    here = Path(sys.executable).parent / "mpirun"
    if here.exists():
        return str(here)
    return shutil.which("mpirun")


def have_mpi() -> bool:
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return False
    return find_mpirun() is not None


needs_mpirun = pytest.mark.skipif(not have_mpi(), reason="needs mpi4py and mpirun (pip install -e '.[dist]')")


def mpirun(script: str, *args: str, n: int = 2, timeout: float = 120,
           check: bool = True) -> subprocess.CompletedProcess:
    """Run tests/communication/scripts/<script> on ``n`` ranks; fails the test with the ranks' output when
    the job fails (with ``check``) or runs past ``timeout`` seconds."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONUNBUFFERED="1")
    env["PYTHONPATH"] = str(SCRIPTS.parents[2]) + os.pathsep + env.get("PYTHONPATH", "")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # Open MPI's mpirun refuses root (containers, CI images) unless told twice; MPICH ignores these
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cmd = [find_mpirun() or "mpirun", "-n", str(n), sys.executable, str(SCRIPTS / script), *args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{' '.join(cmd)} ran past {timeout} s:\n{exc.stdout}\n{exc.stderr}")
    if check and proc.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc


def mpirun_once(tmp_path_factory: pytest.TempPathFactory, name: str, script: str, *args: str, n: int = 2,
                timeout: float = 120) -> Path:
    """Run ``script`` on ``n`` ranks with a folder for its results as the first argument, once per test run:
    under pytest-xdist the first worker to need the results runs the job (holding a lock in the run's shared
    temporary folder), the others wait for it and read the same folder. Returns the folder."""
    if "PYTEST_XDIST_WORKER" not in os.environ or fcntl is None:
        out = tmp_path_factory.mktemp(name)
        mpirun(script, str(out), *args, n=n, timeout=timeout)
        return out
    shared = tmp_path_factory.getbasetemp().parent   # pytest-of-<user>/pytest-<run>: this run's workers'
    out = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / ".done").exists():    # a worker whose job failed left no mark: the next one reruns it
            out.mkdir(exist_ok=True)
            mpirun(script, str(out), *args, n=n, timeout=timeout)
            (out / ".done").touch()
    return out
