"""Rows for the normalisation family (cellonnx/ops/prims/norm.py) and the embedding lookup
(cellonnx/ops/prims/embedding.py). The NumPy references below are written from the formulas, not from the
implementation."""
from __future__ import annotations

import numpy as np

from cellonnx import ops
from cellonnx.ops.prims.embedding import EmbeddingGrad
from cellonnx.tensor import Parameter, Tensor
from tests.ops.harness import OpCase, positive, rand


def _bn_ref(x, mean, var, w, b, eps=1e-5):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * w.reshape(shape) + b.reshape(shape)


def _batch_stats(x):
    axes = (0,) + tuple(range(2, x.ndim))
    return x.mean(axes), x.var(axes)


def _bn_train_ref(x, w, b, eps=1e-5):
    m, v = _batch_stats(x)
    return _bn_ref(x, m, v, w, b, eps)


def _bn_train_stats(x, w, b, rm0, rv0):
    """batch_norm(training=True, momentum=0.3) from fresh running stats rm0 / rv0: (y, new mean, new var)."""
    rm, rv = Parameter(Tensor(rm0).astype("float32"), "rm"), Parameter(Tensor(rv0).astype("float32"), "rv")
    y = ops.batch_norm(x, rm, rv, w, b, training=True, momentum=0.3)
    return y, Tensor(rm.asnumpy().copy()), Tensor(rv.asnumpy().copy())


def _bn_train_stats_ref(x, w, b, rm0, rv0):
    m, v = _batch_stats(x)
    n = x.size // x.shape[1]
    return (_bn_ref(x, m, v, w, b), 0.7 * rm0 + 0.3 * m, 0.7 * rv0 + 0.3 * v * n / (n - 1))


def _ln_ref(x, k, w=None, b=None, eps=1e-5):
    axes = tuple(range(x.ndim - k, x.ndim))
    y = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + eps)
    return y * (1 if w is None else w) + (0 if b is None else b)


def _in_ref(x, w=None, b=None, eps=1e-5):
    axes = tuple(range(2, x.ndim))
    y = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + eps)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return y * (1 if w is None else w.reshape(shape)) + (0 if b is None else b.reshape(shape))


def _gn_ref(x, groups, w, b, eps=1e-5):
    xg = x.reshape(x.shape[0], groups, -1)
    y = ((xg - xg.mean(-1, keepdims=True)) / np.sqrt(xg.var(-1, keepdims=True) + eps)).reshape(x.shape)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return y * w.reshape(shape) + b.reshape(shape)


def _instance_stats(x, rm0, rv0):
    rm, rv = Tensor(rm0.astype(np.float32)), Tensor(rv0.astype(np.float32))
    y = ops.instance_norm(x, rm, rv, momentum=0.2)
    return y, Tensor(rm.asnumpy().copy()), Tensor(rv.asnumpy().copy())


def _instance_stats_ref(x, rm0, rv0):
    axes = tuple(range(2, x.ndim))
    return (_in_ref(x), 0.8 * rm0 + 0.2 * x.mean(axes).mean(0), 0.8 * rv0 + 0.2 * x.var(axes, ddof=1).mean(0))


# ---- embedding references
def _emb_grad_ref(g, idx, num, padding_idx=None, by_freq=False):
    flat = idx.reshape(-1).astype(np.int64)
    rows = g.reshape(flat.size, -1)
    out = np.zeros((num, rows.shape[1]))
    counts = np.bincount(flat, minlength=num)
    for i, r in zip(flat, rows):
        out[i] += r / (counts[i] if by_freq else 1)
    if padding_idx is not None:
        out[padding_idx] = 0
    return out


def _emb_max_norm(idx, w):
    table = Parameter(Tensor(w).astype("float32"), "table")
    out = ops.embedding(idx, table, max_norm=1.0)
    return out, Tensor(table.asnumpy().copy())


def _emb_max_norm_ref(idx, w):
    new = w.copy()
    for i in np.unique(idx):
        n = np.linalg.norm(w[i])
        if n > 1.0:
            new[i] = w[i] * (1.0 / (n + 1e-7))
    return new[idx], new


X2, X3, X4 = rand(6, 3, seed=31), rand(4, 3, 5, seed=32), rand(2, 3, 4, 5, seed=33)
C3 = (rand(3, seed=34), positive(3, seed=35), rand(3, seed=36) + 1.5, rand(3, seed=37))  # mean, var, w, b
W3, B3 = rand(3, seed=38) + 1.5, rand(3, seed=39)
IDX = np.array([[0, 3, 1], [3, 3, 4]], dtype=np.int64)
TABLE = rand(5, 4, seed=40)
G_EMB = rand(2, 3, 4, seed=41)

CASES = [
    # batch norm, inference (ONNX BatchNormalization)
    OpCase("batch_norm_eval_nc", lambda x, m, v, w, b: ops.batch_norm(x, m, v, w, b), [X2, *C3], _bn_ref,
           second_order=True),
    OpCase("batch_norm_eval_ncl", lambda x, m, v, w, b: ops.batch_norm(x, m, v, w, b, eps=1e-3), [X3, *C3],
           lambda x, m, v, w, b: _bn_ref(x, m, v, w, b, 1e-3)),
    OpCase("batch_norm_eval_nchw", lambda x, m, v, w, b: ops.batch_norm(x, m, v, w, b), [X4, *C3], _bn_ref,
           dynamic=True),
    OpCase("batch_norm_eval_no_affine", lambda x, m, v: ops.batch_norm(x, m, v), [X4, *C3[:2]],
           lambda x, m, v: _bn_ref(x, m, v, np.ones(3), np.zeros(3))),
    # batch norm, training (batch statistics; decomposed in ONNX)
    OpCase("batch_norm_train_nc", lambda x, w, b: ops.batch_norm(x, Tensor(np.zeros(3, np.float32)),
                                                                 Tensor(np.ones(3, np.float32)), w, b, True),
           [X2, W3, B3], _bn_train_ref, second_order=True, rtol=1e-4, atol=1e-5,
           note="float32 batch statistics over 6 rows: relative error ~1e-6 on unit-variance outputs"),
    OpCase("batch_norm_train_ncl", lambda x, w, b: ops.batch_norm(x, Tensor(np.zeros(3, np.float32)),
                                                                  Tensor(np.ones(3, np.float32)), w, b, True),
           [X3, W3, B3], _bn_train_ref, rtol=1e-4, atol=1e-5, note="float32 batch statistics"),
    OpCase("batch_norm_train_nchw_dynamic", lambda x, w, b: ops.batch_norm(
        x, Tensor(np.zeros(3, np.float32)), Tensor(np.ones(3, np.float32)), w, b, training=True),
        [X4, W3, B3], _bn_train_ref, dynamic=True, rtol=1e-4, atol=1e-5, note="float32 batch statistics"),
    OpCase("batch_norm_train_running_stats", _bn_train_stats, [X4, W3, B3, C3[0], C3[1]], _bn_train_stats_ref,
           grad=(), lower=False, rtol=1e-4, atol=1e-5,
           note="the in-place running-statistics update is eager only (a traced graph leaves them alone); "
                "the updated statistics are outputs here but carry no gradient, so the gradient is checked in "
                "the batch_norm_train_* rows"),
    # layer norm (LayerNormalization from opset 17, decomposition below)
    OpCase("layer_norm_last", lambda x, w, b: ops.layer_norm(x, (5,), w, b), [X3, rand(5, seed=42) + 1,
                                                                          rand(5, seed=43)],
           lambda x, w, b: _ln_ref(x, 1, w, b), second_order=True, opsets=(13, 16, 17, 18, 21), atol=1e-5,
           note="float32 statistics over 5 values"),
    OpCase("layer_norm_many_rows", lambda x, w, b: ops.layer_norm(x, (6,), w, b),
           [rand(4, 20, 6, seed=48), rand(6, seed=49) + 1, rand(6, seed=50)],
           lambda x, w, b: _ln_ref(x, 1, w, b), second_order=True, opsets=(13, 17), atol=1e-5,
           note="80 rows: the row sums take the matrix-vector path"),
    OpCase("layer_norm_two_dims", lambda x, w, b: ops.layer_norm(x, (4, 5), w, b, eps=1e-6),
           [X4, rand(4, 5, seed=44) + 1, rand(4, 5, seed=45)], lambda x, w, b: _ln_ref(x, 2, w, b, 1e-6),
           opsets=(13, 17, 21), dynamic=True, atol=1e-5, note="float32 statistics"),
    OpCase("layer_norm_no_affine", lambda x: ops.layer_norm(x, 5), [X3], lambda x: _ln_ref(x, 1), atol=1e-5,
           note="float32 statistics"),
    OpCase("layer_norm_params_suffix", lambda x, w, b: ops.layer_norm_axes(x, 2, -1, w, b, 1e-5),
           [X4, rand(5, seed=46) + 1, rand(5, seed=47)], lambda x, w, b: _ln_ref(x, 2, w, b), atol=1e-5,
           note="float32 statistics"),
    OpCase("layer_norm_params_wider", lambda x, w, b: ops.layer_norm_axes(x, -1, 1, w, b, 1e-5),
           [X3, rand(3, 5, seed=48) + 1, rand(3, 5, seed=49)], lambda x, w, b: _ln_ref(x, 1, w, b), atol=1e-5,
           note="float32 statistics"),
    # instance / group norm (InstanceNormalization)
    OpCase("instance_norm", lambda x, w, b: ops.instance_norm(x, weight=w, bias=b), [X4, W3, B3],
           lambda x, w, b: _in_ref(x, w, b), second_order=True, atol=1e-5, note="float32 statistics"),
    OpCase("instance_norm_1d_dynamic", lambda x: ops.instance_norm(x), [X3], lambda x: _in_ref(x), dynamic=True,
           atol=1e-5, note="float32 statistics"),
    OpCase("instance_norm_running_stats", _instance_stats, [X4, C3[0], C3[1]], _instance_stats_ref, grad=(),
           lower=False, atol=1e-5, note="the running-statistics update is eager only; the statistics outputs "
                                        "carry no gradient (instance_norm rows check it)"),
    OpCase("instance_norm_running_inputs", lambda x, m, v: ops.instance_norm(x, m, v, use_input_stats=False),
           [X3, C3[0], C3[1]], lambda x, m, v: _bn_ref(x, m, v, np.ones(3), np.zeros(3))),
    OpCase("group_norm", lambda x, w, b: ops.group_norm(x, 3, w, b), [rand(2, 6, 3, 2, seed=50),
                                                                  rand(6, seed=51) + 1, rand(6, seed=52)],
           lambda x, w, b: _gn_ref(x, 3, w, b), second_order=True, atol=1e-5, note="float32 statistics"),
    OpCase("group_norm_dynamic_2_groups", lambda x, w, b: ops.group_norm(x, 2, w, b, eps=1e-3),
           [rand(3, 4, 5, seed=53), rand(4, seed=54) + 1, rand(4, seed=55)],
           lambda x, w, b: _gn_ref(x, 2, w, b, 1e-3), dynamic=True, atol=1e-5, note="float32 statistics"),
    OpCase("group_norm_nc", lambda x: ops.group_norm(x, 2), [rand(3, 4, seed=56)],
           lambda x: _gn_ref(x, 2, np.ones(4), np.zeros(4)), atol=1e-5, note="float32 statistics"),
    # L2 normalisation (composites)
    OpCase("l2_normalize", lambda x: ops.l2_normalize(x, -1), [X3],
           lambda x: x / np.sqrt(np.maximum((x * x).sum(-1, keepdims=True), 1e-4))),
    OpCase("normalize_p2", lambda x: ops.normalize(x), [X3],
           lambda x: x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)),
    OpCase("normalize_p3", lambda x: ops.normalize(x, 3.0, -1), [positive(3, 4)],
           lambda x: x / np.maximum((np.abs(x) ** 3).sum(-1, keepdims=True) ** (1 / 3), 1e-12)),
    # embedding: Gather; gradient = EmbeddingGrad (ScatterND add from opset 16, one-hot MatMul before)
    OpCase("embedding", lambda w, i: ops.embedding(i, w), [TABLE, IDX], lambda w, i: w[i], second_order=True),
    OpCase("embedding_float_indices", lambda w, i: ops.embedding(i, w), [TABLE, IDX.astype(np.float64) * 1.0],
           lambda w, i: w[i.astype(np.int64)], grad=(0,), note="float indices are cast to int64 (MXNet Gluon)"),
    OpCase("embedding_padding_idx", lambda w: ops.embedding(Tensor(IDX), w, padding_idx=3), [TABLE],
           lambda w: w[IDX], grad=(), note="the padding row is used forward but gets no gradient by definition, "
                                          "so finite differences do not apply; see embedding_grad_via_backward"),
    OpCase("embedding_grad_scatter", lambda g: EmbeddingGrad.apply(g, Tensor(IDX), num=5, padding_idx=None,
                                                                   scale_grad_by_freq=False),
           [G_EMB], lambda g: _emb_grad_ref(g, IDX, 5), second_order=True, opsets=(13, 15, 16, 18, 21)),
    OpCase("embedding_grad_padding_freq", lambda g: EmbeddingGrad.apply(
        g, Tensor(IDX.astype(np.int32)), num=5, padding_idx=0, scale_grad_by_freq=True),
        [G_EMB], lambda g: _emb_grad_ref(g, IDX, 5, 0, True), second_order=True, opsets=(13, 15, 16, 21)),
    OpCase("embedding_grad_via_backward", lambda w: ops.grad(
        lambda t: ops.sum(ops.embedding(Tensor(IDX), t, padding_idx=1, scale_grad_by_freq=True) * 2.0))(w),
        [TABLE], lambda w: _emb_grad_ref(np.full((2, 3, 4), 2.0), IDX, 5, 1, True), grad=(), lower=False,
        note="this gradient does not depend on the table, so a trace holds only its constant value; "
             "EmbeddingGrad's lowering is checked by the embedding_grad_* rows"),
    OpCase("embedding_max_norm", _emb_max_norm, [IDX, TABLE * 2], _emb_max_norm_ref, grad=(), lower=False,
           note="max_norm rescales the table in place (eager); the traced form is checked in "
                "embedding_max_norm_traced"),
    OpCase("embedding_max_norm_traced", lambda w: ops.embedding(Tensor(IDX), w, max_norm=1.0),
           [TABLE * 2], None, grad=(), note="the lowering row: onnxruntime rescales the looked-up rows as the "
                                            "eager in-place update does (forward checked in embedding_max_norm)"),
]
