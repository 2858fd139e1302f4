"""Rows for the combining scatters (prims/scatter_reduce.py), their in-place MindSpore forms
(composite/scatter_inplace.py) and the segment reductions (composite/segment.py).

Indices repeat on purpose: the references apply updates one at a time in index order (x / u1 / u2, the
input taking part in max and min), which is MindSpore's rule. The lowering rows run at opset 13 (the
Equal-mask path), 16 / 17 (ScatterND 'mul' but not yet 'max' / 'min') and 18 / 21 (ScatterND with every
reduction); indices are graph inputs.
"""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, positive, rand

X = rand(3, 4, seed=81)
X3 = rand(3, 2, 4, seed=82)
IDX_REPEAT = np.array([[0, 1], [2, 3], [0, 1], [1, 0]])          # (0, 1) twice
ROWS_REPEAT = np.array([[2], [0], [2]])
OPSETS = (13, 16, 17, 18, 21)
I32 = np.int32


def _apply(x, idx, upd, fn):
    out = x.copy()
    k = idx.shape[-1]
    for b in np.ndindex(idx.shape[:-1]):
        pos = tuple(idx[b])
        out[pos] = fn(out[pos], upd[b]) if k else fn(out, upd[b])
    return out


def _ref(name):
    fns = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "max": np.maximum,
           "min": np.minimum, "update": lambda a, b: b}
    return lambda x, i, u: _apply(x, i, u, fns[name])


def _rows_ref(name):
    inner = _ref(name)
    return lambda x, i, u: inner(x, i[..., None], u)


def _segment_ref(x, ids, n, fn, start):
    rest = x.shape[ids.ndim:]
    out = np.full((n,) + rest, start, dtype=x.dtype)
    flat_ids, flat_x = ids.reshape(-1), x.reshape((-1,) + rest)
    for s, v in zip(flat_ids, flat_x):
        if s >= 0:
            out[s] = fn(out[s], v)
    return out


def _inplace(fn):
    """Run an updating op on a copy (the row inputs are leaves) and return what it returns and the copy."""
    def run(x, *rest):
        y = x * 1.0
        out = fn(y, *rest)
        return out, y
    return run


def _twice(ref):
    return lambda *a: (ref(*a), ref(*a))


SEG_IDS = np.array([0, 3, -1, 0, 3, 1])
SEG_IDS_FULL = np.array([2, 0, 1, 0, -1, 2])
SEG_IDS_2D = np.array([[0, 2], [-1, 1], [0, 1]])
SEG_X = rand(6, 2, seed=83)
PROD_X = np.array([2.0, 3.0, 0.0, 4.0, -1.5, 0.5])

CASES = [
    # ---- functional scatters ----
    OpCase("scatter_nd", lambda i, u: ops.scatter_nd(i, u, (3, 4, 2)), [IDX_REPEAT, rand(4, 2, seed=84)],
           lambda i, u: _ref("add")(np.zeros((3, 4, 2)), i, u), opsets=OPSETS),
    OpCase("tensor_scatter_sub", lambda x, i, u: ops.tensor_scatter_sub(x, i, u),
           [X, IDX_REPEAT, rand(4, seed=85)],
           _ref("sub"), opsets=OPSETS),
    OpCase("tensor_scatter_mul", lambda x, i, u: ops.tensor_scatter_mul(x, i, u),
           [X, IDX_REPEAT, rand(4, seed=86)],
           _ref("mul"), opsets=OPSETS, second_order=True),
    OpCase("tensor_scatter_mul_zero_update", lambda x, i, u: ops.tensor_scatter_mul(x, i, u),
           [X, IDX_REPEAT, np.array([0.0, 1.5, -2.0, 0.5])], _ref("mul"), opsets=OPSETS,
           note="an update of 0 among repeats: its gradient is the product of the others"),
    OpCase("tensor_scatter_div", lambda x, i, u: ops.tensor_scatter_div(x, i, u),
           [X, IDX_REPEAT, positive(4, seed=87)], _ref("div"), opsets=OPSETS),
    OpCase("tensor_scatter_div_int", lambda x, i, u: ops.tensor_scatter_div(x, i, u),
           [np.array([[7, -9], [8, 5]], I32), np.array([[0, 0], [0, 1], [0, 1], [1, 1]]),
            np.array([2, 2, 3, -2], I32)],
           lambda x, i, u: np.array([[3, -1], [8, -2]], I32), opsets=OPSETS,
           note="integer division truncates at each step: -9 / 2 / 3 = -1"),
    OpCase("tensor_scatter_max_rows", lambda x, i, u: ops.tensor_scatter_max(x, i, u),
           [X3, ROWS_REPEAT, rand(3, 2, 4, seed=88)], _ref("max"), opsets=OPSETS),
    OpCase("tensor_scatter_min", lambda x, i, u: ops.tensor_scatter_min(x, i, u),
           [X, IDX_REPEAT, rand(4, seed=89)],
           _ref("min"), opsets=OPSETS),
    OpCase("tensor_scatter_max_int", lambda x, i, u: ops.tensor_scatter_max(x, i, u),
           [np.arange(6, dtype=I32).reshape(2, 3), np.array([[1, 2], [0, 0], [1, 2]]),
            np.array([9, -4, 2], I32)],
           _ref("max"), opsets=OPSETS),
    OpCase("tensor_scatter_update", lambda x, i, u: ops.tensor_scatter_update(x, i, u),
           [X3, np.array([[1, 0], [2, 1]]), rand(2, 4, seed=90)], _ref("update")),
    # ---- updating forms: the returned value and the updated input ----
    OpCase("scatter_nd_add", _inplace(lambda x, i, u: ops.scatter_nd_add(x, i, u)), [X, IDX_REPEAT, rand(4)],
           _twice(_ref("add"))),
    OpCase("scatter_nd_sub", _inplace(lambda x, i, u: ops.scatter_nd_sub(x, i, u)), [X, IDX_REPEAT, rand(4)],
           _twice(_ref("sub"))),
    OpCase("scatter_nd_mul", _inplace(lambda x, i, u: ops.scatter_nd_mul(x, i, u)), [X, IDX_REPEAT, rand(4)],
           _twice(_ref("mul"))),
    OpCase("scatter_nd_div", _inplace(lambda x, i, u: ops.scatter_nd_div(x, i, u)),
           [X, IDX_REPEAT, positive(4)], _twice(_ref("div"))),
    OpCase("scatter_nd_max", _inplace(lambda x, i, u: ops.scatter_nd_max(x, i, u)),
           [X, ROWS_REPEAT, rand(3, 4)],
           _twice(_ref("max"))),
    OpCase("scatter_nd_min", _inplace(lambda x, i, u: ops.scatter_nd_min(x, i, u)),
           [X, ROWS_REPEAT, rand(3, 4)],
           _twice(_ref("min"))),
    OpCase("scatter_nd_update", _inplace(lambda x, i, u: ops.scatter_nd_update(x, i, u)),
           [X, np.array([[2], [0]]), rand(2, 4)], _twice(_ref("update"))),
    OpCase("scatter_update", _inplace(lambda x, i, u: ops.scatter_update(x, i, u)),
           [X3, np.array([[1, 0]], I32), rand(1, 2, 2, 4)], _twice(_rows_ref("update"))),
    OpCase("scatter_mul", _inplace(lambda x, i, u: ops.scatter_mul(x, i, u)),
           [X, np.array([1, 1, 2]), rand(3, 4)],
           _twice(_rows_ref("mul"))),
    OpCase("scatter_div", _inplace(lambda x, i, u: ops.scatter_div(x, i, u)),
           [X, np.array([1, 1, 2]), positive(3, 4)], _twice(_rows_ref("div"))),
    OpCase("scatter_max", _inplace(lambda x, i, u: ops.scatter_max(x, i, u)),
           [X, np.array([0, 2, 0]), rand(3, 4)],
           _twice(_rows_ref("max"))),
    OpCase("scatter_min", _inplace(lambda x, i, u: ops.scatter_min(x, i, u)),
           [X, np.array([0, 2, 0]), rand(3, 4)],
           _twice(_rows_ref("min"))),
    OpCase("assign", _inplace(lambda x, v: ops.assign(x, v)), [X, rand(4, seed=91)],
           lambda x, v: (np.broadcast_to(v, x.shape),) * 2, grad=(1,)),
    OpCase("assign_add", _inplace(lambda x, v: ops.assign_add(x, v)), [X, rand(3, 1, seed=92)],
           lambda x, v: (x + v,) * 2),
    OpCase("assign_sub", _inplace(lambda x, v: ops.assign_sub(x, v)), [X, rand(3, 4, seed=93)],
           lambda x, v: (x - v,) * 2),
    OpCase("zero_", _inplace(lambda x: ops.zero_(x)), [X], lambda x: (np.zeros_like(x),) * 2),
    OpCase("put_", _inplace(lambda x, i, s: ops.put_(x, i, s)), [X, np.array([[0, 10], [5, -1]]), rand(2, 2)],
           lambda x, i, s: (_put_ref(x, i, s, False),) * 2),
    OpCase("put_accumulate", _inplace(lambda x, i, s: ops.put_(x, i, s, True)),
           [X, np.array([0, 5, 5, -1]), rand(4, seed=94)], lambda x, i, s: (_put_ref(x, i, s, True),) * 2),
    # ---- segment reductions ----
    OpCase("unsorted_segment_sum", lambda x, s: ops.unsorted_segment_sum(x, s, 5), [SEG_X, SEG_IDS],
           lambda x, s: _segment_ref(x, s, 5, np.add, 0.0), opsets=OPSETS),
    OpCase("unsorted_segment_max_empty", lambda x, s: ops.unsorted_segment_max(x, s, 5), [SEG_X, SEG_IDS],
           lambda x, s: _segment_ref(x, s, 5, np.maximum, np.finfo(np.float32).min), opsets=OPSETS, grad=(),
           note="empty segments hold float32's lowest value, as MindSpore (no finite differences around it)"),
    OpCase("unsorted_segment_max", lambda x, s: ops.unsorted_segment_max(x, s, 3), [SEG_X, SEG_IDS_FULL],
           lambda x, s: _segment_ref(x, s, 3, np.maximum, -np.inf), opsets=OPSETS),
    OpCase("unsorted_segment_min_2d_ids", lambda x, s: ops.unsorted_segment_min(x, s, 3),
           [rand(3, 2, 2), SEG_IDS_2D],
           lambda x, s: _segment_ref(x, s, 3, np.minimum, np.inf), opsets=OPSETS),
    OpCase("unsorted_segment_prod", lambda x, s: ops.unsorted_segment_prod(x, s, 5), [PROD_X, SEG_IDS],
           lambda x, s: _segment_ref(x, s, 5, np.multiply, 1.0), opsets=OPSETS,
           note="segment 3 holds a 0: its gradient is the product of the other member"),
    OpCase("unsorted_segment_max_int", lambda x, s: ops.unsorted_segment_max(x, s, 4),
           [np.array([3, -7, 5, 1, 2, 8], I32), SEG_IDS],
           lambda x, s: _segment_ref(x, s, 4, np.maximum, np.iinfo(I32).min), opsets=OPSETS),
]


def _put_ref(x, i, s, accumulate):
    out = x.copy().reshape(-1)
    for k, v in zip(i.reshape(-1), s.reshape(-1)):
        out[k] = out[k] + v if accumulate else v
    return out.reshape(x.shape)

CASES += [
    OpCase("unsorted_segment_sum_dynamic", lambda x, s: ops.unsorted_segment_sum(x, s, 5), [SEG_X, SEG_IDS],
           lambda x, s: _segment_ref(x, s, 5, np.add, 0.0), dynamic=True, opsets=(13, 18),
           note="traced with a symbolic number of rows"),
    OpCase("tensor_scatter_max_dynamic", lambda x, i, u: ops.tensor_scatter_max(x, i, u),
           [X, IDX_REPEAT, rand(4, seed=95)], _ref("max"), dynamic=True, opsets=(13, 18),
           note="traced with symbolic dims 0 of the input and of the indices"),
]
