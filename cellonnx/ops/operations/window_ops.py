"""MindSpore's sliding-window operator classes that have no functional twin in ``mindspore.ops``
(``ops.ExtractImagePatches``, ``ops.ExtractVolumePatches``, ``ops.Dilation2D``,
``ops.DepthwiseConv2dNative``, ``ops.FractionalMaxPool``, ``ops.FractionalAvgPool``,
``ops.DeformableOffsets``): table rows over the composites of cellonnx/ops/composite/patches.py,
fractional_pool.py and grid_sample.py (see table.py), so they are differentiable; all but the fractional
pools (random cells per call, eager only) export to ONNX.
"""
from __future__ import annotations

from typing import Any

from cellonnx.ops.composite.fractional_pool import fractional_pool
from cellonnx.ops.composite.grid_sample import deformable_offsets  # noqa: F401 (a row's twin)
from cellonnx.ops.composite.patches import (  # noqa: F401 (the rows' twins call them)
    depthwise_conv2d_native,
    dilation2d,
    extract_image_patches,
    extract_volume_patches,
)
from cellonnx.ops.operations._util import pair
from cellonnx.ops.operations.table import Row, build

_PAD_ENUM = {"SAME": 1, "VALID": 2}  # MindSpore keeps ExtractImagePatches' padding as its PadMode enum


def _positive_ints(value: Any, name: str, op: str, sizes: tuple[int, ...]) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool) and 1 in sizes:
        value = (value,)
    if not isinstance(value, (tuple, list)) or len(value) not in sizes or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        raise ValueError(f"For '{op}', the '{name}' must be a tuple of {' or '.join(map(str, sizes))} "
                         f"positive ints, but got {value!r}.")
    return tuple(value)


def _setup_image_patches(prim: Any) -> None:
    op = prim.name
    for attr in ("ksizes", "strides", "rates"):
        value = getattr(prim, attr)
        if not isinstance(value, (tuple, list)):
            raise TypeError(f"For '{op}', the type of '{attr}' should be one of '[list of int, tuple of "
                            f"int]', but got {type(value)}.")
        prim._set_prim_arg(attr, _positive_ints(value, attr, op, (2, 4))[-2:])
    padding = prim.padding
    if not isinstance(padding, str) or padding.upper() not in _PAD_ENUM:
        raise ValueError(f"For '{op}', the 'padding' must be 'SAME' or 'VALID', but got {padding!r}.")
    prim._set_prim_arg("padding", _PAD_ENUM[padding.upper()])


def _image_patches(x: Any, ksizes: Any, strides: Any, rates: Any, padding: int) -> Any:
    mode = "SAME" if padding == _PAD_ENUM["SAME"] else "VALID"
    return extract_image_patches(x, (1, 1, *ksizes), (1, 1, *strides), (1, 1, *rates), mode)


def _five(value: Any, name: str, op: str) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,)
    value = _positive_ints(value, name, op, (1, 3, 5))
    if len(value) == 5 and value[:2] != (1, 1):
        raise ValueError(f"For '{op}', the '{name}[0]' and '{name}[1]' must be 1, but got {value!r}.")
    return (1, 1, *(value * 3 if len(value) == 1 else value[-3:]))


def _setup_volume_patches(prim: Any) -> None:
    op = prim.name
    for attr in ("kernel_size", "strides"):
        value = getattr(prim, attr)
        if isinstance(value, bool) or not isinstance(value, (int, list, tuple)):
            raise TypeError(f"For '{op}', the '{attr}' must be an int, list or tuple, but got "
                            f"{type(value).__name__}.")
        prim.add_prim_attr(attr, _five(value, attr, op))
    if not isinstance(prim.padding, str) or prim.padding.upper() not in ("VALID", "SAME"):
        raise ValueError(f"For '{op}', the 'padding' must be 'VALID' or 'SAME', but got {prim.padding!r}.")
    prim.add_prim_attr("padding", prim.padding.upper())


def _nchw4(value: Any, name: str, op: str) -> tuple[int, int, int, int]:
    if isinstance(value, bool) or not isinstance(value, (int, tuple)):
        raise TypeError(f"For '{op}', the '{name}' must be an int or a tuple, but got "
                        f"{type(value).__name__}.")
    if isinstance(value, int):
        out = (1, 1, value, value)
    elif len(value) == 2:
        out = (1, 1, *value)
    elif len(value) == 4:
        if value[0] != 1 or value[1] != 1:
            raise ValueError(f"For '{op}' attr '{name}' should be [1, 1, {name}_height, {name}_weigth]when "
                             f"data_format is 'NCHW', but got {value}")
        out = tuple(value)
    else:
        out = ()
    if not out or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in out):
        raise ValueError(f"For '{op}' attr '{name}' should be an positive int number or a tuple of two or "
                         f"four positive int numbers, but got {value}")
    return out  # type: ignore[return-value]


def _setup_dilation2d(prim: Any) -> None:
    op = prim.name
    if prim.data_format == "NHWC":
        raise ValueError(f"For '{op}', NHWC format is not supported at present.")
    if prim.data_format != "NCHW":
        raise ValueError(f"For '{op}', the 'data_format' must be 'NCHW', but got {prim.data_format!r}.")
    if prim.pad_mode not in ("VALID", "SAME", "valid", "same"):
        raise ValueError(f"For '{op}', the 'pad_mode' must be one of ['VALID', 'SAME', 'valid', 'same'], but "
                         f"got {prim.pad_mode!r}.")
    prim.add_prim_attr("pad_mode", prim.pad_mode.upper())
    stride = _nchw4(prim.stride, "stride", op)
    if not (1 <= stride[2] <= 255 and 1 <= stride[3] <= 255):
        raise ValueError(f"For Dilation2D, size of stride is not supported, stride should be in the range of "
                         f"[1, 255], but got stride_h: `{stride[2]}`, stride_w: `{stride[3]}`.")
    prim.add_prim_attr("stride", stride)
    prim.add_prim_attr("dilation", _nchw4(prim.dilation, "dilation", op))


def _setup_depthwise(prim: Any) -> None:
    op = prim.name
    prim.kernel_size = pair(prim.kernel_size, "kernel_size", op, allow_four=False)
    stride, dilation = pair(prim.stride, "stride", op), pair(prim.dilation, "dilation", op)
    for name, value in (("stride", stride), ("dilation", dilation)):
        if value[0] != value[1]:
            raise ValueError(f"The height and width of '{name}' must be equal,but got height:{value[0]},  "
                             f"width:{value[1]}")
        prim.add_prim_attr(name, (1, 1, *value))
    pad = prim.pad
    if isinstance(pad, bool) or not isinstance(pad, (int, tuple)):
        raise TypeError(f"For '{op}', the 'pad' must be an int or a tuple, but got {type(pad).__name__}.")
    pad = (pad,) * 4 if isinstance(pad, int) else tuple(pad)
    if len(pad) != 4:
        raise ValueError(f"For '{op}', the 'pad size' must be 4, but got {len(pad)}.")
    if not isinstance(prim.pad_mode, str) or prim.pad_mode.lower() not in ("valid", "same", "pad"):
        raise ValueError(f"For '{op}', the 'pad_mode' must be one of ['valid', 'same', 'pad'], but got "
                         f"{prim.pad_mode!r}.")
    if prim.pad_mode != "pad" and pad != (0, 0, 0, 0):
        raise ValueError(f"For '{op}', the 'pad' must be zero or (0, 0, 0, 0) when 'pad_mode' is not "
                         f"\"pad\", but got 'pad' is {prim.pad} and 'pad_mode' is {prim.pad_mode}.")
    if any(p < 0 for p in pad):
        raise ValueError(f"For '{op}', the 'pad item' must be non-negative, but got {pad}.")
    prim.add_prim_attr("pad", pad)
    prim.padding = pad
    prim.pad_mode = prim.pad_mode.lower()
    if prim.mode != 3:
        raise ValueError(f"For '{op}', the 'mode' must be 3, but got {prim.mode}.")
    for name in ("channel_multiplier", "group"):
        value = getattr(prim, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"For '{op}', the '{name}' must be a positive int, but got {value!r}.")
    prim.add_prim_attr("data_format", "NCHW")
    prim.add_prim_attr("offset_a", 0)


def _depthwise(prim: Any, x: Any, w: Any) -> Any:
    return depthwise_conv2d_native(x, w, prim.channel_multiplier, prim.kernel_size, prim.pad_mode, prim.pad,
                                   prim.stride[2:], prim.dilation[2:])


def _setup_fractional(prim: Any) -> None:
    op = prim.name
    ratio = prim.pooling_ratio
    if not isinstance(ratio, list):
        raise TypeError(f"For '{op}', the 'pooling_ratio' must be a list, but got {type(ratio).__name__}.")
    for item in ratio:
        if not isinstance(item, float):
            raise TypeError(f"For '{op}', the 'pooling_ratio_item' must be a float, but got "
                            f"{type(item).__name__}.")
    for name in ("pseudo_random", "overlapping", "deterministic"):
        if not isinstance(getattr(prim, name), bool):
            raise TypeError(f"For '{op}', the '{name}' must be a bool, but got "
                            f"{type(getattr(prim, name)).__name__}.")
    for name in ("seed", "seed2"):
        value = getattr(prim, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"For '{op}', the '{name}' must be an int, but got {type(value).__name__}.")
    if len(ratio) != 4:
        raise ValueError(f"For '{op}', the length of 'pooling_ratio' must be 4, but got {len(ratio)}.")
    if ratio[0] != 1.0 or ratio[3] != 1.0:
        raise ValueError(f"For '{op}', the first and last elements of 'pooling_ratio' must be 1.0 (no "
                         f"pooling over the batch and the channels), but got {ratio}.")
    if ratio[1] < 1.0 or ratio[2] < 1.0:
        raise ValueError(f"For '{op}', the row and col elements of 'pooling_ratio' must be >= 1.0, but got "
                         f"{ratio}.")
    if op == "FractionalAvgPool" and not prim.deterministic and (prim.seed or prim.seed2):
        raise ValueError(f"For '{op}', both 'seed' and 'seed2' must be 0 if 'deterministic' is false.")


def _fractional(prim: Any, x: Any, mode: str) -> Any:
    from cellonnx.ops.prims.random import generator

    seed = prim.seed or prim.seed2
    rng = generator(prim.name, int(seed) if seed else None)
    return fractional_pool(x, prim.pooling_ratio, prim.pseudo_random, prim.overlapping, rng, mode, prim.name)


def _int_tuple(value: Any, n: int, name: str, op: str) -> tuple[int, ...]:
    if not isinstance(value, tuple) or len(value) != n or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise TypeError(f"For '{op}', the '{name}' must be a tuple of {n} ints, but got {value!r}.")
    return value


def _setup_deformable(prim: Any) -> None:
    op = prim.name
    if prim.data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"For '{op}', the 'data_format' must be 'NCHW' or 'NHWC', but got "
                         f"{prim.data_format!r}.")
    if prim.data_format == "NHWC":
        raise ValueError(f"For '{op}', only the 'NCHW' data_format is supported (as on MindSpore's CPU and "
                         "GPU), but got 'NHWC'.")
    prim.add_prim_attr("format", prim.data_format)
    pos_c = 1
    for name in ("strides", "dilations"):
        value = _int_tuple(getattr(prim, name), 4, name, op)
        if value[0] != 1 or value[pos_c] != 1:
            raise ValueError(f"For '{op}', The N and C dimensions of '{name}' must be set to 1.")
    _int_tuple(prim.pads, 4, "pads", op)
    _int_tuple(prim.ksize, 2, "kernel_size", op)
    groups = prim.deformable_groups
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
        raise ValueError(f"For '{op}', the 'deformable_groups' must be a positive int, but got {groups!r}.")
    if not isinstance(prim.modulated, bool):
        raise TypeError(f"For '{op}', the 'modulated' must be a bool, but got "
                        f"{type(prim.modulated).__name__}.")
    if prim.modulated is not True:
        raise ValueError(f"For '{op}', The modulated must be set to True.")


ROWS = [
    Row("ExtractImagePatches", "ksizes, strides, rates, padding='VALID'", "input_x",
        "_image_patches(input_x, ksizes, strides, rates, padding)", _setup_image_patches,
        summary="The ``ksizes`` patches of NCHW input stacked in the channel axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> y = ops.ExtractImagePatches(ksizes=[1, 1, 2, 2], strides=[1, 1, 2, 2], rates=[1, 1, 1, 1])(x)
        >>> print(y.shape)
        (1, 4, 2, 2)
        >>> print(y[0, :, 0, 0])
        [0. 1. 4. 5.]
        """),
    Row("ExtractVolumePatches", "kernel_size, strides, padding", "input_x",
        "extract_volume_patches(input_x, kernel_size, strides, padding)", _setup_volume_patches,
        summary="The ``kernel_size`` patches of NCDHW input stacked in the channel axis.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(8).reshape(1, 1, 2, 2, 2), ms.float32)
        >>> y = ops.ExtractVolumePatches([1, 1, 2, 2, 2], [1, 1, 1, 1, 1], "VALID")(x)
        >>> print(y.shape)
        (1, 8, 1, 1, 1)
        >>> print(y.asnumpy().ravel())
        [0. 1. 2. 3. 4. 5. 6. 7.]
        """),
    Row("Dilation2D", "stride, dilation, pad_mode='SAME', data_format='NCHW'", "x, filter",
        "dilation2d(x, filter, stride, dilation, pad_mode)", _setup_dilation2d,
        summary="Grayscale morphological dilation of NCHW input by ``filter`` (max of input plus filter).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(9).reshape(1, 1, 3, 3), ms.float32)
        >>> filter = Tensor(np.zeros((1, 2, 2)), ms.float32)
        >>> print(ops.Dilation2D(stride=1, dilation=1, pad_mode="VALID")(x, filter))
        [[[[4. 5.]
           [7. 8.]]]]
        """),
    Row("DepthwiseConv2dNative",
        "channel_multiplier, kernel_size, mode=3, pad_mode='valid', pad=0, stride=1, dilation=1, group=1",
        "x, w", "_depthwise(self, x, w)", _setup_depthwise,
        summary="Depthwise 2-D convolution: each input channel with its own ``channel_multiplier`` filters.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((1, 2, 3, 3)), ms.float32)
        >>> weight = Tensor(np.ones((1, 2, 2, 2)), ms.float32)
        >>> y = ops.DepthwiseConv2dNative(channel_multiplier=1, kernel_size=2)(x, weight)
        >>> print(y.shape)
        (1, 2, 2, 2)
        >>> print(y[0, 0])
        [[4. 4.]
         [4. 4.]]
        """),
    Row("FractionalMaxPool", "pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, "
        "seed=0, seed2=0", "x", "_fractional(self, x, 'max')", _setup_fractional,
        summary="Fractional max pooling of NHWC input by ``pooling_ratio``, and the row/column bounds.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(1, 17).reshape(1, 4, 4, 1), ms.float32)
        >>> output, row_seq, col_seq = ops.FractionalMaxPool(pooling_ratio=[1.0, 2.0, 2.0, 1.0])(x)
        >>> print(output.asnumpy().ravel(), row_seq, col_seq)
        [ 6.  8. 14. 16.] [0 2 4] [0 2 4]
        """),
    Row("FractionalAvgPool", "pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, "
        "seed=0, seed2=0", "x", "_fractional(self, x, 'avg')", _setup_fractional,
        summary="Fractional average pooling of NHWC input by ``pooling_ratio``, and the row/column bounds.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(1, 17).reshape(1, 4, 4, 1), ms.float32)
        >>> output, row_seq, col_seq = ops.FractionalAvgPool(pooling_ratio=[1.0, 2.0, 2.0, 1.0])(x)
        >>> print(output.asnumpy().ravel(), row_seq, col_seq)
        [ 3.5  5.5 11.5 13.5] [0 2 4] [0 2 4]
        """),
    Row("DeformableOffsets", "strides, pads, ksize, dilations=(1, 1, 1, 1), data_format='NCHW', "
        "deformable_groups=1, modulated=True", "x, offsets",
        "deformable_offsets(x, offsets, ksize, strides, pads, dilations, deformable_groups, modulated)",
        _setup_deformable,
        summary="Deformable-convolution sampling of NCHW input at ``offsets``, laid out for a convolution.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(9).reshape(1, 1, 3, 3), ms.float32)
        >>> offsets = Tensor(np.zeros((1, 3 * 2 * 2, 2, 2)), ms.float32)
        >>> y = ops.DeformableOffsets(strides=(1, 1, 1, 1), pads=(0, 0, 0, 0), ksize=(2, 2))(x, offsets)
        >>> print(y.shape)
        (1, 1, 4, 4)
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
