"""AMP's dynamic loss scale: MXNet 1.9.1's schedule (start at 2**16; halve after a step whose gradients hold
an inf or NaN, which the Trainer then skips; double after 2000 clean steps in a row, at most 2**24)."""
from __future__ import annotations

import logging
from typing import Any

import numpy as np

__all__ = ["LossScaler"]


class LossScaler:
    """Dynamic loss scaler for AMP.

    ``loss_scale`` is the current scale; ``has_overflow(params)`` checks the parameters' gradients, moves the
    scale to the one decided at the previous check and decides the next: half of it on an overflow, twice it
    after ``2000`` steps without one (capped at ``2**24``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.amp import LossScaler
        >>> p = mx.gluon.Parameter("w", shape=(2,))
        >>> p.initialize()
        >>> p.grad()[:] = mx.nd.array([1.0, np.inf])
        >>> ls = LossScaler()
        >>> ls.has_overflow([p]), ls.loss_scale, ls.has_overflow([p]), ls.loss_scale
        (True, 65536.0, True, 32768.0)
    """

    def __init__(self) -> None:
        self._loss_scale = 2.0**16
        self._next_loss_scale = self._loss_scale
        self._max_loss_scale = 2.0**24
        self._scale_seq_len = 2000
        self._unskipped = 0

    @property
    def loss_scale(self) -> float:
        """The current loss scale."""
        return self._loss_scale

    def has_overflow(self, params: Any) -> bool:
        """Whether a gradient of ``params`` (Parameters) holds an inf or NaN; advances the scale schedule."""
        grads = [_grad(p) for p in params]
        finite = all(bool(np.isfinite(g).all()) for g in grads if g is not None)
        has_overflow = not finite
        self._loss_scale = self._next_loss_scale
        if has_overflow:
            self._next_loss_scale = self._loss_scale / 2.0
            self._unskipped = 0
            logging.info("AMP: decreasing loss scale to %f", self._next_loss_scale)
        else:
            self._unskipped += 1
        if self._unskipped == self._scale_seq_len:
            self._unskipped = 0
            self._next_loss_scale = min(self._max_loss_scale, self._loss_scale * 2.0)
            logging.info("AMP: increasing loss scale to %f", self._next_loss_scale)
        return has_overflow


def _grad(param: Any) -> np.ndarray | None:
    """A Parameter's gradient as an array (None when it has none)."""
    if getattr(param, "grad_req", "write") == "null":
        return None
    grad = param.grad
    if callable(grad):
        grad = grad()
    if grad is None:
        return None
    data = getattr(grad, "_data", grad)
    return np.asarray(data, dtype=np.float64) if np.asarray(data).dtype.kind != "f" else np.asarray(data)
