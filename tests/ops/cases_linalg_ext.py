"""Rows for einsum, the products and constructions of cellonnx/ops/composite/linalg_ext.py and the matrix
decompositions (cellonnx/ops/prims/decomp.py), against NumPy / scipy in float64."""
from __future__ import annotations

import itertools

import numpy as np
import scipy.linalg as sla

from cellonnx import ops
from tests.ops.harness import OpCase, rand

EAGER = "no ONNX operator for the decomposition: eager only (the lowering raises)"
A3, B3 = rand(3, 3, seed=61), rand(3, 3, seed=62)
A34, B45 = rand(3, 4, seed=63), rand(4, 5, seed=64)
BATCH = rand(2, 3, 3, seed=65)
V3, V4 = rand(3, seed=66), rand(4, seed=67)
TALL = rand(5, 3, seed=68)
WELL = A3 + 3 * np.eye(3)            # well conditioned
BWELL = BATCH + 3 * np.eye(3)
PIVOT = np.array([[0.0, 2.0, 1.0], [1.0, 0.0, 3.0], [2.0, 1.0, 0.0]])
LOOP = "lowered to one ONNX Loop over the columns (cellonnx/ops/prims/decomp_loops.py)"


def _spd(x):
    """A symmetric positive-definite matrix from any square x (inside the traced function)."""
    return ops.matmul(x, ops.swapaxes(x, -1, -2)) + ops.eye(x.shape[-1], dtype=x.dtype) * 3.0


def _eigh(x, upper=False):
    from cellonnx.ops.prims.decomp import Eigh
    return Eigh.apply(x, upper=upper)


def _spd_np(x):
    return x @ np.swapaxes(x, -1, -2) + 3 * np.eye(x.shape[-1])


def _batch_dot_ref(x, y):
    return np.einsum("bij,bjk->bik", x, y)


def _diag_embed_ref(x, offset, d1, d2):
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n))
    for i in range(x.shape[-1]):
        r, c = (i, i + offset) if offset >= 0 else (i - offset, i)
        out[..., r, c] = x[..., i]
    return np.moveaxis(out, (-2, -1), (d1, d2))


def _lu_packed(a):
    lu, piv = sla.lu_factor(a)
    return lu, (piv + 1).astype(np.int32)


LU, PIV = _lu_packed(WELL)
GEQRF_A, GEQRF_TAU = sla.lapack.dgeqrf(TALL)[:2]

CASES = [
    # einsum
    OpCase("einsum_matmul", lambda a, b: ops.einsum("ij,jk->ik", a, b), [A34, B45],
           lambda a, b: np.einsum("ij,jk->ik", a, b), second_order=True),
    OpCase("einsum_batched_ellipsis", lambda a, b: ops.einsum("...ij,...jk", a, b), [BATCH,
                                                                                     rand(2, 3, 2, seed=69)],
           lambda a, b: np.einsum("...ij,...jk", a, b)),
    OpCase("einsum_trace_and_diag", lambda a: (ops.einsum("ii", a), ops.einsum("ii->i", a)), [A3],
           lambda a: (np.einsum("ii", a), np.einsum("ii->i", a)), second_order=True,
           note="repeated letters: the gradient goes back onto the diagonal"),
    OpCase("einsum_sum_out_and_outer", lambda a, v: ops.einsum("ij,k->ik", a, v), [A34, V3],
           lambda a, v: np.einsum("ij,k->ik", a, v), note="j is summed: its gradient is broadcast back"),
    OpCase("einsum_three_operands", lambda a, b, c: ops.einsum("ij,jk,kl->il", a, b, c),
           [A34, B45, rand(5, 2, seed=70)], lambda a, b, c: np.einsum("ij,jk,kl->il", a, b, c)),
    OpCase("einsum_list_operands_ext", lambda a, b: ops.einsum_ext("bij,bkj->bik", (a, b)), [BATCH, BATCH],
           lambda a, b: np.einsum("bij,bkj->bik", a, b)),
    # products
    OpCase("tensor_dot_int_axes", lambda a, b: ops.tensor_dot(a, b, 1), [A34, B45],
           lambda a, b: np.tensordot(a, b, 1)),
    OpCase("tensor_dot_pair_axes", lambda a, b: ops.tensor_dot(a, b, ((0, 1), (1, 0))), [A34,
                                                                                         rand(4, 3, seed=71)],
           lambda a, b: np.tensordot(a, b, ((0, 1), (1, 0)))),
    OpCase("dot", lambda a, b: ops.dot(a, b), [A34, B45], np.dot),
    OpCase("dot_nd", lambda a, b: ops.dot(a, b), [rand(2, 3, 4, seed=72), B45], np.dot),
    OpCase("inner", lambda a, b: ops.inner(a, b), [A34, rand(2, 4, seed=73)], np.inner),
    OpCase("mv", lambda m, v: ops.mv(m, v), [A34, V4], np.dot),
    OpCase("vecdot", lambda x, y: ops.vecdot(x, y, axis=0), [A34, A34 * 2], lambda x, y: np.sum(x * y, 0)),
    OpCase("kron", lambda a, b: ops.kron(a, b), [A3[:2], rand(2, 3, seed=74)], np.kron),
    OpCase("kron_ranks", lambda a, b: ops.kron(a, b), [V3, rand(2, 2, seed=75)], np.kron),
    OpCase("batch_dot", lambda a, b: ops.batch_dot(a, b), [BATCH, rand(2, 3, 4, seed=76)],
           _batch_dot_ref),
    OpCase("batch_dot_2d", lambda a, b: ops.batch_dot(a, b), [A34, rand(3, 4, seed=77)],
           lambda a, b: np.sum(a * b, 1, keepdims=True), note="(B, 1) for two 2-D inputs, as MindSpore"),
    OpCase("addmv", lambda x, m, v: ops.addmv(x, m, v, beta=0.5, alpha=2.0), [V3, A34, V4],
           lambda x, m, v: 0.5 * x + 2.0 * m @ v),
    OpCase("addr", lambda x, a, b: ops.addr(x, a, b, beta=2, alpha=0.5), [A34, V3, V4],
           lambda x, a, b: 2 * x + 0.5 * np.outer(a, b)),
    OpCase("addbmm", lambda x, a, b: ops.addbmm(x, a, b, alpha=0.5), [A3, BATCH, BATCH],
           lambda x, a, b: x + 0.5 * np.sum(a @ b, 0)),
    OpCase("baddbmm", lambda x, a, b: ops.baddbmm(x, a, b, 2, 0.5), [A3, BATCH, BATCH],
           lambda x, a, b: 2 * x + 0.5 * (a @ b)),
    OpCase("baddbmm_ext", lambda x, a, b: ops.baddbmm_ext(x, a, b, beta=0), [A3, BATCH, BATCH],
           lambda x, a, b: a @ b),
    # constructions
    OpCase("block_diag", lambda a, b, c: ops.block_diag(a, b, c), [A34[:2], V3, rand(1, 1, seed=78)],
           lambda a, b, c: sla.block_diag(a, b[None], c)),
    OpCase("cartesian_prod", lambda a, b: ops.cartesian_prod(a, b), [V3, V4],
           lambda a, b: np.array(list(itertools.product(a, b)))),
    OpCase("combinations", lambda a: ops.combinations(a), [V4],
           lambda a: np.array(list(itertools.combinations(a, 2)))),
    OpCase("combinations_replacement", lambda a: ops.combinations(a, 3, True), [V3],
           lambda a: np.array(list(itertools.combinations_with_replacement(a, 3)))),
    OpCase("tril_triu_indices", lambda: (ops.tril_indices(4, 3, 1), ops.triu_indices(3, 5, -1,
                                                                                     dtype="int32")), [],
           lambda: (np.stack(np.tril_indices(4, 1, 3)), np.stack(np.triu_indices(3, -1,
                                                                                 5)).astype(np.int32))),
    OpCase("vander", lambda x: ops.vander(x, 4), [V3], lambda x: np.vander(x, 4)),
    OpCase("diag_embed", lambda x: ops.diag_embed(x), [A34], lambda x: _diag_embed_ref(x, 0, -2, -1)),
    OpCase("diag_embed_offset_dims", lambda x: ops.diag_embed(x, -1, 0, 2), [A34],
           lambda x: _diag_embed_ref(x, -1, 0, 2)),
    OpCase("cross", lambda a, b: ops.cross(a, b), [rand(3, 2, seed=79), rand(3, 2, seed=80)],
           lambda a, b: np.cross(a, b, axis=0), note="dim None: the first axis of size 3"),
    OpCase("cross_dim", lambda a, b: ops.cross(a, b, -1), [rand(4, 3, seed=81), rand(1, 3, seed=82)],
           lambda a, b: np.cross(a, b)),
    OpCase("t", lambda x: ops.t(x), [A34], lambda x: x.T),
    OpCase("adjoint", lambda x: ops.adjoint(x), [BATCH], lambda x: np.swapaxes(x, -1, -2)),
    # determinants, inverse, solves
    OpCase("det", lambda x: ops.det(x), [BWELL], np.linalg.det, second_order=True),
    OpCase("matrix_determinant", lambda x: ops.matrix_determinant(x), [A3], np.linalg.det),
    OpCase("slogdet", lambda x: ops.slogdet(x), [BATCH], lambda x: np.linalg.slogdet(x), grad_rtol=1e-4),
    OpCase("log_matrix_determinant", lambda x: ops.log_matrix_determinant(x), [A3],
           lambda x: np.linalg.slogdet(x)),
    OpCase("logdet", lambda x: ops.logdet(_spd(x)), [A3], lambda x: np.log(np.linalg.det(_spd_np(x)))),
    OpCase("inverse", lambda x: ops.inverse(x), [BWELL], np.linalg.inv, second_order=True, note=LOOP),
    OpCase("inverse_pivoting", lambda x: ops.inverse(x), [PIVOT], np.linalg.inv,
           note="zeros on the diagonal: the lowering's Gauss-Jordan swaps rows (partial pivoting)"),
    OpCase("matrix_solve", lambda a, b: ops.matrix_solve(a, b), [WELL, A34], np.linalg.solve, lower=False,
           note=EAGER),
    OpCase("matrix_solve_adjoint", lambda a, b: ops.matrix_solve(a, b, True), [WELL, A34],
           lambda a, b: np.linalg.solve(a.T, b), lower=False, note=EAGER),
    OpCase("cholesky", lambda x: ops.cholesky(_spd(x)), [BATCH], lambda x: np.linalg.cholesky(_spd_np(x)),
           second_order=True, note=LOOP),
    OpCase("cholesky_upper", lambda x: ops.cholesky(_spd(x), upper=True), [A3],
           lambda x: np.linalg.cholesky(_spd_np(x)).T, note=LOOP),
    OpCase("cholesky_upper_batched", lambda x: ops.cholesky(_spd(x), upper=True), [BATCH],
           lambda x: np.swapaxes(np.linalg.cholesky(_spd_np(x)), -1, -2), note=LOOP),
    OpCase("cholesky_inverse", lambda x: ops.cholesky_inverse(ops.cholesky(_spd(x))), [A3],
           lambda x: np.linalg.inv(_spd_np(x)), note=LOOP),
    OpCase("cholesky_solve_upper", lambda x, b: ops.cholesky_solve(b, ops.cholesky(_spd(x), True), True),
           [A3, A34], lambda x, b: np.linalg.solve(_spd_np(x), b), lower=False, note=EAGER),
    # decompositions
    OpCase("qr", lambda x: ops.qr(x), [TALL], lambda x: np.linalg.qr(x), lower=False, note=EAGER),
    OpCase("qr_batched_square", lambda x: ops.qr(x), [BWELL], lambda x: np.linalg.qr(x), lower=False,
           note=EAGER),
    OpCase("qr_complete", lambda x: ops.qr(x, "complete"), [TALL], lambda x: np.linalg.qr(x, "complete"),
           grad=(), lower=False, note=f"no gradient for complete Q of a tall input; {EAGER}"),
    OpCase("svd", lambda x: ops.svd(x), [TALL],
           lambda x: (np.linalg.svd(x)[1], np.linalg.svd(x, False)[0], np.linalg.svd(x)[2].T), lower=False,
           note=f"(S, U, V) with LAPACK's signs; the gradient has Townsend's projection terms; {EAGER}"),
    OpCase("svd_wide", lambda x: ops.svd(x), [TALL.T],
           lambda x: (np.linalg.svd(x)[1], np.linalg.svd(x, False)[0], np.linalg.svd(x, False)[2].T),
           lower=False, note=EAGER),
    OpCase("svd_values_only", lambda x: ops.svd(x, compute_uv=False), [BATCH],
           lambda x: np.linalg.svd(x, compute_uv=False), lower=False, note=EAGER),
    OpCase("svd_full_matrices", lambda x: ops.svd(x, True)[:2], [TALL],
           lambda x: (np.linalg.svd(x)[1], np.linalg.svd(x)[0]), grad=(), lower=False, note=EAGER),
    OpCase("pinv", lambda x: ops.pinv(x), [TALL], np.linalg.pinv, lower=False, note=EAGER),
    OpCase("pinv_rtol", lambda x: ops.pinv(x, rtol=0.5), [TALL], lambda x: np.linalg.pinv(x, rcond=0.5),
           grad=(), lower=False, note=EAGER),
    OpCase("eigh", lambda x: _eigh(_spd(x)), [BATCH], lambda x: np.linalg.eigh(_spd_np(x)), lower=False,
           note=f"symmetric input; LAPACK's eigenvector signs; {EAGER}"),
    OpCase("eigh_upper", lambda x: _eigh(_spd(x), True)[0], [A3], lambda x: np.linalg.eigvalsh(_spd_np(x)),
           lower=False, note=EAGER),
    OpCase("eig", lambda x: ops.eig(x), [A3], lambda x: np.linalg.eig(x), grad=(), lower=False,
           note="complex results: eager only"),
    OpCase("eigvals", lambda x: ops.eigvals(x), [BWELL], np.linalg.eigvals, grad=(), lower=False,
           note="complex results: eager only"),
    OpCase("geqrf", lambda x: ops.geqrf(x), [TALL], lambda x: sla.lapack.dgeqrf(x)[:2], grad=(), lower=False,
           note=f"no gradient (as MindSpore); {EAGER}"),
    OpCase("orgqr", lambda a, t: ops.orgqr(a, t), [GEQRF_A, GEQRF_TAU], lambda a,
           t: sla.lapack.dorgqr(a, t)[0],
           grad=(), lower=False, note=f"no gradient; {EAGER}"),
    OpCase("ormqr", lambda a, t, c: ops.ormqr(a, t, c, True, True), [GEQRF_A, GEQRF_TAU, rand(5, 2, seed=83)],
           lambda a, t, c: np.linalg.qr(TALL, "complete")[0].T @ c, grad=(), lower=False,
           note=f"no gradient; {EAGER}"),
    OpCase("matrix_exp", lambda x: ops.matrix_exp(x), [BATCH], sla.expm, second_order=True, lower=False,
           note=EAGER),
    OpCase("matrix_power", lambda x: ops.matrix_power(x, 5), [A3], lambda x: np.linalg.matrix_power(x, 5)),
    OpCase("matrix_power_negative", lambda x: ops.matrix_power(x, -2), [WELL],
           lambda x: np.linalg.matrix_power(x, -2), lower=False, note=f"the inverse: {EAGER}"),
    OpCase("matrix_power_zero", lambda x: ops.matrix_power(x, 0), [BATCH],
           lambda x: np.broadcast_to(np.eye(3),
                                                                                                     x.shape)),
    OpCase("lu_unpack", lambda lu, p: ops.lu_unpack(lu, p), [LU, PIV],
           lambda lu, p: sla.lu(WELL), grad=(), lower=False,
           note="the permutation is built from the pivots eagerly"),
    OpCase("lu_solve", lambda b, lu, p: ops.lu_solve(b, lu, p), [A34, LU, PIV],
           lambda b, lu, p: np.linalg.solve(WELL, b), grad=(0,), lower=False, note=EAGER),
    # norms and the condition number
    OpCase("vector_norm", lambda x: ops.vector_norm(x), [A34], np.linalg.norm, second_order=True),
    OpCase("vector_norm_p3_axis", lambda x: ops.vector_norm(x, 3, 0, True), [A34],
           lambda x: np.sum(np.abs(x) ** 3, 0, keepdims=True) ** (1 / 3)),
    OpCase("vector_norm_inf_zero", lambda x: (ops.vector_norm(x, float("inf"), (0, 1)),
                                              ops.vector_norm(x, 0)),
           [A34], lambda x: (np.max(np.abs(x)), np.count_nonzero(x) * 1.0)),
    OpCase("matrix_norm_fro", lambda x: ops.matrix_norm(x), [BATCH],
           lambda x: np.linalg.norm(x, "fro", (-2, -1))),
    OpCase("matrix_norm_nuc", lambda x: ops.matrix_norm(x, "nuc"), [BATCH],
           lambda x: np.linalg.norm(x, "nuc", (-2, -1)), lower=False, note=EAGER),
    OpCase("matrix_norm_2_keep", lambda x: ops.matrix_norm(x, 2, (0, 1), True), [TALL],
           lambda x: np.linalg.norm(x, 2, (0, 1), keepdims=True), lower=False, note=EAGER),
    OpCase("matrix_norm_inf", lambda x: ops.matrix_norm(x, float("-inf"), (1, 0)), [TALL],
           lambda x: np.linalg.norm(x, -np.inf, (1, 0))),
    OpCase("norm_nuc_via_svd", lambda x: ops.norm(x, "nuc"), [TALL], lambda x: np.linalg.norm(x, "nuc"),
           lower=False, note=EAGER),
    OpCase("cond_2", lambda x: ops.cond(x), [BWELL], np.linalg.cond, lower=False, note=EAGER),
    OpCase("cond_fro", lambda x: ops.cond(x, "fro"), [WELL], lambda x: np.linalg.cond(x, "fro"), lower=False,
           note=EAGER),
    OpCase("cond_1", lambda x: ops.cond(x, 1), [WELL], lambda x: np.linalg.cond(x, 1), lower=False, grad=(),
           note=f"1-norm: max of column sums (a kink, no finite-difference check); {EAGER}"),
]
