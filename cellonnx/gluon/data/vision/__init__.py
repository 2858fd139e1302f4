"""gluon.data.vision: MXNet's vision datasets (MNIST, FashionMNIST, CIFAR10, CIFAR100 read from a local
``root`` folder; ImageRecordDataset, ImageFolderDataset, ImageListDataset) and image transforms."""
from __future__ import annotations

from cellonnx.gluon.data.vision import datasets, transforms
from cellonnx.gluon.data.vision.datasets import (
    CIFAR10,
    CIFAR100,
    MNIST,
    FashionMNIST,
    ImageFolderDataset,
    ImageListDataset,
    ImageRecordDataset,
)

__all__ = ["CIFAR10", "CIFAR100", "MNIST", "FashionMNIST", "ImageFolderDataset", "ImageListDataset",
           "ImageRecordDataset", "datasets", "transforms"]
