"""SummaryCollector's collect_landscape and SummaryLandscape against MindSpore 2.10
(tests/fixtures/mindspore/gen_landscape.py): the checkpoints and train_metadata.json a training saves, and the
PCA and random landscapes (grid axes, losses, the path through the checkpoints, the convergence point)
computed from MindSpore's own checkpoints, the random directions drawn after the same ``np.random.seed``."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Tensor, nn
from cellonnx.checkpoint import load_checkpoint, save_checkpoint
from cellonnx.train import Loss, Model, SummaryCollector, SummaryLandscape
from tests.tolerance import assert_close

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore" / "landscape"
SPEC = {"landscape_size": 4, "unit": "step", "num_samples": 16, "intervals": [[1, 2, 3, 4]],
        "create_landscape": {"train": True, "result": True}}


def data() -> Any:
    x = np.random.RandomState(0).rand(32, 4).astype(np.float32)
    y = np.arange(32, dtype=np.int32) % 2
    return ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)


def loss_fn() -> nn.Cell:
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def callback_fn() -> tuple:
    network = nn.Dense(4, 2)
    metrics = {"Loss": Loss()}
    return Model(network, loss_fn(), metrics=metrics), network, data(), metrics


def _fixture() -> tuple[dict, dict]:
    return dict(np.load(FIX / "landscape.npz")), json.loads((FIX / "metadata.json").read_text())


def test_training_saves_mindspores_checkpoints_and_metadata(tmp_path: Path) -> None:
    z, meta = _fixture()
    net = nn.Dense(4, 2)
    for p in net.get_parameters():
        p.set_data(Tensor(z[f"init/{p.name}"]))
    collector = SummaryCollector(str(tmp_path / "summary"),
                                 collect_specified_data={"collect_landscape": SPEC})
    model = Model(net, loss_fn(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(1, data(), callbacks=[collector])
    ckpt_dir = tmp_path / "summary" / "ckpt_dir"
    got = json.loads((ckpt_dir / "train_metadata.json").read_text())
    files = got["model_params_file_map"]
    assert all(Path(v).parent == ckpt_dir for v in files.values())
    got["model_params_file_map"] = {k: os.path.basename(v) for k, v in files.items()}
    assert got == meta["train_metadata"]
    for step, path in files.items():
        for name, p in load_checkpoint(path).items():
            assert_close(p.asnumpy(), z[f"ckpt/{step}/{name}"], 1e-5, 1e-6)


def _summary_from_mindspores_checkpoints(root: Path) -> Path:
    z, meta = _fixture()
    ckpt_dir = root / "ckpt_dir"
    ckpt_dir.mkdir(parents=True)
    data_ = dict(meta["train_metadata"])
    files = {}
    for step, name in data_["model_params_file_map"].items():
        files[step] = str(ckpt_dir / name)
        save_checkpoint([{"name": n, "data": Tensor(z[f"ckpt/{step}/{n}"])} for n in ("weight", "bias")],
                        files[step])
    data_["model_params_file_map"] = files
    (ckpt_dir / "train_metadata.json").write_text(json.dumps(data_))
    return root


def test_pca_and_random_landscapes_match_mindspore(tmp_path: Path) -> None:
    z, meta = _fixture()
    landscape = SummaryLandscape(str(_summary_from_mindspores_checkpoints(tmp_path / "s")))
    landscapes = landscape._list_landscapes(callback_fn, None, [0])
    pca = next(landscapes)
    np.random.seed(0)  # the random directions are the next draws, as in the fixture
    found = [pca, next(landscapes)]
    assert [interval for interval, _ in found] == [m["interval"] for m in meta["landscapes"]]
    for (_, got), want in zip(found, meta["landscapes"]):
        assert (got.decomposition, got.unit, got.step_per_epoch) == (want["decomposition"], want["unit"],
                                                                     want["step_per_epoch"])
        kind = "pca" if got.decomposition == "PCA" else "random"
        parts = {"landscape": got.landscape, "convergence_point": got.convergence_point}
        if kind == "pca":
            parts["loss_path"] = got.loss_path
            np.testing.assert_array_equal(got.intervals, z["pca/intervals"])
        for part, points in parts.items():
            for axis, value in zip("xyz", points):
                assert_close(np.asarray(value, np.float64), z[f"{kind}/{part}/{axis}"], 1e-5, 1e-5)


def test_the_landscapes_are_written_as_summary_tensors(tmp_path: Path) -> None:
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
    from tensorboard.util.tensor_util import make_ndarray

    root = _summary_from_mindspores_checkpoints(tmp_path / "s")
    z, _ = _fixture()
    SummaryLandscape(str(root)).gen_landscapes_with_multi_process(callback_fn, device_ids=[3],
                                                                  output=str(tmp_path / "out"))
    tags = {}
    for f in sorted((tmp_path / "out").glob("events*")):
        for event in EventFileLoader(str(f)).Load():
            for v in event.summary.value:
                tags[v.tag] = make_ndarray(v.tensor)
    assert "landscape_[1, 4]/loss_path/z" in tags and "landscape_[4]/convergence_point/z" in tags
    assert_close(tags["landscape_[1, 4]/landscape/z"], z["pca/landscape/z"], 1e-5, 1e-5)
    assert tags["landscape_[4]/landscape/z"].shape == (4, 4)


def test_collect_landscape_overrides_and_worker_processes(tmp_path: Path) -> None:
    root = _summary_from_mindspores_checkpoints(tmp_path / "s")
    landscape = SummaryLandscape(str(root))
    landscape.gen_landscapes_with_multi_process(
        callback_fn, collect_landscape={"landscape_size": 3, "intervals": [[2, 3, 4]],
                                        "create_landscape": {"train": True, "result": False}},
        device_ids=[0, 1])
    meta = json.loads((root / "ckpt_dir" / "train_metadata.json").read_text())
    assert meta["landscape_size"] == 3 and meta["epoch_group"] == {"0": [2, 3, 4]}
    single = SummaryLandscape(str(root))
    (interval, got), = single._list_landscapes(callback_fn, None, [0])
    assert interval == [2, 4] and got.landscape.z.shape == (3, 3)
    landscape.clean_ckpt()
    assert not (root / "ckpt_dir").exists()


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"device_ids": None}, TypeError, "device_ids"),
    ({"device_ids": [8]}, ValueError, "between 0 and 7"),
    ({"device_ids": [0], "collect_landscape": {"size": 3}}, ValueError, "key of collect landscape"),
    ({"device_ids": [0], "collect_landscape": {"landscape_size": 2}}, ValueError, "between 3 and 256"),
    ({"device_ids": [0], "collect_landscape": {"intervals": [[1, 2]]}}, ValueError, "less than three"),
])
def test_argument_checks(tmp_path: Path, kwargs: dict, error: type, match: str) -> None:
    root = _summary_from_mindspores_checkpoints(tmp_path / "s")
    with pytest.raises(error, match=match):
        SummaryLandscape(str(root)).gen_landscapes_with_multi_process(callback_fn, **kwargs)


def test_no_metadata_is_a_file_not_found_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="train_metadata.json"):
        SummaryLandscape(str(tmp_path)).gen_landscapes_with_multi_process(callback_fn, device_ids=[0])


def test_collector_checks_collect_landscape(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unit"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_landscape": SPEC | {"unit": "x"}})
    with pytest.raises(TypeError, match="intervals"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_landscape": {"landscape_size": 4}})
