"""MindSpore 2.10's checkpoint API behaviour, recorded by tests/fixtures/mindspore/gen_checkpoint_net.py
(semantics.json), replayed on cellonnx: which names load_checkpoint keeps under filter_prefix / specify_prefix /
choice_func, the (param_not_load, ckpt_not_load) lists of load_param_into_net (prefix retry included), what
save_checkpoint writes for each kind of save_obj, and the exception types and messages."""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Parameter, Tensor
from tests.checkpoint.conftest import FIXTURES, fixture_outputs, make_net, run
from tests.checkpoint.nets import random_values
from tests.tolerance import assert_close

CKPT_DIR = FIXTURES / "mindspore" / "checkpoint_net"
CKPT = str(CKPT_DIR / "net.ckpt")
RECORD = json.loads((CKPT_DIR / "semantics.json").read_text())

# Where cellonnx deliberately differs from the recording: case -> (what cellonnx does, why)
KNOWN_DIFFERENCES = {
    "other_extension": (["w.bin"], ("'.bin' is a PyTorch checkpoint extension in cellonnx (pytorch_model.bin), so "
                                    "save_checkpoint writes a torch file named w.bin where MindSpore, which knows "
                                    "only .ckpt and .safetensors, appends '.ckpt'")),
}


def outcome(fn: Callable[[], Any], path: str = "") -> dict[str, Any]:
    try:
        value = fn()
    except Exception as exc:  # noqa: BLE001  (compared with the recording)
        message = str(exc)
        if path:
            message = message.replace(os.path.realpath(path), "<FILE>").replace(path, "<FILE>")
        return {"raises": type(exc).__name__, "message": message}
    return {"returns": json.loads(json.dumps(value))}


def describe(value: Any) -> Any:
    if isinstance(value, str):
        return {"str": value}
    return {"type": type(value).__name__, "shape": list(value.shape), "dtype": str(value.dtype),
            "name": getattr(value, "name", None)}


def test_recording_is_of_the_same_network() -> None:
    assert RECORD["mindspore"] == "2.10.0"
    net = make_net()
    assert [p.name for p in net.get_parameters()] == RECORD["parameter_names"]
    assert [name for name, _ in net.parameters_and_names()] == RECORD["attribute_paths"]


def test_real_mindspore_checkpoint_gives_mindspores_outputs() -> None:
    net = make_net(seed=99)
    param_not_load, ckpt_not_load = ms.load_param_into_net(net, ms.load_checkpoint(CKPT))
    assert (param_not_load, ckpt_not_load) == ([], ["epoch_num", "lr", "note"])
    expected = fixture_outputs("mindspore")
    seq, img = run(net, expected["ids"], expected["image"])
    assert_close(seq, expected["seq"], rtol=1e-4, scale_rtol=1e-5, min_scale=1.0, what="sequence output")
    assert_close(img, expected["img"], rtol=1e-4, scale_rtol=1e-5, min_scale=1.0, what="image output")


def test_load_checkpoint_returns_what_mindspore_returns() -> None:
    loaded = ms.load_checkpoint(CKPT)
    assert list(loaded) == RECORD["load_keys"]
    assert {k: describe(v) for k, v in loaded.items()} == RECORD["load_types"]


LOAD_CASES: dict[str, dict[str, Any]] = {
    "filter_fc": {"filter_prefix": "fc"},
    "specify_bn_gn": {"specify_prefix": ["bn", "gn"]},
    "specify_bn_filter_bn_gamma": {"specify_prefix": "bn", "filter_prefix": "bn.gamma"},
    "choice_lstm": {"choice_func": lambda n: n.startswith("lstm")},
    "choice_ignored_with_specify": {"specify_prefix": "emb", "choice_func": lambda n: n.startswith("lstm")},
    "filter_everything": {"filter_prefix": ("emb", "lstm", "ln", "fc", "conv", "bn", "gn", "epoch", "lr", "note")},
    "filter_empty_string": {"filter_prefix": ["fc", ""]},
    "filter_not_str": {"filter_prefix": 3},
    "crc_check_without_trailer": {"crc_check": True},
}


def test_every_recorded_load_case_is_replayed() -> None:
    assert set(RECORD["load_checkpoint"]) == {*LOAD_CASES, "missing_file"}
    assert set(RECORD["load_param_into_net"]) == set(_into_cases())


@pytest.mark.parametrize("case", sorted(LOAD_CASES))
def test_load_checkpoint_filters(case: str) -> None:
    got = outcome(lambda: list(ms.load_checkpoint(CKPT, **LOAD_CASES[case])), CKPT)
    assert got == RECORD["load_checkpoint"][case]


def test_missing_file_message() -> None:
    absent = CKPT + ".absent.ckpt"
    assert outcome(lambda: ms.load_checkpoint(absent), absent) == RECORD["load_checkpoint"]["missing_file"]


def _into_cases() -> dict[str, Callable[[], Any]]:
    full = ms.load_checkpoint(CKPT)
    values = random_values({p.name: tuple(p.shape) for p in make_net().get_parameters()})

    def into(params: dict[str, Any], strict: bool = False) -> Any:
        return ms.load_param_into_net(make_net(), params, strict_load=strict)

    def renamed(prefix: str) -> dict[str, Any]:
        return {prefix + k: Parameter(Tensor(v), name=prefix + k) for k, v in values.items()}

    def replaced(name: str, value: Any) -> dict[str, Any]:
        out = dict(full)
        out[name] = value
        return out

    fewer = dict(full)
    del fewer["fc.bias"]
    fewer["extra.w"] = Parameter(Tensor(np.ones(2, np.float32)), name="extra.w")
    half = replaced("fc.weight", Parameter(Tensor(values["fc.weight"].astype(np.float16)), name="fc.weight"))
    return {
        "full": lambda: into(full),
        "full_strict": lambda: into(full, True),
        "filtered_fc": lambda: into(ms.load_checkpoint(CKPT, filter_prefix="fc")),
        "prefixed": lambda: into(renamed("backbone.")),
        "prefixed_strict": lambda: into(renamed("backbone."), True),
        "prefixed_partly": lambda: into({**{k: v for k, v in full.items() if not k.startswith("fc.")},
                                         **{f"head.{k}": v for k, v in renamed("").items() if k.startswith("fc.")}}),
        "missing_and_extra": lambda: into(fewer),
        "wrong_shape": lambda: into(replaced("fc.weight", Parameter(Tensor(np.ones((8, 5), np.float32)),
                                                                    name="fc.weight"))),
        "trailing_one": lambda: into(replaced("fc.bias", Parameter(Tensor(values["fc.bias"].reshape(8, 1)),
                                                                   name="fc.bias"))),
        "float16_value": lambda: into(half),
        "float16_value_strict": lambda: into(half, True),
        "int_value_for_float": lambda: into(replaced("fc.bias", Parameter(Tensor(np.arange(8, dtype=np.int32)),
                                                                          name="fc.bias"))),
        "str_value_for_param": lambda: into(replaced("fc.bias", "not a tensor")),
        "tensor_value": lambda: into({"fc.bias": Tensor(values["fc.bias"])}),
        "not_a_dict": lambda: into([("fc.bias", full["fc.bias"])]),  # type: ignore[arg-type]
    }


@pytest.mark.parametrize("case", sorted(RECORD["load_param_into_net"]))
def test_load_param_into_net_cases(case: str) -> None:
    got = outcome(_into_cases()[case], CKPT)
    want = dict(RECORD["load_param_into_net"][case])
    if "message" in want:  # the class path of MindSpore's Tensor is MindSpore's own
        want["message"] = want["message"].replace("mindspore.common.tensor.Tensor", "cellonnx.tensor.Tensor")
    assert got == want


def test_loaded_values_after_prefix_retry_and_cast() -> None:
    values = random_values({p.name: tuple(p.shape) for p in make_net().get_parameters()})
    net = make_net()
    ms.load_param_into_net(net, {"backbone." + k: Parameter(Tensor(v), name=k) for k, v in values.items()})
    assert np.array_equal(net.fc.weight.asnumpy(), values["fc.weight"]) == RECORD["prefixed_values_loaded"]
    half = dict(ms.load_checkpoint(CKPT))
    half["fc.weight"] = Parameter(Tensor(values["fc.weight"].astype(np.float16)), name="fc.weight")
    ms.load_param_into_net(net, half)
    assert str(net.fc.weight.dtype) == RECORD["float16_value_loaded_dtype"]
    np.testing.assert_array_equal(net.fc.weight.asnumpy(), values["fc.weight"].astype(np.float16).astype(np.float32))


@pytest.mark.parametrize("case, name, kwargs", [("no_extension", "plain", {}), ("other_extension", "w.bin", {}),
                                                ("safetensors_name", "w.ckpt", {"format": "safetensors"})])
def test_save_file_names(tmp_path: Path, case: str, name: str, kwargs: dict[str, Any]) -> None:
    ms.save_checkpoint(make_net(), str(tmp_path / name), **kwargs)
    files = sorted(os.listdir(tmp_path))
    if case in KNOWN_DIFFERENCES:
        assert files == KNOWN_DIFFERENCES[case][0] != RECORD["save_checkpoint"][case]["files"]
    else:
        assert files == RECORD["save_checkpoint"][case]["files"]


def test_save_objects_load_back_as_in_mindspore(tmp_path: Path) -> None:
    objects = {"list_of_dicts": [{"name": "a", "data": Tensor(np.ones(2, np.float32))},
                                 {"name": "b", "data": Parameter(Tensor(np.zeros(3, np.float32)), name="p")}],
               "list_of_parameters": [Parameter(Tensor(np.ones(2, np.float32)), name="pa")],
               "dict_of_parameters": {"c": Parameter(Tensor(np.ones(2, np.float32)), name="other")},
               "choice_on_cell": make_net()}
    for case, obj in objects.items():
        path = str(tmp_path / f"{case}.ckpt")
        kwargs: dict[str, Any] = {"choice_func": lambda n: n.startswith("fc")} if case == "choice_on_cell" else {}
        ms.save_checkpoint(obj, path, append_dict={"step": 5, "tag": "x"}, **kwargs)
        got = {k: describe(v) for k, v in ms.load_checkpoint(path).items()}
        assert got == RECORD["save_checkpoint"][case]["keys"], case


def test_save_errors_as_in_mindspore(tmp_path: Path) -> None:
    tmp = str(tmp_path)
    cases = {"bad_save_obj": lambda: ms.save_checkpoint(3, os.path.join(tmp, "x.ckpt")),
             "bad_append_dict": lambda: ms.save_checkpoint([], os.path.join(tmp, "y.ckpt"), append_dict={"k": [1, 2]}),
             "bad_async": lambda: ms.save_checkpoint([], os.path.join(tmp, "z.ckpt"), async_save="later"),
             "directory": lambda: ms.save_checkpoint([], tmp)}
    for case, fn in cases.items():
        assert outcome(fn, tmp) == RECORD["save_checkpoint"][case], case
