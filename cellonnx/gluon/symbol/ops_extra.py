"""Operators exported graphs hold beyond mx.nd's table: SyncBatchNorm (one device: BatchNorm), bilinear
UpSampling (MXNet's fixed depthwise deconvolution), the legacy Crop, ``_split_v2``, ``_linalg_gemm2``,
the interleaved self-attention products GluonNLP's BERT exports use, and the random samplers.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.mxnet._op import TABLE
from cellonnx.mxnet._op._util import dtype_of, int_tuple
from cellonnx.tensor import Tensor

__all__ = ["EXTRA_OPS"]


def batch_norm(
    data: Tensor,
    gamma: Tensor,
    beta: Tensor,
    moving_mean: Tensor,
    moving_var: Tensor,
    eps: float = 1e-3,
    momentum: float = 0.9,
    fix_gamma: bool = True,
    use_global_stats: bool = False,
    output_mean_var: bool = False,
    axis: int = 1,
    cudnn_off: bool = False,
    **_: Any,
) -> Any:
    """MXNet's BatchNorm. With ``fix_gamma`` the scale is 1 and gamma's gradient is zero, as MXNet writes it
    (so an optimizer still applies weight decay to gamma); like MXNet, the forward also sets gamma's value to
    1 (mx.nd.BatchNorm does both)."""
    return TABLE["BatchNorm"](
        data,
        gamma,
        beta,
        moving_mean,
        moving_var,
        eps=eps,
        momentum=momentum,
        fix_gamma=fix_gamma,
        use_global_stats=use_global_stats,
        output_mean_var=output_mean_var,
        axis=axis,
    )


def sync_batch_norm(
    data: Tensor,
    gamma: Tensor,
    beta: Tensor,
    moving_mean: Tensor,
    moving_var: Tensor,
    eps: float = 1e-3,
    momentum: float = 0.9,
    fix_gamma: bool = True,
    use_global_stats: bool = False,
    output_mean_var: bool = False,
    ndev: int = 1,
    key: str = "",
    **_: Any,
) -> Any:
    """SyncBatchNorm on one device: BatchNorm (the statistics of the whole batch)."""
    return batch_norm(
        data,
        gamma,
        beta,
        moving_mean,
        moving_var,
        eps=eps,
        momentum=momentum,
        fix_gamma=fix_gamma,
        use_global_stats=use_global_stats,
        output_mean_var=output_mean_var,
    )


def _is_float(dtype: Any) -> bool:
    """Whether ``dtype`` is a floating type mixed precision casts (bfloat16 included)."""
    return np.dtype(dtype).kind == "f" or np.dtype(dtype).name == "bfloat16"


def amp_cast(data: Tensor, dtype: Any = "float32", **_: Any) -> Tensor:
    """Mixed precision's cast (float types only; others pass unchanged)."""
    if not _is_float(data._data.dtype):
        return data
    return ops.cast(data, dtype_of(dtype))


def amp_multicast(*data: Tensor, num_outputs: int = 1, cast_narrow: bool = False, **_: Any) -> tuple:
    """Every float input cast to the widest (or, with ``cast_narrow``, the narrowest) of their float types."""
    floats = [np.dtype(d._data.dtype) for d in data if _is_float(d._data.dtype)]
    if not floats:
        return tuple(data)
    target = min(floats, key=lambda t: t.itemsize) if cast_narrow else max(floats, key=lambda t: t.itemsize)
    return tuple(
        ops.cast(d, dtype_of(target.name)) if _is_float(d._data.dtype) and d._data.dtype != target else d
        for d in data
    )


def upsampling(
    *data: Tensor,
    scale: int = 1,
    sample_type: str = "nearest",
    num_filter: int = 0,
    multi_input_mode: str = "concat",
    num_args: int = 1,
    **attrs: Any,
) -> Tensor:
    """Nearest upsampling, or bilinear: a depthwise Deconvolution by the ``weight`` input (C, 1, k, k), k =
    2 * scale - scale % 2, stride scale, padding ceil((scale - 1) / 2)."""
    if sample_type != "bilinear":
        # every input scaled to the first one's size times ``scale``, then concatenated (or summed)
        size = int(data[0].shape[2]) * int(scale)
        outs = []
        for d in data:
            k = size // int(d.shape[2])
            outs.append(ops.repeat_elements(ops.repeat_elements(d, k, 2), k, 3) if k > 1 else d)
        if len(outs) == 1:
            return outs[0]
        if multi_input_mode == "sum":
            total = outs[0]
            for o in outs[1:]:
                total = total + o
            return total
        return ops.concat(outs, axis=1)
    x, weight = data[0], data[1]
    s = int(scale)
    k = 2 * s - s % 2
    p = math.ceil((s - 1) / 2)
    c = int(x.shape[1])
    return TABLE["Deconvolution"](
        x, weight, kernel=(k, k), stride=(s, s), pad=(p, p), num_filter=c, num_group=c, no_bias=True
    )


def crop(
    *data: Tensor,
    num_args: int = 1,
    offset: Any = (0, 0),
    h_w: Any = (0, 0),
    center_crop: bool = False,
    **_: Any,
) -> Tensor:
    """The legacy Crop: data[0]'s (H, W) cut to ``h_w``, or to the (H, W) of data[1]."""
    x = data[0]
    h, w = (int(d) for d in data[1].shape[2:4]) if len(data) > 1 else int_tuple(h_w, 2, "h_w", "Crop")
    big_h, big_w = int(x.shape[2]), int(x.shape[3])
    if center_crop:
        oy, ox = (big_h - h) // 2, (big_w - w) // 2
    else:
        oy, ox = int_tuple(offset, 2, "offset", "Crop")
    if oy + h > big_h or ox + w > big_w or h <= 0 or w <= 0:
        raise ValueError(
            f"Crop: a ({h}, {w}) crop at offset ({oy}, {ox}) does not fit the input's ({big_h}, {big_w})"
        )
    return x[:, :, oy : oy + h, ox : ox + w]


def split_v2(
    data: Tensor, indices: Any = (), axis: int = 1, squeeze_axis: bool = False, sections: int = 0, **_: Any
) -> Any:
    """Split at ``indices`` along ``axis``, or into ``sections`` equal parts."""
    ax = int(axis) % data.ndim
    size = data.shape[ax]  # a dynamic axis' size (and the sections' bounds) stay graph values
    if sections:
        bounds = [i * size // int(sections) for i in range(int(sections))] + [size]
    else:
        bounds = [int(i) for i in indices] + [size]
        if not bounds or bounds[0] != 0:
            bounds = [0] + bounds
    parts = []
    for lo, hi in itertools.pairwise(bounds):
        index = [slice(None)] * data.ndim
        index[ax] = slice(lo, hi)
        part = data[tuple(index)]
        parts.append(ops.squeeze(part, ax) if squeeze_axis else part)
    return tuple(parts)


def linalg_gemm2(
    a: Tensor,
    b: Tensor,
    transpose_a: bool = False,
    transpose_b: bool = False,
    alpha: float = 1.0,
    axis: int = -2,
    **_: Any,
) -> Tensor:
    """``alpha * op(a) @ op(b)`` over the last two axes."""
    if int(axis) != -2:
        raise NotImplementedError(f"_linalg_gemm2: axis={axis} is not supported (only MXNet's default -2)")
    x = ops.swapaxes(a, -1, -2) if transpose_a else a
    y = ops.swapaxes(b, -1, -2) if transpose_b else b
    out = ops.matmul(x, y)
    return out * float(alpha) if float(alpha) != 1.0 else out


def _heads(x: Tensor, heads: int, which: int, parts: int = 3) -> Tensor:
    """Part ``which`` of the interleaved (T, N, heads * parts * D) projections as (N * heads, T, D): parts
    are (q, k, v) for self-attention, (k, v) for encoder-decoder attention's keys_values, (q,) for its
    queries."""
    t, width = x.shape[0], int(x.shape[2])  # the length (and the batch) may be read at run time
    d = width // (parts * heads)
    x = ops.reshape(x, (t, -1, heads, parts, d))[:, :, :, which, :]
    return ops.reshape(ops.transpose(x, (1, 2, 0, 3)), (-1, t, d))


def _scores(q: Tensor, k: Tensor) -> Tensor:
    q = _div_sqrt(q)
    return ops.matmul(q, ops.swapaxes(k, 1, 2))


def _attend(attention: Tensor, v: Tensor, heads: int) -> Tensor:
    out = ops.matmul(attention, v)  # (N * heads, T_q, D)
    t, d = out.shape[1], int(out.shape[-1])
    out = ops.transpose(ops.reshape(out, (-1, heads, t, d)), (2, 0, 1, 3))
    return ops.reshape(out, (t, -1, heads * d))


def interleaved_qk(queries_keys_values: Tensor, heads: int = 1, **_: Any) -> Tensor:
    """Attention scores (N * heads, T, T) of interleaved projections, queries scaled by 1 / sqrt(D)."""
    q = _heads(queries_keys_values, int(heads), 0)
    return _scores(q, _heads(queries_keys_values, int(heads), 1))


def interleaved_valatt(queries_keys_values: Tensor, attention: Tensor, heads: int = 1, **_: Any) -> Tensor:
    """The attention-weighted values, (T, N, heads * D)."""
    v = _heads(queries_keys_values, int(heads), 2)
    return _attend(attention, v, int(heads))


def interleaved_encdec_qk(queries: Tensor, keys_values: Tensor, heads: int = 1, **_: Any) -> Tensor:
    """Encoder-decoder attention scores (N * heads, T_q, T_k): queries (T_q, N, heads * D), keys_values
    (T_k, N, heads * 2 * D) interleaved per head as (k, v); queries scaled by 1 / sqrt(D)."""
    q = _heads(queries, int(heads), 0, parts=1)
    return _scores(q, _heads(keys_values, int(heads), 0, parts=2))


def interleaved_encdec_valatt(keys_values: Tensor, attention: Tensor, heads: int = 1, **_: Any) -> Tensor:
    """Encoder-decoder attention's weighted values, (T_q, N, heads * D)."""
    v = _heads(keys_values, int(heads), 1, parts=2)
    return _attend(attention, v, int(heads))


def div_sqrt_dim(data: Tensor, **_: Any) -> Tensor:
    """``data / sqrt(data.shape[-1])``."""
    return _div_sqrt(data)


def _div_sqrt(x: Tensor) -> Tensor:
    # the square root in the graph: a last dim that is dynamic is read at run time
    return ops.div(x, ops.sqrt(Tensor(x.shape[-1], x.dtype)))


def _rng() -> np.random.Generator:
    return np.random.default_rng(int(np.random.randint(0, 2**31 - 1)))


def _shape(shape: Any) -> tuple[int, ...]:
    return () if shape is None else tuple(int(d) for d in shape)


def random_uniform(
    low: float = 0.0, high: float = 1.0, shape: Any = None, dtype: Any = None, **_: Any
) -> Tensor:
    return Tensor(_rng().uniform(low, high, _shape(shape)).astype(dtype_of(_dt(dtype)).np_dtype))


def random_normal(
    loc: float = 0.0, scale: float = 1.0, shape: Any = None, dtype: Any = None, **_: Any
) -> Tensor:
    return Tensor(_rng().normal(loc, scale, _shape(shape)).astype(dtype_of(_dt(dtype)).np_dtype))


def random_uniform_like(data: Tensor, low: float = 0.0, high: float = 1.0, **_: Any) -> Tensor:
    return Tensor(_rng().uniform(low, high, tuple(data.shape)).astype(data._data.dtype))


def random_normal_like(data: Tensor, loc: float = 0.0, scale: float = 1.0, **_: Any) -> Tensor:
    return Tensor(_rng().normal(loc, scale, tuple(data.shape)).astype(data._data.dtype))


def sample_multinomial(
    data: Tensor, shape: Any = (), get_prob: bool = False, dtype: Any = "int32", **_: Any
) -> Any:
    """Draws from the distributions on data's last axis: (..., *shape) class indices."""
    p = data.asnumpy().astype(np.float64)
    lead, k = p.shape[:-1], p.shape[-1]
    draws = _shape(shape)
    count = int(np.prod(draws)) if draws else 1
    rng = _rng()
    flat = p.reshape(-1, k)
    out = np.stack([rng.choice(k, size=count, p=row / row.sum()) for row in flat]).reshape(lead + draws)
    result = Tensor(out.astype(dtype_of(_dt(dtype)).np_dtype))
    if get_prob:
        chosen = np.take_along_axis(flat, out.reshape(flat.shape[0], -1), axis=1).reshape(out.shape)
        return result, Tensor(
            np.log(chosen).astype(p.dtype if data._data.dtype == np.float64 else np.float32)
        )
    return result


def _dt(dtype: Any) -> Any:
    return None if dtype in (None, "None") else dtype


def pooling(
    data: Tensor,
    kernel: Any = (),
    pool_type: str = "max",
    global_pool: bool = False,
    cudnn_off: bool = False,
    pooling_convention: str = "valid",
    stride: Any = (),
    pad: Any = (),
    p_value: int | None = None,
    count_include_pad: bool | None = None,
    layout: Any = None,
    **_: Any,
) -> Tensor:
    """MXNet's Pooling; its 'lp' pooling with p_value 1 sums the values themselves (not their magnitudes)."""
    if pool_type == "lp" and p_value is not None and int(p_value) == 1:
        pool_type, p_value = "sum", None
    return TABLE["Pooling"](
        data,
        kernel=kernel,
        pool_type=pool_type,
        global_pool=global_pool,
        pooling_convention=pooling_convention,
        stride=stride,
        pad=pad,
        p_value=p_value,
        count_include_pad=count_include_pad,
        layout=layout,
    )


_PARITY = {"to_even_down": (0, -1), "to_even_up": (0, 1), "to_odd_down": (1, -1), "to_odd_up": (1, 1)}


def bilinear_resize2d(
    data: Tensor,
    *like: Tensor,
    height: int = 1,
    width: int = 1,
    scale_height: float | None = None,
    scale_width: float | None = None,
    mode: str = "size",
    align_corners: bool = True,
    **_: Any,
) -> Tensor:
    """Bilinear resize; the modes that derive the size from the input's (odd_scale, to_even_down / up,
    to_odd_down / up) are settled here, the others are mx.nd's."""
    h, w = int(data.shape[2]), int(data.shape[3])
    if mode in _PARITY:
        parity, step = _PARITY[mode]
        height, width = (n if n % 2 == parity else n + step for n in (h, w))
    elif mode == "odd_scale":
        sh = scale_height if scale_height is not None else 1.0
        sw = scale_width if scale_width is not None else 1.0
        height = int((h - 1) * sh) + 1 if h % 2 else int(h * sh)
        width = int((w - 1) * sw) + 1 if w % 2 else int(w * sw)
    else:
        return TABLE["BilinearResize2D"](
            data,
            *like,
            height=height,
            width=width,
            scale_height=scale_height,
            scale_width=scale_width,
            mode=mode,
            align_corners=align_corners,
        )
    return TABLE["BilinearResize2D"](data, height=height, width=width, align_corners=align_corners)


EXTRA_OPS = {
    "Pooling": pooling,
    "_contrib_BilinearResize2D": bilinear_resize2d,
    "BatchNorm": batch_norm,
    "_contrib_SyncBatchNorm": sync_batch_norm,
    "amp_cast": amp_cast,
    "amp_multicast": amp_multicast,
    "UpSampling": upsampling,
    "Crop": crop,
    "_split_v2": split_v2,
    "_linalg_gemm2": linalg_gemm2,
    "_contrib_interleaved_matmul_selfatt_qk": interleaved_qk,
    "_contrib_interleaved_matmul_selfatt_valatt": interleaved_valatt,
    "_contrib_interleaved_matmul_encdec_qk": interleaved_encdec_qk,
    "_contrib_interleaved_matmul_encdec_valatt": interleaved_encdec_valatt,
    "_contrib_div_sqrt_dim": div_sqrt_dim,
    "_random_uniform": random_uniform,
    "_random_normal": random_normal,
    "_random_uniform_like": random_uniform_like,
    "_random_normal_like": random_normal_like,
    "_sample_multinomial": sample_multinomial,
}
