"""MindSpore's 3-D, fractional and unpooling operator classes (``ops.Conv3D``, ``ops.Conv3DTranspose``,
``ops.MaxPool3D``, ``ops.AvgPool3D``, ``ops.MaxPool3DWithArgmax``, the adaptive 3-D poolings,
``ops.FractionalMaxPoolWithFixedKsize`` / ``3DWithFixedKsize``, ``ops.MaxUnpool2D`` / ``ops.MaxUnpool3D``):
table rows over the functional ops (see table.py).

Their attributes follow MindSpore's constructors: kernel sizes, strides and dilations as an int, a triple or
an NCDHW 5-tuple (stored as the 5-tuple ``(1, 1, d, h, w)``, as ``prim.kernel_size`` reads in MindSpore),
``pad`` / ``pad_list`` as an int, a triple (one per spatial dim, both sides) or (head, tail, top, bottom,
left, right), ``pad_mode`` 'valid' / 'same' / 'pad' in either case. Only ``data_format='NCDHW'`` exists.
"""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes
from cellonnx.ops.operations._util import ints, one_of  # noqa: F401 (the rows' twins read ints)
from cellonnx.ops.operations.table import Row, build
from cellonnx.ops.prims.math import cast
from cellonnx.tensor import Tensor


def _triple(value: Any, name: str, prim: str, allow_five: bool = True, low: int = 1) -> tuple[int, int, int]:
    """An int, a triple or (with ``allow_five``) an NCDHW 5-tuple whose first two entries are 1."""
    if isinstance(value, int) and not isinstance(value, bool):
        out = (value,) * 3
    elif isinstance(value, (tuple, list)) and len(value) == 3:
        out = tuple(int(v) for v in value)
    elif allow_five and isinstance(value, (tuple, list)) and len(value) == 5 and tuple(value[:2]) == (1, 1):
        out = tuple(int(v) for v in value[2:])
    else:
        allowed = "an int, a tuple of 3 ints" + (" or (1, 1, d, h, w)" if allow_five else "")
        raise ValueError(f"For '{prim}', the '{name}' must be {allowed}, but got {value!r}.")
    if min(out) < low:
        raise ValueError(f"For '{prim}', the '{name}' must be at least {low}, but got {value!r}.")
    return out  # type: ignore[return-value]


def _six(value: Any, name: str, prim: str) -> tuple[int, ...]:
    """Padding as (head, tail, top, bottom, left, right): from an int, a triple (both sides) or six ints."""
    if isinstance(value, int) and not isinstance(value, bool):
        out = (value,) * 6
    elif isinstance(value, (tuple, list)) and len(value) == 3:
        out = tuple(int(v) for v in value for _ in range(2))
    elif isinstance(value, (tuple, list)) and len(value) == 6:
        out = tuple(int(v) for v in value)
    else:
        raise ValueError(f"For '{prim}', the '{name}' must be an int or a tuple of 3 or 6 ints, but got "
                         f"{value!r}.")
    if min(out) < 0:
        raise ValueError(f"For '{prim}', the '{name}' must be non-negative, but got {value!r}.")
    return out


def _check_format(prim: Any) -> None:
    if prim.data_format != "NCDHW":
        raise ValueError(f"For '{prim.name}', the 'data_format' must be 'NCDHW', but got "
                         f"{prim.data_format!r}.")


def _five(prim: Any, attr: str, value: tuple) -> None:
    prim.add_prim_attr(attr, (1, 1, *value))


# ---------------------------------------------------------------- convolution
def _setup_conv3d(prim: Any) -> None:
    name = prim.name
    _check_format(prim)
    pad_mode = one_of(prim, "pad_mode", ("valid", "same", "pad"))
    pad = _six(prim.pad, "pad", name)
    if pad_mode != "pad" and any(pad):
        raise ValueError(f"For '{name}', the 'pad' must be zero or (0, 0, 0, 0, 0, 0) when 'pad_mode' is not "
                         f"\"pad\", but got 'pad' is {prim.pad} and 'pad_mode' is {pad_mode}.")
    prim.add_prim_attr("pad", pad)
    if name == "Conv3DTranspose":
        prim.add_prim_attr("pad_list", pad)
    else:
        prim.padding = pad
    prim.add_prim_attr("kernel_size", _triple(prim.kernel_size, "kernel_size", name, allow_five=False))
    _five(prim, "stride", _triple(prim.stride, "stride", name))
    _five(prim, "dilation", _triple(prim.dilation, "dilation", name))
    if prim.mode != 1:
        raise ValueError(f"For '{name}', the 'mode' must be 1, but got {prim.mode}.")
    out = prim.out_channel
    if not isinstance(out, int) or out < 1:
        raise ValueError(f"For '{name}', the 'out_channel' must be a positive int, but got {out!r}.")
    if not isinstance(prim.group, int) or prim.group < 1 or out % prim.group:
        raise ValueError(f"For '{name}', the 'group' must be a positive int dividing out_channel {out}, but "
                         f"got {prim.group!r}.")
    prim.add_prim_attr("groups", prim.group)
    if name == "Conv3DTranspose":
        op = _triple(prim.output_padding, "output_padding", name, low=0)
        _five(prim, "output_padding", op)
        for o, s, d in zip(op, prim.stride[2:], prim.dilation[2:]):
            if not 0 <= o < max(s, d):
                raise ValueError(f"For '{name}', each 'output_padding' must be in [0, max(stride, "
                                 f"dilation)), but got {prim.output_padding!r}.")


def _check_weight(w: Tensor, prim: Any, channels: int, axis: int) -> None:
    if w.ndim != 5 or int(w.shape[axis]) != channels or tuple(w.shape[2:]) != tuple(prim.kernel_size):
        what = "out_channel" if axis == 0 else "in_channel"
        raise ValueError(f"For '{prim.name}', the weight of shape {tuple(w.shape)} does not match {what} "
                         f"{channels} and kernel_size {prim.kernel_size}.")


def _conv3d(x: Tensor, w: Tensor, bias: Any, prim: Any) -> Tensor:
    from cellonnx.ops import conv3d
    _check_weight(w, prim, prim.out_channel, 0)
    return conv3d(x, w, bias, prim.stride[2:], prim.pad_mode, prim.pad if prim.pad_mode == "pad" else 0,
                  prim.dilation[2:], prim.group)


def _conv3d_transpose(dout: Tensor, w: Tensor, bias: Any, prim: Any) -> Tensor:
    from cellonnx.ops import conv3d_transpose
    if bias is not None:
        raise ValueError(f"For '{prim.name}', the 'bias' must be None (MindSpore supports none), but got a "
                         f"{type(bias).__name__}.")
    _check_weight(w, prim, prim.in_channel, 0)
    if int(w.shape[1]) * prim.group != prim.out_channel:
        raise ValueError(f"For '{prim.name}', the weight of shape {tuple(w.shape)} does not give out_channel "
                         f"{prim.out_channel} with group {prim.group}.")
    pad = prim.pad if prim.pad_mode == "pad" else 0
    return conv3d_transpose(dout, w, prim.pad_mode, pad, prim.stride[2:], prim.dilation[2:], prim.group,
                            prim.output_padding[2:])


# ---------------------------------------------------------------- pooling
def _setup_pool3d(prim: Any) -> None:
    """MaxPool3D / AvgPool3D: MindSpore's checks; pad_mode stored upper-case, as MindSpore does."""
    name = prim.name
    _check_format(prim)
    pad_mode = one_of(prim, "pad_mode", ("VALID", "SAME", "PAD"), upper=True)
    _five(prim, "kernel_size", _triple(prim.kernel_size, "kernel_size", name))
    _five(prim, "strides", _triple(prim.strides, "strides", name))
    attr = "pad_list" if name == "MaxPool3D" else "pad"
    pads = _six(getattr(prim, attr), attr, name)
    if pad_mode != "PAD" and any(pads):
        raise ValueError(f"For '{name}', the '{attr}' must be zero when 'pad_mode' is not 'PAD', but got "
                         f"{getattr(prim, attr)!r}.")
    prim.add_prim_attr("pad_list", pads)
    if name == "MaxPool3D":
        prim.add_prim_attr("ceil_mode", bool(prim.ceil_mode))
    elif not isinstance(prim.divisor_override, int) or prim.divisor_override < 0:
        raise ValueError(f"For '{name}', the 'divisor_override' must be a non-negative int, but got "
                         f"{prim.divisor_override!r}.")


def _max_pool3d(x: Tensor, prim: Any) -> Tensor:
    from cellonnx.ops import max_pool3d
    return max_pool3d(x, prim.kernel_size[2:], prim.strides[2:], prim.pad_list, 1, prim.ceil_mode,
                      pad_mode=prim.pad_mode.lower())


def _avg_pool3d(x: Tensor, prim: Any) -> Tensor:
    """AvgPool3D: unlike the 2-D 'same' pooling, MindSpore's 'SAME' counts the padding in the divisor when
    ``count_include_pad`` is set, so it is padding given explicitly."""
    from cellonnx.ops import avg_pool3d
    from cellonnx.ops.prims.conv import same_pads
    kernel, strides, pads, mode = prim.kernel_size[2:], prim.strides[2:], prim.pad_list, prim.pad_mode.lower()
    if mode == "same":
        begins_ends, _ = same_pads(tuple(x.shape[2:]), kernel, strides, (1, 1, 1))
        pads = tuple(v for i in range(3) for v in (begins_ends[i], begins_ends[3 + i]))
        mode = "pad"
    return avg_pool3d(x, kernel, strides, pads, prim.ceil_mode, prim.count_include_pad, prim.divisor_override,
                      pad_mode=mode)


def _setup_pool3d_argmax(prim: Any) -> None:
    name = prim.name
    _check_format(prim)
    prim.add_prim_attr("ksize", _triple(prim.ksize, "ksize", name))
    prim.add_prim_attr("strides", _triple(prim.strides, "strides", name))
    pads = prim.pads
    if isinstance(pads, int) and not isinstance(pads, bool):
        pads = (pads,) * 3
    if not (isinstance(pads, (tuple, list)) and len(pads) == 3 and min(pads) >= 0):
        raise ValueError(f"For '{name}', the 'pads' must be a non-negative int or 3 ints, but got "
                         f"{prim.pads!r}.")
    prim.add_prim_attr("pads", tuple(int(p) for p in pads))
    prim.add_prim_attr("dilation", _triple(prim.dilation, "dilation", name))
    if dtypes.dtype(prim.argmax_type) not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"For '{name}', the 'argmax_type' must be mstype.int32 or mstype.int64, but got "
                         f"{prim.argmax_type}.")


def _max_pool3d_with_argmax(x: Tensor, prim: Any) -> tuple[Tensor, Tensor]:
    from cellonnx.ops import max_pool3d
    y, idx = max_pool3d(x, prim.ksize, prim.strides, prim.pads, prim.dilation, prim.ceil_mode,
                        return_indices=True)
    return y, cast(idx, prim.argmax_type)


def _adaptive_size3(x: Tensor, output_size: Any) -> tuple:
    if isinstance(output_size, Tensor):
        output_size = tuple(output_size.asnumpy().reshape(-1).tolist())
    size = (output_size,) * 3 if isinstance(output_size, int) else tuple(output_size)
    return tuple(x.shape[-3 + i] if s is None or s == -1 else int(s) for i, s in enumerate(size))


def _adaptive_max_pool3d(x: Tensor, output_size: Any) -> tuple[Tensor, Tensor]:
    from cellonnx.ops import adaptive_max_pool3d
    return adaptive_max_pool3d(x, _adaptive_size3(x, output_size), return_indices=True)


# ---------------------------------------------------------------- unpooling
def _setup_unpool(prim: Any) -> None:
    nd = 2 if prim.name == "MaxUnpool2D" else 3
    want = "NCHW" if nd == 2 else "NCDHW"
    if prim.data_format != want:
        raise ValueError(f"For '{prim.name}', the 'data_format' must be '{want}' (the channels-last layout "
                         f"is not supported), but got {prim.data_format!r}.")
    for attr in ("ksize", "strides", "pads"):
        value = getattr(prim, attr)
        if isinstance(value, int) and not isinstance(value, bool):
            value = (value,) * nd
        elif isinstance(value, (tuple, list)) and len(value) == nd + 2:
            value = tuple(value[2:])
        if not (isinstance(value, (tuple, list)) and len(value) == nd):
            raise ValueError(f"For '{prim.name}', the '{attr}' must be an int or a tuple of {nd} or {nd + 2} "
                             f"ints, but got {getattr(prim, attr)!r}.")
        prim.add_prim_attr(attr, tuple(int(v) for v in value))
    if not any(prim.strides):
        prim.add_prim_attr("strides", prim.ksize)  # MindSpore: strides 0 means the kernel size


def _max_unpool(x: Tensor, argmax: Tensor, prim: Any) -> Tensor:
    from cellonnx.ops import max_unpool2d, max_unpool3d
    fn = max_unpool2d if prim.name == "MaxUnpool2D" else max_unpool3d
    size = tuple(prim.output_shape) if prim.output_shape else None
    return fn(x, argmax, prim.ksize, prim.strides, prim.pads, size)


def _setup_fractional(prim: Any) -> None:
    nd = 3 if "3D" in prim.name else 2
    want = "NCDHW" if nd == 3 else "NCHW"
    if prim.data_format != want:
        raise ValueError(f"For '{prim.name}', the 'data_format' must be '{want}', but got "
                         f"{prim.data_format!r}.")
    for attr in ("ksize", "output_shape"):
        value = getattr(prim, attr)
        value = (value,) * nd if isinstance(value, int) and not isinstance(value, bool) else tuple(value)
        if len(value) != nd or min(value) < 1:
            raise ValueError(f"For '{prim.name}', the '{attr}' must be a positive int or {nd} positive ints, "
                             f"but got {getattr(prim, attr)!r}.")
        prim.add_prim_attr(attr, tuple(int(v) for v in value))


def _fractional_max_pool(x: Tensor, random_samples: Tensor, prim: Any) -> tuple[Tensor, Tensor]:
    from cellonnx.ops import fractional_max_pool2d, fractional_max_pool3d
    fn = fractional_max_pool3d if "3D" in prim.name else fractional_max_pool2d
    y, idx = fn(x, prim.ksize, prim.output_shape, None, True, random_samples)
    return y, cast(idx, dtypes.int64)


ROWS = [
    Row("Conv3D", "out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, dilation=1, group=1, "
        "data_format='NCDHW'", "x, w, bias=None", "_conv3d(x, w, bias, self)", _setup_conv3d,
        summary="3-D convolution of NCDHW input with ``(C_out, C_in / group, kd, kh, kw)`` weights.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((1, 2, 3, 3, 3)), ms.float32)
        >>> weight = Tensor(np.ones((4, 2, 2, 2, 2)), ms.float32)
        >>> y = ops.Conv3D(out_channel=4, kernel_size=2)(x, weight)
        >>> print(y.shape)
        (1, 4, 2, 2, 2)
        >>> print(y[0, 0, 0])
        [[16. 16.]
         [16. 16.]]
        """),
    Row("Conv3DTranspose", "in_channel, out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, "
        "dilation=1, group=1, output_padding=0, data_format='NCDHW'", "dout, weight, bias=None",
        "_conv3d_transpose(dout, weight, bias, self)", _setup_conv3d,
        summary="The transposed 3-D convolution of NCDHW input (weights ``(C_in, C_out / group, ...)``).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> dout = Tensor(np.ones((1, 2, 2, 2, 2)), ms.float32)
        >>> weight = Tensor(np.ones((2, 1, 2, 2, 2)), ms.float32)
        >>> y = ops.Conv3DTranspose(in_channel=2, out_channel=1, kernel_size=2)(dout, weight)
        >>> print(y.shape)
        (1, 1, 3, 3, 3)
        >>> print(y[0, 0, 0])
        [[2. 4. 2.]
         [4. 8. 4.]
         [2. 4. 2.]]
        """),
    Row("MaxPool3D", "kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None, "
        "data_format='NCDHW'", "x", "_max_pool3d(x, self)", _setup_pool3d,
        summary="3-D max pooling of NCDHW input over ``kernel_size`` windows.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(24).reshape(1, 2, 2, 2, 3), ms.float32)
        >>> print(ops.MaxPool3D(kernel_size=2, strides=1, pad_mode="valid")(x))
        [[[[[10. 11.]]]
        <BLANKLINE>
        <BLANKLINE>
          [[[22. 23.]]]]]
        """),
    Row("AvgPool3D", "kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False, "
        "count_include_pad=True, divisor_override=0, data_format='NCDHW'", "x", "_avg_pool3d(x, self)",
        _setup_pool3d,
        summary="3-D average pooling of NCDHW input over ``kernel_size`` windows.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(24).reshape(1, 2, 2, 2, 3), ms.float32)
        >>> print(ops.AvgPool3D(kernel_size=2, strides=1, pad_mode="valid")(x))
        [[[[[ 5.  6.]]]
        <BLANKLINE>
        <BLANKLINE>
          [[[17. 18.]]]]]
        """),
    Row("MaxPool3DWithArgmax", "ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, "
        "data_format='NCDHW', argmax_type=mstype.int64", "x", "_max_pool3d_with_argmax(x, self)",
        _setup_pool3d_argmax,
        summary="3-D max pooling (padding, dilation) that also returns the flat index of each maximum.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(2, 1, 2, 2, 2), ms.float32)
        >>> output, argmax = ops.MaxPool3DWithArgmax(ksize=2, strides=1, pads=0)(x)
        >>> print(output.asnumpy().ravel(), argmax.asnumpy().ravel())
        [ 7. 15.] [7 7]
        """),
    Row("AdaptiveAvgPool3D", "output_size", "x", "adaptive_avg_pool3d(x, _adaptive_size3(x, output_size))",
        summary="3-D average pooling of NCDHW input to the output size ``output_size``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 2, 2, 4), ms.float32)
        >>> print(ops.AdaptiveAvgPool3D(output_size=(1, 1, 2))(x))
        [[[[[6.5 8.5]]]]]
        """),
    Row("AdaptiveMaxPool3D", "", "x, output_size", "_adaptive_max_pool3d(x, output_size)",
        summary="3-D max pooling of NCDHW input to ``output_size``, with the flat index of each maximum.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(36).reshape(1, 3, 3, 4), ms.float32)
        >>> output, argmax = ops.AdaptiveMaxPool3D()(x, Tensor(np.array([1, 1, 2]), ms.int32))
        >>> print(output)
        [[[[33. 35.]]]]
        >>> print(argmax)
        [[[[33 35]]]]
        """),
    Row("FractionalMaxPoolWithFixedKsize", "ksize, output_shape, data_format='NCHW'",
        "input_x, random_samples",
        "_fractional_max_pool(input_x, random_samples, self)", _setup_fractional,
        summary="2-D fractional max pooling with a fixed kernel, the windows placed by ``random_samples``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(25).reshape(1, 1, 5, 5), ms.float32)
        >>> random_samples = Tensor(np.array([[[0.8, 0.8]]]), ms.float32)
        >>> y, argmax = ops.FractionalMaxPoolWithFixedKsize(2, (2, 2))(x, random_samples)
        >>> print(y)
        [[[[ 6.  9.]
           [21. 24.]]]]
        >>> print(argmax)
        [[[[ 6  9]
           [21 24]]]]
        """),
    Row("FractionalMaxPool3DWithFixedKsize", "ksize, output_shape, data_format='NCDHW'", "x, random_samples",
        "_fractional_max_pool(x, random_samples, self)", _setup_fractional,
        summary="3-D fractional max pooling with a fixed kernel, the windows placed by ``random_samples``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(64).reshape(1, 1, 4, 4, 4), ms.float32)
        >>> random_samples = Tensor(np.array([[[0.5, 0.5, 0.5]]]), ms.float32)
        >>> y, argmax = ops.FractionalMaxPool3DWithFixedKsize(2, (2, 2, 2))(x, random_samples)
        >>> print(y.asnumpy().ravel())
        [21. 23. 29. 31. 53. 55. 61. 63.]
        """),
    Row("MaxUnpool2D", "ksize, strides=0, pads=0, output_shape=(), data_format='NCHW'", "x, argmax",
        "_max_unpool(x, argmax, self)", _setup_unpool,
        summary="Undoes 2-D max pooling: ``x`` put at the flat positions ``argmax``, zeros elsewhere.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[[5.0, 7.0]]]]), ms.float32)
        >>> argmax = Tensor(np.array([[[[1, 3]]]]), ms.int64)
        >>> print(ops.MaxUnpool2D(ksize=2, strides=2)(x, argmax))
        [[[[0. 5. 0. 7.]
           [0. 0. 0. 0.]]]]
        """),
    Row("MaxUnpool3D", "ksize, strides=0, pads=0, output_shape=(), data_format='NCDHW'", "x, argmax",
        "_max_unpool(x, argmax, self)", _setup_unpool,
        summary="Undoes 3-D max pooling: ``x`` put at the flat positions ``argmax``, zeros elsewhere.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[[[0.0, 1.0], [8.0, 9.0]]]]]), ms.float32)
        >>> argmax = Tensor(np.array([[[[[0, 1], [2, 3]]]]]), ms.int64)
        >>> print(ops.MaxUnpool3D(ksize=1, strides=1, pads=0)(x, argmax))
        [[[[[0. 1.]
            [8. 9.]]]]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
