"""Every test starts from cellonnx's default context: a test (or a reference page's example) that switches to
GRAPH_MODE or changes another context key must not change how later tests in the same worker run."""
from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _restore_context() -> Iterator[None]:
    from cellonnx import context

    saved = (context.mode, context.device_target, context.device_id, dict(context._extra))
    yield
    context.mode, context.device_target, context.device_id = saved[:3]
    context._extra.clear()
    context._extra.update(saved[3])
