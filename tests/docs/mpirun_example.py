"""``mpirun(script, n)`` of the docstring examples that need several processes (the point-to-point pairs:
a Send waits for its Receive, which no single process can give): the script is saved as a file in the
example's scratch folder and run as ``mpirun -n N python <file>``, as a user runs it; what the ranks print
is printed. A non-zero exit raises, with the ranks' output.

A pair's two docstrings (Send and Receive, send_object_list and recv_object_list) show the same script; it
runs once per test process and its output serves both (a job of two ranks costs each rank's
``import cellonnx``).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_RUN: dict[tuple[str, int], str] = {}


def mpirun(script: str, n: int = 2, timeout: float = 120) -> None:
    """Run ``script`` on ``n`` ranks under mpirun and print what the ranks printed.

    Raises:
        RuntimeError: the job exited with an error or ran past ``timeout`` seconds; or there is no mpirun.
    """
    from tests.communication._launch import find_mpirun, have_mpi

    if not have_mpi():
        raise RuntimeError("this example runs under mpirun: it needs mpi4py and mpirun "
                           "(pip install -e '.[dist]')")
    key = (script, n)
    if key not in _RUN:
        path = Path("example_mpirun.py").resolve()
        path.write_text(script.lstrip("\n"))
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONUNBUFFERED="1",
                   PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
        for name in ("RANK_ID", "RANK_SIZE", "DEVICE_ID"):  # what an example's init() in this process set
            env.pop(name, None)
        cmd = [find_mpirun() or "mpirun", "-n", str(n), sys.executable, str(path)]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired as exc:
            raise RuntimeError(f"{' '.join(cmd)} ran past {timeout} s:\n{exc.stdout}\n{exc.stderr}") from None
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
        _RUN[key] = done.stdout
    print(_RUN[key], end="")
