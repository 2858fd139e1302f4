"""Dims declared dynamic stay symbolic in the exported graph whatever the example's size: every op that takes
a shape, a size or a count is exported from a batch-1 example (where broadcast_to, tile, reshape ... by the
batch are no-ops) and run by onnxruntime at batches 1, 2 and 5 against eager execution. And ms.verify tells a
baked-in dim from a numerical difference."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
import pytest

import cellonnx as ms
from cellonnx import Parameter, Tensor, nn, ops
from cellonnx.graph.symint import SymInt
from cellonnx.graph.verify import compare
from cellonnx.ops.registry import REGISTRY
from tests.tolerance import assert_close

P = np.arange(4, dtype=np.float32).reshape(1, 1, 4) / 4


def _cases() -> dict[str, Callable[[Any, Tensor], Tensor]]:
    """name -> construct(self, x) for x of shape (batch, 3, 4); self.p is a (1, 1, 4) Parameter."""
    return {
        "broadcast_to -1": lambda s, x: ops.concat((ops.broadcast_to(s.p, (x.shape[0], -1, -1)), x), 1),
        "Tensor.broadcast_to": lambda s, x: ops.concat((s.p.broadcast_to((x.shape[0], 1, 4)), x), 1),
        "broadcast_to then add": lambda s, x: x + ops.broadcast_to(s.p, (x.shape[0], 3, 4)),
        "expand_as": lambda s, x: x * s.p.expand_as(x),
        "tile": lambda s, x: ops.concat((ops.tile(s.p, (x.shape[0], 1, 1)), x), 1),
        "Tensor.tile": lambda s, x: ops.concat((s.p.tile((x.shape[0], 1, 1)), x), 1),
        "tile of a lower rank": lambda s, x: ops.tile(s.p[0], (x.shape[0], 3, 1)) + x,
        "repeat_interleave by the batch": lambda s, x: ops.repeat_interleave(s.p, x.shape[0], 0)
        .reshape(-1, 4).sum(0) + x,
        "Tensor.repeat by the batch": lambda s, x: s.p.repeat(x.shape[0], 1).reshape(-1, 4).sum(0) + x,
        "reshape a weight by the batch": lambda s, x: ops.concat(
            (ops.reshape(s.p * ops.ones((x.shape[0], 1, 1), dtype=ms.float32), (x.shape[0], 1, 4)), x), 1),
        "reshape by the batch": lambda s, x: ops.reshape(x, (x.shape[0], -1)),
        "view by the batch": lambda s, x: x.view(x.shape[0], 12),
        "flatten": lambda s, x: ops.flatten(x),
        "zeros": lambda s, x: ops.concat((ops.zeros((x.shape[0], 1, 4), dtype=ms.float32), x), 1),
        "ones": lambda s, x: ops.concat((ops.ones((x.shape[0], 1, 4), dtype=ms.float32), x), 1),
        "full": lambda s, x: ops.concat((ops.full((x.shape[0], 1, 4), 2.0), x), 1),
        "arange": lambda s, x: x + ops.arange(x.shape[0]).astype(ms.float32).reshape(-1, 1, 1),
        "arange with a step": lambda s, x: x + ops.arange(0, x.shape[0] * 2, 2).astype(ms.float32)
        .reshape(-1, 1, 1),
        "eye": lambda s, x: x + ops.eye(x.shape[0], dtype=ms.float32).sum(1).reshape(-1, 1, 1),
        "narrow": lambda s, x: ops.narrow(x, 0, 0, x.shape[0]) * 2,
        "slice": lambda s, x: ops.slice(x, (0, 0, 0), (x.shape[0], 2, 4)),
        "getitem": lambda s, x: x[:x.shape[0]] * 2,
        "standard_normal": lambda s, x: ops.standard_normal((x.shape[0], 3, 4)) * 0 + x,
        "Tensor of the batch": lambda s, x: x + Tensor(x.shape[0], ms.float32),
        "divide by the batch": lambda s, x: x.sum(0) / x.shape[0],
        "multiply by the batch": lambda s, x: x * x.shape[0],
        "ops.div by the batch": lambda s, x: ops.div(x, x.shape[0]),
        "an int modulo the batch": lambda s, x: x * (7 % x.shape[0]),
        "roll by half the batch": lambda s, x: ops.roll(x, x.shape[0] // 2, 0),
    }


class _Net(nn.Cell):
    def __init__(self, fn: Callable[[Any, Tensor], Tensor]) -> None:
        super().__init__()
        self.fn = fn
        self.p = Parameter(Tensor(P), name="p")

    def construct(self, x: Tensor) -> Tensor:
        return self.fn(self, x)


def _x(batch: int, shape: tuple = (3, 4)) -> np.ndarray:
    return np.random.default_rng(batch).standard_normal((batch, *shape)).astype(np.float32)


def _export_at_batch_1(net: nn.Cell, tmp_path: Path, shape: tuple = (3, 4)) -> ort.InferenceSession:
    net.set_inputs(Tensor(shape=[None, *shape], dtype=ms.float32))
    path = ms.export(net, Tensor(_x(1, shape)), file_name=str(tmp_path / "net"))
    return ort.InferenceSession(path, providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("case", list(_cases()))
def test_an_op_that_is_a_no_op_at_batch_1_still_reads_the_batch(case: str, tmp_path: Path) -> None:
    net = _Net(_cases()[case])
    sess = _export_at_batch_1(net, tmp_path)
    for batch in (1, 2, 5):
        x = _x(batch)
        (got,) = sess.run(None, {sess.get_inputs()[0].name: x})
        assert_close(got, net(Tensor(x)).asnumpy(), what=f"{case} at batch {batch}")


class _ViT(nn.Cell):
    """Patch embedding, a class token broadcast over the batch, position embeddings, one attention-free
    block and a head on the class token: the shape of a ViT's front and back."""

    def __init__(self) -> None:
        super().__init__()
        self.patch = nn.Conv2d(3, 8, 4, stride=4, has_bias=True)
        self.cls_token = Parameter(Tensor(np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 1, 8)),
                                   name="cls_token")
        self.pos = Parameter(Tensor(np.linspace(0, 1, 5 * 8, dtype=np.float32).reshape(1, 5, 8)), name="pos")
        self.norm = nn.LayerNorm((8,))
        self.head = nn.Dense(8, 3)

    def construct(self, x: Tensor) -> Tensor:
        x = self.patch(x)
        x = ops.transpose(ops.reshape(x, (x.shape[0], x.shape[1], -1)), (0, 2, 1))
        cls = ops.broadcast_to(self.cls_token, (x.shape[0], -1, -1))
        x = ops.concat((cls, x), axis=1) + self.pos
        return self.head(self.norm(x)[:, 0])


def test_a_vit_class_token_exported_at_batch_1_runs_at_every_batch(tmp_path: Path) -> None:
    ms.set_seed(0)
    net = _ViT()
    net.set_train(False)
    sess = _export_at_batch_1(net, tmp_path, (3, 8, 8))
    for batch in (1, 2, 5):
        x = _x(batch, (3, 8, 8))
        (got,) = sess.run(None, {sess.get_inputs()[0].name: x})
        assert_close(got, net(Tensor(x)).asnumpy(), what=f"batch {batch}")
    report = ms.verify(net, Tensor(_x(1, (3, 8, 8))))
    assert report.passed, str(report)


def test_a_symbolic_dim_equals_no_constant_but_equals_itself() -> None:
    batch = SymInt(1, lambda g: "batch")
    assert batch != 1 and not batch == 1 and (batch, 4) != (1, 4)
    assert batch == SymInt(1, lambda g: "batch") and (batch, 4) == (batch, 4)
    assert isinstance(batch + 1, SymInt) and int(batch + 1) == 2 and batch < 2


# ---------------------------------------------------------------- verify: which cause
def test_the_tolerance_scales_with_the_output() -> None:
    want = np.array([1e4, 1e-3, -2e3], np.float32)
    noise = want + np.array([0.0, 1e-2, 0.0], np.float32)  # rounding of a sum of large terms near zero
    e = compare("out", noise, want, rtol=1e-4, atol=0.0, scale_rtol=1e-5)
    assert e.ok and e.scale == pytest.approx(1e4) and e.max_rel == pytest.approx(1e-6, rel=1e-2)
    off = want * np.float32(1.01)
    e = compare("out", off, want, rtol=1e-4, atol=0.0, scale_rtol=1e-5)
    assert not e.ok and e.status == "MISMATCH" and e.max_rel == pytest.approx(0.01, rel=1e-3)
    e = compare("out", want[:2], want, rtol=1e-4, atol=0.0, scale_rtol=1e-5)
    assert e.status == "SHAPE" and not e.shape_ok
    small = np.array([1e-8, 2e-8])  # no absolute floor: a tiny output is compared at its own scale
    assert not compare("out", small * 2, small, 1e-4, 0.0, 1e-5).ok


def _scale_lowering(monkeypatch: pytest.MonkeyPatch, op: str, factor: float) -> None:
    cls = type(REGISTRY[op])
    original = cls.lower
    monkeypatch.setattr(cls, "lower", lambda self, g, *xs, **attrs: g.op(
        "Mul", original(self, g, *xs, **attrs), g.like(factor)))


def _bake(monkeypatch: pytest.MonkeyPatch, op: str) -> None:
    """The op's lowering writes the example's sizes as constants instead of reading the symbolic dims."""
    cls = type(REGISTRY[op])
    original = cls.lower
    monkeypatch.setattr(cls, "lower", lambda self, g, x, *, shape: original(
        self, g, x, shape=tuple(int(d) for d in shape)))


def test_verify_names_a_numerical_difference_not_a_baked_dim(monkeypatch: pytest.MonkeyPatch) -> None:
    _scale_lowering(monkeypatch, "Relu", 1.001)  # 1e-3 off at every size: numbers, not dims
    net = nn.SequentialCell([nn.Dense(4, 5), nn.ReLU(), nn.Dense(5, 2)])
    net.set_inputs(Tensor(shape=[None, 4], dtype=ms.float32))
    report = ms.verify(net, Tensor(_x(3, (4,))))
    assert not report.passed and not report.baked_dims
    assert report.cause.startswith("numerical difference: output output: max error")
    assert "of its scale" in report.cause
    assert report.first_divergence is not None and "(Mul)" in report.first_divergence
    assert str(report).splitlines()[-2].startswith("cause: numerical difference")


def test_verify_names_a_baked_dim_where_the_graph_fails_at_another_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _bake(monkeypatch, "BroadcastTo")
    net = _ViT()
    net.set_train(False)
    net.set_inputs(Tensor(shape=[None, 3, 8, 8], dtype=ms.float32))
    report = ms.verify(net, Tensor(_x(1, (3, 8, 8))))
    assert report.outputs[0].ok  # exact at the example's batch of 1 ...
    assert not report.passed and not report.numerical  # ... but the graph fails at batch 2
    assert report.cause.startswith("a dynamic dim was baked in as a constant: the graph fails at input 0 "
                                   "dim 0 = 2"), report.cause


def test_verify_names_a_baked_dim_where_values_differ_at_another_size() -> None:
    net = _Net(lambda s, x: x.sum(0) / int(x.shape[0]))  # int(): the example's batch, a constant
    net.set_inputs(Tensor(shape=[None, 3, 4], dtype=ms.float32))
    report = ms.verify(net, Tensor(_x(1)))
    assert report.outputs[0].ok and not report.passed and not report.numerical, str(report)
    assert report.cause.startswith("a dynamic dim was baked in as a constant: output output differs at "
                                   "input 0 dim 0 = 2 by"), report.cause
    symbolic = _Net(_cases()["divide by the batch"])  # x.shape[0] itself: read from the graph
    symbolic.set_inputs(Tensor(shape=[None, 3, 4], dtype=ms.float32))
    assert ms.verify(symbolic, Tensor(_x(1))).passed
