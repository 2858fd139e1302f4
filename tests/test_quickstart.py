"""The main job in reduced mode (`cellonnx quickstart --quick`) and the train / predict commands."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from cellonnx.models import digits
from PIL import Image
from safetensors.numpy import load_file

import cellonnx as ms
from cellonnx.cli import main


@pytest.fixture(scope="module")
def quick_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("quickstart")
    proc = subprocess.run([sys.executable, "-m", "cellonnx", "quickstart", "--quick", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return out, proc.stdout


def test_quickstart_writes_every_file(quick_out) -> None:
    out, stdout = quick_out
    names = sorted(p.name for p in out.iterdir())
    assert names == ["lenet5.ckpt", "lenet5.onnx", "lenet5.safetensors", "lenet5_weights.onnx",
                     "training_curves.png"]
    for line in ("test accuracy", "onnxruntime vs eager", "(match)", "latency, batch 1"):
        assert line in stdout


def test_quickstart_model_runs_in_onnxruntime_with_a_dynamic_batch(quick_out) -> None:
    out, _ = quick_out
    model = onnx.load(str(out / "lenet5.onnx"))
    onnx.checker.check_model(model, full_check=True)
    assert {p.key for p in model.metadata_props} >= {"preprocess", "classes", "cell_class"}
    sess = ort.InferenceSession(str(out / "lenet5.onnx"), providers=["CPUExecutionProvider"])
    images, _ = digits.load_digits()
    for n in (1, 5):
        (logits,) = sess.run(None, {sess.get_inputs()[0].name: digits.preprocess(images[:n])})
        assert logits.shape == (n, 10)


def test_quickstart_checkpoints_hold_the_same_weights(quick_out) -> None:
    out, _ = quick_out
    ckpt = {k: v.asnumpy() for k, v in ms.load_checkpoint(str(out / "lenet5.ckpt")).items()}
    initializers = {k: v.asnumpy() for k, v in ms.load_checkpoint(str(out / "lenet5_weights.onnx")).items()}
    safetensors = load_file(str(out / "lenet5.safetensors"))
    assert set(ckpt) == set(initializers) == set(safetensors) >= {"conv1.weight", "fc3.bias"}
    for name in ckpt:
        np.testing.assert_array_equal(ckpt[name], initializers[name])
        np.testing.assert_array_equal(ckpt[name], safetensors[name])


def test_training_curves_png(quick_out) -> None:
    """The curves open in Pillow at the size plot_curves draws (1000 x 400), with the plot's colours: lines
    in matplotlib's first colours, dark text and ticks, and a white page."""
    with Image.open(quick_out[0] / "training_curves.png") as png:
        assert png.format == "PNG" and png.size == (1000, 400)
        img = np.asarray(png.convert("RGB")).astype(int)
    white = (img == 255).all(-1).mean()
    assert 0.5 < white < 0.97  # mostly page, but with real content
    dark = (img.max(-1) < 90).sum()  # text, ticks, axes
    assert dark > 2000
    blue = (np.abs(img - (31, 119, 180)).max(-1) < 40).sum()  # the first series (train loss)
    orange = (np.abs(img - (255, 127, 14)).max(-1) < 40).sum()  # the second (test loss)
    assert blue > 50 and orange > 50


def test_predict_npy_and_png(quick_out, tmp_path, capsys) -> None:
    out, _ = quick_out
    images, _ = digits.load_digits()
    np.save(tmp_path / "x.npy", digits.preprocess(images[:2]))
    Image.fromarray((images[0] * 15).astype(np.uint8)).save(tmp_path / "d.png")
    dark_on_light = Image.fromarray(255 - (images[0] * 15).astype(np.uint8)).convert("RGB")
    dark_on_light.save(tmp_path / "d.jpg", quality=95)
    assert main(["predict", str(out / "lenet5.onnx"), str(tmp_path / "x.npy")]) == 0
    assert main(["predict", str(out / "lenet5.onnx"), str(tmp_path / "d.png")]) == 0
    assert main(["predict", str(out / "lenet5.onnx"), str(tmp_path / "d.jpg")]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in printed] == ["sample 0", "sample 1", "sample 0", "sample 0"]
    # the image goes through the same preprocessing as the .npy: the same top class
    top = [line.split(": ", 1)[1].split(":")[0] for line in printed]
    assert top[2] == top[0]


def test_predict_names_an_input_it_cannot_read(quick_out, tmp_path, capsys) -> None:
    model = str(quick_out[0] / "lenet5.onnx")
    (tmp_path / "notes.txt").write_text("seven")
    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    assert main(["predict", model, str(tmp_path / "notes.txt")]) == 2
    assert "give a .npy array or an image" in capsys.readouterr().err
    assert main(["predict", model, str(tmp_path / "broken.png")]) == 2
    assert "broken.png: not an image Pillow can read" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["predict", "missing.onnx", "x.npy"], "no such file"),
    (["train", "no_such_model"], "unknown model"),
    (["quickstart", "--epochs", "0"], "must be positive"),
])
def test_bad_input_is_one_line(args, message, capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and message in err


def test_train_command_exports_a_zoo_model(tmp_path, capsys) -> None:
    assert main(["train", "mlp", "--epochs", "2", "--limit", "64", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "mlp.onnx").exists() and (tmp_path / "mlp.ckpt").exists()
    with Image.open(tmp_path / "mlp_curves.png") as png:
        assert png.size == (1000, 400)
    assert "test accuracy" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["train", "mlp", "--limit", "1"], "--limit must be at least 2"),
    (["predict", "x.onnx", "x.npy", "--top", "0"], "--top must be at least 1"),
])
def test_argument_checks(args, message, capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    assert message in capsys.readouterr().err
