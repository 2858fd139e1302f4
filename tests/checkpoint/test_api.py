"""save_checkpoint / load_checkpoint / load_param_into_net on cellonnx's own networks, through every format."""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cellonnx.converters import CheckpointError, mindspore_format
from cellonnx.converters.onnx_format import data_files

import cellonnx as ms
from cellonnx import Parameter, Tensor, dtypes, nn
from cellonnx.graph.compile import compile_cell
from tests.checkpoint.conftest import make_net, run
from tests.checkpoint.nets import inputs
from tests.tolerance import assert_close, sum_rtol

EXTENSIONS = [".ckpt", ".onnx", ".safetensors", ".npz", ".pth", ".pt", ".params"]
APPEND = {"epoch_num": 3, "lr": 0.5, "note": "step 3"}


def _append_for(ext: str) -> dict[str, Any]:
    return {k: v for k, v in APPEND.items() if ext != ".params" or not isinstance(v, str)}


@pytest.mark.parametrize("ext", EXTENSIONS)
def test_round_trip_through_every_format(tmp_path: Path, trained: Any, ext: str) -> None:
    path = tmp_path / f"net{ext}"
    append = _append_for(ext)
    ms.save_checkpoint(trained, str(path), append_dict=append)
    loaded = ms.load_checkpoint(str(path))
    names = [p.name for p in trained.get_parameters()]
    expected_keys = sorted([*names, *append]) if ext == ".safetensors" else [*names, *append]
    assert list(loaded) == expected_keys
    fresh = make_net(seed=99)
    assert not np.array_equal(run(fresh)[0], run(trained)[0])
    param_not_load, ckpt_not_load = ms.load_param_into_net(fresh, loaded)
    assert param_not_load == []
    assert sorted(ckpt_not_load) == sorted(append)
    for got, want in zip(run(fresh), run(trained)):
        np.testing.assert_array_equal(got, want)
    epoch, lr = loaded["epoch_num"], loaded["lr"]
    assert isinstance(epoch, Parameter) and epoch.dtype == ms.int64 and epoch.shape == () and int(epoch) == 3
    assert lr.dtype == ms.float32 and float(lr) == 0.5 and lr.name == "lr"
    if "note" in append:
        assert loaded["note"] == "step 3"


def test_ckpt_string_entries_keep_their_place(tmp_path: Path) -> None:
    """As MindSpore: a .ckpt's string entries are written and loaded where they stand among the tensors."""
    path = tmp_path / "a.ckpt"
    entries = {"w": np.ones(2, np.float32), "tag": "run1", "n": np.array(7, np.int64), "note": "x"}
    mindspore_format.write_entries(path, entries)
    got = mindspore_format.read_entries(path)
    assert list(got) == list(entries) and got["tag"] == "run1" and got["note"] == "x"
    tensors, metadata = mindspore_format.read(path)
    assert list(tensors) == ["w", "n"] and metadata == {"tag": "run1", "note": "x"}
    ms.save_checkpoint({"w": Tensor(entries["w"]), "tag": "run1"}, str(path),
                       append_dict={"n": 7, "note": "x"})
    assert list(ms.load_checkpoint(str(path))) == ["w", "tag", "n", "note"]


def test_load_checkpoint_with_net_loads_it(tmp_path: Path, trained: Any) -> None:
    path = tmp_path / "net.ckpt"
    ms.save_checkpoint(trained, str(path))
    fresh = make_net(seed=5)
    ms.load_checkpoint(path, net=fresh)
    np.testing.assert_array_equal(run(fresh)[1], run(trained)[1])


@pytest.mark.parametrize("name, kwargs, written", [
    ("plain", {}, "plain.ckpt"),
    ("w.ckpt", {"format": "safetensors"}, "w.ckpt.safetensors"),
    ("w", {"format": "onnx"}, "w.onnx"),
    ("w.ckpt", {"format": "ckpt"}, "w.ckpt"),
    ("w.weights", {}, "w.weights.ckpt"),
    ("w.PTH", {}, "w.PTH"),
])
def test_file_names_and_formats(tmp_path: Path, name: str, kwargs: dict[str, Any], written: str) -> None:
    net = make_net(seed=1)
    ms.save_checkpoint(net, str(tmp_path / name), **kwargs)
    assert sorted(os.listdir(tmp_path)) == [written]
    back = ms.load_checkpoint(str(tmp_path / written), format=kwargs.get("format"))
    names = [p.name for p in net.get_parameters()]
    assert list(back) == (sorted(names) if written.endswith(".safetensors") else names)


def test_save_objects_and_choice_func(tmp_path: Path, trained: Any) -> None:
    path = str(tmp_path / "x.ckpt")
    a, b = Tensor(np.ones(2, np.float32)), Parameter(Tensor(np.zeros(3, np.float32)), name="p")
    ms.save_checkpoint([{"name": "a", "data": a}, {"name": "b", "data": b}], path)
    assert {k: v.name for k, v in ms.load_checkpoint(path).items()} == {"a": "a", "b": "b"}
    ms.save_checkpoint([b], path)
    assert list(ms.load_checkpoint(path)) == ["p"]
    ms.save_checkpoint({"c": b, "arr": np.arange(3), "s": "text"}, path)
    back = ms.load_checkpoint(path)
    assert list(back) == ["c", "arr", "s"] and back["s"] == "text" and back["arr"].dtype == ms.int64
    ms.save_checkpoint(back, path)  # what load_checkpoint returned saves again
    assert list(ms.load_checkpoint(path)) == ["c", "arr", "s"]
    ms.save_checkpoint(trained, path, choice_func=lambda n: n.startswith("fc"), append_dict={"step": 1})
    assert list(ms.load_checkpoint(path)) == ["fc.weight", "fc.bias", "step"]  # append_dict is not filtered
    ms.save_checkpoint(trained.trainable_params(), path, choice_func=lambda n: n.startswith("bn"))
    assert list(ms.load_checkpoint(path)) == ["bn.gamma", "bn.beta"]  # moving statistics are not trainable


def test_wrong_arguments() -> None:
    with pytest.raises(TypeError, match="'save_obj' must be nn.Cell, list or dict"):
        ms.save_checkpoint(3, "x.ckpt")
    with pytest.raises(TypeError, match="list of Parameter"):
        ms.save_checkpoint([Tensor(np.ones(2))], "x.ckpt")
    with pytest.raises(TypeError, match="append_info"):
        ms.save_checkpoint([], "x.ckpt", append_dict={"k": [1]})
    with pytest.raises(TypeError, match="unexpected keyword arguments \\['compress'\\]"):
        ms.save_checkpoint([], "x.ckpt", compress=True)
    with pytest.raises(TypeError, match="'net' should be a Cell"):
        ms.load_param_into_net({}, {})
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint("absent.ckpt")


def test_unsupported_options_say_so(tmp_path: Path) -> None:
    net = make_net(seed=1)
    with pytest.raises(NotImplementedError, match="enc_key"):
        ms.save_checkpoint(net, str(tmp_path / "e.ckpt"), enc_key=b"0123456789abcdef")
    with pytest.raises(NotImplementedError, match="incremental"):
        ms.save_checkpoint(net, str(tmp_path / "e.ckpt"), incremental=True)
    assert not any(tmp_path.iterdir())
    ms.save_checkpoint(net, str(tmp_path / "a.ckpt"), async_save=True)  # written before returning
    assert (tmp_path / "a.ckpt").is_file()
    with pytest.raises(ValueError, match="can only be 'process' or 'thread'"):
        ms.save_checkpoint(net, str(tmp_path / "a.ckpt"), async_save="later")
    with pytest.raises(NotImplementedError, match="dec_key"):
        ms.load_checkpoint(str(tmp_path / "a.ckpt"), dec_key=b"0123456789abcdef")
    with pytest.raises(TypeError, match="parallel scenarios"):
        ms.load_param_into_net(net, {}, remove_redundancy=True)


def test_writer_options_pass_through(tmp_path: Path) -> None:
    net = make_net(seed=1)
    ms.save_checkpoint(net, str(tmp_path / "w.onnx"), external_data=True)
    assert [f.parent for f in data_files(tmp_path / "w.onnx")] == [tmp_path]
    assert list(ms.load_checkpoint(str(tmp_path / "w.onnx"))) == [p.name for p in net.get_parameters()]


def test_mxnet_params_cannot_hold_strings(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="string value"):
        ms.save_checkpoint(make_net(seed=1), str(tmp_path / "w.params"), append_dict={"note": "x"})
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("ext", [".ckpt", ".safetensors"])
def test_crc(tmp_path: Path, ext: str, caplog: pytest.LogCaptureFixture) -> None:
    net = make_net(seed=1)
    path = tmp_path / f"c{ext}"
    ms.save_checkpoint(net, str(path), crc_check=True)
    assert len(ms.load_checkpoint(str(path), crc_check=True)) == len(list(net.get_parameters()))
    data = bytearray(path.read_bytes())
    at = data.find(np.asarray(net.fc.weight.asnumpy()).tobytes()[:8])
    data[at] ^= 0x40
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="(?i)crc"):
        ms.load_checkpoint(str(path), crc_check=True)
    plain = tmp_path / f"p{ext}"
    ms.save_checkpoint(net, str(plain))
    with caplog.at_level(logging.WARNING, logger="cellonnx"):
        assert ms.load_checkpoint(str(plain), crc_check=True)
    assert "do not contain the crc code" in caplog.text


def test_crc_check_on_a_format_without_crc(tmp_path: Path) -> None:
    ms.save_checkpoint(make_net(seed=1), str(tmp_path / "n.npz"))
    with pytest.raises(ValueError, match="crc_check"):
        ms.load_checkpoint(str(tmp_path / "n.npz"), crc_check=True)


class _Interrupted(KeyboardInterrupt):
    pass


@pytest.mark.parametrize("existing", [False, True])
def test_interrupted_save_leaves_nothing_under_the_final_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              existing: bool) -> None:
    path = tmp_path / "net.ckpt"
    if existing:
        ms.save_checkpoint(make_net(seed=1), str(path))
    before = path.read_bytes() if existing else None
    calls = []
    real = mindspore_format._serialize

    def interrupted(*args: Any) -> bytes:
        calls.append(args[0])
        if len(calls) == 5:
            raise _Interrupted("power cut")
        return real(*args)

    monkeypatch.setattr(mindspore_format, "_serialize", interrupted)
    with pytest.raises(_Interrupted):
        ms.save_checkpoint(make_net(seed=2), str(path))
    assert len(calls) == 5
    assert sorted(os.listdir(tmp_path)) == (["net.ckpt"] if existing else [])
    if existing:
        assert path.read_bytes() == before


HEAD_RTOL = sum_rtol(6 + 6)  # _Head: LayerNorm's 6-term statistics, then a 6-term Dense


class _Head(nn.Cell):
    """Embedding, LayerNorm, Dense and BatchNorm: their compiled graph takes updated weights."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(10, 6)
        self.ln = nn.LayerNorm((6,), epsilon=1e-5)
        self.fc = nn.Dense(6, 4)
        self.bn = nn.BatchNorm1d(4)

    def construct(self, ids: Tensor) -> Tensor:
        return self.bn(self.fc(self.ln(self.emb(ids)))[:, 0])


def test_compiled_cell_sees_weights_loaded_by_load_param_into_net(tmp_path: Path) -> None:
    ids = Tensor(inputs()[0])
    net, other = _Head(), _Head()
    for cell in (net, other):
        cell.set_train(False)
    rng = np.random.default_rng(0)
    for p in other.get_parameters():
        p.set_data(rng.uniform(0.5, 1.5, p.shape).astype(np.float32))
    compiled = compile_cell(net, ids)
    first = compiled(ids).asnumpy()
    assert_close(first, net(ids).asnumpy(), rtol=1e-5, scale_rtol=HEAD_RTOL)
    ms.save_checkpoint(other, str(tmp_path / "o.ckpt"))
    assert ms.load_param_into_net(net, ms.load_checkpoint(str(tmp_path / "o.ckpt"))) == ([], [])
    again = compiled(ids).asnumpy()
    assert_close(again, other(ids).asnumpy(), rtol=1e-5, scale_rtol=HEAD_RTOL)
    assert not np.allclose(again, first)


def test_compiled_conv_groupnorm_lstm_see_loaded_weights(tmp_path: Path, trained: Any) -> None:
    ids, image = inputs()
    net = make_net(seed=3)
    compiled = compile_cell(net, Tensor(ids), Tensor(image))
    compiled(Tensor(ids), Tensor(image))
    ms.save_checkpoint(trained, str(tmp_path / "t.ckpt"))
    ms.load_param_into_net(net, ms.load_checkpoint(str(tmp_path / "t.ckpt")))
    again = [t.asnumpy() for t in compiled(Tensor(ids), Tensor(image))]
    for got, want in zip(again, run(trained)):
        assert_close(got, want, rtol=1e-4, scale_rtol=1e-5, min_scale=1.0)


def test_exported_model_weights_load_back(tmp_path: Path, trained: Any) -> None:
    ids, image = inputs()
    path = ms.export(trained, Tensor(ids), Tensor(image), file_name=str(tmp_path / "model"), file_format="ONNX")
    loaded = ms.load_checkpoint(path)
    fresh = make_net(seed=4)
    param_not_load, _ = ms.load_param_into_net(fresh, loaded)
    assert param_not_load == []
    np.testing.assert_array_equal(run(fresh)[0], run(trained)[0])


def test_float_casts_and_shape_errors(tmp_path: Path) -> None:
    net = make_net(seed=1)
    weight = np.linspace(-1, 1, 48, dtype=np.float32).reshape(8, 6)
    bf16 = weight.astype(dtypes.bfloat16.np_dtype)
    ms.save_checkpoint({"fc.weight": Tensor(bf16)}, str(tmp_path / "b.safetensors"))
    loaded = ms.load_checkpoint(str(tmp_path / "b.safetensors"))
    assert loaded["fc.weight"].dtype == ms.bfloat16
    ms.load_param_into_net(net, loaded)
    assert net.fc.weight.dtype == ms.float32
    np.testing.assert_array_equal(net.fc.weight.asnumpy(), bf16.astype(np.float32))
    with pytest.raises(RuntimeError, match="same type"):
        ms.load_param_into_net(net, loaded, strict_load=True)
    wrong = {"fc.weight": Parameter(np.ones((8, 5), np.float32), name="fc.weight")}
    with pytest.raises(RuntimeError, match=r"fc\.weight.*\(8, 6\).*\(8, 5\)"):
        ms.load_param_into_net(net, wrong)
