"""`cellonnx train MODEL --data digits`: train a zoo model on the bundled digits with Model.fit (evaluating
on the test split after every epoch), then export it (with a dynamic batch axis), save its checkpoint and plot
its training curves (MODEL_curves.png)."""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from cellonnx.cli import CommandError


def register(sub: Any) -> None:
    p = sub.add_parser("train", help="train a zoo model on the bundled digits and export it",
                       description=__doc__)
    p.add_argument("model", help="a zoo model name (cellonnx.models.list_models())")
    p.add_argument("--data", default="digits", choices=["digits"], help="the data set (default: digits)")
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.01, help="Momentum learning rate (default: 0.01)")
    p.add_argument("--limit", type=int, default=None, help="use only this many training samples")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="out",
                   help="folder for MODEL.onnx, MODEL.ckpt and MODEL_curves.png (default: out)")
    p.set_defaults(func=run)


def _curve_log() -> tuple[Any, dict[str, list[float]]]:
    """A callback keeping, per epoch, the mean training loss and the evaluation results of Model.fit."""
    import numpy as np

    from cellonnx.train import Callback

    curves: dict[str, list[float]] = {"train loss": [], "test loss": [], "test accuracy": []}
    steps: list[float] = []

    class CurveLog(Callback):
        def on_train_step_end(self, run_context: Any) -> None:
            out = run_context.original_args().net_outputs
            steps.append(float(np.mean((out[0] if isinstance(out, (tuple, list)) else out).asnumpy())))

        def on_train_epoch_end(self, run_context: Any) -> None:
            results = run_context.original_args().get("eval_results") or {}
            curves["train loss"].append(float(np.mean(steps)) if steps else float("nan"))
            steps.clear()
            curves["test loss"].append(float(results.get("loss", float("nan"))))
            curves["test accuracy"].append(float(results.get("accuracy", float("nan"))))

    return CurveLog(), curves


def run(args: argparse.Namespace) -> int:
    import cellonnx as ms
    from cellonnx import nn
    from cellonnx.models import digits, get_model, list_models

    if args.model not in list_models():
        raise CommandError(f"unknown model {args.model!r}; choose one of {', '.join(list_models())}")
    if args.epochs < 1 or args.batch_size < 1 or args.lr <= 0:
        raise CommandError("--epochs and --batch-size must be positive and --lr above 0")
    if args.limit is not None and args.limit < 2:
        raise CommandError(f"--limit must be at least 2 samples, got {args.limit}")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create the output folder {out}: {exc.strerror}") from None
    setup = digits.input_for(args.model)
    ms.set_seed(args.seed)
    train = digits.create_dataset("train", args.batch_size, seed=args.seed, limit=args.limit,
                                  model=args.model)
    test = digits.create_dataset("test", 256, seed=args.seed, model=args.model)
    net = get_model(args.model, **setup.options)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)
    from cellonnx.progress import enabled

    model = ms.Model(net, loss_fn, optimizer, metrics={"accuracy", "loss"}, progress_bar=enabled())
    start = time.perf_counter()
    monitor = ms.train.LossMonitor(per_print_times=train.get_dataset_size())
    curve_log, curves = _curve_log()
    model.fit(args.epochs, train, test, callbacks=[monitor, curve_log])
    result = model.eval(test)
    print(f"{args.model}: test accuracy {result['accuracy']:.2%}, test loss {result['loss']:.4f}, "
          f"trained in {time.perf_counter() - start:.1f} s")
    net.set_train(False)
    first = next(iter(test.create_tuple_iterator()))[0]
    sample = ms.Tensor(first.asnumpy()[:1])
    net.set_inputs(ms.Tensor(shape=(None, *sample.shape[1:]), dtype=sample.dtype))
    onnx_path = ms.export(net, sample, file_name=str(out / args.model))
    if setup.kind == "image" and setup.channels == 1:
        from cellonnx.cli.predict import annotate
        annotate(onnx_path, digits.preprocess_info(setup.image_size))
    ms.save_checkpoint(net, str(out / f"{args.model}.ckpt"))
    from cellonnx.models.curves import plot_curves

    plot = plot_curves(out / f"{args.model}_curves.png",
                       {"train": curves["train loss"], "test": curves["test loss"]},
                       {"test": curves["test accuracy"]},
                       title=f"{args.model} on the UCI digits ({args.epochs} epoch(s), lr {args.lr:g})")
    print(f"wrote {onnx_path}, {out / (args.model + '.ckpt')} and {plot}")
    return 0
