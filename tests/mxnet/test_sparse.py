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
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
sys.path.insert(0, str(FIXTURES))
from gen_sparse import sparse_inputs  # noqa: E402

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
    recorded = {k.split("/")[0] for k in WANT} - {"meta", "dot_grad"}
    assert recorded == set(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_mxnet(case: str) -> None:
    arr = CASES[case]()
    assert isinstance(arr, mx.nd.NDArray)
    assert arr.stype == str(WANT[f"{case}/stype"]), f"{case}: storage {arr.stype}"
    dense = WANT[f"{case}/dense"]
    assert arr.dtype == dense.dtype, f"{case}: dtype {arr.dtype}, MXNet {dense.dtype}"
    assert_close(arr.asnumpy(), dense, 1e-6, 1e-7, f"{case}: values")
    for part in ("data", "indices", "indptr"):
        key = f"{case}/{part}"
        if key in WANT:
            got = getattr(arr, part).asnumpy()
            assert got.dtype == WANT[key].dtype, f"{key}: dtype {got.dtype}, MXNet {WANT[key].dtype}"
            assert_close(got, WANT[key], 1e-6, 1e-7, key)


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
