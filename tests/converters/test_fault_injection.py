"""Every writer killed at every step: the destination holds the old content or the new, never a mix, and the
next write leaves no temporary file behind.

A forked child runs the writer under a profile hook that counts the calls which touch the file system (write,
flush, fsync, close, replace, rename, unlink, chmod, copy) and ends the process with os._exit at the N-th, as a
kill -9 would; N runs over every such call the writer makes.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from cellonnx.converters import read, write
from cellonnx.converters.onnx_format import data_files

import cellonnx as ms
from cellonnx import Tensor, nn

_IO_CALLS = {"write", "writelines", "flush", "fsync", "close", "replace", "rename", "unlink", "chmod",
             "copyfile", "sendfile", "serialize_file", "truncate", "mkstemp"}


def _run_killed_at(n: int, action: Callable[[], None]) -> bool:
    """Run ``action`` in a child killed at its n-th file-system call; True when it finished first."""
    pid = os.fork()
    if pid == 0:  # the child
        count = 0

        def hook(frame: object, event: str, arg: object) -> None:
            nonlocal count
            if event == "c_call" and getattr(arg, "__name__", "") in _IO_CALLS:
                count += 1
                if count >= n:
                    os._exit(137)

        sys.setprofile(hook)
        try:
            action()
        finally:
            sys.setprofile(None)
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def _tensors(version: int) -> dict[str, np.ndarray]:
    """Versions differ in names, order and sizes too, so that the old index over new data shows."""
    if version == 1:
        return {"w": np.full((64, 32), 1.0, np.float32), "b": np.full(32, 1.0, np.float32)}
    return {"b": np.full(48, 2.0, np.float32), "extra": np.full(300, 2.0, np.float32),
            "w": np.full((64, 32), 2.0, np.float32)}


def _checkpoint_writer(suffix: str, **options: object) -> tuple[Callable[[Path, int], None], Callable]:
    def save(path: Path, version: int) -> None:
        write(path, _tensors(version), **options)

    def state(path: Path) -> float:
        tensors, _ = read(path)
        values = {float(v) for a in tensors.values() for v in np.unique(np.asarray(a))}
        assert len(values) == 1, f"{path.name} mixes versions {values}"
        version = values.pop()
        want = _tensors(int(version))
        assert {k: a.shape for k, a in tensors.items()} == {k: a.shape for k, a in want.items()}, \
            f"{path.name}: the tensors of one version with the values of another"
        return version

    return save, state


class _Net(nn.Cell):
    def __init__(self, version: int) -> None:
        super().__init__()
        self.fc = nn.Dense(32, 64, weight_init="ones", bias_init="zeros")
        self.fc.weight.set_data(Tensor(np.full((64, 32), float(version), np.float32)))

    def construct(self, x: Tensor) -> Tensor:
        return self.fc(x)


def _export_writer(external: bool) -> tuple[Callable[[Path, int], None], Callable]:
    def save(path: Path, version: int) -> None:
        ms.export(_Net(version), Tensor(np.ones((1, 32), np.float32)), file_name=str(path.with_suffix("")),
                  external_data=external)

    def state(path: Path) -> float:
        import onnxruntime as ort
        sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        (out,) = sess.run(None, {"x": np.ones((1, 32), np.float32)})
        return float(out[0, 0]) / 32

    return save, state


WRITERS = {
    **{name: _checkpoint_writer(suffix) for name, suffix in
       [("onnx", ".onnx"), ("mindspore", ".ckpt"), ("mxnet", ".params"), ("torch", ".pt"),
        ("safetensors", ".safetensors"), ("npz", ".npz")]},
    "onnx_external_data": _checkpoint_writer(".onnx", external_data=True),
    "export": _export_writer(False),
    "export_external_data": _export_writer(True),
}
SUFFIX = {"onnx": ".onnx", "mindspore": ".ckpt", "mxnet": ".params", "torch": ".pt", "safetensors": ".safetensors",
          "npz": ".npz", "onnx_external_data": ".onnx", "export": ".onnx", "export_external_data": ".onnx"}


def _leftovers(folder: Path, path: Path) -> list[str]:
    keep = {path.name} | ({f.name for f in data_files(path)} if path.suffix == ".onnx" else set())
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_killed_anywhere_the_file_is_old_or_new(tmp_path: Path, writer: str) -> None:
    save, state = WRITERS[writer]
    path = tmp_path / f"model{SUFFIX[writer]}"
    save(path, 1)
    assert state(path) == 1
    n, finished = 1, False
    while not finished:
        finished = _run_killed_at(n, lambda: save(path, 2))
        assert state(path) in (1, 2), f"killed at call {n}"
        if state(path) == 2:
            save(path, 1)  # back to the old content for the next kill point
        n += 1
        assert n < 400, "the writer makes more file-system calls than expected"
    assert n > 3
    save(path, 2)  # the next run cleans what the killed ones left
    assert state(path) == 2
    assert _leftovers(tmp_path, path) == []
