"""SummaryRecord / SummaryCollector / the summary operators: the event files are read back with TensorBoard's
own loader (tensorboard.backend.event_processing), not with the writer's code."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx as ms
import cellonnx.dataset as ds
from cellonnx import nn, ops
from cellonnx.nn import optim
from cellonnx.ops.operations import debug_ops

pytest.importorskip("tensorboardX")
event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")

STEPS_PER_EPOCH, EPOCHS = 4, 2


def _load(folder) -> event_accumulator.EventAccumulator:
    acc = event_accumulator.EventAccumulator(str(folder), size_guidance={
        event_accumulator.SCALARS: 0, event_accumulator.HISTOGRAMS: 0, event_accumulator.IMAGES: 0,
        event_accumulator.TENSORS: 0, event_accumulator.GRAPH: 1})
    acc.Reload()
    return acc


class SmallNet(nn.Cell):
    """conv -> relu -> dense, with a summary operator of each kind inside construct."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="same", has_bias=True)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 8 * 8, 3)
        self.scalar_summary = ops.ScalarSummary()
        self.histogram_summary = ops.HistogramSummary()
        self.image_summary = ops.ImageSummary()
        self.tensor_summary = ops.TensorSummary()

    def construct(self, x):
        h = self.relu(self.conv(x))
        self.scalar_summary("activation_mean", h.mean())
        self.histogram_summary("activation", h)
        self.image_summary("first_channel", h[:, :1])
        self.tensor_summary("logits_row", self.fc(self.flatten(h))[0])
        return self.fc(self.flatten(h))


def _data(n: int, seed: int) -> ds.Dataset:
    rng = np.random.default_rng(seed)
    x = rng.random((n, 1, 8, 8), dtype=np.float32)
    y = (x.reshape(n, -1).mean(1) * 30).astype(np.int32) % 3
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("summary")
    ms.set_seed(1)
    net = SmallNet()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    lr = nn.exponential_decay_lr(0.1, 0.5, STEPS_PER_EPOCH * EPOCHS, STEPS_PER_EPOCH, 1)
    opt = optim.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9)
    model = ms.Model(net, loss_fn, opt, metrics={"accuracy", "loss"})
    losses: list[float] = []
    activation_means: list[float] = []

    class Losses(ms.Callback):  # runs before the collector: sees the operators' values of each step
        def on_train_step_end(self, run_context):
            losses.append(float(run_context.original_args().net_outputs.asnumpy()))
            activation_means.append(float(debug_ops.SUMMARY_DATA["scalar"]["activation_mean"].asnumpy()))

    collector = ms.SummaryCollector(str(folder), collect_freq=2, collect_specified_data={
        "histogram_regular": "^(conv|fc)\\.weight$"})
    model.fit(EPOCHS, _data(32, 0), _data(16, 1), callbacks=[Losses(), collector])
    return folder, _load(folder), losses, lr, net, activation_means


def test_one_event_file_named_as_mindspore(trained) -> None:
    folder, *_ = trained
    files = [p.name for p in folder.iterdir()]
    assert len(files) == 1
    name = files[0]
    assert name.startswith("events.out.tfevents.summary.") and name.endswith("_MS")


def test_loss_and_learning_rate_at_the_collected_steps(trained) -> None:
    _, acc, losses, lr, *_ = trained
    steps = [1, 2, 4, 6, 8]  # the first step, then every collect_freq
    loss = acc.Scalars("loss/auto")
    assert [e.step for e in loss] == steps
    np.testing.assert_allclose([e.value for e in loss], [losses[s - 1] for s in steps], rtol=1e-6)
    rate = acc.Scalars("learning_rate/auto")
    assert [e.step for e in rate] == steps
    np.testing.assert_allclose([e.value for e in rate], [lr[s - 1] for s in steps], rtol=1e-6)


def test_evaluation_metrics_after_each_epoch(trained) -> None:
    _, acc, *_ = trained
    for tag in ("eval/accuracy/auto", "eval/loss/auto"):
        events = acc.Scalars(tag)
        assert [e.step for e in events] == [STEPS_PER_EPOCH, 2 * STEPS_PER_EPOCH]
    assert all(0 <= e.value <= 1 for e in acc.Scalars("eval/accuracy/auto"))


def test_weight_and_gradient_histograms(trained) -> None:
    _, acc, _, _, net, _ = trained
    tags = acc.Tags()["histograms"]
    assert {"conv.weight/auto", "fc.weight/auto", "conv.weight/gradient/auto", "fc.weight/gradient/auto",
            "activation"} <= set(tags)
    assert "conv.bias/auto" not in tags  # histogram_regular picks the weights only
    last = acc.Histograms("conv.weight/auto")[-1]
    assert last.step == 8
    w = net.conv.weight.asnumpy()
    assert last.histogram_value.num == w.size
    np.testing.assert_allclose([last.histogram_value.min, last.histogram_value.max, last.histogram_value.sum],
                               [w.min(), w.max(), w.sum()], rtol=1e-5)
    grads = acc.Histograms("fc.weight/gradient/auto")
    assert [e.step for e in grads] == [1, 2, 4, 6, 8]
    assert all(e.histogram_value.num == net.fc.weight.size for e in grads)
    assert all(e.histogram_value.sum_squares > 0 for e in grads)


def test_summary_operators_and_input_images(trained) -> None:
    _, acc, *_, activation_means = trained
    tags = acc.Tags()
    assert "activation_mean" in tags["scalars"] and "activation" in tags["histograms"]
    steps = [1, 2, 4, 6, 8]
    assert [e.step for e in acc.Scalars("activation_mean")] == steps
    # the training steps' values (not those of the run that traced the graph after step 1)
    np.testing.assert_allclose([e.value for e in acc.Scalars("activation_mean")],
                               [activation_means[s - 1] for s in steps], rtol=1e-6)
    image = acc.Images("first_channel")[0]
    assert (image.width, image.height) == (8 * 8, 8)  # 8 images side by side
    inputs = acc.Images("input_data/auto")
    assert [e.step for e in inputs] == [1, 2, 4, 6, 8] and inputs[0].encoded_image_string[:4] == b"\x89PNG"
    tensors = acc.Tensors("logits_row")
    assert tensors and tensors[0].tensor_proto.tensor_shape.dim[0].size == 3


def test_graph_is_the_onnx_graph_by_cell_scope(trained) -> None:
    _, acc, *_ = trained
    graph = acc.Graph()
    nodes = {n.name: n for n in graph.node}
    assert nodes["conv/Conv"].op == "Conv" and "conv/weight" in nodes["conv/Conv"].input
    assert nodes["conv/weight"].op == "Parameter" and nodes["x"].op == "Input"
    assert any(n.op == "Gemm" and n.name.startswith("fc/") for n in graph.node)
    assert list(nodes["conv/Conv"].attr["kernel_shape"].list.i) == [3, 3]


def test_summary_record_values_and_context_manager(tmp_path) -> None:
    with ms.SummaryRecord(str(tmp_path), file_prefix="xx_", file_suffix="_yy") as record:
        assert record.log_dir.startswith(str(tmp_path)) and record.log_dir.endswith("_yy")
        for step in (1, 2):
            record.add_value("scalar", "loss", ms.Tensor(np.float32(0.5 / step)))
            record.add_value("histogram", "w", ms.Tensor(np.arange(10, dtype=np.float32) * step))
            record.add_value("image", "img", ms.Tensor(np.zeros((2, 3, 4, 5), np.uint8)))
            record.add_value("tensor", "t", ms.Tensor(np.eye(2, dtype=np.float32) * step))
            assert record.record(step)
    acc = _load(tmp_path)
    assert [(e.step, e.value) for e in acc.Scalars("loss")] == [(1, 0.5), (2, 0.25)]
    assert acc.Histograms("w")[1].histogram_value.max == 18
    assert (acc.Images("img")[0].width, acc.Images("img")[0].height) == (10, 4)
    t = acc.Tensors("t")[1].tensor_proto
    np.testing.assert_array_equal(np.frombuffer(t.tensor_content, np.float32).reshape(2, 2), np.eye(2) * 2)
    # closed: a new one may be opened; the closed one records nothing
    assert not record.record(3)
    ms.SummaryRecord(str(tmp_path)).close()


def test_summary_record_errors_as_mindspore(tmp_path) -> None:
    with ms.SummaryRecord(str(tmp_path)) as record:
        with pytest.raises(RuntimeError, match="only one instance is supported"):
            ms.SummaryRecord(str(tmp_path))
        with pytest.raises(ValueError, match="is not a recognized mode"):
            record.set_mode("test")
        with pytest.raises(TypeError, match='"value" expect to be Tensor, but got ndarray'):
            record.add_value("scalar", "x", np.ones(1, np.float32))
        with pytest.raises(ValueError, match='no such "plugin"'):
            record.add_value("audio", "x", ms.Tensor(1.0))
        with pytest.raises(ValueError, match='"name" type should be str'):
            record.add_value("scalar", "", ms.Tensor(1.0))
        with pytest.raises(ValueError, match="the v rank must be less than or equal to 1"):
            record.add_value("scalar", "x", ms.Tensor(np.zeros(3, np.float32)))
        with pytest.raises(ValueError, match="seems not to hold a valid image"):
            record.add_value("image", "x", ms.Tensor(np.zeros((3, 4), np.float32)))
        with pytest.raises(TypeError, match="For `step` the type should be"):
            record.record("1")
    with pytest.raises(TypeError, match="`file_prefix` and `file_suffix`"):
        ms.SummaryRecord(str(tmp_path), file_prefix=1)
    with pytest.raises(TypeError, match="'max_file_size' should be int"):
        ms.SummaryRecord(str(tmp_path), max_file_size=1.5)
    with pytest.raises(ValueError, match="export_options"):
        ms.SummaryRecord(str(tmp_path), export_options={"image_format": "npy"})
    ms.SummaryRecord(str(tmp_path)).close()  # the failed ones did not count


def test_summary_collector_argument_errors(tmp_path) -> None:
    with pytest.raises(ValueError, match="`collect_freq` should be greater than 0"):
        ms.SummaryCollector(str(tmp_path), collect_freq=0)
    with pytest.raises(ValueError, match="of `collect_specified_data` are unsupported"):
        ms.SummaryCollector(str(tmp_path), collect_specified_data={"collect_everything": True})
    with pytest.raises(ValueError, match="not a valid regular expression"):
        ms.SummaryCollector(str(tmp_path), collect_specified_data={"histogram_regular": "("})
    with pytest.raises(TypeError, match="keep_default_action"):
        ms.SummaryCollector(str(tmp_path), keep_default_action=1)


def test_max_file_size_stops_writing(tmp_path) -> None:
    with ms.SummaryRecord(str(tmp_path), max_file_size=200) as record:
        for step in range(50):
            record.add_value("scalar", "loss", ms.Tensor(np.float32(step)))
            record.record(step)
    assert (tmp_path / record.file_info["file_name"]).stat().st_size <= 200
    assert 0 < len(_load(tmp_path).Scalars("loss")) < 50


def test_tensor_export_as_npy(tmp_path) -> None:
    with ms.SummaryRecord(str(tmp_path), export_options={"tensor_format": "npy"}) as record:
        record.add_value("tensor", "w/x", ms.Tensor(np.arange(4, dtype=np.float32)))
        record.record(3)
    (saved,) = list(tmp_path.glob("export_*/tensor/*.npy"))
    assert saved.name == "w%2Fx_3.npy"
    np.testing.assert_array_equal(np.load(saved), np.arange(4))


def test_network_graph_from_its_declared_inputs(tmp_path) -> None:
    net = SmallNet()
    net.set_inputs(ms.Tensor(shape=(None, 1, 8, 8), dtype=ms.float32))
    with ms.SummaryRecord(str(tmp_path), network=net) as record:
        record.add_value("scalar", "x", ms.Tensor(np.float32(1)))
        record.record(1)
        record.record(2)  # the graph is written once
    acc = _load(tmp_path)
    nodes = {n.name: n.op for n in acc.Graph().node}
    assert nodes["conv/Conv"] == "Conv" and nodes["fc/weight"] == "Parameter"
    assert [e.step for e in acc.Scalars("x")] == [1]
    assert "activation_mean" not in acc.Tags()["scalars"]  # the tracing run's values are not recorded


def test_collector_in_model_eval_records_the_metrics(tmp_path) -> None:
    ms.set_seed(2)
    net = SmallNet()
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     optim.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"accuracy"})
    result = model.eval(_data(16, 1), callbacks=[ms.SummaryCollector(str(tmp_path))])
    events = _load(tmp_path).Scalars("eval/accuracy/auto")
    assert [(e.step, e.value) for e in events] == [(0, pytest.approx(result["accuracy"]))]
    assert "activation_mean" not in _load(tmp_path).Tags()["scalars"]  # operators are not recorded in eval
