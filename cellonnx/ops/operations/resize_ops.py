"""MindSpore's resizing and sampling operator classes (``ops.ResizeBilinearV2``, ``ops.ResizeBicubic``,
``ops.ResizeNearestNeighbor`` / ``V2``, ``ops.ResizeLinear1D``, ``ops.UpsampleNearest3D``,
``ops.UpsampleTrilinear3D``, ``ops.GridSampler2D`` / ``3D``): table rows over the functional ops and the
Resize primitive (see table.py).

The ``Resize*`` classes take TensorFlow's coordinate conventions: ``align_corners`` maps the corner pixels
onto each other (nearest rounds), ``half_pixel_centers`` samples at pixel centres, and neither is the
asymmetric mapping ``src = dst * in / out`` (which cellonnx.ops.interpolate does not offer).
"""
from __future__ import annotations

from typing import Any

from cellonnx.ops.operations._util import one_of
from cellonnx.ops.operations.table import Row, build
from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.ops.prims.resize import Resize
from cellonnx.tensor import Tensor


def _sizes(size: Any, n: int, op: str) -> tuple[int, ...]:
    if isinstance(size, Tensor):
        size = size.asnumpy().reshape(-1).tolist()
    if isinstance(size, int) and not isinstance(size, bool):
        size = (size,)
    values = tuple(int(s) for s in size)
    if len(values) != n or min(values) < 1:
        raise ValueError(f"For '{op}', the size must be {n} positive ints, but got {size!r}.")
    return values


def _check_rank(x: Tensor, rank: int, op: str) -> None:
    if not isinstance(x, Tensor) or x.ndim != rank:
        shape = tuple(x.shape) if isinstance(x, Tensor) else type(x).__name__
        raise ValueError(f"For '{op}', the input must be a {rank}-D Tensor, but got {shape}.")


def _setup_tf(prim: Any) -> None:
    if prim.align_corners and prim.half_pixel_centers:
        raise ValueError(f"For '{prim.name}', the 'half_pixel_centers' must be False when 'align_corners' is "
                         "True, but got True.")


def _tf_resize(x: Tensor, size: Any, kind: str, prim: Any) -> Tensor:
    """Resize the (H, W) of an NCHW input with TensorFlow's coordinate convention (see the module)."""
    op = prim.name
    _check_rank(x, 4, op)
    sizes = _sizes(size, 2, op)
    if kind != "nearest" and not is_float_dtype(x._data.dtype):
        raise TypeError(f"For '{op}', the input must be a float Tensor, but got {x.dtype}.")
    if prim.align_corners:
        mode, align = kind, True
    elif prim.half_pixel_centers:
        mode, align = ("nearest-exact" if kind == "nearest" else kind), False
    else:
        mode, align = (kind if kind == "nearest" else f"{kind}-asymmetric"), False
    return Resize.apply(x, mode=mode, sizes=sizes, align_corners=align, scales=None)


def _setup_linear1d(prim: Any) -> None:
    one_of(prim, "coordinate_transformation_mode", ("align_corners", "half_pixel"))


def _resize_linear1d(x: Tensor, size: Any, mode: str) -> Tensor:
    _check_rank(x, 3, "ResizeLinear1D")
    return Resize.apply(x, mode="linear", sizes=_sizes(size, 1, "ResizeLinear1D"),
                        align_corners=mode == "align_corners", scales=None)


def _upsample3d(x: Tensor, output_size: Any, scales: Any, mode: str, align_corners: Any, op: str) -> Tensor:
    from cellonnx.ops import interpolate
    _check_rank(x, 5, op)
    if (output_size is None) == (scales is None):
        raise ValueError(f"For '{op}', exactly one of 'output_size' and 'scales' must be given, but got "
                         f"output_size={output_size!r} and scales={scales!r}.")
    if output_size is not None:
        return interpolate(x, size=_sizes(output_size, 3, op), mode=mode, align_corners=align_corners)
    factors = tuple(float(s) for s in scales)
    if len(factors) != 3:
        raise ValueError(f"For '{op}', the 'scales' must be 3 floats, but got {scales!r}.")
    return interpolate(x, scale_factor=factors, mode=mode, align_corners=align_corners)


def _setup_grid(prim: Any) -> None:
    modes = ("bilinear", "nearest") if prim.name == "GridSampler3D" else ("bilinear", "nearest", "bicubic")
    one_of(prim, "interpolation_mode", modes)
    one_of(prim, "padding_mode", ("zeros", "border", "reflection"))


def _grid_sampler(x: Tensor, grid: Tensor, prim: Any, rank: int) -> Tensor:
    from cellonnx.ops import grid_sample
    _check_rank(x, rank, prim.name)
    _check_rank(grid, rank, prim.name)
    return grid_sample(x, grid, prim.interpolation_mode, prim.padding_mode, prim.align_corners)


ROWS = [
    Row("ResizeBilinearV2", "align_corners=False, half_pixel_centers=False", "image, size",
        "_tf_resize(image, size, 'linear', self)", _setup_tf,
        summary="Resizes NCHW images to ``size`` by bilinear interpolation.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> image = Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]]), ms.float32)
        >>> print(ops.ResizeBilinearV2()(image, (2, 4)))
        [[[[1.  1.5 2.  2. ]
           [3.  3.5 4.  4. ]]]]
        >>> print(ops.ResizeBilinearV2(align_corners=True)(image, (2, 3)))
        [[[[1.  1.5 2. ]
           [3.  3.5 4. ]]]]
        """),
    Row("ResizeBicubic", "align_corners=False, half_pixel_centers=False", "image, size",
        "_tf_resize(image, size, 'cubic', self)", _setup_tf,
        summary="Resizes NCHW images to ``size`` by bicubic interpolation (TensorFlow's coordinate rules).",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> image = Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]]), ms.float32)
        >>> print(ops.ResizeBicubic()(image, Tensor(np.array([1, 4]), ms.int32)).asnumpy().round(4))
        [[[[1.     1.5    2.     2.0938]]]]
        """),
    Row("ResizeNearestNeighbor", "size, align_corners=False, half_pixel_centers=False", "input_x",
        "_tf_resize(input_x, size, 'nearest', self)", _setup_tf,
        summary="Resizes the last two axes of an NCHW input to ``size`` by nearest-neighbour sampling.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]]), ms.float32)
        >>> print(ops.ResizeNearestNeighbor((4, 4))(x))
        [[[[1. 1. 2. 2.]
           [1. 1. 2. 2.]
           [3. 3. 4. 4.]
           [3. 3. 4. 4.]]]]
        """),
    Row("ResizeNearestNeighborV2", "align_corners=False, half_pixel_centers=False", "image, size",
        "_tf_resize(image, size, 'nearest', self)", _setup_tf,
        summary="Resizes NCHW images to ``size`` by nearest-neighbour interpolation.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> image = Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]]), ms.float32)
        >>> print(ops.ResizeNearestNeighborV2()(image, Tensor(np.array([3, 3]), ms.int32)))
        [[[[1. 1. 2.]
           [1. 1. 2.]
           [3. 3. 4.]]]]
        """),
    Row("ResizeLinear1D", "coordinate_transformation_mode='align_corners'", "x, size",
        "_resize_linear1d(x, size, coordinate_transformation_mode)", _setup_linear1d,
        summary="Resizes the last axis of ``(N, C, W)`` input to ``size`` by linear interpolation.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]), ms.float32)
        >>> print(ops.ResizeLinear1D()(x, (5,)))
        [[[1.  1.5 2.  2.5 3. ]
          [4.  4.5 5.  5.5 6. ]]]
        """),
    Row("UpsampleNearest3D", "", "x, output_size=None, scales=None",
        "_upsample3d(x, output_size, scales, 'nearest', None, 'UpsampleNearest3D')",
        summary="Resizes NCDHW input to ``output_size`` (or by ``scales``), nearest neighbour.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(4).reshape(1, 1, 1, 2, 2), ms.float32)
        >>> print(ops.UpsampleNearest3D()(x, [1, 3, 3], None))
        [[[[[0. 0. 1.]
            [0. 0. 1.]
            [2. 2. 3.]]]]]
        """),
    Row("UpsampleTrilinear3D", "align_corners=False", "x, output_size=None, scales=None",
        "_upsample3d(x, output_size, scales, 'trilinear', align_corners, 'UpsampleTrilinear3D')",
        summary="Resizes NCDHW input to ``output_size`` (or by ``scales``) by trilinear interpolation.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(4).reshape(1, 1, 1, 2, 2), ms.float32)
        >>> print(ops.UpsampleTrilinear3D(align_corners=True)(x, [1, 3, 3], None))
        [[[[[0.  0.5 1. ]
            [1.  1.5 2. ]
            [2.  2.5 3. ]]]]]
        """),
    Row("GridSampler2D", "interpolation_mode='bilinear', padding_mode='zeros', align_corners=False",
        "input_x, grid", "_grid_sampler(input_x, grid, self, 4)", _setup_grid,
        summary="Samples NCHW input at the normalized ``(x, y)`` locations of ``grid``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(4).reshape(1, 1, 2, 2), ms.float32)
        >>> grid = Tensor(np.array([[[[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]]]]), ms.float32)
        >>> print(ops.GridSampler2D(align_corners=True)(x, grid))
        [[[[0.  1.5 3. ]]]]
        """),
    Row("GridSampler3D", "interpolation_mode='bilinear', padding_mode='zeros', align_corners=False",
        "input_x, grid", "_grid_sampler(input_x, grid, self, 5)", _setup_grid,
        summary="Samples NCDHW input at the normalized ``(x, y, z)`` locations of ``grid``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(8).reshape(1, 1, 2, 2, 2), ms.float32)
        >>> grid = Tensor(np.array([[[[[-1.0, -1.0, -1.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]]]]), ms.float32)
        >>> print(ops.GridSampler3D(align_corners=True)(x, grid))
        [[[[[0.  3.5 7. ]]]]]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
