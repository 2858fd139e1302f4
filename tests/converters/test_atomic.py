"""An interrupted save leaves the final name untouched and no temp file behind."""
from __future__ import annotations

import builtins
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import safetensors
from cellonnx.converters import FORMATS, atomic, read, write
from cellonnx.converters.atomic import atomic_write

from tests.converters.helpers import assert_same

EXT = {name: fmt.extensions[0] for name, fmt in FORMATS.items()}


def test_exception_inside_block(tmp_path: Path) -> None:
    target = tmp_path / "x.bin"
    with pytest.raises(RuntimeError), atomic_write(target) as f:
        f.write(b"partial")
        raise RuntimeError("disk full")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


class _FailingFile:
    """A file that accepts 16 bytes, then fails as a full disk would."""

    def __init__(self, f: Any) -> None:
        self._f, self._left = f, 16

    def write(self, data: Any) -> int:
        data = bytes(memoryview(data).cast("B"))
        if len(data) > self._left:
            self._f.write(data[: self._left])
            raise OSError("simulated failure mid-write: no space left on device")
        self._left -= len(data)
        return int(self._f.write(data))

    def writelines(self, chunks: Any) -> None:
        for chunk in chunks:
            self.write(chunk)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._f, name)

    def __enter__(self) -> _FailingFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._f.close()


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_failure_mid_write_keeps_old_file(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / f"w{EXT[name]}"
    old = {"old": np.arange(4, dtype=np.float32)}
    write(target, old)
    before = target.read_bytes()

    monkeypatch.setattr(atomic, "open", lambda *a, **k: _FailingFile(builtins.open(*a, **k)), raising=False)

    def partial_serialize(specs: Any, filename: Any, metadata: Any = None) -> None:
        Path(filename).write_bytes(b"\x10\x00partial")
        raise OSError("simulated failure mid-write: no space left on device")

    monkeypatch.setattr(safetensors, "serialize_file", partial_serialize)
    with pytest.raises(OSError, match="simulated"):
        write(target, {"new": np.ones((64, 64), np.float32)})
    monkeypatch.undo()
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]
    assert_same(read(target)[0], old)


def test_unwritable_target_is_named(tmp_path: Path) -> None:
    """The error names the file asked for and why, not the temp file beside it."""
    with pytest.raises(FileNotFoundError, match=r"cannot write .*missing[/\\]w\.npz: folder .*missing "):
        write(tmp_path / "missing" / "w.npz", {"a": np.ones(2, np.float32)})
    (tmp_path / "d.npz").mkdir()
    with pytest.raises(OSError, match=r"cannot write .*d\.npz: it is a directory"):
        write(tmp_path / "d.npz", {"a": np.ones(2, np.float32)})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.npz"]


def test_files_get_the_mode_open_would_give_them(tmp_path: Path) -> None:
    with open(tmp_path / "plain", "wb"):
        pass
    want = stat.S_IMODE((tmp_path / "plain").stat().st_mode)
    for name in ("w.safetensors", "w.ckpt", "w.npz", "w.pt", "w.params", "w.onnx"):
        write(tmp_path / name, {"w": np.ones(3, np.float32)})
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == want, name


def test_a_killed_writers_temporary_file_goes_with_the_next_write(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    stale = tmp_path / f".w.npz.{int(dead.stdout)}.abc123.tmp"
    stale.write_bytes(b"half a file")
    alive = tmp_path / f".w.npz.{os.getpid()}.def456.tmp"  # a writer of this process, still at work
    alive.write_bytes(b"in progress")
    write(tmp_path / "w.npz", {"w": np.ones(3, np.float32)})
    assert not stale.exists()
    assert alive.exists()
