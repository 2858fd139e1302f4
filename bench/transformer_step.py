"""Eager training step of the zoo's Transformer classifier (BERT-tiny: hidden 128, 2 layers, 2 heads, FFN 512,
exact GELU, post-LayerNorm) beside the same network in PyTorch eager, same weights, same threads, in one run.

    PYTHONPATH=/work/main:/work/venv/lib/python3.11/site-packages /work/envs/torch/bin/python \\
        bench/transformer_step.py [--threads 2] [--batch 32] [--seq 128] [--rounds 6] [--steps 3] \\
        [--dropout 0.1] [--cellonnx-only]

One step = forward over token ids and an attention mask (the last eighth of every sequence is padding),
softmax cross-entropy, backward, optimizer update: ``TrainOneStepCell`` with ``nn.Adam(lr=1e-4)`` against
PyTorch's ``CrossEntropyLoss`` + ``Adam(lr=1e-4)`` with ``zero_grad(set_to_none=True)``. Dropout is 0 in both
by default, so that the two networks compute the same function: both print the same first loss (``--dropout
0.1``, the zoo's default, times the same step with each library's own random masks). The libraries alternate
in rounds of ``--steps`` steps; the best and the median step over all rounds are reported, and the minor page
faults per cellonnx step (memory the allocator handed back to the system and the next step touched again).
"""
from __future__ import annotations

import argparse
import math

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv()

import os  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
from cellonnx.models import get_model  # noqa: E402
from torch import nn as tnn  # noqa: E402
from train_step import timed  # noqa: E402

import cellonnx as ms  # noqa: E402
from cellonnx import nn  # noqa: E402
from cellonnx.progress import track  # noqa: E402
from cellonnx.tensor import Tensor  # noqa: E402

HIDDEN, LAYERS, HEADS, FFN, CLASSES, EPS = 128, 2, 2, 512, 2, 1e-12


class TorchAttention(tnn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.query, self.key, self.value, self.output = (tnn.Linear(HIDDEN, HIDDEN) for _ in range(4))
        self.head_dim = HIDDEN // HEADS

    def forward(self, x: torch.Tensor, mask: torch.Tensor, dropout: tnn.Module) -> torch.Tensor:
        b, n, _ = x.shape

        def heads(t: torch.Tensor) -> torch.Tensor:
            return t.view(b, n, HEADS, self.head_dim).transpose(1, 2)

        q = heads(self.query(x) * (1.0 / math.sqrt(self.head_dim)))
        scores = q @ heads(self.key(x)).transpose(-1, -2) + mask
        probs = dropout(torch.softmax(scores, -1))
        context = (probs @ heads(self.value(x))).transpose(1, 2).reshape(b, n, HIDDEN)
        return self.output(context)


class TorchLayer(tnn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.attention = TorchAttention()
        self.attention_norm = tnn.LayerNorm(HIDDEN, eps=EPS)
        self.intermediate = tnn.Linear(HIDDEN, FFN)
        self.ffn_output = tnn.Linear(FFN, HIDDEN)
        self.ffn_norm = tnn.LayerNorm(HIDDEN, eps=EPS)

    def forward(self, x: torch.Tensor, mask: torch.Tensor, dropout: tnn.Module) -> torch.Tensor:
        x = self.attention_norm(x + dropout(self.attention(x, mask, dropout)))
        return self.ffn_norm(x + dropout(self.ffn_output(tnn.functional.gelu(self.intermediate(x)))))


class TorchClassifier(tnn.Module):
    def __init__(self, vocab: int, positions: int, dropout: float) -> None:
        super().__init__()
        self.dropout = tnn.Dropout(dropout)
        self.token_embedding = tnn.Embedding(vocab, HIDDEN)
        self.position_embedding = tnn.Embedding(positions, HIDDEN)
        self.embedding_norm = tnn.LayerNorm(HIDDEN, eps=EPS)
        self.layers = tnn.ModuleList(TorchLayer() for _ in range(LAYERS))
        self.pooler = tnn.Linear(HIDDEN, HIDDEN)
        self.classifier = tnn.Linear(HIDDEN, CLASSES)

    def forward(self, ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        b, n = ids.shape
        x = self.dropout(self.embedding_norm(self.token_embedding(ids) + self.position_embedding.weight[:n]))
        mask = (1.0 - attention_mask.to(torch.float32).view(b, 1, 1, n)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask, self.dropout)
        return self.classifier(self.dropout(torch.tanh(self.pooler(x[:, 0]))))


def torch_name(name: str) -> str:
    """cellonnx parameter name -> the torch twin's: embedding_table, gamma, beta -> weight, weight, bias."""
    return name.replace("embedding_table", "weight").replace(".gamma", ".weight").replace(".beta", ".bias")


def cellonnx_step(batch: int, seq: int, dropout: float):
    """The zoo network's training step on a fixed batch: (step, network, (ids, mask, y))."""
    ms.set_seed(0)
    net = get_model("transformer_classifier", num_classes=CLASSES, dropout=dropout)
    rng = np.random.default_rng(0)
    ids = rng.integers(0, net.token_embedding.embedding_table.shape[0], (batch, seq)).astype(np.int32)
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
    return (lambda: float(train(*args).asnumpy())), net, (ids, mask, y)


def torch_step(net, data: tuple, dropout: float):
    """The PyTorch twin's training step with ``net``'s current weights, on the same batch."""
    tnet = TorchClassifier(net.token_embedding.embedding_table.shape[0], net.max_position, dropout)
    theirs = dict(tnet.named_parameters())
    with torch.no_grad():
        for name, p in net.parameters_and_names():
            t = theirs.pop(torch_name(name))
            assert tuple(t.shape) == tuple(p.shape), (name, t.shape, p.shape)
            t.copy_(torch.from_numpy(p.asnumpy()))
    assert not theirs, f"torch parameters with no cellonnx twin: {sorted(theirs)}"
    tnet.train()
    opt = torch.optim.Adam(tnet.parameters(), lr=1e-4)
    criterion = tnn.CrossEntropyLoss()
    ids, mask, y = torch.from_numpy(data[0].astype(np.int64)), torch.from_numpy(data[1]), \
        torch.from_numpy(data[2].astype(np.int64))

    def step() -> float:
        opt.zero_grad(set_to_none=True)
        out = criterion(tnet(ids, mask), y)
        out.backward()
        opt.step()
        return float(out.detach())

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--dropout", type=float, default=0.0)
    parser.add_argument("--cellonnx-only", action="store_true",
                        help="cellonnx's steps back to back in a process where PyTorch never runs (a "
                             "training loop of cellonnx alone: no PyTorch allocations in its heap)")
    args = parser.parse_args()
    torch.set_num_threads(THREADS)
    load0 = os.getloadavg()[0]
    ours, net, data = cellonnx_step(args.batch, args.seq, args.dropout)
    theirs = None if args.cellonnx_only else torch_step(net, data, args.dropout)
    first = (ours(), theirs() if theirs else float("nan"))  # same weights and batch: the same first loss
    steps = {"cellonnx": ours, **({"PyTorch": theirs} if theirs else {})}
    times: dict[str, list[float]] = {k: [] for k in steps}
    faults = 0
    for r in track(range(args.rounds), "rounds"):
        order = list(steps.items())
        for lib, fn in order if r % 2 == 0 else order[::-1]:
            before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            times[lib] += timed(fn, args.steps)
            if lib == "cellonnx":
                faults += resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    best = {k: min(v) for k, v in times.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{THREADS} thread(s); load average {load0:.2f} -> {os.getloadavg()[0]:.2f}; numpy "
          f"{np.__version__}, torch {torch.__version__}; dropout {args.dropout}; first loss {first[0]:.5f} / "
          f"{first[1]:.5f}; cellonnx minor page faults per step {faults / len(times['cellonnx']):.0f}\n")
    print("| network | threads | cellonnx best (median) | PyTorch best (median) | ratio best (median) |")
    print("|---|---|---|---|---|")
    theirs_cell, ratio = "not run", ""
    if theirs:
        theirs_cell = f"{best['PyTorch'] * 1e3:.1f} ({med['PyTorch'] * 1e3:.1f}) ms"
        ratio = f"**{best['cellonnx'] / best['PyTorch']:.2f}x** ({med['cellonnx'] / med['PyTorch']:.2f}x)"
    print(f"| transformer_classifier, batch {args.batch} x {args.seq} tokens, dropout {args.dropout} | "
          f"{THREADS} | {best['cellonnx'] * 1e3:.1f} ({med['cellonnx'] * 1e3:.1f}) ms | {theirs_cell} | "
          f"{ratio} |")


if __name__ == "__main__":
    main()
