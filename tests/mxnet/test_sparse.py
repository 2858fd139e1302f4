"""mx.nd.sparse against MXNet 1.9.1 (tests/fixtures/mxnet/gen_sparse.py): CSR and row-sparse creation,
storage casts, their components (data, indices, indptr), ``dot`` with MXNet's output storage types and the
gradient of a weight multiplied by a CSR matrix. Values are compared exactly (no arithmetic) or with
tests/tolerance.py (products)."""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet import autograd, nd
from cellonnx.tensor import Tensor
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
sys.path.insert(0, str(FIXTURES))
from gen_sparse import op_cases, sparse_inputs  # noqa: E402

X = sparse_inputs()
with np.load(FIXTURES / "sparse.npz") as _f:
    WANT = {k: _f[k] for k in _f.files}


def _csr() -> Any:
    return nd.sparse.csr_matrix((X["csr_data"], X["csr_indices"], X["csr_indptr"]), shape=(4, 5))


CASES: dict[str, Callable[[], Any]] = {
    "csr_from_parts": _csr,
    "csr_from_dense": lambda: nd.sparse.csr_matrix(X["matrix"]),
    "csr_tostype": lambda: nd.array(X["matrix"]).tostype("csr"),
    "csr_to_default": lambda: _csr().tostype("default"),
    "csr_zeros": lambda: nd.sparse.zeros("csr", (3, 4)),
    "csr_float64": lambda: nd.sparse.csr_matrix(X["matrix"], dtype="float64"),
    "rsp_from_parts": lambda: nd.sparse.row_sparse_array((X["rows"], X["row_indices"]), shape=(4, 3)),
    "rsp_tostype": lambda: nd.array(X["matrix"]).tostype("row_sparse"),
    "rsp_zeros": lambda: nd.sparse.zeros("row_sparse", (3, 2)),
    "cast_storage": lambda: nd.cast_storage(nd.array(X["matrix"]), stype="csr"),
    "dot_csr_dense": lambda: nd.sparse.dot(_csr(), nd.array(X["rhs"])),
    "dot_csrT_dense": lambda: nd.sparse.dot(_csr(), nd.array(X["probe"]), transpose_a=True),
    "dot_dense_csr": lambda: nd.sparse.dot(nd.array(X["lhs"]), _csr()),
    "dot_dense_csr_default": lambda: nd.sparse.dot(nd.array(X["lhs"]), _csr(), forward_stype="default"),
    "nd_dot_csr_dense": lambda: nd.dot(_csr(), nd.array(X["rhs"])),
}


def test_every_recorded_case_has_a_row() -> None:
    recorded = {k.split("/")[0] for k in WANT} - {"meta", "dot_grad", "op"}
    assert recorded == set(CASES)
    assert {k.split("/")[1] for k in WANT if k.startswith("op/")} == set(OPS)


OPS = op_cases(nd, X)


def _stored(parts: dict[str, np.ndarray]) -> dict[tuple[int, ...], Any]:
    """Stored position -> value, for components whose order is the producing kernel's (MXNet's merge of two
    CSR patterns leaves columns unsorted and slack past indptr[-1])."""
    if "indptr" in parts:
        n = int(parts["indptr"][-1])
        rows = np.repeat(np.arange(parts["indptr"].size - 1), np.diff(parts["indptr"]))
        return {(int(r), int(c)): v for r, c, v in zip(rows, parts["indices"][:n], parts["data"][:n])}
    return {(int(i),): tuple(np.ravel(row)) for i, row in zip(parts["indices"], parts["data"])}


def _check(case: str, arr: Any, exact_order: bool = True) -> None:
    assert isinstance(arr, mx.nd.NDArray)
    assert arr.stype == str(WANT[f"{case}/stype"]), f"{case}: storage {arr.stype}"
    dense = WANT[f"{case}/dense"]
    assert arr.dtype == dense.dtype, f"{case}: dtype {arr.dtype}, MXNet {dense.dtype}"
    assert_close(arr.asnumpy(), dense, 1e-6, 1e-7, f"{case}: values")
    parts = {p: WANT[f"{case}/{p}"] for p in ("data", "indices", "indptr") if f"{case}/{p}" in WANT}
    for part, want in parts.items():
        got = getattr(arr, part).asnumpy()
        assert got.dtype == want.dtype, f"{case}/{part}: dtype {got.dtype}, MXNet {want.dtype}"
        if exact_order:
            assert_close(got, want, 1e-6, 1e-7, f"{case}/{part}")
    if parts and not exact_order:
        got, want = _stored({p: getattr(arr, p).asnumpy() for p in parts}), _stored(parts)
        assert got.keys() == want.keys(), f"{case}: stored positions {sorted(got)}, MXNet {sorted(want)}"
        for pos in want:
            assert_close(np.asarray(got[pos]), np.asarray(want[pos]), 1e-6, 1e-7, f"{case}: value at {pos}")


@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_mxnet(case: str) -> None:
    _check(case, CASES[case]())


@pytest.mark.parametrize("case", sorted(OPS))
def test_operator_matches_mxnet(case: str) -> None:
    """The storage type MXNet gives, the values, and the stored positions and values where the result is
    sparse (in MXNet's order for the arrays given as parts)."""
    _check(f"op/{case}", OPS[case](), exact_order=case in ("raw", "copy_rsp", "retain_rsp"))


def test_dot_gradient_matches_mxnet() -> None:
    weight = nd.array(X["rhs"])
    weight.attach_grad()
    with autograd.record():
        loss = (nd.sparse.dot(_csr(), weight) * nd.array(X["probe"])).sum()
    loss.backward()
    assert_close(weight.grad.asnumpy(), WANT["dot_grad/grad"], 1e-6, 1e-7, "gradient of the dense weight")


def test_scipy_round_trip_and_errors() -> None:
    csr = _csr()
    back = nd.sparse.array(csr.asscipy())
    assert back.stype == "csr"
    np.testing.assert_array_equal(back.asnumpy(), X["matrix"])
    with pytest.raises(ValueError, match="csr_matrix"):
        nd.sparse.csr_matrix((X["csr_data"], X["csr_indices"], X["csr_indptr"]), shape=(3, 5))
    with pytest.raises(ValueError, match="storage type"):
        nd.array(X["matrix"]).tostype("coo")


def test_storage_holds_only_the_stored_values() -> None:
    """A sparse array as large as MXNet 1.9.1 allows (2e9 elements) holds its stored values only; dot and the
    sparse kernels never make its dense value."""
    big = nd.sparse.zeros("csr", (100_000, 20_000))
    assert big.shape == (100_000, 20_000) and big.data.shape == (0,) and big.indptr.shape == (100_001,)
    rows = np.array([0, 5, 99_999])
    m = nd.sparse.csr_matrix((np.ones(3, np.float32), np.array([7, 3, 19_999]), np.searchsorted(
        rows, np.arange(100_001), side="left").astype(np.int64)), shape=(100_000, 20_000))
    w = nd.array(np.arange(40_000, dtype=np.float32).reshape(20_000, 2))
    out = nd.sparse.dot(m, w)
    np.testing.assert_array_equal(out.asnumpy()[rows], w.asnumpy()[[7, 3, 19_999]])
    grad = nd.sparse.dot(m, nd.ones((100_000, 2)), transpose_a=True)
    assert grad.stype == "row_sparse" and grad.indices.asnumpy().tolist() == [3, 7, 19_999]
    assert (m * 2).stype == "csr" and nd.sqrt(m).data.shape == (3,)
    assert Tensor.__dict__["_data"].__get__(m) is None  # no dense value was made


def test_dense_fallback_leaves_the_stored_values_alone() -> None:
    csr = _csr()
    out = nd.exp(csr)  # MXNet's storage fallback: a dense result
    assert out.stype == "default"
    assert_close(out.asnumpy(), np.exp(X["matrix"]), 1e-6, 1e-7, "exp of the dense value")
    with pytest.raises(ValueError, match="read-only"):
        csr._data[0, 0] = 5.0  # the dense value is a snapshot: writes go through csr[:] = ...
    csr[:] = np.full((4, 5), 2.0, np.float32)
    assert csr.stype == "csr" and csr.data.shape == (20,)
    assert_close(nd.exp(csr).asnumpy(), np.full((4, 5), np.exp(2.0)), 1e-6, 1e-7, "exp after the assignment")


def test_check_format_and_bad_parts() -> None:
    csr = nd.sparse.csr_matrix((X["raw_data"], X["raw_indices"], X["raw_indptr"]), shape=(3, 4))
    with pytest.raises(ValueError, match="row 0 must be unique and ascending"):
        csr.check_format()  # unsorted columns are kept as given, and reported by the full check
    csr.check_format(full_check=False)
    with pytest.raises(ValueError, match="only supports continuous slicing"):
        _csr()[0:4:2]
    with pytest.raises(ValueError, match=r"only supports \[:\]"):
        nd.sparse.row_sparse_array((X["rows"], X["row_indices"]), shape=(4, 3))[1]
