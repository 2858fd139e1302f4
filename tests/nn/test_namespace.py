"""cellonnx.nn: every package's and module's public names arrive, and no name is defined twice."""
from __future__ import annotations

from collections import Counter

from cellonnx import nn


def test_no_name_defined_twice() -> None:
    counts = Counter(nn.__all__)
    assert [name for name, n in counts.items() if n > 1] == []


def test_every_name_is_exported() -> None:
    for module in nn._modules:
        for name in module.__all__:
            assert getattr(nn, name) is getattr(module, name), f"{module.__name__}.{name}"
