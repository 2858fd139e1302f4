"""The op registry's one table-driven test: every row of every family table (tests/ops/cases_*.py) checks
forward, gradient and lowering; the completeness test fails when a registered primitive has no row."""
from __future__ import annotations

import pytest

from cellonnx.ops import registry
from tests.ops.harness import check_forward, check_grad, check_lowering, lowering_params
from tests.ops.table import all_cases

TABLES = all_cases()
CASES = [c for cases in TABLES.values() for c in cases]

# primitives exercised only through another op's gradient or a layer test say so here, with the reason
COVERED_ELSEWHERE: dict[str, str] = {}
# the collectives need several MPI ranks: tests/communication runs them under mpirun against NumPy
COVERED_ELSEWHERE.update({name: "tests/communication (mpirun)"
                          for name in ("AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce",
                                       "AlltoAll", "AllGatherV", "ReduceScatterV", "AlltoAllV",
                                       "NeighborExchange", "NeighborExchangeV2", "NeighborExchangeV2Grad")})


def test_case_names_unique() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})


@pytest.mark.parametrize("case", CASES, ids=str)
def test_forward(case) -> None:
    check_forward(case)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_gradient(case) -> None:
    check_grad(case)


@pytest.mark.parametrize("case,opset", lowering_params(CASES), ids=lambda v: str(v))
def test_lowering(case, opset) -> None:
    check_lowering(case, opset)


def test_every_primitive_has_a_row() -> None:
    """Run every row (forward and backward) recording which primitives fire."""
    from cellonnx import ops
    from cellonnx.tensor import Tensor
    from tests.ops.harness import _grad_indices, _projected, as_run_dtype

    seen: set[str] = set()
    saved = registry.TRACE_HOOK
    registry.TRACE_HOOK = lambda op, *_: seen.add(op.name)
    try:
        for case in CASES:
            case.fn(*[Tensor(as_run_dtype(a)) for a in case.inputs])
            idx = _grad_indices(case)
            if idx:
                f, _ = _projected(case, idx, None)
                import numpy as np
                ops.value_and_grad(f, grad_position=tuple(range(len(idx))))(
                    *[Tensor(np.asarray(case.inputs[i], dtype=np.float64)) for i in idx])
    finally:
        registry.TRACE_HOOK = saved
    missing = sorted(set(registry.REGISTRY) - seen - set(COVERED_ELSEWHERE))
    assert not missing, f"registered primitives with no row in tests/ops/cases_*.py: {missing}"
