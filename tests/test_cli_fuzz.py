"""The command line under random arguments: every subcommand (but the long-running serve, train and
quickstart) given random files (good, damaged, hostile, missing, folders) and random flags from its own parser
either succeeds or fails with one line on stderr and status 2 (never a traceback, never another status).
Bounded: 120 examples, each a command that refuses or finishes on small files."""
from __future__ import annotations

import argparse
import contextlib
import io
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cellonnx.cli import build_parser, main
from cellonnx.converters import write
from tests.converters.hostile import HOSTILE

LONG_RUNNING = {"serve", "train", "quickstart"}
COMMANDS = sorted(set(build_parser().commands) - LONG_RUNNING)
HOSTILE_CASES = ("nested_tuples", "bytearray_of_a_gigabyte", "shared_stream_npz", "empty_onnx",
                 "mindspore_file_named_pth", "npy_header_token_error")


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Paths the arguments are drawn from."""
    import cellonnx as ms
    from cellonnx import Tensor, nn

    root = tmp_path_factory.mktemp("cli-fuzz")
    net = nn.SequentialCell(nn.Dense(4, 3), nn.ReLU())
    ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name=str(root / "model"))
    ms.save_checkpoint(net, str(root / "model.ckpt"))
    write(root / "weights.safetensors", {"0.weight": np.ones((3, 4), np.float32)})
    np.save(root / "x.npy", np.ones((2, 4), np.float32))
    (root / "garbage.onnx").write_bytes(b"\x08\x07garbage" * 10)
    (root / "folder").mkdir()
    for case in HOSTILE_CASES:
        name, build, _ = HOSTILE[case]
        build(root / name)
    names = [p.name for p in root.iterdir()] + ["missing.onnx", "out/new.ckpt", "out.pth", "out.npz",
                                                "repo", "-", ""]
    return [str(root / n) for n in names]


def _flags(parser: argparse.ArgumentParser) -> list[str]:
    return [s for action in parser._actions for s in action.option_strings if s.startswith("--")
            and s not in ("--help",)]


VALUES = st.one_of(st.sampled_from(["0", "-1", "2", "1e300", "nan", "cpu", "GPU", "auto", "torch:mindspore",
                                    "x", "torch", "mxnet1", "999999"]), st.text(max_size=6))


@settings(max_examples=120, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_arguments_succeed_or_fail_in_one_line(pool: list[str], data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(COMMANDS))
    parser = build_parser().commands[command]
    argv = [command] + data.draw(st.lists(st.sampled_from(pool), min_size=0, max_size=3))
    for flag in data.draw(st.lists(st.sampled_from(_flags(parser) or ["--x"]), max_size=3, unique=True)):
        argv.append(flag)
        if data.draw(st.booleans()):
            argv.append(data.draw(st.one_of(VALUES, st.sampled_from(pool))))
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(Path(pool[0]).parent)  # relative paths (random text as an output file) land in the pool's folder
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    finally:
        os.chdir(here)
    text = err.getvalue()
    assert status in (0, 2), (argv, status, text)
    assert "Traceback" not in text, (argv, text)
    if status == 2:
        assert text.count("\n") == 1 and text.startswith(f"cellonnx {command}"), (argv, text)
