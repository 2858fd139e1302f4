"""The training step of MXNet's Gluon word language model (example/gluon/word_language_model: Embedding, a
2-layer LSTM, a Dense decoder; train.py's loop body: detach the states, forward and loss under
``autograd.record()``, ``backward``, ``clip_global_norm``, ``Trainer.step`` of SGD at lr 20) with the model
hybridized (one forward and one backward onnxruntime graph taking the states as inputs) against the same
model run eagerly, in one process, in blocks of steps with a pause between blocks (bench/blocks.py); the
third side is the hybridized model with onnxruntime's threads spinning between runs (its default, which
cellonnx.gluon.hybrid_train turns off). It also prints how many times the hybridized model traced its
training graphs.

    .venv/bin/python bench/gluon_rnn_train.py [--rounds 6] [--steps 5] [--batch 20] [--bptt 35]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blocks import in_blocks, timed

import cellonnx.mxnet as mx
from cellonnx.gluon import hybrid_train
from cellonnx.gluon.hybrid_train import CompiledTraining

gluon, autograd, nn, rnn = mx.gluon, mx.autograd, mx.gluon.nn, mx.gluon.rnn


class RNNModel(gluon.HybridBlock):
    """The word language model's RNNModel in LSTM mode, dropout 0."""

    def __init__(self, vocab: int, embed: int, hidden: int, layers: int) -> None:
        super().__init__()
        self.encoder = nn.Embedding(vocab, embed, weight_initializer=mx.init.Uniform(0.1))
        self.rnn = rnn.LSTM(hidden, layers, input_size=embed)
        self.decoder = nn.Dense(vocab, in_units=hidden)
        self.hidden = hidden

    def forward(self, inputs: Any, states: Any) -> Any:
        output, states = self.rnn(self.encoder(inputs), states)
        return self.decoder(output.reshape((-1, self.hidden))), states


def side(hybrid: bool, args: argparse.Namespace, traces: dict[str, Any], spinning: bool = False):
    rng = np.random.default_rng(0)
    mx.random.seed(0)
    net = RNNModel(args.vocab, args.embed, args.hidden, 2)
    net.initialize(mx.init.Xavier())
    if hybrid:
        net.hybridize()
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 20.0, "momentum": 0, "wd": 0})
    batches = [(mx.nd.array(rng.integers(0, args.vocab, (args.bptt, args.batch)).astype(np.float32)),
                mx.nd.array(rng.integers(0, args.vocab, (args.bptt * args.batch, 1)).astype(np.float32)))
               for _ in range(4)]
    state = {"hidden": net.rnn.begin_state(func=mx.nd.zeros, batch_size=args.batch), "i": 0}

    def step() -> None:
        x, y = batches[state["i"] % len(batches)]
        state["i"] += 1
        hidden = [h.detach() for h in state["hidden"]]
        with autograd.record():
            out, hidden = net(x, hidden)
            loss = loss_fn(out, y) / (args.bptt * args.batch)
        loss.backward()
        gluon.utils.clip_global_norm([p.grad() for p in net.collect_params().values()], 0.25)
        trainer.step(1)
        state["hidden"] = hidden

    t = time.perf_counter()
    hybrid_train.SPINNING = spinning
    try:
        step()  # traces when hybridized (the sessions are made then)
    finally:
        hybrid_train.SPINNING = False
    if not spinning:
        traces["first step s (hybridized)" if hybrid else "first step s (eager)"] = time.perf_counter() - t
    for _ in range(2):
        step()

    def count() -> int:
        return sum(isinstance(c, CompiledTraining) for c in net._compiled.values())
    if hybrid and not spinning:
        traces["count"] = count
    return lambda n: timed(step, n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--bptt", type=int, default=35)
    ap.add_argument("--vocab", type=int, default=1000)
    ap.add_argument("--embed", type=int, default=200)
    ap.add_argument("--hidden", type=int, default=200)
    args = ap.parse_args()
    traces: dict[str, Any] = {}
    sides = {"eager": side(False, args, traces), "hybridized": side(True, args, traces),
             "hybridized, spinning": side(True, args, traces, spinning=True)}
    times = in_blocks(sides, args.rounds, args.steps)
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    for k, v in med.items():
        print(f"{k:>20}: median {v:8.2f} ms per step, best {min(times[k]) * 1e3:8.2f} ms "
              f"({len(times[k])} steps)")
    for k in ("hybridized", "hybridized, spinning"):
        best = min(times[k]) / min(times["eager"])
        print(f"{k} / eager: median {med[k] / med['eager']:.2f}, best {best:.2f}")
    print(f"first (tracing) step: hybridized {traces['first step s (hybridized)']:.2f} s, eager "
          f"{traces['first step s (eager)']:.2f} s; training graphs traced: {traces['count']()} for "
          f"{3 + args.rounds * args.steps} steps")


if __name__ == "__main__":
    main()
