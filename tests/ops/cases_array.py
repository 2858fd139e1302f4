"""Rows for MindSpore's array functions: shapes and splits (composite/array_shape.py), creation and small
selections (composite/array_create.py, prims/array_misc.py), diagonals and triangles (composite/diagonal.py,
prims/triangle.py), unique / searchsorted (prims/unique.py) and the index helpers (composite/index_extra.py).

References are NumPy; the TensorFlow-style matrix_diag family and the other MindSpore-specific semantics
are also checked against values written by real MindSpore in tests/ops/test_array_mindspore.py.
"""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from cellonnx.tensor import Tensor
from tests.ops.harness import OpCase, rand

X = rand(2, 3, 4, seed=61)
M = rand(4, 5, seed=62)
SQ = rand(2, 3, 3, seed=63)
V = rand(6, seed=64)
I32 = np.int32


def _tf_layout(m, n, k0, k1, align):
    """(diag, position) -> (row, col) of TensorFlow's MatrixDiagPartV3, written from its specification."""
    max_len = min(m + min(k1, 0), n - max(k0, 0))
    out = {}
    for i, d in enumerate(range(k1, k0 - 1, -1)):
        length = min(m + min(d, 0), n - max(d, 0))
        left = (d >= 0 and align.startswith("LEFT")) or (d <= 0 and align.endswith("LEFT"))
        shift = 0 if left else max_len - length
        for j in range(max_len):
            t = j - shift
            if 0 <= t < length:
                out[i, j] = (t - min(d, 0), t + max(d, 0))
    return out, max_len


def _diag_part_ref(x, k0, k1, pad, align="RIGHT_LEFT"):
    m, n = x.shape[-2:]
    layout, max_len = _tf_layout(m, n, k0, k1, align)
    out = np.full(x.shape[:-2] + (k1 - k0 + 1, max_len), pad, dtype=x.dtype)
    for (i, j), (r, c) in layout.items():
        out[..., i, j] = x[..., r, c]
    return out[..., 0, :] if k0 == k1 else out


def _diag_ref(d, k0, k1, rows, cols, pad, align="RIGHT_LEFT"):
    layout, _ = _tf_layout(rows, cols, k0, k1, align)
    lead = d.shape[:-1] if k0 == k1 else d.shape[:-2]
    dd = d[..., None, :] if k0 == k1 else d
    out = np.full(lead + (rows, cols), pad, dtype=d.dtype)
    for (i, j), (r, c) in layout.items():
        out[..., r, c] = dd[..., i, j]
    return out


def _set_diag_ref(x, d, k0, k1, align="RIGHT_LEFT"):
    layout, _ = _tf_layout(*x.shape[-2:], k0, k1, align)
    dd = d[..., None, :] if k0 == k1 else d
    out = x.copy()
    for (i, j), (r, c) in layout.items():
        out[..., r, c] = dd[..., i, j]
    return out


def _diagonal_scatter_ref(x, s, offset, d1, d2):
    out = np.moveaxis(x.copy(), (d1, d2), (-2, -1))
    for i in range(s.shape[-1]):
        r, c = (i, i + offset) if offset >= 0 else (i - offset, i)
        out[..., r, c] = s[..., i]
    return np.moveaxis(out, (-2, -1), (d1, d2))


def _index_fill_ref(x, axis, idx, v):
    out = np.moveaxis(x.copy(), axis, 0)
    out[idx] = v
    return np.moveaxis(out, 0, axis)


def _reverse_sequence_ref(x, lengths, seq, batch):
    out = x.copy()
    for b, n in enumerate(lengths):
        src = [slice(None)] * x.ndim
        src[batch], src[seq] = b, slice(0, n)
        dst = list(src)
        dst[seq] = slice(n - 1, None, -1) if n else slice(0, 0)
        out[tuple(src)] = x[tuple(dst)]
    return out


def _unique_ref(x):
    flat = x.reshape(-1)
    values, first = [], {}
    idx = np.empty(flat.shape, np.int64)
    for i, v in enumerate(flat.tolist()):
        if v not in first:
            first[v] = len(values)
            values.append(v)
        idx[i] = first[v]
    return np.array(values, dtype=x.dtype), idx.reshape(x.shape)


def _unique_consecutive_ref(x, axis=None):
    a = x.reshape(-1) if axis is None else np.moveaxis(x, axis, 0)
    starts = [0] + [t for t in range(1, len(a)) if not np.array_equal(a[t], a[t - 1])]
    out = a[starts] if axis is None else np.moveaxis(a[starts], 0, axis)
    inverse = np.cumsum([t in starts for t in range(len(a))]) - 1
    counts = np.diff(starts + [len(a)])
    return out, inverse.reshape(x.shape) if axis is None else inverse, counts


def _flat_ints(*shape):
    return np.random.default_rng(sum(shape)).integers(0, 3, shape).astype(I32)


SORTED = np.sort(rand(2, 6, seed=65), axis=-1)
PROBES = np.concatenate([SORTED[:, 1:3], rand(2, 3, seed=66)], axis=1)   # ties with elements, and others

CASES = [
    # ---- shapes and splits ----
    OpCase("ravel", lambda x: ops.ravel(x), [X], lambda x: x.reshape(-1)),
    OpCase("movedim_pairs", lambda x: ops.movedim(x, (0, 1), (2, 0)), [X],
           lambda x: np.moveaxis(x, (0, 1), (2, 0))),
    OpCase("moveaxis", lambda x: ops.moveaxis(x, -1, 0), [X], lambda x: np.moveaxis(x, -1, 0)),
    OpCase("swapdims", lambda x: ops.swapdims(x, 0, 2), [X], lambda x: np.swapaxes(x, 0, 2)),
    OpCase("unstack", lambda x: ops.unstack(x, 1), [X], lambda x: tuple(x[:, i] for i in range(3))),
    OpCase("tensor_split_sections", lambda v: ops.tensor_split(v, 4), [V],
           lambda v: tuple(np.array_split(v, 4))),
    OpCase("tensor_split_more_sections_than_items", lambda x: ops.tensor_split(x, 5, 1), [X],
           lambda x: tuple(np.array_split(x, 5, 1))),
    OpCase("tensor_split_indices_unordered", lambda x: ops.tensor_split(x, [3, 1, -1], -1), [X],
           lambda x: tuple(np.array_split(x, [3, 1, -1], -1))),
    OpCase("vsplit", lambda m: ops.vsplit(m, [1, 3]), [M], lambda m: tuple(np.vsplit(m, [1, 3]))),
    OpCase("hsplit", lambda m: ops.hsplit(m, 2), [M], lambda m: tuple(np.array_split(m, 2, 1))),
    OpCase("dsplit", lambda x: ops.dsplit(x, [1]), [X], lambda x: tuple(np.dsplit(x, [1]))),
    OpCase("hstack_1d", lambda a, b: ops.hstack([a, b]), [V, V[:2]], lambda a, b: np.hstack([a, b])),
    OpCase("hstack_2d", lambda a, b: ops.hstack((a, b)), [M, M[:, :2]], lambda a, b: np.hstack([a, b])),
    OpCase("column_stack", lambda a, b: ops.column_stack([a, b]), [M[:, 0], M],
           lambda a, b: np.column_stack([a, b])),
    OpCase("expand", lambda x: ops.expand(x, Tensor(np.array([2, 4, 5]))), [M[:1]],
           lambda x: np.broadcast_to(x, (2, 4, 5))),
    OpCase("expand_as", lambda x, y: ops.expand_as(x, y), [M[0], M], lambda x, y: np.broadcast_to(x, y.shape),
           grad=(0,)),
    OpCase("view_as", lambda x, y: ops.view_as(x, y), [X, rand(6, 4)], lambda x, y: x.reshape(6, 4),
           grad=(0,)),
    OpCase("reverse", lambda x: ops.reverse(x, [0, 2]), [X], lambda x: x[::-1, :, ::-1]),
    OpCase("meshgrid_xy", lambda a, b, c: ops.meshgrid(a, b, c), [V[:2], V[:3], V[:4]],
           lambda a, b, c: tuple(np.meshgrid(a, b, c))),
    OpCase("meshgrid_ij", lambda a, b: ops.meshgrid((a, b), indexing="ij"), [V[:2], V[:3]],
           lambda a, b: tuple(np.meshgrid(a, b, indexing="ij"))),
    OpCase("padding", lambda x: ops.padding(x, 4), [M[:, :1]], lambda x: np.pad(x, [(0, 0), (0, 3)])),
    # ---- creation and small selections ----
    OpCase("select_number", lambda c, x: ops.select(c > 0, x, 0.5), [M, rand(4, 5, seed=67)],
           lambda c, x: np.where(c > 0, x, 0.5), grad=(1,)),
    OpCase("tensor_gt", lambda x, y: ops.tensor_gt(x, y), [M, M[0]], lambda x, y: x > y),
    OpCase("tensor_muls_int_by_float", lambda i: ops.tensor_muls(i, 1.5), [np.arange(4, dtype=I32)],
           lambda i: i * 1.5),
    OpCase("ger", lambda a, b: ops.ger(a, b), [V, V[:4]], lambda a, b: np.outer(a, b)),
    OpCase("top_k_int32_indices", lambda x: ops.top_k(x, 2), [M],
           lambda x: (np.sort(x, -1)[:, ::-1][:, :2], np.argsort(-x, -1)[:, :2].astype(I32))),
    OpCase("aminmax", lambda x: ops.aminmax(x, axis=1, keepdims=True), [X],
           lambda x: (x.min(1, keepdims=True), x.max(1, keepdims=True))),
    OpCase("aminmax_all", lambda x: ops.aminmax(x, axis=None), [X], lambda x: (x.min(), x.max())),
    OpCase("argwhere", lambda x: ops.argwhere(x > 0), [X], lambda x: np.argwhere(x > 0)),
    OpCase("sequence_mask", lambda n: ops.sequence_mask(n, 5), [np.array([[1, 5], [0, 3]], I32)],
           lambda n: np.arange(5) < n[..., None]),
    OpCase("sequence_mask_maxlen_from_data", lambda n: ops.sequence_mask(n), [np.array([2, 4, 1])],
           lambda n: np.arange(4) < n[:, None],
           note="maxlen None reads the largest length: a constant once traced (the graph has length 4)"),
    OpCase("range_float", lambda: ops.range(0.5, 2.0, 0.25), [], lambda: np.arange(0.5, 2.0, 0.25)),
    OpCase("range_descending", lambda: ops.range(5, 0, -2), [], lambda: np.arange(5, 0, -2)),
    OpCase("fill", lambda: ops.fill(np.int32, (2, 3), 7), [], lambda: np.full((2, 3), 7, I32)),
    OpCase("fills", lambda x: ops.fills(x, 2.5), [M], lambda x: np.full(x.shape, 2.5), grad=()),
    OpCase("deepcopy", lambda x: ops.deepcopy(x), [X], lambda x: x, second_order=True),
    OpCase("dyn_shape", lambda x: ops.dyn_shape(x), [X], lambda x: np.array(x.shape), dynamic=True),
    OpCase("type_as", lambda x, i: ops.type_as(x, i), [M, np.zeros(1, I32)], lambda x, i: x.astype(I32)),
    OpCase("population_count", lambda x: ops.population_count(x),
           [np.array([0, 1, -1, 7, 255, -128, 2 ** 14], np.int16)],
           lambda x: np.array([bin(int(v) & 0xFFFF).count("1") for v in x], np.uint8)),
    OpCase("population_count_uint8", lambda x: ops.population_count(x),
           [np.array([0, 3, 128, 255], np.uint8)],
           lambda x: np.array([bin(int(v)).count("1") for v in x], np.uint8)),
    OpCase("lstsq", lambda a, b: ops.lstsq(a, b), [rand(5, 3, seed=68), rand(5, 2, seed=69)],
           lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0], rtol=1e-4, atol=1e-5, lower=False, grad=(),
           note="ONNX has no least-squares node: eager only; no gradient (none in MindSpore either); float32 "
                "against float64"),
    # ---- diagonals and triangles ----
    OpCase("triu", lambda x: ops.triu(x, 1), [X], lambda x: np.triu(x, 1), opsets=(13, 14, 21)),
    OpCase("tril_negative", lambda x: ops.tril(x, -1), [X], lambda x: np.tril(x, -1), opsets=(13, 14, 21)),
    OpCase("tril_bool", lambda x: ops.tril(x > 0), [M], lambda x: np.tril(x > 0), opsets=(13, 14)),
    OpCase("triu_int", lambda x: ops.triu(x, -1), [np.arange(12, dtype=np.int64).reshape(3, 4)],
           lambda x: np.triu(x, -1), opsets=(13, 14)),
    OpCase("diag_1d", lambda v: ops.diag(v), [V], lambda v: np.diag(v)),
    OpCase("diag_2d", lambda m: ops.diag(m), [M[:2, :3]],
           lambda m: np.einsum("ij,ik,jl->ijkl", m, np.eye(2), np.eye(3))),
    OpCase("diagflat", lambda m: ops.diagflat(m, -1), [M[:2, :2]], lambda m: np.diagflat(m, -1)),
    OpCase("diagonal", lambda x: ops.diagonal(x, 1, 2, 0), [X], lambda x: np.diagonal(x, 1, 2, 0)),
    OpCase("diagonal_negative_offset", lambda m: ops.diagonal(m, -2), [M], lambda m: np.diagonal(m, -2)),
    OpCase("diagonal_scatter", lambda x, s: ops.diagonal_scatter(x, s, -1, 2, 1), [X, rand(2, 3, seed=70)],
           lambda x, s: _diagonal_scatter_ref(x, s, -1, 2, 1)),
    OpCase("matrix_band_part", lambda x: ops.matrix_band_part(x, 1, -1), [X],
           lambda x: x * (np.subtract.outer(np.arange(3), np.arange(4)) <= 1)),
    OpCase("matrix_diag_part_band", lambda x: ops.matrix_diag_part(x, Tensor(np.array([-2, 2], I32)), 9.0),
           [X], lambda x: _diag_part_ref(x, -2, 2, 9.0)),
    OpCase("matrix_diag_part_left_right", lambda x, p: ops.matrix_diag_part(x, (1, 3), p, align="LEFT_RIGHT"),
           [X, np.array(-1.0)], lambda x, p: _diag_part_ref(x, 1, 3, p, "LEFT_RIGHT")),
    OpCase("matrix_diag_part_single", lambda x: ops.matrix_diag_part(x, -1, 0.0), [X],
           lambda x: _diag_part_ref(x, -1, -1, 0.0)),
    OpCase("matrix_diag", lambda d: ops.matrix_diag(d, k=Tensor(np.array([-1, 1], I32)), padding_value=0.5),
           [rand(2, 3, 3, seed=71)], lambda d: _diag_ref(d, -1, 1, 3, 3, 0.5)),
    OpCase("matrix_diag_rectangular", lambda d: ops.matrix_diag(d, 1, num_rows=3, num_cols=5), [V[:3]],
           lambda d: _diag_ref(d, 1, 1, 3, 5, 0.0)),
    OpCase("matrix_set_diag", lambda x, d: ops.matrix_set_diag(x, d, (-1, 0), "LEFT_LEFT"),
           [X, rand(2, 2, 3, seed=72)], lambda x, d: _set_diag_ref(x, d, -1, 0, "LEFT_LEFT")),
    # ---- index helpers ----
    OpCase("gather_d", lambda x, i: ops.gather_d(x, 1, i), [M, np.array([[0, 4], [1, 1], [-1, 0], [2, 3]])],
           lambda x, i: np.take_along_axis(x, i % 5, 1)),
    OpCase("take", lambda x, i: ops.take(x, i), [X, np.array([[0, 23], [5, -1]])],
           lambda x, i: np.take(x.reshape(-1), i)),
    OpCase("index_fill", lambda x, i: ops.index_fill(x, 2, i, -2.0), [X, np.array([0, 2, -1, 2], I32)],
           lambda x, i: _index_fill_ref(x, 2, i, -2.0)),
    OpCase("index_fill_tensor_value", lambda x, i, v: ops.index_fill(x, 0, i, v), [M, np.array([3], I32),
                                                                                  np.array(0.25)],
           lambda x, i, v: _index_fill_ref(x, 0, i, v)),
    OpCase("select_scatter", lambda x, s: ops.select_scatter(x, s, 1, -1), [X, rand(2, 4, seed=73)],
           lambda x, s: np.concatenate([x[:, :2], s[:, None]], 1)),
    OpCase("slice_scatter_step", lambda x, s: ops.slice_scatter(x, s, 2, 1, None, 2),
           [X, rand(2, 3, 2, seed=74)],
           lambda x, s: np.stack([x[..., 0], s[..., 0], x[..., 2], s[..., 1]], -1)),
    OpCase("reverse_sequence", lambda x, n: ops.reverse_sequence(x, n, 2, 0), [X, np.array([4, 2], I32)],
           lambda x, n: _reverse_sequence_ref(x, n, 2, 0)),
    OpCase("reverse_sequence_batch_last", lambda x, n: ops.reverse_sequence(x, n, 0, 2),
           [X, np.array([1, 2, 0, 2])],
           lambda x, n: _reverse_sequence_ref(x, n, 0, 2)),
    # ---- unique and searchsorted ----
    OpCase("unique", lambda x: ops.unique(x), [_flat_ints(3, 4) * 7 - 5],
           lambda x: _unique_ref(x)),
    OpCase("unique_float", lambda x: ops.unique(x), [np.array([0.5, -1.0, 0.5, 2.0])],
           lambda x: (np.array([0.5, -1.0, 2.0]), np.array([0, 1, 0, 2], I32)), grad=(),
           note="a finite difference splits equal values, changing the output's length: the gradient (to the "
                "first occurrences) is checked in tests/ops/test_array_mindspore.py"),
    OpCase("unique_int64", lambda x: ops.unique(x), [np.array([3, 1, 3, 7, 1])], _unique_ref),
    OpCase("unique_consecutive", lambda x: ops.unique_consecutive(x, True, True),
           [np.array([2, 2, 1, 1, 1, 2, 3])],
           lambda x: _unique_consecutive_ref(x)),
    OpCase("unique_consecutive_dim", lambda x: ops.unique_consecutive(x, True, True, 1),
           [np.array([[1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 3.0, 4.0]])], lambda x: _unique_consecutive_ref(x, 1),
           grad=()),
    OpCase("unique_with_pad", lambda x: ops.unique_with_pad(x, -1), [np.array([5, 1, 5, 2], I32)],
           lambda x: (np.array([5, 1, 2, -1], I32), np.array([0, 1, 0, 2], I32))),
    OpCase("searchsorted", lambda s, v: ops.searchsorted(s, v), [SORTED, PROBES],
           lambda s, v: np.stack([np.searchsorted(a, b) for a, b in zip(s, v)])),
    OpCase("searchsorted_right_1d", lambda s, v: ops.searchsorted(s, v, side="right", out_int32=True),
           [SORTED[0], PROBES], lambda s, v: np.searchsorted(s, v, side="right").astype(I32)),
]

# ---- exported with a dynamic leading dim (every input's dim 0 is symbolic in the graph) ----
DYNAMIC_NOTE = "traced with a symbolic dim 0, run by onnxruntime at the example size"
CASES += [
    OpCase("ravel_dynamic", lambda x: ops.ravel(x), [X], lambda x: x.reshape(-1), dynamic=True,
           note=DYNAMIC_NOTE),
    OpCase("movedim_dynamic", lambda x: ops.movedim(x, 0, -1), [X], lambda x: np.moveaxis(x, 0, -1),
           dynamic=True, note=DYNAMIC_NOTE),
    OpCase("tensor_split_dynamic", lambda x: ops.tensor_split(x, 2, 2), [X],
           lambda x: tuple(np.array_split(x, 2, 2)), dynamic=True, note=DYNAMIC_NOTE),
    OpCase("triu_dynamic", lambda x: ops.triu(x, 1), [X], lambda x: np.triu(x, 1), dynamic=True,
           opsets=(13, 14), note=DYNAMIC_NOTE),
    OpCase("sequence_mask_dynamic", lambda n: ops.sequence_mask(n, 5), [np.array([[1, 5], [0, 3]], I32)],
           lambda n: np.arange(5) < n[..., None], dynamic=True, note=DYNAMIC_NOTE),
    OpCase("gather_d_dynamic", lambda x, i: ops.gather_d(x, 1, i),
           [M, np.array([[0, 4], [1, 1], [2, 0], [3, 3]])], lambda x, i: np.take_along_axis(x, i, 1),
           dynamic=True, note=DYNAMIC_NOTE),
    OpCase("searchsorted_dynamic", lambda s, v: ops.searchsorted(s, v), [SORTED, PROBES],
           lambda s, v: np.stack([np.searchsorted(a, b) for a, b in zip(s, v)]), dynamic=True,
           note=DYNAMIC_NOTE),
]
