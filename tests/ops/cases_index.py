"""Rows for data movement, gathers / scatters and Tensor indexing (cellonnx/ops/prims/{index,scatter,getitem}.py).

References are written with NumPy directly (np.take, np.add.at, fancy indexing, np.pad ...). Index inputs are
graph inputs in the lowering check, so gathers and scatters are exercised with run-time indices; rows whose
function is a gradient trace the backward scatters too (opset 13 takes the one-hot path, 18 and 21 the
ScatterND / ScatterElements reduction='add' path).
"""
from __future__ import annotations

import numpy as np

from cellonnx import dtype as mstype
from cellonnx import ops
from cellonnx.autograd.tape import enable_grad, run_backward
from cellonnx.tensor import Tensor
from tests.ops.harness import OpCase, rand

X = rand(2, 3, 4, seed=31)
M = rand(4, 5, seed=32)
V = rand(6, seed=33)
IDX = np.array([2, 0, 2, 1], dtype=np.int64)          # repeats: the scatter-adds must accumulate
IDX2 = np.array([[1, -1], [0, 3]], dtype=np.int64)     # a negative index counts from the end
GW = np.arange(24.0).reshape(2, 3, 2, 2)


def _grad_of(f):
    """A row function returning d f / d (first input), with the backward recorded as ops (create_graph), so
    tracing the row exports the backward scatters with the input still a graph input."""
    def fn(x, *rest):
        x.requires_grad_()
        with enable_grad():
            out = f(x, *rest)
        return run_backward([out], [None], wrt=[x], create_graph=True)[0]
    return fn


def _index_add_ref(x, idx, y, axis):
    out = x.copy()
    np.add.at(out, (slice(None),) * axis + (idx,), y)
    return out


def _np_one_hot(idx, depth, on=1, off=0, axis=-1):
    out = np.full(idx.shape + (depth,), off, dtype=np.asarray(on).dtype)
    for pos in np.ndindex(idx.shape):
        if 0 <= idx[pos] < depth:
            out[pos + (idx[pos],)] = on
    return np.moveaxis(out, -1, axis)


def _gather_elements_ref(x, idx, axis):
    out = np.empty(idx.shape)
    for pos in np.ndindex(idx.shape):
        src = list(pos)
        src[axis] = idx[pos]
        out[pos] = x[tuple(src)]
    return out


def _scatter_elements_ref(x, idx, upd, axis, add):
    out = x.copy()
    for pos in np.ndindex(idx.shape):
        dst = list(pos)
        dst[axis] = idx[pos]
        out[tuple(dst)] = out[tuple(dst)] + upd[pos] if add else upd[pos]
    return out


def _setitem(index, value_is_input=True):
    def fn(x, v=None):
        y = x * 1.0
        y[index] = v if value_is_input else 0.5
        return y
    return fn


def _setitem_ref(index):
    def ref(x, v=None):
        y = x.copy()
        y[index] = 0.5 if v is None else v
        return y
    return ref


def _const_buffer(x):
    buf = ops.zeros((3, 4), dtype=x.dtype)
    buf[1] = x[0]            # a constant buffer assigned a traced value must become traced itself
    buf[:, 0] += 1.0
    return buf * 2.0 + x


def _const_buffer_ref(x):
    buf = np.zeros((3, 4))
    buf[1] = x[0]
    buf[:, 0] += 1.0
    return buf * 2.0 + x


MASK = X[0] > 0

CASES = [
    # ---- concat / stack / split ----
    OpCase("concat", lambda a, b: ops.concat((a, b), 1), [X, rand(2, 2, 4, seed=35)],
           lambda a, b: np.concatenate([a, b], 1), second_order=True),
    OpCase("cat_promotes_int", lambda a, i: ops.cat([a, i], -1), [M, np.arange(8).reshape(4, 2)],
           lambda a, i: np.concatenate([a, i], -1), grad=(0,)),
    OpCase("stack", lambda a, b: ops.stack([a, b], -1), [M, rand(4, 5, seed=36)], lambda a, b: np.stack([a, b], -1)),
    OpCase("split_int", lambda x: ops.split(x, 3, 1), [rand(2, 7, seed=37)],
           lambda x: tuple(np.split(x, [3, 6], 1))),
    OpCase("split_sections", lambda x: ops.split(x, [1, 3], -1), [X], lambda x: tuple(np.split(x, [1], -1)),
           second_order=True),
    OpCase("split_one_output_used", lambda x: ops.split(x, 2, 2)[1] * 3.0, [X], lambda x: x[:, :, 2:] * 3),
    OpCase("chunk", lambda x: ops.chunk(x, 3, 1), [rand(2, 5, seed=38)], lambda x: tuple(np.split(x, [2, 4], 1))),
    OpCase("unbind", lambda x: ops.unbind(x, 1), [X], lambda x: tuple(x[:, i] for i in range(3))),
    # ---- tile / repeat ----
    OpCase("tile", lambda x: ops.tile(x, (2, 1, 3)), [X], lambda x: np.tile(x, (2, 1, 3)), second_order=True),
    OpCase("tile_fewer_dims", lambda x: ops.tile(x, (2,)), [M], lambda x: np.tile(x, (1, 2))),
    OpCase("tile_more_dims", lambda x: x.tile((2, 1, 2)), [M], lambda x: np.tile(x, (2, 1, 2))),
    OpCase("repeat_interleave", lambda x: ops.repeat_interleave(x, 2, 1), [M], lambda x: np.repeat(x, 2, 1)),
    OpCase("repeat_interleave_counts", lambda x: ops.repeat_interleave(x, [2, 0, 1, 3], 0), [M],
           lambda x: np.repeat(x, [2, 0, 1, 3], 0)),
    OpCase("tensor_repeat_flat", lambda x: x.repeat(2), [M], lambda x: np.repeat(x, 2)),
    # ---- pad ----
    OpCase("pad_constant", lambda x: ops.pad(x, (1, 2, 0, 1), value=0.5), [X],
           lambda x: np.pad(x, [(0, 0), (0, 1), (1, 2)], constant_values=0.5), second_order=True),
    OpCase("pad_negative_crops", lambda x: ops.pad(x, (-1, 2, 1, -1)), [X],
           lambda x: np.pad(x[:, :-1, 1:], [(0, 0), (1, 0), (0, 2)])),
    OpCase("pad_reflect", lambda x: ops.pad(x, (2, 3), mode="reflect"), [X],
           lambda x: np.pad(x, [(0, 0), (0, 0), (2, 3)], mode="reflect"), second_order=True),
    OpCase("pad_reflect_2d", lambda x: ops.pad(x, (1, 1, 2, 1), mode="reflect"), [X],
           lambda x: np.pad(x, [(0, 0), (2, 1), (1, 1)], mode="reflect")),
    OpCase("pad_replicate", lambda x: ops.pad(x, (3, 1, 1, 2), mode="replicate"), [X],
           lambda x: np.pad(x, [(0, 0), (1, 2), (3, 1)], mode="edge")),
    OpCase("pad_circular", lambda x: ops.pad(x, (1, 2, 2, 0), mode="circular"), [X],
           lambda x: np.pad(x, [(0, 0), (2, 0), (1, 2)], mode="wrap")),
    # ---- slice family ----
    OpCase("slice", lambda x: ops.slice(x, (0, 1, 1), (2, -1, 2)), [X], lambda x: x[0:2, 1:, 1:3]),
    OpCase("narrow", lambda x: ops.narrow(x, -1, 1, 2), [X], lambda x: x[..., 1:3]),
    OpCase("flip", lambda x: ops.flip(x, (0, 2)), [X], lambda x: x[::-1, :, ::-1], second_order=True),
    OpCase("roll", lambda x: ops.roll(x, (1, -1), (1, 2)), [X], lambda x: np.roll(x, (1, -1), (1, 2))),
    OpCase("roll_flat", lambda x: ops.roll(x, 5), [M], lambda x: np.roll(x, 5)),
    OpCase("strided_slice", lambda x: ops.strided_slice(x, (1, 0, 3), (2, 3, 0), (1, 2, -1)), [X],
           lambda x: x[1:2, 0:3:2, 3:0:-1]),
    OpCase("strided_slice_masks", lambda x: ops.strided_slice(x, (1, 0, 0, 0), (2, 2, 0, 4), (1, 1, 1, 2),
                                                              begin_mask=0b0010, end_mask=0b1000,
                                                              new_axis_mask=0b0100, shrink_axis_mask=0b0001),
           [X], lambda x: x[1, :2, None, ::2]),
    OpCase("masked_fill", lambda x: ops.masked_fill(x, x > 0.2, -1.0), [X], lambda x: np.where(x > 0.2, -1.0, x)),
    OpCase("masked_fill_broadcast_tensor_value", lambda x, v: x.masked_fill(Tensor(MASK), v), [X, np.array(0.25)],
           lambda x, v: np.where(MASK, v, x)),
    # ---- gathers ----
    OpCase("gather", lambda x, i: ops.gather(x, i, 1), [X, np.array([2, 0, -1])], lambda x, i: np.take(x, i, 1),
           second_order=True),
    OpCase("gather_2d_index", lambda x, i: ops.gather(x, i, 2), [X, IDX2], lambda x, i: np.take(x, i, 2)),
    OpCase("gather_scalar_index", lambda x, i: ops.gather(x, i, 0), [M, np.array(2)], lambda x, i: x[2]),
    OpCase("gather_int_params", lambda x, i: ops.gather(x, i, 0), [np.arange(12).reshape(4, 3), IDX],
           lambda x, i: x[i]),
    OpCase("gather_batch_dims", lambda x, i: ops.gather(x, i, 2, batch_dims=1), [X, np.array([[1, 0], [3, 3]])],
           lambda x, i: np.stack([x[b][:, i[b]] for b in range(2)])),
    OpCase("index_select", lambda x, i: ops.index_select(x, 0, i), [M, IDX], lambda x, i: x[i]),
    OpCase("gather_elements", lambda x, i: ops.gather_elements(x, 1, i),
           [M, np.array([[0, 4, 4], [1, 2, 3], [3, 3, 0]])],  # smaller than the input off the axis
           lambda x, i: _gather_elements_ref(x, i, 1)),
    OpCase("gather_elements_axis0", lambda x, i: x.gather_elements(0, i), [M, np.array([[3, 0, 1, 1, -1]])],
           lambda x, i: _gather_elements_ref(x, i, 0)),
    OpCase("gather_nd", lambda x, i: ops.gather_nd(x, i), [X, np.array([[1, 2], [0, 0], [1, -1]])],
           lambda x, i: x[i[:, 0], i[:, 1]]),
    OpCase("one_hot", lambda i: ops.one_hot(i, 4), [np.array([[0, 3], [-1, 2]])], lambda i: _np_one_hot(i, 4)),
    OpCase("one_hot_float_axis0", lambda i: ops.one_hot(i, 3, 0.9, 0.05, axis=0), [np.array([2, 0, 5])],
           lambda i: _np_one_hot(i, 3, 0.9, 0.05, axis=0)),
    OpCase("one_hot_tensor_values", lambda i, on, off: ops.one_hot(i, 3, on, off, 1), [IDX2 % 3, np.array(2.0),
                                                                                      np.array(-1.0)],
           lambda i, on, off: _np_one_hot(i, 3, on, off, 1)),
    # value types onnxruntime's OneHot kernel lacks (float64, int32): an int64 OneHot selects them
    OpCase("one_hot_float64_values", lambda i, on, off: ops.one_hot(i, 3, on.astype(mstype.float64),
                                                                    off.astype(mstype.float64), 1),
           [IDX2 % 3, np.array(0.1), np.array(-1.7)], lambda i, on, off: _np_one_hot(i, 3, on, off, 1)),
    OpCase("one_hot_int32_values", lambda i: ops.one_hot(i, 4, Tensor(np.int32(5)), Tensor(np.int32(-2))),
           [np.array([[0, 3], [-1, 2]])], lambda i: _np_one_hot(i, 4, 5, -2).astype(np.int32)),
    # ---- scatters ----
    OpCase("index_add", lambda x, i, y: ops.index_add(x, i, y, 1), [rand(2, 3, 2, seed=40), IDX, rand(2, 4, 2)],
           lambda x, i, y: _index_add_ref(x, i, y, 1), second_order=True),
    OpCase("scatter_add", lambda x, i, u: ops.scatter_add(x, i, u), [M, IDX2 % 4, rand(2, 2, 5, seed=41)],
           lambda x, i, u: _index_add_ref(x, i.reshape(-1), u.reshape(-1, 5), 0)),
    OpCase("tensor_scatter_add", lambda x, i, u: ops.tensor_scatter_add(x, i, u),
           [X, np.array([[1, 2], [0, -3], [1, 2]]), rand(3, 4, seed=42)],
           lambda x, i, u: _index_add_ref(x.reshape(6, 4), i[:, 0] * 3 + i[:, 1] % 3, u, 0).reshape(2, 3, 4)),
    OpCase("tensor_scatter_elements_add", lambda x, i, u: ops.tensor_scatter_elements(x, i, u, 1, "add"),
           [M, np.array([[0, 0, 4], [2, -1, 2]]), rand(2, 3, seed=43)],
           lambda x, i, u: _scatter_elements_ref(x, i, u, 1, True)),
    OpCase("tensor_scatter_elements_none", lambda x, i, u: ops.tensor_scatter_elements(x, i, u, 0),
           [M, np.array([[3, 0, 1], [2, 1, 0]]), rand(2, 3, seed=44)],
           lambda x, i, u: _scatter_elements_ref(x, i, u, 0, False)),
    OpCase("scatter_scalar_src", lambda x, i: ops.scatter(x, 1, i, 2.0), [M, np.array([[1], [0], [4], [2]])],
           lambda x, i: _scatter_elements_ref(x, i, np.full(i.shape, 2.0), 1, False)),
    # ---- gradients traced: the scatter-adds in the exported graph ----
    OpCase("grad_of_gather", _grad_of(lambda x, i: ops.sum(ops.gather(x, i, 1) * Tensor(GW))),
           [X[:, :, :2], np.array([[2, 0], [2, -3], [1, 1]])], lambda x, i: _gather_grad_ref(x, i), grad=()),
    OpCase("grad_of_gather_elements",
           _grad_of(lambda x, i: ops.sum(ops.gather_elements(x, 1, i) * Tensor(np.arange(6.0).reshape(2, 3)))),
           [M[:2], np.array([[4, 0, 4], [1, 1, -1]])],
           lambda x, i: _scatter_elements_ref(np.zeros_like(x), i, np.arange(6.0).reshape(2, 3), 1, True), grad=()),
    OpCase("grad_of_gather_nd",
           _grad_of(lambda x, i: ops.sum(ops.gather_nd(x, i) * Tensor(np.arange(12.0).reshape(3, 4)))),
           [X, np.array([[1, 2], [1, 2], [0, -1]])],
           lambda x, i: _index_add_ref(np.zeros((6, 4)), (i[:, 0] * 3 + i[:, 1] % 3),
                                       np.arange(12.0).reshape(3, 4), 0).reshape(2, 3, 4), grad=()),
    # ---- Tensor indexing: reads ----
    OpCase("getitem_int", lambda x: x[1], [X], lambda x: x[1]),
    OpCase("getitem_negative_int_last", lambda x: x[:, -1], [X], lambda x: x[:, -1]),
    OpCase("getitem_slices_steps", lambda x: x[::-1, 2:0:-1, 1::2], [X], lambda x: x[::-1, 2:0:-1, 1::2],
           second_order=True),
    OpCase("getitem_none_ellipsis", lambda x: x[None, ..., None, 1:3], [X], lambda x: x[None, ..., None, 1:3]),
    OpCase("getitem_int_array", lambda x, i: x[i], [M, IDX], lambda x, i: x[i]),
    OpCase("getitem_list_negative", lambda x: x[:, [-1, 0, 0]], [X], lambda x: x[:, [-1, 0, 0]]),
    OpCase("getitem_two_arrays_adjacent", lambda x, i, j: x[:, i, j], [X, np.array([[0], [2]]), np.array([1, 3, -1])],
           lambda x, i, j: x[:, i, j]),
    OpCase("getitem_two_arrays_apart", lambda x, i, j: x[i, 1:, j], [X, np.array([1, 0, 1]), np.array([3, 0, 2])],
           lambda x, i, j: x[i, 1:, j]),
    OpCase("getitem_int_with_array", lambda x, j: x[0, :, j], [X, np.array([1, 2])], lambda x, j: x[0, :, j]),
    OpCase("getitem_array_with_none", lambda x, i: x[None, i, ::2], [M, IDX2 % 4],
           lambda x, i: x[None, i, ::2]),
    OpCase("getitem_bool_mask_const", lambda x: x[Tensor(X > 0)], [X], lambda x: x[X > 0],
           note="the mask is a constant: folded while tracing, so the graph holds fixed coordinates"),
    OpCase("getitem_bool_mask_numpy_trailing", lambda x: x[:, MASK], [X], lambda x: x[:, MASK]),
    OpCase("getitem_bool_mask_list_last_dim", lambda x: x[..., [True, False, True, True]], [X],
           lambda x: x[..., [True, False, True, True]]),
    OpCase("getitem_bool_mask_traced", lambda x: x[x > 0], [X], lambda x: x[x > 0], lower=False,
           note="a mask computed in the graph has a data-dependent shape: eager only (tracing raises)"),
    OpCase("masked_select", lambda x, m: ops.masked_select(x, m > 0), [X, rand(3, 4, seed=45)],
           lambda x, m: np.broadcast_to(x, x.shape)[np.broadcast_to(m > 0, x.shape)]),
    OpCase("nonzero", lambda x: ops.nonzero(x > 0), [X], lambda x: np.argwhere(x > 0)),
    OpCase("nonzero_as_tuple", lambda x: ops.nonzero(x > 0, as_tuple=True), [M], lambda x: np.nonzero(x > 0)),
    # ---- Tensor indexing: writes (the old value reaches the result through the scatter's input) ----
    OpCase("setitem_slice_broadcast", _setitem((slice(None), slice(1, 3))), [X, rand(4, seed=46)],
           _setitem_ref((slice(None), slice(1, 3)))),
    OpCase("setitem_scalar_value", _setitem((0, Ellipsis, slice(None, None, 2)), False), [X],
           _setitem_ref((0, Ellipsis, slice(None, None, 2)))),
    OpCase("setitem_int_arrays", lambda x, i, v: _assign(x, (i, slice(None), [1, 3]), v),
           [X, np.array([1, 0]), rand(2, 3, seed=47)], lambda x, i, v: _assign_ref(x, (i, slice(None), [1, 3]), v)),
    OpCase("setitem_bool_mask_scalar", lambda x: _assign(x, x > 0.3, 0.0), [X], lambda x: np.where(x > 0.3, 0.0, x)),
    OpCase("setitem_bool_mask_prefix", lambda x, v: _assign(x, x[..., 0] > 0, v), [X, np.array(2.0)],
           lambda x, v: np.where((x[..., 0] > 0)[..., None], v, x)),
    OpCase("setitem_augmented", lambda x: _augmented(x), [M], lambda x: _augmented_ref(x)),
    OpCase("setitem_const_buffer", _const_buffer, [M[:3, :4]], _const_buffer_ref),
]


def _gather_grad_ref(x, i):
    """d/dx sum(gather(x, i, axis=1) * GW): each gathered element x[b, i[r, c], k] receives GW[b, r, c, k]."""
    g = np.zeros_like(x)
    for b, r, c, k in np.ndindex(GW.shape):
        g[b, i[r, c], k] += GW[b, r, c, k]
    return g


def _assign(x, index, value):
    y = x * 1.0
    y[index] = value
    return y


def _assign_ref(x, index, value):
    y = x.copy()
    y[index] = value
    return y


def _augmented(x):
    y = x + 0.0
    y[1:3] += y[0] * 2.0     # reads the old value, writes the new one
    y[:, -1] *= 3.0
    return y


def _augmented_ref(x):
    y = x.copy()
    y[1:3] += y[0] * 2.0
    y[:, -1] *= 3.0
    return y
