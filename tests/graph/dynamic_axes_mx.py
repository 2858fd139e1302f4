"""Rows of the dynamic-axes check (tests/graph/test_dynamic_axes.py) for the array APIs over cellonnx.ops:
mx.nd's, mx.nd.contrib's and mx.nd.image's operators (tests/mxnet/nd_cases.py, contrib_cases.py, the image
operators' fixture table) called as ``F.<op>`` / ``F.contrib.<op>`` / ``F.image.<op>`` in a Gluon 1.x
``hybrid_forward``, mx.np's and mx.npx's functions (tests/mxnet/np_cases.py) in a Gluon 2.x ``forward``, and
cellonnx.numpy's table (tests/numpy/cases.py, whose functions mx.np reuses). Each row's function calls its
block: eagerly that runs the block's forward, and while the check traces it, the block runs as a hybridized
block's trace runs it (``F`` is mx.sym, the inputs are traced arrays of the API's class).

A row's arrays (positional, in lists, or keywords) are the check's inputs; the first is the data whose axes
may be dynamic, the others keep their shapes except an axis they share with it (the op tables' rule).
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

Made = tuple[Callable[..., Any], list[np.ndarray]]


class _Slot:
    """Where the row's ``i``-th array goes in its call."""

    def __init__(self, i: int) -> None:
        self.i = i


def _slots(args: list, kwargs: dict) -> tuple[list, dict, list[np.ndarray]]:
    """The call's arguments with each array replaced by a slot, and the arrays in slot order."""
    arrays: list[np.ndarray] = []

    def take(v: Any) -> Any:
        if isinstance(v, np.ndarray):
            arrays.append(v)
            return _Slot(len(arrays) - 1)
        if isinstance(v, (list, tuple)) and any(isinstance(x, np.ndarray) for x in v):
            return type(v)(take(x) for x in v)
        return v

    return [take(v) for v in args], {k: take(v) for k, v in kwargs.items()}, arrays


def _fill(v: Any, xs: tuple, cls: type) -> Any:
    if isinstance(v, _Slot):
        x = xs[v.i]
        x.__class__ = cls  # the API's array class, as the block's caller passes it (the same tensor)
        return x
    if isinstance(v, (list, tuple)) and any(isinstance(x, _Slot) for x in v):
        return type(v)(_fill(x, xs, cls) for x in v)
    return v


@contextlib.contextmanager
def _semantics(np_array: bool) -> Iterator[None]:
    from cellonnx.mxnet import util

    was = util.is_np_array(), util.is_np_shape()
    if np_array:
        util.set_np()
    else:
        util.reset_np()
    try:
        yield
    finally:
        util.set_np(shape=was[1], array=was[0])


def np_semantics() -> Any:
    return _semantics(True)


def nd_semantics() -> Any:
    return _semantics(False)


@contextlib.contextmanager
def _nd_semantics_training() -> Iterator[None]:
    from cellonnx.mxnet import autograd

    with _semantics(False), autograd.train_mode():
        yield


def _nd_block(op: str, args: list, kwargs: dict, contrib: bool) -> Any:
    from cellonnx.gluon import HybridBlock
    from cellonnx.mxnet.ndarray import NDArray

    class NDOp(HybridBlock):
        def hybrid_forward(self, F: Any, *xs: Any) -> Any:
            fn = F.contrib if contrib else F
            for part in op.split("."):
                fn = getattr(fn, part)
            return fn(*[_fill(a, xs, NDArray) for a in args], **{k: _fill(v, xs, NDArray)
                                                                  for k, v in kwargs.items()})

    return NDOp()


def _np_block(name: str, args: list, kwargs: dict) -> Any:
    from cellonnx.gluon import HybridBlock
    from cellonnx.mxnet.numpy import ndarray
    from tests.mxnet.test_np_ops import _function

    class NPOp(HybridBlock):
        def forward(self, *xs: Any) -> Any:
            return _function(name)(*[_fill(a, xs, ndarray) for a in args],
                                   **{k: _fill(v, xs, ndarray) for k, v in kwargs.items()})

    return NPOp()


def nd_rows() -> Iterator[tuple[str, Callable[[], Made], Callable[[], Any]]]:
    """(name, make, context) of each mx.nd row with an array argument; rows passing ``out=`` (multi-tensor
    updates writing into their arguments) return nothing to compare and are left out."""
    from tests.mxnet import nd_cases

    def make(case: tuple) -> Callable[[], Made]:
        def made() -> Made:
            case_id, op, args, kwargs, flags = case
            slotted, kw, arrays = _slots(nd_cases.make_args(case_id, args), dict(kwargs))
            block = _nd_block(op, slotted, kw, bool(flags.get("contrib")))
            return (lambda *xs: block(*xs)), arrays
        return made

    for case in nd_cases.CASES:
        case_id, _, args, _, flags = case
        if "out" in flags or not any(isinstance(a, (nd_cases.F, nd_cases.I, nd_cases.K)) for a in args):
            continue
        yield case_id, make(case), (_nd_semantics_training if flags.get("train") else nd_semantics)


def contrib_rows() -> Iterator[tuple[str, Callable[[], Made], Callable[[], Any]]]:
    """(name, make, context) of each mx.nd.contrib row (tests/mxnet/contrib_cases.py) but the updates, which
    write into their arguments."""
    from tests.mxnet import contrib_cases

    def make(case: tuple) -> Callable[[], Made]:
        def made() -> Made:
            case_id, op, args, kwargs, _ = case
            slotted, kw, arrays = _slots(contrib_cases.make(case_id, args), dict(kwargs))
            block = _nd_block(op, slotted, kw, True)
            return (lambda *xs: block(*xs)), arrays
        return made

    for case in contrib_cases.CASES:
        if not {"update", "out"} & set(case[4]):
            yield case[0], make(case), nd_semantics


def image_rows() -> Iterator[tuple[str, Callable[[], Made], Callable[[], Any]]]:
    """(name, make, context) of each mx.nd.image row (tests/fixtures/mxnet/gen_image_ops.py's table, as
    tests/mxnet/test_image_ops.py runs it) but those whose call MXNet refuses."""
    from tests.mxnet import test_image_ops as image

    def make(case: tuple) -> Callable[[], Made]:
        def made() -> Made:
            _, op, src, kwargs = case
            block = _nd_block(f"image.{op}", [_Slot(0)], dict(kwargs), False)
            return (lambda *xs: block(*xs)), [np.array(image._input(src))]
        return made

    for case in image.CASES:
        if f"{case[0]}/error" not in image.WANT.files:
            yield case[0], make(case), nd_semantics


def gluon1_rows() -> Iterator[tuple[str, Callable[[], Made], Callable[[], Any]]]:
    """(name, make, context) of each Gluon 1.x network of tests/mxnet/gluon1_cases.py (name scopes, shared
    parameters, ``hybrid_forward(F, x)`` over F's operators), built and initialized as test_gluon1.py does."""
    from tests.mxnet import gluon1_cases, test_gluon1

    def make(case: str) -> Callable[[], Made]:
        def made() -> Made:
            net, x = test_gluon1.build(case)
            return (lambda *xs: net(*xs)), [x.asnumpy()]
        return made

    for case in sorted(gluon1_cases.CASES):
        yield case, make(case), nd_semantics


def np_rows() -> Iterator[tuple[str, Callable[[], Made], Callable[[], Any]]]:
    """(name, make, context) of each mx.np / mx.npx row with an array argument."""
    from tests.mxnet import np_cases

    def make(case: tuple) -> Callable[[], Made]:
        def made() -> Made:
            case_id, name, args, kwargs = case
            slotted, kw, arrays = _slots(*np_cases.make_call(case_id, args, kwargs))
            block = _np_block(name, slotted, kw)
            return (lambda *xs: block(*xs)), arrays
        return made

    def has_array(v: Any) -> bool:
        return isinstance(v, (np_cases.A, np_cases.J)) or \
            (isinstance(v, (list, tuple)) and any(map(has_array, v)))

    for case in np_cases.CASES:
        if any(map(has_array, [*case[2], *case[3].values()])):
            yield case[0], make(case), np_semantics
