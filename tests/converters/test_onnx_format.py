"""ONNX checkpoints: initializers of any model, external data (inside the folder only), weight replacement."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from cellonnx.converters import CheckpointError, onnx_format, read, replace_initializers, write
from onnx import TensorProto, external_data_helper, helper, numpy_helper

from tests.converters.helpers import all_dtype_tensors, assert_same


def test_external_data_round_trip(tmp_path: Path) -> None:
    tensors = all_dtype_tensors()
    path = tmp_path / "big.onnx"
    write(path, tensors, external_data=True)
    assert [f.name.startswith("big.onnx.") for f in onnx_format.data_files(path)] == [True]
    model = onnx.load(path, load_external_data=False)
    assert all(external_data_helper.uses_external_data(t) for t in model.graph.initializer)
    assert_same(read(path)[0], tensors)
    onnx.load(path)  # onnx itself reads it


def test_automatic_external_data_past_threshold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_format, "EXTERNAL_THRESHOLD", 100)
    path = tmp_path / "m.onnx"
    write(path, {"w": np.ones((8, 8), np.float32)})
    assert len(onnx_format.data_files(path)) == 1
    assert_same(read(path)[0], {"w": np.ones((8, 8), np.float32)})


@pytest.mark.parametrize("location", ["../outside.bin", "/etc/passwd", "sub/../../outside.bin"])
def test_external_location_outside_folder_is_refused(tmp_path: Path, location: str) -> None:
    folder = tmp_path / "model"
    folder.mkdir()
    (tmp_path / "outside.bin").write_bytes(b"\0" * 64)
    t = onnx_format._external_tensor("w", np.zeros(4, np.float32), location, 0)
    path = folder / "m.onnx"
    path.write_bytes(helper.make_model(helper.make_graph([], "g", [], [], [t])).SerializeToString())
    with pytest.raises(CheckpointError, match="outside the model's folder"):
        read(path)


def test_reads_initializers_of_a_real_model(tmp_path: Path) -> None:
    w = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "fc.weight")
    node = helper.make_node("MatMul", ["x", "fc.weight"], ["y"])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])], [w])
    model = helper.make_model(graph)
    model.metadata_props.add(key="source", value="test")
    onnx.save(model, tmp_path / "m.onnx")
    tensors, meta = read(tmp_path / "m.onnx")
    assert list(tensors) == ["fc.weight"] and meta == {"source": "test"}


def test_replace_initializers_checks_shapes_dtypes_and_names() -> None:
    inits = [numpy_helper.from_array(np.zeros((2, 3), np.float32), "a"),
             numpy_helper.from_array(np.zeros(3, np.int64), "b")]
    model = helper.make_model(helper.make_graph([], "g", [], [], inits))
    report = replace_initializers(model, {"a": np.ones((2, 3), np.float32), "b": np.arange(3)})
    assert report.ok and report.loaded == ["a", "b"]
    assert np.array_equal(numpy_helper.to_array(model.graph.initializer[0]), np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"a: expected shape \(2, 3\), found \(3, 2\)"):
        replace_initializers(model, {"a": np.ones((3, 2), np.float32), "b": np.arange(3)})
    with pytest.raises(ValueError, match="expected dtype int64, found float32"):
        replace_initializers(model, {"a": np.ones((2, 3), np.float32), "b": np.ones(3, np.float32)})
    with pytest.raises(ValueError, match=r"missing 1 .*b \(nearest: bb\)"):
        replace_initializers(model, {"a": np.ones((2, 3), np.float32), "bb": np.arange(3)})
    report = replace_initializers(model, {"a": np.ones((2, 3), np.float32)}, strict=False)
    assert report.missing == ["b"]
