"""mxboard's SummaryWriter: what it writes is read back with TensorBoard's own event loader."""
from __future__ import annotations

import io

import numpy as np
import pytest

from cellonnx import gluon
from cellonnx.mxboard import SummaryWriter
from cellonnx.tensor import Tensor

pytest.importorskip("tensorboardX")
event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
Image = pytest.importorskip("PIL.Image")


def _load(folder):
    acc = event_accumulator.EventAccumulator(str(folder), size_guidance={
        event_accumulator.SCALARS: 0, event_accumulator.HISTOGRAMS: 0, event_accumulator.IMAGES: 0,
        event_accumulator.TENSORS: 0, event_accumulator.GRAPH: 1})
    acc.Reload()
    return acc


def _net():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(8, activation="relu", in_units=4), gluon.nn.Dense(2, in_units=8))
    net.initialize()
    net.hybridize()
    net(Tensor(np.ones((3, 4), np.float32)))
    return net


def test_scalars_histograms_images_text_and_graph(tmp_path) -> None:
    net = _net()
    weight = net[0].weight.data().asnumpy()
    with SummaryWriter(logdir=str(tmp_path), filename_suffix=".run") as sw:
        for step in range(3):
            sw.add_scalar(tag="cross_entropy", value=1.0 / (step + 1), global_step=step)
        sw.add_histogram(tag="dense0.weight", values=net[0].weight.data(), global_step=2)
        sw.add_histogram(tag="uniform", values=np.linspace(0, 1, 101), global_step=2, bins=10)
        sw.add_image(tag="batch", image=np.random.default_rng(0).random((5, 1, 6, 7)), global_step=1)
        sw.add_image(tag="signed", image=np.array([[-1.0, 0.0], [0.5, 1.0]]), global_step=1)
        sw.add_text(tag="note", text="lr 0.1", global_step=0)
        sw.add_graph(net)
    (name,) = [p.name for p in tmp_path.iterdir()]
    assert "tfevents" in name and name.endswith(".run")
    acc = _load(tmp_path)
    assert [(e.step, round(e.value, 6)) for e in acc.Scalars("cross_entropy")] == [(0, 1.0), (1, 0.5),
                                                                                     (2, 0.333333)]
    h = acc.Histograms("dense0.weight")[0].histogram_value
    assert h.num == weight.size
    np.testing.assert_allclose([h.min, h.max, h.sum], [weight.min(), weight.max(), weight.sum()], rtol=1e-5)
    assert sum(acc.Histograms("uniform")[0].histogram_value.bucket) == 101
    image = acc.Images("batch")[0]
    assert (image.width, image.height) == (3 * 7, 2 * 6)  # five images on a 3 x 2 grid
    signed = np.asarray(Image.open(io.BytesIO(acc.Images("signed")[0].encoded_image_string)))[..., 0]
    np.testing.assert_array_equal(signed, [[0, 128], [191, 255]])  # 0.0 at the middle grey
    assert acc.Tensors("note/text_summary")[0].tensor_proto.string_val == [b"lr 0.1"]
    graph = acc.Graph()
    ops = {n.op for n in graph.node}
    assert {"Input", "Parameter", "Gemm", "Relu", "Output"} <= ops
    assert any(n.name.startswith("0/") and n.op == "Gemm" for n in graph.node)


def test_bad_values_name_the_method(tmp_path) -> None:
    with SummaryWriter(str(tmp_path)) as sw:
        with pytest.raises(ValueError, match="add_scalar: 'x' needs one value"):
            sw.add_scalar("x", np.zeros(3))
        with pytest.raises(ValueError, match="add_image: expected an image"):
            sw.add_image("x", np.zeros((2, 5, 4, 4)))
        with pytest.raises(TypeError, match="add_graph: expected a HybridBlock"):
            sw.add_graph(42)
