"""The ONNX lowerings of ops.cholesky and ops.inverse (cellonnx/ops/prims/decomp_loops.py) run by onnxruntime
against NumPy float64 on batches of THOR's block size (128): well- and ill-conditioned SPD matrices (condition
10 and 1e5), lower and upper factors, the inverse of the factor (THOR's CholeskyTrsm), opsets 13-21, one
Loop over the columns and the blocked factorization (small blocks on small matrices), and matrices that
are not positive definite (the graph's factor of such a matrix is NaN from the failing column
on, the others' of the batch are exact, where the eager op raises) or have an infinite pivot.

The loops compute in float64, as NumPy's LAPACK calls behind the eager ops do, so the tolerance is float32's
rounding of the result (relative to its scale) at every condition number.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from cellonnx import ops
from cellonnx.graph.trace import trace
from cellonnx.ops.registry import OpError
from cellonnx.tensor import Tensor
from tests.tolerance import F32_EPS, assert_close

N = 128


def _spd(batch: tuple[int, ...], n: int, cond: float, seed: int) -> np.ndarray:
    """SPD matrices with eigenvalues spread log-evenly from 1 down to 1 / cond."""
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.standard_normal((*batch, n, n)))
    ev = np.logspace(0, -np.log10(cond), n)
    return (q * ev) @ np.swapaxes(q, -1, -2)


def _run(fn: Callable, x: np.ndarray, opset: int = 18) -> tuple[np.ndarray, np.ndarray]:
    """(onnxruntime's result, eager's) of ``fn`` on ``x``."""
    g, eager = trace(fn, [("x", Tensor(x), list(x.shape))], opset=opset, name="decomp")
    model = g.model()
    onnx.checker.check_model(model, full_check=True)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0], eager.asnumpy()


FUNCTIONS = {
    "cholesky": (lambda x: ops.cholesky(x), np.linalg.cholesky),
    "cholesky_upper": (lambda x: ops.cholesky(x, upper=True),
                       lambda a: np.swapaxes(np.linalg.cholesky(a), -1, -2)),
    "inverse": (lambda x: ops.inverse(x), np.linalg.inv),
    "inverse_of_cholesky": (lambda x: ops.inverse(ops.cholesky(x)),
                            lambda a: np.linalg.inv(np.linalg.cholesky(a))),
    "inverse_of_upper_cholesky": (lambda x: ops.inverse(ops.cholesky(x, upper=True)),
                                  lambda a: np.linalg.inv(np.swapaxes(np.linalg.cholesky(a), -1, -2))),
}


@pytest.mark.parametrize("upper", [False, True])
def test_inverse_of_a_cholesky_factor_is_a_substitution(upper: bool) -> None:
    """The factor's own Loop computes the inverse (one more carried value): no second Loop, no pivoting
    search (ArgMax) nor row swaps (GatherElements)."""
    x = Tensor(_spd((2,), 5, 10.0, seed=1).astype(np.float32))
    g, _ = trace(lambda t: ops.inverse(ops.cholesky(t, upper)), [("x", x, [2, 5, 5])], opset=18, name="d")
    loops = [n for n in g.model().graph.node if n.op_type == "Loop"]
    body_ops = {m.op_type for n in loops for m in n.attribute[0].g.node}
    assert len(loops) == 1 and len(loops[0].output) == 2 and not body_ops & {"ArgMax", "GatherElements"}


@pytest.mark.parametrize("upper", [False, True])
def test_blocked_factor_is_a_loop_per_diagonal_block(upper: bool) -> None:
    """Past ``BLOCK`` columns the factor is right-looking by blocks: a Loop over the columns of each diagonal
    block (its factor's inverse carried in the same Loop), the panels, Schur complements and the inverse's
    off-diagonal blocks MatMuls outside the Loops."""
    from cellonnx.ops.prims import decomp_loops
    x = Tensor(_spd((2,), N, 10.0, seed=1).astype(np.float32))
    g, _ = trace(lambda t: ops.inverse(ops.cholesky(t, upper)), [("x", x, [2, N, N])], opset=18, name="d")
    loops = [n for n in g.model().graph.node if n.op_type == "Loop"]
    body_ops = {m.op_type for n in loops for m in n.attribute[0].g.node}
    assert 0 < decomp_loops.BLOCK < N and len(loops) == -(-N // decomp_loops.BLOCK)
    assert all(len(n.output) == 2 for n in loops) and not body_ops & {"ArgMax", "GatherElements"}


@pytest.mark.parametrize("cond", [10.0, 1e5])
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_blocks_of_128_match_float64(name: str, cond: float) -> None:
    fn, ref = FUNCTIONS[name]
    x = _spd((3,), N, cond, seed=int(cond)).astype(np.float32)
    got, eager = _run(fn, x)
    want = ref(x.astype(np.float64))
    assert got.dtype == np.float32 and got.shape == want.shape
    assert_close(got, want, rtol=4 * F32_EPS, scale_rtol=4 * F32_EPS, what=f"{name}, condition {cond:g}")
    assert_close(eager, want, rtol=4 * F32_EPS, scale_rtol=4 * F32_EPS, what=f"eager {name}")


@pytest.mark.parametrize("opset", [13, 21])
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("block", [0, 3])
def test_float64_and_two_batch_axes(name: str, opset: int, block: int,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """One Loop over the columns (block 0) and blocks of 3 with a narrower last one."""
    from cellonnx.ops.prims import decomp_loops
    monkeypatch.setattr(decomp_loops, "BLOCK", block)
    fn, ref = FUNCTIONS[name]
    x = _spd((2, 3), 7, 1e3, seed=opset)
    got, _ = _run(fn, x, opset)
    assert got.dtype == np.float64
    assert_close(got, ref(x), rtol=1e-12, scale_rtol=1e-12, what=name)


@pytest.mark.parametrize("block", [0, 2, 3])
def test_not_positive_definite_gives_nan_in_the_graph(block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The failing pivot (column 3) inside a block (blocks of 2), first in one (3) and in one Loop (0)."""
    from cellonnx.ops.prims import decomp_loops
    monkeypatch.setattr(decomp_loops, "BLOCK", block)
    x = _spd((2,), 6, 10.0, seed=3).astype(np.float32)
    x[1, 3, 3] = -1.0  # the second matrix's leading 4 x 4 block is indefinite
    with pytest.raises(OpError):
        ops.cholesky(Tensor(x))
    g, _ = trace(lambda t: ops.cholesky(t), [("x", Tensor(_spd((2,), 6, 10.0, seed=3).astype(np.float32)),
                                               [2, 6, 6])], opset=18, name="decomp")
    sess = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
    got = sess.run(None, {"x": x})[0]
    assert_close(got[0], np.linalg.cholesky(x[0].astype(np.float64)), rtol=4 * F32_EPS,
                 scale_rtol=4 * F32_EPS, what="the positive-definite matrix of the batch")
    # as LAPACK's potrf: the columns before the failing one are the leading block's factor; from it on, NaN
    # in the lower triangle (the zeros above the diagonal stay)
    assert_close(got[1][:3, :3], np.linalg.cholesky(x[1, :3, :3].astype(np.float64)), rtol=4 * F32_EPS,
                 scale_rtol=4 * F32_EPS, what="the columns before the indefinite block")
    lower = np.tril(np.ones((3, 3), bool))
    assert np.isnan(got[1][3:, 3:][lower]).all() and not np.triu(got[1], 1).any()


@pytest.mark.parametrize("block", [0, 2, 4])
@pytest.mark.parametrize("upper", [False, True])
def test_infinite_pivot_as_potrf_and_a_triangular_solve(upper: bool, block: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A variance that overflowed (one infinite diagonal entry, the rest finite): the factor's pivot is inf
    with zeros below it, as LAPACK's potrf, and the factor's inverse (a triangular solve of the identity, as
    MindSpore's CholeskyTrsm) has a zero row there and is the finite matrix's elsewhere, eagerly and in the
    graph (neither a quotient inf / inf nor inf * 0 in the Loop, nor an LU inverse's NaN eagerly); with the
    pivot first in a block (blocks of 2), inside one (4) and in one Loop (0)."""
    from cellonnx.ops.prims import decomp_loops
    monkeypatch.setattr(decomp_loops, "BLOCK", block)
    x = _spd((2,), 6, 10.0, seed=5).astype(np.float32)
    x[1, 2, 2] = np.inf
    for name, fn in (("cholesky", lambda t: ops.cholesky(t, upper)),
                     ("inverse_of_cholesky", lambda t: ops.inverse(ops.cholesky(t, upper)))):
        g, _ = trace(fn, [("x", Tensor(_spd((2,), 6, 10.0, seed=3).astype(np.float32)), [2, 6, 6])],
                     opset=18, name="decomp")
        sess = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
        got, eager = sess.run(None, {"x": x})[0], fn(Tensor(x)).asnumpy()
        low = got[1].T if upper else got[1]
        if name == "cholesky":
            assert low[2, 2] == np.inf and not low[3:, 2].any()
        else:
            assert not low[2].any() and np.isfinite(got).all()
            # the rows other than the pivot's: the inverse of the factor of x without that variable
            keep = [0, 1, 3, 4, 5]
            ref = np.linalg.inv(np.linalg.cholesky(x[1][np.ix_(keep, keep)].astype(np.float64)))
            assert_close(low[np.ix_(keep, keep)], ref, rtol=4 * F32_EPS, scale_rtol=4 * F32_EPS, what=name)
        assert_close(got, eager, rtol=4 * F32_EPS, scale_rtol=4 * F32_EPS, what=name)


def test_singular_matrix_gives_non_finite_inverse() -> None:
    x = np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)
    g, _ = trace(lambda t: ops.inverse(t), [("x", Tensor(np.eye(2, dtype=np.float32)), [2, 2])], opset=18,
                 name="decomp")
    sess = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
    assert not np.isfinite(sess.run(None, {"x": x})[0]).all()


@pytest.mark.parametrize("upper", [False, True])
def test_substitution_loop_of_a_factor_from_another_graph(upper: bool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the factor's Loop is not a node of the graph lowering the inverse (a factor computed outside a
    control-flow body), the inverse is its own substitution Loop."""
    from cellonnx.ops.prims import decomp_loops
    monkeypatch.setattr(decomp_loops, "_fused_inverse", lambda g, f: None)
    x = _spd((3,), N, 1e5, seed=4).astype(np.float32)
    got, _ = _run(lambda t: ops.inverse(ops.cholesky(t, upper)), x)
    low = np.linalg.cholesky(x.astype(np.float64))
    want = np.linalg.inv(np.swapaxes(low, -1, -2) if upper else low)
    assert_close(got, want, rtol=4 * F32_EPS, scale_rtol=4 * F32_EPS, what="substitution")


@pytest.mark.parametrize("block", [0, 3])
@pytest.mark.parametrize("name", ["cholesky", "inverse_of_cholesky", "inverse_of_upper_cholesky"])
def test_dynamic_batch_and_batches_past_the_index_table(name: str, block: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The scatter indices come from a constant table only where the batch shape is known when traced and
    the table is small; a dynamic batch, or a table past the limit, expands the iteration to the update's
    shape."""
    from cellonnx.ops.prims import decomp_loops
    monkeypatch.setattr(decomp_loops, "BLOCK", block)
    fn, ref = FUNCTIONS[name]
    x = _spd((3,), 8, 10.0, seed=6).astype(np.float32)
    g, _ = trace(fn, [("x", Tensor(x), [None, 8, 8])], opset=18, name="decomp")
    sess = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
    for batch in (x, x[:2]):
        assert_close(sess.run(None, {"x": batch})[0], ref(batch.astype(np.float64)), rtol=4 * F32_EPS,
                     scale_rtol=4 * F32_EPS, what=f"{name}, dynamic batch {len(batch)}")
    monkeypatch.setattr(decomp_loops, "_TABLE_LIMIT", 8)
    got, _ = _run(fn, x)
    assert_close(got, ref(x.astype(np.float64)), rtol=4 * F32_EPS, scale_rtol=4 * F32_EPS,
                 what=f"{name}, no index table")


@pytest.mark.parametrize("batch", [(2,), (3, 4)])
@pytest.mark.parametrize("upper", [False, True])
def test_eager_inverse_of_triangular_matrices_is_a_substitution(batch: tuple[int, ...], upper: bool) -> None:
    """Eagerly, a triangular matrix is inverted by substitution (one LAPACK call per matrix for a few, row by
    row over the batch for many): the float64 inverse, and a zero row for an infinite diagonal entry."""
    low = np.linalg.cholesky(_spd(batch, 10, 1e3, seed=7)).astype(np.float32)
    x = np.swapaxes(low, -1, -2).copy() if upper else low
    want = np.linalg.inv(x.astype(np.float64))
    assert_close(ops.inverse(Tensor(x)).asnumpy(), want, rtol=4 * F32_EPS, scale_rtol=4 * F32_EPS,
                 what="triangular inverse")
    x[..., 4, 4] = np.inf
    got = ops.inverse(Tensor(x)).asnumpy()
    assert np.isfinite(got).all() and not (got[..., :, 4] if upper else got[..., 4, :]).any()
