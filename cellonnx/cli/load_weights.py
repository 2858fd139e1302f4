"""`cellonnx load-weights MODEL.onnx CKPT -o OUT.onnx`: replace an ONNX model's initializers from a checkpoint."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cellonnx.cli import CommandError
from cellonnx.converters import FORMATS, read, replace_initializers
from cellonnx.converters.onnx_format import load_model, save_model


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("load-weights", help="put checkpoint weights into an ONNX model",
                              description="Replace the initializers of an ONNX model with the same-named tensors "
                                          "of a checkpoint; shapes and dtypes must match.")
    p.add_argument("model", help="ONNX model whose initializers are replaced")
    p.add_argument("checkpoint", help="checkpoint with the new values (any supported format)")
    p.add_argument("-o", "--output", help="where to write the model (default: overwrite MODEL)")
    p.add_argument("--from", dest="format", choices=sorted(FORMATS), help="checkpoint format")
    p.add_argument("--partial", action="store_true", help="allow initializers without a tensor and extra tensors")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    model = load_model(args.model)
    tensors, _ = read(args.checkpoint, args.format)
    try:
        report = replace_initializers(model, tensors, strict=not args.partial)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    out = Path(args.output or args.model)
    out.parent.mkdir(parents=True, exist_ok=True)  # as export and convert do
    save_model(model, out)
    print("; ".join(report.lines()))
    return 0
