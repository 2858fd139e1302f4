"""gluon.data (samplers, datasets, DataLoader, batchify) and gluon.utils against MXNet 1.9.1
(tests/fixtures/mxnet/gen_gluon_data.py), and MXNet 2.x's batchify / IntervalSampler against their documented
outputs."""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.gluon import data as gdata
from cellonnx.gluon import utils

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
sys.path.insert(0, str(FIXTURES))
from gen_gluon_data import data_arrays, grads  # noqa: E402

from tests.tolerance import assert_close  # noqa: E402

WANT = json.loads((FIXTURES / "gluon_data" / "expected.json").read_text())
ARRAYS = np.load(FIXTURES / "gluon_data" / "expected.npz")


def _ints(it):
    return [int(i) for i in it]


def test_public_names():
    for name in ["ArrayDataset", "BatchSampler", "DataLoader", "Dataset", "FilterSampler", "RandomSampler",
                 "RecordFileDataset", "Sampler", "SequentialSampler", "SimpleDataset", "IntervalSampler"]:
        assert getattr(mx.gluon.data, name) is getattr(gdata, name)
    from cellonnx.mxnet.gluon.data import DataLoader  # MXNet's module path

    assert DataLoader is gdata.DataLoader and mx.gluon.utils is utils


def test_samplers():
    np.random.seed(11)
    rs = gdata.RandomSampler(10)
    assert [_ints(rs), _ints(rs)] == WANT["random_sampler"]
    seq = gdata.SequentialSampler(10)
    for last in ("keep", "discard", "rollover"):
        bs = gdata.BatchSampler(seq, 3, last)
        assert len(bs) == WANT[f"batch_{last}_len"]
        assert [[_ints(b) for b in bs] for _ in range(3)] == WANT[f"batch_{last}"]
    np.random.seed(12)
    bs = gdata.BatchSampler(gdata.RandomSampler(7), 2, "rollover")
    assert [[_ints(b) for b in bs] for _ in range(2)] == WANT["batch_random_rollover"]
    with pytest.raises(ValueError, match="last_batch must be one of"):
        list(gdata.BatchSampler(seq, 3, "drop"))


def test_interval_sampler():
    # MXNet 2.x's documented outputs
    assert list(gdata.IntervalSampler(13, interval=3)) == [0, 3, 6, 9, 12, 1, 4, 7, 10, 2, 5, 8, 11]
    sampler = gdata.IntervalSampler(13, interval=3, rollover=False)
    assert list(sampler) == [0, 3, 6, 9, 12] and len(sampler) == 5
    with pytest.raises(AssertionError, match="smaller than length"):
        gdata.IntervalSampler(3, 3)


def test_dataset_views():
    ds = gdata.SimpleDataset(list(range(10)))
    assert list(ds.filter(lambda v: v % 3 != 1)) == WANT["filter"]
    assert [list(ds.shard(4, i)) for i in range(4)] == WANT["shard"]
    assert [list(ds.take(3)), list(ds.take(None)), list(ds.take(20))] == WANT["take"]
    assert list(ds.transform(lambda v: v * v, lazy=False)) == WANT["transform"]
    assert list(ds.sample(gdata.SequentialSampler(3, 4))) == WANT["sample"]
    pairs = gdata.SimpleDataset([(i, -i) for i in range(4)])
    assert [list(p) for p in pairs.transform_first(lambda v: v + 100)] == WANT["transform_first"]
    with pytest.raises(TypeError, match="Invalid sampler type"):
        ds.sample([0, 1])
    with pytest.raises(AssertionError, match="same length"):
        gdata.ArrayDataset([1, 2], [1])


def _dataset():
    x, y = data_arrays()
    return gdata.ArrayDataset(mx.nd.array(x), mx.nd.array(y, dtype="int32"))


def _check_epochs(name, loader, epochs):
    want = WANT[f"loader_{name}"]
    assert len(loader) == want["len"]
    for e in range(epochs):
        batches = list(loader)
        assert len(batches) == want["batches"][e]
        for b, (bx, by) in enumerate(batches):
            key = "shuffle" if name == "shuffle" else name
            assert isinstance(bx, mx.nd.NDArray)
            np.testing.assert_array_equal(bx.asnumpy(), ARRAYS[f"{key}/{e}/{b}/x"])
            np.testing.assert_array_equal(by.asnumpy(), ARRAYS[f"{key}/{e}/{b}/y"])
            assert by.asnumpy().dtype == ARRAYS[f"{key}/{e}/{b}/y"].dtype


LOADERS = {
    "plain": dict(batch_size=4),
    "discard": dict(batch_size=4, last_batch="discard"),
    "rollover": dict(batch_size=4, last_batch="rollover"),
    "workers": dict(batch_size=3, num_workers=2),
    "threads": dict(batch_size=3, num_workers=2, thread_pool=True, prefetch=1),
}


@pytest.mark.parametrize("name", LOADERS)
def test_dataloader(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads running (Python 3.12)
        loader = gdata.DataLoader(_dataset(), **LOADERS[name])
        _check_epochs(name, loader, 2)


def test_dataloader_shuffle():
    np.random.seed(13)
    _check_epochs("shuffle", gdata.DataLoader(_dataset(), batch_size=4, shuffle=True), 1)


def test_dataloader_arguments():
    ds = _dataset()
    with pytest.raises(ValueError, match="batch_size must be specified"):
        gdata.DataLoader(ds)
    with pytest.raises(ValueError, match="shuffle must not be specified"):
        gdata.DataLoader(ds, batch_size=2, shuffle=True, sampler=gdata.SequentialSampler(10))
    with pytest.raises(ValueError, match="must not be specified if batch_sampler"):
        gdata.DataLoader(ds, batch_size=2, batch_sampler=gdata.BatchSampler(gdata.SequentialSampler(10), 2))
    loader = gdata.DataLoader(ds, batch_sampler=gdata.BatchSampler(gdata.SequentialSampler(10), 5),
                              pin_memory=True, batchify_fn=gdata.batchify.Group(gdata.batchify.Stack(),
                                                                                gdata.batchify.AsList()))
    x, y = next(iter(loader))
    assert x.shape == (5, 3) and isinstance(y, list) and len(y) == 5


def _raise(i):
    raise KeyError(f"sample {i} is broken")


def test_worker_error_and_timeout():
    ds = gdata.SimpleDataset(list(range(4))).transform(_raise)
    with pytest.raises(KeyError, match="sample 0 is broken"):
        list(gdata.DataLoader(ds, batch_size=2, num_workers=1, thread_pool=True))
    with pytest.raises(AssertionError, match="timeout must be positive"):
        gdata.DataLoader(ds, batch_size=2, timeout=0)


def _slow(i):
    import time

    time.sleep(1.5)
    return i


def test_worker_timeout():
    import multiprocessing

    loader = gdata.DataLoader(gdata.SimpleDataset([0, 1]).transform(_slow), batch_size=1, num_workers=1,
                              thread_pool=True, timeout=0.2)
    with pytest.raises(multiprocessing.TimeoutError):
        list(loader)


def _killed(i):
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def test_dead_worker_process_raises_at_once():
    """A worker process that dies takes its batch with it: the loader names it instead of waiting out the
    timeout (MXNet waits; PyTorch's DataLoader raises likewise)."""
    import time

    loader = gdata.DataLoader(gdata.SimpleDataset([0, 1]).transform(_killed), batch_size=1, num_workers=1)
    start = time.monotonic()
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid \d+\) was killed by SIGKILL"):
        list(loader)
    assert time.monotonic() - start < 60


class _Finalized:
    """Garbage only the collector frees (a cycle), noting which process ran its finalizer."""

    def __init__(self, path):
        self.path = path
        self.me = self

    def __del__(self):
        import os

        with open(self.path, "a") as f:
            f.write(f"{os.getpid()}\n")


def _collect(i):
    import gc

    gc.collect()
    return i


def test_worker_processes_leave_the_parents_objects_alone(tmp_path):
    """A forked worker never runs the finalizers of the parent's objects (a session's thread pool, an open
    pool's queues belong to the parent): its collector leaves everything it inherited alone."""
    import gc
    import os

    gc.disable()
    try:
        _Finalized(tmp_path / "finalized")
        loader = gdata.DataLoader(gdata.SimpleDataset([0, 1, 2, 3]).transform(_collect), batch_size=1,
                                  num_workers=2)
        assert [int(b.asnumpy()[0]) for b in loader] == [0, 1, 2, 3]
        del loader
    finally:
        gc.enable()
    gc.collect()
    assert (tmp_path / "finalized").read_text().split() == [str(os.getpid())]


def test_default_batchify():
    samples = {"ints": [1, 2, 3], "floats": [1.5, 2.0], "np_f64": [np.ones(2), np.zeros(2)],
               "np_i8": [np.ones(2, np.int8), np.zeros(2, np.int8)], "bools": [True, False]}
    fn = gdata.dataloader.default_batchify_fn
    for key, value in samples.items():
        assert np.dtype(fn(value).dtype) == np.dtype(WANT["batchify_dtype"][key]), key
    nested = fn([(1, [1.0, 2.0]), (2, [3.0, 4.0])])
    assert type(nested).__name__ == WANT["batchify_nested"][0]
    assert [np.dtype(n.dtype) for n in nested] == [np.dtype(d) for d in WANT["batchify_nested"][1]]
    mx.util.set_np()
    try:
        batch = fn([mx.np.ones((2,)), mx.np.zeros((2,))])
        assert isinstance(batch, mx.np.ndarray) and batch.shape == (2, 2)
    finally:
        mx.util.reset_np()


def test_batchify_2x():
    b = gdata.batchify
    # MXNet 2.x's docstring examples
    padded = b.Pad(val=0)([np.array([1, 2, 3, 4]), np.array([4, 5, 6]), np.array([8, 2])])
    np.testing.assert_array_equal(padded.asnumpy(), [[1, 2, 3, 4], [4, 5, 6, 0], [8, 2, 0, 0]])
    padded = b.Pad(val=-1, round_to=3)([np.ones((2, 1)), np.ones((1, 2))])
    assert padded.shape == (2, 3, 3) and padded.asnumpy()[0, 2, 0] == -1
    assert b.Pad(dtype="float16")([[1], [2, 3]]).asnumpy().dtype == np.float16
    stacked = b.Stack()([np.array([1, 2, 3, 4]), np.array([4, 5, 6, 8]), np.array([8, 9, 1, 2])])
    np.testing.assert_array_equal(stacked.asnumpy(), [[1, 2, 3, 4], [4, 5, 6, 8], [8, 9, 1, 2]])
    appended = b.Append()([np.array([1, 2, 3, 4]), np.array([4, 5, 6]), np.array([8, 2])])
    assert [a.shape for a in appended] == [(1, 4), (1, 3), (1, 2)]
    assert [a.shape for a in b.Append(expand=False)([np.ones(2), np.ones(3)])] == [(2,), (3,)]
    data, _ = b.Group(b.Pad(val=0), b.Stack())([([1, 2, 3], 0), ([4], 1)])
    np.testing.assert_array_equal(data.asnumpy(), [[1, 2, 3], [4, 0, 0]])
    assert b.Group([b.AsList()])([([1],), ([2],)]) == ([[1], [2]],)
    with pytest.raises(ValueError, match="at least 2 elements"):
        b.Group(b.Stack(), b.Stack())([(1,), (2,)])
    with pytest.raises(NotImplementedError, match="Group"):
        b.Pad()([([1], 1)])


def test_split_and_clip():
    data = mx.nd.array(np.arange(42, dtype=np.float32).reshape(7, 6))
    for axis, n in [(0, 3), (1, 4), (0, 7)]:
        parts = utils.split_data(data, n, batch_axis=axis, even_split=False)
        assert [list(p.shape) for p in parts] == WANT[f"split_{axis}_{n}"]
        for i, p in enumerate(parts):
            np.testing.assert_array_equal(p.asnumpy(), ARRAYS[f"split_{axis}_{n}/{i}"])
    with pytest.raises(ValueError) as err:
        utils.split_data(data, 3)
    assert str(err.value) == WANT["split_error"]
    loaded = utils.split_and_load(np.arange(8).reshape(4, 2), [mx.cpu(0), mx.cpu(1)])
    assert [list(p.shape) for p in loaded] == [s for s, _ in WANT["split_and_load"]]
    for i, p in enumerate(loaded):
        np.testing.assert_array_equal(p.asnumpy(), ARRAYS[f"split_and_load/{i}"])
    for max_norm in (1.0, 100.0):
        gs = [mx.nd.array(g) for g in grads()]
        norm = utils.clip_global_norm(gs, max_norm)
        assert_close(np.float32(norm), np.float32(WANT[f"clip_{max_norm}"]), 1e-6)  # float32 sums' order
        for i, g in enumerate(gs):
            assert_close(g.asnumpy(), ARRAYS[f"clip_{max_norm}/{i}"], 1e-6)
    gs = [mx.nd.array(g) for g in grads()]
    norm = utils.clip_global_norm(gs, 0.5, check_isfinite=False)
    kind, shape, value = WANT["clip_nocheck"]
    assert type(norm).__name__ == kind and list(norm.shape) == shape
    assert_close(np.float32(norm.asscalar()), np.float32(value), 1e-6)
    with pytest.warns(UserWarning, match="nan or inf"), np.errstate(invalid="ignore"):
        utils.clip_global_norm([mx.nd.array([np.inf, 1.0])], 1.0)
    assert [utils.shape_is_known(s) for s in [(2, 3), (0, 3), (), None]] == WANT["shape_is_known"]


def test_clip_global_norm_scales_parameter_gradients_in_place():
    """As on MXNet's NDArray, ``p.grad()`` changes in place under ``*=`` (clip_global_norm) and ``+=``, so the
    Trainer steps with the clipped gradients."""
    layer = mx.gluon.nn.Dense(2, in_units=3)
    layer.initialize()
    with mx.autograd.record():
        out = layer(mx.nd.array([[1.0, 2.0, 3.0]])).sum()
    out.backward()
    before = [p.grad().asnumpy().copy() for p in layer.collect_params().values()]
    total = np.sqrt(sum(float((b.astype(np.float64) ** 2).sum()) for b in before))
    norm = utils.clip_global_norm([p.grad() for p in layer.collect_params().values()], 0.5)
    assert_close(np.float32(norm), np.float32(total), 1e-6)
    for b, p in zip(before, layer.collect_params().values()):
        assert_close(p.grad().asnumpy(), b * np.float32(0.5 / (total + 1e-8)), 1e-6)
    g = layer.bias.grad()
    g += 1.0
    assert_close(layer.bias.grad().asnumpy(), before[1] * np.float32(0.5 / (total + 1e-8)) + 1, 1e-6)


def test_split_and_load_dtype():
    loaded = utils.split_and_load(np.arange(8).reshape(4, 2), [mx.cpu(0), mx.cpu(1)])
    assert [str(np.dtype(p.dtype)) for p in loaded] == [d for _, d in WANT["split_and_load"]]


def test_download_and_files(tmp_path):
    src = tmp_path / "w.params"
    src.write_bytes(b"weights")
    assert utils.download("https://host/w.params", path=str(tmp_path)) == str(src)
    copy = utils.download("file://" + str(src), path=str(tmp_path / "sub" / "x.params"))
    assert Path(copy).read_bytes() == b"weights"
    good = __import__("hashlib").sha1(b"weights").hexdigest()
    assert utils.check_sha1(str(src), good) and not utils.check_sha1(str(src), "0" * 40)
    with pytest.raises(RuntimeError, match="no network access.*put it at"):
        utils.download("https://host/missing.params", path=str(tmp_path))
    with pytest.raises(RuntimeError, match="does not match sha1_hash"):
        utils.download("https://host/w.params", path=str(tmp_path), sha1_hash="0" * 40)
    with pytest.raises(UserWarning, match="content hash does not match"):
        utils.download("file://" + str(src), path=str(tmp_path / "y.params"), sha1_hash="0" * 40)
    with pytest.raises(OSError, match="failed"):
        utils.replace_file(str(tmp_path / "nothing"), str(tmp_path / "dst"))


def test_hook_handle():
    import pickle
    from collections import OrderedDict

    hooks = OrderedDict()
    with utils.HookHandle() as handle:
        handle.attach(hooks, print)
        assert list(hooks.values()) == [print]
        with pytest.raises(AssertionError, match="attached twice"):
            handle.attach(hooks, len)
    assert not hooks
    clone = pickle.loads(pickle.dumps(handle))
    clone.detach()
