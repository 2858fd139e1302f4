"""Rows for the reduction, shape, matrix and creation families written alongside the engine
(cellonnx/ops/prims/{reduce,shape,linalg,creation}.py)."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand

X = rand(2, 3, 4, seed=11)
M = rand(3, 4, seed=12)

CASES = [
    # reductions
    OpCase("sum_all", lambda x: ops.sum(x), [X], np.sum),
    OpCase("sum_axis_keep", lambda x: ops.sum(x, 1, keepdim=True), [X], lambda x: x.sum(1, keepdims=True)),
    OpCase("sum_axes_tuple", lambda x: ops.sum(x, (0, 2)), [X], lambda x: x.sum((0, 2))),
    OpCase("sum_and_mean_trailing_axes_many_rows",
           lambda x: (ops.sum(x, (2, 3)), ops.mean(x, -1, keep_dims=True)),
           [rand(8, 9, 3, 4, seed=21)], lambda x: (x.sum((2, 3)), x.mean(-1, keepdims=True)),
           note="72 and 216 rows: the matrix-vector path"),
    OpCase("tensor_sum_method", lambda x: x.sum(axis=-1), [X], lambda x: x.sum(-1)),
    OpCase("mean", lambda x: ops.mean(x, 1), [X], lambda x: x.mean(1), second_order=True),
    OpCase("mean_keep_dims", lambda x: ops.mean(x, (1, 2), keep_dims=True), [X],
           lambda x: x.mean((1, 2), keepdims=True)),
    OpCase("amax", lambda x: ops.amax(x, 2), [X], lambda x: x.max(2)),
    OpCase("amin_keep", lambda x: ops.amin(x, (0, 1), True), [X], lambda x: x.min((0, 1), keepdims=True)),
    OpCase("max_with_indices", lambda x: ops.max(x, 1), [X], lambda x: (x.max(1), x.argmax(1))),
    OpCase("min_with_indices", lambda x: ops.min(x, 0, True), [X],
           lambda x: (x.min(0, keepdims=True), x.argmin(0)[None])),
    OpCase("argmax_flat", lambda x: ops.argmax(x), [X], lambda x: np.argmax(x)),
    OpCase("argmin_axis", lambda x: ops.argmin(x, 2, keepdim=True), [X], lambda x: x.argmin(2)[..., None]),
    OpCase("prod", lambda x: ops.prod(x, 1), [X + 2], lambda x: x.prod(1)),
    # shape
    OpCase("reshape", lambda x: ops.reshape(x, (4, -1)), [X], lambda x: x.reshape(4, -1), second_order=True),
    OpCase("view_method", lambda x: x.view(6, 4), [X], lambda x: x.reshape(6, 4)),
    OpCase("transpose", lambda x: ops.transpose(x, (2, 0, 1)), [X], lambda x: x.transpose(2, 0, 1)),
    OpCase("tensor_T", lambda x: x.T, [M], lambda x: x.T),
    OpCase("expand_dims", lambda x: ops.expand_dims(x, 1), [M], lambda x: x[:, None]),
    OpCase("squeeze", lambda x: ops.squeeze(x, 1), [rand(3, 1, 2)], lambda x: x[:, 0]),
    OpCase("broadcast_to", lambda x: ops.broadcast_to(x, (2, 3, 4)), [rand(3, 1)],
           lambda x: np.broadcast_to(x, (2, 3, 4))),
    OpCase("flatten", lambda x: ops.flatten(x), [X], lambda x: x.reshape(2, -1)),
    # matrix products
    OpCase("matmul_2d", lambda a, b: ops.matmul(a, b), [M, rand(4, 5, seed=13)], np.matmul, second_order=True),
    OpCase("matmul_batched_broadcast", lambda a, b: a @ b, [X, rand(4, 2, seed=14)], np.matmul),
    OpCase("matmul_transposed_4d_stack_times_matrix",
           lambda a, b: ops.matmul(ops.transpose(a, (0, 2, 1, 3)), b),
           [rand(2, 3, 4, 5, seed=19), rand(5, 3, seed=20)],
           lambda a, b: np.matmul(a.transpose(0, 2, 1, 3), b), second_order=True),
    OpCase("matmul_vector", lambda a, b: ops.matmul(a, b), [M, rand(4, seed=15)], np.matmul),
    OpCase("matmul_vector_left", lambda a, b: ops.matmul(a, b), [rand(3, seed=16), M], np.matmul),
    OpCase("matmul_dot", lambda a, b: ops.matmul(a, b), [rand(4, seed=17), rand(4, seed=18)], np.matmul),
    OpCase("bmm", lambda a, b: ops.bmm(a, b), [X, rand(2, 4, 3, seed=19)], np.matmul),
    OpCase("dense_gemm", lambda x, w, b: ops.dense(x, w, b), [M, rand(5, 4, seed=20), rand(5, seed=21)],
           lambda x, w, b: x @ w.T + b, second_order=True),
    OpCase("dense_3d", lambda x, w, b: ops.dense(x, w, b), [X, rand(5, 4, seed=20), rand(5, seed=21)],
           lambda x, w, b: x @ w.T + b),
    # creation (combined with an input so the lowering has a graph input)
    OpCase("zeros_ones_full", lambda x: x + ops.zeros((3, 4)) + ops.ones(3, 4) + ops.full((3, 4), 2.0), [M],
           lambda x: x + 3.0),
    OpCase("zeros_like_ones_like", lambda x: ops.zeros_like(x) + ops.ones_like(x) * x, [M], lambda x: x),
    OpCase("arange", lambda x: x * ops.arange(4).astype("float32"), [M], lambda x: x * np.arange(4)),
    OpCase("arange_float", lambda x: x + ops.arange(0.0, 2.0, 0.5), [M], lambda x: x + np.arange(0, 2, 0.5)),
    OpCase("eye", lambda x: x @ ops.eye(4, 4, "float32"), [M], lambda x: x),
]
