"""ops._add_attr: MindSpore 2.10 runs ``fn`` with the attributes handed to its graph's primitives; the numbers
are fn's own (checked on MindSpore's CPU build: ``_add_attr(f, transpose_b=True)`` and a Cell under
``keep_dims=True`` return what ``f`` and the Cell return); a Primitive or a non-callable is a TypeError."""
from __future__ import annotations

import numpy as np
import pytest

from cellonnx import Tensor, nn, ops


def test_runs_fn_with_its_own_numbers_and_keeps_the_attributes() -> None:
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = Tensor(np.ones((2, 3), np.float32))

    def f(a: Tensor, b: Tensor) -> Tensor:
        return ops.matmul(a, b.T) * 2

    g = ops._add_attr(f, transpose_b=True)
    np.testing.assert_array_equal(g(x, y).asnumpy(), [[6.0, 6.0], [24.0, 24.0]])
    assert g.attrs == {"transpose_b": True}

    class Net(nn.Cell):
        def construct(self, a: Tensor) -> Tensor:
            return ops.ReduceSum()(a, 1)

    np.testing.assert_array_equal(ops._add_attr(Net(), keep_dims=True)(x).asnumpy(), [3.0, 12.0])


@pytest.mark.parametrize("fn", [3, ops.Add()])
def test_rejects_primitives_and_non_callables(fn: object) -> None:
    with pytest.raises(TypeError, match="must be callable type except Primitive"):
        ops._add_attr(fn, a=1)
