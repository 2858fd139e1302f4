"""MultiheadAttention and the Transformer family (MindSpore's nn.layer.transformer), with MindSpore's
parameter
names (in_proj_weight, in_proj_bias, out_proj.weight, ..., layers.<i>.self_attn..., norm1.gamma ...), its
initializers and its attention arithmetic (query and key each divided by head_dim ** 0.25, boolean masks as
-inf, key padding masks added to the attention mask)."""
from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.common.initializer import HeUniform, Uniform, XavierNormal, XavierUniform, initializer
from cellonnx.nn.cell import Cell
from cellonnx.nn.container import CellList
from cellonnx.nn.layer._util import new_param
from cellonnx.nn.layer.activation import GELU, ReLU
from cellonnx.nn.layer.basic import Dense, Dropout
from cellonnx.nn.layer.normalization import LayerNorm
from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.tensor import Parameter, Tensor

__all__ = ["MultiheadAttention", "Transformer", "TransformerDecoder", "TransformerDecoderLayer",
           "TransformerEncoder", "TransformerEncoderLayer"]


def _linear(x: Tensor, w: Tensor, b: Tensor | None) -> Tensor:
    return ops.dense(x, w, b)


def _as_additive(mask: Tensor, dtype: Any) -> Tensor:
    """A boolean mask as 0 / -inf of ``dtype``; a float mask as it is."""
    if mask.dtype == dtypes.bool_:
        return ops.masked_fill(ops.zeros_like(ops.cast(mask, dtype)), mask, float("-inf"))
    return mask


def _check_mask_dtype(mask: Tensor | None, what: str) -> None:
    if mask is not None and mask.dtype != dtypes.bool_ and not is_float_dtype(mask._data.dtype):
        raise ValueError(f"only bool and floating types of {what} are supported, got {mask.dtype}")


def multi_head_attention_forward(query: Tensor, key: Tensor, value: Tensor, num_heads: int,
                                 in_proj: tuple[Tensor | None, ...], in_proj_bias: Tensor | None,
                                 bias_k: Tensor | None, bias_v: Tensor | None, add_zero_attn: bool,
                                 dropout_p: float,
                                 out_proj_weight: Tensor, out_proj_bias: Tensor | None, training: bool,
                                 key_padding_mask: Tensor | None = None, attn_mask: Tensor | None = None,
                                 average_attn_weights: bool = True) -> tuple[Tensor, Tensor]:
    """MindSpore's multi_head_attention_forward over (L, N, E) query and (S, N, E_k / E_v) key / value (or
    unbatched (L, E) / (S, E)). ``in_proj``: (in_proj_weight,) packed, or (q_proj_weight, k_proj_weight,
    v_proj_weight). Returns (attention output, attention weights (N, [heads,] L, S))."""
    if query.ndim not in (2, 3) or key.ndim != query.ndim or value.ndim != query.ndim:
        raise ValueError("The `query`, `key` and `value` must all be 2-D (unbatched) or all 3-D (batched), "
                         f"got {tuple(query.shape)}, {tuple(key.shape)} and {tuple(value.shape)}.")
    batched = query.ndim == 3
    if key_padding_mask is not None and key_padding_mask.ndim != (2 if batched else 1):
        raise ValueError(f"For {'batched' if batched else 'unbatched'} `query`, the `key_padding_mask` must "
                         f"be `None` or {2 if batched else 1}D, but got {key_padding_mask.ndim}D.")
    if not batched:
        query, key, value = ops.expand_dims(query, 1), ops.expand_dims(key, 1), ops.expand_dims(value, 1)
        if key_padding_mask is not None:
            key_padding_mask = ops.expand_dims(key_padding_mask, 0)
    tgt_len, bsz, embed_dim = query.shape
    embed_dim = int(embed_dim)
    head_dim = embed_dim // num_heads
    dt = query.dtype
    if len(in_proj) == 1:
        w = in_proj[0]
        assert w is not None
        bq = bk = bv = None
        if in_proj_bias is not None:
            bq, bk, bv = ops.split(in_proj_bias, embed_dim, 0)
        wq, wk, wv = ops.split(w, embed_dim, 0)
    else:
        wq, wk, wv = in_proj  # type: ignore[misc]
        bq = bk = bv = None
        if in_proj_bias is not None:
            bq, bk, bv = ops.split(in_proj_bias, embed_dim, 0)
    q, k, v = _linear(query, wq, bq), _linear(key, wk, bk), _linear(value, wv, bv)
    src_len = key.shape[0]
    if attn_mask is not None:
        if attn_mask.dtype == dtypes.uint8:
            attn_mask = ops.cast(attn_mask, dtypes.bool_)
        elif attn_mask.dtype != dtypes.bool_ and not is_float_dtype(attn_mask._data.dtype):
            raise ValueError("`attn_mask` only support float, byte, and bool types, but got not "
                             f"{attn_mask.dtype}.")
        if attn_mask.ndim == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise ValueError(f"The shape of the `attn_mask` should be {(tgt_len, src_len)}, but got "
                                 f"{tuple(attn_mask.shape)}.")
            attn_mask = ops.expand_dims(attn_mask, 0)
        elif attn_mask.ndim != 3:
            raise ValueError(f"The ndim of `attn_mask` only support 2 or 3, but got {attn_mask.ndim}.")
    if bias_k is not None and bias_v is not None:
        k = ops.concat([k, ops.broadcast_to(ops.cast(bias_k, dt), (1, bsz, embed_dim))], 0)
        v = ops.concat([v, ops.broadcast_to(ops.cast(bias_v, dt), (1, bsz, embed_dim))], 0)
        attn_mask = _pad_last(attn_mask)
        key_padding_mask = _pad_last(key_padding_mask)
    elif bias_k is not None or bias_v is not None:
        raise ValueError("The bias_k and bias_v should be ``None``at the same time.")
    q = ops.swapaxes(ops.reshape(q, (tgt_len, -1, head_dim)), 0, 1)  # (N * heads, L, head_dim)
    k = ops.swapaxes(ops.reshape(k, (k.shape[0], -1, head_dim)), 0, 1)
    v = ops.swapaxes(ops.reshape(v, (v.shape[0], -1, head_dim)), 0, 1)
    if add_zero_attn:
        k = ops.pad(k, (0, 0, 0, 1))
        v = ops.pad(v, (0, 0, 0, 1))
        attn_mask = _pad_last(attn_mask)
        key_padding_mask = _pad_last(key_padding_mask)
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if key_padding_mask.shape[-1] != src_len:
            raise ValueError(f"The shape of `key_padding_mask` should be (batch, {src_len}), but got "
                             f"{tuple(key_padding_mask.shape)}.")
        kpm = ops.reshape(ops.tile(ops.reshape(key_padding_mask, (-1, 1, 1, src_len)), (1, num_heads, 1, 1)),
                          (-1, 1, src_len))
        # MindSpore's combination: a boolean attention mask is or-ed with the padding mask (nonzero counts),
        # a float one gets the padding mask added as numbers (True as 1.0, not -inf)
        if attn_mask is None:
            attn_mask = kpm
        elif attn_mask.dtype == dtypes.bool_:
            attn_mask = ops.logical_or(attn_mask, kpm if kpm.dtype == dtypes.bool_ else ops.not_equal(kpm, 0))
        else:
            attn_mask = ops.add(attn_mask, ops.cast(kpm, attn_mask.dtype))
    if attn_mask is not None:
        attn_mask = _as_additive(attn_mask, dt)
        if int(attn_mask.shape[0]) == 1:
            attn_mask = ops.expand_dims(attn_mask, 0)
        else:
            attn_mask = ops.reshape(attn_mask, (-1, num_heads, attn_mask.shape[-2], src_len))
    q = ops.reshape(q, (-1, num_heads, tgt_len, head_dim))
    k = ops.reshape(k, (-1, num_heads, src_len, head_dim))
    v = ops.reshape(v, (-1, num_heads, src_len, head_dim))
    scale = float(np.sqrt(np.sqrt(np.asarray(head_dim, dtype=dtypes.to_numpy(dt)))))
    attn = ops.matmul(ops.div(q, scale), ops.div(ops.swapaxes(k, -2, -1), scale))
    if attn_mask is not None:
        attn = ops.add(attn, attn_mask)
    attn = ops.softmax(attn, -1)
    if 0.0 < dropout_p <= 1.0 and training:
        attn = ops.dropout(attn, p=dropout_p, training=True)
    out = ops.matmul(attn, v)  # (N, heads, L, head_dim)
    out = ops.reshape(ops.transpose(out, (2, 0, 1, 3)), (-1, embed_dim))
    out = ops.reshape(_linear(out, out_proj_weight, out_proj_bias), (tgt_len, -1, out_proj_weight.shape[0]))
    weights = attn
    if average_attn_weights:
        weights = ops.div(ops.sum(weights, 1), float(num_heads))
    if not batched:
        out, weights = ops.squeeze(out, 1), ops.squeeze(weights, 0)
    return out, weights


def _pad_last(mask: Tensor | None) -> Tensor | None:
    """One more (unmasked) key position at the end of a mask."""
    if mask is None:
        return None
    if mask.dtype == dtypes.bool_:
        return ops.cast(ops.pad(ops.cast(mask, dtypes.int32), (0, 1)), dtypes.bool_)
    return ops.pad(mask, (0, 1))


class MultiheadAttention(Cell):
    r"""Multi-head attention: :math:`\text{softmax}(Q K^T / \sqrt{d}) V` over ``num_heads`` projections, then
    an output projection.

    Args:
        embed_dim (int): query size E (divisible by num_heads).
        num_heads (int): number of heads.
        dropout (float): dropout on the attention weights in training. Default: 0.0.
        has_bias (bool): biases of the input and output projections. Default: True.
        add_bias_kv (bool): append learned key / value vectors ``bias_k`` / ``bias_v``. Default: False.
        add_zero_attn (bool): append a zero key / value position. Default: False.
        kdim, vdim (int, optional): key / value sizes (default embed_dim; when either differs the projections
            are separate parameters q_proj_weight, k_proj_weight, v_proj_weight).
        batch_first (bool): inputs and output are (N, L, E). Default: False.
        dtype: parameter dtype. Default: float32.

    Inputs:
        query (L, N, E), key (S, N, kdim), value (S, N, vdim) (batch first with ``batch_first``; unbatched 2-D
        inputs too), key_padding_mask (N, S) bool / float, optional, need_weights (bool, default True),
        attn_mask (L, S) or (N * num_heads, L, S) bool / float, optional, average_attn_weights (bool, default
        True).

    Outputs:
        (attn_output, attn_weights) with need_weights, else (attn_output,).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> attention = nn.MultiheadAttention(embed_dim=8, num_heads=2)
        >>> query = Tensor(np.ones((5, 3, 8)), ms.float32)
        >>> output, weights = attention(query, query, query)
        >>> output.shape
        (5, 3, 8)
        >>> weights.shape
        (3, 5, 5)
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, has_bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, dtype: Any = dtypes.float32) -> None:
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        dtype = dtypes.float32 if dtype is None else dtype
        self.in_proj_weight: Parameter | None
        self.q_proj_weight: Parameter | None
        self.k_proj_weight: Parameter | None
        self.v_proj_weight: Parameter | None
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = new_param(XavierUniform(), (embed_dim, embed_dim), dtype, "q_proj_weight")
            self.k_proj_weight = new_param(XavierUniform(), (embed_dim, self.kdim), dtype, "k_proj_weight")
            self.v_proj_weight = new_param(XavierUniform(), (embed_dim, self.vdim), dtype, "v_proj_weight")
            self.in_proj_weight = None
        else:
            self.in_proj_weight = new_param(XavierUniform(), (3 * embed_dim, embed_dim), dtype,
                                            "in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        self.in_proj_bias = new_param("zeros", 3 * embed_dim, dtype, "in_proj_bias") if has_bias else None
        bound = 1 / math.sqrt(embed_dim)
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(bound), dtype=dtype)
        self.bias_k: Parameter | None = None
        self.bias_v: Parameter | None = None
        if add_bias_kv:
            self.bias_k = new_param(XavierNormal(), (1, 1, embed_dim), dtype, "bias_k")
            self.bias_v = new_param(XavierNormal(), (1, 1, embed_dim), dtype, "bias_v")
        self.add_zero_attn = add_zero_attn
        self.k_is_v = False
        self.q_is_k = False
        self.dtype = dtype

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        query = kwargs.get("query", args[0] if args else None)
        key = kwargs.get("key", args[1] if len(args) > 1 else None)
        value = kwargs.get("value", args[2] if len(args) > 2 else None)
        self.k_is_v = key is value
        self.q_is_k = query is key
        return super().__call__(*args, **kwargs)

    def construct(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None = None,
                  need_weights: bool = True, attn_mask: Tensor | None = None,
                  average_attn_weights: bool = True) -> tuple[Tensor, ...]:
        _check_mask_dtype(key_padding_mask, "key_padding_mask")
        batched = query.ndim == 3
        if self.batch_first and batched:
            query, key, value = (ops.swapaxes(t, 1, 0) for t in (query, key, value))
        proj: tuple[Tensor | None, ...] = ((self.in_proj_weight,) if self._qkv_same_embed_dim else
                                           (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight))
        out, weights = multi_head_attention_forward(
            query, key, value, self.num_heads, proj, self.in_proj_bias, self.bias_k, self.bias_v,
            self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias, self.training,
            key_padding_mask, attn_mask, average_attn_weights)
        if self.batch_first and batched:
            out = ops.swapaxes(out, 1, 0)
        return (out, weights) if need_weights else (out,)


def _activation(activation: Any) -> Any:
    if not isinstance(activation, (str, Cell)) and not callable(activation):
        raise ValueError("The argument 'activation' must be str, callable or Cell instance, but get "
                         f"{activation}.")
    if isinstance(activation, Cell) and not isinstance(activation, (ReLU, GELU)):
        raise ValueError("The argument 'activation' must be nn.ReLU or nn.GELU instance, but get "
                         f"{activation}.")
    # as MindSpore: a Cell is callable too, so only ops.relu / ops.gelu pass this check
    if callable(activation) and not isinstance(activation, str):
        if activation is not ops.relu and activation is not ops.gelu:
            raise ValueError("The argument 'activation' must be ops.relu or ops.gelu instance, but get "
                             f"{activation}.")
        return activation
    if activation == "relu":
        return ops.relu
    if activation == "gelu":
        return ops.gelu
    raise ValueError(f"The activation must be relu/gelu, but get {activation}")


class _Block(Cell):
    """What the encoder and decoder layers share: the feed-forward block and their settings."""

    def _setup(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float, activation: Any,
               layer_norm_eps: float, batch_first: bool, norm_first: bool, dtype: Any, norms: int) -> None:
        self.dense1 = Dense(d_model, dim_feedforward, weight_init=HeUniform(math.sqrt(5)),
                            bias_init=Uniform(1 / math.sqrt(d_model)), dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, weight_init=HeUniform(math.sqrt(5)),
                            bias_init=Uniform(1 / math.sqrt(dim_feedforward)), dtype=dtype)
        self.norm_first = norm_first
        for i in range(1, norms + 1):
            setattr(self, f"norm{i}", LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for i in range(1, norms + 1):
            setattr(self, f"dropout{i}", Dropout(p=dropout))
        self.activation1 = activation
        self.activation = _activation(activation)
        self.d_model = d_model
        self.nhead = nhead
        self.dim_feedforward = dim_feedforward
        self.dropout_num = dropout
        self.layernorm_eps = layer_norm_eps
        self.batch_first = batch_first
        self.dtype = dtype
        self._norms = norms

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.dense2(self.dropout(self.activation(self.dense1(x))))
        return getattr(self, f"dropout{self._norms}")(x)


class TransformerEncoderLayer(_Block):
    """One encoder layer: self-attention and a feed-forward block, each with a residual connection and layer
    normalization (after the block, or before it with ``norm_first``).

    Args:
        d_model (int), nhead (int), dim_feedforward (int): Default 2048. dropout (float): Default 0.1.
        activation (Union[str, Cell, callable]): 'relu' (default), 'gelu', nn.ReLU / nn.GELU or ops.relu /
        ops.gelu. layer_norm_eps (float): Default 1e-5. batch_first (bool): Default False.
        norm_first (bool): Default False. dtype: parameter dtype.

    Inputs:
        src, src_mask (optional), src_key_padding_mask (optional).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
        >>> src = Tensor(np.ones((3, 5, 8)), ms.float32)
        >>> layer(src).shape
        (3, 5, 8)
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Any = "relu", layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, dtype: Any = dtypes.float32) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                            dtype=dtype)
        self._setup(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                    norm_first,
                    dtype, 2)

    def construct(self, src: Tensor, src_mask: Tensor | None = None,
                  src_key_padding_mask: Tensor | None = None) -> Tensor:
        _check_mask_dtype(src_key_padding_mask, "key_padding_mask")
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._ff_block(x))

    def _sa_block(self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)


class TransformerDecoderLayer(_Block):
    """One decoder layer: self-attention, attention over the encoder's memory and a feed-forward block, each
    with a residual connection and layer normalization. Args as :class:`TransformerEncoderLayer`.

    Inputs:
        tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask (masks optional).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
        >>> tgt = Tensor(np.ones((3, 4, 8)), ms.float32)
        >>> memory = Tensor(np.ones((3, 5, 8)), ms.float32)
        >>> layer(tgt, memory).shape
        (3, 4, 8)
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Any = "relu", layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, dtype: Any = dtypes.float32) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                            dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 dtype=dtype)
        self._setup(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                    norm_first,
                    dtype, 3)

    def construct(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                  memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                  memory_key_padding_mask: Tensor | None = None) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
        return self.norm3(x + self._ff_block(x))

    def _sa_block(self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x: Tensor, mem: Tensor, attn_mask: Tensor | None,
                   key_padding_mask: Tensor | None) -> Tensor:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                need_weights=False)[0]
        return self.dropout2(x)


def _copies(layer: Cell, num_layers: int) -> CellList:
    return CellList([copy.deepcopy(layer) for _ in range(num_layers)])


class TransformerEncoder(Cell):
    """A stack of ``num_layers`` encoder layers, then ``norm`` if given. As in MindSpore, the layers are
    copies of one new layer built with ``encoder_layer``'s settings (not of encoder_layer's weights).

    Args:
        encoder_layer (TransformerEncoderLayer), num_layers (int), norm (Cell, optional).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
        >>> encoder = nn.TransformerEncoder(layer, num_layers=2)
        >>> src = Tensor(np.ones((3, 5, 8)), ms.float32)
        >>> encoder(src).shape
        (3, 5, 8)
    """

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int,
                 norm: Cell | None = None) -> None:
        super().__init__()
        e = encoder_layer
        layer = TransformerEncoderLayer(e.d_model, e.nhead, e.dim_feedforward, e.dropout_num, e.activation1,
                                        e.layernorm_eps, e.batch_first, e.norm_first, dtype=e.dtype)
        self.layers = _copies(layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src: Tensor, src_mask: Tensor | None = None,
                  src_key_padding_mask: Tensor | None = None) -> Tensor:
        _check_mask_dtype(src_key_padding_mask, "key_padding_mask")
        out = src
        for mod in self.layers:
            out = mod(out, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


class TransformerDecoder(Cell):
    """A stack of ``num_layers`` decoder layers (copies of a new layer with ``decoder_layer``'s settings),
    then
    ``norm`` if given.

    Args:
        decoder_layer (TransformerDecoderLayer), num_layers (int), norm (Cell, optional).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
        >>> decoder = nn.TransformerDecoder(layer, num_layers=2)
        >>> tgt = Tensor(np.ones((3, 4, 8)), ms.float32)
        >>> memory = Tensor(np.ones((3, 5, 8)), ms.float32)
        >>> decoder(tgt, memory).shape
        (3, 4, 8)
    """

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm: Cell | None = None) -> None:
        super().__init__()
        d = decoder_layer
        layer = TransformerDecoderLayer(d.d_model, d.nhead, d.dim_feedforward, d.dropout_num, d.activation1,
                                        d.layernorm_eps, d.batch_first, d.norm_first, dtype=d.dtype)
        self.layers = _copies(layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                  memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                  memory_key_padding_mask: Tensor | None = None) -> Tensor:
        out = tgt
        for mod in self.layers:
            out = mod(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                      tgt_key_padding_mask=tgt_key_padding_mask,
                      memory_key_padding_mask=memory_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


class Transformer(Cell):
    """The encoder-decoder Transformer; every parameter of more than one dim is re-initialized Xavier-uniform,
    as MindSpore does.

    Args:
        d_model (int): Default 512. nhead (int): Default 8. num_encoder_layers, num_decoder_layers (int):
        Default
        6. dim_feedforward (int): Default 2048. dropout (float): Default 0.1. activation: as the layers'.
        custom_encoder, custom_decoder (Cell, optional). layer_norm_eps (float): Default 1e-5.
        batch_first (bool), norm_first (bool): Default False. dtype: parameter dtype.

    Inputs:
        src, tgt and the optional masks of the encoder and decoder.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
        ...                        dim_feedforward=16, batch_first=True)
        >>> src = Tensor(np.ones((3, 5, 8)), ms.float32)
        >>> tgt = Tensor(np.ones((3, 4, 8)), ms.float32)
        >>> model(src, tgt).shape
        (3, 4, 8)
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Any = "relu", custom_encoder: Cell | None = None,
                 custom_decoder: Cell | None = None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False, norm_first: bool = False,
                 dtype: Any = dtypes.float32) -> None:
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            enc = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                          layer_norm_eps,
                                          batch_first, norm_first, dtype=dtype)
            self.encoder = TransformerEncoder(enc, num_encoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            dec = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                          layer_norm_eps,
                                          batch_first, norm_first, dtype=dtype)
            self.decoder = TransformerDecoder(dec, num_decoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer("xavier_uniform", tuple(p.shape), p.dtype))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def construct(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None,
                  tgt_mask: Tensor | None = None,
                  memory_mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None,
                  tgt_key_padding_mask: Tensor | None = None,
                  memory_key_padding_mask: Tensor | None = None) -> Tensor:
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError("The number of features for 'src' and 'tgt' must be equal to `d_model`.")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)
