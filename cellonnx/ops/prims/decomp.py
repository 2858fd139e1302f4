"""Matrix functions and decompositions: determinant (and its sign / log), inverse, linear solve, Cholesky,
QR, SVD, eigen-decomposition, Householder QR (geqrf / orgqr / ormqr) and the matrix exponential. All work on
batches (the last two axes are the matrix).

Forwards are NumPy's / scipy's LAPACK calls. Gradients are written with these same primitives and the
matrix product (the standard formulas: Giles' for det / inverse / solve / Cholesky, Walter and Lehmann's
for QR, Townsend's for the SVD, the block-triangular Frechet derivative for expm). Of these only the
determinant has an ONNX operator (Det); the Cholesky factor and the inverse lower to one Loop over the columns
each (decomp_loops.py); the others run eagerly and their lowerings raise naming the op.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx._lazy import lazy_import
from cellonnx.ops.prims._eager import COMPLEX, not_exportable
from cellonnx.ops.prims.decomp_loops import cholesky_loop, inverse_loop
from cellonnx.ops.prims.linalg import matmul
from cellonnx.ops.prims.math import add, cast, div, mul, neg, sub
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

_sla = lazy_import("scipy.linalg")

_DECOMPOSITION = ("ONNX has no operator for this decomposition (nor a fixed graph of ONNX operators that "
                  "computes it)")


def _t(x: Tensor) -> Tensor:
    from cellonnx.ops.prims.shape import swapaxes
    return swapaxes(x, -1, -2)


def _eye_like(n: int, like: Tensor) -> Tensor:
    from cellonnx.ops.prims.creation import eye
    return cast(eye(n, n), like._data.dtype)


def _tril_mask(n: int, k: int, like: Tensor) -> Tensor:
    return Tensor._make(np.tril(np.ones((n, n), like._data.dtype), k))


def _batched(fn: Any, *xs: np.ndarray, outs: int = 1) -> Any:
    """Apply a function of single matrices over the leading batch axes."""
    batch = xs[0].shape[:-2]
    if not batch:
        return fn(*xs)
    flat = [x.reshape((-1,) + x.shape[len(batch):]) for x in xs]
    results = [fn(*parts) for parts in zip(*flat)]
    if outs == 1:
        stacked = np.stack(results) if results else np.empty((0,))
        return stacked.reshape(batch + stacked.shape[1:])
    return tuple(np.stack([r[k] for r in results]).reshape(batch + np.shape(results[0][k]))
                 for k in range(outs))


# ---------------------------------------------------------------- determinant, inverse, solve
class Det(Op):
    save_output = True

    def forward(self, a):
        return np.linalg.det(a).astype(a.dtype, copy=False)

    def backward(self, ctx, g):
        from cellonnx.ops.prims.shape import expand_dims
        a = ctx.inputs[0]
        scale = expand_dims(expand_dims(mul(g, ctx.out), -1), -1)
        return (mul(scale, _t(MatrixInverse.apply(a))),)

    def lower(self, g, a):
        return g.op("Det", a)


class SLogDet(Op):
    """(sign, log |det|)."""

    n_outputs = 2

    def forward(self, a):
        sign, logabs = np.linalg.slogdet(a)
        return sign.astype(a.dtype, copy=False), logabs.astype(a.dtype, copy=False)

    def backward(self, ctx, g_sign, g_log):
        from cellonnx.ops.prims.shape import expand_dims
        a = ctx.inputs[0]
        return (mul(expand_dims(expand_dims(g_log, -1), -1), _t(MatrixInverse.apply(a))),)

    def lower(self, g, a):
        det = g.op("Det", a)
        return g.op("Sign", det), g.op("Log", g.op("Abs", det))


def _triangular_inverse(a: np.ndarray, lower: bool) -> np.ndarray:
    """The inverse of triangular matrices by substitution (a triangular solve of the identity, as MindSpore's
    CholeskyTrsm and the ONNX lowering), in float64: an infinite diagonal entry (a Cholesky factor of
    statistics that overflowed) gives a zero row, where an LU inverse gives NaN everywhere. A few matrices
    go one LAPACK call each; many, row by row over the whole batch (a call per matrix costs more)."""
    wide = a.astype(np.float64)
    if not lower:
        wide = np.swapaxes(wide, -1, -2)
    n = a.shape[-1]
    if int(np.prod(a.shape[:-2])) <= 8:
        eye = np.eye(n)
        inv = _batched(lambda m: _sla.solve_triangular(m, eye, lower=True, check_finite=False), wide)
    else:
        inv = np.zeros_like(wide)
        eye = np.eye(n)
        for j in range(n):   # X[j, :] = (e_j - L[j, :j] X[:j, :]) / L[j, j]
            row = wide[..., j:j + 1, :j] @ inv[..., :j, :]
            inv[..., j:j + 1, :] = (eye[j] - row) / wide[..., j:j + 1, j:j + 1]
    if not lower:
        inv = np.swapaxes(inv, -1, -2)
    return inv.astype(a.dtype, copy=False)


class MatrixInverse(Op):
    saved_inputs = ()  # backward reads only the output
    save_output = True

    def forward(self, a):
        for lower in (True, False):
            if a.shape[-1] and not np.any(np.triu(a, 1) if lower else np.tril(a, -1)):
                return _triangular_inverse(a, lower)
        return np.linalg.inv(a).astype(a.dtype, copy=False)

    def backward(self, ctx, g):
        y = _t(ctx.out)
        return (neg(matmul(matmul(y, g), y)),)

    def lower(self, g, a):
        return inverse_loop(g, a)


class Solve(Op):
    """X with A X = B (B a batch of matrices)."""

    save_output = True

    def forward(self, a, b):
        return np.linalg.solve(a, b).astype(a.dtype, copy=False)

    def backward(self, ctx, g):
        a, b = ctx.inputs
        gb = Solve.apply(_t(a), g)
        ga = neg(matmul(gb, _t(ctx.out))) if a.requires_grad else None
        return ga, (gb if b.requires_grad else None)

    lower = not_exportable("matrix_solve", _DECOMPOSITION)


# ---------------------------------------------------------------- Cholesky
class Cholesky(Op):
    saved_inputs = ()  # backward reads only the output
    """The lower factor L of A = L L^T (``upper``: U = L^T with A = U^T U)."""

    save_output = True

    def forward(self, a, *, upper):
        low = np.linalg.cholesky(a)
        return np.swapaxes(low, -1, -2).copy() if upper else low

    def backward(self, ctx, g, *, upper):
        low = _t(ctx.out) if upper else ctx.out
        gl = _t(g) if upper else g
        n = int(low.shape[-1])
        # Phi(L^T G): the lower triangle with half the diagonal; S = L^-T Phi L^-1, symmetrized
        p = matmul(_t(low), gl)
        half = sub(_tril_mask(n, 0, p), mul(_eye_like(n, p), 0.5))
        linv = MatrixInverse.apply(low)
        s = matmul(matmul(_t(linv), mul(p, half)), linv)
        return (mul(add(s, _t(s)), 0.5),)

    def lower(self, g, a, *, upper):
        return cholesky_loop(g, a, upper)


# ---------------------------------------------------------------- QR
class QR(Op):
    """(Q, R) of A = Q R; ``mode`` 'reduced' (Q m x k, R k x n) or 'complete' (Q m x m, R m x n)."""

    n_outputs = 2
    save_output = True

    def forward(self, a, *, mode):
        q, r = np.linalg.qr(a, mode=mode)
        return q.astype(a.dtype, copy=False), r.astype(a.dtype, copy=False)

    def backward(self, ctx, gq, gr, *, mode):
        a = ctx.inputs[0]
        m, n = (int(d) for d in a.shape[-2:])
        if m < n or (mode == "complete" and m > n):
            raise NotImplementedError(f"qr: the gradient is defined for mode 'reduced' with rows >= columns "
                                      f"(got a {m} x {n} input, mode {mode!r})")
        q, r = ctx.node.output(0, ctx.create_graph), ctx.node.output(1, ctx.create_graph)
        from cellonnx.ops.prims.creation import zeros_like
        gq = zeros_like(q) if gq is None else gq
        gr = zeros_like(r) if gr is None else gr
        # Walter & Lehmann: gA = Q (gR + tril(qdq - qdq^T + rdr - rdr^T, -1) R^-T) + (gQ - Q qdq) R^-T
        qdq = matmul(_t(q), gq)
        rdr = matmul(r, _t(gr))
        low = mul(add(sub(qdq, _t(qdq)), sub(rdr, _t(rdr))), _tril_mask(n, -1, qdq))
        rinv_t = _t(MatrixInverse.apply(r))
        ga = add(matmul(q, add(gr, matmul(low, rinv_t))), matmul(sub(gq, matmul(q, qdq)), rinv_t))
        return (ga,)

    lower = not_exportable("qr", _DECOMPOSITION)


# ---------------------------------------------------------------- SVD
class SVD(Op):
    """(S, U, V) of A = U diag(S) V^T (V itself, not its transpose); ``full_matrices`` gives square U, V."""

    n_outputs = 3
    save_output = True

    def forward(self, a, *, full_matrices):
        u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
        dt = a.dtype
        return s.astype(dt, copy=False), u.astype(dt, copy=False), np.swapaxes(vh, -1, -2).astype(dt)

    def backward(self, ctx, gs, gu, gv, *, full_matrices):
        from cellonnx.ops.prims.creation import zeros_like
        from cellonnx.ops.prims.math import equal, where
        from cellonnx.ops.prims.shape import expand_dims
        a = ctx.inputs[0]
        m, n = (int(d) for d in a.shape[-2:])
        k = min(m, n)
        s, u, v = (ctx.node.output(i, ctx.create_graph) for i in range(3))
        if full_matrices and m != n and (gu is not None or gv is not None):
            raise NotImplementedError("svd: the gradient of U and V is defined for full_matrices=False (or "
                                      "square inputs)")
        if full_matrices and m != n:
            from cellonnx.ops.prims.index import narrow
            u, v = narrow(u, -1, 0, k), narrow(v, -1, 0, k)
        eye = _eye_like(k, s)
        gs_m = mul(expand_dims(zeros_like(s) if gs is None else gs, -1), eye)
        mid = gs_m
        s_row = expand_dims(s, -2)   # s_j along the last axis
        s_col = expand_dims(s, -1)   # s_i
        diff = sub(mul(s_row, s_row), mul(s_col, s_col))   # s_j^2 - s_i^2
        off = sub(1.0, eye)
        f = where(equal(diff, 0), zeros_like(diff), div(off, where(equal(diff, 0), add(diff, 1.0), diff)))
        smat = mul(s_col, eye)
        sinv = where(equal(s, 0), zeros_like(s), div(1.0, where(equal(s, 0), add(s, 1.0), s)))
        if gu is not None:
            ugu = matmul(_t(u), gu)
            mid = add(mid, matmul(mul(f, sub(ugu, _t(ugu))), smat))
        if gv is not None:
            vgv = matmul(_t(v), gv)
            mid = add(mid, matmul(smat, mul(f, sub(vgv, _t(vgv)))))
        ga = matmul(matmul(u, mid), _t(v))
        if gu is not None and m > k:
            proj = sub(_eye_like(m, s), matmul(u, _t(u)))
            ga = add(ga, matmul(matmul(proj, mul(gu, expand_dims(sinv, -2))), _t(v)))
        if gv is not None and n > k:
            proj = sub(_eye_like(n, s), matmul(v, _t(v)))
            ga = add(ga, matmul(mul(u, expand_dims(sinv, -2)), matmul(_t(gv), proj)))
        return (ga,)

    lower = not_exportable("svd", _DECOMPOSITION)


class SingularValues(Op):
    """S alone (``compute_uv=False``); its gradient is U diag(gS) V^T from a full decomposition."""

    def forward(self, a):
        return np.linalg.svd(a, compute_uv=False).astype(a.dtype, copy=False)

    def backward(self, ctx, g):
        from cellonnx.ops.prims.shape import expand_dims
        _, u, v = SVD.apply(ctx.inputs[0], full_matrices=False)
        return (matmul(mul(u, expand_dims(g, -2)), _t(v)),)

    lower = not_exportable("svd", _DECOMPOSITION)


# ---------------------------------------------------------------- eigen-decomposition (complex results)
def _complex_of(dt: np.dtype) -> np.dtype:
    return np.dtype(np.complex128 if dt in (np.float64, np.complex128) else np.complex64)


class Eig(Op):
    """(eigenvalues, eigenvectors) of a general square matrix, complex; no gradient."""

    n_outputs = 2
    differentiable = False

    def forward(self, a):
        w, v = np.linalg.eig(a)
        ct = _complex_of(a.dtype)
        return w.astype(ct), v.astype(ct)

    lower = not_exportable("eig", COMPLEX)


class Eigvals(Op):
    differentiable = False

    def forward(self, a):
        return np.linalg.eigvals(a).astype(_complex_of(a.dtype))

    lower = not_exportable("eigvals", COMPLEX)


class Eigh(Op):
    """(eigenvalues ascending, eigenvectors as columns) of real symmetric matrices, from the lower (``upper``:
    the upper) triangle. Gradient: V (diag(gw) + F o (V^T gV)) V^T with F_ij = 1 / (w_j - w_i) off the
    diagonal, symmetrized (only one triangle is read)."""

    n_outputs = 2
    saved_inputs = ()  # backward reads only the outputs
    save_output = True

    def forward(self, a, *, upper):
        w, v = np.linalg.eigh(a, UPLO="U" if upper else "L")
        return w.astype(a.dtype, copy=False), v.astype(a.dtype, copy=False)

    def backward(self, ctx, gw, gv, *, upper):
        from cellonnx.ops.prims.creation import zeros_like
        from cellonnx.ops.prims.math import equal, where
        from cellonnx.ops.prims.shape import expand_dims
        w, v = (ctx.node.output(i, ctx.create_graph) for i in range(2))
        n = int(w.shape[-1])
        eye = _eye_like(n, w)
        mid = mul(expand_dims(zeros_like(w) if gw is None else gw, -1), eye)
        if gv is not None:
            diff = sub(expand_dims(w, -2), expand_dims(w, -1))   # w_j - w_i
            safe = where(equal(diff, 0), add(diff, 1.0), diff)
            f = where(equal(diff, 0), zeros_like(diff), div(sub(1.0, eye), safe))
            mid = add(mid, mul(f, matmul(_t(v), gv)))
        ga = matmul(matmul(v, mid), _t(v))
        return (mul(add(ga, _t(ga)), 0.5),)

    lower = not_exportable("eigh", _DECOMPOSITION)


# ---------------------------------------------------------------- Householder QR (LAPACK geqrf family)
def _lapack(name: str, dtype: np.dtype) -> Any:
    prefix = "d" if dtype == np.float64 else "s"
    return getattr(_sla.lapack, prefix + name)


class Geqrf(Op):
    """LAPACK geqrf: R in the upper triangle, Householder vectors below it, and their scales tau."""

    n_outputs = 2
    differentiable = False

    def forward(self, a):
        def one(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            qr, tau = _lapack("geqrf", a.dtype)(m)[:2]
            return qr, tau
        qr, tau = _batched(one, a, outs=2)
        return qr.astype(a.dtype, copy=False), tau.astype(a.dtype, copy=False)

    lower = not_exportable("geqrf", _DECOMPOSITION)


class Orgqr(Op):
    """The first n columns of the product of the Householder reflectors (LAPACK orgqr)."""

    differentiable = False

    def forward(self, a, tau):
        def one(m: np.ndarray, t: np.ndarray) -> np.ndarray:
            return _lapack("orgqr", a.dtype)(m, t)[0]
        return _batched(one, a, tau).astype(a.dtype, copy=False)

    lower = not_exportable("orgqr", _DECOMPOSITION)


class Ormqr(Op):
    """Q @ C, C @ Q or with Q transposed, Q given by Householder reflectors (LAPACK ormqr)."""

    differentiable = False

    def forward(self, a, tau, c, *, left, transpose):
        def one(m: np.ndarray, t: np.ndarray, other: np.ndarray) -> np.ndarray:
            refl = np.ascontiguousarray(m[:, :t.shape[0]])
            fn = _lapack("ormqr", a.dtype)
            lwork = max(1, 64 * max(other.shape))
            return fn("L" if left else "R", "T" if transpose else "N", refl, t, other.copy(), lwork)[0]
        return _batched(one, a, tau, c).astype(a.dtype, copy=False)

    lower = not_exportable("ormqr", _DECOMPOSITION)


# ---------------------------------------------------------------- matrix exponential
class MatrixExp(Op):
    def forward(self, a):
        return _sla.expm(a).astype(a.dtype, copy=False)

    def backward(self, ctx, g):
        # the adjoint of the Frechet derivative: the upper-right block of exp([[A^T, G], [0, A^T]])
        from cellonnx.ops.prims.creation import zeros_like
        from cellonnx.ops.prims.index import concat, narrow
        a = ctx.inputs[0]
        n = int(a.shape[-1])
        at = _t(a)
        top = concat([at, g], -1)
        bottom = concat([zeros_like(at), at], -1)
        big = MatrixExp.apply(concat([top, bottom], -2))
        return (narrow(narrow(big, -2, 0, n), -1, n, n),)

    lower = not_exportable("matrix_exp", "ONNX has no matrix exponential")


__all__: list[str] = []
