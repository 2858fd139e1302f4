"""Splits over a dynamic axis. Where the number of pieces is fixed (tensor_split into k sections or at
indices, vsplit, MindSpore's Split(output_num), GLU's halves, NumPy-style and MXNet splits into k parts,
the symbol interpreter's _split_v2), the pieces' sizes are graph values and one graph is right at every
size. Where it follows the axis' size
(a split into pieces of a given size, chunk, unbind / unstack), a tuple cannot follow it: tracing raises
StaticDimRequired naming the line (a compiled step then traces that axis static). The decision is the
dim's own: a dim the graph's inputs make dynamic refuses, a static one (a reshape to (batch, -1) of a
(batch, 3, 4) input) splits."""
from __future__ import annotations

import linecache
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import onnxruntime as ort
import pytest

from cellonnx import ops
from cellonnx.graph.trace import StaticDimRequired, flatten_outputs, trace
from cellonnx.tensor import Tensor
from tests.tolerance import assert_close


def _mx_split(x: Tensor) -> Any:
    import cellonnx.mxnet as mx
    return mx.nd.split(x, num_outputs=2, axis=0)


def _split_v2(x: Tensor, **kwargs: Any) -> Any:
    from cellonnx.gluon.symbol import ops_extra
    return ops_extra.split_v2(x, **kwargs)


def _mnp(name: str, *args: Any) -> Callable[[Tensor], Any]:
    import cellonnx.numpy as mnp
    return lambda x: getattr(mnp, name)(x, *args)


# name: a function of x (batch, 4) whose number of outputs does not depend on the batch
FIXED_PIECES: dict[str, Callable[[Tensor], Any]] = {
    "tensor_split into 3": lambda x: ops.tensor_split(x, 3, 0),
    "tensor_split into more sections than items": lambda x: ops.tensor_split(x, 9, 0),
    "tensor_split at unordered and negative indices": lambda x: ops.tensor_split(x, [3, 1, -2, 20], 0),
    "vsplit in 2": lambda x: ops.vsplit(x, 2),
    "split at sizes made of the dim": lambda x: ops.split(x, [x.shape[0] - 2, 2], 0),
    "P.Split(output_num=2)": lambda x: ops.Split(0, 2)(x),
    "glu over the batch": lambda x: ops.glu(x, 0),
    "mnp.split in 2": _mnp("split", 2),
    "mnp.array_split in 3": _mnp("array_split", 3),
    "mx.nd.split(num_outputs=2)": _mx_split,
    "symbol op _split_v2 into 3 sections": lambda x: _split_v2(x, axis=0, sections=3),
    "symbol op _split_v2 at indices": lambda x: _split_v2(x, indices=(2, 3), axis=0),
}

# name: a function of x (batch, 4) whose number of outputs is the batch's (or follows it)
PIECES_OF_THE_SIZE: dict[str, Callable[[Tensor], Any]] = {
    "split into pieces of 2": lambda x: ops.split(x, 2, 0),
    "chunk into 3": lambda x: ops.chunk(x, 3, 0),
    "unbind": lambda x: ops.unbind(x, 0),
    "unstack": lambda x: ops.unstack(x, 0),
    "Tensor.split": lambda x: x.split(2, 0),
}


def _session(fn: Callable[[Tensor], Any], shape: tuple, dims: list) -> ort.InferenceSession:
    g, _ = trace(fn, [("x", Tensor(np.ones(shape, np.float32)), dims)])
    return ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("name", sorted(FIXED_PIECES))
def test_a_fixed_number_of_pieces_follows_a_dynamic_axis(name: str) -> None:
    fn = FIXED_PIECES[name]
    session = _session(fn, (6, 4), [None, 4])
    for n in (6, 4, 8, 10):  # even: several rows need it (eager refuses odd halves)
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4)
        want = [t.asnumpy() for t in flatten_outputs(fn(Tensor(x)))]
        got = session.run(None, {"x": x})
        assert [g.shape for g in got] == [w.shape for w in want], f"{name} at batch {n}"
        for g_, w in zip(got, want):
            assert_close(g_, w, rtol=1e-6, what=f"{name} at batch {n}")  # GLU's sigmoid: float rounding


@pytest.mark.parametrize("name", sorted(PIECES_OF_THE_SIZE))
def test_pieces_counted_from_a_dynamic_axis_raise_naming_the_line(name: str) -> None:
    with pytest.raises(StaticDimRequired, match=r"test_dynamic_split.py:\d+ .*number of pieces that depends "
                                                r"on the size of a dim that is dynamic.*example's 6") as info:
        _session(PIECES_OF_THE_SIZE[name], (6, 4), [None, 4])
    inner = re.search(r"\(in (.+):(\d+)\)", str(info.value))   # the library line: the op's call of the check
    assert inner and "pieces_of" in linecache.getline(inner[1], int(inner[2])), str(info.value)


@pytest.mark.parametrize("name", sorted(PIECES_OF_THE_SIZE))
def test_pieces_of_a_static_axis_beside_a_dynamic_one(name: str) -> None:
    fn = PIECES_OF_THE_SIZE[name]

    def of_the_columns(x: Tensor) -> Any:
        return fn(ops.transpose(x, (1, 0)))  # the static 4 columns on axis 0, the batch on axis 1

    session = _session(of_the_columns, (6, 4), [None, 4])
    x = np.arange(20, dtype=np.float32).reshape(5, 4)
    want = [t.asnumpy() for t in flatten_outputs(of_the_columns(Tensor(x)))]
    for g_, w in zip(session.run(None, {"x": x}), want, strict=True):
        np.testing.assert_array_equal(g_, w)


def test_a_split_after_a_reshape_to_batch_and_rest() -> None:
    """(batch, 3, 4) reshaped to (batch, -1) has 12 columns at every batch: the reshape's -1 goes into the
    graph as 12, so shape inference knows that dim, and a split of it into pieces of 5 is one graph."""
    seen = []

    def fn(x: Tensor) -> Any:
        flat = ops.reshape(x, (x.shape[0], -1))
        seen.append(flat.shape)
        return ops.split(flat, 5, 1)

    session = _session(fn, (2, 3, 4), [None, 3, 4])
    assert type(seen[0][1]) is int and seen[0][1] == 12
    for n in (1, 2, 5):
        x = np.arange(n * 12, dtype=np.float32).reshape(n, 3, 4)
        got = session.run(None, {"x": x})
        assert [g.shape for g in got] == [(n, 5), (n, 5), (n, 2)]
        np.testing.assert_array_equal(np.concatenate(got, 1), x.reshape(n, 12))


def test_a_reshape_rest_that_is_a_dynamic_dim_keeps_its_name() -> None:
    """(b, t) reshaped to (b, -1): the -1 is t at every size, and stays t (dynamic: splitting it refuses)."""
    def fn(x: Tensor) -> Any:
        flat = ops.reshape(x * 2, (x.shape[0], -1))
        return ops.split(flat, 2, 1)

    with pytest.raises(StaticDimRequired, match="along axis 1"):
        _session(fn, (2, 4), [None, None])
    session = _session(lambda x: ops.reshape(x * 2, (x.shape[0], -1)), (2, 4), [None, None])
    x = np.ones((3, 5), np.float32)
    np.testing.assert_array_equal(session.run(None, {"x": x})[0], x * 2)


def test_a_dim_inference_cannot_follow_keeps_the_traced_pieces_and_onnxruntime_checks_them() -> None:
    """masked_select's length is the mask's count: no input declares it, so a split of it into pieces of 2
    keeps the traced pieces (3 of 2) rather than refusing, and onnxruntime refuses another count."""
    def fn(x: Tensor) -> Any:
        return ops.split(ops.masked_select(x, x > 0), 2, 0)

    x = np.array([[1, -1, 2], [3, 4, 5]], np.float32)  # the example: 5 positives, pieces (2, 2, 1)
    g, _ = trace(fn, [("x", Tensor(x), [2, 3])])
    session = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
    assert [p.tolist() for p in session.run(None, {"x": x})] == [[1, 2], [3, 4], [5]]
    with pytest.raises(Exception, match="Split"):
        session.run(None, {"x": np.ones((2, 3), np.float32)})  # 6 positives
