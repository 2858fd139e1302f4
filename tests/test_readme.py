"""The README's Quick start stays true: exactly two commands, and CI runs the second one verbatim."""
from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", section, re.S)]


def test_quick_start_has_two_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2, commands
    assert all("\n" not in c for c in commands), "each Quick start command is one line"
    assert "cellonnx quickstart" in commands[0]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert quick_start_commands()[1] in ci.splitlines()


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)


def tour_commands() -> list[str]:
    """Every command of the README's bash blocks after the Quick start (comments stripped)."""
    text = (ROOT / "README.md").read_text().split("## A tour", 1)[1]
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line and not line.startswith("#"):
                commands.append(line)
    return commands


def test_tour_code_runs(tmp_path, monkeypatch) -> None:
    """Every Python snippet of the tour runs as written, in order, in one session."""
    import cellonnx

    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    try:
        for block in python_blocks():
            exec(compile(block, "README.md", "exec"), scope)  # noqa: S102
    finally:
        cellonnx.set_context(mode=cellonnx.PYNATIVE_MODE)
    assert (tmp_path / "net.onnx").exists() and (tmp_path / "model.onnx").exists()
    assert scope["logits"].shape == (16, 10)


@pytest.fixture(scope="module")
def quickstart_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What the README's first command leaves: `out/` from `cellonnx quickstart --out out` (the quick mode)."""
    folder = tmp_path_factory.mktemp("readme")
    done = subprocess.run([sys.executable, "-m", "cellonnx", "quickstart", "--quick", "--out", "out"], cwd=folder,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return folder


def _cellonnx(command: str) -> list[str]:
    words = shlex.split(command)
    assert words[0] == "cellonnx", command
    return [sys.executable, "-m", "cellonnx", *words[1:]]


@pytest.mark.parametrize("command", [c for c in tour_commands() if not c.startswith("cellonnx serve ")])
def test_tour_commands_run_as_written(quickstart_folder: Path, command: str) -> None:
    done = subprocess.run(_cellonnx(command), cwd=quickstart_folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command}: {done.stderr}"
    assert "Traceback" not in done.stderr


def test_tour_serve_command_serves(quickstart_folder: Path) -> None:
    """`cellonnx serve ...` as written, but on a free port (it says which at start)."""
    (command,) = [c for c in tour_commands() if c.startswith("cellonnx serve ")]
    words = _cellonnx(re.sub(r"--port \d+", "--port 0", command))
    server = subprocess.Popen(words, cwd=quickstart_folder, stderr=subprocess.PIPE, text=True)
    try:
        address = None
        deadline = time.monotonic() + 120
        while address is None and time.monotonic() < deadline:
            line = server.stderr.readline()
            assert line, "the server stopped before listening"
            found = re.search(r"listening on http://(\S+)", line)
            address = found.group(1) if found else None
        assert address, "the server never said where it listens"
        ready = urllib.request.urlopen(f"http://{address}/v2/health/ready", timeout=30)
        assert ready.status == 200
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=60) == 0
