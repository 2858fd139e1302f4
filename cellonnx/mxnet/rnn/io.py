"""MXNet 1.x's text helpers for recurrent models: ``encode_sentences`` (words to integer ids) and
``BucketSentenceIter`` (padded batches of sentences grouped by length, with next-word labels)."""

from __future__ import annotations

import bisect
import random
from typing import Any

import numpy as np

from cellonnx.mxnet import ndarray
from cellonnx.mxnet.io import DataBatch, DataDesc, DataIter

__all__ = ["BucketSentenceIter", "encode_sentences"]


def encode_sentences(
    sentences: list[list[Any]],
    vocab: dict | None = None,
    invalid_label: int = -1,
    invalid_key: str = "\n",
    start_label: int = 0,
    unknown_token: str | None = None,
) -> tuple[list[list[int]], dict]:
    """Encode sentences (lists of words) as lists of integer ids, building the vocabulary as it goes.

    Args:
        sentences: the sentences.
        vocab: an existing word -> id map; None builds a new one (then every word is known). Default: None.
        invalid_label: the id of padding, skipped when numbering. Default: -1.
        invalid_key: the padding's key in a new vocabulary. Default: '\\n'.
        start_label: the first id. Default: 0.
        unknown_token: the word unknown words map to (added to ``vocab``); None makes them an error with a
            given vocabulary. Default: None.

    Returns:
        (encoded sentences, vocabulary).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> mx.rnn.encode_sentences([['a', 'b'], ['b', 'c']], start_label=1)
        ([[1, 2], [2, 3]], {'\\n': -1, 'a': 1, 'b': 2, 'c': 3})
    """
    idx = start_label
    if vocab is None:
        vocab = {invalid_key: invalid_label}
        new_vocab = True
    else:
        new_vocab = False
    res = []
    for sent in sentences:
        coded = []
        for word in sent:
            if word not in vocab:
                if not (new_vocab or unknown_token):
                    raise AssertionError(f"Unknown token {word}")
                if idx == invalid_label:
                    idx += 1
                if unknown_token:
                    word = unknown_token
                vocab[word] = idx
                idx += 1
            coded.append(vocab[word])
        res.append(coded)
    return res, vocab


class BucketSentenceIter(DataIter):
    """Batches of encoded sentences, each sentence padded with ``invalid_label`` to the smallest bucket that
    holds it (longer ones are discarded); the label is the sentence shifted by one word. Each batch's
    ``bucket_key`` is its bucket length.

    Args:
        sentences: encoded sentences (lists of ids).
        batch_size: sentences per batch.
        buckets: bucket lengths; None makes one per length that at least ``batch_size`` sentences have.
        invalid_label: the padding id. Default: -1.
        data_name, label_name: Default: 'data', 'softmax_label'.
        dtype: Default: 'float32'.
        layout: 'NT' (batch major) or 'TN' (time major). Default: 'NT'.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> it = mx.rnn.BucketSentenceIter([[1, 2, 3], [4, 5, 6], [7, 8]], 2, buckets=[3])
        WARNING: discarded 0 sentences longer than the largest bucket.
        >>> batch = next(iter(it))
        >>> batch.data[0].shape, batch.bucket_key
        ((2, 3), 3)
    """

    def __init__(
        self,
        sentences: list[list[int]],
        batch_size: int,
        buckets: list[int] | None = None,
        invalid_label: int = -1,
        data_name: str = "data",
        label_name: str = "softmax_label",
        dtype: str = "float32",
        layout: str = "NT",
    ) -> None:
        super().__init__()
        if not buckets:
            buckets = [i for i, j in enumerate(np.bincount([len(s) for s in sentences])) if j >= batch_size]
        buckets = sorted(buckets)
        ndiscard = 0
        data: list[list[np.ndarray]] = [[] for _ in buckets]
        valid = dict.fromkeys(range(len(buckets)), 0)
        for sent in sentences:
            buck = bisect.bisect_left(buckets, len(sent))
            valid[buck] = 1
            if buck == len(buckets):
                ndiscard += 1
                continue
            buff = np.full((buckets[buck],), invalid_label, dtype=dtype)
            buff[: len(sent)] = sent
            data[buck].append(buff)
        buckets = [j for i, j in enumerate(buckets) if valid[i] == 1]
        self.data = [np.asarray(i, dtype=dtype) for i in data if i]
        print(f"WARNING: discarded {ndiscard} sentences longer than the largest bucket.")
        self.batch_size = batch_size
        self.buckets = buckets
        self.data_name = data_name
        self.label_name = label_name
        self.dtype = dtype
        self.invalid_label = invalid_label
        self.nddata: list[Any] = []
        self.ndlabel: list[Any] = []
        self.major_axis = layout.find("N")
        self.layout = layout
        self.default_bucket_key = max(buckets)
        if self.major_axis == 0:
            shape = (batch_size, self.default_bucket_key)
        elif self.major_axis == 1:
            shape = (self.default_bucket_key, batch_size)
        else:
            raise ValueError(f"Invalid layout {layout}: Must by NT (batch major) or TN (time major)")
        self.provide_data = [DataDesc(name=self.data_name, shape=shape, layout=self.layout)]
        self.provide_label = [DataDesc(name=self.label_name, shape=shape, layout=self.layout)]
        self.idx = []
        for i, buck in enumerate(self.data):
            self.idx.extend([(i, j) for j in range(0, len(buck) - batch_size + 1, batch_size)])
        self.curr_idx = 0
        self.reset()

    def reset(self) -> None:
        """Shuffle the batches and the sentences within each bucket."""
        self.curr_idx = 0
        random.shuffle(self.idx)
        for buck in self.data:
            np.random.shuffle(buck)
        self.nddata = []
        self.ndlabel = []
        for buck in self.data:
            label = np.empty_like(buck)
            label[:, :-1] = buck[:, 1:]
            label[:, -1] = self.invalid_label
            self.nddata.append(ndarray.array(buck, dtype=self.dtype))
            self.ndlabel.append(ndarray.array(label, dtype=self.dtype))

    def next(self) -> DataBatch:
        """The next batch."""
        if self.curr_idx == len(self.idx):
            raise StopIteration
        i, j = self.idx[self.curr_idx]
        self.curr_idx += 1
        data = self.nddata[i][j : j + self.batch_size]
        label = self.ndlabel[i][j : j + self.batch_size]
        if self.major_axis == 1:
            data, label = data.T, label.T
        return DataBatch(
            [data],
            [label],
            pad=0,
            bucket_key=self.buckets[i],
            provide_data=[DataDesc(name=self.data_name, shape=data.shape, layout=self.layout)],
            provide_label=[DataDesc(name=self.label_name, shape=label.shape, layout=self.layout)],
        )
