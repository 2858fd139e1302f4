"""cellonnx.numpy: every topic module's names arrive, no name is defined by two modules, and ``ms.numpy`` is
reachable from ``import cellonnx as ms`` (as ``mindspore.numpy`` is from ``import mindspore``)."""
from __future__ import annotations

from collections import Counter

import cellonnx
import cellonnx.numpy as mnp


def test_no_name_in_two_modules() -> None:
    counts = Counter(name for module in mnp.MODULES for name in module.__all__)
    assert [name for name, n in counts.items() if n > 1] == []


def test_every_module_name_is_exported() -> None:
    for module in mnp.MODULES:
        for name in module.__all__:
            assert getattr(mnp, name) is getattr(module, name), f"{module.__name__}.{name}"


def test_reachable_from_the_package() -> None:
    assert cellonnx.numpy is mnp
    assert mnp.abs is mnp.absolute and mnp.sum is mnp.reductions.sum_ and mnp.bitwise_not is mnp.invert
