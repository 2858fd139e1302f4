"""`cellonnx serve MODEL_REPOSITORY/`: a repository written by export-triton serves back as the ONNX files do;
version policies, max_batch_size, model-control modes none/poll/explicit through tritonclient.grpc and
tritonclient.http, and a version 2 added while serving picked up without a restart."""
from __future__ import annotations

import functools
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import numpy as np
import pytest
import tritonclient.grpc as grpcclient
import tritonclient.http as httpclient
from google.protobuf import text_format
from tritonclient.grpc import model_config_pb2
from tritonclient.utils import InferenceServerException

from cellonnx.cli import main
from cellonnx.serve import ModelLoadError, Registry, ServerConfig, create_app, export_model_repository
from cellonnx.serve.repository import read_model
from tests.serve.conftest import running
from tests.serve.helpers import MLP_RTOL, TYPES_MODEL, LiveServer, mlp_model, sample
from tests.serve.test_serve_grpc import grpc_input, refused
from tests.serve.test_serve_tritonclient import direct
from tests.tolerance import assert_close

EXPORTS = {"mlp": {}, "multi": {"max_batch": 8, "instances": 2, "batch_delay_us": 500}, "fixed": {},
           "types": {"max_batch": 4}, "bf16": {}}


def serve(repository: Path, **kwargs: object) -> Iterator[LiveServer]:
    registry = Registry(ServerConfig(workers=2, grpc_port=0, max_body_bytes=1 << 20), repository=repository,
                        **kwargs)  # type: ignore[arg-type]
    with running(create_app(registry)) as server:
        yield server


def wait_for(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server did not pick up the change in time"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def exported(model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("exported")
    assert main(["export-triton", str(model_dir / "mlp.onnx"), str(repo)]) == 0  # as a user writes it
    for name, kwargs in EXPORTS.items():
        if name != "mlp":
            export_model_repository(model_dir / f"{name}.onnx", repo, **kwargs)
    return repo


@pytest.fixture(scope="module")
def repo_server(exported: Path) -> Iterator[LiveServer]:
    yield from serve(exported)


@pytest.mark.parametrize("model", list(EXPORTS))
def test_exported_repository_serves_back_identically(repo_server: LiveServer, live_server: LiveServer,
                                                     exported: Path, model: str) -> None:
    with grpcclient.InferenceServerClient(repo_server.grpc_url) as ours, \
            httpclient.InferenceServerClient(live_server.url) as files, \
            httpclient.InferenceServerClient(repo_server.url) as ours_http:
        assert ours.is_model_ready(model, "1")
        written = text_format.Parse((exported / model / "config.pbtxt").read_text(),
                                    model_config_pb2.ModelConfig())
        # as Triton: a tensor the config reshapes shows the config's dims (a rank-1 output [N] of a batching
        # model is written dims [1] reshape [], so clients see [N, 1])
        reshaped = {t.name: [-1] * (written.max_batch_size > 0) + list(t.dims)
                    for t in list(written.input) + list(written.output) if t.HasField("reshape")}
        expected = files.get_model_metadata(model)
        for tensor in expected["inputs"] + expected["outputs"]:
            tensor["shape"] = reshaped.get(tensor["name"], tensor["shape"])
        assert ours_http.get_model_metadata(model) == expected
        assert (model == "multi") == bool(reshaped)
        assert ours.get_model_config(model).config == written
        assert ours_http.get_model_config(model)["max_batch_size"] == written.max_batch_size
        names = {"mlp": ["x"], "multi": ["a", "b"], "fixed": ["x"], "types": [f"in_{n}" for n in TYPES_MODEL],
                 "bf16": ["in_BF16"]}[model]
        rows = 1 if model == "fixed" else 3
        feeds = {n: sample(n[3:] if n.startswith("in_") else "FP32", (rows, 3 if model == "fixed" else
                                                                     (2 if n.startswith("in_") else 4)), i)
                 for i, n in enumerate(names)}
        datatype = {n: n[3:] if n.startswith("in_") else "FP32" for n in names}
        got = ours.infer(model, [grpc_input(n, a, datatype[n]) for n, a in feeds.items()])
        inputs = []
        for n, a in feeds.items():
            tensor = httpclient.InferInput(n, list(a.shape), datatype[n])
            tensor.set_data_from_numpy(a, binary_data=True)
            inputs.append(tensor)
        want = files.infer(model, inputs)
        for out in files.get_model_metadata(model)["outputs"]:
            a, b = got.as_numpy(out["name"]), want.as_numpy(out["name"])
            if out["name"] in reshaped:
                assert a.shape == b.shape + (1,)
                b = b.reshape(a.shape)
            assert a.dtype == b.dtype and a.shape == b.shape
            if model == "mlp":
                assert_close(a, b, rtol=1e-6, scale_rtol=MLP_RTOL)
            else:
                np.testing.assert_array_equal(a, b)


def test_repository_index_and_control_mode_none(repo_server: LiveServer) -> None:
    with grpcclient.InferenceServerClient(repo_server.grpc_url) as client:
        index = client.get_model_repository_index(as_json=True)["models"]
        assert sorted((m["name"], m["version"], m["state"]) for m in index) == sorted(
            (n, "1", "READY") for n in EXPORTS)
        refused(lambda: client.load_model("mlp"), grpc.StatusCode.FAILED_PRECONDITION,
                "not allowed in model-control mode 'none'")
    with httpclient.InferenceServerClient(repo_server.url) as http:
        with pytest.raises(InferenceServerException, match="not allowed in model-control mode 'none'"):
            http.unload_model("mlp")


def test_max_batch_size_is_enforced(repo_server: LiveServer) -> None:
    with grpcclient.InferenceServerClient(repo_server.grpc_url) as client:
        feeds = {f"in_{n}": sample(n, (5, 2), i) for i, n in enumerate(TYPES_MODEL)}
        refused(lambda: client.infer("types", [grpc_input(k, v, k[3:]) for k, v in feeds.items()]),
                grpc.StatusCode.INVALID_ARGUMENT,
                "batch size 5; the model takes at most 4 rows (max_batch_size)")


# ---------------------------------------------------------------- version policies
@pytest.mark.parametrize("policy,versions", [
    ("", ["3"]),
    ("version_policy: { latest: { num_versions: 2 } }", ["2", "3"]),
    ("version_policy: { all: {} }", ["1", "2", "3"]),
    ("version_policy: { specific: { versions: [1, 3] } }", ["1", "3"]),
])
def test_version_policy(tmp_path: Path, policy: str, versions: list[str]) -> None:
    for v in (1, 2, 3):
        mlp_model(tmp_path / "mlp" / str(v) / "model.onnx", seed=v)
    (tmp_path / "mlp" / "config.pbtxt").write_text(f'platform: "onnxruntime_onnx"\n{policy}\n')
    assert list(read_model(tmp_path, "mlp").versions) == versions


@pytest.mark.parametrize("config,words", [
    ("version_policy: { specific: { versions: [4] } }", "names version(s) [4]"),
    ('platform: "tensorflow_savedmodel"', "serves ONNX models only"),
    ('name: "other"', "name 'other' does not match its folder 'mlp'"),
    ("max_batch_size: [", "not a Triton ModelConfig"),
])
def test_config_errors(tmp_path: Path, config: str, words: str) -> None:
    mlp_model(tmp_path / "mlp" / "1" / "model.onnx")
    (tmp_path / "mlp" / "config.pbtxt").write_text(config)
    with pytest.raises(ModelLoadError, match=re.escape(words)):
        read_model(tmp_path, "mlp")
    registry = Registry(ServerConfig(workers=1), repository=tmp_path)
    assert registry.index() == [{"name": "mlp", "version": "", "state": "UNAVAILABLE",
                                 "reason": registry.entries["mlp"].reason}]
    assert words in registry.entries["mlp"].reason


def test_config_contradicting_the_model_is_refused(tmp_path: Path) -> None:
    mlp_model(tmp_path / "mlp" / "1" / "model.onnx")
    (tmp_path / "mlp" / "config.pbtxt").write_text(
        'max_batch_size: 8\ninput [{ name: "x", data_type: TYPE_FP32, dims: [5] }]\n')
    registry = Registry(ServerConfig(workers=1), repository=tmp_path)
    assert "config input 'x' has dims [5]; the ONNX model gives [4]" in registry.entries["mlp"].reason


def test_folder_without_config_is_configured_from_the_model(tmp_path: Path) -> None:
    mlp_model(tmp_path / "mlp" / "1" / "model.onnx")
    registry = Registry(ServerConfig(workers=1, max_batch=16), repository=tmp_path)
    config = registry.entries["mlp"].config
    assert config.max_batch_size == 16 and config.HasField("dynamic_batching")
    assert [(t.name, list(t.dims)) for t in config.input] == [("x", [4])]


# ---------------------------------------------------------------- poll and explicit modes
def _add_version(repo: Path, name: str, version: int, seed: int) -> Path:
    """A new version folder, appearing at once (written under a hidden name, then renamed)."""
    staging = repo / name / f".staging-{version}"
    mlp_model(staging / "model.onnx", seed=seed)
    staging.rename(repo / name / str(version))
    return repo / name / str(version) / "model.onnx"


def test_poll_mode_picks_up_a_new_version_without_restart(model_dir: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    export_model_repository(model_dir / "mlp.onnx", repo)
    x = sample("FP32", (2, 4), 9)
    for server in serve(repo, control="poll", poll_s=0.2):
        with grpcclient.InferenceServerClient(server.grpc_url) as client:
            first = client.infer("mlp", [grpc_input("x", x, "FP32")])
            assert first.get_response().model_version == "1"
            v2 = _add_version(repo, "mlp", 2, seed=5)
            wait_for(lambda: client.is_model_ready("mlp", "2"))
            assert not client.is_model_ready("mlp", "1")  # version_policy latest 1, the default
            second = client.infer("mlp", [grpc_input("x", x, "FP32")])
            assert second.get_response().model_version == "2"
            want = direct(v2.parent, "model", {"x": x})["y"]
            assert_close(second.as_numpy("y"), want, rtol=1e-6, scale_rtol=MLP_RTOL)
            assert client.get_model_metadata("mlp", as_json=True)["versions"] == ["2"]
            refused(lambda: client.load_model("mlp"), grpc.StatusCode.FAILED_PRECONDITION,
                    "not allowed in model-control mode 'poll'")
            # all versions, then a new model folder, then one removed
            config = repo / "mlp" / "config.pbtxt"
            config.write_text(config.read_text() + "version_policy: { all: {} }\n")
            wait_for(lambda: client.is_model_ready("mlp", "1") and client.is_model_ready("mlp", "2"))
            export_model_repository(model_dir / "fixed.onnx", repo)
            wait_for(lambda: client.is_model_ready("fixed"))
            shutil.rmtree(repo / "fixed")
            wait_for(lambda: not client.is_model_ready("fixed"))
            # a broken config keeps what was serving
            config.write_text("max_batch_size: [")
            time.sleep(1.0)
            assert client.is_model_ready("mlp", "2")


def test_explicit_mode_loads_and_unloads_through_the_repository_api(model_dir: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    for name in ("mlp", "multi"):
        export_model_repository(model_dir / f"{name}.onnx", repo)
    (repo / "broken").mkdir()
    (repo / "broken" / "config.pbtxt").write_text("max_batch_size: [")
    for server in serve(repo, control="explicit", load=["mlp"]):
        with grpcclient.InferenceServerClient(server.grpc_url) as client, \
                httpclient.InferenceServerClient(server.url) as http:
            assert client.is_model_ready("mlp") and not client.is_model_ready("multi")
            index = {m["name"]: m for m in http.get_model_repository_index()}
            assert index["multi"]["state"] == "" and index["mlp"]["state"] == "READY"
            client.load_model("multi")
            assert client.is_model_ready("multi") and http.is_model_ready("multi")
            http.unload_model("mlp")
            assert not client.is_model_ready("mlp")
            index = {m["name"]: m for m in client.get_model_repository_index(as_json=True)["models"]}
            assert (index["mlp"]["state"], index["mlp"]["reason"]) == ("UNAVAILABLE", "unloaded")
            refused(lambda: client.infer("mlp", [grpc_input("x", np.ones((1, 4), np.float32), "FP32")]),
                    grpc.StatusCode.UNAVAILABLE, "model 'mlp' is not available: unloaded")
            http.load_model("mlp")
            assert client.is_model_ready("mlp")
            refused(lambda: client.load_model("nope"), grpc.StatusCode.NOT_FOUND, "no model folder 'nope'")
            refused(lambda: client.load_model("broken"), grpc.StatusCode.INVALID_ARGUMENT,
                    "failed to load model 'broken'")
            with pytest.raises(InferenceServerException, match="not a Triton ModelConfig"):
                http.load_model("broken")
            # a version added, then an explicit reload
            _add_version(repo, "mlp", 2, seed=3)
            assert not client.is_model_ready("mlp", "2")
            client.load_model("mlp")
            assert client.is_model_ready("mlp", "2")


def test_config_sets_batching_instances_and_device(tmp_path: Path) -> None:
    mlp_model(tmp_path / "mlp" / "1" / "model.onnx")
    (tmp_path / "mlp" / "config.pbtxt").write_text(
        'platform: "onnxruntime_onnx"\nmax_batch_size: 8\n'
        "dynamic_batching { preferred_batch_size: [4, 8] max_queue_delay_microseconds: 300 }\n"
        "instance_group [{ count: 3, kind: KIND_CPU }]\n")
    mlp_model(tmp_path / "plain" / "1" / "model.onnx")
    (tmp_path / "plain" / "config.pbtxt").write_text("max_batch_size: 8\n")  # no dynamic_batching: no merging
    registry = Registry(ServerConfig(workers=2), repository=tmp_path)
    scheduler = registry.get("mlp").scheduler
    assert scheduler.batching and scheduler._max_batch == 8 and scheduler._slots_count == 3
    assert scheduler._preferred == {4, 8} and scheduler._delay == pytest.approx(300e-6)
    assert registry.get("mlp").model.device == "cpu"
    assert not registry.get("plain").scheduler.batching and registry.get("plain").max_batch_size == 8


@pytest.mark.skipif("CUDAExecutionProvider" in __import__("onnxruntime").get_available_providers(),
                    reason="CUDA is available here")
def test_kind_gpu_without_cuda_is_unavailable_with_the_reason(model_dir: Path, tmp_path: Path) -> None:
    export_model_repository(model_dir / "mlp.onnx", tmp_path, device="gpu")
    export_model_repository(model_dir / "fixed.onnx", tmp_path)
    registry = Registry(ServerConfig(workers=1), repository=tmp_path)
    assert registry.entries["mlp"].state == "UNAVAILABLE"
    assert "CUDAExecutionProvider" in registry.entries["mlp"].reason
    assert registry.is_ready("fixed")  # the others serve


def test_reshaped_input_takes_the_config_dims(tmp_path: Path, model_dir: Path) -> None:
    """An input the config reshapes: clients send the config's dims, the model gets its own shape."""
    mlp_model(tmp_path / "flat" / "1" / "model.onnx")
    (tmp_path / "flat" / "config.pbtxt").write_text(
        'max_batch_size: 4\n'
        'input [{ name: "x", data_type: TYPE_FP32, dims: [2, 2], reshape: { shape: [4] } }]\n')
    for server in serve(tmp_path):
        with grpcclient.InferenceServerClient(server.grpc_url) as client:
            meta = client.get_model_metadata("flat", as_json=True)
            assert [int(d) for d in meta["inputs"][0]["shape"]] == [-1, 2, 2]
            x = sample("FP32", (3, 2, 2), 4)
            got = client.infer("flat", [grpc_input("x", x, "FP32")]).as_numpy("y")
            want = direct(tmp_path / "flat" / "1", "model", {"x": x.reshape(3, 4)})["y"]
            assert_close(got, want, rtol=1e-6, scale_rtol=MLP_RTOL)
            flat = [grpc_input("x", x.reshape(3, 4), "FP32")]
            refused(functools.partial(client.infer, "flat", flat),
                    grpc.StatusCode.INVALID_ARGUMENT, "has shape [3, 4]; the model expects [-1, 2, 2]")
