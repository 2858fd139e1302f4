"""Every layer and op table row traced with each axis eager accepts at other sizes declared dynamic (batch,
sequence, spatial, and channels where nothing fixes them), run by onnxruntime at three other sizes against
eager (tests/graph/dynamic_axes.py). The rows: the layer table (tests/nn/layer_table.py), the Gluon layers and
losses (tests/gluon/layer_cases.py and the extra layers' fixture table), the Gluon 1.x networks
(tests/mxnet/gluon1_cases.py), every op family's OpCase table, and the array APIs' tables: mx.nd's,
mx.nd.contrib's and mx.nd.image's operators in a Gluon 1.x hybrid_forward, mx.np's and mx.npx's functions in a
Gluon 2.x forward (tests/graph/dynamic_axes_mx.py) and cellonnx.numpy's rows (for the op and array API tables
the first input's axes are dynamic; weights and other inputs keep their shapes, except an axis they share with
it).

A row passes when the graph equals eager at every size, or when the tracer refuses a dim it cannot follow in
words (StaticDimRequired: a compiled step then traces that axis static). KNOWN lists the rows that still fail,
with the reason; they run as strict xfails, so a fix shows up as XPASS and must leave the list.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from tests.graph.dynamic_axes import check
from tests.graph.dynamic_axes_known import KNOWN


@dataclass(frozen=True)
class Row:
    name: str
    make: Callable[[], tuple[Callable[..., Any], list[np.ndarray]]]  # -> (function of tensors, inputs)
    data: tuple[int, ...] | None = None  # inputs whose axes may be dynamic (None: every input)
    loose: bool = True  # group axes of inputs by size at any position (layers), or the same axis only (ops)
    context: Callable[[], Any] = contextlib.nullcontext

    def __str__(self) -> str:
        return self.name


def _layer_rows() -> Iterator[Row]:
    from tests.nn.layer_table import CASES
    from tests.nn.test_layers import build, make_inputs

    def make(case: Any) -> Callable[[], tuple]:
        def made() -> tuple:
            layer = build(case)
            layer.set_train(False)
            return (lambda *xs: layer(*xs)), make_inputs(case)
        return made

    for case in CASES:
        if case.onnx is True:
            yield Row(f"nn/{case.name}", make(case))


@contextlib.contextmanager
def _ndarray_semantics() -> Iterator[None]:
    from cellonnx.mxnet import util

    was = util.is_np_array(), util.is_np_shape()
    util.reset_np()
    try:
        yield
    finally:
        util.set_np(shape=was[1], array=was[0])


def _gluon_rows() -> Iterator[Row]:
    from tests.gluon import layer_cases
    from tests.gluon import test_layers_extra as extra

    def make(name: str) -> Callable[[], tuple]:
        def made() -> tuple:
            net = layer_cases.load(name)
            return (lambda *xs: net(*xs)), [layer_cases.expected(name, "x")]
        return made

    def make_extra(name: str) -> Callable[[], tuple]:
        def made() -> tuple:
            block = extra.build(name)
            return (lambda *xs: block(*xs)), [extra.want(name, "x")]
        return made

    def make_loss(name: str) -> Callable[[], tuple]:
        def made() -> tuple:
            block = eval(extra.LOSSES[name][0], extra.NS)
            return (lambda *xs: block(*xs)), extra._loss_inputs(name)
        return made

    for name in layer_cases.CASES:
        if f"{name}__x" in layer_cases.EXPECTED:
            yield Row(f"gluon/{name}", make(name))
    for name in extra.LAYERS:
        yield Row(f"gluon/{name}", make_extra(name), context=_ndarray_semantics)
    for name in extra.LOSSES:
        if not name.startswith("ctc"):  # CTC computes eagerly (it refuses to be traced)
            yield Row(f"gluon/loss/{name}", make_loss(name), context=_ndarray_semantics)


def _op_rows() -> Iterator[Row]:
    from tests.ops.harness import as_run_dtype
    from tests.ops.table import all_cases

    for family, cases in sorted(all_cases().items()):
        for case in cases:
            if case.lower:
                yield Row(f"ops/{family}/{case.name}",
                          (lambda c: lambda: (c.fn, [as_run_dtype(a) for a in c.inputs]))(case), (0,), False)


def _array_api_rows() -> Iterator[Row]:
    from tests.graph import dynamic_axes_mx as mx_rows
    from tests.ops.harness import as_run_dtype

    for name, make, context in mx_rows.nd_rows():
        yield Row(f"mx.nd/{name}", make, (0,), False, context)
    for name, make, context in mx_rows.contrib_rows():
        yield Row(f"mx.nd.contrib/{name}", make, (0,), False, context)
    for name, make, context in mx_rows.image_rows():
        yield Row(f"mx.nd.image/{name}", make, (0,), False, context)
    for name, make, context in mx_rows.gluon1_rows():
        yield Row(f"gluon1/{name}", make, context=context)
    for name, make, context in mx_rows.np_rows():
        yield Row(f"mx.np/{name}", make, (0,), False, context)
    from tests.numpy.cases import CASES
    for case in CASES:
        if case.lower:
            yield Row(f"numpy/{case.name}",
                      (lambda c: lambda: (c.fn, [as_run_dtype(a) for a in c.inputs]))(case), (0,), False)


ROWS = [*_layer_rows(), *_gluon_rows(), *_op_rows(), *_array_api_rows()]


def _params() -> list[Any]:
    return [pytest.param(r, marks=pytest.mark.xfail(reason=KNOWN[r.name], strict=True))
            if r.name in KNOWN else r for r in ROWS]


@pytest.mark.parametrize("row", _params(), ids=str)
def test_graph_with_dynamic_axes_equals_eager_at_other_sizes(row: Row) -> None:
    with row.context():
        fn, arrays = row.make()
        check(fn, arrays, row.name, data=row.data, loose=row.loose)


def test_known_rows_exist() -> None:
    names = {r.name for r in ROWS}
    assert not set(KNOWN) - names, sorted(set(KNOWN) - names)
