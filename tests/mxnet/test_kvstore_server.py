"""mx.kvstore.KVStoreServer and the server role: a process started with DMLC_ROLE=server or scheduler ends at
``import cellonnx.mxnet`` (MXNet's serves there and exits at the end of the job: the script past the import
runs in neither); the controller applies a worker's set_optimizer command."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("role", ["server", "scheduler", "worker"])
def test_roles_at_import(role: str) -> None:
    path = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")
    env = dict(os.environ, DMLC_ROLE=role, PYTHONPATH=path)
    proc = subprocess.run([sys.executable, "-c", "import cellonnx.mxnet; print('script ran')"], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    if role == "worker":
        assert "script ran" in proc.stdout
    else:
        assert "script ran" not in proc.stdout
        assert f"DMLC_ROLE={role}" in proc.stderr and "mpirun" in proc.stderr


def test_controller_sets_the_optimizer() -> None:
    kv = mx.kv.create("local")
    server = mx.kvstore.KVStoreServer(kv)
    assert server.kvstore is kv
    kv.init(3, mx.nd.ones((2,)))
    server._controller()(0, pickle.dumps(mx.optimizer.SGD(learning_rate=0.1)), None)
    kv.push(3, mx.nd.ones((2,)) * 2)
    out = mx.nd.zeros((2,))
    kv.pull(3, out=out)
    np.testing.assert_allclose(out.asnumpy(), [0.8, 0.8], rtol=1e-6)
    server.run()  # nothing to serve: returns


def test_unknown_command_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    mx.kvstore.KVStoreServer(mx.kv.create("local"))._controller()(7, b"x", None)
    assert capsys.readouterr().out.strip() == "server 0, unknown command (7, b'x')"
