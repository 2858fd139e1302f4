"""gluon.data.vision.transforms: MXNet's image transforms - Compose / HybridCompose, Cast, ToTensor,
Normalize, the resizes, crops, flips, rotations and color jitters, RandomApply - as Blocks and HybridBlocks
over mx.nd.image / mx.npx.image and mx.image."""
from __future__ import annotations

import random
from typing import Any

from cellonnx.gluon.block import Block
from cellonnx.gluon.data.vision.transforms.color import (
    RandomBrightness,
    RandomColorJitter,
    RandomContrast,
    RandomFlipLeftRight,
    RandomFlipTopBottom,
    RandomHue,
    RandomLighting,
    RandomSaturation,
    _image,
)
from cellonnx.gluon.data.vision.transforms.geometry import (
    CenterCrop,
    CropResize,
    RandomCrop,
    RandomResizedCrop,
    RandomRotation,
    Resize,
    Rotate,
)
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.nn import HybridSequential, Sequential

__all__ = ["Block", "Cast", "CenterCrop", "Compose", "CropResize", "HybridBlock", "HybridCompose",
           "HybridRandomApply", "HybridSequential", "Normalize", "RandomApply", "RandomBrightness",
           "RandomColorJitter", "RandomContrast", "RandomCrop", "RandomFlipLeftRight",
           "RandomFlipTopBottom", "RandomHue", "RandomLighting", "RandomResizedCrop", "RandomRotation",
           "RandomSaturation", "Resize", "Rotate", "Sequential", "ToTensor"]


class Compose(Sequential):
    """Chain transforms; runs of consecutive HybridBlocks are grouped into hybridized HybridSequentials.

    Args:
        transforms (list): the transforms, in order.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> t = transforms.Compose([transforms.Resize(4), transforms.ToTensor(),
        ...                         transforms.Normalize(0.5, 0.25)])
        >>> t(mx.nd.zeros((8, 8, 3), dtype='uint8')).shape
        (3, 4, 4)
    """

    def __init__(self, transforms: list[Any]) -> None:
        super().__init__()
        transforms = [*transforms, None]
        hybrid: list[Any] = []
        for t in transforms:
            if isinstance(t, HybridBlock):
                hybrid.append(t)
                continue
            if len(hybrid) == 1:
                self.add(hybrid[0])
                hybrid = []
            elif len(hybrid) > 1:
                block = HybridSequential()
                for h in hybrid:
                    block.add(h)
                block.hybridize(static_shape=True)  # one graph per image size, as the sizes vary
                self.add(block)
                hybrid = []
            if t is not None:
                self.add(t)

    def hybridize(self, active: bool = True, **kwargs: Any) -> None:
        super().hybridize(active, **_static(kwargs))


def _static(kwargs: dict) -> dict:
    """hybridize's flags with one graph per input shape unless asked otherwise: an image's first axis is its
    height, not a batch."""
    return {"static_shape": True, **kwargs}


class HybridCompose(HybridSequential):
    """Chain HybridBlock transforms into one hybridized HybridSequential (MXNet 2.x).

    Args:
        transforms (list): the transforms, all HybridBlocks.

    Raises:
        ValueError: a transform is not a HybridBlock.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> t = transforms.HybridCompose([transforms.ToTensor(), transforms.Normalize(0.5, 0.5)])
        >>> t(mx.nd.zeros((2, 2, 3), dtype='uint8')).asnumpy()[0].tolist()
        [[-1.0, -1.0], [-1.0, -1.0]]
    """

    def __init__(self, transforms: list[Any]) -> None:
        super().__init__()
        for t in transforms:
            if not isinstance(t, HybridBlock):
                raise ValueError(f"{t} is not a HybridBlock, try use `Compose` instead")
            self.add(t)
        self.hybridize()

    def hybridize(self, active: bool = True, **kwargs: Any) -> None:
        super().hybridize(active, **_static(kwargs))


class Cast(HybridBlock):
    """Cast the input to ``dtype``.

    Args:
        dtype (str): the target type. Default: 'float32'.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.Cast('float16')(mx.nd.ones((2,))).asnumpy().dtype
        dtype('float16')
    """

    def __init__(self, dtype: Any = "float32") -> None:
        super().__init__()
        self._dtype = dtype

    def hybrid_forward(self, F: Any, x: Any) -> Any:
        from cellonnx.mxnet.util import is_np_array

        return (F.npx if is_np_array() else F).cast(x, self._dtype)


class ToTensor(HybridBlock):
    """(H, W, C) / (N, H, W, C) in [0, 255] to float32 (C, H, W) / (N, C, H, W) in [0, 1].

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> transforms.ToTensor()(mx.nd.full((1, 2, 3), 255, dtype='uint8')).asnumpy().tolist()
        [[[1.0, 1.0]], [[1.0, 1.0]], [[1.0, 1.0]]]
    """

    def __init__(self) -> None:
        super().__init__()

    def hybrid_forward(self, F: Any, x: Any) -> Any:
        return _image(F).to_tensor(x)


class Normalize(HybridBlock):
    """``(x - mean[c]) / std[c]`` for a (C, H, W) or (N, C, H, W) tensor.

    Args:
        mean (float or tuple): one mean, or one per channel. Default: 0.0.
        std (float or tuple): one standard deviation, or one per channel. Default: 1.0.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> out = transforms.Normalize((0.5, 0.0, 1.0), (0.5, 1.0, 2.0))(mx.nd.ones((3, 1, 1)))
        >>> out.asnumpy().reshape(-1).tolist()
        [1.0, 1.0, 0.0]
    """

    def __init__(self, mean: Any = 0.0, std: Any = 1.0) -> None:
        super().__init__()
        self._mean = mean
        self._std = std

    def hybrid_forward(self, F: Any, x: Any) -> Any:
        return _image(F).normalize(x, self._mean, self._std)


class RandomApply(Sequential):
    """Apply ``transforms`` with probability ``p`` (drawn with Python's ``random``).

    Args:
        transforms (Block): the transform(s).
        p (float): the probability. Default: 0.5.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> t = transforms.RandomApply(transforms.Cast('float16'), p=1.0)
        >>> t(mx.nd.ones((1,))).asnumpy().dtype
        dtype('float16')
    """

    def __init__(self, transforms: Any, p: float = 0.5) -> None:
        super().__init__()
        self.transforms = transforms
        self.p = p

    def forward(self, x: Any) -> Any:
        if self.p < random.random():
            return x
        return self.transforms(x)


class HybridRandomApply(HybridSequential):
    """RandomApply for HybridBlock transforms (MXNet 2.x): the draw is an operator of the graph.

    Args:
        transforms (HybridBlock): the transform(s).
        p (float): the probability. Default: 0.5.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> from cellonnx.gluon.data.vision import transforms
        >>> t = transforms.HybridRandomApply(transforms.RandomBrightness(0.0), p=0.5)
        >>> float(t(mx.nd.ones((2, 2, 3))).asnumpy().sum())
        12.0
    """

    def __init__(self, transforms: Any, p: float = 0.5) -> None:
        super().__init__()
        if not isinstance(transforms, HybridBlock):
            raise ValueError(f"{transforms} is not a HybridBlock, try use `RandomApply` instead")
        self.transforms = transforms
        self.p = p

    def forward(self, x: Any) -> Any:
        import numpy as np

        from cellonnx import ops
        from cellonnx.mxnet._op import retype
        from cellonnx.tensor import Tensor

        draw = ops.uniform((), Tensor(np.float32(0.0)), Tensor(np.float32(1.0)))
        return retype(ops.where(draw < np.float32(self.p), self.transforms(x), x), type(x))
