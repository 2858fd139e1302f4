"""Wall time of ``python -c "import cellonnx"`` in fresh processes, with and without bytecode, and which
of SciPy's heavy subpackages the import loaded.

    python bench/import_time.py [--runs 5]

"Without bytecode": PYTHONDONTWRITEBYTECODE=1 and no cache, so every module of cellonnx is compiled from
source (as where that variable is set and the checkout has no __pycache__); "with bytecode": a bytecode
cache in a temporary folder (PYTHONPYCACHEPREFIX), warmed by one run first. The median of ``--runs``.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

PROBE = ("import sys, cellonnx; "
         "print(','.join(m for m in ('scipy.special._ufuncs', 'scipy.linalg._basic') if m in sys.modules))")


def timed(env: dict[str, str], runs: int) -> tuple[float, str]:
    times, loaded = [], ""
    for _ in range(runs):
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True,
                              check=True)
        times.append(time.perf_counter() - t)
        loaded = proc.stdout.strip()
    return statistics.median(times), loaded or "neither"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    dropped = ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")
    base = {k: v for k, v in os.environ.items() if k not in dropped}
    with tempfile.TemporaryDirectory() as cache:
        sides = {"without bytecode": dict(base, PYTHONDONTWRITEBYTECODE="1"),
                 "with bytecode": dict(base, PYTHONPYCACHEPREFIX=cache)}
        timed(sides["with bytecode"], 1)   # writes the cache
        print("| side | median s | SciPy subpackages loaded |\n|---|---|---|")
        for name, env in sides.items():
            seconds, loaded = timed(env, args.runs)
            print(f"| {name} | {seconds:.2f} | {loaded} |")


if __name__ == "__main__":
    main()
