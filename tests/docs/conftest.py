"""Docstring examples run in the test process: whatever global mode an example switches on (MXNet's NumPy
semantics, a MindSpore context key) is switched back after each test, so no later test sees it."""
from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _examples_leave_global_modes_as_they_were() -> Iterator[None]:
    from cellonnx import context
    from cellonnx.mxnet import util

    saved_context = (context.mode, context.device_target, context.device_id, dict(context._extra))
    saved_np = (util.is_np_shape(), util.is_np_array(), util.is_np_default_dtype())
    yield
    context.mode, context.device_target, context.device_id = saved_context[:3]
    context._extra.clear()
    context._extra.update(saved_context[3])
    util.reset_np()
    shape, array, dtype = saved_np
    if shape or array or dtype:
        util.set_np(shape=shape, array=array, dtype=dtype)
