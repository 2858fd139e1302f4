"""Eager training step of the zoo's Transformer classifier (BERT-tiny: hidden 128, 2 layers, 2 heads, FFN 512,
exact GELU, post-LayerNorm) beside the same network in PyTorch eager, same weights, same threads, in one run.

    PYTHONPATH=/work/main:/work/venv/lib/python3.11/site-packages /work/envs/torch/bin/python \\
        bench/transformer_step.py [--threads 2] [--batch 32] [--seq 128] [--rounds 6] [--steps 3]

One step = forward over token ids and an attention mask (the last eighth of every sequence is padding),
softmax cross-entropy, backward, optimizer update: ``TrainOneStepCell`` with ``nn.Adam(lr=1e-4)`` against
PyTorch's ``CrossEntropyLoss`` + ``Adam(lr=1e-4)`` with ``zero_grad(set_to_none=True)``. Dropout is 0 in both
so that the two networks compute the same function: both print the same first loss. The libraries alternate
in rounds of ``--steps`` steps; the best and the median step over all rounds are reported.
"""
from __future__ import annotations

import argparse
import math

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv()

import os  # noqa: E402
import statistics  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
from cellonnx.models import get_model  # noqa: E402
from torch import nn as tnn  # noqa: E402
from train_step import timed  # noqa: E402

import cellonnx as ms  # noqa: E402
from cellonnx import nn  # noqa: E402
from cellonnx.tensor import Tensor  # noqa: E402

HIDDEN, LAYERS, HEADS, FFN, CLASSES, EPS = 128, 2, 2, 512, 2, 1e-12


class TorchAttention(tnn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.query, self.key, self.value, self.output = (tnn.Linear(HIDDEN, HIDDEN) for _ in range(4))
        self.head_dim = HIDDEN // HEADS

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, n, _ = x.shape

        def heads(t: torch.Tensor) -> torch.Tensor:
            return t.view(b, n, HEADS, self.head_dim).transpose(1, 2)

        q = heads(self.query(x) * (1.0 / math.sqrt(self.head_dim)))
        scores = q @ heads(self.key(x)).transpose(-1, -2) + mask
        context = (torch.softmax(scores, -1) @ heads(self.value(x))).transpose(1, 2).reshape(b, n, HIDDEN)
        return self.output(context)


class TorchLayer(tnn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.attention = TorchAttention()
        self.attention_norm = tnn.LayerNorm(HIDDEN, eps=EPS)
        self.intermediate = tnn.Linear(HIDDEN, FFN)
        self.ffn_output = tnn.Linear(FFN, HIDDEN)
        self.ffn_norm = tnn.LayerNorm(HIDDEN, eps=EPS)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        x = self.attention_norm(x + self.attention(x, mask))
        return self.ffn_norm(x + self.ffn_output(tnn.functional.gelu(self.intermediate(x))))


class TorchClassifier(tnn.Module):
    def __init__(self, vocab: int, positions: int) -> None:
        super().__init__()
        self.token_embedding = tnn.Embedding(vocab, HIDDEN)
        self.position_embedding = tnn.Embedding(positions, HIDDEN)
        self.embedding_norm = tnn.LayerNorm(HIDDEN, eps=EPS)
        self.layers = tnn.ModuleList(TorchLayer() for _ in range(LAYERS))
        self.pooler = tnn.Linear(HIDDEN, HIDDEN)
        self.classifier = tnn.Linear(HIDDEN, CLASSES)

    def forward(self, ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        b, n = ids.shape
        x = self.embedding_norm(self.token_embedding(ids) + self.position_embedding.weight[:n])
        mask = (1.0 - attention_mask.to(torch.float32).view(b, 1, 1, n)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask)
        return self.classifier(torch.tanh(self.pooler(x[:, 0])))


def torch_name(name: str) -> str:
    """cellonnx parameter name -> the torch twin's: embedding_table, gamma, beta -> weight, weight, bias."""
    return name.replace("embedding_table", "weight").replace(".gamma", ".weight").replace(".beta", ".bias")


def steps(batch: int, seq: int):
    ms.set_seed(0)
    net = get_model("transformer_classifier", num_classes=CLASSES, dropout=0.0)
    vocab, positions = net.token_embedding.embedding_table.shape[0], net.max_position
    tnet = TorchClassifier(vocab, positions)
    theirs = dict(tnet.named_parameters())
    with torch.no_grad():
        for name, p in net.parameters_and_names():
            t = theirs.pop(torch_name(name))
            assert tuple(t.shape) == tuple(p.shape), (name, t.shape, p.shape)
            t.copy_(torch.from_numpy(p.asnumpy()))
    assert not theirs, f"torch parameters with no cellonnx twin: {sorted(theirs)}"

    rng = np.random.default_rng(0)
    ids = rng.integers(0, vocab, (batch, seq)).astype(np.int32)
    mask = np.ones((batch, seq), np.int32)
    mask[:, seq - seq // 8:] = 0
    y = rng.integers(0, CLASSES, batch).astype(np.int32)

    class WithLoss(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.net = net
            self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

        def construct(self, ids, mask, y):
            return self.loss(self.net(ids, mask), y)

    train = nn.TrainOneStepCell(WithLoss(), nn.Adam(net.trainable_params(), learning_rate=1e-4))
    train.set_train()
    args = (Tensor(ids), Tensor(mask), Tensor(y))

    tnet.train()
    opt = torch.optim.Adam(tnet.parameters(), lr=1e-4)
    criterion = tnn.CrossEntropyLoss()
    t_args = (torch.from_numpy(ids.astype(np.int64)), torch.from_numpy(mask),
              torch.from_numpy(y.astype(np.int64)))

    def torch_step() -> float:
        opt.zero_grad(set_to_none=True)
        out = criterion(tnet(t_args[0], t_args[1]), t_args[2])
        out.backward()
        opt.step()
        return float(out.detach())

    first = (float(train(*args).asnumpy()), torch_step())  # same weights and batch: the same first loss
    return (lambda: train(*args)), torch_step, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(THREADS)
    load0 = os.getloadavg()[0]
    ours, theirs, first = steps(args.batch, args.seq)
    times: dict[str, list[float]] = {"cellonnx": [], "PyTorch": []}
    for fn in (ours, theirs):
        timed(fn, 1)
    for r in range(args.rounds):
        order = [("cellonnx", ours), ("PyTorch", theirs)]
        for lib, fn in order if r % 2 == 0 else order[::-1]:
            times[lib] += timed(fn, args.steps)
    best = {k: min(v) for k, v in times.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{THREADS} thread(s); load average {load0:.2f} -> {os.getloadavg()[0]:.2f}; numpy "
          f"{np.__version__}, torch {torch.__version__}; first loss {first[0]:.5f} / {first[1]:.5f}\n")
    print("| network | threads | cellonnx best (median) | PyTorch best (median) | ratio best (median) |")
    print("|---|---|---|---|---|")
    print(f"| transformer_classifier, batch {args.batch} x {args.seq} tokens | {THREADS} | "
          f"{best['cellonnx'] * 1e3:.1f} ({med['cellonnx'] * 1e3:.1f}) ms | "
          f"{best['PyTorch'] * 1e3:.1f} ({med['PyTorch'] * 1e3:.1f}) ms | "
          f"**{best['cellonnx'] / best['PyTorch']:.2f}x** ({med['cellonnx'] / med['PyTorch']:.2f}x) |")


if __name__ == "__main__":
    main()
