"""Gluon's autograd surface: ``record()`` / ``pause()`` scopes, the training flag and ``backward``.

MXNet records operations only inside ``autograd.record()`` and runs layers such as Dropout and BatchNorm in
training mode only while ``is_training()``. Here the recording flag drives cellonnx's grad mode (the tape records
an op when grad mode is on and an input requires grad), and the training flag is what gluon layers read.
Outside both scopes grad mode is left as it is (on by default, as in cellonnx), so recording is not refused
there; it simply is not needed.

Examples:
    >>> from cellonnx import gluon
    >>> from cellonnx.gluon import autograd, nn
    >>> net = nn.Dense(2, in_units=3)
    >>> net.initialize()
    >>> loss_fn = gluon.loss.L2Loss()
    >>> x, y = Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32))
    >>> with autograd.record():
    ...     loss = loss_fn(net(x), y)
    >>> loss.backward()
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cellonnx.autograd.tape import run_backward, set_grad_enabled
from cellonnx.tensor import Tensor

__all__ = ["backward", "grad", "is_recording", "is_training", "mark_variables", "pause", "predict_mode", "record",
           "set_recording", "set_training", "train_mode"]
__all__ += ["Function"]
__all__ += ["get_symbol"]


class _State(threading.local):
    recording = False
    training = False


_state = _State()


def is_recording() -> bool:
    """Whether operations are being recorded for ``backward`` (inside ``record()``)."""
    return _state.recording


def is_training() -> bool:
    """Whether layers run in training mode (Dropout drops, BatchNorm uses batch statistics)."""
    return _state.training


def set_recording(is_recording: bool) -> bool:
    """Set the recording flag (and grad mode with it); returns the previous flag."""
    prev = _state.recording
    _state.recording = bool(is_recording)
    return prev


def set_training(train_mode: bool) -> bool:
    """Set the training flag; returns the previous flag."""
    prev = _state.training
    _state.training = bool(train_mode)
    return prev


@contextmanager
def _scope(recording: bool | None, training: bool | None) -> Iterator[None]:
    prev_rec, prev_train = _state.recording, _state.training
    if recording is not None:
        _state.recording = recording
    if training is not None:
        _state.training = training
    try:
        if recording is None:
            yield
        else:
            with set_grad_enabled(recording):
                yield
    finally:
        _state.recording, _state.training = prev_rec, prev_train


def record(train_mode: bool = True) -> Any:
    """Scope in which operations are recorded for ``backward``.

    Args:
        train_mode: also run layers in training mode inside the scope. Default: True.
    """
    return _scope(True, bool(train_mode))


def pause(train_mode: bool = False) -> Any:
    """Scope in which nothing is recorded (inside ``record()``, for code that must not be differentiated).

    Args:
        train_mode: run layers in training mode inside the scope. Default: False.
    """
    return _scope(False, bool(train_mode))


def train_mode() -> Any:
    """Scope that runs layers in training mode without changing recording."""
    return _scope(None, True)


def predict_mode() -> Any:
    """Scope that runs layers in inference mode without changing recording."""
    return _scope(None, False)


def _as_list(x: Any) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def backward(heads: Any, head_grads: Any = None, retain_graph: bool = False, train_mode: bool = True) -> None:
    """Back-propagate from ``heads`` into the ``.grad`` of every parameter and marked variable they depend on.

    Args:
        heads: a Tensor or a list of Tensors.
        head_grads: their gradients (ones where None). Default: None.
        retain_graph: accepted for compatibility (the tape keeps what it needs). Default: False.
        train_mode: accepted for compatibility. Default: True.
    """
    outs = _as_list(heads)
    grads = _as_list(head_grads) or [None] * len(outs)
    if len(grads) != len(outs):
        raise ValueError(f"backward: {len(grads)} head gradients given for {len(outs)} heads")
    run_backward(outs, grads, accumulate=True)


def grad(heads: Any, variables: Any, head_grads: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, train_mode: bool = True) -> list[Tensor | None]:
    """The gradients of ``heads`` with respect to ``variables``, returned (not stored in ``.grad``).

    Args:
        heads: a Tensor or a list of Tensors.
        variables: the Tensors (marked with ``attach_grad`` or parameters) to differentiate against.
        head_grads: gradients of the heads (ones where None). Default: None.
        create_graph: record the backward pass so the result can be differentiated again. Default: False.

    Returns:
        A list with one gradient per variable.
    """
    outs = _as_list(heads)
    grads = _as_list(head_grads) or [None] * len(outs)
    wrt = _as_list(variables)
    return run_backward(outs, grads, create_graph=create_graph, wrt=wrt)


def mark_variables(variables: Any, gradients: Any, grad_reqs: Any = "write") -> None:
    """Mark tensors as variables whose gradient ``backward`` computes (``attach_grad`` for several at once);
    for NDArrays, ``backward`` writes ('write') or adds ('add') into the given ``gradients`` arrays, as MXNet
    does."""
    vs, gs = _as_list(variables), _as_list(gradients)
    reqs = [grad_reqs] * len(vs) if isinstance(grad_reqs, str) else list(grad_reqs)
    if not len(vs) == len(gs) == len(reqs):
        raise ValueError(f"mark_variables: {len(vs)} variables, {len(gs)} gradients and {len(reqs)} grad_reqs")
    for v, g, req in zip(vs, gs, reqs):
        v.attach_grad(req)
        if g is not None and req != "null":
            v.grad = g
            v.__dict__["_grad_buffer"] = g  # an NDArray's backward writes (or adds) into g itself



from cellonnx.gluon.autograd_function import Function  # noqa: E402 - it builds on the tape this module drives


def get_symbol(x: Any) -> Any:
    """MXNet's ``autograd.get_symbol``: the recorded computation that produced ``x`` as an mx.sym Symbol
    (cellonnx.mxnet.autograd_symbol)."""
    from cellonnx.mxnet.autograd_symbol import get_symbol as _get_symbol

    return _get_symbol(x)
