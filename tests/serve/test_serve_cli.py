"""`cellonnx serve` as a user runs it: a subprocess that comes up ready and stops cleanly on SIGTERM/SIGINT,
and one-line errors for bad arguments."""
from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import onnxruntime as ort
import pytest

from cellonnx.cli import main
from tests.serve.helpers import mlp_model

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 90  # generous: a loaded 2-core machine imports onnxruntime and starlette slowly


def _lines(stream: object, sink: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        sink.put(line)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_serve_starts_answers_and_stops_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    model = mlp_model(tmp_path / "mlp.onnx")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "cellonnx", "serve", str(model), "--name", "clf", "--port", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stderr, lines), daemon=True).start()
    log: list[str] = []
    try:
        deadline, port = time.monotonic() + STARTUP_SECONDS, None
        while port is None:
            try:
                log.append(lines.get(timeout=max(0.1, deadline - time.monotonic())))
            except queue.Empty:
                pytest.fail("server did not start:\n" + "".join(log))
            found = re.search(r"running on http://127\.0\.0\.1:(\d+)", log[-1])
            port = int(found.group(1)) if found else None
            assert proc.poll() is None, "".join(log)
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{base}/v2/health/ready", timeout=30).status_code == 200
        assert httpx.get(f"{base}/v2/models/clf/ready", timeout=30).status_code == 200
        proc.send_signal(sig)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    time.sleep(0.1)  # let the reader thread drain the pipe
    while not lines.empty():
        log.append(lines.get())
    text = "".join(log)
    assert f"stopped by {sig.name}" in text and "Traceback" not in text, text


@pytest.mark.parametrize("args,words", [
    (["missing.onnx"], "no ONNX file at missing.onnx"),
    (["{model}", "{model}"], "several files would be served as ['mlp']"),
    (["{model}", "{model}", "--name", "x"], "--name names a single model"),
    (["{model}", "--max-batch", "-1"], "--max-batch must be >= 0"),
    (["{model}", "--max-body-mb", "0"], "--max-body-mb must be > 0"),
    (["{bad}"], "onnxruntime cannot load"),
])
def test_serve_argument_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                               args: list[str], words: str) -> None:
    monkeypatch.chdir(tmp_path)
    model = mlp_model(tmp_path / "mlp.onnx")
    (tmp_path / "bad.onnx").write_bytes(b"not a protobuf")
    argv = [a.format(model=model, bad=tmp_path / "bad.onnx") for a in args]
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cellonnx serve: error:") and words in err, err
    assert err.count("\n") == 1


@pytest.mark.skipif("CUDAExecutionProvider" in ort.get_available_providers(), reason="CUDA is available here")
def test_gpu_without_cuda_is_an_error_not_a_fallback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = mlp_model(tmp_path / "mlp.onnx")
    assert main(["serve", str(model), "--device", "gpu"]) == 2
    err = capsys.readouterr().err
    assert "CUDAExecutionProvider" in err and "onnxruntime-gpu" in err


def test_address_in_use_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = mlp_model(tmp_path / "mlp.onnx")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", str(model), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cellonnx serve: error: cannot listen on 127.0.0.1:{port}: "), err
    assert err.count("\n") == 1


def test_serve_repository_with_grpc(tmp_path: Path) -> None:
    """`cellonnx serve REPO --grpc-port 0`: both protocols up, the repository's model ready on each."""
    import tritonclient.grpc as grpcclient

    from cellonnx.serve import export_model_repository

    export_model_repository(mlp_model(tmp_path / "mlp.onnx"), tmp_path / "repo")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "cellonnx", "serve", "repo", "--port", "0",
                             "--grpc-port", "0", "--model-control-mode", "poll", "--repository-poll-secs", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stderr, lines), daemon=True).start()
    log: list[str] = []
    try:
        deadline, http, grpc_port = time.monotonic() + STARTUP_SECONDS, None, None
        while grpc_port is None:
            try:
                log.append(lines.get(timeout=max(0.1, deadline - time.monotonic())))
            except queue.Empty:
                pytest.fail("server did not start:\n" + "".join(log))
            found = re.search(r"listening on http://(\S+)", log[-1])
            http = found.group(1) if found else http
            found = re.search(r"gRPC listening on 127\.0\.0\.1:(\d+)", log[-1])
            grpc_port = int(found.group(1)) if found else None
            assert proc.poll() is None, "".join(log)
        assert httpx.get(f"http://{http}/v2/models/mlp/versions/1/ready", timeout=30).status_code == 200
        with grpcclient.InferenceServerClient(f"127.0.0.1:{grpc_port}") as client:
            assert client.is_model_ready("mlp", "1")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = "".join(log)
    assert "model 'mlp' version 1 from" in text and "Traceback" not in text, text


@pytest.mark.parametrize("args,words", [
    (["{repo}", "{model}"], "is a model repository folder: serve it alone"),
    (["{repo}", "--name", "x"], "a repository's models are named by their folders"),
    (["{model}", "--model-control-mode", "poll"], "apply to a model repository folder"),
    (["{repo}", "--load-model", "mlp"], "--load-model needs --model-control-mode explicit"),
    (["{repo}", "--model-control-mode", "explicit", "--load-model", "nope"],
     "has no model folder(s) ['nope']"),
    (["{repo}", "--grpc-port", "70000"], "--grpc-port must be in 0..65535"),
    (["{repo}", "--repository-poll-secs", "0"], "--repository-poll-secs must be > 0"),
])
def test_serve_repository_argument_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                          words: str) -> None:
    from cellonnx.serve import export_model_repository

    model = mlp_model(tmp_path / "mlp.onnx")
    export_model_repository(model, tmp_path / "repo")
    argv = [a.format(model=model, repo=tmp_path / "repo") for a in args]
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cellonnx serve: error:") and words in err, err
    assert err.count("\n") == 1
