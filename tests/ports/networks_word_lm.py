"""MXNet's Gluon word language model (example/gluon/word_language_model, vendored: vendored.json), built
small, and the training step its train.py takes.

NumPy only, so that the fixture generator (tests/fixtures/mxnet/gen_word_lm.py) imports it under MXNet
1.9.1's python: ``build(module, mx, case)`` makes ``RNNModel`` from the imported module (the original under
MXNet, the ported copy under cellonnx) and sets its parameters from networks.param_value by structural name,
and ``train_steps`` runs train.py's loop body (detach the hidden state, forward and loss under
``autograd.record()``, ``L / (bptt * batch_size)``, backward, ``gluon.utils.clip_global_norm`` of every
parameter's gradient to ``CLIP``, ``trainer.step(1)`` of SGD at train.py's default learning rate) on both
sides with the framework passed in.

One file serves MXNet 1.9.1 and the 2.x line: the folder's last change (506a25c71c) predates both, and master
held the same blobs until the folder was removed (vendored.json), so each case runs that one file.
"""
from __future__ import annotations

import zlib
from typing import Any

import numpy as np

try:
    from tests.ports import networks as _shared
except ImportError:  # the fixture generator puts tests/ports itself on sys.path
    import networks as _shared

PACKAGE = "mxnet-example-word-lm"
MODULE = "gluon.word_language_model.model"  # under the entry's import_root (the repository's example/)
VOCAB, EMBED, HIDDEN, LAYERS, BPTT, BATCH = 20, 8, 8, 2, 5, 2
LR, CLIP, STEPS = 20.0, 0.25, 2  # train.py's defaults: --lr 20 --clip 0.25
# case -> (mode, tie_weights)
CASES: dict[str, tuple[str, bool]] = {
    "lstm": ("lstm", False),
    "gru": ("gru", False),
    "rnn_tanh": ("rnn_tanh", False),
    "rnn_relu": ("rnn_relu", False),
    "lstm_tied": ("lstm", True),
}


def states(case: str) -> int:
    return 2 if CASES[case][0] == "lstm" else 1


def data(case: str, batch: int = BATCH) -> dict[str, Any]:
    """Tokens (bptt, batch) as train.py feeds them (time major), the targets, and a begin state drawn
    N(0, 0.5) per state array (layers, batch, hidden)."""
    rng = np.random.default_rng(zlib.crc32(case.encode()) ^ _shared.SEED)
    tokens = rng.integers(0, VOCAB, (STEPS + 1, BPTT, batch)).astype(np.float32)
    targets = rng.integers(0, VOCAB, (STEPS + 1, BPTT, batch)).astype(np.float32)
    hidden = [rng.normal(0.0, 0.5, (LAYERS, batch, HIDDEN)).astype(np.float32) for _ in range(states(case))]
    return {"tokens": tokens, "targets": targets, "hidden": hidden}


def build(module: Any, mx: Any, case: str, structural: Any) -> Any:
    """``RNNModel(mode, VOCAB, EMBED, HIDDEN, LAYERS, dropout=0, tie_weights)``, 1.x names counted from a
    fresh NameManager, parameters from networks.param_value by the first of their save_parameters keys
    (``structural(net)``)."""
    mode, tied = CASES[case]
    with mx.name.NameManager():
        net = module.RNNModel(mode, VOCAB, EMBED, HIDDEN, LAYERS, 0.0, tied)
    net.initialize(mx.init.Xavier())
    seen: set[int] = set()
    for key, p in structural(net).items():
        if id(p) not in seen:
            seen.add(id(p))
            p.set_data(mx.nd.array(_shared.param_value(key, p.shape)))
    return net


def structural(net: Any) -> dict[str, Any]:
    """MXNet 1.9.1's parameters by save_parameters key (a tied weight under both names; a fused RNN layer's
    by its unfused cells, ``rnn._unfused.0.i2h_weight``)."""
    return dict(net._collect_params_with_prefix())


def train_steps(net: Any, mx: Any, case: str) -> dict[str, np.ndarray]:
    """train.py's loop body, STEPS times from the case's begin state: each step's loss (summed), the global
    gradient norm clip_global_norm returns, and the outputs of the last step."""
    gluon, autograd = mx.gluon, mx.autograd
    d = data(case)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": LR, "momentum": 0, "wd": 0})
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    hidden = [mx.nd.array(h) for h in d["hidden"]]
    losses, norms = [], []
    for i in range(STEPS):
        x = mx.nd.array(d["tokens"][i])
        target = mx.nd.array(d["targets"][i]).reshape((-1, 1))
        hidden = [h.detach() for h in hidden]
        with autograd.record():
            output, hidden = net(x, hidden)
            L = loss(output, target)
            L = L / (BPTT * BATCH)
            L.backward()
        grads = [p.grad() for p in net.collect_params().values()]
        norms.append(float(gluon.utils.clip_global_norm(grads, CLIP)))
        trainer.step(1)
        losses.append(float(mx.nd.sum(L).asscalar()))
    return {"train/loss": np.array(losses), "train/norm": np.array(norms)}
