"""Samplers that need the data set's size: ``DistributedSampler`` (a shard per rank of a distributed run)."""
from __future__ import annotations

import numpy as np

__all__ = ["DistributedSampler"]


class DistributedSampler:
    """Sample one shard of the data set: with ``num_shards`` ranks, shard ``shard_id`` takes every
    ``num_shards``-th sample of the epoch's order (the same order on every rank when ``shuffle``), the order
    wrapped around so that every shard has the same count, as
    ``num_shards`` / ``shard_id`` on a source do.

    Args:
        num_shards (int): the number of shards (ranks).
        shard_id (int): this shard, in [0, num_shards).
        shuffle (bool): shuffle the order each epoch. Default: ``True``.
        num_samples (int, optional): at most this many samples of the shard. Default: ``None``.
        offset (int): MindSpore's shard offset; -1 (the default) only.

    Raises:
        ValueError: a shard id outside [0, num_shards), or an offset other than -1.

    Examples:
        >>> import cellonnx.dataset as ds
        >>> from cellonnx.communication import init, get_rank, get_group_size
        >>> init()
        >>> x, y = np.random.rand(64, 3).astype(np.float32), np.arange(64, dtype=np.int32)
        >>> sampler = ds.DistributedSampler(get_group_size(), get_rank())
        >>> data = ds.NumpySlicesDataset((x, y), ["x", "y"], sampler=sampler).batch(32)
        >>> data.get_dataset_size()  # 64 rows over the job's ranks
        2
    """

    def __init__(self, num_shards: int, shard_id: int, shuffle: bool = True, num_samples: int | None = None,
                 offset: int = -1) -> None:
        if not isinstance(num_shards, int) or num_shards < 1:
            raise ValueError(f"DistributedSampler: num_shards must be a positive int, but got {num_shards!r}")
        if not isinstance(shard_id, int) or not 0 <= shard_id < num_shards:
            raise ValueError(f"DistributedSampler: shard_id must be in [0, {num_shards}), but got "
                             f"{shard_id!r}")
        if offset != -1:
            raise ValueError(f"DistributedSampler: only offset=-1 is supported, but got {offset!r}")
        if num_samples is not None and (not isinstance(num_samples, int) or num_samples < 0):
            raise ValueError(f"DistributedSampler: num_samples must be a non-negative int, got "
                             f"{num_samples!r}")
        self.num_shards = num_shards
        self.shard_id = shard_id
        self.shuffle = shuffle
        self.num_samples = num_samples
        self.offset = offset
        self._calls = 0

    def order(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """The sample indices of this shard for one epoch of ``n`` samples. The shuffle draws from a generator
        of the sampler's own, seeded with the pipeline seed (0 when none is set) and the call count, so that
        every rank draws the same order whatever its process's entropy."""
        from cellonnx.dataset import config

        seed = config.get_seed()
        self._calls += 1
        rng = np.random.default_rng([0 if seed is None else seed, self._calls])
        order = rng.permutation(n) if self.shuffle else np.arange(n)
        per = -(-n // self.num_shards)
        order = np.resize(order, per * self.num_shards)[self.shard_id::self.num_shards]
        return order if self.num_samples is None else order[:self.num_samples]

    def get_num_samples(self) -> int | None:
        return self.num_samples
