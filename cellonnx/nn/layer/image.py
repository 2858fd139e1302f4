"""Image layers (MindSpore's nn.layer.image): ImageGradients, SSIM, MSSSIM, PSNR, CentralCrop, PixelShuffle
and
PixelUnshuffle. SSIM and MSSSIM hold their Gaussian windows as fixed Conv2d weights, as MindSpore does (the
checkpoint keys ``conv.weight`` and ``multi_convs_list.<i>.weight``)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.graph.trace import require_static
from cellonnx.nn.cell import Cell
from cellonnx.nn.container import CellList
from cellonnx.nn.layer.activation import ReLU
from cellonnx.nn.layer.conv import Conv2d
from cellonnx.nn.layer.pooling import AvgPool2d
from cellonnx.tensor import Tensor

__all__ = ["MSSSIM", "PSNR", "SSIM", "CentralCrop", "ImageGradients", "PixelShuffle", "PixelUnshuffle"]


def _check_4d(x: Tensor, name: str, owner: str) -> None:
    if x.ndim != 4:
        raise ValueError(f"For '{owner}', the dimension of '{name}' must be 4d, but got {x.ndim}.")


def _same(a: Tensor, b: Tensor, owner: str) -> None:
    if a.dtype != b.dtype or tuple(a.shape) != tuple(b.shape):
        raise TypeError(f"For '{owner}', the two images must have one dtype and shape, got {a.dtype} "
                        f"{tuple(a.shape)} and {b.dtype} {tuple(b.shape)}.")


def _dtype_max(dtype: Any) -> float:
    np_type = dtypes.to_numpy(dtype)
    return float(np.iinfo(np_type).max) if np.issubdtype(np_type, np.integer) else 1.0


def _to_float32(img: Any, max_val: float) -> Any:
    """As MindSpore: cast to float32 (float64 images stay float64), scaled to [0, 1] for integer images."""
    if isinstance(img, Tensor):
        ret = img if img.dtype == dtypes.float64 else ops.cast(img, dtypes.float32)
    else:
        ret = float(img)
    return ret * (1.0 / max_val) if max_val > 1.0 else ret


class ImageGradients(Cell):
    """Forward differences of (N, C, H, W) images: (dy, dx), each of the input's shape, zero in the last
    row / column.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]]), ms.float32)
        >>> dy, dx = nn.ImageGradients()(x)
        >>> print(dy)
        [[[[2. 2.]
           [0. 0.]]]]
        >>> print(dx)
        [[[[1. 0.]
           [1. 0.]]]]
    """

    def construct(self, images: Tensor) -> tuple[Tensor, Tensor]:
        _check_4d(images, "images", self.cls_name)
        zero_row = ops.zeros_like(images[:, :, :1, :])
        zero_col = ops.zeros_like(images[:, :, :, :1])
        # slices measured from the end, so H and W may be dynamic (at size 1 the differences are empty)
        dy = ops.concat((images[:, :, 1:, :] - images[:, :, :-1, :], zero_row), 2)
        dx = ops.concat((images[:, :, :, 1:] - images[:, :, :, :-1], zero_col), 3)
        return dy, dx


def _create_window(size: int, sigma: float) -> np.ndarray:
    """MindSpore's (1, 1, size, size) normalized Gaussian window."""
    x, y = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1]
    g = np.exp(-(x.astype(np.float32) ** 2 + y.astype(np.float32) ** 2) / (2 * sigma ** 2))
    return (g / np.sum(g)).astype(np.float32)[None, None]


def _window_conv(size: int, sigma: float) -> Conv2d:
    conv = Conv2d(1, 1, kernel_size=size, stride=1, weight_init=Tensor(_create_window(size, sigma)),
                  padding=0,
                  pad_mode="valid")
    conv.weight.requires_grad = False
    return conv


def _ssim_and_cs(c1: float, c2: float, img1: Tensor, img2: Tensor, conv: Cell) -> tuple[Tensor, Tensor]:
    """Per channel, averaged over the window positions: (ssim, contrast-structure), each (N, C)."""
    n, c = img1.shape[:2]
    # every channel as an image of its own: one convolution over (N * C, 1, H, W), any N and C
    a, b = (ops.reshape(t, (-1, 1, *t.shape[2:])) for t in (img1, img2))
    mu1, mu2 = conv(a), conv(b)
    mu1_sq, mu2_sq, mu1_mu2 = mu1 * mu1, mu2 * mu2, mu1 * mu2
    sigma1_sq = conv(a * a) - mu1_sq
    sigma2_sq = conv(b * b) - mu2_sq
    sigma12 = conv(a * b) - mu1_mu2
    v1 = 2 * sigma12 + c2
    v2 = sigma1_sq + sigma2_sq + c2
    ssim = (2 * mu1_mu2 + c1) * v1 / ((mu1_sq + mu2_sq + c1) * v2)
    return (ops.reshape(ops.mean(ssim, (2, 3)), (n, c)), ops.reshape(ops.mean(v1 / v2, (2, 3)), (n, c)))


def _check_args(owner: str, max_val: Any, filter_size: Any, filter_sigma: Any, k1: Any, k2: Any) -> None:
    if isinstance(max_val, bool) or not isinstance(max_val, (int, float)) or max_val <= 0:
        raise ValueError(f"For '{owner}', the 'max_val' must be a number > 0, but got {max_val!r}.")
    if isinstance(filter_size, bool) or not isinstance(filter_size, int) or filter_size < 1:
        raise ValueError(f"For '{owner}', the 'filter_size' must be an int >= 1, but got {filter_size!r}.")
    if not isinstance(filter_sigma, float) or filter_sigma <= 0:
        raise ValueError(f"For '{owner}', the 'filter_sigma' must be a positive float, but got "
                         f"{filter_sigma!r}.")
    for name, v in (("k1", k1), ("k2", k2)):
        if not isinstance(v, float):
            raise TypeError(f"For '{owner}', the '{name}' must be float, but got {type(v).__name__}.")


class SSIM(Cell):
    """Structural similarity of two (N, C, H, W) images (Gaussian window, averaged over positions and
    channels): (N,).

    Args:
        max_val (Union[int, float]): the dynamic range of the pixel values. Default: 1.0.
        filter_size (int): window size. Default: 11. filter_sigma (float): Default: 1.5.
        k1, k2 (float): the stabilizing constants. Default: 0.01, 0.03.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> img = Tensor(np.linspace(0, 1, 16 * 16).reshape(1, 1, 16, 16), ms.float32)
        >>> print(nn.SSIM(filter_size=7)(img, img).asnumpy().round(4))
        [1.]
    """

    def __init__(self, max_val: float = 1.0, filter_size: int = 11, filter_sigma: float = 1.5,
                 k1: float = 0.01,
                 k2: float = 0.03) -> None:
        super().__init__()
        _check_args(self.cls_name, max_val, filter_size, filter_sigma, k1, k2)
        self.max_val = max_val
        self.filter_size = filter_size
        self.filter_sigma = filter_sigma
        self.k1, self.k2 = k1, k2
        self.conv = _window_conv(filter_size, filter_sigma)

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        if img1.dtype not in (dtypes.float32, dtypes.float16, dtypes.float64):
            raise TypeError(f"For '{self.cls_name}', 'img1' must be float16, float32 or float64, but got "
                            f"{img1.dtype}.")
        _check_4d(img1, "img1", self.cls_name)
        if int(img1.shape[2]) < self.filter_size or int(img1.shape[3]) < self.filter_size:
            raise ValueError(f"For '{self.cls_name}', the height and width of 'img1' "
                             f"{tuple(img1.shape[2:])} must be >= filter_size {self.filter_size}.")
        _same(img1, img2, self.cls_name)
        top = _dtype_max(img1.dtype)
        max_val = _to_float32(self.max_val, top)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        ssim, _ = _ssim_and_cs(c1, c2, _to_float32(img1, top), _to_float32(img2, top), self.conv)
        return ops.mean(ssim, -1)


class MSSSIM(Cell):
    """Multi-scale SSIM of two (N, C, H, W) images: SSIM at the coarsest of ``len(power_factors)`` scales
    (halved by 2x2 average pooling) times the contrast-structure terms of the finer ones, each raised to its
    power factor: (N,).

    Args:
        max_val (Union[int, float]): Default: 1.0.
        power_factors (Union[tuple, list]): one weight per scale. Default: (0.0448, 0.2856, 0.3001, 0.2363,
            0.1333).
        filter_size (int): Default: 11. filter_sigma (float): Default: 1.5. k1, k2 (float): Default: 0.01,
        0.03.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.MSSSIM(power_factors=(0.5, 0.5), filter_size=3)
        >>> img = Tensor(np.linspace(0, 1, 256).reshape(1, 1, 16, 16), ms.float32)
        >>> print(net(img, img).asnumpy().round(4))
        [1.]
    """

    def __init__(self, max_val: float = 1.0, power_factors: Any = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01,
                 k2: float = 0.03) -> None:
        super().__init__()
        _check_args(self.cls_name, max_val, filter_size, filter_sigma, k1, k2)
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(f"For '{self.cls_name}', the 'power_factors' must be tuple or list, but got "
                            f"{type(power_factors).__name__}.")
        self.max_val = max_val
        self.filter_size = filter_size
        self.filter_sigma = filter_sigma
        self.k1, self.k2 = k1, k2
        self.level = len(power_factors)
        self.multi_convs_list = CellList([_window_conv(filter_size, filter_sigma) for _ in range(self.level)])
        self.weight_tensor = Tensor(power_factors, dtypes.float32)
        self.avg_pool = AvgPool2d(kernel_size=2, stride=2, pad_mode="valid")
        self.relu = ReLU()

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        _check_4d(img1, "img1", self.cls_name)
        _check_4d(img2, "img2", self.cls_name)
        if img1.dtype not in (dtypes.float64, dtypes.float32, dtypes.float16, dtypes.uint8):
            raise TypeError(f"For '{self.cls_name}', 'img1' must be float64, float32, float16 or uint8, but "
                            f"got {img1.dtype}.")
        _same(img1, img2, self.cls_name)
        top = _dtype_max(img1.dtype)
        max_val = _to_float32(self.max_val, top)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        a, b = _to_float32(img1, top), _to_float32(img2, top)
        mcs = []
        sim = None
        for i in range(self.level):
            sim, cs = _ssim_and_cs(c1, c2, a, b, self.multi_convs_list[i])
            mcs.append(self.relu(cs))
            a, b = self.avg_pool(a), self.avg_pool(b)
        assert sim is not None
        stacked = ops.stack(mcs[:-1] + [self.relu(sim)], -1)
        return ops.mean(ops.prod(ops.pow(stacked, self.weight_tensor), -1), -1)


class PSNR(Cell):
    """Peak signal-to-noise ratio of two (N, C, H, W) images: 10 log10(max_val^2 / mse) per image, (N,).

    Args:
        max_val (Union[int, float]): the dynamic range of the pixel values. Default: 1.0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> img1 = Tensor(np.full((1, 1, 4, 4), 0.5), ms.float32)
        >>> img2 = Tensor(np.full((1, 1, 4, 4), 0.6), ms.float32)
        >>> print(nn.PSNR(max_val=1.0)(img1, img2).asnumpy().round(2))
        [20.]
    """

    def __init__(self, max_val: float = 1.0) -> None:
        super().__init__()
        if isinstance(max_val, bool) or not isinstance(max_val, (int, float)) or max_val <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'max_val' must be a number > 0, but got "
                             f"{max_val!r}.")
        self.max_val = max_val

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        _check_4d(img1, "img1", self.cls_name)
        _check_4d(img2, "img2", self.cls_name)
        _same(img1, img2, self.cls_name)
        top = _dtype_max(img1.dtype)
        max_val = _to_float32(self.max_val, top)
        mse = ops.mean(ops.square(_to_float32(img1, top) - _to_float32(img2, top)), (-3, -2, -1))
        return 10 * ops.log(max_val * max_val / mse) / math.log(10.0)


class CentralCrop(Cell):
    """Crop the central region of (C, H, W) or (N, C, H, W) images.

    Args:
        central_fraction (float): the fraction of height and width kept, in (0, 1].

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> crop = nn.CentralCrop(central_fraction=0.5)
        >>> crop(Tensor(np.ones((1, 3, 8, 8)), ms.float32)).shape
        (1, 3, 4, 4)
    """

    def __init__(self, central_fraction: float) -> None:
        super().__init__()
        if not isinstance(central_fraction, float):
            raise TypeError(f"For '{self.cls_name}', the 'central_fraction' must be float, but got "
                            f"{type(central_fraction).__name__}.")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'central_fraction' must be in range (0.0, 1.0], "
                             f"but got {central_fraction}.")
        self.central_fraction = central_fraction

    def construct(self, image: Tensor) -> Tensor:
        if image.ndim not in (3, 4):
            raise ValueError(f"{self.cls_name} image must be 3d or 4d, but got shape {tuple(image.shape)}")
        if self.central_fraction == 1.0:
            return image
        for d in image.shape[-2:]:
            require_static(d, f"{self.cls_name} crops by a float of the image size, which", float_read=True)
        h, w = int(image.shape[-2]), int(image.shape[-1])
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        return image[..., top:h - top, left:w - left]


class PixelShuffle(Cell):
    """(*, C * r^2, H, W) -> (*, C, H * r, W * r) (see ``ops.pixel_shuffle``).

    Args:
        upscale_factor (int): r.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(8).reshape(1, 4, 1, 2), ms.float32)
        >>> output = nn.PixelShuffle(2)(x)
        >>> output.shape
        (1, 1, 2, 4)
        >>> print(output)
        [[[[0. 2. 1. 3.]
           [4. 6. 5. 7.]]]]
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input: Tensor) -> Tensor:
        return ops.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """(*, C, H * r, W * r) -> (*, C * r^2, H, W) (see ``ops.pixel_unshuffle``).

    Args:
        downscale_factor (int): r.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> nn.PixelUnshuffle(2)(x).shape
        (1, 4, 2, 2)
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input: Tensor) -> Tensor:
        return ops.pixel_unshuffle(input, self.downscale_factor)
