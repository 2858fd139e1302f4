"""`cellonnx convert`, `inspect` and `load-weights`."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from cellonnx.converters import read, write
from onnx import TensorProto, helper, numpy_helper

from cellonnx.cli import build_parser, main
from tests.converters.helpers import FIXTURES, assert_same


def test_convert_between_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = FIXTURES / "torch" / "all_dtypes_zip.pt"
    for ext in (".ckpt", ".safetensors", ".params", ".npz", ".onnx"):
        dst = tmp_path / f"out{ext}"
        assert main(["convert", str(src), str(dst)]) == 0
        assert_same(read(dst)[0], read(src)[0])
    assert "wrote" in capsys.readouterr().out


def test_convert_with_mapping(tmp_path: Path) -> None:
    layers = tmp_path / "layers.json"
    layers.write_text(json.dumps({f"model.bn.{p}": "BatchNorm" for p in
                                  ("gamma", "beta", "moving_mean", "moving_variance")}))
    dst = tmp_path / "out.ckpt"
    assert main(["convert", str(FIXTURES / "torch" / "nested.pt"), str(dst), "--map", "torch:mindspore",
                 "--layers", str(layers), "--crc"]) == 0
    got, _ = read(dst, crc_check=True)
    assert "model.bn.moving_variance" in got and "model.bn.num_batches_tracked" not in got


def test_inspect_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(FIXTURES / "mindspore" / "all_dtypes.ckpt"), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    rows = {r["name"]: r for r in info["tensors"]}
    assert rows["t_BFloat16"] == {"name": "t_BFloat16", "shape": [2, 3], "dtype": "bfloat16", "bytes": 12}
    assert info["total"]["tensors"] == len(rows)
    assert info["metadata"]["note"] == "hello, ckpt"


def test_inspect_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(FIXTURES / "mxnet" / "net-0000.params")]) == 0
    out = capsys.readouterr().out
    assert "aux:" in out and "total:" in out


@pytest.mark.parametrize("argv,words", [
    (["inspect", "missing.pt"], "missing.pt: no such checkpoint file"),
    (["inspect", "{fixture}", "--from", "torch"], "dict_v2.params"),
    (["inspect", "adir.ckpt"], "adir.ckpt: is a directory"),
    (["convert", "{fixture}", "out.weights"], "cannot tell the checkpoint format of 'out.weights'"),
    (["convert", "{fixture}", "out.ckpt", "--map", "torch"], "--map wants FROM:TO"),
    (["convert", "{fixture}", "out.ckpt", "--map", "torch:mindspore", "--layers", "missing.json"],
     "--layers missing.json: No such file"),
    (["convert", "{fixture}", "{fixture}/x.ckpt"], "dict_v2.params"),
    (["convert", "{fixture}", "adir.ckpt"], "cannot write adir.ckpt: it is a directory"),
    (["load-weights", "missing.onnx", "{fixture}"], "missing.onnx: no such file"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                                          words: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir.ckpt").mkdir()
    fixture = str(FIXTURES / "mxnet" / "dict_v2.params")
    assert main([a.replace("{fixture}", fixture) for a in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith(f"cellonnx {argv[0]}: error:") and words in err, err


@pytest.mark.parametrize("command", sorted(build_parser().commands))
def test_wrong_flag_is_one_line_named_by_the_command(command: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`cellonnx <cmd>: error: unrecognized arguments ...` on one line and status 2, no usage block."""
    assert main([command, "--no-such-flag", "a", "b"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert err.startswith(f"cellonnx {command}: error: unrecognized arguments: --no-such-flag"), err
    assert "\n" not in err
    assert "usage:" not in captured.out + captured.err


@pytest.mark.parametrize("argv,words", [
    (["convert", "a.npz"], "the following arguments are required: dst"),
    (["inspect"], "the following arguments are required: file"),
    (["load-weights", "m.onnx"], "the following arguments are required: checkpoint"),
    (["serve"], "the following arguments are required: MODEL.onnx"),
    (["export-triton", "m.onnx"], "the following arguments are required: REPO_DIR"),
    (["inspect", "a.npz", "--from", "nope"], "argument --from: invalid choice: 'nope'"),
    (["serve", "m.onnx", "--port", "http"], "argument --port: invalid int value: 'http'"),
])
def test_argument_errors_are_one_line(argv: list[str], words: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"cellonnx {argv[0]}: error: {words}") and "\n" not in err, err


def test_subprocess_corrupt_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"\x0a\xff\xff\xff\x0f not a checkpoint")
    proc = subprocess.run([sys.executable, "-m", "cellonnx", "inspect", str(bad)], capture_output=True, text=True, check=False,
                          cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("cellonnx inspect: error:") and str(bad) in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def _model(path: Path) -> None:
    w = numpy_helper.from_array(np.zeros((2, 3), np.float32), "fc.weight")
    b = numpy_helper.from_array(np.zeros(2, np.float32), "fc.bias")
    node = helper.make_node("Gemm", ["x", "fc.weight", "fc.bias"], ["y"], transB=1)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])], [w, b])
    onnx.save(helper.make_model(graph), path)


def test_load_weights(tmp_path: Path) -> None:
    model, ckpt, out = tmp_path / "m.onnx", tmp_path / "w.safetensors", tmp_path / "out.onnx"
    _model(model)
    weights = {"fc.weight": np.arange(6, dtype=np.float32).reshape(2, 3), "fc.bias": np.ones(2, np.float32)}
    write(ckpt, weights)
    assert main(["load-weights", str(model), str(ckpt), "-o", str(out)]) == 0
    assert_same(read(out)[0], weights)
    write(ckpt, {"fc.weight": np.ones((3, 2), np.float32), "fc.bias": np.ones(2, np.float32)})
    assert main(["load-weights", str(model), str(ckpt), "-o", str(out)]) == 2


def test_load_weights_fills_an_exported_model_from_its_own_checkpoint(tmp_path: Path) -> None:
    """An exported graph's constants (shape tensors and such) are initializers too, but no checkpoint holds
    them: the exporter marks the parameter initializers and only those must be filled."""
    import cellonnx as ms
    from cellonnx import Tensor, nn

    net = nn.SequentialCell(nn.Conv2d(1, 2, 3), nn.Flatten(), nn.Dense(2 * 8 * 8, 3))
    net.set_inputs(Tensor(shape=(None, 1, 8, 8), dtype=ms.float32))
    model = ms.export(net, Tensor(np.ones((1, 1, 8, 8), np.float32)), file_name=str(tmp_path / "net"))
    constants = [t.name for t in onnx.load(model).graph.initializer if t.doc_string != "parameter"]
    assert constants, "the test needs a graph with constants"
    ms.save_checkpoint(net, str(tmp_path / "net.ckpt"))
    assert main(["load-weights", model, str(tmp_path / "net.ckpt"), "-o", str(tmp_path / "out.onnx")]) == 0
    assert sorted(read(tmp_path / "out.onnx")[0]) == sorted(p.name for p in net.get_parameters())


def test_predict_given_a_checkpoint_says_it_is_no_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "w.ckpt", {"w": np.ones(3, np.float32)})
    np.save(tmp_path / "x.npy", np.ones((1, 3), np.float32))
    assert main(["predict", str(tmp_path / "w.ckpt"), str(tmp_path / "x.npy")]) == 2
    err = capsys.readouterr().err
    assert "a mindspore checkpoint, not a model" in err and "IndexError" not in err


def test_outputs_go_to_new_folders_in_every_command(tmp_path: Path) -> None:
    src = FIXTURES / "torch" / "all_dtypes_zip.pt"
    assert main(["convert", str(src), str(tmp_path / "a" / "b" / "out.safetensors")]) == 0
    model, ckpt = tmp_path / "m.onnx", tmp_path / "w.safetensors"
    _model(model)
    write(ckpt, {"fc.weight": np.ones((2, 3), np.float32), "fc.bias": np.ones(2, np.float32)})
    assert main(["load-weights", str(model), str(ckpt), "-o", str(tmp_path / "c" / "d" / "out.onnx")]) == 0
