"""cellonnx.numpy: every topic module's names arrive, no name is defined by two modules, and ``ms.numpy`` is
reachable from ``import cellonnx as ms`` (as ``mindspore.numpy`` is from ``import mindspore``)."""
from __future__ import annotations

import re
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


def test_dot_shape_error_names_the_axes_numpy_names() -> None:
    import numpy as np
    import pytest

    for a, b in (((2, 3), (2, 3)), ((2, 3), (2,)), ((4, 2, 3), (5, 2, 6))):
        with pytest.raises(ValueError) as numpy_error:
            np.dot(np.ones(a), np.ones(b))
        numbers = numpy_error.value.args[0].split("not aligned: ")[1]   # "3 (dim 1) != 2 (dim 0)"
        with pytest.raises(ValueError, match=rf"dot: shapes {re.escape(str(a))} and {re.escape(str(b))} "
                                             rf"are not aligned: {re.escape(numbers)}$"):
            mnp.dot(mnp.ones(a), mnp.ones(b))
