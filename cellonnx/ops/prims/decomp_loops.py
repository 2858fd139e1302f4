"""ONNX lowerings of the Cholesky factor and the matrix inverse: ONNX has no operator for either, so each is
a Loop over the n columns (a static trip count). Both compute in float64 and round the result to the input's
dtype, as the eager ops (NumPy's LAPACK calls take float32 matrices in double precision): so an
ill-conditioned float32 matrix gives the eager result, not one off by its condition number times float32's
epsilon.

Cholesky, past ``BLOCK`` columns, is right-looking by blocks, unrolled in the graph: the matrix is split into
two halves of whole blocks, the first factored, the panel below it one MatMul by its factor's inverse and
the Schur complement of the second another, each half so again down to blocks of ``BLOCK`` columns, which a
Loop factors (and inverts the factor): so the Loops' iterations are small (an iteration costs in proportion
to the matrix it carries: 56 us at n = 128 against about 15 at 16, bench/RESULTS.md) and the heavy work is
MatMuls. The factor's inverse comes from the halves' inverses the same way, a few MatMuls per split.

Cholesky of a block (left-looking, column by column): with the columns before j done and the rest still zero,
``v = A[:, j] - L L[j, :]^T``, ``L[:, j] = v / sqrt(v[j])`` on the rows i >= j, written into the factor by
a scatter (not a rewrite of the whole factor per column, which cost more than the arithmetic). It reads A's
lower triangle only, as LAPACK's potrf. A matrix that is not positive definite makes some ``v[j] <= 0``: the
lower triangle of its factor is NaN from that column on (the columns before it are the leading block's
factor, as potrf leaves them; the other matrices of the batch are unaffected), where the eager op raises; the
graph cannot raise, so callers that must react test the result for finiteness. An infinite ``v[j]`` (a
variance that overflowed) gives ``L[j, j] = inf`` and zeros below it, as potrf's.

Inverse (Gauss-Jordan on ``[A | I]`` with partial pivoting): for column k, the row of largest magnitude at or
below k is swapped to row k (a GatherElements of the rows), row k is divided by its pivot and eliminated
from every other row. A singular matrix gives infinities / NaN. The inverse of a Cholesky factor computed in
the same graph (THOR's ``inverse(cholesky(A))``) is a forward substitution instead, row by row in the
factor's own Loop (blockwise for a blocked factor): a quarter of the work per column and no pivoting.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from onnx import TensorProto, helper


def _elem(dtype: np.dtype) -> int:
    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


def _widened(g: Any, a: str) -> tuple[str, np.dtype, int]:
    """(``a`` in float64, its own dtype, its rank)."""
    dtype = np.dtype(g.in_tensors[0]._data.dtype)
    wide = a if dtype == np.float64 else g.op("Cast", a, to=TensorProto.DOUBLE)
    return wide, dtype, len(g.in_tensors[0].shape)


def _narrowed(g: Any, x: str, dtype: np.dtype) -> str:
    return x if dtype == np.float64 else g.op("Cast", x, to=_elem(dtype))


def _static_n(g: Any, op: str) -> int:
    """The matrix size, which the lowering lays its loops and index tables out over: a size the graph's
    inputs make dynamic refuses (StaticDimRequired naming the line); one that shape inference could not
    follow to an input (a Loop's output) is taken as traced."""
    n = g.in_tensors[0].shape[-1]
    if getattr(n, "declared", False):
        from cellonnx.graph.trace import require_static
        require_static(n, f"the ONNX lowering of ops.{op} lays its loops out over the matrix size and")
    if not isinstance(n, (int, np.integer)):
        raise NotImplementedError(f"ops.{op}: the ONNX lowering needs the matrix size known when traced, got "
                                  f"{n}")
    return int(n)


def _static_shape(g: Any) -> tuple[int, ...] | None:
    """The input's shape where every dim is known when traced (no SymInt: those are ints too), else None."""
    from cellonnx.graph.symint import SymInt
    shape = tuple(g.in_tensors[0].shape)
    return tuple(int(d) for d in shape) if not any(isinstance(d, SymInt) for d in shape) else None


# the columns of a diagonal block of the blocked Cholesky factorization; 0: one Loop over all the columns
BLOCK = 16

# the most int64 entries of a constant index table in a Loop body (below: a few MiB)
_TABLE_LIMIT = 1 << 19


def _filled_with(b: Any, j: str, shape: tuple[int, ...] | None, rank: int, axis: int, like: str) -> str:
    """Indices filled with the iteration ``j`` in the shape of ``like`` (a column, axis -1, or a row, axis -2,
    of the matrices ``shape``) for a ScatterElements: row j of a constant table where the shape is known when
    traced (one node), else j expanded to ``like``'s shape (three)."""
    if shape is not None:
        one = list(shape)
        one[axis] = 1
        n = shape[-1]
        if n * int(np.prod(one)) <= _TABLE_LIMIT:
            table = np.broadcast_to(np.arange(n, dtype=np.int64).reshape((n,) + (1,) * len(one)), (n, *one))
            return b.op("Gather", b.const(np.ascontiguousarray(table)), j, axis=0)
    return b.op("Expand", b.op("Reshape", j, b.const(np.ones(rank, np.int64))), b.op("Shape", like))


def _swap_last(rank: int) -> list[int]:
    return list(range(rank - 2)) + [rank - 1, rank - 2]


def _body(g: Any, name: str, elem: int, rank: int, carried: list[str]) -> tuple[Any, str, list[str]]:
    """A Loop body builder with inputs (iteration, cond, *carried); returns (builder, iteration, carried)."""
    b = g.child(name)
    it, cond = b.fresh(f"{name}_iter"), b.fresh(f"{name}_cond")
    ins = [b.fresh(f"{name}_{c}") for c in carried]
    b.inputs = [helper.make_tensor_value_info(it, TensorProto.INT64, []),
                helper.make_tensor_value_info(cond, TensorProto.BOOL, [])]
    b.inputs += [b.subgraph_io(i, elem, rank) for i in ins]
    b.outputs = [b.subgraph_io(b.op("Identity", cond), TensorProto.BOOL, 0)]
    return b, it, ins


def cholesky_loop(g: Any, a: str, upper: bool) -> str:
    """The Cholesky factor of ``a`` (..., n, n): L, or L^T with ``upper``."""
    n, shape = _static_n(g, "cholesky"), _static_shape(g)
    a, dtype, rank = _widened(g, a)
    batch = None if shape is None else shape[:-2]
    if 0 < BLOCK < n:
        record: _Factor | _Blocked = _blocked_factor(g, a, n, batch, rank, upper)
        low = record.low
    else:
        record = _column_loop(g, a, n, batch, rank, upper)
        low = record.loop
    out = g.op("Transpose", low, perm=_swap_last(rank)) if upper else low
    out = _narrowed(g, out, dtype)
    _triangular(g)[out] = record
    return out


def _column_loop(g: Any, a: str, n: int, batch: tuple[int, ...] | None, rank: int, upper: bool) -> _Factor:
    """The lower Cholesky factor of ``a`` (float64, (..., n, n)) by one Loop over its n columns."""
    shape = None if batch is None else (*batch, n, n)
    work = np.dtype(np.float64)
    elem = _elem(work)
    zero = helper.make_tensor("zero", elem, [1], np.zeros(1, work).tobytes(), raw=True)
    low0 = g.op("ConstantOfShape", g.op("Shape", a), value=zero)
    b, j, (low,) = _body(g, "cholesky_column", elem, rank, ["low"])
    jj = b.unsqueeze(j, [0])
    col_a = b.op("Gather", a, jj, axis=-1)                                            # (..., n, 1)
    row_raw = b.op("Gather", low, jj, axis=-2)                                        # L[j, :]
    row_l = b.op("Transpose", row_raw, perm=_swap_last(rank))
    v = b.op("Sub", col_a, b.op("MatMul", low, row_l))
    d = b.op("Sqrt", b.op("Gather", v, jj, axis=-2))                                  # (..., 1, 1)
    # the masks of column j, read from constant tables (a Gather each: one node, not a compare and a cast)
    # L[j, j] is sqrt(v[j]) itself, as potrf's, not v[j] / sqrt(v[j]), and the rows above j are zeros chosen,
    # not v times 0: an infinite v[j] (statistics that overflowed) gives L[j, j] = inf and zeros below it as
    # LAPACK's, where the quotient would be inf / inf and the later columns' rows j inf * 0, both NaN
    below = b.op("Gather", b.const(np.tril(np.ones((n, n), bool), -1)), jj, axis=1)   # (n, 1): i > j
    on_diag = b.op("Gather", b.const(np.eye(n, dtype=bool)), jj, axis=1)              # (n, 1): i == j
    col = b.op("Where", on_diag, d, b.op("Where", below, b.op("Div", v, d), b.const(np.zeros(1, work))))
    onehot = b.op("Gather", b.const(np.eye(n, dtype=work)), j, axis=0)                # (n,): e_j
    # column j written in place of the zeros (a scatter: not a rewrite of the whole factor)
    at_col = _filled_with(b, j, shape, rank, -1, col)
    b.outputs.append(b.subgraph_io(b.op("ScatterElements", low, at_col, col, axis=-1), elem, rank))
    loop = g.op("Loop", g.i64(n), None, low0, body=b.graph())
    return _Factor(upper, loop, low0, j, jj, row_raw, d, onehot, n, rank, shape)


@dataclass
class _Factor:
    """A Cholesky factor lowered in this graph: its Loop (output ``loop``, zeros ``low0`` carried in) and the
    body's values an inverse computed in the same Loop reads (``row``: L[j, :] before column j, ``diag``:
    L[j, j])."""

    upper: bool
    loop: str
    low0: str
    j: str
    jj: str
    row: str
    diag: str
    e_j: str
    n: int
    rank: int
    shape: tuple[int, ...] | None
    inverse: str | None = None


@dataclass
class _Blocked:
    """A Cholesky factor lowered blockwise in this graph (``nodes``: its node list): the lower factor ``low``
    and ``inverse``, which adds L^-1 (float64) to the graph from the blocks' inverses."""

    upper: bool
    low: str
    inverse: Callable[[], str]
    nodes: list


def _slice(g: Any, x: str, rows: tuple[int, int], cols: tuple[int, int]) -> str:
    return g.op("Slice", x, g.i64([rows[0], cols[0]]), g.i64([rows[1], cols[1]]), g.i64([-2, -1]))


def _padded(g: Any, x: str, rank: int, top: int = 0, right: int = 0) -> str:
    """``x`` with ``top`` rows of zeros above it and ``right`` columns of zeros after it."""
    pads = [0] * (2 * rank)
    pads[rank - 2], pads[2 * rank - 1] = top, right
    return g.op("Pad", x, g.i64(pads))


def _blocked_factor(g: Any, a: str, n: int, batch: tuple[int, ...] | None, rank: int,
                    upper: bool) -> _Blocked:
    """The lower Cholesky factor of ``a`` (float64) by blocks (``_halves``)."""
    low, inverse = _halves(g, a, n, batch, rank)
    return _Blocked(upper, low, inverse, g.nodes)


def _halves(g: Any, a: str, n: int, batch: tuple[int, ...] | None,
            rank: int) -> tuple[str, Callable[[], str]]:
    """(L, a function that adds L^-1 to the graph) of ``a`` (float64), right-looking on two halves of whole
    blocks of ``BLOCK`` columns, recursively: ``L11 = chol(A11)``, the panel ``L21 = A21 L11^-T``,
    ``L22 = chol(A22 - L21 L21^T)``, and ``L^-1 = [[L11^-1, 0], [-L22^-1 L21 L11^-1, L22^-1]]``; a block of
    ``BLOCK`` columns or fewer is the column Loop's, which carries its factor's inverse. Halves rather than
    a block at a time: the Schur complements and the assembled factors are smaller copies (by a count of
    elements about 12 n^2 against 19 n^2 at n = 128 in blocks of 16; 10% of the time at 14 x 128,
    bench/RESULTS.md). It reads the lower triangle only (the upper one of each Schur complement is
    computed, never read); a failing pivot's NaN reaches every later column through the Schur complement,
    as the column Loop's."""
    if n <= BLOCK:
        f = _column_loop(g, a, n, batch, rank, False)
        inv = _inverse_in_the_loop(g, f)
        return f.loop, lambda: inv
    k = BLOCK * ((-(-n // BLOCK) + 1) // 2)
    l11, x11_made = _halves(g, _slice(g, a, (0, k), (0, k)), k, batch, rank)
    x11 = x11_made()
    panel = g.op("MatMul", _slice(g, a, (k, n), (0, k)), g.op("Transpose", x11, perm=_swap_last(rank)))
    schur = g.op("Sub", _slice(g, a, (k, n), (k, n)),
                 g.op("MatMul", panel, g.op("Transpose", panel, perm=_swap_last(rank))))
    l22, x22_made = _halves(g, schur, n - k, batch, rank)
    low = g.op("Concat", _padded(g, l11, rank, right=n - k), g.op("Concat", panel, l22, axis=-1), axis=-2)
    made: list[str] = []

    def inverse() -> str:   # only where asked for: ops.cholesky alone needs no more than the halves' own
        if not made:
            x22 = x22_made()
            x21 = g.op("Neg", g.op("MatMul", x22, g.op("MatMul", panel, x11)))
            made.append(g.op("Concat", _padded(g, x11, rank, right=n - k), g.op("Concat", x21, x22, axis=-1),
                             axis=-2))
        return made[0]
    return low, inverse


def _blocked_inverse(g: Any, f: _Blocked) -> str | None:
    """L^-1 (float64) of a blockwise factor from what its lowering computed. None when the factor was lowered
    in another graph (a control-flow body)."""
    if f.nodes is not g.nodes:
        return None
    return f.inverse()


def _triangular(g: Any) -> dict[str, _Factor | _Blocked]:
    """The Cholesky factors lowered in this graph, by output name."""
    return g.__dict__.setdefault("triangular_factors", {})


def _inverse_in_the_loop(g: Any, f: _Factor) -> str | None:
    """L^-1 (float64) computed by the factor's own Loop, one more carried value: row j of X is
    ``(e_j - L[j, :] X) / L[j, j]`` as soon as column j of L is known. None when the Loop is not a node of
    this graph (lowered in another body)."""
    if f.inverse is not None:
        return f.inverse
    node = next((nd for nd in g.nodes if nd.op_type == "Loop" and nd.output[0] == f.loop), None)
    if node is None:
        return None
    elem = _elem(np.float64)
    body = next(a for a in node.attribute if a.name == "body").g
    b = g.child(body.name)
    x = b.fresh("triangular_inverse_x")
    row_x = b.op("Div", b.op("Sub", f.e_j, b.op("MatMul", f.row, x)), f.diag)         # (..., 1, n)
    at_row = _filled_with(b, f.j, f.shape, f.rank, -2, row_x)
    new = b.op("ScatterElements", x, at_row, row_x, axis=-2)                         # row j of X
    body.node.extend(b.nodes)
    body.input.append(helper.make_tensor_value_info(x, elem, [None] * f.rank))
    body.output.append(helper.make_tensor_value_info(new, elem, [None] * f.rank))
    node.input.append(f.low0)   # X starts as zeros, as L
    f.inverse = g.fresh(f.loop + ".inverse")
    node.output.append(f.inverse)
    return f.inverse


def _fused_inverse(g: Any, f: _Factor | _Blocked) -> str | None:
    """L^-1 (float64) of a factor lowered in this graph from what its lowering computed, else None."""
    return _blocked_inverse(g, f) if isinstance(f, _Blocked) else _inverse_in_the_loop(g, f)


def _lower_triangular_inverse(g: Any, low: str, n: int, rank: int) -> str:
    """L^-1 of lower-triangular ``low`` (float64) by forward substitution, row by row:
    ``X[j, :] = (e_j - L[j, :] X) / L[j, j]`` with the rows of X from j on still zero."""
    elem, shape = _elem(np.float64), _static_shape(g)
    zero = helper.make_tensor("zero", elem, [1], np.zeros(1, np.float64).tobytes(), raw=True)
    x0 = g.op("ConstantOfShape", g.op("Shape", low), value=zero)
    b, j, (x,) = _body(g, "triangular_inverse_row", elem, rank, ["x"])
    jj = b.unsqueeze(j, [0])
    row_l = b.op("Gather", low, jj, axis=-2)                                          # (..., 1, n)
    diag = b.op("Gather", row_l, jj, axis=-1)                                         # (..., 1, 1)
    eye = b.const(np.eye(n, dtype=np.float64))
    e_j = b.op("Gather", eye, j, axis=0)                                              # (n,)
    row_x = b.op("Div", b.op("Sub", e_j, b.op("MatMul", row_l, x)), diag)             # (..., 1, n)
    at_row = _filled_with(b, j, shape, rank, -2, row_x)
    b.outputs.append(b.subgraph_io(b.op("ScatterElements", x, at_row, row_x, axis=-2), elem, rank))
    return g.op("Loop", g.i64(n), None, x0, body=b.graph())


def inverse_loop(g: Any, a: str) -> str:
    """The inverse of ``a`` (..., n, n) by Gauss-Jordan elimination with partial pivoting; of a Cholesky
    factor of this graph (THOR's ``inverse(cholesky(A))``) by substitution, one matrix product of a row per
    column and no pivoting (a triangular factor with a positive diagonal needs none)."""
    n = _static_n(g, "inverse")
    factor = _triangular(g).get(a)
    a, dtype, rank = _widened(g, a)
    if factor is not None:
        fused = _fused_inverse(g, factor)
        if factor.upper:   # U^-1 = ((U^T)^-1)^T
            low_inv = fused or _lower_triangular_inverse(g, g.op("Transpose", a, perm=_swap_last(rank)), n,
                                                         rank)
            return _narrowed(g, g.op("Transpose", low_inv, perm=_swap_last(rank)), dtype)
        return _narrowed(g, fused or _lower_triangular_inverse(g, a, n, rank), dtype)
    work = np.dtype(np.float64)
    elem = _elem(work)
    one = helper.make_tensor("one", elem, [1], np.ones(1, work).tobytes(), raw=True)
    shape = g.op("Shape", a)
    # [A | I]: (..., n, 2n)
    eye = g.const(np.eye(n, dtype=work))
    aug0 = g.op("Concat", a, g.op("Mul", g.op("ConstantOfShape", shape, value=one), eye), axis=-1)
    b, k, (aug,) = _body(g, "inverse_column", elem, rank, ["aug"])
    kk = b.unsqueeze(k, [0])
    rows = b.const(np.arange(n, dtype=np.int64).reshape(n, 1))
    col = b.op("Gather", aug, kk, axis=-1)                                            # (..., n, 1)
    # pivot: the row at or below k of largest magnitude (rows above k score -1)
    at_or_below = b.op("GreaterOrEqual", rows, k)
    score = b.op("Where", at_or_below, b.op("Abs", col), b.const(np.array(-1, work)))
    piv = b.op("ArgMax", score, axis=-2, keepdims=1)                                  # (..., 1, 1)
    # swap rows k and piv: row i reads row perm[i]
    is_k = b.op("Equal", rows, k)                                                     # (n, 1)
    is_p = b.op("Equal", rows, piv)                                                   # (..., n, 1)
    perm = b.op("Where", is_k, piv, b.op("Where", is_p, kk, rows))                    # (..., n, 1)
    idx = b.op("Expand", perm, b.op("Shape", aug))
    swapped = b.op("GatherElements", aug, idx, axis=-2)
    row_k = b.op("Gather", swapped, kk, axis=-2)                                      # (..., 1, 2n)
    pivot = b.op("Gather", row_k, kk, axis=-1)                                        # (..., 1, 1)
    row_k = b.op("Div", row_k, pivot)
    factor = b.op("Gather", swapped, kk, axis=-1)                                     # (..., n, 1)
    others = b.op("Cast", b.op("Not", is_k), to=elem)                                 # (n, 1)
    eliminated = b.op("Sub", swapped, b.op("MatMul", b.op("Mul", factor, others), row_k))
    # row k becomes the scaled pivot row
    new = b.op("Where", is_k, row_k, eliminated)
    b.outputs.append(b.subgraph_io(new, elem, rank))
    out = g.op("Loop", g.i64(n), None, aug0, body=b.graph())
    starts, ends, axes = g.i64([n]), g.i64([2 * n]), g.i64([-1])
    return _narrowed(g, g.op("Slice", out, starts, ends, axes), dtype)
