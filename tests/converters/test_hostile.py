"""Files built to crash, hang or exhaust a reader (tests/converters/hostile.py): each is refused with a
CheckpointError that says why, quickly, allocating a bounded amount of memory."""
from __future__ import annotations

import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from cellonnx.converters import read
from cellonnx.converters.errors import CheckpointError

from tests.converters.hostile import HOSTILE

PEAK = 32 << 20   # what any of these may allocate while being refused
CPU_SECONDS = 20  # this process's CPU time, not wall time (a busy machine slows the clock, not the work):
                  # the slowest takes about one second


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_refused_quickly_with_bounded_memory(tmp_path: Path, case: str) -> None:
    name, build, words = HOSTILE[case]
    path = tmp_path / name
    build(path)
    start = time.process_time()
    tracemalloc.start()
    try:
        with pytest.raises(CheckpointError) as caught:
            read(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert words in str(caught.value)
    assert str(path) in str(caught.value)
    assert peak < PEAK, f"{case}: {peak:,} bytes allocated to refuse a {path.stat().st_size:,}-byte file"
    assert time.process_time() - start < CPU_SECONDS


@pytest.mark.parametrize("case", ["nested_tuples", "bytearray_of_a_gigabyte", "mindspore_file_named_pth"])
def test_the_command_line_says_why_without_a_traceback(tmp_path: Path, case: str) -> None:
    name, build, words = HOSTILE[case]
    path = tmp_path / name
    build(path)
    done = subprocess.run([sys.executable, "-m", "cellonnx", "inspect", str(path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert words in done.stderr
    assert "Traceback" not in done.stderr
