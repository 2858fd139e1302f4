"""ops.FusedAdaFactor and ops.FusedAdaFactorWithGlobalNorm against MindSpore 2.10 on CPU
(tests/fixtures/mindspore/gen_pending_ops.py): every combination of the three flags, on a factored (2, 3, 4)
and a vector (5,) parameter, the parameter and all four states compared after one step."""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from tests.tolerance import assert_close

FIX = np.load(Path(__file__).parents[2] / "fixtures/mindspore/pending_ops/adafactor.npz")
NAMES = ("p", "ea", "row", "col", "sq")
RUNS = [(f"{''.join(str(int(f)) for f in flags)}", "FusedAdaFactor", flags, None)
        for flags in itertools.product((False, True), repeat=3)]
RUNS += [(f"n{i}", "FusedAdaFactorWithGlobalNorm", (True, True, True), norm)
         for i, norm in enumerate((0.5, 3.0))]


@pytest.mark.parametrize("tag", ["m", "v"])
@pytest.mark.parametrize("key, op, flags, norm", RUNS)
def test_matches_mindspore(tag, key, op, flags, norm):
    params = [ms.Parameter(ms.Tensor(FIX[f"{tag}_{n}"].copy()), name=n) for n in NAMES]
    extra = () if norm is None else (ms.Tensor(np.float32(norm)),)
    prim = getattr(ops, op)(*flags)
    out = prim((1e-30, 1e-3), 1.0, 0.9, 0.8, 1e-2, 0.03, ms.Tensor(FIX[f"{tag}_g"]), *params, *extra)
    assert isinstance(out, tuple) and len(out) == 1 and out[0].shape == params[0].shape
    for name, param in zip(NAMES, params):
        assert_close(param.asnumpy(), FIX[f"{tag}{key}_{name}"], rtol=1e-6)


def test_errors():
    with pytest.raises(TypeError, match="enable_first_moment"):
        ops.FusedAdaFactor(enable_first_moment=1)
    p = ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="w")
    with pytest.raises(ValueError, match="grad_shape"):
        ops.FusedAdaFactor()((1e-30, 1e-3), 1.0, 0.9, 0.8, 0.0, 0.1, ms.Tensor(np.ones(3, np.float32)),
                             p, p, p, p, p)
