"""Progress bars: quiet off a terminal, on when forced; the converters report every byte of tensor data."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from cellonnx.converters import write
from cellonnx.converters.binio import on_bytes_written

from cellonnx import progress

TENSORS = {"fc.weight": np.arange(12, dtype=np.float32).reshape(3, 4), "fc.bias": np.ones(3, np.float64),
           "steps": np.array(7, np.int64)}
DATA_BYTES = sum(a.nbytes for a in TENSORS.values())


@pytest.mark.parametrize("suffix", ["ckpt", "safetensors", "npz", "params", "pth"])
def test_writers_report_the_tensor_bytes(suffix: str, tmp_path) -> None:
    written: list[int] = []
    with on_bytes_written(written.append):
        write(tmp_path / f"w.{suffix}", TENSORS)
    assert sum(written) == DATA_BYTES


def test_onnx_writer_reports_the_file(tmp_path) -> None:
    written: list[int] = []
    with on_bytes_written(written.append):
        write(tmp_path / "w.onnx", TENSORS)
    assert sum(written) == (tmp_path / "w.onnx").stat().st_size


def test_bars_follow_the_terminal_and_the_variable(monkeypatch) -> None:
    monkeypatch.delenv("CELLONNX_PROGRESS", raising=False)
    assert not progress.enabled()  # pytest's captured stderr is no terminal
    assert list(progress.track(range(3), "quiet")) == [0, 1, 2]
    monkeypatch.setenv("CELLONNX_PROGRESS", "1")
    assert progress.enabled()
    monkeypatch.setenv("CELLONNX_PROGRESS", "0")
    assert not progress.enabled()


def test_convert_shows_a_bar_only_when_asked(tmp_path) -> None:
    write(tmp_path / "a.safetensors", TENSORS)
    command = [sys.executable, "-m", "cellonnx", "convert", str(tmp_path / "a.safetensors"),
               str(tmp_path / "b.ckpt")]
    quiet = subprocess.run(command, capture_output=True, text=True, timeout=120,
                           env={**os.environ, "CELLONNX_PROGRESS": ""})
    assert quiet.returncode == 0 and quiet.stderr == ""
    shown = subprocess.run(command, capture_output=True, text=True, timeout=120,
                           env={**os.environ, "CELLONNX_PROGRESS": "1"})
    assert shown.returncode == 0 and "writing b.ckpt" in shown.stderr and "B/s" in shown.stderr
    assert "wrote" in shown.stdout
