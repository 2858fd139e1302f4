"""mx.contrib's small modules against MXNet 1.9.1 (fixtures from gen_contrib_misc.py): contrib.text,
the legacy contrib.autograd, contrib.io.DataLoaderIter, contrib.ndarray / symbol, contrib.tensorboard."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet.contrib import autograd as cag
from cellonnx.mxnet.contrib import text
from cellonnx.mxnet.contrib.io import DataLoaderIter
from tests.tolerance import assert_close

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "contrib_misc"
WANT = json.loads((HERE / "expected.json").read_text())
ARRAYS = np.load(HERE / "expected.npz")
TEXT = "Life is great ! \n life is good . \n the the a \n"


def pairs(counter):
    return [list(p) for p in sorted(counter.items())]


def test_count_tokens_from_str():
    utils = text.utils
    assert pairs(utils.count_tokens_from_str(TEXT)) == WANT["count"]
    assert pairs(utils.count_tokens_from_str(TEXT, to_lower=True)) == WANT["count_lower"]
    assert pairs(utils.count_tokens_from_str("*a*b*\n*a*", "\\*", "\n")) == WANT["count_regex"]
    counter = utils.count_tokens_from_str(TEXT, to_lower=True)
    assert pairs(utils.count_tokens_from_str("x y x", counter_to_update=counter)) == WANT["count_update"]


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("plain", {}),
        ("most2", {"most_freq_count": 2}),
        ("min2", {"min_freq": 2}),
        ("reserved", {"reserved_tokens": ["<pad>", "<bos>"], "unknown_token": "<UNK>"}),
    ],
)
def test_vocabulary(name, kwargs):
    v = text.vocab.Vocabulary(text.utils.count_tokens_from_str(TEXT, to_lower=True), **kwargs)
    got = {
        "idx_to_token": v.idx_to_token,
        "len": len(v),
        "indices": v.to_indices(["life", "zzz", "the"]),
        "token": v.to_tokens(1),
    }
    assert got == WANT[f"vocab/{name}"]
    with pytest.raises(ValueError, match="Token index 99"):
        v.to_tokens(99)


def test_custom_and_composite_embeddings():
    vocab = text.vocab.Vocabulary(
        text.utils.count_tokens_from_str(TEXT, to_lower=True), reserved_tokens=["<pad>"]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        embed = text.embedding.CustomEmbedding(str(HERE / "vecs.txt"))
        with_vocab = text.embedding.CustomEmbedding(
            str(HERE / "vecs.txt"), vocabulary=vocab, init_unknown_vec=mx.nd.ones
        )
    assert embed.idx_to_token == WANT["custom/idx_to_token"]
    assert_close(embed.idx_to_vec.asnumpy(), ARRAYS["custom/idx_to_vec"], rtol=1e-6)
    assert_close(
        embed.get_vecs_by_tokens(["HELLO", "world", "nope"]).asnumpy(), ARRAYS["custom/lookup"], rtol=1e-6
    )
    assert_close(
        embed.get_vecs_by_tokens(["HELLO", "World"], lower_case_backup=True).asnumpy(),
        ARRAYS["custom/lookup_lower"],
        rtol=1e-6,
    )
    embed.update_token_vectors(["world", "the"], mx.nd.array([[1, 1, 1], [2, 2, 2]]))
    embed.update_token_vectors("<unk>", mx.nd.array([3, 3, 3]))
    assert_close(embed.idx_to_vec.asnumpy(), ARRAYS["custom/updated"], rtol=1e-6)
    with pytest.raises(ValueError, match="Token nope is unknown"):
        embed.update_token_vectors("nope", mx.nd.array([3, 3, 3]))
    assert with_vocab.idx_to_token == WANT["vocab_embed/idx_to_token"]
    assert_close(with_vocab.idx_to_vec.asnumpy(), ARRAYS["vocab_embed/idx_to_vec"], rtol=1e-6)
    second = text.embedding.CustomEmbedding(
        str(HERE / "vecs2.txt"), elem_delim=",", init_unknown_vec=mx.nd.ones
    )
    assert_close(second.idx_to_vec.asnumpy(), ARRAYS["second/idx_to_vec"], rtol=1e-6)
    composite = text.embedding.CompositeEmbedding(vocab, [embed, second])
    assert composite.idx_to_token == WANT["composite/idx_to_token"]
    assert composite.vec_len == WANT["composite/vec_len"]
    assert_close(composite.idx_to_vec.asnumpy(), ARRAYS["composite/idx_to_vec"], rtol=1e-6)


def test_pretrained_files_are_read_from_the_local_root(tmp_path):
    assert text.embedding.get_pretrained_file_names("glove") == WANT["pretrained/glove"]
    assert set(WANT["pretrained/keys"]) <= set(text.embedding.get_pretrained_file_names())
    with pytest.raises(KeyError, match="Cannot find pretrained file nope.txt for token embedding glove"):
        text.embedding.GloVe("nope.txt", embedding_root=str(tmp_path))
    with pytest.raises(FileNotFoundError, match=str(tmp_path / "fasttext" / "wiki.en.vec")):
        text.embedding.create("FastText", pretrained_file_name="wiki.en.vec", embedding_root=str(tmp_path))
    (tmp_path / "glove").mkdir()
    (tmp_path / "glove" / "glove.6B.50d.txt").write_text("a 1 2\nb 3 4\n")
    glove = text.embedding.create(
        "glove",
        pretrained_file_name="glove.6B.50d.txt",
        embedding_root=str(tmp_path),
        vocabulary=text.vocab.Vocabulary(text.utils.count_tokens_from_str("b c")),
    )
    assert glove.idx_to_token == ["<unk>", "b", "c"]
    assert glove.idx_to_vec.asnumpy().tolist() == [[0, 0], [3, 4], [0, 0]]


def test_legacy_autograd():
    a, b = mx.nd.array([1.0, 2.0, 3.0]), mx.nd.array([0.5, -1.0, 2.0])
    grads, loss = cag.grad_and_loss(lambda x, y: (x * x * y).sum() + y.sum())(a, b)
    assert_close(grads[0].asnumpy(), ARRAYS["autograd/grad_and_loss/0"], rtol=1e-6)
    assert_close(grads[1].asnumpy(), ARRAYS["autograd/grad_and_loss/1"], rtol=1e-6)
    assert_close(loss.asnumpy(), ARRAYS["autograd/grad_and_loss/loss"], rtol=1e-6)
    grads = cag.grad(lambda x, y: (mx.nd.exp(x) * y).sum(), argnum=[1])(a, b)
    assert_close(grads[0].asnumpy(), ARRAYS["autograd/grad_argnum"], rtol=1e-6)
    x, dx = mx.nd.array([1.0, -2.0]), mx.nd.zeros(2)
    cag.mark_variables([x], [dx])
    with cag.train_section():
        y = x * x * 3
        assert mx.autograd.is_training() == WANT["autograd/is_training_inside"]
        with cag.test_section():
            assert mx.autograd.is_training() == WANT["autograd/is_training_test"]
    cag.backward([y], [mx.nd.array([1.0, 10.0])])
    assert_close(dx.asnumpy(), ARRAYS["autograd/backward_out_grads"], rtol=1e-6)
    assert [cag.set_is_training(True), cag.set_is_training(False), cag.set_is_training(False)] == WANT[
        "autograd/set_is_training"
    ]


def test_dataloader_iter():
    data = np.arange(15, dtype="float32").reshape(5, 3)
    loader = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(data, np.arange(5)), batch_size=2)
    it = DataLoaderIter(loader, data_name="x", label_name="y", dtype="float16")
    provide = [[d.name, list(d.shape), str(np.dtype(d.dtype))] for d in it.provide_data + it.provide_label]
    assert provide == WANT["io/provide"] and it.batch_size == WANT["io/batch_size"]
    for epoch in range(2):
        pads = []
        for i, batch in enumerate(it):
            valid = 2 - batch.pad
            np.testing.assert_array_equal(batch.data[0].asnumpy()[:valid], ARRAYS[f"io/{epoch}/{i}/data"])
            np.testing.assert_array_equal(batch.label[0].asnumpy()[:valid], ARRAYS[f"io/{epoch}/{i}/label"])
            assert [list(batch.data[0].shape), np.dtype(batch.data[0].dtype).name] == WANT[
                f"io/{epoch}/{i}/shape"
            ]
            pads.append(batch.pad)
        assert pads == WANT[f"io/{epoch}/pads"]
        it.reset()


@pytest.mark.parametrize("module, source", [("ndarray", mx.nd.contrib), ("symbol", mx.sym.contrib)])
def test_contrib_operator_namespaces_hand_on_nd_and_sym_contrib(module, source):
    namespace = getattr(mx.contrib, module)
    assert getattr(mx.contrib, module[:3] if module == "symbol" else "nd") is namespace
    for name in WANT[f"names/{module}"]:
        if hasattr(source, name):
            assert getattr(namespace, name) is getattr(source, name)
        else:  # operators cellonnx does not have yet: absent from both
            assert not hasattr(namespace, name)
    assert not hasattr(namespace, "foreach")  # MXNet keeps control flow in nd.contrib / sym.contrib only
    assert set(dir(namespace)) <= set(WANT[f"names/{module}"])


def test_tensorboard_callback_writes_scalars_per_epoch(monkeypatch):
    from cellonnx.mxnet.contrib.tensorboard import LogMetricsCallback

    written = []

    class Writer:
        def __init__(self, logdir):
            self.logdir = logdir

        def add_scalar(self, name, value, global_step):
            written.append((name, value, global_step))

    import sys
    import types

    monkeypatch.setitem(sys.modules, "mxboard", types.SimpleNamespace(SummaryWriter=Writer))
    callback = LogMetricsCallback("logs/train", prefix="train")
    assert callback.summary_writer.logdir == "logs/train"
    metric = mx.metric.Accuracy()
    metric.update([mx.nd.array([1, 0])], [mx.nd.array([[0.2, 0.8], [0.3, 0.7]])])
    callback(SimpleNamespace(epoch=4, eval_metric=metric))
    callback(SimpleNamespace(epoch=5, eval_metric=None))
    assert written == [("train-accuracy", 0.5, 4)]
    monkeypatch.setitem(sys.modules, "mxboard", None)
    with pytest.raises(ImportError, match="mxboard"):
        LogMetricsCallback("logs")
