"""The sparse attention kernels as models use them: MindSpore's documented examples (their shapes), the
DeepSeek sparse attention pipeline (lightning_indexer choosing the tokens sparse_flash_attention reads) traced
into one ONNX graph and run at two batch sizes, the NSA pipeline (compress, compressed attention, selected
attention) trained by gradients, and the errors, which name the op.
"""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from cellonnx import Tensor, ops
from cellonnx.graph.trace import trace
from tests.ops.test_sparse_attention import (
    ref_indexer_bsnd,
    ref_nsa_cmp_attn,
    ref_nsa_compress,
    ref_nsa_select,
    ref_sfa_bsnd,
)
from tests.tolerance import assert_close


def test_documented_example_shapes() -> None:
    """The examples of MindSpore 2.10's docstrings (random inputs, the documented shapes; the long
    sequences shortened where the docstring's kernel sizes are not the point)."""
    rng = np.random.default_rng(0)
    per_segments = [80, 96, 80]
    actual_seq = tuple(np.cumsum(per_segments).tolist())
    x = Tensor(rng.standard_normal((actual_seq[-1], 8, 128)).astype(np.float32))
    w = Tensor(rng.standard_normal((64, 8)).astype(np.float32))
    assert ops.nsa_compress(x, w, 64, 16, actual_seq_len=actual_seq).shape == (7, 8, 128)

    t, n, d = 256, 8, 128
    q, k, v = (Tensor(rng.standard_normal((t, n, d)).astype(np.float32)) for _ in range(3))
    out, idx, smax, ssum = ops.nsa_compress_attention(
        q, k, v, 1.0 / d ** 0.5, n, 32, 16, 64, 16, topk_mask=Tensor(np.ones((t, t), bool)),
        atten_mask=Tensor(np.ones((t, t), bool)), actual_seq_qlen=[t], actual_cmp_seq_kvlen=[t],
        actual_sel_seq_kvlen=[t])
    assert out.shape == (256, 8, 128) and idx.shape == (256, 8, 16) and smax.shape == (256, 8, 8)
    assert ssum.shape == (256, 8, 8) and str(idx.dtype) == "Int32"

    query = Tensor(rng.standard_normal((256, 16, 192)).astype(np.float32))
    key = Tensor(rng.standard_normal((1024, 4, 192)).astype(np.float32))
    value = Tensor(rng.standard_normal((1024, 4, 128)).astype(np.float32))
    topk = Tensor(rng.integers(0, 8, size=(256, 4, 16)).astype(np.int32))
    out, smax, ssum = ops.nsa_select_attention(query, key, value, topk, 192 ** -0.5, 16, 64, 16,
                                               actual_seq_qlen=[128, 256], actual_seq_kvlen=[512, 1024])
    assert out.shape == (256, 16, 128) and smax.shape == (256, 16, 8) and ssum.shape == (256, 16, 8)

    b, s1, s2, n1, n2, d, block = 1, 1, 8192, 64, 1, 128, 256
    query = Tensor(rng.standard_normal((b, s1, n1, d)).astype(np.float32))
    key = Tensor(rng.standard_normal((b * (s2 // block), block, n2, d)).astype(np.float32))
    weights = Tensor(rng.standard_normal((b, s1, n1)).astype(np.float32))
    sparse_indices, _ = ops.lightning_indexer(
        query, key, weights, actual_seq_lengths_query=Tensor(np.array([s1], np.int32)),
        actual_seq_lengths_key=Tensor(np.array([s2], np.int32)),
        block_table=Tensor(np.arange(b * s2 // block).reshape(b, -1).astype(np.int32)), layout_query="BSND",
        layout_key="PA_BSND", sparse_count=2048, sparse_mode=3)
    assert sparse_indices.shape == (1, 1, 1, 2048)
    got = sparse_indices.asnumpy()
    assert len(set(got.ravel().tolist())) == 2048 and got.min() >= 0 and got.max() < s2

    b, s1, s2, n1, n2, d, d_rope = 2, 1, 2048, 16, 1, 64, 16
    query = Tensor(rng.standard_normal((b, s1, n1, d)).astype(np.float32))
    key = Tensor(rng.standard_normal((b, s2, n2, d)).astype(np.float32))
    query_rope = Tensor(rng.standard_normal((b, s1, n1, d_rope)).astype(np.float32))
    key_rope = Tensor(rng.standard_normal((b, s2, n2, d_rope)).astype(np.float32))
    sparse = Tensor(rng.integers(0, s2, (b, s1, n2, 2048)).astype(np.int32))
    out, smax, ssum = ops.sparse_flash_attention(query, key, key, sparse, 1.0 / d ** 0.5,
                                                 query_rope=query_rope, key_rope=key_rope, attention_mode=2,
                                                 return_softmax_lse=True)
    assert out.shape == (2, 1, 16, 64) and smax.shape == (2, 1, 1, 16) and ssum.shape == (2, 1, 1, 16)


def _dsa(q: Tensor, k: Tensor, w: Tensor, v: Tensor) -> Tensor:
    """The indexer picks 3 keys of each query row (causal); the sparse attention reads them."""
    idx, _ = ops.lightning_indexer(q, k, w, sparse_count=3)
    return ops.sparse_flash_attention(q, k, v, idx, 0.5)[0]


def test_dsa_pipeline_traced_and_run_at_two_batch_sizes() -> None:
    """lightning_indexer's indices feed sparse_flash_attention inside one graph (N1 = 4 query heads over
    N2 = 1 key head, as DeepSeek-V3.2); exported with a dynamic batch it runs at batch 2 and 3."""
    rng = np.random.default_rng(1)

    def inputs(b: int) -> list[np.ndarray]:
        return [rng.uniform(-1, 1, s).astype(np.float32) for s in ((b, 4, 4, 8), (b, 6, 1, 8), (b, 4, 4),
                                                                    (b, 6, 1, 5))]

    ex = inputs(2)
    specs = [(name, Tensor(a), [None] + list(a.shape[1:])) for name, a in zip("qkwv", ex)]
    g, _ = trace(_dsa, specs, opset=18, name="dsa")
    sess = ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])
    for arrays in (ex, inputs(3)):
        q, k, w, v = (a.astype(np.float64) for a in arrays)
        idx = ref_indexer_bsnd(q, k, w, 3, 3)[0]
        want = ref_sfa_bsnd(q, k, v, idx, 0.5, 1, 3)[0]
        got = sess.run(None, dict(zip("qkwv", arrays)))[0]
        assert_close(got, want, rtol=1e-5, scale_rtol=1e-5, what=f"DSA at batch {q.shape[0]}")
        eager = _dsa(*(Tensor(a) for a in arrays)).asnumpy()
        assert_close(eager, want, rtol=1e-5, scale_rtol=1e-5, what="DSA eager")


def test_nsa_pipeline_trains_the_compression_weights() -> None:
    """Keys compressed by nsa_compress; nsa_compress_attention's indices choose the blocks
    nsa_select_attention reads; the gradient of both branches reaches the compression weights (and
    matches finite differences), so a training step can learn them."""
    rng = np.random.default_rng(2)
    t, n1, n2, d = 16, 4, 2, 4
    q = rng.uniform(-1, 1, (t, n1, d))
    k = rng.uniform(-1, 1, (t, n2, d))
    wk = rng.uniform(0, 0.5, (4, n2))
    causal = np.triu(np.ones((t, 7), bool), k=1)  # 7 windows of 4 keys every 2

    def loss(wk_t: Tensor) -> Tensor:
        kt = Tensor(k)
        kc = ops.nsa_compress(kt, wk_t, 4, 2, actual_seq_len=[t])
        out_c, top, _, _ = ops.nsa_compress_attention(Tensor(q), kc, kc, 0.5, n1, 4, 2, 4, 2,
                                                      atten_mask=Tensor(causal), actual_seq_qlen=[t],
                                                      actual_cmp_seq_kvlen=[7], actual_sel_seq_kvlen=[4])
        out_s, _, _ = ops.nsa_select_attention(Tensor(q), kt, kt, top, 0.5, n1, 4, 2, actual_seq_qlen=[t],
                                               actual_seq_kvlen=[t])
        return ops.sum(out_c * out_c) + ops.sum(out_s * out_c)

    kc = ref_nsa_compress(k, wk, 4, 2, [t])
    out_c, top, _, _ = ref_nsa_cmp_attn(q, kc, kc, 0.5, n1, 4, 2, 4, 2, None, causal, [t], [7], [4])
    out_s = ref_nsa_select(q, k, k, top, 0.5, n1, 4, [t], [t])[0]
    value, grad = ops.value_and_grad(loss)(Tensor(wk))
    assert_close(value.asnumpy(), (out_c * out_c).sum() + (out_s * out_c).sum(), rtol=1e-10, scale_rtol=1e-10)
    eps, num = 1e-6, np.zeros_like(wk)
    for i in np.ndindex(wk.shape):
        hi, lo = wk.copy(), wk.copy()
        hi[i] += eps
        lo[i] -= eps
        num[i] = (loss(Tensor(hi)).asnumpy() - loss(Tensor(lo)).asnumpy()) / (2 * eps)
    np.testing.assert_allclose(grad.asnumpy(), num, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("call, message", [
    (lambda: ops.nsa_compress(Tensor(np.ones((8, 2, 4), np.float32)), Tensor(np.ones((4, 3), np.float32)), 4,
                              2, actual_seq_len=[8]), "NsaCompress.*'weight' must be"),
    (lambda: ops.nsa_compress(Tensor(np.ones((8, 2, 4), np.float32)), Tensor(np.ones((4, 2), np.float32)), 4,
                              2, actual_seq_len=[6]), "NsaCompress.*must equal T = 8"),
    (lambda: ops.nsa_select_attention(Tensor(np.ones((2, 2, 4), np.float32)), Tensor(np.ones((8, 1, 4),
                                                                                             np.float32)),
                                      Tensor(np.ones((8, 1, 4), np.float32)), Tensor(np.full((2, 1, 2), 4,
                                                                                              np.int32)),
                                      1.0, 2, 2, 2, actual_seq_qlen=[2], actual_seq_kvlen=[8]),
     "NsaSelectAttention.*must lie in \\[0, 4\\)"),
    (lambda: ops.nsa_compress_attention(Tensor(np.ones((4, 2, 8), np.float32)), Tensor(np.ones((4, 1, 8),
                                                                                               np.float32)),
                                        Tensor(np.ones((4, 1, 8), np.float32)), 0.5, 2, 2, 1, 2, 3,
                                        actual_seq_qlen=[4], actual_cmp_seq_kvlen=[4],
                                        actual_sel_seq_kvlen=[2]), "NsaCompressAttention.*must not exceed"),
    (lambda: ops.lightning_indexer(Tensor(np.ones((1, 2, 2, 4), np.float32)), Tensor(np.ones((1, 2, 1, 4),
                                                                                             np.float32)),
                                   Tensor(np.ones((1, 2, 2), np.float32)), sparse_mode=1),
     "LightningIndexer.*'sparse_mode' must be 0 or 3"),
    (lambda: ops.sparse_flash_attention(Tensor(np.ones((1, 2, 2, 4), np.float32)),
                                        Tensor(np.ones((1, 2, 1, 4), np.float32)),
                                        Tensor(np.ones((1, 2, 1, 4), np.float32)),
                                        Tensor(np.zeros((1, 2, 1, 2), np.int32)), 1.0, attention_mode=2),
     "SparseFlashAttention.*needs 'query_rope' and 'key_rope'"),
    (lambda: ops.speed_fusion_attention(Tensor(np.ones((1, 2, 8), np.float32)), Tensor(np.ones((1, 2, 8),
                                                                                              np.float32)),
                                        Tensor(np.ones((1, 2, 8), np.float32)), 2, "BSH",
                                        pse=Tensor(np.ones((3,), np.float32)), pse_type=2),
     "SpeedFusionAttention.*ALiBi slopes"),
    (lambda: ops.speed_fusion_attention(Tensor(np.ones((1, 2, 8), np.float32)), Tensor(np.ones((1, 2, 8),
                                                                                              np.float32)),
                                        Tensor(np.ones((1, 2, 8), np.float32)), 2, "BSH", pse_type=4),
     "SpeedFusionAttention.*'pse_type' must be 0, 1, 2 or 3"),
])
def test_errors_name_the_op(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()
