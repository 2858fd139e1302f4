"""The README's Quick start stays true: exactly two commands, and CI runs the second one verbatim; the
README's tour and docs/serving.md run as written."""
from __future__ import annotations

import json
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from tests.serve.helpers import MLP_RTOL
from tests.tolerance import assert_close

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
    assert list((tmp_path / "summary_dir").glob("*.out.tfevents.*"))
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


def test_tour_commands_run_as_written(quickstart_folder: Path) -> None:
    """In order, in one test: a command may read what an earlier one wrote (the converted .pth), and
    parametrized cases could land on different test workers, each with its own quickstart folder."""
    for command in (c for c in tour_commands() if not c.startswith("cellonnx serve ")):
        done = subprocess.run(_cellonnx(command), cwd=quickstart_folder, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, f"{command}: {done.stderr}"
        assert "Traceback" not in done.stderr, f"{command}: {done.stderr}"


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


# ---------------------------------------------------------------- docs/serving.md, run as written
SERVING = ROOT / "docs" / "serving.md"


def serving_blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", SERVING.read_text(), re.S)


def _lines(block: str) -> list[str]:
    """A bash block's commands, comments stripped and continued lines joined."""
    text = re.sub(r"\\\n\s*", "", block)
    return [c for c in (line.split("  #", 1)[0].strip() for line in text.splitlines())
            if c and not c.startswith("#")]


def _on_path() -> dict[str, str]:
    """This interpreter's `python` and `cellonnx` first on PATH, as in the activated environment the docs
    assume."""
    import os

    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


@pytest.fixture(scope="module")
def serving_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files docs/serving.md names: mlp.onnx (x [N, 4] -> y [N, 3]), a.onnx and b.onnx."""
    from tests.serve.helpers import mlp_model

    folder = tmp_path_factory.mktemp("serving")
    for name, seed in (("mlp", 0), ("a", 1), ("b", 2)):
        mlp_model(folder / f"{name}.onnx", seed=seed)
    return folder


class _Server:
    """`cellonnx serve ...` as written but on free ports (it says which at start); SIGTERM at exit."""

    def __init__(self, command: str, folder: Path) -> None:
        words = _cellonnx(command)
        if "--port" in words:
            at = words.index("--port")
            words = [*words[:at], *words[at + 2:]]
        self.grpc = "--grpc-port" in words
        if self.grpc:
            words[words.index("--grpc-port") + 1] = "0"
        self.process = subprocess.Popen([*words, "--port", "0"], cwd=folder, stderr=subprocess.PIPE,
                                        text=True)
        self.address: str | None = None
        self.grpc_address: str | None = None
        self.stderr: list[str] = []

    def wait_listening(self) -> str | None:
        """The HTTP address (and the gRPC one in ``grpc_address`` when the command asks for gRPC), or None
        when the server exited first (its stderr in ``self.stderr``)."""
        deadline = time.monotonic() + 120
        def waiting() -> bool:
            return self.address is None or (self.grpc and self.grpc_address is None)

        while waiting() and time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                return None
            self.stderr.append(line)
            found = re.search(r"gRPC listening on (\S+)", line)
            self.grpc_address = found.group(1) if found else self.grpc_address
            found = re.search(r"listening on http://(\S+)", line)
            self.address = found.group(1) if found else self.address
        assert self.address, "the server never said where it listens"
        assert self.grpc_address or not self.grpc, "the server never said where gRPC listens"
        return self.address

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


@pytest.mark.parametrize("command", _lines(serving_blocks("bash")[0]))
def test_serving_serve_commands_serve(serving_folder: Path, command: str) -> None:
    import onnxruntime as ort

    server = _Server(command, serving_folder)
    try:
        address = server.wait_listening()
    except BaseException:
        server.stop()
        raise
    if "--device gpu" in command and "CUDAExecutionProvider" not in ort.get_available_providers():
        assert address is None, "--device gpu served without CUDA"
        assert server.stop() != 0
        message = "".join(server.stderr) + server.process.stderr.read()
        assert "CUDAExecutionProvider" in message and "Traceback" not in message, message
        return
    try:
        assert address, "".join(server.stderr)
        words = command.split()
        named = "--name" in words
        models = [words[words.index("--name") + 1]] if named else re.findall(r"(\w+)\.onnx", command)
        for model in models:
            ready = urllib.request.urlopen(f"http://{address}/v2/models/{model}/ready", timeout=30)
            assert ready.status == 200, model
    finally:
        assert server.stop() == 0


@pytest.fixture(scope="module")
def mlp_server(serving_folder: Path):
    server = _Server(_lines(serving_blocks("bash")[0])[0], serving_folder)
    try:
        assert server.wait_listening(), "".join(server.stderr)
        yield server
    finally:
        assert server.stop() == 0


def _mlp(x: np.ndarray, folder: Path) -> np.ndarray:
    import onnxruntime as ort

    session = ort.InferenceSession(str(folder / "mlp.onnx"), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


def _bash(block: str, address: str, folder: Path) -> str:
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block.replace("localhost:8000", address)],
                          cwd=folder, capture_output=True, text=True, timeout=120, env=_on_path())
    assert done.returncode == 0, f"{block}: {done.stderr}"
    return done.stdout


def test_serving_curl_json(serving_folder: Path, mlp_server: _Server) -> None:
    out = _bash(serving_blocks("bash")[1], mlp_server.address, serving_folder)
    decoder = json.JSONDecoder()
    metadata, end = decoder.raw_decode(out)
    answer, _ = decoder.raw_decode(out[end:].lstrip())
    assert metadata["name"] == "mlp" and [i["name"] for i in metadata["inputs"]] == ["x"]
    assert (answer["model_name"], answer["id"]) == ("mlp", "42")
    (y,) = answer["outputs"]
    assert (y["name"], y["datatype"], y["shape"]) == ("y", "FP32", [2, 3])
    want = _mlp(np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.float32), serving_folder)
    assert_close(np.reshape(y["data"], (2, 3)), want, rtol=1e-6, scale_rtol=MLP_RTOL, what="curl JSON")


def test_serving_curl_binary(serving_folder: Path, mlp_server: _Server) -> None:
    head = _bash(serving_blocks("bash")[2], mlp_server.address, serving_folder)  # -D -: the response headers
    body = (serving_folder / "y.out").read_bytes()
    length = int(re.search(r"inference-header-content-length: (\d+)", head, re.I).group(1))
    header = json.loads(body[:length])
    assert header["outputs"][0]["parameters"]["binary_data_size"] == 12
    y = np.frombuffer(body[length:], "<f4").reshape(1, 3)
    want = _mlp(np.ones((1, 4), np.float32), serving_folder)
    assert_close(y, want, rtol=1e-6, scale_rtol=MLP_RTOL, what="curl binary")


def test_serving_tritonclient(serving_folder: Path, mlp_server: _Server,
                              capsys: pytest.CaptureFixture) -> None:
    block, _ = serving_blocks("python")
    scope: dict = {}
    code = compile(block.replace("localhost:8000", mlp_server.address), "docs/serving.md", "exec")
    exec(code, scope)  # noqa: S102
    assert "mlp" in capsys.readouterr().out
    want = _mlp(np.ones((2, 4), np.float32), serving_folder)
    assert_close(scope["result"].as_numpy("y"), want, rtol=1e-6, scale_rtol=MLP_RTOL, what="tritonclient")


def test_serving_tritonclient_grpc(serving_folder: Path, mlp_server: _Server,
                                   capsys: pytest.CaptureFixture) -> None:
    _, block = serving_blocks("python")
    scope: dict = {}
    code = compile(block.replace("localhost:8001", mlp_server.grpc_address), "docs/serving.md", "exec")
    exec(code, scope)  # noqa: S102
    out = capsys.readouterr().out
    assert "mlp" in out and out.strip().splitlines()[-1].startswith("3 ")
    assert len(scope["answers"]) == 3 and all(isinstance(a, np.ndarray) for a in scope["answers"])
    want = _mlp(np.ones((2, 4), np.float32), serving_folder)
    assert_close(scope["grpc_result"].as_numpy("y"), want, rtol=1e-6, scale_rtol=MLP_RTOL,
                 what="tritonclient.grpc")


def test_serving_model_repository(serving_folder: Path) -> None:
    """The repository block in order: export, then each `cellonnx serve model_repository/ ...` serving mlp
    (over gRPC too where the command asks for it)."""
    import tritonclient.grpc as grpcclient

    for command in _lines(serving_blocks("bash")[4]):
        if command.startswith("cellonnx export-triton"):
            done = subprocess.run(_cellonnx(command), cwd=serving_folder, capture_output=True, text=True,
                                  timeout=300)
            assert done.returncode == 0, f"{command}: {done.stderr}"
            continue
        server = _Server(command, serving_folder)
        try:
            address = server.wait_listening()
            assert address, "".join(server.stderr)
            ready = urllib.request.urlopen(f"http://{address}/v2/models/mlp/versions/1/ready", timeout=30)
            assert ready.status == 200, command
            if server.grpc_address:
                with grpcclient.InferenceServerClient(server.grpc_address) as client:
                    assert client.is_model_ready("mlp", "1"), command
        finally:
            assert server.stop() == 0, command


def test_serving_export_triton(serving_folder: Path) -> None:
    """The export-triton command as written; the docker line after it needs Triton's image and a GPU."""
    export, *rest = _lines(serving_blocks("bash")[3])
    assert [c.split()[:2] for c in rest] == [["docker", "run"]], rest
    done = subprocess.run(_cellonnx(export), cwd=serving_folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{export}: {done.stderr}"
    config = (serving_folder / "models" / "mlp" / "config.pbtxt").read_text()
    assert "max_batch_size: 32" in config and "KIND_GPU" in config and "count: 2" in config, config
    assert (serving_folder / "models" / "mlp" / "1" / "model.onnx").exists()
