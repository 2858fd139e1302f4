"""The dataset pipeline: MindSpore's sources, operations, iterators and sizes (behaviours checked against
MindSpore 2.10 by hand: column naming, map column placement, per-iterator epochs, sizes, dtypes)."""
from __future__ import annotations

import time

import numpy as np
import pytest

import cellonnx.dataset as ds
from cellonnx.dataset import transforms
from cellonnx.ops.prims import random as global_random
from cellonnx.tensor import Tensor


def _xy(n: int = 5) -> ds.Dataset:
    return ds.NumpySlicesDataset({"x": np.arange(2 * n).reshape(n, 2).astype(np.float32), "y": np.arange(n)},
                                 shuffle=False)


def test_numpy_slices_columns_sizes_and_batches() -> None:
    d = _xy()
    assert d.get_col_names() == ["x", "y"] and d.get_dataset_size() == 5 and d.get_batch_size() == 1
    b = d.batch(2)
    assert b.get_dataset_size() == 3 and b.get_batch_size() == 2
    assert b.output_shapes() == [[2, 2], [2]]
    assert b.output_types() == [np.dtype("float32"), np.dtype("int64")]
    rows = list(b.create_tuple_iterator())
    assert isinstance(rows[0], list) and all(isinstance(t, Tensor) for t in rows[0])
    np.testing.assert_array_equal(rows[2][0].asnumpy(), [[8, 9]])
    assert d.batch(2, drop_remainder=True).get_dataset_size() == 2
    first = next(iter(b.create_dict_iterator(output_numpy=True)))
    assert list(first) == ["x", "y"] and first["y"].tolist() == [0, 1]


def test_numpy_slices_input_forms() -> None:
    single = ds.NumpySlicesDataset([1.0, 2.0, 3.0], shuffle=False)
    assert single.get_col_names() == ["column_0"]
    assert [r[0].item() for r in single.create_tuple_iterator(output_numpy=True)] == [1.0, 2.0, 3.0]
    pair = ds.NumpySlicesDataset(([1, 2], [3, 4]), column_names=["a", "b"], shuffle=False)
    assert [[int(v) for v in r] for r in pair.create_tuple_iterator(output_numpy=True)] == [[1, 3], [2, 4]]
    ragged = ds.NumpySlicesDataset([[1, 2], [3]], shuffle=False)
    assert [r[0].tolist() for r in ragged.create_tuple_iterator(output_numpy=True)] == [[1, 2], [3]]
    with pytest.raises(ValueError, match="different lengths"):
        ds.NumpySlicesDataset(([1, 2], [3]))
    with pytest.raises(ValueError, match="2 column names for 1 columns"):
        ds.NumpySlicesDataset([1, 2], column_names=["a", "b"])


def test_generator_sources() -> None:
    def gen():
        for i in range(3):
            yield np.array([i]), np.array(i * 2)

    g = ds.GeneratorDataset(gen, ["a", "b"])
    assert g.get_dataset_size() == 3
    assert [[v.tolist() for v in r] for r in g.create_tuple_iterator(output_numpy=True)] == [[[0], 0], [[1], 2],
                                                                                           [[2], 4]]

    class Acc:
        def __getitem__(self, i: int) -> tuple:
            return np.array(i, np.float32), np.array([i, i])

        def __len__(self) -> int:
            return 4

    a = ds.GeneratorDataset(Acc(), ["a", "b"], shuffle=False).batch(3)
    rows = list(a.create_dict_iterator(output_numpy=True))
    assert a.get_dataset_size() == 2 and rows[1]["b"].tolist() == [[3, 3]]
    once = ds.GeneratorDataset((np.array([i]) for i in range(3)), ["v"])
    assert [len(list(once.create_tuple_iterator())) for _ in range(2)] == [3, 3]   # a generator object is kept
    with pytest.raises(ValueError, match="column_names"):
        ds.GeneratorDataset(gen)
    with pytest.raises(RuntimeError, match="3 columns but column_names names 2"):
        list(ds.GeneratorDataset([(1, 2, 3)], ["a", "b"]).create_tuple_iterator())
    shard = ds.GeneratorDataset(Acc(), ["a", "b"], shuffle=False, num_shards=3, shard_id=1)
    assert [int(r[0]) for r in shard.create_tuple_iterator(output_numpy=True)] == [1, 0]   # padded by wrapping


def test_map_column_placement_and_chaining() -> None:
    d = _xy().map([lambda x: x + 1, lambda x: x * 10], input_columns=["x"], output_columns=["c"])
    assert d.get_col_names() == ["c", "y"]
    assert next(iter(d.create_tuple_iterator(output_numpy=True)))[0].tolist() == [10.0, 20.0]
    three = _xy().map(lambda x, y: (x, y, x.sum()), input_columns=["x", "y"], output_columns=["x", "y", "s"])
    assert three.get_col_names() == ["x", "y", "s"]
    default = _xy().map(lambda x: x * 2)              # default input column: the first one
    assert next(iter(default.create_tuple_iterator(output_numpy=True)))[0].tolist() == [0.0, 2.0]
    after_batch = _xy().batch(2).map(lambda y: y + 1, input_columns="y")
    assert after_batch.get_dataset_size() == 3
    with pytest.raises(ValueError, match=r"input_columns \['z'\] are not columns"):
        _xy().map(lambda z: z, input_columns="z")
    with pytest.raises(RuntimeError, match="returned 2 columns, output_columns names 1"):
        list(_xy().map(lambda x: (x, x), input_columns="x").create_tuple_iterator())


def test_iterator_epochs() -> None:
    it = _xy().create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [len(list(it)), len(list(it))] == [5, 5]
    with pytest.raises(RuntimeError, match="num_epochs=2"):
        list(it)
    assert sum(1 for _ in _xy()) == 5                     # iterating a dataset: one epoch
    with pytest.raises(ValueError, match=r"columns \['q'\]"):
        _xy().create_tuple_iterator(columns=["q"])
    assert [r[0].item() for r in _xy().create_tuple_iterator(columns=["y"], output_numpy=True)] == [0, 1, 2, 3, 4]


def test_shuffle_is_seeded_and_reshuffles_each_epoch() -> None:
    ds.config.set_seed(3)
    try:
        make = lambda: ds.NumpySlicesDataset(np.arange(20), shuffle=True)
        a = [int(r[0]) for r in make().create_tuple_iterator(output_numpy=True)]
        b = [int(r[0]) for r in make().create_tuple_iterator(output_numpy=True)]
        assert a == b and sorted(a) == list(range(20)) and a != list(range(20))
        it = make().create_tuple_iterator(num_epochs=2, output_numpy=True)
        e1, e2 = [int(r[0]) for r in it], [int(r[0]) for r in it]
        assert e1 == a and e2 != e1 and sorted(e2) == sorted(e1)
        buf = ds.NumpySlicesDataset(np.arange(20), shuffle=False).shuffle(4)
        got = [int(r[0]) for r in buf.create_tuple_iterator(output_numpy=True)]
        assert sorted(got) == list(range(20)) and got != list(range(20))
        assert got[0] < 4                                   # a buffer of 4 only reaches the first 4 rows first
        rows = ds.GeneratorDataset(lambda: iter([(np.array(i),) for i in range(20)]), ["v"]).shuffle(5)
        assert sorted(int(r[0]) for r in rows.create_tuple_iterator(output_numpy=True)) == list(range(20))
    finally:
        ds.config._CONFIG["seed"] = None
    global_random.set_seed(11)
    x = [int(r[0]) for r in ds.NumpySlicesDataset(np.arange(10)).create_tuple_iterator(output_numpy=True)]
    global_random.set_seed(11)
    y = [int(r[0]) for r in ds.NumpySlicesDataset(np.arange(10)).create_tuple_iterator(output_numpy=True)]
    assert x == y


def test_repeat_project_rename_take_skip() -> None:
    assert _xy().repeat(2).batch(3).get_dataset_size() == 4
    assert len(list(_xy().repeat(3).create_tuple_iterator())) == 15
    assert _xy().project(["y"]).get_col_names() == ["y"]
    assert _xy().rename(["x"], ["image"]).get_col_names() == ["image", "y"]
    assert [int(r[1]) for r in _xy().skip(3).create_tuple_iterator(output_numpy=True)] == [3, 4]
    assert [int(r[1]) for r in _xy().take(2).create_tuple_iterator(output_numpy=True)] == [0, 1]
    assert _xy().skip(2).take(2).get_dataset_size() == 2
    with pytest.raises(ValueError, match="count must be a positive int or -1"):
        _xy().repeat(0)


def test_batch_errors_and_per_batch_map() -> None:
    ragged = ds.GeneratorDataset([(np.zeros(2),), (np.zeros(3),)], ["v"], shuffle=False).batch(2)
    with pytest.raises(RuntimeError, match="column 'v' has rows of different shapes"):
        list(ragged.create_tuple_iterator())
    with pytest.raises(ValueError, match="batch_size must be a positive int"):
        _xy().batch(0)

    def double(xs: list, info: ds.BatchInfo) -> tuple:
        return ([x * 2 + info.get_batch_num() for x in xs],)

    d = _xy().batch(2, per_batch_map=double, input_columns=["x"])
    assert next(iter(d.create_tuple_iterator(output_numpy=True)))[0].tolist() == [[0, 2], [4, 6]]


def test_transforms() -> None:
    d = _xy().map(transforms.TypeCast(np.int32), input_columns="x").map(transforms.OneHot(5), input_columns="y")
    x, y = next(iter(d.create_tuple_iterator(output_numpy=True)))
    assert x.dtype == np.int32 and y.tolist() == [1, 0, 0, 0, 0]
    dup = _xy().map(transforms.Duplicate(), input_columns="y", output_columns=["y", "y2"])
    assert dup.get_col_names() == ["x", "y", "y2"]
    comp = transforms.Compose([lambda v: v + 1, lambda v: v * 2])
    assert comp(np.array(1)) == 4


def test_batching_is_vectorised() -> None:
    n = 200_000
    d = ds.NumpySlicesDataset({"x": np.random.rand(n, 8).astype(np.float32), "y": np.arange(n)}, shuffle=True)
    t0 = time.process_time()  # CPU time: a busy machine stretches the wall clock, not the work
    total = sum(b[0].shape[0] for b in d.batch(1000).create_tuple_iterator(output_numpy=True))
    elapsed = time.process_time() - t0
    assert total == n
    assert elapsed < 1.0, f"{n} rows batched in {elapsed:.2f}s: batching went through Python per row"
