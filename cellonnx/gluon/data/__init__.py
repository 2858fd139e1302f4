"""gluon.data: datasets, samplers, DataLoader and batchify functions as MXNet has them, and gluon.data.vision
(MNIST / CIFAR datasets read from local files, image datasets, transforms)."""
from __future__ import annotations

from cellonnx.gluon.data import batchify, dataloader, dataset, sampler, vision
from cellonnx.gluon.data.dataloader import DataLoader
from cellonnx.gluon.data.dataset import ArrayDataset, Dataset, RecordFileDataset, SimpleDataset
from cellonnx.gluon.data.sampler import (
    BatchSampler,
    FilterSampler,
    IntervalSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
)

__all__ = ["ArrayDataset", "BatchSampler", "DataLoader", "Dataset", "FilterSampler", "IntervalSampler",
           "RandomSampler", "RecordFileDataset", "Sampler", "SequentialSampler", "SimpleDataset", "batchify",
           "dataloader", "dataset", "sampler", "vision"]
