"""Every layer of the layer table (tests/nn/layer_table.py) exported once with a dynamic leading axis:
onnxruntime equals eager at sizes 1, 3 and 8; the graph is valid at every opset 13..21; and, where a GPU is
present, the CUDA execution provider gives the same numbers."""
from __future__ import annotations

import zlib

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from cellonnx.graph.builder import MAX_OPSET, MIN_OPSET
from cellonnx.graph.compile import serialize, trace_cell
from cellonnx.graph.runtime import Session
from cellonnx.tensor import Tensor
from tests.nn.layer_table import CASES, LayerCase
from tests.nn.test_layers import build, flat
from tests.tolerance import assert_close

EXPORTABLE = [c for c in CASES if c.onnx is True]
HAS_CUDA = "CUDAExecutionProvider" in ort.get_available_providers()
RTOL, SCALE_RTOL = 1e-4, 1e-5  # SCALE_RTOL: of the output's scale, at least 1


def _inputs_at(case: LayerCase, n: int, seed: int = 0) -> list[np.ndarray]:
    """The row's inputs with the leading axis (of every input sharing the first input's leading size) set to n."""
    lead = case.inputs[0].shape[0] if case.inputs[0].shape else None
    rng = np.random.default_rng(zlib.crc32(case.name.encode()) + seed)
    arrays = []
    for spec in case.inputs:
        shape = spec.shape
        if shape and shape[0] == lead:
            shape = (n,) + shape[1:]
        arrays.append(spec.draw(rng, shape))
    return arrays


def _dynamic_signatures(case: LayerCase) -> list[Tensor]:
    lead = case.inputs[0].shape[0] if case.inputs[0].shape else None
    sigs = []
    for spec in case.inputs:
        shape = tuple(None if i == 0 and spec.shape and spec.shape[0] == lead else d for i, d in enumerate(spec.shape))
        sigs.append(Tensor(shape=shape, dtype=spec.dtype) if None in shape else Tensor(np.zeros(spec.shape, spec.dtype)))
    return sigs


def _export(case: LayerCase, opset: int | None = None):
    layer = build(case)
    layer.set_train(False)
    examples = [Tensor(a) for a in _inputs_at(case, 2)]
    layer.set_inputs(*_dynamic_signatures(case))
    traced = trace_cell(layer, examples, opset)
    return layer, traced


def _check(layer, traced, case: LayerCase, sizes, device: str = "CPU") -> None:
    sess = Session(serialize(traced.model), device)
    for n in sizes:
        arrays = _inputs_at(case, n, seed=n)
        eager = [t.asnumpy() for t in flat(layer(*[Tensor(a) for a in arrays]))]
        feeds = {name: arrays[pos] for name, pos in zip(traced.input_names, traced.input_positions)}
        got = sess.run(feeds)
        assert len(got) == len(eager), f"{case.name}: {len(got)} outputs, eager has {len(eager)}"
        for k, (g, e) in enumerate(zip(got, eager)):
            assert g.shape == e.shape, f"{case.name} output {k} at size {n}: onnxruntime {g.shape}, eager {e.shape}"
            assert_close(g, e, rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0,
                         what=f"{case.name} output {k} at size {n}")


@pytest.mark.parametrize("case", EXPORTABLE, ids=str)
def test_layer_export_matches_eager_at_three_batch_sizes(case: LayerCase) -> None:
    layer, traced = _export(case)
    onnx.checker.check_model(traced.model, full_check=True)
    _check(layer, traced, case, (1, 3, 8))


@pytest.mark.parametrize("opset", range(MIN_OPSET, MAX_OPSET + 1))
def test_layer_table_valid_at_every_opset(opset: int) -> None:
    for case in EXPORTABLE:
        layer, traced = _export(case, opset)
        onnx.checker.check_model(traced.model, full_check=True)
        _check(layer, traced, case, (3,))


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_CUDA, reason="needs onnxruntime-gpu and a CUDA device")
@pytest.mark.parametrize("case", EXPORTABLE, ids=str)
def test_layer_export_on_cuda(case: LayerCase) -> None:
    layer, traced = _export(case)
    _check(layer, traced, case, (1, 3, 8), device="GPU")


def test_table_rows_that_cannot_export_say_why() -> None:
    for case in CASES:
        assert case.onnx is True or (isinstance(case.onnx, str) and case.onnx), case.name




def test_same_pooling_with_dynamic_spatial_dims() -> None:
    """MaxPool2d 'same' with a stride traces its padding from the runtime height and width; AvgPool2d's 'same'
    (ops.avg_pool2d) needs static spatial dims and says so."""
    from cellonnx import nn

    layer = nn.MaxPool2d(3, 2, pad_mode="same")
    layer.set_inputs(Tensor(shape=(None, 2, None, None), dtype="float32"))
    traced = trace_cell(layer, [Tensor(np.random.default_rng(0).random((2, 2, 7, 9), np.float32))])
    sess = Session(serialize(traced.model), "CPU")
    for hw in ((5, 6), (8, 8), (11, 4)):
        x = np.random.default_rng(sum(hw)).random((3, 2, *hw), np.float32)
        np.testing.assert_array_equal(sess.run({traced.input_names[0]: x})[0], layer(Tensor(x)).asnumpy())
    avg = nn.AvgPool2d(3, 2, pad_mode="same")
    avg.set_inputs(Tensor(shape=(None, 2, None, None), dtype="float32"))
    with pytest.raises(NotImplementedError, match="static spatial dims"):
        trace_cell(avg, [Tensor(np.zeros((2, 2, 7, 9), np.float32))])
