"""The cellonnx.numpy table: one row per call, checked against NumPy in float64 (values), by central finite
differences (gradients of the float inputs) and through onnxruntime (the traced graph against eager).

Rows follow tests/ops/harness.OpCase; ``rtol`` is the element-relative and ``params['scale_rtol']`` the
scale-relative tolerance of tests/tolerance.py. ``grad=()`` marks calls without a gradient to check (integer
or boolean results, piecewise-constant functions) or whose MindSpore dtype rule computes in float32 (so a
float64 finite difference cannot check them); ``lower=False`` a call whose graph holds nothing beyond rows
already lowered (or, said in ``note``, one that cannot be a static graph).
"""
from __future__ import annotations

import numpy as np

import cellonnx.numpy as mnp
from tests.ops.harness import OpCase, positive, rand

A, B = rand(3, 4, seed=1), rand(3, 4, seed=2)
C = rand(3, 4, seed=3)
P, Q = positive(3, 4, seed=4), positive(3, 4, seed=5)
U = rand(3, 4, seed=6) * 0.9
X3 = rand(2, 3, 4, seed=7)
V, W = rand(5, seed=8), rand(5, seed=9)
V3, W3 = rand(3, seed=10), rand(3, seed=11)
SQ = rand(3, 3, seed=12)
M43 = rand(4, 3, seed=13)
BIG = positive(3, 4, seed=14) + 1.0
INTS = np.array([[3, -2, 5, 0], [-7, 4, 1, 6], [2, 2, -1, -4]], np.int64)
INTS2 = np.array([[2, 3, -2, 1], [3, 5, 7, -3], [1, 4, 2, 2]], np.int64)
MASK = A > 0
SRT = np.sort(rand(8, seed=15))
NANS = np.where(np.abs(A) < 0.3, np.nan, A)
IDX = np.array([[0, 3], [2, -1], [1, 1]], np.int64)
GCD_A = np.array([12, 18, 0, 7, -4, 9, 0], np.int64)
GCD_B = np.array([8, 24, 5, 0, 6, -15, 0], np.int64)
DUP = np.array([3, 1, 2, 1, 5, 3, 0, 2], np.int64)
DUP2 = np.array([2, 7, 3, 2, 8], np.int64)


def _first_order_unique(x):
    _, first = np.unique(x, return_index=True)
    return x.reshape(-1)[np.sort(first)]


def _take_clip(a, idx, axis):  # MindSpore's clip mode: -n..-1 count from the end, others are clamped
    n = a.shape[axis]
    idx = np.where(idx < -n, 0, np.minimum(idx, n - 1))
    return np.take(a, idx, axis)


def R(name, fn, inputs, ref, **kw):
    kw.setdefault("opsets", (18,))
    return OpCase(name, fn, inputs, ref, **kw)


CREATION = [
    R("array_ndmin", lambda x: mnp.array(x, ndmin=3), [A], lambda x: np.array(x, ndmin=3)),
    R("asarray_dtype", lambda x: mnp.asarray(x, mnp.float16), [A], lambda x: x.astype(np.float16),
      rtol=1e-3, grad=(), lower=False),
    R("asfarray_int", lambda x: mnp.asfarray(x), [INTS], lambda x: x.astype(np.float32), lower=False),
    R("copy", lambda x: mnp.copy(x), [A], np.copy),
    R("ones", lambda: mnp.ones((2, 3), mnp.int32), [], lambda: np.ones((2, 3), np.int32), lower=False),
    R("zeros", lambda: mnp.zeros(4), [], lambda: np.zeros(4), lower=False),
    R("full_tensor", lambda x: mnp.full((2, 3, 4), x), [A[0]], lambda x: np.full((2, 3, 4), x)),
    R("empty", lambda: mnp.empty((2, 3)), [], lambda: np.zeros((2, 3)), lower=False),
    R("ones_like", lambda x: mnp.ones_like(x), [A], np.ones_like),
    R("zeros_like_shape", lambda x: mnp.zeros_like(x, shape=(2, 2)), [A], lambda x: np.zeros((2, 2)),
      lower=False),
    R("full_like", lambda x: mnp.full_like(x, 2.5), [A], lambda x: np.full_like(x, 2.5)),
    R("empty_like", lambda x: mnp.empty_like(x), [A], np.zeros_like, lower=False),
    R("arange", lambda: mnp.arange(1, 11, 3), [], lambda: np.arange(1, 11, 3), lower=False),
    R("arange_float", lambda: mnp.arange(0.5, 3, 0.25), [], lambda: np.arange(0.5, 3, 0.25), lower=False),
    R("linspace_tensors", lambda a, b: mnp.linspace(a, b, 5), [V3, W3], lambda a, b: np.linspace(a, b, 5),
      grad=(), note="float32, as MindSpore; the gradient is checked with dtype float64 below"),
    R("linspace_float64", lambda a, b: mnp.linspace(a, b, 5, dtype=mnp.float64), [V3, W3],
      lambda a, b: np.linspace(a, b, 5)),
    R("linspace_axis_no_endpoint", lambda a, b: mnp.linspace(a, b, 4, False, dtype=mnp.float64, axis=-1),
      [V3, W3], lambda a, b: np.linspace(a, b, 4, endpoint=False, axis=-1)),
    R("linspace_retstep", lambda a, b: mnp.linspace(a, b, 6, retstep=True, dtype=mnp.float64), [V3, W3],
      lambda a, b: np.linspace(a, b, 6, retstep=True)),
    R("logspace", lambda a, b: mnp.logspace(a, b, 4, base=2.0, dtype=mnp.float64), [V3, W3],
      lambda a, b: np.logspace(a, b, 4, base=2.0)),
    R("geomspace", lambda a, b: mnp.geomspace(a, b, 5), [V3 + 2.0, W3 + 4.0],
      lambda a, b: np.geomspace(a, b, 5)),
    R("eye_k", lambda: mnp.eye(3, 5, 2), [], lambda: np.eye(3, 5, 2), lower=False),
    R("eye_kneg", lambda: mnp.eye(4, 3, -1, mnp.int32), [], lambda: np.eye(4, 3, -1, np.int32), lower=False),
    R("identity", lambda: mnp.identity(3), [], lambda: np.identity(3), lower=False),
    R("tri", lambda: mnp.tri(3, 4, -1), [], lambda: np.tri(3, 4, -1), lower=False),
    R("tril", lambda x: mnp.tril(x, 1), [A], lambda x: np.tril(x, 1)),
    R("triu_3d", lambda x: mnp.triu(x, -1), [X3], lambda x: np.triu(x, -1)),
    R("tril_1d", lambda x: mnp.tril(x), [V], np.tril),
    R("diagonal", lambda x: mnp.diagonal(x, 1, 2, 0), [X3], lambda x: np.diagonal(x, 1, 2, 0)),
    R("diagonal_neg", lambda x: mnp.diagonal(x, -1), [A], lambda x: np.diagonal(x, -1)),
    R("trace", lambda x: mnp.trace(x, 1), [A], lambda x: np.trace(x, 1)),
    R("trace_3d", lambda x: mnp.trace(x, 0, 1, 2), [X3], lambda x: np.trace(x, 0, 1, 2)),
    R("trace_int", lambda x: mnp.trace(x, -1), [INTS], lambda x: np.trace(x, -1)),
    R("diag_1d", lambda x: mnp.diag(x, -1), [V], lambda x: np.diag(x, -1)),
    R("diag_2d", lambda x: mnp.diag(x, 2), [A], lambda x: np.diag(x, 2)),
    R("diagflat", lambda x: mnp.diagflat(x, 1), [SQ], lambda x: np.diagflat(x, 1)),
    R("diag_indices", lambda: mnp.diag_indices(3, 3), [], lambda: np.diag_indices(3, 3), lower=False),
    R("meshgrid", lambda x, y: mnp.meshgrid(x, y), [V, V3], lambda x, y: np.meshgrid(x, y)),
    R("meshgrid_ij_sparse", lambda x, y, z: mnp.meshgrid(x, y, z, indexing="ij", sparse=True), [V, V3, W3],
      lambda x, y, z: np.meshgrid(x, y, z, indexing="ij", sparse=True)),
    R("mgrid", lambda: mnp.mgrid[0:3, 1:5:2], [], lambda: np.mgrid[0:3, 1:5:2], lower=False),
    R("mgrid_mixed", lambda: mnp.mgrid[0:2, 0:1:3j], [], lambda: np.mgrid[0:2, 0:1:3j], lower=False),
    R("ogrid", lambda: mnp.ogrid[0:2, 0:3], [], lambda: np.ogrid[0:2, 0:3], lower=False),
    R("indices_sparse", lambda: mnp.indices((2, 3), sparse=True), [], lambda: np.indices((2, 3), sparse=True),
      lower=False),
    R("ix_", lambda a, b: mnp.ix_(a, b), [np.array([1, 0, 2]), np.array([3, 1])],
      lambda a, b: np.ix_(a, b)),
    R("vander", lambda x: mnp.vander(x, 4, True), [V3], lambda x: np.vander(x, 4, True)),
    R("triu_indices", lambda: mnp.triu_indices(3, 1, 5), [], lambda: np.triu_indices(3, 1, 5), lower=False),
    R("tril_indices_from", lambda x: mnp.tril_indices_from(x, -1), [A], lambda x: np.tril_indices_from(x, -1),
      lower=False),
    R("hamming", lambda: mnp.hamming(7), [], lambda: np.hamming(7), lower=False),
    R("hanning", lambda: mnp.hanning(6), [], lambda: np.hanning(6), lower=False),
    R("bartlett", lambda: mnp.bartlett(5), [], lambda: np.bartlett(5), lower=False),
    R("blackman", lambda: mnp.blackman(8), [], lambda: np.blackman(8), lower=False),
]

PADDING = [
    R("pad_constant_values", lambda x: mnp.pad(x, ((1, 2), (0, 3)), constant_values=((1, 2), (3, 4))), [A],
      lambda x: np.pad(x, ((1, 2), (0, 3)), constant_values=((1, 2), (3, 4)))),
    R("pad_edge", lambda x: mnp.pad(x, 2, "edge"), [A], lambda x: np.pad(x, 2, "edge")),
    R("pad_reflect_wide", lambda x: mnp.pad(x, ((5, 2), (1, 7)), "reflect"), [A],
      lambda x: np.pad(x, ((5, 2), (1, 7)), "reflect")),
    R("pad_symmetric_wide", lambda x: mnp.pad(x, ((4, 1), (6, 2)), "symmetric"), [A],
      lambda x: np.pad(x, ((4, 1), (6, 2)), "symmetric")),
    R("pad_wrap", lambda x: mnp.pad(x, ((3, 7), (2, 5)), "wrap"), [A],
      lambda x: np.pad(x, ((3, 7), (2, 5)), "wrap")),
    R("pad_reflect_odd", lambda x: mnp.pad(x, ((4, 2), (1, 5)), "reflect", reflect_type="odd"), [A],
      lambda x: np.pad(x, ((4, 2), (1, 5)), "reflect", reflect_type="odd")),
    R("pad_symmetric_odd", lambda x: mnp.pad(x, 6, "symmetric", reflect_type="odd"), [V],
      lambda x: np.pad(x, 6, "symmetric", reflect_type="odd")),
    R("pad_linear_ramp",
      lambda x: mnp.pad(x, ((1, 2), (3, 1)), "linear_ramp", end_values=((1, -2), (0.5, 3))),
      [A], lambda x: np.pad(x, ((1, 2), (3, 1)), "linear_ramp", end_values=((1, -2), (0.5, 3)))),
    R("pad_maximum", lambda x: mnp.pad(x, (1, 2), "maximum"), [A], lambda x: np.pad(x, (1, 2), "maximum")),
    R("pad_minimum_stat", lambda x: mnp.pad(x, 2, "minimum", stat_length=((1, 2), (3, 1))), [A],
      lambda x: np.pad(x, 2, "minimum", stat_length=((1, 2), (3, 1)))),
    R("pad_mean", lambda x: mnp.pad(x, ((2, 1), (1, 3)), "mean", stat_length=2), [A],
      lambda x: np.pad(x, ((2, 1), (1, 3)), "mean", stat_length=2)),
    R("pad_function", lambda x: mnp.pad(x, 1, _pad_with_sevens), [A], lambda x: np.pad(x, 1, _np_pad_sevens),
      grad=(), lower=False),
    R("pad_int", lambda x: mnp.pad(x, ((1, 0), (2, 1)), "reflect"), [INTS],
      lambda x: np.pad(x, ((1, 0), (2, 1)),
                                                                                     "reflect")),
]


def _np_pad_sevens(vector, pad_width, iaxis, kwargs):
    vector[:pad_width[0]] = 7
    vector[vector.shape[0] - pad_width[1]:] = 7


def _pad_with_sevens(vector, pad_width, iaxis, kwargs):
    n = int(vector.shape[0])
    left = mnp.full((pad_width[0],), 7.0)
    right = mnp.full((pad_width[1],), 7.0)
    return mnp.concatenate((left, vector[pad_width[0]:n - pad_width[1]], right))


MANIPULATION = [
    R("transpose", lambda x: mnp.transpose(x, (2, 0, 1)), [X3], lambda x: np.transpose(x, (2, 0, 1))),
    R("expand_dims_tuple", lambda x: mnp.expand_dims(x, (0, -1)), [A], lambda x: np.expand_dims(x, (0, -1))),
    R("squeeze", lambda x: mnp.squeeze(x, (0, 2)), [A.reshape(1, 12, 1)],
      lambda x: np.squeeze(x, (0, 2))),
    R("rollaxis", lambda x: mnp.rollaxis(x, 2, 1), [X3], lambda x: np.rollaxis(x, 2, 1)),
    R("swapaxes", lambda x: mnp.swapaxes(x, 0, -1), [X3], lambda x: np.swapaxes(x, 0, -1)),
    R("moveaxis", lambda x: mnp.moveaxis(x, (0, 1), (2, 0)), [X3], lambda x: np.moveaxis(x, (0, 1), (2, 0))),
    R("reshape", lambda x: mnp.reshape(x, (4, -1)), [A], lambda x: np.reshape(x, (4, -1))),
    R("ravel", lambda x: mnp.ravel(x), [X3], np.ravel),
    R("concatenate", lambda x, y: mnp.concatenate((x, y), 1), [A, B], lambda x, y: np.concatenate((x, y), 1)),
    R("concatenate_none", lambda x, y: mnp.concatenate((x, y), None), [A, X3],
      lambda x, y: np.concatenate((x, y), None)),
    R("concatenate_tensor", lambda x: mnp.concatenate(x, 1), [X3], lambda x: np.concatenate(list(x), 1)),
    R("append", lambda x, y: mnp.append(x, y, 0), [A, B], lambda x, y: np.append(x, y, 0)),
    R("column_stack", lambda x, y: mnp.column_stack((x, y)), [V, W], lambda x, y: np.column_stack((x, y))),
    R("hstack", lambda x, y: mnp.hstack((x, y)), [A, B], lambda x, y: np.hstack((x, y))),
    R("vstack", lambda x, y: mnp.vstack((x, y)), [V, W], lambda x, y: np.vstack((x, y))),
    R("dstack", lambda x, y: mnp.dstack((x, y)), [A, B], lambda x, y: np.dstack((x, y))),
    R("atleast_3d", lambda x, y: mnp.atleast_3d(x, y), [V, A], lambda x, y: np.atleast_3d(x, y)),
    R("atleast_2d", lambda x: mnp.atleast_2d(x), [V], np.atleast_2d),
    R("stack", lambda x, y: mnp.stack((x, y), -1), [A, B], lambda x, y: np.stack((x, y), -1)),
    R("stack_tensor", lambda x: mnp.stack(x, 2), [X3], lambda x: np.stack(list(x), 2)),
    R("tile", lambda x: mnp.tile(x, (2, 1, 3)), [A], lambda x: np.tile(x, (2, 1, 3))),
    R("repeat_counts", lambda x: mnp.repeat(x, [2, 0, 1], 0), [A], lambda x: np.repeat(x, [2, 0, 1], 0)),
    R("repeat_flat", lambda x: mnp.repeat(x, 2), [A], lambda x: np.repeat(x, 2)),
    R("broadcast_to", lambda x: mnp.broadcast_to(x, (2, 3, 4)), [A[:1]],
      lambda x: np.broadcast_to(x, (2, 3, 4))),
    R("broadcast_arrays", lambda x, y: mnp.broadcast_arrays(x, y), [V, A[:, :1]],
      lambda x, y: np.broadcast_arrays(x, y)),
    R("split", lambda x: mnp.split(x, [1, 3], 1), [A], lambda x: np.split(x, [1, 3], 1)),
    R("split_empty_pieces", lambda x: mnp.split(x, [2, 1, 9]), [V], lambda x: np.split(x, [2, 1, 9])),
    R("array_split", lambda x: mnp.array_split(x, 3, 1), [A], lambda x: np.array_split(x, 3, 1)),
    R("hsplit", lambda x: mnp.hsplit(x, 2), [A], lambda x: np.hsplit(x, 2)),
    R("vsplit", lambda x: mnp.vsplit(x, [1]), [A], lambda x: np.vsplit(x, [1])),
    R("dsplit", lambda x: mnp.dsplit(x, [1, 3]), [X3], lambda x: np.dsplit(x, [1, 3])),
    R("flip", lambda x: mnp.flip(x, (0, 2)), [X3], lambda x: np.flip(x, (0, 2))),
    R("flipud", lambda x: mnp.flipud(x), [A], np.flipud),
    R("fliplr", lambda x: mnp.fliplr(x), [A], np.fliplr),
    R("roll", lambda x: mnp.roll(x, (1, -1), (0, 1)), [A], lambda x: np.roll(x, (1, -1), (0, 1))),
    R("roll_flat", lambda x: mnp.roll(x, 5), [A], lambda x: np.roll(x, 5)),
    R("rot90", lambda x: mnp.rot90(x, -1, (2, 0)), [X3], lambda x: np.rot90(x, -1, (2, 0))),
    R("rot90_twice", lambda x: mnp.rot90(x, 2), [A], lambda x: np.rot90(x, 2)),
]

INDEXING = [
    R("where", lambda c, x, y: mnp.where(c, x, y), [MASK, A, B[:1]], lambda c, x, y: np.where(c, x, y)),
    R("where_scalar", lambda c, x: mnp.where(c, x, 1.5), [MASK, A], lambda c, x: np.where(c, x, 1.5)),
    R("where_condition_only", lambda c: mnp.where(c), [MASK], lambda c: np.where(c), lower=False,
      note="the coordinates' count depends on the data"),
    R("take", lambda x, i: mnp.take(x, i, 1), [A, IDX], lambda x, i: _take_clip(x, i, 1)),
    R("take_wrap", lambda x, i: mnp.take(x, i, 0, "wrap"), [A, IDX * 3], lambda x,
      i: np.take(x, i, 0, mode="wrap")),
    R("take_flat_raise", lambda x, i: mnp.take(x, i, mode="raise"), [A, IDX], lambda x, i: np.take(x, i)),
    R("take_along_axis", lambda x, i: mnp.take_along_axis(x, i, 1), [A, np.argsort(A, 1)[:, :2]],
      lambda x, i: np.take_along_axis(x, i, 1)),
    R("take_along_axis_broadcast", lambda x, i: mnp.take_along_axis(x, i, 0), [A, np.array([[2, 0, 1, 2]])],
      lambda x, i: np.take_along_axis(x, i, 0)),
    R("choose", lambda i, x, y, z: mnp.choose(i, [x, y, z]), [np.abs(INTS) % 3, A, B, C],
      lambda i, x, y, z: np.choose(i, [x, y, z])),
    R("choose_clip", lambda i, x, y: mnp.choose(i, [x, y]), [INTS, A, B],
      lambda i, x, y: np.choose(i, [x, y], mode="clip")),
    R("select", lambda x, y: mnp.select([x > 0.5, x < -0.5], [x, y], -1.0), [A, B],
      lambda x, y: np.select([x > 0.5, x < -0.5], [x, y], -1.0), grad=(),
      note="a list of float64 tensors becomes float32, as in MindSpore"),
    R("piecewise", lambda x: mnp.piecewise(x, [x < 0, x >= 0], [lambda t: -t, lambda t: t * t]), [A],
      lambda x: np.piecewise(x, [x < 0, x >= 0], [lambda t: -t, lambda t: t * t])),
    R("argwhere", lambda x: mnp.argwhere(x), [MASK], np.argwhere, lower=False,
      note="the count depends on the data"),
    R("unravel_index", lambda i: mnp.unravel_index(i, (3, 4)), [np.array([0, 5, 11, 7])],
      lambda i: np.unravel_index(i, (3, 4))),
    R("unravel_index_f", lambda i: mnp.unravel_index(i, (2, 3, 4), "F"), [np.array([[1, 23], [9, 16]])],
      lambda i: np.unravel_index(i, (2, 3, 4), "F")),
    R("ravel_multi_index", lambda i: mnp.ravel_multi_index(i, (7, 6)), [np.array([[3, 6, 6], [4, 5, 1]])],
      lambda i: np.ravel_multi_index(i, (7, 6)).astype(np.float32)),
    R("ravel_multi_index_wrap", lambda i: mnp.ravel_multi_index(i, (4, 5), "wrap", "F"),
      [np.array([[5, -1, 2], [7, 3, -6]])], lambda i: np.ravel_multi_index(i, (4, 5), "wrap", "F")),
    R("apply_along_axis", lambda x: mnp.apply_along_axis(mnp.diag, 1, x), [A],
      lambda x: np.apply_along_axis(np.diag, 1, x)),
    R("apply_over_axes", lambda x: mnp.apply_over_axes(mnp.sum, x, (0, 2)), [X3],
      lambda x: np.apply_over_axes(np.sum, x, (0, 2))),
]

LOGIC = [
    R("equal", lambda x, y: mnp.equal(x, y), [INTS, INTS2], np.equal),
    R("not_equal", lambda x, y: mnp.not_equal(x, y), [A, np.where(MASK, A, B)], np.not_equal),
    R("less", lambda x, y: mnp.less(x, y), [A, B], np.less),
    R("less_equal", lambda x, y: mnp.less_equal(x, y), [INTS, INTS2], np.less_equal),
    R("greater", lambda x, y: mnp.greater(x, y), [A, B[0]], np.greater),
    R("greater_equal_dtype", lambda x, y: mnp.greater_equal(x, y, mnp.float32), [A, B],
      lambda x, y: np.greater_equal(x, y).astype(np.float32), grad=()),
    R("isfinite", lambda x: mnp.isfinite(mnp.log(x)), [A], lambda x: np.isfinite(np.log(x))),
    R("isnan", lambda x: mnp.isnan(mnp.log(x)), [A], lambda x: np.isnan(np.log(x))),
    R("isinf", lambda x: mnp.isinf(mnp.divide(1.0, x - x)), [A], lambda x: np.isinf(1.0 / (x - x))),
    R("isposinf", lambda x: mnp.isposinf(mnp.divide(x, x - x)), [A], lambda x: np.isposinf(x / (x - x))),
    R("isneginf", lambda x: mnp.isneginf(mnp.divide(x, x - x)), [A], lambda x: np.isneginf(x / (x - x))),
    R("isnan_int", lambda x: mnp.isnan(x), [INTS], np.isnan),
    R("isclose", lambda x, y: mnp.isclose(x, y, 1e-2, 1e-3), [A, A + 2e-3 * B],
      lambda x, y: np.isclose(x, y, 1e-2, 1e-3)),
    R("isclose_special", lambda x: mnp.isclose(x, x, equal_nan=True),
      [np.array([np.nan, np.inf, -np.inf, 1.0])],
      lambda x: np.isclose(x, x, equal_nan=True)),
    R("array_equal", lambda x, y: mnp.array_equal(x, y), [INTS, INTS], np.array_equal),
    R("array_equiv", lambda x, y: mnp.array_equiv(x, y), [A[0], np.tile(A[0], (3, 1))], np.array_equiv),
    R("logical_and", lambda x, y: mnp.logical_and(x, y), [MASK, B > 0], np.logical_and),
    R("logical_or", lambda x, y: mnp.logical_or(x, y), [INTS, INTS2], np.logical_or),
    R("logical_xor", lambda x, y: mnp.logical_xor(x, y), [MASK, B > 0], np.logical_xor),
    R("logical_not", lambda x: mnp.logical_not(x), [INTS], np.logical_not),
    R("in1d", lambda x, y: mnp.in1d(x, y), [DUP, DUP2], lambda x, y: np.isin(x, y)),
    R("isin_invert", lambda x, y: mnp.isin(x, y, invert=True), [INTS, INTS2], lambda x,
      y: np.isin(x, y, invert=True)),
    R("signbit", lambda x: mnp.signbit(x), [A], np.signbit),
    R("sometrue", lambda x: mnp.sometrue(x, 1, True), [INTS], lambda x: np.any(x, 1, keepdims=True)),
]

ARITHMETIC = [
    R("add", lambda x, y: mnp.add(x, y), [A, B[:1]], np.add, second_order=True),
    R("add_int_scalar", lambda x: mnp.add(x, 3), [INTS], lambda x: x + 3),
    R("add_int8_uint8", lambda x, y: mnp.add(x, y), [INTS.astype(np.int8), (INTS2 * 40).astype(np.uint8)],
      np.add, lower=False, note="onnxruntime has no int16 Add"),
    R("subtract", lambda x, y: mnp.subtract(x, y), [A, B], np.subtract),
    R("multiply", lambda x, y: mnp.multiply(x, y), [A, B[:, :1]], np.multiply),
    R("divide", lambda x, y: mnp.divide(x, y), [A, P], np.divide, grad=(),
      note="MindSpore divides float64 in float32"),
    R("divide_f32", lambda x, y: mnp.divide(mnp.asarray(x, mnp.float32), y), [A, P], np.divide, grad=(1,)),
    R("true_divide_int", lambda x, y: mnp.true_divide(x, y), [INTS, INTS2], np.true_divide),
    R("power", lambda x, y: mnp.power(x, y), [P, A], np.power),
    R("power_int_negative", lambda x, y: mnp.power(x, y),
      [np.array([2, -1, 1, 3, -2]), np.array([-1, -3, -2, 2, 3])],
      lambda x, y: np.trunc(np.power(x.astype(float), y)).astype(np.int64)),
    R("float_power", lambda x, y: mnp.float_power(x, y), [P, A], np.float_power, grad=(),
      note="float32, as MindSpore"),
    R("floor_divide", lambda x, y: mnp.floor_divide(x, y), [INTS, INTS2], np.floor_divide),
    R("floor_divide_float", lambda x, y: mnp.floor_divide(x, y), [A * 5, P], np.floor_divide),
    R("remainder", lambda x, y: mnp.remainder(x, y), [A * 5, P + 0.25], np.remainder),
    R("remainder_int_zero", lambda x, y: mnp.remainder(x, y), [INTS, INTS2 * (INTS2 > 0)],
      lambda x, y: np.where(y == 0, 0, np.remainder(x, np.where(y == 0, 1, y)))),
    R("mod", lambda x: mnp.mod(x, -3), [INTS], lambda x: np.mod(x, -3)),
    R("fmod", lambda x, y: mnp.fmod(x, y), [A * 5, -P - 0.25], np.fmod),
    R("fmod_int", lambda x, y: mnp.fmod(x, y), [INTS, INTS2], np.fmod),
    R("divmod", lambda x, y: mnp.divmod(x, y), [A * 5, P], lambda x, y: np.divmod(x, y), grad=(0,)),
    R("maximum", lambda x, y: mnp.maximum(x, y), [A, B], np.maximum),
    R("maximum_nan", lambda x, y: mnp.maximum(x, y), [NANS, B], np.maximum, grad=()),
    R("minimum_scalar", lambda x: mnp.minimum(x, 0.25), [A], lambda x: np.minimum(x, 0.25)),
    R("clip", lambda x: mnp.clip(x, -0.5, 0.5), [A], lambda x: np.clip(x, -0.5, 0.5)),
    R("clip_tensor_bound", lambda x, lo: mnp.clip(x, lo, None), [A, B], lambda x, lo: np.maximum(x, lo)),
    R("absolute", lambda x: mnp.absolute(x), [A], np.absolute),
    R("abs_int", lambda x: mnp.abs(x), [INTS], np.abs),
    R("fabs", lambda x: mnp.fabs(x), [A], np.fabs),
    R("negative", lambda x: mnp.negative(x), [A], np.negative),
    R("positive", lambda x: mnp.positive(x), [A], np.positive),
    R("sign", lambda x: mnp.sign(x), [A], np.sign),
    R("sign_special", lambda x: mnp.sign(x), [np.array([np.inf, -np.inf, 0.0, -2.0, np.nan])], np.sign,
      grad=()),
    R("copysign", lambda x, y: mnp.copysign(x, y), [A, B], np.copysign),
    R("heaviside", lambda x, y: mnp.heaviside(x, y), [np.where(MASK, A, 0.0), B],
      lambda x, y: np.heaviside(x, y), grad=(1,)),
    R("hypot", lambda x, y: mnp.hypot(x, y), [A, B], np.hypot),
    R("floor", lambda x: mnp.floor(x), [A * 3], np.floor),
    R("ceil", lambda x: mnp.ceil(x), [A * 3], np.ceil, grad=(), note="float32, as MindSpore"),
    R("fix", lambda x: mnp.fix(x), [A * 3], np.fix, grad=(), note="float32, as MindSpore"),
    R("trunc", lambda x: mnp.trunc(x, mnp.float32), [A * 3], np.trunc, grad=()),
    R("rint", lambda x: mnp.rint(x), [np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6])], np.rint, grad=()),
    R("around", lambda x: mnp.around(x, 2), [A * 10], lambda x: np.around(x, 2)),
    R("round_negative_decimals", lambda x: mnp.round(x, -1), [INTS * 7], lambda x: np.round(x, -1)),
    R("gcd", lambda x, y: mnp.gcd(x, y), [GCD_A, GCD_B], np.gcd),
    R("lcm", lambda x, y: mnp.lcm(x, y), [GCD_A, GCD_B], np.lcm),
    R("bitwise_and", lambda x, y: mnp.bitwise_and(x, y), [INTS, INTS2], np.bitwise_and),
    R("bitwise_or", lambda x, y: mnp.bitwise_or(x, y), [INTS, INTS2], np.bitwise_or),
    R("bitwise_xor_bool", lambda x, y: mnp.bitwise_xor(x, y), [MASK, B > 0], np.bitwise_xor),
    R("invert", lambda x: mnp.invert(x), [INTS], np.invert),
    R("bitwise_not_bool", lambda x: mnp.bitwise_not(x), [MASK], np.invert),
]

TRANSCENDENTAL = [
    R("exp", lambda x: mnp.exp(x), [A], np.exp),
    R("exp2", lambda x: mnp.exp2(x), [A], np.exp2),
    R("expm1", lambda x: mnp.expm1(x), [A], np.expm1, second_order=True),
    R("expm1_small_and_large", lambda x: mnp.expm1(x), [np.array([1e-7, -3e-5, 2e-3, 30.0, -60.0, 80.0])],
      np.expm1, grad=()),
    R("log", lambda x: mnp.log(x), [P], np.log),
    R("log2", lambda x: mnp.log2(x), [P], np.log2),
    R("log10", lambda x: mnp.log10(x), [P], np.log10),
    R("log1p", lambda x: mnp.log1p(x), [U], np.log1p, second_order=True),
    R("log1p_small_and_large", lambda x: mnp.log1p(x), [np.array([1e-7, -3e-5, 2e-3, 30.0, 1e6, -0.999])],
      np.log1p),
    R("logaddexp", lambda x, y: mnp.logaddexp(x, y), [A * 10, B * 10], np.logaddexp),
    R("logaddexp_inf", lambda x, y: mnp.logaddexp(x, y), [np.array([-np.inf, np.inf, -np.inf, 2.0]),
                                                         np.array([-np.inf, np.inf, 3.0, -np.inf])],
      np.logaddexp, grad=()),
    R("logaddexp2", lambda x, y: mnp.logaddexp2(x, y), [A * 10, B * 10], np.logaddexp2),
    R("square", lambda x: mnp.square(x), [A], np.square),
    R("sqrt", lambda x: mnp.sqrt(x), [P], np.sqrt),
    R("cbrt", lambda x: mnp.cbrt(x), [A], np.cbrt),
    R("cbrt_zero", lambda x: mnp.cbrt(x), [np.array([0.0, -8.0, 27.0])], np.cbrt, grad=()),
    R("reciprocal", lambda x: mnp.reciprocal(x), [P], np.reciprocal),
    R("reciprocal_int", lambda x: mnp.reciprocal(x), [INTS + 8 * (INTS == 0)],
      lambda x: np.trunc(1 / x).astype(int)),
    R("sin", lambda x: mnp.sin(x), [A], np.sin),
    R("cos", lambda x: mnp.cos(x), [A], np.cos),
    R("tan", lambda x: mnp.tan(x), [U], np.tan, second_order=True),
    R("arcsin", lambda x: mnp.arcsin(x), [U], np.arcsin, second_order=True),
    R("arccos", lambda x: mnp.arccos(x), [U], np.arccos),
    R("arctan", lambda x: mnp.arctan(x), [A], np.arctan),
    R("sinh", lambda x: mnp.sinh(x), [A], np.sinh, second_order=True),
    R("cosh", lambda x: mnp.cosh(x), [A], np.cosh),
    R("tanh", lambda x: mnp.tanh(x), [A], np.tanh),
    R("arcsinh", lambda x: mnp.arcsinh(x), [A], np.arcsinh),
    R("arccosh", lambda x: mnp.arccosh(x), [BIG], np.arccosh),
    R("arctanh", lambda x: mnp.arctanh(x), [U], np.arctanh),
    R("arctan2", lambda x, y: mnp.arctan2(x, y), [A, B], np.arctan2, second_order=True),
    R("arctan2_axes", lambda x, y: mnp.arctan2(x, y), [np.array([0.0, 1.0, -1.0, 0.0, 2.0, -3.0]),
                                                      np.array([0.0, 0.0, 0.0, -1.0, -2.0, -0.5])],
      np.arctan2, grad=()),
    R("deg2rad", lambda x: mnp.deg2rad(x), [A * 90], np.deg2rad),
    R("radians", lambda x: mnp.radians(x), [A * 90], np.radians),
    R("rad2deg", lambda x: mnp.rad2deg(x), [A], np.rad2deg),
]

REDUCTIONS = [
    R("sum", lambda x: mnp.sum(x, (0, 2), keepdims=True, initial=2.0), [X3],
      lambda x: np.sum(x, (0, 2), keepdims=True, initial=2.0)),
    R("sum_int", lambda x: mnp.sum(x, 1), [INTS], lambda x: np.sum(x, 1)),
    R("mean", lambda x: mnp.mean(x, -1), [X3], lambda x: np.mean(x, -1)),
    R("amax", lambda x: mnp.amax(x, 1), [A], lambda x: np.amax(x, 1)),
    R("amax_initial_where", lambda x, m: mnp.amax(x, 0, initial=-0.5, where=m), [A, MASK],
      lambda x, m: np.amax(x, 0, initial=-0.5, where=m)),
    R("amin_keepdims", lambda x: mnp.min(x, (0, 1), True), [X3], lambda x: np.amin(x, (0, 1), keepdims=True)),
    R("ptp", lambda x: mnp.ptp(x, 1), [A], lambda x: np.ptp(x, 1)),
    R("var", lambda x: mnp.var(x, (0, 2), 1), [X3], lambda x: np.var(x, (0, 2), ddof=1)),
    R("std", lambda x: mnp.std(x, 0, 0, True), [A], lambda x: np.std(x, 0, keepdims=True)),
    R("average", lambda x, w: mnp.average(x, 1, w, True), [A, P[0]],
      lambda x, w: np.average(x, 1, w, True)),
    R("average_full_weights", lambda x, w: mnp.average(x, None, w), [A, P], lambda x,
      w: np.average(x, None, w)),
    R("count_nonzero", lambda x: mnp.count_nonzero(x, 0), [INTS], lambda x: np.count_nonzero(x, 0)),
    R("nansum", lambda x: mnp.nansum(x, 1), [NANS], lambda x: np.nansum(x, 1)),
    R("nanmean", lambda x: mnp.nanmean(x, 0, mnp.float64, True), [NANS],
      lambda x: np.nanmean(x, 0, keepdims=True)),
    R("nanvar", lambda x: mnp.nanvar(x, 1, ddof=1), [NANS], lambda x: np.nanvar(x, 1, ddof=1), grad=(),
      note="float32, as MindSpore"),
    R("nanstd", lambda x: mnp.nanstd(x), [NANS], np.nanstd, grad=(), note="float32, as MindSpore"),
    R("nanmax", lambda x: mnp.nanmax(x, 1), [NANS], lambda x: np.nanmax(x, 1)),
    R("nanmin_all_nan", lambda x: mnp.nanmin(x, 1), [np.array([[np.nan, np.nan], [1.0, np.nan]])],
      lambda x: np.array([np.nan, 1.0]), grad=()),
    R("cumsum", lambda x: mnp.cumsum(x, 1), [A], lambda x: np.cumsum(x, 1)),
    R("cumsum_flat_int", lambda x: mnp.cumsum(x), [INTS], np.cumsum),
    R("nancumsum", lambda x: mnp.nancumsum(x, 0), [NANS], lambda x: np.nancumsum(x, 0)),
    R("cumprod", lambda x: mnp.cumprod(x, 1), [A], lambda x: np.cumprod(x, 1), grad=(),
      note="float32, as MindSpore (ops.cumprod's gradient is in tests/ops/cases_bitwise.py)"),
    R("cumprod_f64", lambda x: mnp.cumprod(mnp.asarray(x, mnp.float64), 0), [A], lambda x: np.cumprod(x, 0)),
    R("argmax", lambda x: mnp.argmax(x, 1), [A], lambda x: np.argmax(x, 1)),
    R("argmin", lambda x: mnp.argmin(x), [A], np.argmin),
]

LINALG = [
    R("matmul", lambda x, y: mnp.matmul(x, y), [X3, M43], np.matmul),
    R("dot", lambda x, y: mnp.dot(x, y), [A, rand(2, 4, 5, seed=20)], np.dot),
    R("dot_vectors", lambda x, y: mnp.dot(x, y), [V, W], np.dot),
    R("inner", lambda x, y: mnp.inner(x, y), [X3, A], np.inner),
    R("outer", lambda x, y: mnp.outer(x, y), [A, V3], np.outer),
    R("tensordot", lambda x, y: mnp.tensordot(x, y, ((0, 2), (1, 0))), [X3, rand(4, 2, 5, seed=21)],
      lambda x, y: np.tensordot(x, y, ((0, 2), (1, 0)))),
    R("tensordot_int_axes", lambda x, y: mnp.tensordot(x, y, 1), [X3, M43], lambda x,
      y: np.tensordot(x, y, 1)),
    R("multi_dot", lambda a, b, c, d: mnp.multi_dot([a, b, c, d]), [rand(4, seed=22), M43, SQ, V3],
      lambda a, b, c, d: np.linalg.multi_dot([a, b, c, d])),
    R("matrix_power", lambda x: mnp.matrix_power(x, 3), [SQ], lambda x: np.linalg.matrix_power(x, 3)),
    R("kron", lambda x, y: mnp.kron(x, y), [SQ, A[:2]], np.kron),
    R("cross", lambda x, y: mnp.cross(x, y), [M43[:, :3], rand(4, 3, seed=23)], np.cross),
    R("cross_2_3", lambda x, y: mnp.cross(x, y, axisc=0), [rand(4, 2, seed=24), rand(4, 3, seed=23)],
      lambda x, y: np.cross(x, y, axisc=0)),
    R("norm", lambda x: mnp.norm(x), [X3], lambda x: np.linalg.norm(x)),
    R("norm_vector_p", lambda x: mnp.norm(x, 3, 1, True), [A], lambda x: np.linalg.norm(x, 3, 1, True)),
    R("norm_vector_inf", lambda x: mnp.norm(x, -np.inf), [V], lambda x: np.linalg.norm(x, -np.inf)),
    R("norm_matrix_1", lambda x: mnp.norm(x, 1), [A], lambda x: np.linalg.norm(x, 1)),
    R("norm_matrix_inf_axes", lambda x: mnp.norm(x, np.inf, (2, 0)), [X3],
      lambda x: np.linalg.norm(x, np.inf, (2, 0))),
    R("norm_fro_keepdims", lambda x: mnp.norm(x, "fro", (0, 1), True), [X3],
      lambda x: np.linalg.norm(x, "fro", (0, 1), True)),
]

STATS = [
    R("searchsorted", lambda a, v: mnp.searchsorted(a, v), [SRT, np.concatenate([V, SRT[2:4]])],
      lambda a, v: np.searchsorted(a, v)),
    R("searchsorted_right_sorter", lambda a, v, s: mnp.searchsorted(a, v, "right", s),
      [SRT[::-1].copy(), np.concatenate([V, SRT[2:4]]), np.arange(7, -1, -1)],
      lambda a, v, s: np.searchsorted(a, v, "right", s)),
    R("digitize", lambda x, b: mnp.digitize(x, b), [A, np.array([-1.0, -0.2, 0.3, 0.9])], np.digitize),
    R("digitize_decreasing_right", lambda x, b: mnp.digitize(x, b, True),
      [A, np.array([0.9, 0.3, -0.2, -1.0])],
      lambda x, b: np.digitize(x, b, True)),
    R("interp", lambda x, xp, fp: mnp.interp(x, xp, fp), [A * 3, np.array([-2.0, -0.5, 0.5, 1.0, 2.5]), W],
      np.interp, grad=(), note="float32, as MindSpore"),
    R("bincount", lambda x, w: mnp.bincount(x, w, length=9),
      [np.array([0, 1, 1, 3, 2, 1, 7]), rand(7, seed=25)],
      lambda x, w: np.bincount(x, w, 9), grad=(), note="float32, as MindSpore"),
    R("histogram_bin_edges", lambda x: mnp.histogram_bin_edges(x, 5), [A],
      lambda x: np.histogram_bin_edges(x, 5),
      grad=()),
    R("histogram", lambda x, w: mnp.histogram(x, 4, (-1, 1), w, True), [A, P],
      lambda x, w: np.histogram(x, 4, (-1, 1), weights=w, density=True), grad=()),
    R("histogram_edges", lambda x: mnp.histogram(x, [-1.0, -0.1, 0.2, 1.0]), [A],
      lambda x: np.histogram(x, [-1.0, -0.1, 0.2, 1.0])),
    R("histogram2d", lambda x, y: mnp.histogram2d(x, y, (2, 3)), [V, W],
      lambda x, y: np.histogram2d(x, y, (2, 3)), grad=()),
    R("histogramdd", lambda s: mnp.histogramdd(s, 2, density=True), [rand(12, 3, seed=26)],
      lambda s: np.histogramdd(s, 2, density=True), grad=()),
    R("cov", lambda x: mnp.cov(x), [A], lambda x: np.cov(x), grad=(), note="float32, as MindSpore"),
    R("cov_weights", lambda x, f, a: mnp.cov(x, rowvar=False, fweights=f, aweights=a),
      [A, np.array([1, 2, 1]), np.array([0.5, 1.0, 2.0])],
      lambda x, f, a: np.cov(x, rowvar=False, fweights=f, aweights=a), grad=()),
    R("corrcoef", lambda x, y: mnp.corrcoef(x, y), [V, W], np.corrcoef, grad=()),
]

CALCULUS = [
    R("diff", lambda x: mnp.diff(x, 2, 0), [A], lambda x: np.diff(x, 2, 0)),
    R("diff_prepend_append", lambda x, y: mnp.diff(x, prepend=0.5, append=y), [A, B[:, :2]],
      lambda x, y: np.diff(x, prepend=0.5, append=y)),
    R("diff_empty", lambda x: mnp.diff(x, 6), [V], lambda x: np.diff(x, 6), lower=False),
    R("ediff1d", lambda x: mnp.ediff1d(x, [1.0, 2.0], -1.0), [A], lambda x: np.ediff1d(x, [1.0, 2.0], -1.0)),
    R("trapz", lambda y, x: mnp.trapz(y, x, axis=0), [A, np.array([0.0, 0.5, 1.5])],
      lambda y, x: np.trapz(y, x, axis=0) if hasattr(np, "trapz") else np.trapezoid(y, x, axis=0)),
    R("gradient", lambda f: mnp.gradient(f, 0.5, 2.0), [A], lambda f: list(np.gradient(f, 0.5, 2.0))),
    R("gradient_edge_order_2", lambda f: mnp.gradient(f, axis=1, edge_order=2), [A],
      lambda f: np.gradient(f, axis=1, edge_order=2)),
    R("unwrap", lambda p: mnp.unwrap(p), [np.cumsum(rand(9, seed=27) * 5)], np.unwrap),
    R("convolve", lambda a, v: mnp.convolve(a, v), [V, V3], np.convolve, grad=(),
      note="float32, as MindSpore"),
    R("convolve_same_swapped", lambda a, v: mnp.convolve(a, v, "same"), [V3, V],
      lambda a, v: np.convolve(a, v, "same"), grad=()),
    R("correlate", lambda a, v: mnp.correlate(a, v, "full"), [V, rand(4, seed=28)],
      lambda a, v: np.correlate(a, v, "full"), grad=()),
    R("correlate_same_short_first", lambda a, v: mnp.correlate(a, v, "same"), [V3, V],
      lambda a, v: np.correlate(a, v, "same"), grad=()),
    R("correlate_valid_even", lambda a, v: mnp.correlate(a, v), [V, rand(2, seed=29)],
      lambda a, v: np.correlate(a, v), grad=()),
]

POLYNOMIAL = [
    R("polyadd", lambda a, b: mnp.polyadd(a, b), [V3, V], np.polyadd),
    R("polysub", lambda a, b: mnp.polysub(a, b), [V, V3], np.polysub),
    R("polymul", lambda a, b: mnp.polymul(a, b), [V3, V], np.polymul, grad=()),
    R("polyval", lambda p, x: mnp.polyval(p, x), [V, A], np.polyval),
    R("polyder", lambda p: mnp.polyder(p, 2), [V], lambda p: np.polyder(p, 2)),
    R("polyint", lambda p: mnp.polyint(p, 2, [1.0, -2.0]), [V3], lambda p: np.polyint(p, 2, [1.0, -2.0]),
      grad=(), note="MindSpore divides float64 in float32"),
]

SETS = [
    R("unique", lambda x: mnp.unique(x), [DUP], _first_order_unique),
    R("unique_inverse", lambda x: mnp.unique(x, True), [DUP],
      lambda x: (_first_order_unique(x), np.array([0, 1, 2, 1, 3, 0, 4, 2]))),
    R("intersect1d", lambda x, y: mnp.intersect1d(x, y, return_indices=True), [DUP, DUP2],
      lambda x, y: np.intersect1d(x, y, return_indices=True), lower=False,
      note="the count depends on the data"),
    R("setdiff1d", lambda x, y: mnp.setdiff1d(x, y), [DUP, DUP2], np.setdiff1d, lower=False,
      note="the count depends on the data"),
]

# dim 0 declared dynamic in the traced graph: nothing may bake the example's size
DYNAMIC = [
    R("mean_dynamic", lambda x: mnp.mean(x, 1), [A], lambda x: np.mean(x, 1), dynamic=True),
    R("var_dynamic", lambda x: mnp.var(x, 0, 1), [A], lambda x: np.var(x, 0, ddof=1), dynamic=True),
    R("where_dynamic", lambda x, y: mnp.where(x > 0, x, y), [A, B], lambda x, y: np.where(x > 0, x, y),
      dynamic=True),
    R("tril_dynamic", lambda x: mnp.tril(x, 1), [A], lambda x: np.tril(x, 1), dynamic=True),
    R("concatenate_dynamic", lambda x, y: mnp.concatenate((x, y), 1), [A, B],
      lambda x, y: np.concatenate((x, y), 1), dynamic=True),
]

CASES = (CREATION + PADDING + MANIPULATION + INDEXING + LOGIC + ARITHMETIC + TRANSCENDENTAL + REDUCTIONS
         + LINALG + STATS + CALCULUS + POLYNOMIAL + SETS + DYNAMIC)
