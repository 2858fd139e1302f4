"""What the bench scripts do before NumPy is imported (import this module first).

On import: PYTHONPATH entries are not site directories, so their .pth files are read here, which puts the
editable install's import hook (mapping cellonnx.converters and cellonnx.models to converters/ and models/)
in place. ``threads_from_argv`` reads ``--threads`` from the command line and exports it as the OpenMP /
OpenBLAS / MKL thread counts, which those libraries read once, when they load.
"""
from __future__ import annotations

import argparse
import os
import site
import sys

for _entry in list(sys.path):
    if _entry.rstrip("/").endswith("site-packages"):
        site.addsitedir(_entry)


def threads_from_argv(default: int = 2) -> tuple[argparse.ArgumentParser, int]:
    """A parser holding ``--threads`` (for the script's own parser to take as a parent) and its value."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--threads", type=int, default=default)
    threads = parser.parse_known_args()[0].threads
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    return parser, threads
