"""`cellonnx quickstart`: the main job in one command. Trains LeNet-5 on the bundled UCI digits with
Model.train in eager NumPy, compiles it, verifies onnxruntime against eager, and writes the ONNX model, the
checkpoint (ONNX initializers, MindSpore .ckpt, safetensors) and a PNG of the training curves."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from cellonnx.cli import CommandError


def register(sub: Any) -> None:
    p = sub.add_parser("quickstart", help="train LeNet-5 on the bundled digits, compile, export and verify",
                       description=__doc__)
    p.add_argument("--out", default="out", help="folder for the files written (default: out)")
    p.add_argument("--epochs", type=int, default=20, help="training epochs (default: 20)")
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.03,
                   help="peak Momentum learning rate, cosine-decayed over the run (default: 0.03)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="one epoch on 320 training images (a smoke run)")
    p.set_defaults(func=run)


class _EpochLog:
    """A Model.train callback: mean training loss and test accuracy after every epoch."""

    def __init__(self, model: Any, test: Any, epochs: int) -> None:
        from cellonnx.train import Callback

        log = self

        class Cb(Callback):
            def on_train_step_end(self, run_context: Any) -> None:
                log.step_losses.append(float(run_context.original_args().net_outputs.asnumpy()))

            def on_train_epoch_end(self, run_context: Any) -> None:
                epoch = run_context.original_args().cur_epoch_num
                log.train_loss.append(float(np.mean(log.step_losses)))
                log.step_losses.clear()
                result = model.eval(test)
                log.test_loss.append(float(result["loss"]))
                log.test_acc.append(float(result["accuracy"]))
                print(f"epoch {epoch:>2}/{epochs}  train loss {log.train_loss[-1]:.4f}  test loss "
                      f"{log.test_loss[-1]:.4f}  test accuracy {log.test_acc[-1]:.2%}", flush=True)

        self.callback = Cb()
        self.step_losses: list[float] = []
        self.train_loss: list[float] = []
        self.test_loss: list[float] = []
        self.test_acc: list[float] = []


def _latency_ms(fn: Any, x: Any, runs: int = 50) -> float:
    fn(x)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - start)
    return float(np.median(times) * 1e3)


def _size(path: str) -> str:
    size = Path(path).stat().st_size
    return f"{size / 1024:.1f} KiB" if size < 1024 ** 2 else f"{size / 1024 ** 2:.1f} MiB"


def run(args: argparse.Namespace) -> int:
    wall_start = time.perf_counter()
    import cellonnx as ms
    from cellonnx import nn
    from cellonnx.graph.compile import compile_cell
    from cellonnx.models import digits
    from cellonnx.models.curves import plot_curves
    from cellonnx.models.lenet import LeNet5
    from cellonnx.progress import enabled

    if args.epochs < 1 or args.batch_size < 1 or args.lr <= 0:
        raise CommandError("--epochs and --batch-size must be positive and --lr above 0")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create the output folder {out}: {exc.strerror}") from None
    epochs = 1 if args.quick else args.epochs
    limit = 320 if args.quick else None

    ms.set_seed(args.seed)
    train = digits.create_dataset("train", args.batch_size, seed=args.seed, limit=limit, augment=2)
    test = digits.create_dataset("test", 256, seed=args.seed)
    net = LeNet5(num_classes=10)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    steps = train.get_dataset_size()
    lr = nn.cosine_decay_lr(args.lr * 0.01, args.lr, steps * epochs, steps, epochs)
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9, weight_decay=1e-4)
    model = ms.Model(net, loss_fn, optimizer, metrics={"accuracy", "loss"}, progress_bar=enabled())
    log = _EpochLog(model, test, epochs)

    _, train_labels, _, test_labels = digits.split(*digits.load_digits(), seed=args.seed)
    n_train, n_test = min(len(train_labels), limit or len(train_labels)), len(test_labels)
    print(f"training LeNet-5 on {n_train} digits (32x32, shifted up to 2 px), testing on {n_test}; {epochs} "
          f"epoch(s), eager NumPy", flush=True)
    start = time.perf_counter()
    model.train(epochs, train, callbacks=[log.callback])
    train_seconds = time.perf_counter() - start

    # compile, verify and time: onnxruntime against eager on the test images
    net.set_train(False)
    images = np.concatenate([batch[0].asnumpy() for batch in test.create_tuple_iterator()])
    net.set_inputs(ms.Tensor(shape=(None, 1, 32, 32), dtype=ms.float32))
    report = ms.verify(net, ms.Tensor(images[:64]))
    compiled = compile_cell(net, ms.Tensor(images[:1]))
    one = ms.Tensor(images[:1])
    with ms.no_grad():
        eager_ms = _latency_ms(net, one)
    ort_ms = _latency_ms(compiled, one)

    files = {
        "ONNX model": ms.export(net, ms.Tensor(images[:1]), file_name=str(out / "lenet5.onnx")),
        "checkpoint (ONNX initializers)": str(out / "lenet5_weights.onnx"),
        "checkpoint (MindSpore)": str(out / "lenet5.ckpt"),
        "checkpoint (safetensors)": str(out / "lenet5.safetensors"),
        "training curves": str(out / "training_curves.png"),
    }
    from cellonnx.cli.predict import annotate
    annotate(files["ONNX model"], digits.preprocess_info(32))
    for key, fmt in (("checkpoint (ONNX initializers)", "onnx"), ("checkpoint (MindSpore)", "ckpt"),
                     ("checkpoint (safetensors)", "safetensors")):
        ms.save_checkpoint(net, files[key], format=fmt)
    plot_curves(files["training curves"], {"train": log.train_loss, "test": log.test_loss},
                {"test": log.test_acc}, title=f"LeNet-5 on the UCI digits ({epochs} epoch(s), batch "
                f"{args.batch_size}, peak lr {args.lr:g})")

    acc = log.test_acc[-1]
    rows = [("test accuracy", f"{acc:.2%}"), ("training time", f"{train_seconds:.1f} s"),
            ("onnxruntime vs eager", "max abs err " + ", ".join(f"{o.max_abs:.1e}" for o in report.outputs)
             + (" (match)" if report.passed else " (MISMATCH)")),
            ("latency, batch 1", f"eager {eager_ms:.2f} ms, onnxruntime {ort_ms:.2f} ms")]
    rows += [(name, f"{path}  ({_size(path)})") for name, path in files.items()]
    rows.append(("wall time", f"{time.perf_counter() - wall_start:.1f} s"))
    width = max(len(k) for k, _ in rows)
    print()
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    if not report.passed:
        print(report, file=sys.stderr)
        return 1
    return 0
