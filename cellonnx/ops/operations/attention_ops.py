"""MindSpore's fused attention operator classes (``FlashAttentionScore``, ``PromptFlashAttention``,
``IncreFlashAttention``, ``PagedAttention``, ``PagedAttentionMask``, ``ReshapeAndCache``; Ascend kernels in
MindSpore): table rows over the attention composites (see table.py), which compute the same attention.
"""
from __future__ import annotations

from typing import Any

from cellonnx.ops.composite.flash_attention import flash_attention_score_all
from cellonnx.ops.composite.infer_attention import incre_flash_attention, prompt_flash_attention  # noqa: F401
from cellonnx.ops.composite.paged_attention import paged_attention, reshape_and_cache  # noqa: F401
from cellonnx.ops.operations._util import one_of
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _setup_kv_quant(prim: Any) -> None:
    one_of(prim, "kv_cache_quant_mode", ("DEFAULT",), upper=True)


def _setup_paged(prim: Any) -> None:
    _setup_kv_quant(prim)
    one_of(prim, "mask_mode", ("MASK_DEFAULT", "TRAPEZOIDAL"), upper=True)


def _fas(query: Tensor, key: Tensor, value: Tensor, real_shift: Any, drop_mask: Any, padding_mask: Any,
         attn_mask: Any, prefix: Any, actual_seq_qlen: Any, actual_seq_kvlen: Any, p: Any) -> tuple:
    return flash_attention_score_all(query, key, value, p.head_num, real_shift, drop_mask, padding_mask,
                                     attn_mask, prefix, actual_seq_qlen, actual_seq_kvlen, p.keep_prob,
                                     p.scale_value, p.pre_tokens, p.next_tokens, p.inner_precise,
                                     p.input_layout, p.sparse_mode)


def _quant_none(prim: str, **given: Any) -> None:
    used = [name for name, value in given.items() if value is not None]
    if used:
        raise ValueError(f"For '{prim}', the int8 cache arguments {', '.join(used)} are not supported: "
                         f"cellonnx keeps the cache in floating point (pass None)")


def _paged(query: Tensor, key_cache: Tensor, value_cache: Any, block_tables: Any, context_lens: Any,
           antiquant_scale: Any, antiquant_offset: Any, attn_mask: Any, q_seq_lens: Any, alibi_mask: Any,
           p: Any) -> Tensor:
    name = type(p).__name__
    _quant_none(name, antiquant_scale=antiquant_scale, antiquant_offset=antiquant_offset)
    if block_tables is None or context_lens is None:
        raise ValueError(f"For '{name}', 'block_tables' and 'context_lens' must be given")
    return paged_attention(query, key_cache, value_cache, block_tables, context_lens, p.head_num,
                           p.scale_value, p.kv_head_num, attn_mask, q_seq_lens, alibi_mask,
                           getattr(p, "mask_mode", "MASK_DEFAULT"), getattr(p, "mla_v_dim", 0))


ROWS = [
    Row("FlashAttentionScore",
        "head_num, keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647, next_tokens=2147483647, "
        "inner_precise=0, input_layout='BSH', sparse_mode=0",
        "query, key, value, real_shift=None, drop_mask=None, padding_mask=None, attn_mask=None, prefix=None, "
        "actual_seq_qlen=None, actual_seq_kvlen=None",
        "_fas(query, key, value, real_shift, drop_mask, padding_mask, attn_mask, prefix, actual_seq_qlen, "
        "actual_seq_kvlen, self)",
        summary=("Training self-attention (Ascend's fused kernel in MindSpore); returns softmax_max, "
                 "softmax_sum, softmax_out and attention_out."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> q = Tensor(np.ones((2, 4, 64)), ms.float16)
        >>> fa = ops.operations.nn_ops.FlashAttentionScore(head_num=4, scale_value=0.125)
        >>> softmax_max, softmax_sum, _, out = fa(q, q, q)
        >>> out.shape, softmax_max.shape
        ((2, 4, 64), (2, 4, 4, 8))
        """),
    Row("PromptFlashAttention",
        "num_heads=1, scale_value=1.0, pre_tokens=2147483647, next_tokens=0, input_layout='BSH', "
        "num_key_value_heads=0, sparse_mode=0, inner_precise=1",
        "query, key, value, attn_mask=None, actual_seq_lengths=None, actual_seq_lengths_kv=None, "
        "pse_shift=None, deq_scale1=None, quant_scale1=None, deq_scale2=None, quant_scale2=None, "
        "quant_offset2=None",
        "prompt_flash_attention(query, key, value, attn_mask, actual_seq_lengths, actual_seq_lengths_kv, "
        "pse_shift, deq_scale1, quant_scale1, deq_scale2, quant_scale2, quant_offset2, num_heads, "
        "scale_value, pre_tokens, next_tokens, input_layout, num_key_value_heads, sparse_mode, "
        "inner_precise)",
        summary="Attention of full (prompt) inference (Ascend's fused kernel in MindSpore).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor
        >>> from cellonnx.ops.operations.nn_ops import PromptFlashAttention
        >>> q = Tensor(np.ones((1, 4, 32)), ms.float16)
        >>> PromptFlashAttention(num_heads=2, scale_value=0.25)(q, q, q).shape
        (1, 4, 32)
        """),
    Row("IncreFlashAttention",
        "num_heads=1, input_layout='BSH', scale_value=1.0, num_key_value_heads=0, block_size=0, "
        "inner_precise=1",
        "query, key, value, attn_mask=None, actual_seq_lengths=None, pse_shift=None, dequant_scale1=None, "
        "quant_scale1=None, dequant_scale2=None, quant_scale2=None, quant_offset2=None, "
        "antiquant_scale=None, antiquant_offset=None, block_table=None, kv_padding_size=None",
        "incre_flash_attention(query, key, value, attn_mask, actual_seq_lengths, pse_shift, dequant_scale1, "
        "quant_scale1, dequant_scale2, quant_scale2, quant_offset2, antiquant_scale, antiquant_offset, "
        "block_table, num_heads, input_layout, scale_value, num_key_value_heads, block_size, inner_precise, "
        "kv_padding_size)",
        summary=("Attention of one decoding step over a key / value cache (Ascend's fused kernel in "
                 "MindSpore)."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor
        >>> from cellonnx.ops.operations.nn_ops import IncreFlashAttention
        >>> q = Tensor(np.ones((2, 1, 32)), ms.float16)
        >>> kv = Tensor(np.ones((2, 6, 16)), ms.float16)
        >>> IncreFlashAttention(num_heads=2, num_key_value_heads=1)(q, [kv], [kv]).shape
        (2, 1, 32)
        """),
    Row("PagedAttention",
        "head_num, scale_value, kv_head_num, kv_cache_quant_mode='DEFAULT', mask_mode='MASK_DEFAULT', "
        "mla_v_dim=0",
        "query, key_cache, value_cache=None, block_tables=None, context_lens=None, antiquant_scale=None, "
        "antiquant_offset=None, attn_mask=None, q_seq_lens=None, alibi_mask=None",
        "_paged(query, key_cache, value_cache, block_tables, context_lens, antiquant_scale, "
        "antiquant_offset, attn_mask, q_seq_lens, alibi_mask, self)",
        setup=_setup_paged,
        summary=("Attention of query tokens over a paged key / value cache read through block tables and "
                 "context lengths."),
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> q = Tensor(np.ones((1, 1, 2)), ms.float32)
        >>> cache = Tensor(np.arange(8.0).reshape(2, 2, 1, 2), ms.float32)
        >>> tables, lens = Tensor([[1, 0]], ms.int32), Tensor([1], ms.int32)
        >>> print(ops.PagedAttention(1, 1.0, 1)(q, cache, cache, tables, lens).asnumpy())
        [[[4. 5.]]]
        """),
    Row("PagedAttentionMask",
        "head_num, scale_value, kv_head_num, kv_cache_quant_mode='DEFAULT'",
        "query, key_cache, value_cache, block_tables, context_lens, antiquant_scale=None, "
        "antiquant_offset=None, alibi_mask=None",
        "_paged(query, key_cache, value_cache, block_tables, context_lens, antiquant_scale, "
        "antiquant_offset, None, None, alibi_mask, self)",
        setup=_setup_kv_quant,
        summary="PagedAttention with an additive (ALiBi) bias on the scaled scores.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> q = Tensor(np.ones((1, 1, 2)), ms.float32)
        >>> cache = Tensor(np.arange(8.0).reshape(2, 2, 1, 2), ms.float32)
        >>> tables, lens = Tensor([[1, 0]], ms.int32), Tensor([2], ms.int32)
        >>> alibi = Tensor(np.array([[[[0.0, -100.0, 0.0, 0.0]]]]), ms.float32)
        >>> pam = ops.PagedAttentionMask(1, 1.0, 1)
        >>> print(pam(q, cache, cache, tables, lens, alibi_mask=alibi).asnumpy())
        [[[4. 5.]]]
        """),
    Row("ReshapeAndCache", "",
        "key, value=None, key_cache=None, value_cache=None, slot_mapping=None",
        "reshape_and_cache(key, value, key_cache, value_cache, slot_mapping)",
        summary="Writes each token's key and value into the paged block caches at its slot, in place.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor, Parameter
        >>> cache = Parameter(Tensor(np.zeros((2, 2, 1, 2)), ms.float32), name="key_cache")
        >>> key = Tensor(np.array([[[1.0, 2.0]]]), ms.float32)
        >>> _ = ops.ReshapeAndCache()(key, None, cache, None, Tensor([2], ms.int32))
        >>> print(cache.asnumpy()[1, 0])
        [[1. 2.]]
        """),
]

CLASSES: dict[str, Any] = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
