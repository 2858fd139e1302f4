"""A MindSpore-style dataset pipeline (``mindspore.dataset``): in-memory and Python sources, map / shuffle /
batch / repeat, tuple and dict iterators; what ``Model.train`` and ``Model.eval`` consume.

    import cellonnx.dataset as ds
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=True).batch(32)
"""
from __future__ import annotations

from cellonnx.dataset import config, transforms
from cellonnx.dataset.engine import BatchInfo, Dataset, GeneratorDataset, NumpySlicesDataset
from cellonnx.dataset.iterators import DictIterator, TupleIterator
from cellonnx.dataset.samplers import DistributedSampler

__all__ = ["BatchInfo", "Dataset", "DictIterator", "GeneratorDataset", "NumpySlicesDataset", "TupleIterator",
           "config", "transforms"]
__all__ += ["DistributedSampler"]
